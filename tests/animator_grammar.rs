//! The Animator grammar (`grammar/animator/animator.lalrpop.in`, its commands
//! written from the command table by the build script) against the
//! streaming reader (issue 17 §5): over random command texts, the two read
//! the same commands (kind, values, span, position) and the same errors
//! (message, label, span, position, kind, second label), in the same order.
//!
//! A text is a list of commands, each built from one form of one command
//! (every form of every command) with arguments drawn from pools of every
//! number form, whole numbers as written, strings with escapes, context
//! words quoted and bare, one-character keys, colours and cursor bitmaps;
//! then, at random, cut short (by the next command or the end of the text),
//! given a wrong argument (a token of any kind, an unterminated string),
//! or followed by stray tokens. Tokens are separated by spaces, tabs, line
//! breaks, `\r\n` and comments.

use animkit_grammar::animator::{self, Command, ReadError, reader, reference};
use proptest::prelude::*;

type Item = Result<Command, ReadError>;

/// The reader's results for `src`, in order.
fn read(src: &str) -> Vec<Item> {
    let mut r = reader::Reader::new();
    r.push(src.as_bytes());
    r.finish();
    std::iter::from_fn(|| r.next()).collect()
}

/// Both front ends on `src`, compared through `Debug` (a `nan` is not equal
/// to itself, and the text of a mismatch is what one wants to read).
fn same(src: &str) -> Result<(), TestCaseError> {
    let by_reader = format!("{:#?}", read(src));
    let by_grammar = format!("{:#?}", reference::read(src));
    prop_assert_eq!(by_reader, by_grammar, "text: {:?}", src);
    Ok(())
}

fn assert_same(src: &str) {
    if let Err(e) = same(src) {
        panic!("{e}");
    }
}

// ----- pools -------------------------------------------------------------

/// Every number form the lexer takes.
const NUMBERS: &[&str] = &[
    "0",
    "5",
    "-2",
    "+3",
    ".5",
    "5.",
    "-.25",
    "2.5",
    "25.000000",
    "1e3",
    "1E+05",
    "-1e-3",
    "007",
    "-0",
    "0xff",
    "0X1F",
    "0x1.8p+1",
    "-0x.8p-2",
    "inf",
    "-INF",
    "nan",
    "+Infinity",
    "1.5e+2",
];
/// Whole numbers as written, and values the checker rejects (a fraction,
/// `inf`) which the reader records.
const WHOLE: &[&str] = &["0", "7", "-2", "25.000000", "3.0", "0x10", "1e2", "2.5", "inf", "+4"];
/// Strings: bare words, quoted strings with every escape, quoted context
/// words and keywords, non-ASCII text.
const STRINGS: &[&str] = &[
    "hello",
    "m",
    "x",
    "m1",
    "h\u{e9}llo",
    "f.png",
    "#ff0000",
    "\"hi there\"",
    "\"a\\\"b\"",
    "\"\\n\\t\\r\\b\\f\\\\\"",
    "\"\\q\"",
    "\"\"",
    "\"x\"",
    "\"on\"",
    "\"left\"",
    "\"aspect\"",
    "\"push\"",
    "\"frame\"",
    "\"1\"",
    "\"\u{e9}\"",
    "'c'",
    "-",
    ".",
    "7",
    "on",
    "center",
];
/// Where `colormap`'s one character goes.
const CHARS: &[&str] = &["x", "'x'", "\"x\"", ".", "-", "1", "\u{e9}", "\"\\\"\"", "ab", "'ab'", "\"\""];
/// Colour names and `#` forms (the numeric forms are forms of their own).
const COLOURS: &[&str] = &["red", "#f00", "#ff0000", "#ggg", "\"blue\"", "Red", "'x'", "on"];
const ON_OFF: &[&str] = &["on", "off", "\"on\"", "\"off\"", "On"];
const HORIZONTAL: &[&str] = &["left", "center", "right", "\"right\"", "top"];
const VERTICAL: &[&str] = &["bottom", "center", "top", "\"top\"", "left"];
/// Tokens of every kind, for a wrong argument or a stray token: keywords,
/// context words, numbers glued to text, lone `-` and `.`, an unterminated
/// string, a word with a comment glued on.
const ANY: &[&str] = &[
    "frame", "line", "echo", "push", "area", "aspect", "x", "lien", "Line", "0-", "1.2.3", "12abc", "-", ".", "5",
    "-2.5", "inf", "\"s\"", "\"open", "red!c", "on", "left", "bottom", "'c'", "#",
];
/// What goes between tokens.
const SPACES: &[&str] = &[" ", " ", " ", "\n", "\t", "  ", "\r\n", " ! a comment \"q\n", "\n\n", "!\n"];

