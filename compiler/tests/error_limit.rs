//! Issue 41 §1 and §2: a compile prints at most `MAX_ERRORS` (100)
//! errors, then one closing line saying how many more there were, in every
//! language; and a file of many errors costs time and memory linear in its
//! size: each diagnostic is rendered against a line index built once per
//! file (codespan's `SimpleFile`, made per diagnostic, indexed the whole
//! source each time: 100 000 errors took minutes).

use animkit_compiler::diagnostic::MAX_ERRORS;
use animkit_compiler::{CompileError, Options, Source, compile_jobs};
use animkit_test_support::alloc::{is_counting, measure};
use std::time::Duration;

/// `n` lines, each one error, in the language of `ext`.
fn erroneous(ext: &str, n: usize) -> String {
    (0..n)
        .map(|i| match ext {
            // No end behaviour.
            "anim" => format!("A{i}: 5\n"),
            // An unknown attribute.
            "slap" => format!("actor {i} siz 1\n"),
            // Not a whole number.
            _ => "thick 2.5\n".to_string(),
        })
        .collect()
}

/// The column the error of line 100 is reported at.
fn column(ext: &str) -> usize {
    match ext {
        // `A99: 5`
        "anim" => 6,
        // `actor 99 siz 1`
        "slap" => 10,
        _ => 7,
    }
}

fn compile_err(path: &str, text: &str) -> CompileError {
    // One job: the compile runs on this thread (where `measure` counts).
    match compile_jobs(&[Source::new(path, text)], &Options::default(), 1) {
        Ok(_) => panic!("{path} compiled"),
        Err(e) => e,
    }
}

/// The headlines of the diagnostics printed (not the closing line).
fn headlines(rendered: &str) -> Vec<&str> {
    rendered.lines().filter(|l| l.starts_with("error: ") && !l.contains(" not shown (at most ")).collect()
}

#[test]
fn the_limit_is_one_hundred() {
    assert_eq!(MAX_ERRORS, 100);
}

#[test]
fn exactly_the_limit_prints_every_error_and_no_closing_line() {
    for ext in ["anim", "slap", "draw"] {
        let path = format!("e.{ext}");
        let e = compile_err(&path, &erroneous(ext, MAX_ERRORS));
        assert_eq!(e.count(), MAX_ERRORS, "{ext}");
        let text = e.to_string();
        assert_eq!(headlines(&text).len(), MAX_ERRORS, "{ext}: {text}");
        assert!(text.contains(&format!(" --> {path}:100:{}\n", column(ext))), "{ext}: {text}");
        assert!(!text.contains("not shown"), "{ext}: {text}");
        assert!(text.ends_with("\n\n"), "{ext}: the last diagnostic ends the text: {text}");
    }
}

#[test]
fn one_past_the_limit_prints_the_limit_then_says_one_more() {
    for ext in ["anim", "slap", "draw"] {
        let path = format!("e.{ext}");
        let e = compile_err(&path, &erroneous(ext, MAX_ERRORS + 1));
        assert_eq!(e.count(), MAX_ERRORS + 1, "{ext}");
        let text = e.to_string();
        assert_eq!(headlines(&text).len(), MAX_ERRORS, "{ext}: {text}");
        assert!(text.contains(&format!(" --> {path}:100:{}\n", column(ext))), "{ext}: {text}");
        assert!(!text.contains(&format!(" --> {path}:101:")), "{ext}: the 101st is left out: {text}");
        assert!(text.ends_with("\n\nerror: 1 more error not shown (at most 100 are printed)\n"), "{ext}: {text}");
    }
}

#[test]
fn the_limit_counts_errors_across_files() {
    let sources = [Source::new("a.draw", erroneous("draw", 60)), Source::new("b.draw", erroneous("draw", 60))];
    let e = compile_jobs(&sources, &Options::default(), 1).map(|_| ()).unwrap_err();
    assert_eq!(e.count(), 120);
    let text = e.to_string();
    assert_eq!(headlines(&text).len(), 100);
    assert!(text.contains(" --> a.draw:60:7\n") && text.contains(" --> b.draw:40:7\n"), "{text}");
    assert!(!text.contains(" --> b.draw:41:"), "{text}");
    assert!(text.ends_with("error: 20 more errors not shown (at most 100 are printed)\n"), "{text}");
}

/// 100 000 errors in each language: the limit's shape, within seconds
/// (minutes before) and with the rendering's allocations bounded by the
/// file's size, not by the errors before each one (a line index per
/// diagnostic asked for 8 bytes per line of the file each time).
#[test]
fn a_hundred_thousand_errors_cost_what_one_file_costs() {
    assert!(is_counting());
    const N: usize = 100_000;
    for ext in ["anim", "slap", "draw"] {
        let path = format!("many.{ext}");
        let text = erroneous(ext, N);
        let started = animkit_test_support::cpu::ThreadTimer::start();
        let e = compile_err(&path, &text);
        // The sprite file also has more states than a module may (65 535).
        let n = e.count();
        assert!(n == N || (ext == "anim" && n == N + 1), "{ext}: {n} errors");
        let (rendered, stats) = measure(|| e.to_string());
        let took = started.elapsed();
        assert!(took < Duration::from_secs(30), "{ext}: {took:?}");
        assert_eq!(headlines(&rendered).len(), MAX_ERRORS, "{ext}");
        let closing = format!("\n\nerror: {} more errors not shown (at most 100 are printed)\n", n - MAX_ERRORS);
        assert!(rendered.ends_with(&closing), "{ext}: {}", &rendered[rendered.len().saturating_sub(300)..]);
        assert!(rendered.len() < MAX_ERRORS * 600, "{ext}: {} bytes", rendered.len());
        // One index of N + 1 line starts (its growth doubling: under 4
        // times its size), plus the excerpts.
        let index = 8 * (N + 1);
        assert!(stats.bytes < 4 * index + (1 << 20), "{ext}: rendering asked for {} bytes", stats.bytes);
    }
}
