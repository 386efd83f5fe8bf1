use super::*;
use animkit_grammar::animator::ast::Color;

/// The messages of checking `src` as a file, with line:col.
fn errors(src: &str) -> Vec<String> {
    let (commands, syntax) = animkit_grammar::animator::parse(src);
    assert!(syntax.is_empty(), "{syntax:?}");
    let mut checker = Checker::for_file();
    let mut out: Vec<String> = commands
        .iter()
        .filter_map(|c| checker.check(c, Text::of(src)).err())
        .map(|r| format!("{}: {}", r.pos, r.diagnostic.message))
        .collect();
    out.extend(checker.finish().map(|r| format!("{}: {}", r.pos, r.diagnostic.message)));
    out
}

#[test]
fn values_as_written() {
    let cursor = "0".repeat(256);
    assert_eq!(
        errors(&format!(
            "circle 0 0 1 2.5\nsleep -nan\ncolor \"#12345\"\nthick 1e30\ndefcursor c {} {cursor} 1 1\ndash inf\nline 0 0 1 1e999",
            "0".repeat(255)
        )),
        [
            "1:14: expected a whole number, found `2.5`",
            "2:7: expected a number, found `-nan` (not a finite number)",
            "3:7: expected a colour, found `\"#12345\"` (`#` takes 1, 2, 3 or 6 hex digits)",
            "4:7: expected a whole number, found `1e30` (out of range)",
            "5:13: expected 256 hex digits, found 255 characters",
            "6:6: expected a whole number, found `inf` (not a finite number)",
            "7:12: expected a number, found `1e999` (not a finite number)",
        ]
    );
    let long = format!("sleep 1{}e999", "0".repeat(50));
    let quoted = format!("`1{}...`", "0".repeat(39));
    assert_eq!(errors(&long), [format!("1:7: expected a number, found {quoted} (not a finite number)")]);
}

#[test]
fn the_first_error_of_a_command_in_the_order_of_the_text() {
    assert_eq!(errors("circle inf 0 1 2.5"), ["1:8: expected a number, found `inf` (not a finite number)"]);
    assert_eq!(errors("resize 0 2.5"), ["1:10: expected a whole number, found `2.5`"]);
    assert_eq!(errors("resize 0 99999"), ["1:8: width 0 is out of range"]);
}

#[test]
fn macro_structure() {
    assert_eq!(
        errors("endmacro\nmacro a\n  dot 0 0\n  flush\nendmacro\nmacro e\nendmacro\nmacro o\n"),
        [
            "1:1: `endmacro` without `macro`",
            "4:3: `flush` is not allowed inside a macro",
            "6:1: macro `e` has an empty body",
            "8:1: macro `o` is never ended",
        ]
    );
    // A body whose every command was an error only declares the name.
    let src = "macro m\n  thick 2.5\nendmacro\n";
    let (commands, _) = animkit_grammar::animator::parse(src);
    let mut checker = Checker::for_stream();
    let steps: Vec<_> = commands.iter().map(|c| checker.check(c, Text::of(src)).map(|c| c.step()).ok()).collect();
    assert_eq!(steps, [Some(Step::Begin), None, Some(Step::End(Ending::Declare))]);
}

#[test]
fn a_stream_can_leave_commands_out_and_cancel_macros() {
    let src = "macro m\n  dot 0 0\nendmacro\nmacro n\nendmacro\n";
    let (commands, _) = animkit_grammar::animator::parse(src);
    let mut checker = Checker::for_stream();
    assert_eq!(checker.check(&commands[0], Text::of(src)).unwrap().step(), Step::Begin);
    assert_eq!(checker.check(&commands[1], Text::of(src)).unwrap().step(), Step::Record);
    checker.leave_out();
    assert_eq!(checker.check(&commands[2], Text::of(src)).unwrap().step(), Step::End(Ending::Declare));
    assert_eq!(checker.check(&commands[3], Text::of(src)).unwrap().step(), Step::Begin);
    checker.cancel_macro();
    assert!(!checker.is_recording());
    assert_eq!(checker.check(&commands[4], Text::of(src)).unwrap_err().pos, Pos { line: 5, col: 1 });
}

