//! The sprite front end's one-pass check (`sprite::flat`, no syntax tree)
//! against the reference path it stands in for: the tree
//! (`animkit_grammar::sprite::parse`), the full checker
//! (`sprite::check::check_partial`) and the tree-based lowering
//! (`sprite::lower::lower`). On every input, compiling gives the same
//! bundle bytes, or the same diagnostics, as the reference.

use crate::common;
use animkit_compiler::diagnostic::Diagnostic;
use animkit_compiler::sprite::check::{MAX_CODE, MAX_STATES};
use animkit_compiler::sprite::{compile_by_tree, flat};
use animkit_compiler::{Options, Source, compile};
use proptest::prelude::*;

/// The reference: tree, full check, tree lowering; the bundle's bytes or
/// the diagnostics, as the driver would give them for one file.
fn reference(path: &str, text: &str, strip: bool) -> Result<Vec<u8>, Vec<Diagnostic>> {
    let options = Options { strip, ..Options::default() };
    compile_by_tree(&Source::new(path, text), &options).map(|p| animkit_vm::engine::codec::encode(&p))
}

/// What the compiler gives for the same file.
fn ours(path: &str, text: &str, strip: bool) -> Result<Vec<u8>, Vec<Diagnostic>> {
    let options = Options { strip, ..Options::default() };
    match compile(&[Source::new(path, text)], &options) {
        Ok(p) => Ok(animkit_vm::engine::codec::encode(&p)),
        Err(animkit_compiler::CompileError::Source(mut files)) => Err(files.pop().unwrap().diagnostics),
        Err(e) => panic!("{e}"),
    }
}

fn agree(text: &str) -> Result<(), TestCaseError> {
    for strip in [false, true] {
        let a = ours("t.anim", text, strip);
        let b = reference("t.anim", text, strip);
        prop_assert_eq!(&a, &b, "{:?} (strip {})", text, strip);
    }
    Ok(())
}

#[test]
fn examples_and_spec_cases_agree() {
    for entry in std::fs::read_dir(common::path("examples")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "anim") {
            agree(&std::fs::read_to_string(&path).unwrap()).unwrap();
        }
    }
    for text in [
        "Walk: 5, 5, 5, 5, _loop\n",
        "Idle: 15, 15, 15, _pingpong\nRun: 4|step, 4, 4|step, 4, _loop|dust\n",
        "Jump: 3|0|jumpSound, 3|1, 4|2, Fall\nFall[Jump]: 4|3, 4|4, _wait\n",
        "A: 0|ev, 0, B|x|y\nB: 0|2, 3, _pingpong|turn\n",
        "A:\n  1,\n  2|7,\n\n  _wait # c\r\nB: A",
        "Idle: 10, _pingpong\n",
        "A: 0, _loop\n",
        "A: 0, B\nB: 0, A\n",
        "A: 0, B\nB: 0, C\nC: 1, A\n",
        "A: 5, Idel\nIdle: 1, _wait\n",
        "A: 5, _wait\nA: 1, _loop\n",
        "_A: 5, _wait\n",
        "A: 5, _lop\n",
        "A: 5|_wait, _wait\n",
        "A: 5, 6\n",
        "A: _loop, 5, _loop\n",
        "A: -5, _loop\n",
        "A: 2.5, _loop\n",
        "A: 16777216, _loop\n",
        "A: 1|16777215, 1, _loop\n",
        "A: 5|-1, _loop\n",
        "A: 00000000000000000000000000005, _loop\n",
        "A: 5, _wait|_x\n",
        "A: _wait|_loop\n",
        "",
        "# only a comment\n",
        "A: 5 5, _loop\n",
        "A: 5, ?\n",
        "\0\0",
        "Ä: 5, _loop\nB: 5|ü, _loop\n",
    ] {
        agree(text).unwrap();
    }
    // More errors than a front end keeps (the first 101, the rest counted
    // on the last): checked as read, and by the tree, alike.
    for text in [
        "A: 1, _loop\n".repeat(300),
        format!("A: {}_loop\n", "-1, ".repeat(300)),
        format!("A: {}B\n", "1|_x, ".repeat(150)) + &"?\n".repeat(150),
        format!("A: 1|16777215, {}_loop\n", "1, ".repeat(250)),
    ] {
        agree(&text).unwrap();
        let Err(d) = ours("t.anim", &text, false) else { panic!("{text}") };
        // Syntax errors and the check's are kept apart, then merged.
        assert!(d.len() <= 2 * animkit_grammar::kept::MAX_KEPT_ERRORS, "{}", d.len());
        assert!(d.iter().map(Diagnostic::errors).sum::<usize>() >= 250, "{text}");
    }
}

