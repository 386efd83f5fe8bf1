//! Read errors and their messages.

use super::elem::Elem::{ColorName, Hex256, Points, Str as S};
use super::elem::describe;
use super::forms::{join, usage};
use super::{Reader, Token};
use crate::animator::ast::Pos;
use crate::animator::lexer::{Keyword, Tok};
use crate::{Span, SyntaxError};
use std::fmt;

/// A syntax error with the line and column of its start.
///
/// It derefs to the [`SyntaxError`], so `err.message` and `err.span` work.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// What went wrong, and where in bytes.
    pub error: SyntaxError,
    /// Line and column of `error.span.start`.
    pub pos: Pos,
    /// What kind of error it is.
    pub kind: ReadErrorKind,
    /// Another place worth showing, with its label: for a command cut
    /// short, the token that ended it (or the end of the input).
    pub secondary: Option<(Span, String)>,
}

/// What a [`ReadError`] is about, for callers that add to it: the
/// compiler's checker suggests the keyword a word that is not a command was
/// probably meant to be (suggestions are semantics, and the reader makes
/// none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadErrorKind {
    /// A token where a command must start (the span is the token).
    NotACommand,
    /// A command that ended before its arguments were complete: the span
    /// is the command, from its keyword to its last argument.
    Incomplete,
    /// A resource limit of the reader (a token, command or point list too
    /// long, see [`crate::animator::reader`]): a bound on what a stream
    /// may make it hold, not a rule of the language.
    Limit,
    /// Any other error.
    Other,
}

impl std::ops::Deref for ReadError {
    type Target = SyntaxError;
    fn deref(&self) -> &SyntaxError {
        &self.error
    }
}

impl From<ReadError> for SyntaxError {
    fn from(e: ReadError) -> SyntaxError {
        e.error
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.pos, self.error.message)
    }
}

impl std::error::Error for ReadError {}

/// What ended a command cut short: the next command's keyword, or the end
/// of the input (at this offset).
#[derive(Clone, Copy, Debug)]
pub(in crate::animator) enum EndedBy {
    Keyword(Keyword, Span),
    End(usize),
}

/// What a point list still lacks, said after "expected a number, found
/// ..." (a command cut short says only [`Hint::Odd`]: its usage already says
/// how many points it takes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::animator) enum Hint {
    None,
    /// The last point has an x and no y.
    Odd,
    /// Fewer points than the command takes, at least this many.
    AtLeast(u8),
}

impl Hint {
    fn text(self, kw: Keyword) -> String {
        match self {
            Hint::None => String::new(),
            Hint::Odd => " (the last point has no y coordinate)".to_string(),
            Hint::AtLeast(min) => format!(" (`{kw}` takes at least {min} points)"),
        }
    }
}

/// A token's text as a message shows it: in backticks, cut after 40
/// characters.
pub(in crate::animator) fn quote(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    match text.char_indices().nth(40) {
        Some((cut, _)) => format!("`{}...`", &text[..cut]),
        None => format!("`{text}`"),
    }
}

/// An error of kind [`ReadErrorKind::Other`] without a second label; its
/// position is the caller's to set.
pub(in crate::animator) fn plain(span: Span, message: String, label: &str) -> ReadError {
    let error = SyntaxError { span, message, label: label.to_string(), notes: Vec::new(), left_out: 0 };
    ReadError { error, pos: Pos::START, kind: ReadErrorKind::Other, secondary: None }
}

/// A token where a command must start; `found` is the token [`quote`]d.
pub(in crate::animator) fn not_a_command(span: Span, found: &str) -> ReadError {
    let message = format!("expected a command, found {found}");
    ReadError { kind: ReadErrorKind::NotACommand, ..plain(span, message, "not a command") }
}

/// Invalid UTF-8 at `bad`, whose first byte is `byte`.
pub(in crate::animator) fn not_utf8(bad: Span, byte: u8) -> ReadError {
    plain(bad, format!("expected UTF-8 text, found byte 0x{byte:02X}"), "not UTF-8")
}

/// A quoted string without its closing quote, before a line break or (when
/// `at_end`) the end of the input.
pub(in crate::animator) fn unterminated(span: Span, at_end: bool) -> ReadError {
    let found = if at_end { "end of input" } else { "end of line" };
    plain(span, format!("expected `\"` to close the string, found {found}"), "string not closed")
}

/// A wrong argument of command `kw` at `span`, where `items` were expected.
pub(in crate::animator) fn unexpected(kw: Keyword, span: Span, items: &[&str], found: &str, hint: Hint) -> ReadError {
    let message = format!("expected {}, found {found}{}", join(items), hint.text(kw));
    plain(span, message, "not expected here")
}

/// A token where one character goes that is not one character.
pub(in crate::animator) fn not_one_character(span: Span, found: &str) -> ReadError {
    plain(span, format!("expected a single character, found {found}"), "not one character")
}