/// Every form of every command: the keyword, then one code per argument
/// (`N` number, `I` whole number, `S` string, `O` on/off, `H`/`V`
/// alignment, `C` character, `K` colour name, `X` cursor bitmap, `P2`/`P3`/
/// `P0` a point list of at least that many points, anything else literal).
const FORMS: &[&str] = &[
    "quit",
    "frame",
    "flush",
    "push",
    "pop",
    "ident",
    "killareas",
    "endmacro",
    "forget",
    "keepalive O",
    "events O",
    "aspect O",
    "resize I I",
    "warp N N",
    "warp area S",
    "echo S",
    "title S",
    "echopt S P0 .",
    "screenshot S",
    "screendump S",
    "screendump -",
    "sleep N",
    "flushdelay N",
    "rotate N",
    "alpha N",
    "bg K",
    "bg N",
    "bg N N N",
    "color K",
    "color N",
    "color N N N",
    "scale N",
    "scale N N",
    "shift N N",
    "dot N N",
    "viewport N N N N",
    "viewport N N - N N",
    "viewport aspect S",
    "viewport S",
    "mult N N N N N N N N N",
    "clip N N N N",
    "clip N N - N N",
    "rect N N N N",
    "rect N N - N N",
    "fillrect N N N N",
    "fillrect N N - N N",
    "thick I",
    "dash I",
    "line N N N N",
    "arrow N N N N",
    "text N N S",
    "text H V N N S",
    "blit N N S",
    "blit H V N N S",
    "lines P2",
    "poly P3",
    "circle N N N I",
    "fillcircle N N N I",
    "image I I S",
    "image S S",
    "colormap C K",
    "colormap C N",
    "colormap C N N N",
    "image_set S I I S",
    "imgpoly N N N N N N S P3",
    "imgpoly N N N N S P3",
    "imgpoly N N S P3",
    "imgpoly S P3",
    "area S P3",
    "delarea S",
    "macro push S",
    "macro S",
    "invoke N N S",
    "invoke S",
    "defcursor S X X I I",
    "defcursor S X X I I",
    "setcursor S",
];

/// A cursor bitmap: 256 hex digits (quoted or not), or too few.
fn hex(pick: usize) -> String {
    match pick % 4 {
        0 => "f0".repeat(128),
        1 => format!("\"{}\"", "0a".repeat(128)),
        2 => "ff".to_string(),
        _ => "0".repeat(256),
    }
}

/// One generated command: which form, the picks for its arguments, and
/// what is done to it.
#[derive(Clone, Debug)]
struct Gen {
    form: usize,
    picks: Vec<usize>,
    /// 0..=5 as is, 6 cut after `at` arguments, 7 argument `at` replaced by
    /// a token of [`ANY`], 8 stray tokens after it.
    change: u8,
    at: usize,
    spaces: Vec<usize>,
}

fn gen_command() -> impl Strategy<Value = Gen> {
    (
        0..FORMS.len(),
        proptest::collection::vec(0usize..1000, 24),
        0u8..9,
        0usize..12,
        proptest::collection::vec(0..SPACES.len(), 24),
    )
        .prop_map(|(form, picks, change, at, spaces)| Gen { form, picks, change, at, spaces })
}

