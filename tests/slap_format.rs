//! The SLAP formatter (`animkit_compiler::slap::format`), as properties:
//! on random well-formed files written in any legal layout (spaces and
//! tabs around arguments and inside parentheses, `\r\n`, leading
//! whitespace, trailing and whole-line comments, runs of blank lines, any
//! keyword, `+` marks, unary minus chains, nested parentheses), formatting
//! then parsing gives the same tree (spans aside), formatting is idempotent,
//! and every comment survives. Fixed cases pin the canonical layout.
//!
//! Cases per property: 256 by default; set `PROPTEST_CASES` for more.

use crate::common;

use animkit_compiler::slap::format::format;
use animkit_grammar::slap::parse;
use proptest::prelude::*;
use proptest::sample::select;

/// An expression tree to print; the printer chooses the spacing.
#[derive(Clone, Debug)]
enum G {
    Num(&'static str),
    Name(&'static str),
    Neg(Box<G>),
    Bin(char, Box<G>, Box<G>),
    Paren(Box<G>),
    /// `name(args)`: any name, any number of arguments (the parser does
    /// not know which names are functions).
    Call(&'static str, Vec<G>),
}

fn expr_strategy() -> impl Strategy<Value = G> {
    let leaf = prop_oneof![
        select(vec!["0", "1", "3.", ".9", "1e3", "2.5E-2", "12", "0.5"]).prop_map(G::Num),
        select(vec!["PI", "sec", "a", "x_1", "red", "time", "actor"]).prop_map(G::Name),
    ];
    leaf.prop_recursive(5, 40, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|g| G::Neg(Box::new(g))),
            (select(vec!['+', '-', '*', '/']), inner.clone(), inner.clone()).prop_map(|(op, l, r)| G::Bin(
                op,
                Box::new(l),
                Box::new(r)
            )),
            inner.clone().prop_map(|g| G::Paren(Box::new(g))),
            (select(vec!["sin", "atan2", "min", "f"]), prop::collection::vec(inner, 0..4))
                .prop_map(|(n, args)| G::Call(n, args)),
        ]
    })
}

/// Prints `g`; inside parentheses, `spaces` says (cyclically) what goes
/// around each operator and inside each parenthesis.
fn print(g: &G, inside: bool, spaces: &[&str], k: &mut usize, out: &mut String) {
    let space = |out: &mut String, k: &mut usize| {
        if inside {
            out.push_str(spaces[*k % spaces.len()]);
            *k += 1;
        }
    };
    match g {
        G::Num(t) | G::Name(t) => out.push_str(t),
        G::Neg(e) => {
            out.push('-');
            space(out, k);
            print(e, inside, spaces, k, out);
        }
        G::Bin(op, l, r) => {
            print(l, inside, spaces, k, out);
            space(out, k);
            out.push(*op);
            space(out, k);
            print(r, inside, spaces, k, out);
        }
        G::Call(name, args) => {
            out.push_str(name);
            out.push('(');
            for (i, a) in args.iter().enumerate() {
                out.push_str(spaces[*k % spaces.len()]);
                if i > 0 {
                    out.push(',');
                    out.push_str(spaces[(*k + 1) % spaces.len()]);
                }
                *k += 2;
                print(a, true, spaces, k, out);
            }
            out.push_str(spaces[*k % spaces.len()]);
            *k += 1;
            out.push(')');
        }
        G::Paren(e) => {
            out.push('(');
            let mut s = String::new();
            print(e, true, spaces, k, &mut s);
            out.push_str(spaces[*k % spaces.len()]);
            out.push_str(&s);
            out.push_str(spaces[(*k + 1) % spaces.len()]);
            *k += 2;
            out.push(')');
        }
    }
}

#[derive(Clone, Debug)]
struct LineSpec {
    keyword: &'static str,
    args: Vec<(bool, G)>,
    indent: &'static str,
    sep: &'static str,
    trailing: &'static str,
    comment: Option<&'static str>,
    blank_after: usize,
    crlf: bool,
}

fn line_strategy() -> impl Strategy<Value = LineSpec> {
    (
        select(vec!["define", "time", "timep", "actor", "camera", "tiem", "x"]),
        prop::collection::vec((prop::bool::weighted(0.15), expr_strategy()), 0..6),
        select(vec!["", " ", "\t", "   "]),
        select(vec![" ", "  ", "\t", " \t "]),
        select(vec!["", " ", "\t"]),
        prop::option::weighted(0.3, select(vec!["# c", "#", "# a (b", "#  two  words  "])),
        prop_oneof![4 => Just(0usize), 1 => 1usize..4],
        prop::bool::weighted(0.1),
    )
        .prop_map(|(keyword, args, indent, sep, trailing, comment, blank_after, crlf)| LineSpec {
            keyword,
            args,
            indent,
            sep,
            trailing,
            comment,
            blank_after,
            crlf,
        })
}

fn file_text(lines: &[LineSpec], spaces: &[&str]) -> String {
    let mut src = String::new();
    let mut k = 0;
    for l in lines {
        src.push_str(l.indent);
        if l.keyword == "x" && l.comment.is_some() {
            // A comment on a line of its own.
        } else {
            src.push_str(l.keyword);
            for (plus, g) in &l.args {
                src.push_str(l.sep);
                if *plus {
                    src.push('+');
                }
                print(g, false, spaces, &mut k, &mut src);
            }
            src.push_str(l.trailing);
        }
        if let Some(c) = l.comment {
            src.push(' ');
            src.push_str(c);
        }
        src.push_str(if l.crlf { "\r\n" } else { "\n" });
        for _ in 0..l.blank_after {
            src.push('\n');
        }
    }
    src
}

