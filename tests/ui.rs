//! UI tests: every file under `tests/ui/<language>/` is compiled with
//! `animc --check` (`animc --check --strict` for the files in a folder named
//! `strict`); its standard error must equal the `.stderr` file beside it,
//! byte for byte. Run with `BLESS=1` to rewrite the expectations, then
//! review the diff.
//!
//! The exit status follows from the expectation: a case whose `.stderr`
//! ends with `error: could not compile ...` must exit 1; one whose
//! `.stderr` holds warnings only (it ends with `warning: N warnings
//! emitted`) compiles, and must exit 0. A case with no diagnostic at all
//! is a mistake.

use animkit_vm::engine::program::Language;
use std::path::{Path, PathBuf};

fn cases(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(cases(&path));
        } else if path.extension().and_then(|e| e.to_str()).is_some_and(|e| Language::from_extension(e).is_some()) {
            // Every language's extension, from the language table.
            out.push(path);
        }
    }
    out.sort();
    out
}

#[test]
fn ui() {
    crate::at_root();
    let bless = std::env::var_os("BLESS").is_some();
    let mut failures = Vec::new();
    let all = cases(Path::new("tests/ui"));
    assert!(all.len() >= 47, "found only {} UI cases", all.len());
    let mut warning_only = 0;
    for case in all {
        let path = case.to_string_lossy().into_owned();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let strict = case.parent().is_some_and(|d| d.ends_with("strict"));
        let mut args = vec!["--check".to_string(), path.clone()];
        if strict {
            args.insert(0, "--strict".into());
        }
        let status = animkit_compiler::cli::run(&args, &mut std::io::empty(), &mut out, &mut err);
        let err = String::from_utf8(err).unwrap();
        let expected_path = case.with_extension("stderr");
        if bless {
            std::fs::write(&expected_path, &err).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        let expected_status = expected_status(&expected);
        warning_only += (expected_status == 0) as usize;
        if expected.is_empty() {
            failures.push(format!("{path}: no diagnostic expected (a UI case shows at least one)"));
        }
        if status != expected_status {
            failures.push(format!("{path}: exit status {status}, expected {expected_status}"));
        }
        if err != expected {
            failures.push(format!("{path}: stderr differs\n--- expected\n{expected}\n--- actual\n{err}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(bless || warning_only >= 1, "no warning-only case");
}

/// The exit status a case's expected standard error implies: 1 after an
/// error, 0 for warnings alone.
fn expected_status(stderr: &str) -> i32 {
    let last = stderr.lines().last().unwrap_or("");
    if last.starts_with("warning: ")
        && last.ends_with(" emitted")
        && !stderr.contains("\nerror")
        && !stderr.starts_with("error")
    {
        0
    } else {
        1
    }
}

#[test]
fn a_warning_only_case_exits_0_with_its_warnings() {
    crate::at_root();
    let path = "tests/ui/slap/time_goes_back.slap";
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let status =
        animkit_compiler::cli::run(&["--check".into(), path.into()], &mut std::io::empty(), &mut out, &mut err);
    let err = String::from_utf8(err).unwrap();
    assert_eq!(status, 0, "{err}");
    assert!(err.starts_with("warning: time 10 is earlier than the current time 500\n"), "{err}");
    assert!(err.ends_with("\nwarning: 1 warning emitted\n"), "{err}");
    assert_eq!(expected_status(&err), 0);
    assert_eq!(expected_status("error: x\nerror: could not compile due to 1 previous error\n"), 1);
    assert_eq!(expected_status("warning: w\nerror: e\nerror: could not compile due to 1 previous error\n"), 1);
}
