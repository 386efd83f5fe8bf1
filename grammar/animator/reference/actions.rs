//! What the grammar's actions call: the values of tokens (shared with the
//! reader: what a token means is lexical), and the errors, worded by the
//! same functions as the reader's (`reader::errors`) from what each error
//! alternative of the grammar says the command lacked.

// The actions return what the reader yields, `Result<Command, ReadError>`,
// one per command, each moved once into the file's list: boxing the error
// would make the two differ for nothing.
#![allow(clippy::result_large_err)]

use super::tokens::{Bad, Class, T};
use crate::Span;
use crate::animator::ast::{Align, Char, Cmd, Color, Command, HAlign, Int, Num, Point, Pos, Str, VAlign};
use crate::animator::lexer::{Keyword, parse_number, single_char, unescape, whole};
use crate::animator::reader::ReadError;
use crate::animator::reader::errors::{self, EndedBy, Hint};
use lalrpop_util::{ErrorRecovery, ParseError};
use std::convert::Infallible;

/// One result of the file, in order: a command or an error.
pub type Item = Result<Command, ReadError>;

/// What LALRPOP hands an error alternative.
pub type Recovery = ErrorRecovery<usize, T, Infallible>;

/// What a command lacks at the point where an error alternative of the
/// grammar cuts it: what the message says is expected there, whether a
/// string is among it (a keyword there is worth quoting), what its point
/// list lacks, and whether one character goes there.
#[derive(Debug)]
pub struct Want {
    items: &'static [&'static str],
    string: bool,
    hint: Hint,
    char: bool,
}

impl Want {
    /// `items` expected; `string` when a string is among them, `char` when
    /// one character goes there. The grammar's error alternatives, written
    /// from the command table, make theirs with this.
    pub const fn new(items: &'static [&'static str], string: bool, char: bool) -> Want {
        Want { items, string, hint: Hint::None, char }
    }

    /// More points, for a point list of at least `min` points.
    pub const fn at_least(min: u8) -> Want {
        Want { hint: Hint::AtLeast(min), ..Want::new(&["a number"], false, false) }
    }
}

/// The y of a point list's last point.
const ODD: Want = Want { hint: Hint::Odd, ..Want::new(&["a number"], false, false) };

/// A command cut by an error alternative: how many arguments it had taken,
/// where the last of them ends (`None`: none, the keyword's end), what it
/// lacked and LALRPOP's account of the error.
pub struct Cut {
    taken: usize,
    end: Option<usize>,
    want: &'static Want,
    recovery: Recovery,
}

/// A [`Cut`] after `taken` arguments ending at `end`.
pub fn cut(taken: usize, end: Option<usize>, want: &'static Want, recovery: Recovery) -> Cut {
    Cut { taken, end, want, recovery }
}

/// A command from its keyword's start `l` to its last argument's end `r`;
/// its position is set once the file is read.
pub fn ok(l: usize, r: usize, kind: Cmd) -> Item {
    Ok(Command { kind, span: Span::new(l, r), pos: Pos::START })
}

/// The error of command `kw` (from `l`, keyword ending at `k`) where an
/// error alternative cut it, as the reader words it: cut short by a keyword
/// or the end of input, else a wrong argument at the token that broke it.
pub fn cut_short(src: &str, kw: Keyword, l: usize, k: usize, c: Cut) -> ReadError {
    let Cut { taken, end, want, recovery } = c;
    let ended_by = match recovery.error {
        ParseError::UnrecognizedEof { .. } => EndedBy::End(src.len()),
        ParseError::UnrecognizedToken { token: (tl, T::Kw(next), tr), .. } => EndedBy::Keyword(next, Span::new(tl, tr)),
        ParseError::UnrecognizedToken { token: (tl, t, tr), .. } => {
            let span = Span::new(tl, tr);
            let found = errors::quote(src.as_bytes().get(tl..tr).unwrap_or_default());
            return match t {
                T::Bad(bad) => lexical(src, span, bad),
                // Every token a character can be written as, but longer.
                T::Word(_) | T::Quoted(_) | T::Num { .. } if want.char => errors::not_one_character(span, &found),
                _ => errors::unexpected(kw, span, want.items, &found, want.hint),
            };
        }
        other => return unexpected_parse_error(other),
    };
    let span = Span::new(l, end.unwrap_or(k));
    errors::incomplete(kw, span, taken, want.items, want.string, want.hint == Hint::Odd, ended_by)
}

/// A token where a command must start: after a complete command, or at the
/// start of the input.
pub fn stray(src: &str, recovery: Recovery) -> Item {
    Err(match recovery.error {
        ParseError::UnrecognizedToken { token: (l, T::Bad(bad), r), .. } => lexical(src, Span::new(l, r), bad),
        ParseError::UnrecognizedToken { token: (l, _, r), .. } => {
            errors::not_a_command(Span::new(l, r), &errors::quote(src.as_bytes().get(l..r).unwrap_or_default()))
        }
        other => unexpected_parse_error(other),
    })
}

