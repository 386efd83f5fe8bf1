//! The animkit benchmark suite.
//!
//! Each *figure group* is one module of [`figures`] implementing
//! [`figures::Group`]: it measures its figures and, in the same run and
//! interleaved with them, the reference each is compared against, so a ratio
//! holds on a noisy machine. [`run`] runs every group and gathers one
//! [`Report`]. A new figure (Animator streaming, GL frame time against a raw
//! glow baseline, start-up, SLAP) is one more module plus one line in
//! [`figures::all`].
//!
//! Timing rule, everywhere: a figure is measured in several *rounds*; a
//! round times ours and the reference back to back, alternating which goes
//! first; each figure reports the **best** (minimum-time) round, and a ratio
//! is the ratio of the two bests. The best round is the one least disturbed
//! by other work on the machine; see BENCHMARKS.md.

pub mod corpus;
pub mod draw;
pub mod figures;
pub mod heap;
pub mod progress;
pub mod rawgl;
pub mod rawgl3d;
pub mod report;
pub mod slap_corpus;
pub mod timing;

pub use report::Report;

/// How `animkit-bench` was invoked.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Print one JSON object instead of the table.
    pub json: bool,
    /// Small sizes and few rounds: a smoke test of the suite (figures are
    /// not comparable with full runs).
    pub quick: bool,
    /// Run only the groups whose name starts with one of these.
    pub only: Vec<String>,
    /// `--help`.
    pub help: bool,
}

/// Usage text.
pub const USAGE: &str = "usage: animkit-bench [--json] [--quick] [--only GROUP]...

  --json        print one JSON object {figure: value, ...} instead of a table
  --quick       tiny sizes and one round (smoke test; numbers not comparable)
  --only GROUP  run only the figure groups whose name starts with GROUP
                (groups: sprites, sprite_mixed, compile, compile_animator,
                bundle, load, stream, gl, startup, slap, slap_gl, lsp, web)

The web group runs web_bench (web/tests/browser.rs) through cargo: the
players built by web/build.sh in headless Chromium. Without Chromium, the
wasm-bindgen CLI or the wasm32 target, and with --quick, its figures are
null and a line on standard error says why.";

impl Options {
    /// Parses the command line (without the program name).
    pub fn parse(args: &[String]) -> Result<Options, String> {
        let mut o = Options::default();
        let mut it = args.iter();
        while let Some(a) = it.next() {
            match a.as_str() {
                "--json" => o.json = true,
                "--quick" => o.quick = true,
                "--only" => o.only.push(it.next().ok_or("--only needs a group name")?.clone()),
                "-h" | "--help" => o.help = true,
                other => return Err(format!("unknown argument `{other}`")),
            }
        }
        Ok(o)
    }
}

/// What every group gets: the options, progress output and data shared
/// between groups (the generated corpus is built once).
pub struct Context {
    /// The options.
    pub opts: Options,
    /// Progress lines on a terminal.
    pub progress: progress::Progress,
    corpus: Option<corpus::Corpus>,
    draw_corpus: Option<draw::DrawCorpus>,
    slap_corpus: Option<slap_corpus::SlapCorpus>,
}

impl Context {
    /// A context for `opts`.
    pub fn new(opts: Options) -> Context {
        Context { opts, progress: progress::Progress::new(), corpus: None, draw_corpus: None, slap_corpus: None }
    }

    /// The generated sprite corpus (at least 10 MB; 200 kB with `--quick`).
    pub fn corpus(&mut self) -> &corpus::Corpus {
        let bytes = if self.opts.quick { 200_000 } else { corpus::FULL_BYTES };
        if self.corpus.is_none() {
            self.progress.note("generating the sprite corpus");
        }
        self.corpus.get_or_insert_with(|| corpus::Corpus::generate(corpus::SEED, bytes))
    }