/// The tokens of a generated command.
fn tokens(g: &Gen) -> Vec<String> {
    let mut words = FORMS[g.form].split(' ');
    let mut out = vec![words.next().unwrap_or("frame").to_string()];
    let mut picks = g.picks.iter().copied().cycle();
    let mut pick = move || picks.next().unwrap_or(0);
    let from = |pool: &[&str], p: usize| pool[p % pool.len()].to_string();
    for w in words {
        match w {
            "N" => out.push(from(NUMBERS, pick())),
            "I" => out.push(from(WHOLE, pick())),
            "S" => out.push(from(STRINGS, pick())),
            "O" => out.push(from(ON_OFF, pick())),
            "H" => out.push(from(HORIZONTAL, pick())),
            "V" => out.push(from(VERTICAL, pick())),
            "C" => out.push(from(CHARS, pick())),
            "K" => out.push(from(COLOURS, pick())),
            "X" => out.push(hex(pick())),
            "P0" | "P2" | "P3" => {
                let min = usize::from(w.as_bytes()[1] - b'0');
                for _ in 0..2 * (min + pick() % 3) {
                    out.push(from(NUMBERS, pick()));
                }
            }
            literal => out.push(literal.to_string()),
        }
    }
    match g.change {
        6 => out.truncate(1 + g.at % out.len()),
        7 => {
            let i = g.at % out.len();
            out[i] = from(ANY, pick());
        }
        8 => {
            for _ in 0..=g.at % 3 {
                out.push(from(ANY, pick()));
            }
        }
        _ => {}
    }
    out
}

/// The text of a list of generated commands; `end` says how it ends: with
/// a separator, or right after the last token.
fn text(commands: &[Gen], end: bool) -> String {
    let mut src = String::new();
    for (c, g) in commands.iter().enumerate() {
        for (i, t) in tokens(g).iter().enumerate() {
            if c > 0 || i > 0 {
                src.push_str(SPACES[g.spaces[i % g.spaces.len()]]);
            }
            src.push_str(t);
        }
    }
    if end {
        src.push('\n');
    }
    src
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    /// The property of issue 17 §5.
    #[test]
    fn the_grammar_reads_what_the_reader_reads(
        commands in proptest::collection::vec(gen_command(), 0..8),
        end in any::<bool>(),
    ) {
        let src = text(&commands, end);
        same(&src)?;
    }

    /// Every command well-formed: nothing to recover from.
    #[test]
    fn well_formed_commands_read_the_same(
        commands in proptest::collection::vec(gen_command(), 1..8),
    ) {
        let commands: Vec<Gen> = commands.into_iter().map(|g| Gen { change: 0, ..g }).collect();
        same(&text(&commands, true))?;
    }

    /// Token soups: any token in any order.
    #[test]
    fn token_soups_read_the_same(
        picks in proptest::collection::vec((0usize..1000, 0usize..6, 0..SPACES.len()), 0..30),
    ) {
        let pools: [&[&str]; 6] = [ANY, NUMBERS, STRINGS, CHARS, COLOURS, &["lines", "imgpoly", "text", "viewport", "colormap", "echopt", "invoke", "image", "warp", "macro"]];
        let mut src = String::new();
        for (p, pool, s) in picks {
            src.push_str(pools[pool][p % pools[pool].len()]);
            src.push_str(SPACES[s]);
        }
        same(&src)?;
    }
}

// ----- fixed cases -----------------------------------------------------------

#[test]
fn every_form_reads_the_same_whole_and_cut_at_every_argument() {
    for f in 0..FORMS.len() {
        for pick in 0..6 {
            let g = Gen { form: f, picks: vec![pick; 24], change: 0, at: 0, spaces: vec![0] };
            let toks = tokens(&g);
            assert_same(&toks.join(" "));
            for n in 1..toks.len() {
                let cut = toks[..n].join(" ");
                assert_same(&cut);
                assert_same(&format!("{cut}\nframe\n"));
                assert_same(&format!("{cut} x\n"));
            }
        }
    }
}

#[test]
fn files_with_errors_are_reported_by_the_grammar_with_the_readers_messages() {
    let src = "frame\n  line 0 0 1\necho after\nlien 1\ncolormap ab red\n";
    let (commands, errors) = animator::parse_with_pos(src);
    let (r_commands, r_errors) = reader::parse_with_pos(src);
    assert_eq!(format!("{commands:?}"), format!("{r_commands:?}"));
    assert_eq!(errors, r_errors);
    let shown: Vec<String> = errors.iter().map(|e| format!("{}: {}", e.pos, e.message)).collect();
    assert_eq!(
        shown,
        [
            "2:3: `line` takes 4 numbers, x1 y1 x2 y2; found 3",
            "4:1: expected a command, found `lien`",
            "5:10: expected a single character, found `ab`",
        ]
    );
    assert_eq!(
        errors[0].secondary,
        Some((animkit_grammar::Span::new(19, 23), "`echo` starts the next command".into()))
    );
}