proptest! {
    #![proptest_config(common::equivalence::config())]

    #[test]
    fn format_then_parse_gives_the_same_tree(
        lines in prop::collection::vec(line_strategy(), 0..12),
        spaces in prop::collection::vec(select(vec!["", " ", "  ", "\t"]), 1..5),
    ) {
        let src = file_text(&lines, &spaces);
        let (tree, errors) = parse(&src);
        prop_assert!(errors.is_empty(), "{src:?}: {errors:?}");
        let formatted = format(&tree, Some(&src));
        let (again, errors) = parse(&formatted);
        prop_assert!(errors.is_empty(), "{formatted:?}: {errors:?}");
        prop_assert_eq!(again.without_spans(), tree.without_spans(), "{:?} -> {:?}", src, formatted);
        prop_assert_eq!(format(&again, Some(&formatted)), formatted.clone(), "not idempotent: {:?}", src);
        prop_assert_eq!(again.comments.len(), tree.comments.len());
        prop_assert!(!formatted.contains("\n\n\n") && !formatted.starts_with('\n'), "{:?}", formatted);
    }
}

fn piece() -> impl Strategy<Value = &'static str> {
    select(vec![
        "define",
        "time",
        "timep",
        "actor",
        "camera",
        "color",
        "position",
        "direction",
        "action",
        "size",
        "x",
        "red",
        "1",
        "0",
        "-0",
        "2.5",
        "1e400",
        "1e300",
        ".9",
        " ",
        "  ",
        "\t",
        "+",
        "-",
        "*",
        "/",
        "(",
        ")",
        "\n",
        "\r\n",
        "# c\n",
        ";",
        "é",
        "((((",
        "1/0",
        "-1",
        "+1",
        "define red 1 0 0\n",
        "time +5\n",
        "actor 1 color ",
        "sin(",
        "atan2(1, ",
        ",",
        "sqrt(-1)",
        "f()",
    ])
}

proptest! {
    #![proptest_config(common::equivalence::config())]

    /// Whatever the text, the front end reports (never panics), and a
    /// file without syntax errors formats to one that parses the same.
    #[test]
    fn any_text_is_parsed_checked_and_formatted(parts in prop::collection::vec(piece(), 0..40)) {
        let src = parts.concat();
        let (tree, errors) = parse(&src);
        let _ = animkit_compiler::slap::check::check(&tree);
        let _ = animkit_compiler::slap::front(&src);
        let formatted = format(&tree, Some(&src));
        if errors.is_empty() {
            let (again, errors) = parse(&formatted);
            prop_assert!(errors.is_empty(), "{src:?} -> {formatted:?}: {errors:?}");
            prop_assert_eq!(again.without_spans(), tree.without_spans());
        }
    }
}

#[test]
fn canonical_layout() {
    let cases = [
        ("time   +( a+1 )*2\n", "time +(a + 1)*2\n"),
        ("\tactor mommy   color red  # red\n", "actor mommy color red # red\n"),
        ("actor 1 direction -PI/2\n", "actor 1 direction -PI/2\n"),
        ("actor 1 size (- ( 2 ))\n", "actor 1 size (-(2))\n"),
        ("actor 1 size ((a-b)/(c*-d))\n", "actor 1 size ((a - b) / (c * -d))\n"),
        ("define x 1\r\n\r\n\r\n\r\n# alone\r\ndefine y 2", "define x 1\n\n# alone\ndefine y 2\n"),
        ("\n\n# top\n\ntime 0\n\n", "# top\n\ntime 0\n"),
        ("timep sec/2 # half a second\n", "timep sec/2 # half a second\n"),
        ("camera direction 0 0 -1   \n", "camera direction 0 0 -1\n"),
        ("actor 1 position sin(PI/4)*2 atan2( -y ,x )\n", "actor 1 position sin(PI / 4)*2 atan2(-y, x)\n"),
        ("actor 1 size (min( a+1,2 ) * -floor(x))\n", "actor 1 size (min(a + 1, 2) * -floor(x))\n"),
        ("camera   lookat 0\t( 1+2 ) -PI\n", "camera lookat 0 (1 + 2) -PI\n"),
        ("  camera follow mommy # behind\n", "camera follow mommy # behind\n"),
        ("camera follow\t1  ( 6 )  2*h\r\n", "camera follow 1 (6) 2*h\n"),
        ("camera move 0 3 10  over\t2*sec\n", "camera move 0 3 10 over 2*sec\n"),
        ("", ""),
    ];
    for (src, want) in cases {
        let (tree, errors) = parse(src);
        assert!(errors.is_empty(), "{src:?}: {errors:?}");
        assert_eq!(format(&tree, Some(src)), want, "{src:?}");
    }
}

#[test]
fn the_examples_are_formatted() {
    for name in ["two_actors", "story", "follow"] {
        let src = std::fs::read_to_string(common::path(format!("examples/{name}.slap"))).unwrap();
        let (tree, errors) = parse(&src);
        assert!(errors.is_empty(), "{name}: {errors:?}");
        let formatted = format(&tree, Some(&src));
        let (again, _) = parse(&formatted);
        assert_eq!(again.without_spans(), tree.without_spans(), "{name}");
    }
}
