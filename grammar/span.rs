//! Byte spans and the syntax error type shared by every front end.

use std::fmt;

/// A half-open byte range `start..end` into one source text.
///
/// ```
/// use animkit_grammar::Span;
/// let s = Span::new(3, 7);
/// assert_eq!(s.len(), 4);
/// assert_eq!(&"abc.defg"[s.range()], ".def");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    /// First byte of the construct.
    pub start: usize,
    /// One past its last byte.
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end` (`end >= start`).
    pub const fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// Length in bytes.
    pub const fn len(&self) -> usize {
        self.end - self.start
    }

    /// True for an empty span (a position, such as the end of the file).
    pub const fn is_empty(&self) -> bool {
        self.start == self.end
    }

    /// The span as a range, for slicing the source.
    pub const fn range(&self) -> std::ops::Range<usize> {
        self.start..self.end
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

impl From<std::ops::Range<usize>> for Span {
    fn from(r: std::ops::Range<usize>) -> Span {
        Span::new(r.start, r.end)
    }
}

/// A syntax error: where, and what the parser expected there.
///
/// ```
/// let (_, errors) = animkit_grammar::sprite::parse("Walk 5, _loop\n");
/// assert_eq!(errors[0].message, "expected `:` or `[`, found `5`");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// Where the offending token (or the end of input) is.
    pub span: Span,
    /// One line, without a trailing period, in the style of rustc.
    pub message: String,
    /// A short label for the caret line.
    pub label: String,
    /// `note: ...` / `help: ...` lines, written out in full (as
    /// `Diagnostic::notes` in the compiler).
    pub notes: Vec<String>,
    /// How many more errors, after this one, were found and not kept
    /// ([`crate::kept`]): 0 but on the last error kept of a file that had
    /// more than [`crate::kept::MAX_KEPT_ERRORS`].
    pub left_out: usize,
}

impl SyntaxError {
    /// An error at `span` without notes.
    ///
    /// ```
    /// use animkit_grammar::{Span, SyntaxError};
    /// let e = SyntaxError::new(Span::new(0, 1), "bad", "here").with_help("try again");
    /// assert_eq!(e.notes, ["help: try again"]);
    /// ```
    pub fn new(span: Span, message: impl Into<String>, label: impl Into<String>) -> SyntaxError {
        SyntaxError { span, message: message.into(), label: label.into(), notes: Vec::new(), left_out: 0 }
    }

    /// Adds a `help:` line.
    pub fn with_help(mut self, help: impl Into<String>) -> SyntaxError {
        self.notes.push(format!("help: {}", help.into()));
        self
    }

    /// Adds a `note:` line.
    pub fn with_note(mut self, note: impl Into<String>) -> SyntaxError {
        self.notes.push(format!("note: {}", note.into()));
        self
    }
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {}..{}", self.message, self.span.start, self.span.end)
    }
}

impl std::error::Error for SyntaxError {}
