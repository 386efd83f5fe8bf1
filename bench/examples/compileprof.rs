//! Compiles a corpus once (a profiling target: `valgrind --tool=callgrind`).
//! Arguments: corpus megabytes (1), threads (1).
use animkit_bench::corpus::{Corpus, SEED};
use animkit_compiler::{Options, Source, compile_jobs};

fn main() {
    let mb: f64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(1.0);
    let c = Corpus::generate(SEED, (mb * 1e6) as usize);
    let sources: Vec<Source> = c.files.iter().map(|(p, t)| Source::new(p.clone(), t.clone())).collect();
    let t = std::time::Instant::now();
    let jobs: usize = std::env::args().nth(2).and_then(|a| a.parse().ok()).unwrap_or(1);
    let p = compile_jobs(&sources, &Options::default(), jobs).unwrap();
    let bytes = animkit_vm::engine::codec::encode(&p);
    let s = t.elapsed().as_secs_f64();
    println!("{} -> {} bytes, {:.1} MB/s", c.bytes(), bytes.len(), c.bytes() as f64 / s / 1e6);
}
