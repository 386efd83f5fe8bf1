//! Loads the corpus bundle repeatedly (a profiling target for the codec).
//! Arguments: corpus megabytes (10), then `load` (decode + verify, the
//! default), `decode` or `verify` for the part a profile should see, or
//! `clone` (copying the decoded program: the floor for building it).
use animkit_bench::corpus::{Corpus, SEED};
use animkit_compiler::{Options, Source, compile};
use std::hint::black_box;
use std::time::Instant;

fn main() {
    let mb: f64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(10.0);
    let what = std::env::args().nth(2).unwrap_or_else(|| "load".into());
    let c = Corpus::generate(SEED, (mb * 1e6) as usize);
    let sources: Vec<Source> = c.files.iter().map(|(p, t)| Source::new(p.clone(), t.clone())).collect();
    let p = compile(&sources, &Options::default()).unwrap();
    let bytes = animkit_vm::engine::codec::encode(&p);
    let fs = p.modules.iter().flat_map(|m| &m.functions);
    let (insns, lines) = fs.fold((0, 0), |(i, l), f| (i + f.code.len(), l + f.lines.len()));
    eprintln!(
        "{} modules, {} strings, {insns} instructions, {lines} debug positions",
        p.modules.len(),
        p.strings.len()
    );
    let mut best = f64::INFINITY;
    let mut drop_best = f64::INFINITY;
    for _ in 0..20 {
        let t = Instant::now();
        let kept = match what.as_str() {
            "decode" => Some(animkit_vm::engine::codec::decode(&bytes).unwrap()),
            // The floor for building this `Program`: its allocations and a
            // copy of every array, with no decoding at all.
            "clone" => Some(black_box(&p).clone()),
            "verify" => {
                animkit_vm::engine::verify::verify_program(&p).unwrap();
                None
            }
            _ => Some(animkit_vm::engine::codec::load(&bytes).unwrap().into_inner()),
        };
        best = best.min(t.elapsed().as_secs_f64());
        let t = Instant::now();
        drop(black_box(kept));
        drop_best = drop_best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "{what}: {} bytes, best {:.2} ms = {:.1} MB/s (drop {:.2} ms more)",
        bytes.len(),
        best * 1e3,
        bytes.len() as f64 / best / 1e6,
        drop_best * 1e3
    );
}
