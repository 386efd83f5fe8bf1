//! Read errors and their messages.

use super::forms::Elem::{ColorName, Hex256, Points, Str as S};
use super::forms::{describe, join, usage};
use super::{Reader, Token};
use crate::animator::ast::Pos;
use crate::animator::lexer::Tok;
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

impl Reader {
    pub(super) fn error(&mut self, span: Span, message: String, label: &str) -> ReadError {
        let pos = self.track(span.start);
        let error = SyntaxError { span, message, label: label.to_string(), notes: Vec::new() };
        ReadError { error, pos, kind: ReadErrorKind::Other, secondary: None }
    }

    /// The token as a message shows it.
    pub(super) fn found(&self, t: Token) -> String {
        let text = String::from_utf8_lossy(self.bytes(t.span));
        match text.char_indices().nth(40) {
            Some((cut, _)) => format!("`{}...`", &text[..cut]),
            None => format!("`{text}`"),
        }
    }

    pub(super) fn lexical_error(&mut self, t: Token) -> Option<ReadError> {
        if let Some(bad) = t.bad_utf8 {
            let byte = self.bytes(bad).first().copied().unwrap_or(0);
            return Some(self.error(bad, format!("expected UTF-8 text, found byte 0x{byte:02X}"), "not UTF-8"));
        }
        if t.tok == Tok::Unterminated {
            let at_end = self.finished && t.span.end == self.base + self.buf.len();
            let found = if at_end { "end of input" } else { "end of line" };
            let message = format!("expected `\"` to close the string, found {found}");
            return Some(self.error(t.span, message, "string not closed"));
        }
        None
    }

    pub(super) fn not_a_command(&mut self, t: Token) -> ReadError {
        let message = format!("expected a command, found {}", self.found(t));
        ReadError { kind: ReadErrorKind::NotACommand, ..self.error(t.span, message, "not a command") }
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
    fn point_hint(&self) -> Option<String> {
        let [th] = self.threads[..self.live] else { return None };
        let Some(&Points(min)) = self.form(th).get(usize::from(th.elem)) else { return None };
        if th.count % 2 == 1 {
            Some(" (the last point has no y coordinate)".to_string())
        } else if th.count / 2 < u32::from(min) {
            Some(format!(" (`{}` takes at least {min} points)", self.keyword))
        } else {
            None
        }
    }

    /// No form takes `t` (`None`: the end of input). A command keyword or
    /// the end of the input means that the command was cut short
    /// ([`Reader::incomplete`]); anything else is a wrong argument,
    /// reported where it is.
    pub(super) fn unexpected(&mut self, t: Option<Token>) -> ReadError {
        let t = match t {
            Some(t) if !matches!(t.tok, Tok::Keyword(_)) => t,
            _ => return self.incomplete(t),
        };
        let (items, _) = self.expected();
        let mut message = format!("expected {}, found {}", join(&items), self.found(t));
        message.push_str(&self.point_hint().unwrap_or_default());
        self.error(t.span, message, "not expected here")
    }

    /// A command cut short by the next command or the end of the input,
    /// reported as rustc reports a call with too few arguments: at the
    /// command (keyword to last argument), saying what it takes and how
    /// many arguments it got, with what ended it as a second label.
    fn incomplete(&mut self, ended_by: Option<Token>) -> ReadError {
        let (items, string_expected) = self.expected();
        let span = Span::new(self.start, self.args.last().map_or(self.keyword_span().end, |a| a.span.end));
        let found = match self.args.len() {
            0 => "nothing".to_string(),
            n => n.to_string(),
        };
        let mut message = format!("`{}` takes {}; found {found}", self.keyword, usage(self.keyword));
        // The usage says how many points; only a half point needs a word.
        if let Some(hint) = self.point_hint().filter(|h| h.contains("no y")) {
            message.push_str(&hint);
        }
        let secondary = match ended_by {
            Some(Token { tok: Tok::Keyword(k), span, .. }) if string_expected => {
                (span, format!("`{k}` starts the next command; quote it to use it as a string"))
            }
            Some(t) => (t.span, format!("{} starts the next command", self.found(t))),
            None => {
                let end = self.base + self.buf.len();
                (Span::new(end, end), "the input ends here".to_string())
            }
        };
        let error = SyntaxError { span, message, label: format!("missing {}", join(&items)), notes: Vec::new() };
        ReadError { error, pos: self.pos, kind: ReadErrorKind::Incomplete, secondary: Some(secondary) }
    }

    /// A token where one character goes that is not one character.
    pub(super) fn not_one_character(&mut self, t: Token) -> ReadError {
        let message = format!("expected a single character, found {}", self.found(t));
        self.error(t.span, message, "not one character")
    }
}