/// The error of a token no rule takes.
fn lexical(src: &str, span: Span, bad: Bad) -> ReadError {
    match bad {
        Bad::Utf8(at) => errors::not_utf8(at, src.as_bytes().get(at.start).copied().unwrap_or(0)),
        Bad::Unterminated { at_end } => errors::unterminated(span, at_end),
    }
}

/// What the grammar cannot produce (every token is a terminal, the actions
/// raise no errors, and the end of input is accepted between commands);
/// reported rather than trusted.
pub fn unexpected_parse_error(e: ParseError<usize, T, Infallible>) -> ReadError {
    let at = match e {
        ParseError::InvalidToken { location } | ParseError::UnrecognizedEof { location, .. } => location,
        ParseError::UnrecognizedToken { token: (l, ..), .. } | ParseError::ExtraToken { token: (l, ..) } => l,
        ParseError::User { error } => match error {},
    };
    errors::plain(Span::new(at, at), "the command grammar could not read this".to_string(), "here")
}

// ----- values ----------------------------------------------------------

fn text(src: &str, l: usize, r: usize) -> &str {
    src.get(l..r).unwrap_or_default()
}

/// A number token.
pub fn num(src: &str, l: usize, r: usize) -> Num {
    Num { value: parse_number(text(src, l, r).as_bytes()), span: Span::new(l, r) }
}

/// A number token where a whole number goes, as written.
pub fn int(src: &str, l: usize, r: usize) -> Int {
    let n = num(src, l, r);
    match whole(n.value, text(src, l, r).as_bytes()) {
        Some(value) => Int::new(value, n.span),
        None => Int { value: 0, span: n.span, not_int: Some(n.value) },
    }
}

/// A string argument: a quoted string unescaped, anything else as written.
pub fn string(src: &str, t: T, l: usize, r: usize) -> Str {
    let raw = text(src, l, r);
    let text = if let T::Quoted(_) = t { unescape(raw) } else { raw.to_string() };
    Str { text, span: Span::new(l, r) }
}

/// A colour name or `#` form.
pub fn color_name(s: Str) -> Color {
    if s.text.starts_with('#') { Color::Hex(s) } else { Color::Name(s) }
}

/// The `colormap` key (the token is one character: the grammar takes no
/// other there).
pub fn char(src: &str, t: T, l: usize, r: usize) -> Char {
    let s = string(src, t, l, r);
    Char { value: single_char(&s.text).unwrap_or('\0'), span: s.span }
}

/// `on` or `off`, bare or quoted.
pub fn on(t: T) -> bool {
    matches!(t, T::Word(Class::On) | T::Quoted(Class::On))
}

// ----- cuts ------------------------------------------------------------

/// Command `kw` from `l` cut after `taken` arguments, the last ending at
/// `end` (the keyword's end when it has none).
pub fn after(src: &str, kw: Keyword, l: usize, taken: usize, end: usize, want: &'static Want, e: Recovery) -> Item {
    Err(cut_short(src, kw, l, end, cut(taken, Some(end), want, e)))
}

/// A cut in a point list after whole points `pts`, which follow `head`
/// arguments ending at `head_end`.
pub fn short(head: usize, head_end: usize, pts: Vec<Point>, want: &'static Want, e: Recovery) -> Cut {
    let end = pts.last().map_or(head_end, |p| p.y.span.end);
    cut(head + 2 * pts.len(), Some(end), want, e)
}

/// A cut in a point list after whole points and the x of one more.
pub fn odd(head: usize, (pts, x): (Vec<Point>, Num), e: Recovery) -> Cut {
    cut(head + 2 * pts.len() + 1, Some(x.span.end), &ODD, e)
}

// ----- alignments ------------------------------------------------------

/// A horizontal alignment word.
pub fn halign(t: T) -> HAlign {
    match t {
        T::Word(Class::Left) | T::Quoted(Class::Left) => HAlign::Left,
        T::Word(Class::Right) | T::Quoted(Class::Right) => HAlign::Right,
        _ => HAlign::Center,
    }
}

/// A vertical alignment word.
pub fn valign(t: T) -> VAlign {
    match t {
        T::Word(Class::Bottom) | T::Quoted(Class::Bottom) => VAlign::Bottom,
        T::Word(Class::Top) | T::Quoted(Class::Top) => VAlign::Top,
        _ => VAlign::Center,
    }
}

/// The alignment of `text` or `blit`, spanning its two words.
pub fn align((h, hs): (HAlign, Span), (v, vs): (VAlign, Span)) -> Align {
    Align { h, v, span: hs.to(vs) }
}