#[test]
fn functions_keep_their_blocks_within_reach() {
    let mut checker = Checker::for_file();
    let (commands, _) = animkit_grammar::animator::parse("lines 0 0 1 1\n");
    let text = Text::of("lines 0 0 1 1\n");
    checker.main_consts = Some(u64::from(MAX_AX));
    assert!(checker.check(&commands[0], text).is_ok());
    let err = checker.check(&commands[0], text).unwrap_err();
    assert_eq!(err.diagnostic.message, "the script has too many arguments for one module");
    // The same through the fast path.
    let text = Text::of("line 0 0 1 1\npush\n");
    let (commands, _) = animkit_grammar::animator::parse("line 0 0 1 1\npush\n");
    checker.main_consts = Some(u64::from(MAX_AX));
    assert!(checker.check(&commands[0], text).is_ok());
    assert!(checker.check(&commands[1], text).is_ok(), "no block, nothing to reach");
    assert!(checker.check(&commands[0], text).is_err());
}

#[test]
fn the_fast_path_agrees_with_the_full_check() {
    let src = "quit frame flush push pop ident killareas line 0 0 1 1 arrow 0 inf 1 1 rect 0 0 - 1 1 \
        fillrect 0 0 - nan 1 rect 0 0 1 1 fillrect 0 0 1 -inf circle 0 0 1 65536 circle 0 0 1 65537 \
        fillcircle 0 0 1 -1 fillcircle 0 0 1 2.5 fillcircle 0 0 1e999 8 dot 1 2 warp 0 nan shift 1 2 scale 2 \
        scale 2 inf scale nan rotate 45 alpha 2 sleep inf clip 0 0 1 1 clip 0 0 - 1 nan thick 1024 thick 1025 \
        thick -1 thick 0.5 color 2 -1 0.5 bg 0.1 0.2 0.3 color 0 nan 0 color red color 0.5 echo hi";
    let (commands, errors) = animkit_grammar::animator::parse(src);
    assert!(errors.is_empty(), "{errors:?}");
    let mut quick_ones = 0;
    for cmd in &commands {
        let full = Checker::for_stream().check_in_full(cmd, Text::of(src)).ok().map(|c| c.facts);
        match quick(&cmd.kind) {
            Some(facts) => {
                quick_ones += 1;
                assert_eq!(Some(facts), full, "{:?}", cmd.kind);
            }
            // Either not a fast command, or one with an error.
            None => assert!(full.is_none() || !is_fast(&cmd.kind), "{:?}", cmd.kind),
        }
    }
    assert_eq!(quick_ones, 20);
}

/// The commands [`quick`] handles.
fn is_fast(cmd: &Cmd) -> bool {
    !matches!(cmd, Cmd::Echo { .. } | Cmd::Color { color: Color::Name(_) | Color::Gray(_), .. })
}

#[test]
fn keyword_suggestions() {
    assert_eq!(suggest_keyword("lien"), Some("line"));
    assert_eq!(suggest_keyword("Frame"), Some("frame"));
    assert_eq!(suggest_keyword("fillcirle"), Some("fillcircle"));
    assert_eq!(suggest_keyword("xyzzy"), None);
    assert_eq!(suggest_keyword("5"), None);
}

#[test]
fn positions_in_a_stream_follow_the_held_text() {
    let src = "frame\n  circle 0\n 0 1 2.5";
    let (commands, _) = animkit_grammar::animator::parse(src);
    let held = &src.as_bytes()[6..];
    let err = Checker::for_stream().check(&commands[1], Text::new(held, 6)).unwrap_err();
    assert_eq!(err.pos, Pos { line: 3, col: 6 });
}
