//! Read errors and their messages.

use super::forms::Elem::{self, ColorName, Hex256, Int as I, Points, Str as S};
use super::forms::{describe, join};
use super::{Bad, Reader, Token};
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
        ReadError { error: SyntaxError { span, message, label: label.to_string() }, pos }
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
        let mut message = format!("expected a command, found {}", self.found(t));
        if let Some(k) = suggest_keyword(&String::from_utf8_lossy(self.bytes(t.span))) {
            message.push_str(&format!(" (did you mean `{k}`?)"));
        }
        self.error(t.span, message, "not a command")
    }

    /// No form takes `t` (`None`: the end of input).
    pub(super) fn unexpected(&mut self, t: Option<Token>) -> ReadError {
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
        let (span, found) = match t {
            Some(t) => (t.span, self.found(t)),
            None => {
                let end = self.base + self.buf.len();
                (Span::new(end, end), "end of input".to_string())
            }
        };
        let mut message = format!("expected {}, found {found}", join(&items));
        if let (Some(Token { tok: Tok::Keyword(k), .. }), true) = (t, string_expected) {
            message.push_str(&format!(" (`{k}` is a command; quote it to use it as a string)"));
        } else if let [th] = self.threads[..self.live] {
            if let Some(&Points(min)) = self.form(th).get(usize::from(th.elem)) {
                if th.count % 2 == 1 {
                    message.push_str(" (the last point has no y coordinate)");
                } else if th.count / 2 < u32::from(min) {
                    message.push_str(&format!(" (`{}` takes at least {min} points)", self.keyword));
                }
            }
        }
        let label = if t.is_none() { "input ends here" } else { "not expected here" };
        self.error(span, message, label)
    }

    /// A token of the right kind with a value that does not fit.
    pub(super) fn refused(&mut self, t: Token, bad: Bad, elem: Elem) -> ReadError {
        let found = self.found(t);
        let what = if elem == I { "a whole number" } else { "a number" };
        let (message, label) = match bad {
            Bad::NotFinite => (format!("expected {what}, found {found} (not a finite number)"), "not finite"),
            Bad::NotWhole => (format!("expected a whole number, found {found}"), "not a whole number"),
            Bad::OutOfRange => (format!("expected a whole number, found {found} (out of range)"), "too large"),
            Bad::NotChar => (format!("expected a single character, found {found}"), "not one character"),
            Bad::HexColor => {
                (format!("expected a colour, found {found} (`#` takes 1, 2, 3 or 6 hex digits)"), "not a colour")
            }
            Bad::CursorLength(n) => (format!("expected 256 hex digits, found {n} characters"), "not 256 hex digits"),
            Bad::CursorDigit(c, i) => {
                (format!("expected 256 hex digits, found `{c}` at character {i}"), "not a hex digit")
            }
        };
        self.error(t.span, message, label)
    }
}

/// The keyword a mistyped word was probably meant to be.
fn suggest_keyword(word: &str) -> Option<&'static str> {
    if word.len() < 2 || word.len() > 20 {
        return None;
    }
    let lower = word.to_ascii_lowercase();
    Keyword::ALL
        .iter()
        .map(|k| (edit_distance(&lower, k.as_str()), k.as_str()))
        .filter(|&(d, k)| d == 0 || (d <= 2 && d * 3 <= k.len()))
        .min_by_key(|&(d, _)| d)
        .map(|(_, k)| k)
}

/// Edit distance by characters, counting a swap of two neighbours as one
/// edit (`lien` is one edit from `line`).
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let width = b.len() + 1;
    let mut d: Vec<usize> = (0..(a.len() + 1) * width).map(|k| if k < width { k } else { 0 }).collect();
    for i in 1..=a.len() {
        d[i * width] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best =
                (d[(i - 1) * width + j] + 1).min(d[i * width + j - 1] + 1).min(d[(i - 1) * width + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[(i - 2) * width + j - 2] + 1);
            }
            d[i * width + j] = best;
        }
    }
    d[a.len() * width + b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    pub(super) fn keyword_suggestions() {
        assert_eq!(suggest_keyword("lien"), Some("line"));
        assert_eq!(suggest_keyword("Frame"), Some("frame"));
        assert_eq!(suggest_keyword("fillcirle"), Some("fillcircle"));
        assert_eq!(suggest_keyword("xyzzy"), None);
        assert_eq!(suggest_keyword("5"), None);
    }
}
