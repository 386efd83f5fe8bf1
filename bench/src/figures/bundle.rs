//! Bundle size against the source text and against `gzip -9` of it, per
//! language: on the generated sprite corpus (one bundle of every file, as
//! `animc *.anim` makes) and every `examples/*.anim` (one bundle each), and
//! on the generated Animator corpus and every `examples/*.draw`. Bundles are
//! what `animc` writes by default, debug positions included; the stripped
//! size (`animc --strip`) is reported beside it. `bundle_ratio_source` and
//! `bundle_ratio_gzip` are the worst over everything, and
//! `bundle_ratio_source_sprite` / `_animator` the worst per language.

use super::Group;
use crate::{Context, Report};
use animkit_compiler::{Options, Source, compile};
use flate2::Compression;
use flate2::write::GzEncoder;
use std::io::Write;
use std::path::PathBuf;

/// The group.
pub struct Bundle;

/// `gzip -9` size of `bytes` (flate2 at level 9, gzip framing).
pub fn gzip9(bytes: &[u8]) -> usize {
    let mut e = GzEncoder::new(Vec::new(), Compression::new(9));
    e.write_all(bytes).expect("in memory");
    e.finish().expect("in memory").len()
}

/// Bundle bytes of `sources`, with and without debug info.
pub fn bundle_sizes(sources: &[Source]) -> (usize, usize) {
    let full = compile(sources, &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let stripped = compile(sources, &Options { strip: true, ..Options::default() }).unwrap_or_else(|e| panic!("{e}"));
    (animkit_vm::engine::codec::encode(&full).len(), animkit_vm::engine::codec::encode(&stripped).len())
}

/// `examples/*.anim`, sorted by name.
pub fn examples() -> Vec<(PathBuf, String)> {
    examples_with("anim")
}

/// `examples/*.EXT`, sorted by name.
pub fn examples_with(ext: &str) -> Vec<(PathBuf, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut v: Vec<(PathBuf, String)> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == ext))
                .filter_map(|p| std::fs::read_to_string(&p).ok().map(|t| (p, t)))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

impl Group for Bundle {
    fn name(&self) -> &'static str {
        "bundle"
    }

    fn what(&self) -> &'static str {
        "bundle size against source and gzip -9"
    }

    fn run(&self, cx: &mut Context, report: &mut Report) {
        let mut worst = (0f64, 0f64);
        let sprite_sources = super::compile::sources(cx);
        let corpus = cx.corpus();
        let sprite = corpus_ratios(report, "corpus", &sprite_sources, corpus.bytes(), &corpus.concatenated());
        let sprite = examples_ratios(report, "anim", sprite);
        report.add(
            "bundle_ratio_source_sprite",
            sprite.0,
            "x",
            "sprite: worst of corpus and examples, bundle / source",
        );
        report.add("bundle_ratio_gzip_sprite", sprite.1, "x", "sprite: worst of corpus and examples, bundle / gzip -9");
        let draw_sources = super::compile::draw_sources(cx);
        let corpus = cx.draw_corpus();
        let animator = corpus_ratios(report, "animator_corpus", &draw_sources, corpus.bytes(), &corpus.concatenated());
        let animator = examples_ratios(report, "draw", animator);
        report.add("bundle_ratio_source_animator", animator.0, "x", "Animator: worst of corpus and examples");
        report.add("bundle_ratio_gzip_animator", animator.1, "x", "Animator: worst of corpus and examples, / gzip -9");
        for (s, g) in [sprite, animator] {
            worst = (worst.0.max(s), worst.1.max(g));
        }
        report.add("bundle_ratio_source", worst.0, "x", "worst of everything: bundle / source");
        report.add("bundle_ratio_gzip", worst.1, "x", "worst of everything: bundle / gzip -9 source");
    }
}

/// Reports a corpus's ratios as `bundle_ratio_*_NAME`; returns (source, gzip).
pub(crate) fn corpus_ratios(report: &mut Report, name: &str, sources: &[Source], src: usize, all: &[u8]) -> (f64, f64) {
    let gz = gzip9(all);
    let (full, stripped) = bundle_sizes(sources);
    let (rs, rg) = (full as f64 / src as f64, full as f64 / gz as f64);
    report.add(format!("bundle_ratio_source_{name}"), rs, "x", format!("{name} bundle / source bytes"));
    report.add(format!("bundle_ratio_gzip_{name}"), rg, "x", format!("{name} bundle / gzip -9 of the sources"));
    report.add(
        format!("bundle_ratio_source_{name}_stripped"),
        stripped as f64 / src as f64,
        "x",
        "same, animc --strip",
    );
    (rs, rg)
}

/// Reports the ratios of every `examples/*.EXT`; returns the worst, starting
/// from `worst`.
pub(crate) fn examples_ratios(report: &mut Report, ext: &str, mut worst: (f64, f64)) -> (f64, f64) {
    for (path, text) in examples_with(ext) {
        let stem = path.file_stem().map_or("?".into(), |s| s.to_string_lossy().into_owned());
        // As `animc examples/NAME.EXT` from the repository root names it.
        let rel = format!("examples/{}", path.file_name().map_or("?".into(), |f| f.to_string_lossy()));
        let (full, stripped) = bundle_sizes(&[Source::new(rel.clone(), text.clone())]);
        let (rs, rg) = (full as f64 / text.len() as f64, full as f64 / gzip9(text.as_bytes()) as f64);
        worst = (worst.0.max(rs), worst.1.max(rg));
        report.add(format!("bundle_ratio_source_{stem}"), rs, "x", format!("{rel} bundle / source"));
        report.add(format!("bundle_ratio_gzip_{stem}"), rg, "x", format!("{rel} bundle / gzip -9"));
        report.add(
            format!("bundle_ratio_source_{stem}_stripped"),
            stripped as f64 / text.len() as f64,
            "x",
            "same, animc --strip",
        );
    }
    worst
}
