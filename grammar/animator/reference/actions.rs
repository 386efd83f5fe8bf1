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

const fn want(items: &'static [&'static str], string: bool) -> Want {
    Want { items, string, hint: Hint::None, char: false }
}

/// A number.
pub const NUMBER: Want = want(&["a number"], false);
/// A whole number.
pub const WHOLE: Want = want(&["a whole number"], false);
/// A number or the `-` of a two-corner form.
pub const NUMBER_OR_SEP: Want = want(&["a number", "`-`"], false);
/// `on` or `off`.
pub const ON_OFF: Want = want(&["`on`", "`off`"], false);
/// A string.
pub const STRING: Want = want(&["a string"], true);
/// A file name.
pub const FILE: Want = want(&["a file name"], true);
/// A file name or `-`.
pub const DUMP: Want = want(&["a file name or `-`"], true);
/// An image name.
pub const IMAGE: Want = want(&["an image name"], true);
/// A macro name.
pub const MACRO: Want = want(&["a macro name"], true);
/// An area name.
pub const AREA: Want = want(&["an area name"], true);
/// A cursor name.
pub const CURSOR: Want = want(&["a cursor name"], true);
/// A cursor bitmap.
pub const HEX: Want = want(&["256 hex digits"], true);
/// A colour (a number would do too; the message says colour).
pub const COLOUR: Want = want(&["a colour"], true);
/// The `colormap` key.
pub const CHAR: Want = Want { char: true, ..want(&["a single character"], false) };
/// `warp`'s first argument.
pub const WARP: Want = want(&["a number", "`area`"], false);
/// `viewport`'s first argument.
pub const VIEWPORT: Want = want(&["a number", "`aspect`", "a macro name"], true);
/// `text`'s and `blit`'s first argument.
pub const HORIZONTAL: Want = want(&["a number", "`left`", "`center`", "`right`"], false);
/// The vertical alignment after a horizontal one.
pub const VERTICAL: Want = want(&["`bottom`", "`center`", "`top`"], false);
/// `image`'s first argument.
pub const IMAGE_START: Want = want(&["a whole number", "an image name"], true);
/// `imgpoly`'s argument where a number or the image may come.
pub const NUMBER_OR_IMAGE: Want = want(&["a number", "an image name"], true);
/// `macro`'s first argument.
pub const MACRO_START: Want = want(&["`push`", "a macro name"], true);
/// `invoke`'s first argument.
pub const INVOKE: Want = want(&["a number", "a macro name"], true);
/// `echopt`'s points or its closing `.`.
pub const POINT_OR_DOT: Want = want(&["a number", "`.`"], false);
/// The y of a point list's last point.
pub const ODD: Want = Want { hint: Hint::Odd, ..NUMBER };
/// More points, for commands that take at least 2.
pub const SHORT2: Want = Want { hint: Hint::AtLeast(2), ..NUMBER };
/// More points, for commands that take at least 3.
pub const SHORT3: Want = Want { hint: Hint::AtLeast(3), ..NUMBER };

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

