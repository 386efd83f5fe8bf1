//! The Animator formatter behind `animc --fmt`: one command per line in
//! canonical form, macro bodies indented by two spaces.
//!
//! - Arguments are separated by single spaces, in the form that was written
//!   (`rect x y w h` stays so, `rect x1 y1 - x2 y2` too; `scale 2` is not
//!   widened to `scale 2 2`; colours stay a name, `#hex` or numbers).
//! - Numbers are printed in the shortest text that reads back to the same
//!   `f64` bit for bit (`-0` stays negative zero; `1e20`, `5e-324`); whole
//!   numbers as integers.
//! - Strings are bare when that is unambiguous (a single word that is not a
//!   command keyword, not a context word such as `on` or `push`, not
//!   readable as a number, without `!`, `"` or `\`), and quoted with escapes
//!   otherwise.
//!
//! With the source text, comments (`! ...`) are kept: a comment on the line
//! where a command ends stays after it; any other comment goes on its own
//! line before the next command (a comment inside a command that spans
//! lines moves before that command). One blank line is kept wherever the
//! source had any.
//!
//! ```
//! use animkit_compiler::animator::format::format;
//! let src = "! a square\ncolor  #ff0000 ! red\n\n\nmacro sq\nrect 0 0 - 25.000000 1e0\nendmacro\ninvoke 1 .5 sq\necho \"frame\"\n";
//! let (commands, errors) = animkit_grammar::animator::parse(src);
//! assert!(errors.is_empty());
//! assert_eq!(
//!     format(&commands, Some(src)),
//!     "! a square\ncolor #ff0000 ! red\n\nmacro sq\n  rect 0 0 - 25 1\nendmacro\ninvoke 1 0.5 sq\necho \"frame\"\n"
//! );
//! ```

use animkit_grammar::Span;
use animkit_grammar::animator::ast::{Align, Cmd, Color, Command, HAlign, Int, Num, Point, Str, VAlign};
use animkit_grammar::animator::fields::Field;
use animkit_grammar::animator::lexer::{Tok, comments, parse_number, tokens};

/// How numbers are printed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Numbers {
    /// The shortest text that reads back to the same value (`25`, `0.1`,
    /// `1e20`).
    #[default]
    Shortest,
    /// As C's `%f` prints them (`25.000000`), wherever that reads back to
    /// the same value bit for bit; otherwise the shortest text. This is what
    /// clients that print with `printf` send.
    Printf,
}

/// Words with a meaning in some argument position; written as strings they
/// are always quoted.
const CONTEXT_WORDS: [&str; 10] = ["on", "off", "left", "center", "right", "bottom", "top", "area", "aspect", "push"];

/// The shortest text that reads back to `v` bit for bit.
///
/// ```
/// use animkit_compiler::animator::format::number;
/// assert_eq!(number(25.0), "25");
/// assert_eq!(number(-0.0), "-0");
/// assert_eq!(number(0.1), "0.1");
/// assert_eq!(number(1e20), "1e20");
/// assert_eq!(number(1.5e-7), "1.5e-7");
/// ```
pub fn number(v: f64) -> String {
    let a = v.abs();
    if a == 0.0 || (1e-5..1e16).contains(&a) { format!("{v}") } else { format!("{v:e}") }
}

fn printf_number(v: f64) -> String {
    if v.abs() < 1e16 {
        let s = format!("{v:.6}");
        if parse_number(s.as_bytes()).to_bits() == v.to_bits() {
            return s;
        }
    }
    number(v)
}

/// `text` as a string argument: bare when unambiguous, else quoted.
///
/// ```
/// use animkit_compiler::animator::format::string;
/// assert_eq!(string("hello"), "hello");
/// assert_eq!(string("two words"), "\"two words\"");
/// assert_eq!(string("frame"), "\"frame\"");
/// assert_eq!(string("push"), "\"push\"");
/// assert_eq!(string("25.000000"), "\"25.000000\"");
/// assert_eq!(string("a\"b\\c\n"), r#""a\"b\\c\n""#);
/// ```
pub fn string(text: &str) -> String {
    if is_bare(text) { text.to_string() } else { quote(text) }
}