#[test]
fn too_many_states_is_the_one_error() {
    let text: String = (0..=MAX_STATES).map(|i| format!("S{i}: 1, S0\n")).collect();
    let diags = ours("t.anim", &text, false).unwrap_err();
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].message, "too many states: at most 65535 fit in one sprite file");
    let start = text.find(&format!("\nS{MAX_STATES}:")).unwrap() + 1;
    assert_eq!((diags[0].span.start, diags[0].span.end), (start, start + 6));
    assert!(matches!(flat::check(&text), Some(Err(_))));
    agree(&text).unwrap();
}

#[test]
fn too_much_code_is_the_one_error_and_keeps_no_frames() {
    // One state of `1, ` frames (two instructions each) just past the
    // limit, then a state that is fine.
    let n = (MAX_CODE / 2) as usize;
    let mut text = String::from("A: ");
    text.push_str(&"1, ".repeat(n));
    text.push_str("_loop\nB: 1, _wait\n");
    let Some(Err(diags)) = flat::check(&text) else { panic!("not the one-pass error") };
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].message, "the sprite file is too large: its states need more than 8388608 instructions");
    let end = text.find("_loop").unwrap();
    assert_eq!((diags[0].span.start, diags[0].span.end), (end, end + 5));
    // Just under the limit, the same shape compiles.
    let mut text = String::from("A: ");
    text.push_str(&"1, ".repeat(n - 1));
    text.push_str("_loop\n");
    let Some(Ok(ir)) = flat::check(&text) else { panic!("rejected") };
    assert_eq!(ir.code_len, MAX_CODE - 1);
    assert_eq!(ir.frames.len(), n - 1);
}

fn piece() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "A",
        "B",
        "Idle",
        "_loop",
        "_wait",
        "_pingpong",
        "_x",
        "ev",
        "5",
        "12",
        "0",
        "-",
        "2.5",
        "16777216",
        ":",
        ", ",
        ",\n",
        "|",
        "[",
        "]",
        "\n",
        "\r\n",
        " ",
        "#c\n",
        "?",
        "A: ",
        "B: ",
        "5, ",
        "0, ",
        "|e",
        "|0",
    ])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn random_pieces_agree(parts in prop::collection::vec(piece(), 0..30)) {
        agree(&parts.concat())?;
    }

    #[test]
    fn well_formed_files_agree(
        states in prop::collection::vec(
            (0usize..3, prop::collection::vec((0u8..4, prop::option::of(0u8..9), 0usize..3), 0..6), 0usize..7),
            1..7,
        )
    ) {
        let mut src = String::new();
        for (k, (cat, frames, end)) in states.iter().enumerate() {
            src.push_str(&format!("S{k}"));
            if *cat == 1 {
                src.push_str("[Cat]");
            }
            src.push_str(": ");
            for (d, i, e) in frames {
                src.push_str(&d.to_string());
                if let Some(i) = i {
                    src.push_str(&format!("|{i}"));
                }
                for n in 0..*e {
                    src.push_str(&format!("|ev{n}"));
                }
                src.push_str(if *cat == 2 { ",\n    " } else { ", " });
            }
            let n = states.len();
            let end = match end {
                0 => "_loop".to_string(),
                1 => "_wait|x".to_string(),
                2 => "_pingpong|ev1".to_string(),
                3 => format!("S{}", (k + 1) % n),
                4 => format!("S{}|S0", k % n),
                5 => "S9".to_string(),
                _ => "_wait".to_string(),
            };
            src.push_str(&end);
            src.push('\n');
        }
        agree(&src)?;
    }
}