/// The command `kw` starting at `l`, its keyword ending at `k`, from its
/// arguments (ending at `r`) or from where they were cut.
pub fn done<A>(
    src: &str,
    kw: Keyword,
    (l, k, r): (usize, usize, usize),
    args: Result<A, Cut>,
    build: impl FnOnce(A) -> Cmd,
) -> Item {
    match args {
        Ok(a) => ok(l, r, build(a)),
        Err(c) => Err(cut_short(src, kw, l, k, c)),
    }
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

/// Command `t` (a keyword terminal) from `l`, its keyword ending at `k`,
/// cut before its first argument.
pub fn first(src: &str, t: T, l: usize, k: usize, want: &'static Want, e: Recovery) -> Item {
    Err(cut_short(src, keyword(t), l, k, cut(0, None, want, e)))
}

/// Command `kw` from `l` cut after `taken` arguments, the last ending at
/// `end`.
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

// ----- commands --------------------------------------------------------

/// The keyword of a keyword terminal.
pub fn keyword(t: T) -> Keyword {
    match t {
        T::Kw(k) => k,
        // The rules pass keyword terminals only.
        _ => Keyword::Quit,
    }
}

/// A command without arguments.
pub fn no_args(t: T) -> Cmd {
    match keyword(t) {
        Keyword::Frame => Cmd::Frame,
        Keyword::Flush => Cmd::Flush,
        Keyword::Push => Cmd::Push,
        Keyword::Pop => Cmd::Pop,
        Keyword::Ident => Cmd::Ident,
        Keyword::Killareas => Cmd::Killareas,
        Keyword::Endmacro => Cmd::Endmacro,
        Keyword::Forget => Cmd::Forget,
        _ => Cmd::Quit,
    }
}

/// `keepalive`, `events` or `aspect`.
pub fn switch(t: T, on: bool) -> Cmd {
    match keyword(t) {
        Keyword::Keepalive => Cmd::Keepalive { on },
        Keyword::Events => Cmd::Events { on },
        _ => Cmd::Aspect { on },
    }
}

/// `sleep`, `flushdelay`, `rotate` or `alpha`.
pub fn one_number(t: T, n: Num) -> Cmd {
    match keyword(t) {
        Keyword::Sleep => Cmd::Sleep { seconds: n },
        Keyword::Flushdelay => Cmd::Flushdelay { seconds: n },
        Keyword::Rotate => Cmd::Rotate { degrees: n },
        _ => Cmd::Alpha { alpha: n },
    }
}

/// `bg` or `color`.
pub fn colour(t: T, color: Color) -> Cmd {
    match keyword(t) {
        Keyword::Bg => Cmd::Bg { color },
        _ => Cmd::Color { color },
    }
}

/// Which of the two rectangle forms was written.
#[derive(Clone, Copy, Debug)]
pub enum Rect {
    /// `x y width height`.
    Sized,
    /// `x1 y1 - x2 y2`.
    Corners,
}

/// `viewport` with four numbers.
pub fn viewport((form, [a, b, c, d]): (Rect, [Num; 4])) -> Cmd {
    match form {
        Rect::Sized => Cmd::Viewport { left: a, bottom: b, width: c, height: d },
        Rect::Corners => Cmd::ViewportCorners { left: a, bottom: b, right: c, top: d },
    }
}

/// `clip`, `rect` or `fillrect`.
pub fn rect(t: T, (form, [a, b, c, d]): (Rect, [Num; 4])) -> Cmd {
    let (p, q) = (Point { x: a, y: b }, Point { x: c, y: d });
    match (keyword(t), form) {
        (Keyword::Clip, Rect::Sized) => Cmd::Clip { left: a, bottom: b, width: c, height: d },
        (Keyword::Clip, Rect::Corners) => Cmd::ClipCorners { left: a, bottom: b, right: c, top: d },
        (Keyword::Rect, Rect::Sized) => Cmd::Rect { corner: p, width: c, height: d },
        (Keyword::Rect, Rect::Corners) => Cmd::RectCorners { from: p, to: q },
        (_, Rect::Sized) => Cmd::FillRect { corner: p, width: c, height: d },
        (_, Rect::Corners) => Cmd::FillRectCorners { from: p, to: q },
    }
}

/// `line` or `arrow`.
pub fn line(t: T, [a, b, c, d]: [Num; 4]) -> Cmd {
    let (from, to) = (Point { x: a, y: b }, Point { x: c, y: d });
    match keyword(t) {
        Keyword::Arrow => Cmd::Arrow { from, to },
        _ => Cmd::Line { from, to },
    }
}

/// `circle` or `fillcircle`.
pub fn circle(t: T, center: Point, radius: Num, vertices: Int) -> Cmd {
    match keyword(t) {
        Keyword::Fillcircle => Cmd::FillCircle { center, radius, vertices },
        _ => Cmd::Circle { center, radius, vertices },
    }
}

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

/// The form of `imgpoly` up to its image.
#[derive(Clone, Copy, Debug)]
pub enum Img {
    /// `image points`.
    Unit,
    /// `ux vy image points`.
    Axes(Num, Num),
    /// `ux uy vx vy image points`.
    Edges(Point, Point),
    /// `ax ay ux uy vx vy image points`.
    Full(Point, Point, Point),
}

/// `imgpoly` in its form.
pub fn imgpoly(form: Img, image: Str, points: Vec<Point>) -> Cmd {
    match form {
        Img::Unit => Cmd::ImgPolyUnit { image, points },
        Img::Axes(ux, vy) => Cmd::ImgPolyAxes { ux, vy, image, points },
        Img::Edges(u, v) => Cmd::ImgPolyEdges { u, v, image, points },
        Img::Full(anchor, u, v) => Cmd::ImgPoly { anchor, u, v, image, points },
    }
}

/// Two numbers (LALRPOP's types have no arrays).
pub type Two = [Num; 2];
/// Four numbers.
pub type Four = [Num; 4];
