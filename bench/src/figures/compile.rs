//! Compile throughput of the sprite toolchain on the generated corpus:
//! lexing, parsing, checks, lowering and bundle encoding, as `animc` does
//! for many files into one bundle (debug positions kept, the default).
//! `animc` parses and checks files on every core; the one-thread figure is
//! measured in the same rounds, alternating with it.

use super::Group;
use crate::timing::{best_interleaved, time};
use crate::{Context, Report};
use animkit_compiler::{Options, Source, compile_jobs};

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
        let rounds = if cx.opts.quick { 1 } else { 7 };
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let run = |jobs: usize| {
            time(|| {
                let program = compile_jobs(&sources, &Options::default(), jobs).expect("corpus compiles");
                animkit_vm::codec::encode(&program)
            })
        };
        let (all, one) = best_interleaved(rounds, || run(cores), || run(1));
        let mb = bytes as f64 / 1e6;
        report.add(
            "compile_mb_s_sprite",
            mb / all,
            "MB/s",
            format!("sprite source -> bundle bytes, {mb:.1} MB corpus of {} files, {cores} threads", sources.len()),
        );
        report.add("compile_mb_s_sprite_1thread", mb / one, "MB/s", "same, parsing and checking on one thread");
    }
}