    /// The generated Animator script corpus (at least 10 MB; 200 kB with
    /// `--quick`).
    pub fn draw_corpus(&mut self) -> &draw::DrawCorpus {
        let bytes = if self.opts.quick { 200_000 } else { corpus::FULL_BYTES };
        if self.draw_corpus.is_none() {
            self.progress.note("generating the Animator corpus");
        }
        self.draw_corpus.get_or_insert_with(|| draw::DrawCorpus::generate(draw::SEED, bytes))
    }

    /// The generated SLAP scene corpus (at least 10 MB; 200 kB with
    /// `--quick`).
    pub fn slap_corpus(&mut self) -> &slap_corpus::SlapCorpus {
        let bytes = if self.opts.quick { 200_000 } else { corpus::FULL_BYTES };
        if self.slap_corpus.is_none() {
            self.progress.note("generating the SLAP corpus");
        }
        self.slap_corpus.get_or_insert_with(|| slap_corpus::SlapCorpus::generate(slap_corpus::SEED, bytes))
    }

    /// Rounds per figure: 11, or 1 with `--quick`.
    pub fn rounds(&self) -> usize {
        if self.opts.quick { 1 } else { 11 }
    }
}

/// Runs every selected group and returns the report.
pub fn run(opts: &Options) -> Report {
    let mut cx = Context::new(opts.clone());
    let mut report = Report::default();
    for g in figures::all() {
        if !opts.only.is_empty() && !opts.only.iter().any(|p| g.name().starts_with(p.as_str())) {
            continue;
        }
        cx.progress.note(&format!("{}: {}", g.name(), g.what()));
        g.run(&mut cx, &mut report);
    }
    cx.progress.done();
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quick_run_reports_every_figure_as_json() {
        let opts = Options::parse(&["--quick".into(), "--json".into()]).unwrap();
        let report = run(&opts);
        for key in [
            "sprite_ns_per_tick_1e3",
            "benimator_ns_per_tick_1e3",
            "sprite_vs_benimator_1e3",
            "sprite_bytes_per_instance",
            "sprite_mixed_ns_per_tick_1e4",
            "compile_mb_s_sprite",
            "bundle_ratio_source",
            "bundle_ratio_gzip",
            "load_mb_s",
            "compile_mb_s_animator",
            "bundle_ratio_source_animator",
            "bundle_ratio_source_animator_corpus",
            "stream_cmds_per_s_cpu",
            "stream_cpu_vs_reference",
            "stream_cmds_per_s_cpu_full_verify",
            "compile_mb_s_slap",
            "bundle_ratio_source_slap",
            "bundle_ratio_source_slap_corpus",
            "bundle_ratio_source_story",
            "slap_sim_ns_per_actor_frame_1e3",
            "slap_sim_ns_per_actor_frame_1e5",
        ] {
            let v = report.get(key).unwrap_or_else(|| panic!("{key} missing"));
            assert!(v.is_finite() && v > 0.0, "{key} = {v}");
        }
        // Measured where there is GL and an `animvm` (null otherwise).
        for key in figures::gl::KEYS.iter().chain(&figures::slap_gl::KEYS).chain(&["startup_ms", "startup_vs_raw_gl"]) {
            assert!(report.get(key).is_some(), "{key} missing");
        }
        // Skipped with --quick: null.
        for (key, _, _) in figures::web::FIGURES {
            assert!(report.get(key).is_some_and(f64::is_nan), "{key} missing or measured");
        }
        assert!(report.get("sprite_bytes_per_instance").unwrap() <= 16.0);
        assert!(report.get("bundle_ratio_source_slap").unwrap() <= 0.5);
        let json = report.to_json();
        assert!(json.starts_with('{') && json.ends_with('}') && json.contains("\"load_mb_s\": "));
    }

    #[test]
    fn options_parse() {
        assert!(Options::parse(&["--bogus".into()]).is_err());
        let o = Options::parse(&["--only".into(), "sprites".into()]).unwrap();
        assert_eq!(o.only, ["sprites"]);
    }
}
