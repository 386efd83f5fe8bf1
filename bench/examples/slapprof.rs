//! Compiles the SLAP corpus once on one thread (a profiling target).
use animkit_bench::slap_corpus::{SEED, SlapCorpus};
use animkit_compiler::{Options, Source, compile_jobs};
fn main() {
    let c = SlapCorpus::generate(SEED, 10 << 20);
    let sources: Vec<Source> = c.files.iter().map(|(p, t)| Source::new(p.clone(), t.clone())).collect();
    for _ in 0..3 {
        let p = compile_jobs(&sources, &Options::default(), 1).unwrap();
        std::hint::black_box(animkit_vm::engine::codec::encode(&p));
    }
}
