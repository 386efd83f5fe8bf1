//! Compile throughput of the sprite toolchain on the generated corpus:
//! lexing, parsing, checks, lowering and bundle encoding, as `animc` does
//! for many files into one bundle (debug positions kept, the default).

use super::Group;
use crate::timing::{best, time};
use crate::{Context, Report};
use animkit_compiler::{Options, Source, compile};

/// The group.
pub struct Compile;

/// The corpus as compiler sources.
pub fn sources(cx: &mut Context) -> Vec<Source> {
    cx.corpus().files.iter().map(|(p, t)| Source::new(p.clone(), t.clone())).collect()
}

impl Group for Compile {
    fn name(&self) -> &'static str {
        "compile"
    }

    fn what(&self) -> &'static str {
        "compile throughput (sprite corpus)"
    }

    fn run(&self, cx: &mut Context, report: &mut Report) {
        let sources = sources(cx);
        let bytes = cx.corpus().bytes();
        let rounds = if cx.opts.quick { 1 } else { 5 };
        let secs = best(rounds, || {
            time(|| {
                let program = compile(&sources, &Options::default()).expect("corpus compiles");
                animkit_vm::codec::encode(&program)
            })
        });
        report.add(
            "compile_mb_s_sprite",
            bytes as f64 / secs / 1e6,
            "MB/s",
            format!("sprite source -> bundle bytes, {:.1} MB corpus of {} files", bytes as f64 / 1e6, sources.len()),
        );
    }
}
