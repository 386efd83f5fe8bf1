//! The web player's figures (issue 47 part 4): `web_bench` in
//! `web/tests/browser.rs`, run as `ANIMKIT_WEB_TESTS=1 cargo test --release
//! -p animkit-web --test browser web_bench -- --ignored --nocapture`, so
//! the bench and the ignored test measure with the same page and machinery
//! (`web/build.sh`'s players in headless Chromium, `animvm` and the
//! sprite loop natively). The test's last line, `web_bench_json {...}`,
//! carries the figures.
//!
//! Without `chromium-headless-shell` (or `$CHROMIUM`), a `wasm-bindgen` CLI
//! (`$WASM_BINDGEN`, the `PATH`, `~/.cargo/bin`) or the
//! `wasm32-unknown-unknown` target, with `--quick`, or when the test
//! fails, the figures are null and the bench says on standard error why
//! they were skipped; it never fails for them.

use super::Group;
use crate::{Context, Report};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The group.
pub struct Web;

/// The figures `web_bench` always reports: key, unit, what.
pub const FIGURES: [(&str, &str, &str); 7] = [
    ("web_load_ms", "ms", "page load to story.slap's first frame (headless Chromium, served locally)"),
    ("web_frame_ms_20_actors", "ms", "a 20-actor SLAP frame at 640x480 in the page, readPixels after each"),
    ("web_frame_ms_20_actors_no_readback", "ms", "the same without readPixels"),
    ("web_vs_native_frame", "x", "the web frame without read-back / animvm -H's frame"),
    ("web_sprite_ns_per_tick_1e5", "ns", "sprite-only wasm player: one instance ticked 10^5 times (hero Walk)"),
    ("web_sprite_native_ns_per_tick_1e5", "ns", "the same loop natively, profile web-sprite (like for like)"),
    ("web_sprite_vs_native_1e5", "x", "wasm / native like for like (target <= 2)"),
];

/// Those it reports with `ANIMKIT_WEB_SIMD=1` (the SIMD128 experiment).
pub const SIMD_FIGURES: [(&str, &str, &str); 2] = [
    ("web_sprite_simd_ns_per_tick_1e5", "ns", "the sprite-only player built with wasm SIMD128"),
    ("web_sprite_simd_vs_native_1e5", "x", "the SIMD128 build / native like for like"),
];

/// The prefix of `web_bench`'s line of figures.
pub const LINE: &str = "web_bench_json ";

/// The workspace root (this crate is `bench/`).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from(".."))
}

/// `name` if it names a file, or the first file of that name on `PATH`.
fn which(name: &str) -> Option<PathBuf> {
    if name.contains('/') {
        return Path::new(name).is_file().then(|| PathBuf::from(name));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file())
}

/// What is missing to run the web figures, or `None`: `chromium` and
/// `wasm_bindgen` as commands (`which` rules), `wasm_bindgen_home` the
/// fallback (`~/.cargo/bin/wasm-bindgen`, as `web/build.sh`), `sysroot`
/// rustc's (the target's library is under `lib/rustlib`).
pub fn missing(
    chromium: &str,
    wasm_bindgen: &str,
    wasm_bindgen_home: Option<&Path>,
    sysroot: Option<&Path>,
) -> Option<String> {
    let mut m = Vec::new();
    if which(chromium).is_none() {
        m.push(format!("no {chromium} (set CHROMIUM)"));
    }
    if which(wasm_bindgen).is_none() && !wasm_bindgen_home.is_some_and(Path::is_file) {
        m.push(format!("no {wasm_bindgen} CLI (set WASM_BINDGEN)"));
    }
    if !sysroot.is_some_and(|s| s.join("lib/rustlib/wasm32-unknown-unknown").is_dir()) {
        m.push("no wasm32-unknown-unknown target (rustup target add wasm32-unknown-unknown)".into());
    }
    (!m.is_empty()).then(|| m.join("; "))
}

/// [`missing`] on this machine.
fn missing_here() -> Option<String> {
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "chromium-headless-shell".into());
    let wbg = std::env::var("WASM_BINDGEN").unwrap_or_else(|_| "wasm-bindgen".into());
    let home = std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo/bin/wasm-bindgen"));
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let sysroot = Command::new(rustc)
        .args(["--print", "sysroot"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    missing(&chromium, &wbg, home.as_deref(), sysroot.as_deref())
}

/// The figures of `web_bench`'s output `text` (its `web_bench_json` line):
/// every key of [`FIGURES`] in that order, then those of [`SIMD_FIGURES`]
/// present.
pub fn parse(text: &str) -> Result<Vec<(&'static str, f64)>, String> {
    let line = text
        .lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix(LINE.trim_end()))
        .ok_or_else(|| format!("web_bench printed no `{}` line", LINE.trim_end()))?;
    let v: serde_json::Value =
        serde_json::from_str(line.trim()).map_err(|e| format!("web_bench's figures are not JSON: {e}"))?;
    let mut out = Vec::new();
    for (key, _, _) in FIGURES {
        let x =
            v.get(key).and_then(serde_json::Value::as_f64).ok_or_else(|| format!("web_bench's figures lack {key}"))?;
        out.push((key, x));
    }
    for (key, _, _) in SIMD_FIGURES {
        if let Some(x) = v.get(key).and_then(serde_json::Value::as_f64) {
            out.push((key, x));
        }
    }
    Ok(out)
}

