//! UI tests for SLAP, until the driver compiles `.slap` files: every
//! `tests/ui/slap/*.slap` is parsed and checked by `animkit_compiler::slap`,
//! and its diagnostics, rendered as `animc --check` renders them (followed
//! by `error: could not compile due to N previous errors` when there are
//! errors), must equal the `.stderr` file beside it, byte for byte. Run
//! with `BLESS=1` to rewrite the expectations, then review the diff.
//!
//! Once the driver is wired, `tests/ui.rs` (which already collects `.slap`
//! cases) takes these over and this file goes.

use animkit_compiler::diagnostic::render;
use std::path::Path;

/// What `animc --check` would print on standard error for `src`.
fn check_output(path: &str, src: &str) -> String {
    let diags = match animkit_compiler::slap::front(src) {
        Ok(c) => c.warnings,
        Err(d) => d,
    };
    let mut out = render(path, src, &diags);
    let n = diags.iter().filter(|d| d.is_error()).count();
    if n > 0 {
        out.push_str(&format!("error: could not compile due to {n} previous error{}\n", if n == 1 { "" } else { "s" }));
    }
    out
}

#[test]
fn slap_ui() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = root.join("tests/ui/slap");
    let bless = std::env::var_os("BLESS").is_some();
    let mut cases: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "slap"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 20, "found only {} SLAP UI cases", cases.len());
    let mut failures = Vec::new();
    for case in cases {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let shown = format!("tests/ui/slap/{name}");
        let src = std::fs::read_to_string(&case).unwrap();
        let actual = check_output(&shown, &src);
        let expected_path = case.with_extension("stderr");
        if bless {
            std::fs::write(&expected_path, &actual).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if actual != expected {
            failures.push(format!("{shown}: stderr differs\n--- expected\n{expected}\n--- actual\n{actual}"));
        }
        if actual.is_empty() {
            failures.push(format!("{shown}: no diagnostic"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
