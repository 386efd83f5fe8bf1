//! Walks the Animator command table (`animkit_grammar::animator_commands!`):
//! every form of every row, as [`command_examples`] writes it, is read the
//! same by the streaming reader and by the LALRPOP reference, comes back as
//! one of the row's `Cmd` variants, passes the checker and survives the
//! formatter's round trip; and every variant a row names is some form's.

use super::check::{Checker, Text};
use super::format::{Numbers, format_with};
use animkit_grammar::animator::ast::Cmd;
use animkit_grammar::animator::lexer::Keyword;
use animkit_grammar::animator::reader::command_examples;
use animkit_grammar::animator::{reader, reference};

/// The program that holds `example` where it is allowed: a `macro` form
/// gets a body and its `endmacro`, `endmacro` its `macro` and body.
fn program(kw: Keyword, example: &str) -> String {
    match kw {
        Keyword::Macro => format!("{example}\n  line 0 0 1 1\nendmacro\n"),
        Keyword::Endmacro => format!("macro m\n  line 0 0 1 1\n{example}\n"),
        _ => format!("{example}\n"),
    }
}

/// The command `example` reads as, after checking that both readers agree,
/// that the program checks and that formatting it reads back the same.
fn read_check_format(kw: Keyword, example: &str) -> Cmd {
    let src = program(kw, example);
    let fast = reader::parse_with_pos(&src);
    let reference = reference::parse_with_pos(&src);
    assert!(fast.1.is_empty(), "{example:?}: {:?}", fast.1);
    assert_eq!(fast, reference, "{example:?}: the reader and the grammar disagree");
    let mut checker = Checker::for_file();
    for c in &fast.0 {
        if let Err(r) = checker.check(c, Text::of(&src)) {
            panic!("{example:?}: {}", r.diagnostic.message);
        }
    }
    assert!(checker.finish().is_none(), "{example:?}");
    for numbers in [Numbers::Shortest, Numbers::Printf] {
        let formatted = format_with(&fast.0, Some(&src), numbers);
        let (again, errors) = reader::parse_with_pos(&formatted);
        assert!(errors.is_empty(), "{formatted:?}: {errors:?}");
        let unspanned =
            |cs: &[animkit_grammar::animator::Command]| cs.iter().map(|c| c.without_spans()).collect::<Vec<_>>();
        assert_eq!(unspanned(&again), unspanned(&fast.0), "{formatted:?}");
    }
    let cmd = fast.0.iter().find(|c| c.kind.command_keyword() == kw);
    cmd.map(|c| c.kind.clone()).unwrap_or_else(|| panic!("{example:?} read no `{kw}`"))
}

macro_rules! walk_the_table {
    ($($k:ident $kw:tt { cmds: [$($(#[$vm:meta])* $v:ident $vforms:tt $vfields:tt),*], $($rest:tt)* })*) => {
        #[test]
        fn every_form_of_every_row_reads_alike_checks_and_formats_back() {
            let mut rows = 0;
            $(
                rows += 1;
                let kw = Keyword::$k;
                assert_eq!(kw.as_str(), $kw);
                let names: &[&str] = &[$(stringify!($v)),*];
                let mut seen = vec![false; names.len()];
                for example in command_examples(kw) {
                    let cmd = read_check_format(kw, &example);
                    let mut i = 0;
                    $(
                        if matches!(cmd, Cmd::$v { .. }) {
                            seen[i] = true;
                        }
                        i += 1;
                    )*
                    assert_eq!(i, names.len());
                }
                // A variant no form reads as is a row out of step.
                for (name, seen) in names.iter().zip(seen) {
                    assert!(seen, "`{}`: no form reads as Cmd::{name}", $kw);
                }
            )*
            assert_eq!(rows, Keyword::ALL.len());
        }
    };
}

animkit_grammar::animator_commands!(walk_the_table);