/// A command cut short by the next command or the end of the input,
/// reported as rustc reports a call with too few arguments: at the command
/// (`span`, keyword to last argument), saying what it takes and how many
/// arguments it got (`taken`), with what ended it as a second label.
/// `items` are what it lacks next; `string_expected` when a string is among
/// them (a keyword there is worth quoting); `odd` when its point list ends
/// in half a point.
pub(in crate::animator) fn incomplete(
    kw: Keyword,
    span: Span,
    taken: usize,
    items: &[&str],
    string_expected: bool,
    odd: bool,
    ended_by: EndedBy,
) -> ReadError {
    let found = match taken {
        0 => "nothing".to_string(),
        n => n.to_string(),
    };
    let mut message = format!("`{kw}` takes {}; found {found}", usage(kw));
    // The usage says how many points; only a half point needs a word.
    if odd {
        message.push_str(&Hint::Odd.text(kw));
    }
    let secondary = match ended_by {
        EndedBy::Keyword(k, span) if string_expected => {
            (span, format!("`{k}` starts the next command; quote it to use it as a string"))
        }
        EndedBy::Keyword(k, span) => (span, format!("`{k}` starts the next command")),
        EndedBy::End(end) => (Span::new(end, end), "the input ends here".to_string()),
    };
    let error =
        SyntaxError { span, message, label: format!("missing {}", join(items)), notes: Vec::new(), left_out: 0 };
    ReadError { error, pos: Pos::START, kind: ReadErrorKind::Incomplete, secondary: Some(secondary) }
}

impl Reader {
    pub(super) fn error(&mut self, span: Span, message: String, label: &str) -> ReadError {
        let pos = self.track(span.start);
        ReadError { pos, ..plain(span, message, label) }
    }

    /// A resource limit's error ([`ReadErrorKind::Limit`]).
    pub(super) fn limit(&mut self, span: Span, message: String, label: &str) -> ReadError {
        ReadError { kind: ReadErrorKind::Limit, ..self.error(span, message, label) }
    }

    /// `e` at the position of its span's start.
    fn at(&mut self, e: ReadError) -> ReadError {
        ReadError { pos: self.track(e.span.start), ..e }
    }

    /// The token as a message shows it.
    pub(super) fn found(&self, t: Token) -> String {
        quote(self.bytes(t.span))
    }

    pub(super) fn lexical_error(&mut self, t: Token) -> Option<ReadError> {
        if let Some(bad) = t.bad_utf8 {
            let byte = self.bytes(bad).first().copied().unwrap_or(0);
            return Some(self.at(not_utf8(bad, byte)));
        }
        if t.tok == Tok::Unterminated {
            let at_end = self.finished && t.span.end == self.base + self.buf.len();
            return Some(self.at(unterminated(t.span, at_end)));
        }
        None
    }

    pub(super) fn not_a_command(&mut self, t: Token) -> ReadError {
        let found = self.found(t);
        self.at(not_a_command(t.span, &found))
    }

    /// What the live forms take next, as messages name it (`a number`,
    /// `` `on` ``, ...), and whether a string is among it.
    fn expected(&self) -> (Vec<&'static str>, bool) {
        let mut items: Vec<&'static str> = Vec::new();
        let mut string_expected = false;
        for &th in &self.threads[..self.live] {
            let form = self.form(th);
            let (mut elem, mut count) = (usize::from(th.elem), th.count);
            while let Some(&e) = form.get(elem) {
                string_expected |= matches!(e, S(_) | ColorName | Hex256);
                for item in describe(e) {
                    if !items.contains(item) {
                        items.push(item);
                    }
                }
                match e {
                    Points(min) if count % 2 == 0 && count / 2 >= u32::from(min) => {
                        elem += 1;
                        count = 0;
                    }
                    _ => break,
                }
            }
        }
        if items.contains(&"a colour") {
            items.retain(|&i| i != "a number");
        }
        (items, string_expected)
    }

    /// What the pending command's point list lacks, when it has one form
    /// and is in the list: its last point's y, or points up to the least
    /// number the command takes.
    fn point_hint(&self) -> Hint {
        let [th] = self.threads[..self.live] else { return Hint::None };
        let Some(&Points(min)) = self.form(th).get(usize::from(th.elem)) else { return Hint::None };
        if th.count % 2 == 1 {
            Hint::Odd
        } else if th.count / 2 < u32::from(min) {
            Hint::AtLeast(min)
        } else {
            Hint::None
        }
    }

    /// No form takes `t` (`None`: the end of input). A command keyword or
    /// the end of the input means that the command was cut short
    /// ([`incomplete`]); anything else is a wrong argument, reported where
    /// it is.
    pub(super) fn unexpected(&mut self, t: Option<Token>) -> ReadError {
        let ended_by = match t {
            Some(t) if !matches!(t.tok, Tok::Keyword(_)) => {
                let (items, _) = self.expected();
                let found = self.found(t);
                let e = unexpected(self.keyword, t.span, &items, &found, self.point_hint());
                return self.at(e);
            }
            Some(Token { tok: Tok::Keyword(k), span, .. }) => EndedBy::Keyword(k, span),
            _ => EndedBy::End(self.base + self.buf.len()),
        };
        let (items, string_expected) = self.expected();
        let span = Span::new(self.start, self.args.last().map_or(self.keyword_span().end, |a| self.arg_span(a).end));
        let odd = self.point_hint() == Hint::Odd;
        let e = incomplete(self.keyword, span, self.args.len(), &items, string_expected, odd, ended_by);
        ReadError { pos: self.pos, ..e }
    }

    /// A token where one character goes that is not one character.
    pub(super) fn not_one_character(&mut self, t: Token) -> ReadError {
        let found = self.found(t);
        self.at(not_one_character(t.span, &found))
    }
}
