//! Loads the corpus bundle repeatedly (a profiling target for the codec).
use animkit_bench::corpus::{Corpus, SEED};
use animkit_compiler::{Options, Source, compile};

fn main() {
    let mb: f64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(10.0);
    let c = Corpus::generate(SEED, (mb * 1e6) as usize);
    let sources: Vec<Source> = c.files.iter().map(|(p, t)| Source::new(p.clone(), t.clone())).collect();
    let p = compile(&sources, &Options::default()).unwrap();
    let bytes = animkit_vm::codec::encode(&p);
    let t = std::time::Instant::now();
    for _ in 0..20 {
        std::hint::black_box(animkit_vm::codec::load(&bytes).unwrap());
    }
    let s = t.elapsed().as_secs_f64() / 20.0;
    println!("{} bytes, {:.1} MB/s", bytes.len(), bytes.len() as f64 / s / 1e6);
}
