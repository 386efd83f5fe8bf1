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
        measure(cx, report, &sources, bytes, "sprite", "files");
    }
}

/// Times compiling `sources` (`bytes` of text) to bundle bytes on every
/// core and on one thread, alternating, and reports `compile_mb_s_LANG`
/// and `compile_mb_s_LANG_1thread`.
pub(crate) fn measure(cx: &Context, report: &mut Report, sources: &[Source], bytes: usize, lang: &str, unit: &str) {
    let rounds = if cx.opts.quick { 1 } else { 7 };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let run = |jobs: usize| {
        time(|| {
            let program = compile_jobs(sources, &Options::default(), jobs).expect("corpus compiles");
            animkit_vm::engine::codec::encode(&program)
        })
    };
    let (all, one) = best_interleaved(rounds, || run(cores), || run(1));
    let mb = bytes as f64 / 1e6;
    let title = match lang {
        "sprite" => "sprite",
        "animator" => "Animator",
        _ => "SLAP",
    };
    report.add(
        format!("compile_mb_s_{lang}"),
        mb / all,
        "MB/s",
        format!("{title} source -> bundle bytes, {mb:.1} MB corpus of {} {unit}, {cores} threads", sources.len()),
    );
    report.add(format!("compile_mb_s_{lang}_1thread"), mb / one, "MB/s", "same, parsing and checking on one thread");
}

/// Compile throughput of Animator scripts on the generated Animator corpus
/// ([`crate::draw::DrawCorpus`]), measured like the sprite figure: every
/// core, and one thread in the same rounds.
pub struct CompileAnimator;

/// The Animator corpus as compiler sources.
pub fn draw_sources(cx: &mut Context) -> Vec<Source> {
    cx.draw_corpus().files.iter().map(|(p, t)| Source::new(p.clone(), t.clone())).collect()
}

impl Group for CompileAnimator {
    fn name(&self) -> &'static str {
        "compile_animator"
    }

    fn what(&self) -> &'static str {
        "compile throughput (Animator corpus)"
    }

    fn run(&self, cx: &mut Context, report: &mut Report) {
        let sources = draw_sources(cx);
        let bytes = cx.draw_corpus().bytes();
        measure(cx, report, &sources, bytes, "animator", "scripts");
    }
}