/// Builds and runs `web_bench`; its figures, or why there are none.
fn measure() -> Result<Vec<(&'static str, f64)>, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["test", "-q", "--release", "-p", "animkit-web", "--test", "browser", "web_bench"])
        .args(["--", "--ignored", "--nocapture", "--exact"])
        .env("ANIMKIT_WEB_TESTS", "1")
        .current_dir(root())
        .output()
        .map_err(|e| format!("cargo does not run: {e}"))?;
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    if !out.status.success() {
        let lines: Vec<&str> = text.lines().collect();
        let tail = lines[lines.len().saturating_sub(15)..].join("\n");
        return Err(format!("web_bench failed ({}); its last lines:\n{tail}", out.status));
    }
    parse(&text)
}

impl Group for Web {
    fn name(&self) -> &'static str {
        "web"
    }

    fn what(&self) -> &'static str {
        "the web player in headless Chromium (web_bench; builds the wasm players, minutes the first time)"
    }

    fn run(&self, cx: &mut Context, report: &mut Report) {
        let r = if cx.opts.quick {
            Err("--quick (they need the release and wasm builds)".to_string())
        } else if let Some(m) = missing_here() {
            Err(m)
        } else {
            measure()
        };
        match r {
            Ok(figures) => {
                for (key, value) in figures {
                    let (_, unit, what) =
                        FIGURES.iter().chain(&SIMD_FIGURES).find(|f| f.0 == key).copied().unwrap_or((key, "", ""));
                    report.add(key, value, unit, what);
                }
            }
            Err(why) => {
                eprintln!("animkit-bench: web figures skipped: {why}");
                for (key, unit, _) in FIGURES {
                    report.add(key, f64::NAN, unit, "skipped (see standard error)");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OUT: &str = "running 1 test\n\
        web_sprite_ns_per_tick_1e5 9.50 ns wasm; ...\n\
        web_bench_json {\"web_frame_ms_20_actors\":30.5,\"web_frame_ms_20_actors_no_readback\":22.25,\
        \"web_load_ms\":284.0,\"web_sprite_native_ns_per_tick_1e5\":4.5,\"web_sprite_ns_per_tick_1e5\":9.5,\
        \"web_sprite_vs_native_1e5\":2.111,\"web_vs_native_frame\":5.5}\n\
        test web_bench ... ok\n";

    #[test]
    fn parses_the_line_of_figures_in_order() {
        assert_eq!(
            parse(OUT).unwrap(),
            [
                ("web_load_ms", 284.0),
                ("web_frame_ms_20_actors", 30.5),
                ("web_frame_ms_20_actors_no_readback", 22.25),
                ("web_vs_native_frame", 5.5),
                ("web_sprite_ns_per_tick_1e5", 9.5),
                ("web_sprite_native_ns_per_tick_1e5", 4.5),
                ("web_sprite_vs_native_1e5", 2.111),
            ]
        );
        let simd = OUT.replace("\"web_load_ms\"", "\"web_sprite_simd_ns_per_tick_1e5\":9.25,\"web_load_ms\"");
        let figures = parse(&simd).unwrap();
        assert_eq!(figures.len(), 8);
        assert_eq!(figures[7], ("web_sprite_simd_ns_per_tick_1e5", 9.25));
    }

    #[test]
    fn bad_output_is_an_error_not_a_panic() {
        assert_eq!(parse("test web_bench ... FAILED\n").unwrap_err(), "web_bench printed no `web_bench_json` line");
        assert_eq!(
            parse(&OUT.replace("\"web_load_ms\":284.0,", "")).unwrap_err(),
            "web_bench's figures lack web_load_ms"
        );
        assert_eq!(
            parse(&OUT.replace("\"web_load_ms\":284.0", "\"web_load_ms\":\"x\"")).unwrap_err(),
            "web_bench's figures lack web_load_ms"
        );
        assert!(
            parse("web_bench_json {\"web_load_ms\":").unwrap_err().starts_with("web_bench's figures are not JSON: ")
        );
    }

    #[test]
    fn missing_tools_are_named() {
        let none = Path::new("/nonexistent/animkit");
        assert_eq!(
            missing("/nonexistent/chromium", "/nonexistent/wasm-bindgen", Some(none), Some(none)).unwrap(),
            "no /nonexistent/chromium (set CHROMIUM); no /nonexistent/wasm-bindgen CLI (set WASM_BINDGEN); \
             no wasm32-unknown-unknown target (rustup target add wasm32-unknown-unknown)"
        );
        // A tool found by its path, and a sysroot with the target.
        let dir = std::env::temp_dir().join(format!("animkit-bench-web-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("lib/rustlib/wasm32-unknown-unknown")).unwrap();
        let tool = dir.join("tool");
        std::fs::write(&tool, "").unwrap();
        let t = tool.to_str().unwrap();
        assert_eq!(missing(t, "/nonexistent/wasm-bindgen", Some(&tool), Some(&dir)), None);
        assert_eq!(
            missing(t, t, None, Some(none)).unwrap(),
            "no wasm32-unknown-unknown target (rustup target add wasm32-unknown-unknown)"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn quick_run_skips_the_web_figures_as_null() {
        let mut cx = Context::new(crate::Options::parse(&["--quick".into()]).unwrap());
        let mut report = Report::default();
        Web.run(&mut cx, &mut report);
        let keys: Vec<&str> = report.figures.iter().map(|f| f.key.as_str()).collect();
        assert_eq!(keys, FIGURES.map(|f| f.0));
        assert!(report.figures.iter().all(|f| f.value.is_nan() && f.what == "skipped (see standard error)"));
        assert!(report.to_json().contains("\"web_sprite_vs_native_1e5\": null"));
    }
}
