//! UI tests: every file under `tests/ui/<language>/` is compiled with
//! `animc --check`; its standard error must equal the `.stderr` file beside
//! it, byte for byte. Run with `BLESS=1` to rewrite the expectations, then
//! review the diff.

use std::path::{Path, PathBuf};

fn cases(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(cases(&path));
        } else if matches!(path.extension().and_then(|e| e.to_str()), Some("anim" | "draw")) {
            // `.slap` cases run in `compiler/tests/slap_ui.rs` until the
            // driver compiles SLAP; then add "slap" back here.
            out.push(path);
        }
    }
    out.sort();
    out
}

#[test]
fn ui() {
    let bless = std::env::var_os("BLESS").is_some();
    let mut failures = Vec::new();
    let all = cases(Path::new("tests/ui"));
    assert!(all.len() >= 18, "found only {} UI cases", all.len());
    for case in all {
        let path = case.to_string_lossy().into_owned();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let status =
            animkit_compiler::cli::run(&["--check".into(), path.clone()], &mut std::io::empty(), &mut out, &mut err);
        let err = String::from_utf8(err).unwrap();
        let expected_path = case.with_extension("stderr");
        if bless {
            std::fs::write(&expected_path, &err).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if status != 1 {
            failures.push(format!("{path}: exit status {status}, expected 1"));
        }
        if err != expected {
            failures.push(format!("{path}: stderr differs\n--- expected\n{expected}\n--- actual\n{err}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
