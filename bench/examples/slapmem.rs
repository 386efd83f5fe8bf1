//! Where a SLAP compile's heap bytes go: a counting allocator records the
//! peak and the live bytes of each phase (parse, check, the whole compile,
//! the bundle's encoding) for the worst shapes of `peakrss.rs` and the
//! corpus, in bytes per source byte.
//!
//! ```sh
//! cargo run --release -p animkit-bench --example slapmem -- 4   # 4 MB cases
//! ```

use animkit_bench::heap::{Counting, LIVE, PEAK};
use animkit_bench::slap_corpus::{SEED, SlapCorpus};
use animkit_compiler::{Options, Source, compile_jobs};
use std::sync::atomic::Ordering::Relaxed;

#[global_allocator]
static A: Counting = Counting;

/// Runs `f`, returning its result and the peak above the bytes live before.
fn phase<T>(f: impl FnOnce() -> T) -> (T, isize) {
    let base = LIVE.load(Relaxed);
    PEAK.store(base, Relaxed);
    let t = f();
    (t, PEAK.load(Relaxed) - base)
}

fn lines(line: &str, bytes: usize) -> String {
    line.repeat(bytes / line.len())
}

fn main() {
    let mb: f64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(4.0);
    let bytes = (mb * 1e6) as usize;
    let mut actors = String::new();
    let mut i = 0u32;
    while actors.len() < bytes {
        actors.push_str(&format!("actor {} color 1 1 1\n", i % (1 << 20)));
        i += 1;
    }
    let cases: Vec<(&str, Vec<(String, String)>)> = vec![
        ("corpus", SlapCorpus::generate(SEED, bytes).files),
        ("actor lines", vec![("a.slap".into(), actors)]),
        ("one line of args", vec![("a.slap".into(), format!("actor 1 color{}\n", lines(" 1", bytes - 20)))]),
        ("define x 1 1 ...", vec![("a.slap".into(), format!("define x{}\n", lines(" 1", bytes - 20)))]),
        ("time lines", vec![("a.slap".into(), lines("time +1\nactor 1 size 2\n", bytes))]),
    ];
    println!("bytes per source byte: each phase's peak above what was held before it; `ast` and `program` what stays");
    println!(
        "{:<18} {:>10} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8}",
        "case", "bytes", "parse", "ast", "front", "compile", "program", "encode"
    );
    for (name, files) in cases {
        let total: usize = files.iter().map(|f| f.1.len()).sum();
        let per = |b: isize| b as f64 / total as f64;
        let sources: Vec<Source> = files.into_iter().map(|(p, t)| Source::new(p, t)).collect();
        let ((ast, _), parse_peak) = phase(|| animkit_grammar::slap::parse(&sources[0].text));
        let live_before = LIVE.load(Relaxed);
        drop(ast);
        let ast_bytes = live_before - LIVE.load(Relaxed);
        let (_, front_peak) = phase(|| animkit_compiler::slap::front(&sources[0].text).map(|c| c.ir.commands.len()));
        let before = LIVE.load(Relaxed);
        let (program, compile_peak) = phase(|| compile_jobs(&sources, &Options::default(), 1));
        let program_bytes = LIVE.load(Relaxed) - before;
        let (_, encode_peak) = phase(|| program.as_ref().map(animkit_vm::engine::codec::encode).map(|b| b.len()));
        let first = sources[0].text.len() as f64 / total as f64;
        println!(
            "{:<18} {:>10} {:>8.2} {:>8.2} {:>8.2} {:>8.2} {:>8.2} {:>8.2}{}",
            name,
            total,
            per(parse_peak) / first,
            per(ast_bytes) / first,
            per(front_peak) / first,
            per(compile_peak),
            per(program_bytes),
            per(encode_peak),
            if program.is_ok() { "" } else { "  (errors)" }
        );
    }
}
