//! Bundle size against the source text and against `gzip -9` of it, on the
//! generated corpus (one bundle of every file, as `animc *.anim` makes) and
//! on every `examples/*.anim` (one bundle each). Bundles are what `animc`
//! writes by default, debug positions included; the stripped size
//! (`animc --strip`) is reported beside it.

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
    let stripped = compile(sources, &Options { strip: true }).unwrap_or_else(|e| panic!("{e}"));
    (animkit_vm::codec::encode(&full).len(), animkit_vm::codec::encode(&stripped).len())
}

/// `examples/*.anim`, sorted by name.
pub fn examples() -> Vec<(PathBuf, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut v: Vec<(PathBuf, String)> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "anim"))
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
        let sources = super::compile::sources(cx);
        let corpus = cx.corpus();
        let (src, gz) = (corpus.bytes(), gzip9(&corpus.concatenated()));
        let (full, stripped) = bundle_sizes(&sources);
        let mut worst_src = full as f64 / src as f64;
        let mut worst_gz = full as f64 / gz as f64;
        report.add("bundle_ratio_source_corpus", full as f64 / src as f64, "x", "corpus bundle / source bytes");
        report.add("bundle_ratio_gzip_corpus", full as f64 / gz as f64, "x", "corpus bundle / gzip -9 of the sources");
        report.add("bundle_ratio_source_corpus_stripped", stripped as f64 / src as f64, "x", "same, animc --strip");
        for (path, text) in examples() {
            let stem = path.file_stem().map_or("?".into(), |s| s.to_string_lossy().into_owned());
            // As `animc examples/NAME.anim` from the repository root names it.
            let rel = format!("examples/{}", path.file_name().map_or("?".into(), |f| f.to_string_lossy()));
            let (full, stripped) = bundle_sizes(&[Source::new(rel, text.clone())]);
            let (rs, rg) = (full as f64 / text.len() as f64, full as f64 / gzip9(text.as_bytes()) as f64);
            worst_src = worst_src.max(rs);
            worst_gz = worst_gz.max(rg);
            report.add(format!("bundle_ratio_source_{stem}"), rs, "x", format!("examples/{stem}.anim bundle / source"));
            report.add(format!("bundle_ratio_gzip_{stem}"), rg, "x", format!("examples/{stem}.anim bundle / gzip -9"));
            report.add(
                format!("bundle_ratio_source_{stem}_stripped"),
                stripped as f64 / text.len() as f64,
                "x",
                "same, animc --strip",
            );
        }
        report.add("bundle_ratio_source", worst_src, "x", "worst of corpus and examples: bundle / source");
        report.add("bundle_ratio_gzip", worst_gz, "x", "worst of corpus and examples: bundle / gzip -9 source");
    }
}