fn is_bare(text: &str) -> bool {
    if CONTEXT_WORDS.contains(&text) || text.chars().any(|c| c == '\\' || c.is_whitespace() || c.is_control()) {
        return false;
    }
    let mut toks = tokens(text.as_bytes());
    matches!((toks.next(), toks.next()), (Some((Tok::Word, span)), None) if span == Span::new(0, text.len()))
}

fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Builds one line, argument by argument.
struct Line {
    out: String,
    numbers: Numbers,
}

impl Line {
    fn word(&mut self, w: &str) -> &mut Line {
        if !self.out.is_empty() {
            self.out.push(' ');
        }
        self.out.push_str(w);
        self
    }

    fn num(&mut self, n: &Num) -> &mut Line {
        let text = match self.numbers {
            Numbers::Shortest => number(n.value),
            Numbers::Printf => printf_number(n.value),
        };
        self.word(&text)
    }

    fn int(&mut self, i: &Int) -> &mut Line {
        // A number that is not a whole number (which the checker rejects)
        // is printed as written, so that formatting loses nothing.
        if let Some(v) = i.not_int {
            return self.num(&Num { value: v, span: i.span });
        }
        let text = match self.numbers {
            Numbers::Printf if i.value.unsigned_abs() < 1 << 53 => format!("{}.000000", i.value),
            _ => i.value.to_string(),
        };
        self.word(&text)
    }

    fn str(&mut self, s: &Str) -> &mut Line {
        self.word(&string(&s.text))
    }

    fn point(&mut self, p: &Point) -> &mut Line {
        self.num(&p.x).num(&p.y)
    }

    fn points(&mut self, points: &[Point]) -> &mut Line {
        for p in points {
            self.point(p);
        }
        self
    }

    fn on(&mut self, on: bool) -> &mut Line {
        self.word(if on { "on" } else { "off" })
    }

    fn color(&mut self, c: &Color) -> &mut Line {
        match c {
            Color::Name(s) => self.str(s),
            // Bare unless it would not read back as one word.
            Color::Hex(s) => self.str(s),
            Color::Rgb(r, g, b) => self.num(r).num(g).num(b),
            Color::Gray(g) => self.num(g),
        }
    }

    fn align(&mut self, a: &Option<Align>) -> &mut Line {
        if let Some(a) = a {
            self.word(match a.h {
                HAlign::Left => "left",
                HAlign::Center => "center",
                HAlign::Right => "right",
            });
            self.word(match a.v {
                VAlign::Bottom => "bottom",
                VAlign::Center => "center",
                VAlign::Top => "top",
            });
        }
        self
    }
}

/// One command in canonical form (without indentation or newline).
///
/// ```
/// use animkit_compiler::animator::format::{command, Numbers};
/// let (cmds, _) = animkit_grammar::animator::parse("text   left top 0 1e1 \"hi there\"");
/// assert_eq!(command(&cmds[0].kind, Numbers::Shortest), "text left top 0 10 \"hi there\"");
/// assert_eq!(command(&cmds[0].kind, Numbers::Printf), "text left top 0.000000 10.000000 \"hi there\"");
/// ```
pub fn command(cmd: &Cmd, numbers: Numbers) -> String {
    let mut l = Line { out: String::new(), numbers };
    l.word(cmd.keyword());
    // Each argument by the kind the command table gives it, in the order
    // written (`Cmd::try_fields`).
    let _ = cmd.try_fields(|f| {
        match f {
            Field::Word(w) => l.word(w),
            Field::Num(n) => l.num(n),
            Field::OptNum(n) => match n {
                Some(n) => l.num(n),
                None => &mut l,
            },
            Field::Nums(ns) => {
                for n in ns {
                    l.num(n);
                }
                &mut l
            }
            Field::Int(i) => l.int(i),
            // Bit patterns read best in hex.
            Field::Bits(i) => match numbers {
                Numbers::Shortest if i.value >= 0 && i.not_int.is_none() => l.word(&format!("{:#06x}", i.value)),
                _ => l.int(i),
            },
            Field::Str(s) | Field::Name(s) | Field::Hex(s) => l.str(s),
            Field::OptStr(s) => match s {
                Some(s) => l.str(s),
                None => l.word("-"),
            },
            Field::Point(p) => l.point(p),
            Field::Points(ps) => l.points(ps),
            Field::On(on) => l.on(on),
            Field::Flag(w, written) => {
                if written {
                    l.word(w);
                }
                &mut l
            }
            Field::Color(c) => l.color(c),
            Field::Char(ch) => l.word(&string(&ch.value.to_string())),
            Field::OptAlign(a) => l.align(a),
        };
        Ok::<(), std::convert::Infallible>(())
    });
    l.out
}

