//! Where the bytes of a bundle go (a tool for working on the codec).
use animkit_bench::corpus::{Corpus, SEED};
use animkit_compiler::{Options, Source, compile};

fn main() {
    let arg = std::env::args().nth(1);
    let (sources, bytes): (Vec<Source>, usize) = match arg {
        Some(path) => {
            let t = std::fs::read_to_string(&path).unwrap();
            let n = t.len();
            (vec![Source::new(path, t)], n)
        }
        None => {
            let c = Corpus::generate(SEED, 2_000_000);
            let n = c.bytes();
            (c.files.iter().map(|(p, t)| Source::new(p.clone(), t.clone())).collect(), n)
        }
    };
    let p = compile(&sources, &Options::default()).unwrap();
    let strings: usize = p.strings.iter().map(|s| s.len() + 1).sum();
    let insns: usize = p.modules.iter().flat_map(|m| &m.functions).map(|f| f.code.len()).sum();
    let lines: usize = p.modules.iter().flat_map(|m| &m.functions).map(|f| f.lines.len()).sum();
    let states: usize = p.modules.iter().map(|m| m.states.len()).sum();
    let paths: usize = p.modules.iter().map(|m| m.source.as_ref().map_or(0, |s| s.len() + 1)).sum();
    let full = animkit_vm::engine::codec::encode(&p).len();
    let mut q = p.clone();
    q.strip();
    let stripped = animkit_vm::engine::codec::encode(&q).len();
    println!(
        "source {bytes}  bundle {full} ({:.3})  stripped {stripped} ({:.3})",
        full as f64 / bytes as f64,
        stripped as f64 / bytes as f64
    );
    if p.modules.len() == 1 {
        let f = &p.modules[0].functions[0];
        let mut q = p.clone();
        q.modules[0].functions[0].lines.clear();
        let no_lines = animkit_vm::engine::codec::encode(&q).len();
        q.strings.iter_mut().for_each(|s| s.clear());
        let no_strings = animkit_vm::engine::codec::encode(&q).len();
        q.modules[0].functions[0].code.clear();
        let no_code = animkit_vm::engine::codec::encode(&q).len();
        println!(
            "code costs {} B, the rest (header, states, records, path, string lengths) {} B",
            no_strings - no_code,
            no_code
        );
        println!(
            "lines cost {} B ({} entries), strings cost {} B, code {} insns",
            full - no_lines,
            f.lines.len(),
            no_lines - no_strings,
            f.code.len()
        );
        println!("{}", animkit_vm::engine::disasm::disassemble(&p));
    }
    println!(
        "strings {} ({strings} B)  insns {insns}  line entries {lines}  states {states}  modules {}  paths {paths} B",
        p.strings.len(),
        p.modules.len()
    );
}