/// Formats `commands` (see the module docs). With `src`, the text they were
/// read from, comments and blank lines are kept.
pub fn format(commands: &[Command], src: Option<&str>) -> String {
    format_with(commands, src, Numbers::Shortest)
}

/// [`format`], printing numbers as `numbers` says.
pub fn format_with(commands: &[Command], src: Option<&str>, numbers: Numbers) -> String {
    let text = src.unwrap_or("");
    let notes: Vec<Span> = match src {
        Some(s) => comments(s.as_bytes()).collect(),
        None => Vec::new(),
    };
    let note = |span: Span| text[span.range()].trim_end();
    // One blank line where the source had any between `from` and `to`.
    let blank = |out: &mut String, from: Option<usize>, to: usize| {
        if let Some(from) = from {
            if from <= to && text.get(from..to).is_some_and(|gap| gap.matches('\n').count() >= 2) {
                out.push('\n');
            }
        }
    };
    let mut out = String::new();
    let mut next = 0;
    let mut prev_end: Option<usize> = None;
    let mut in_macro = false;
    for cmd in commands {
        let indent = if in_macro { "  " } else { "" };
        // Comments before the command, and inside it.
        while let Some(&c) = notes.get(next).filter(|c| c.start < cmd.span.end) {
            blank(&mut out, prev_end, c.start.min(cmd.span.start));
            out.push_str(indent);
            out.push_str(note(c));
            out.push('\n');
            prev_end = Some(c.end);
            next += 1;
        }
        blank(&mut out, prev_end, cmd.span.start);
        let ends_macro = matches!(cmd.kind, Cmd::Endmacro);
        if in_macro && !ends_macro {
            out.push_str("  ");
        }
        out.push_str(&command(&cmd.kind, numbers));
        prev_end = Some(cmd.span.end);
        // A comment on the line where the command ends stays there.
        if let Some(&c) = notes.get(next) {
            if text.get(cmd.span.end..c.start).is_some_and(|gap| !gap.contains('\n')) {
                out.push(' ');
                out.push_str(note(c));
                prev_end = Some(c.end);
                next += 1;
            }
        }
        out.push('\n');
        match cmd.kind {
            Cmd::Macro { .. } => in_macro = true,
            Cmd::Endmacro => in_macro = false,
            _ => {}
        }
    }
    for &c in &notes[next..] {
        blank(&mut out, prev_end, c.start);
        if in_macro {
            out.push_str("  ");
        }
        out.push_str(note(c));
        out.push('\n');
        prev_end = Some(c.end);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use animkit_grammar::animator::parse;

    fn fmt(src: &str) -> String {
        let (commands, errors) = parse(src);
        assert!(errors.is_empty(), "{errors:?}");
        format(&commands, Some(src))
    }

    #[test]
    fn every_form_in_canonical_layout() {
        let src = "keepalive   on\nevents off\nresize 640.000000 480\nwarp 1 2\nwarp area \"b 1\"\necho 5\necho hi\nechopt p .\nechopt \"a b\" 1 2 3 4 .\ntitle \"t\"\nframe\nflush\nscreenshot x.png\nscreendump -\nscreendump \"-\"\nscreendump d.raw\nsleep 0.25\nflushdelay 1e-2\naspect off\nbg #fff\nrotate -90\nscale 2\nscale 2 3\nshift 1 1\nviewport 0 0 4 4\nviewport 0 0 - 4 4\nviewport aspect m\nviewport \"aspect\"\nmult 1 0 0 0 1 0 0 0 1\npush\npop\nident\nclip 0 0 1 1\nclip 0 0 - 1 1\ncolor \"dark green\"\ncolor 0.5\ncolor 1 0 0\nalpha .5\nthick 3\ndash 0xf0f0\ndot 0 0\nline 0 0 1 1\narrow 0 0 1 1\nrect 0 0 1 1\nrect 0 0 - 1 1\nfillrect 0 0 1 1\nfillrect 0 0 - 1 1\ntext 0 0 \"\"\nblit right bottom 0 0 img\nlines 0 0 1 1\npoly 0 0 1 0 1 1\ncircle 0 0 1 8\nfillcircle 0 0 1 8\nimage img a/b.png\nimage 2 2 \"7\"\ncolormap x red\ncolormap \"!\" 0\ncolormap \"\\\"\" 0 0 1\nimage_set img 0 1 \"xx x\"\nimgpoly 0 0 1 0 0 1 img 0 0 1 0 1 1\nimgpoly 1 0 0 1 img 0 0 1 0 1 1\nimgpoly 1 1 img 0 0 1 0 1 1\nimgpoly img 0 0 1 0 1 1\narea a 0 0 1 0 1 1\ndelarea a\nkillareas\nmacro \"push\"\ndot 0 0\nendmacro\nmacro push m\nendmacro\ninvoke m\ninvoke 1 2 m\nforget\nsetcursor c\nquit\n";
        let want = src
            .replace("keepalive   on", "keepalive on")
            .replace("640.000000", "640")
            .replace("echo 5", "echo \"5\"")
            .replace("title \"t\"", "title t")
            .replace("screendump \"-\"", "screendump -")
            .replace("1e-2", "0.01")
            .replace("alpha .5", "alpha 0.5")
            .replace("dot 0 0\nendmacro", "  dot 0 0\nendmacro");
        assert_eq!(fmt(src), want);
    }

    #[test]
    fn comments_stay_trailing_or_on_their_own_line() {
        let src = "! head\n\n\n  frame   ! start\n! before flush\nflush\nlines 0 0 ! inside\n 1 1 ! after\nmacro m ! a macro\n! in the body\ndot 0 0\n\n! before end\nendmacro\n! tail\r\n";
        assert_eq!(
            fmt(src),
            "! head\n\nframe ! start\n! before flush\nflush\n! inside\nlines 0 0 1 1 ! after\nmacro m ! a macro\n  ! in the body\n  dot 0 0\n\n  ! before end\nendmacro\n! tail\n"
        );
        // Idempotent.
        let once = fmt(src);
        assert_eq!(fmt(&once), once);
        assert_eq!(fmt("! only a comment"), "! only a comment\n");
        assert_eq!(fmt(""), "");
    }

    #[test]
    fn numbers_read_back_bit_for_bit() {
        for v in [0.0, -0.0, 1.0, -2.5, 0.1, 1e-5, 9.99e-6, 1e16, 123456789.125, f64::MAX, f64::MIN_POSITIVE, 5e-324] {
            for text in [number(v), printf_number(v)] {
                assert_eq!(parse_number(text.as_bytes()).to_bits(), v.to_bits(), "{v:?} printed {text}");
            }
        }
        assert_eq!(printf_number(25.0), "25.000000");
        assert_eq!(printf_number(0.1), "0.100000");
        assert_eq!(printf_number(1.0 / 3.0), number(1.0 / 3.0));
    }

    #[test]
    fn values_the_checker_rejects_are_formatted_as_written() {
        let src = "thick 2.5\ndash 1e30\nsleep inf\nrotate -inf\ncolor \"#1 2\"\nbg #ggg\ncircle 0 0 1 nan\n";
        let out = fmt(src);
        assert_eq!(out, "thick 2.5\ndash 1e30\nsleep inf\nrotate -inf\ncolor \"#1 2\"\nbg #ggg\ncircle 0 0 1 NaN\n");
        let (again, errors) = parse(&out);
        assert!(errors.is_empty(), "{errors:?}");
        let (first, _) = parse(src);
        let same = |a: &[Command], b: &[Command]| a.iter().zip(b).all(|(x, y)| x.without_spans() == y.without_spans());
        assert!(same(&first, &again));
    }

    #[test]
    fn strings_that_need_quotes() {
        for (text, want) in [
            ("", "\"\""),
            ("-", "\"-\""),
            (".", "\".\""),
            ("a!b", "\"a!b\""),
            ("inf", "\"inf\""),
            ("0x10", "\"0x10\""),
            ("on", "\"on\""),
            ("é", "é"),
            ("#fff", "#fff"),
            ("tab\there", "\"tab\\there\""),
            ("\u{8}\u{c}\r", "\"\\b\\f\\r\""),
        ] {
            assert_eq!(string(text), want, "{text:?}");
        }
    }
}
