//! The Sprite Animator DSL (`.anim`): lexer, grammar and AST.
//!
//! ```
//! use animkit_grammar::sprite::{parse, ast::Frame};
//! let (file, errors) = parse("Fall[Jump]: 1|2, _wait|sfxLand\n");
//! assert!(errors.is_empty());
//! let fall = &file.states[0];
//! assert_eq!(fall.category.as_ref().unwrap().text, "Jump");
//! assert!(matches!(&fall.frames[1], Frame::Control { head, .. } if head.text == "_wait"));
//! ```

//!
//! [`read`] is the fast reader without a tree: it hands each state and
//! frame, borrowed from the source, to a [`Sink`] (the compiler checks
//! well-formed files that way, in one pass).

pub mod ast;
mod recursive_descent;
pub use recursive_descent::{FrameRef, NameRef, NumberRef, Sink, read};
pub mod lexer;

lalrpop_util::lalrpop_mod!(
    #[allow(clippy::all, unused_parens, missing_docs)]
    grammar,
    "/sprite/sprite.rs"
);

use crate::kept::FirstInOrder;
use crate::{Span, SyntaxError};
use lalrpop_util::{ErrorRecovery, ParseError};

/// Parses a whole file. Always returns a tree (possibly missing the states
/// whose lines had errors) and every syntax error, in source order.
///
/// A file without syntax errors is read by a recursive-descent reader
/// (`recursive_descent.rs`) that builds the same tree; the LALRPOP
/// parser, with its error recovery and messages, reads the others.
pub fn parse(src: &str) -> (ast::File, Vec<SyntaxError>) {
    match recursive_descent::parse(src) {
        Some(file) => (file, Vec::new()),
        None => parse_lalrpop(src),
    }
}

/// The syntax errors the LALRPOP parser recovers from, described as they
/// come: the first [`MAX_KEPT_ERRORS`](crate::kept::MAX_KEPT_ERRORS) kept,
/// the others counted (a file of a million bad lines holds a hundred
/// errors, not a million, nor LALRPOP's lists of expected tokens).
pub struct Recovered<'s> {
    src: &'s str,
    kept: FirstInOrder<SyntaxError>,
    /// Where the last error taken is (one error per position).
    last: Option<usize>,
}

impl<'s> Recovered<'s> {
    fn new(src: &'s str) -> Self {
        Recovered { src, kept: FirstInOrder::new(), last: None }
    }

    /// Takes one error (the grammar's `!` rule).
    fn push(&mut self, e: ErrorRecovery<usize, lexer::Tok<'s>, std::convert::Infallible>) {
        self.take(describe(self.src, e.error));
    }

    fn take(&mut self, e: SyntaxError) {
        if self.last == Some(e.span.start) {
            return;
        }
        self.last = Some(e.span.start);
        self.kept.push(e);
    }
}

/// [`parse`] by the LALRPOP parser alone.
fn parse_lalrpop(src: &str) -> (ast::File, Vec<SyntaxError>) {
    let mut recovered = Recovered::new(src);
    let mut comments = Vec::new();
    let tokens = lexer::tokens(src).filter(|(l, t, r)| match t {
        lexer::Tok::Comment(text) => {
            comments.push(ast::Comment { text: text.trim_end().to_string(), span: Span::new(*l, *r) });
            false
        }
        _ => true,
    });
    let result = grammar::FileParser::new().parse(&mut recovered, tokens);
    let mut file = match result {
        Ok(file) => file,
        Err(e) => {
            recovered.take(describe(src, e));
            ast::File::default()
        }
    };
    file.comments = comments;
    let mut errors: Vec<SyntaxError> = Vec::new();
    // One error per position (the recoveries come in source order, the
    // last error may not), a dropped one's count kept.
    for e in recovered.kept.finish() {
        match errors.last_mut() {
            Some(prev) if prev.span.start == e.span.start => prev.left_out += e.left_out,
            _ => errors.push(e),
        }
    }
    (file, errors)
}

fn describe(src: &str, err: ParseError<usize, lexer::Tok<'_>, std::convert::Infallible>) -> SyntaxError {
    match err {
        ParseError::InvalidToken { location } => SyntaxError {
            span: Span::new(location, location + 1),
            message: "invalid token".into(),
            label: "not understood".into(),
            notes: Vec::new(),
            left_out: 0,
        },
        ParseError::UnrecognizedEof { location, expected } => SyntaxError {
            span: Span::new(location, location),
            message: format!("expected {}, found end of file", expected_list(&expected)),
            label: "file ends here".into(),
            notes: Vec::new(),
            left_out: 0,
        },
        ParseError::UnrecognizedToken { token: (l, tok, r), expected } => {
            let (message, label) = match tok {
                lexer::Tok::Unknown(c) => {
                    (format!("unexpected character `{}`", c.escape_debug()), "not part of the sprite DSL".to_string())
                }
                _ => (format!("expected {}, found {tok}", expected_list(&expected)), format!("unexpected {tok}")),
            };
            // A newline token spans the line break itself; point at the end
            // of the line instead so the caret stays on the offending line.
            let span = if matches!(tok, lexer::Tok::Newline) { Span::new(l, l) } else { Span::new(l, r) };
            let _ = src;
            SyntaxError { span, message, label, notes: Vec::new(), left_out: 0 }
        }
        ParseError::ExtraToken { token: (l, tok, r) } => SyntaxError {
            span: Span::new(l, r),
            message: format!("unexpected {tok}"),
            label: "not expected here".into(),
            notes: Vec::new(),
            left_out: 0,
        },
        ParseError::User { error } => match error {},
    }
}

/// Turns LALRPOP's terminal names into words a user reads.
fn expected_list(expected: &[String]) -> String {
    let mut words: Vec<&str> = Vec::new();
    for e in expected {
        let w = match e.as_str() {
            "name" => "a name",
            "int" | "decimal" | "\"-\"" => "a number",
            "\"\\n\"" => "end of line",
            "\":\"" => "`:`",
            "\",\"" => "`,`",
            "\"|\"" => "`|`",
            "\"[\"" => "`[`",
            "\"]\"" => "`]`",
            other => other,
        };
        if !words.contains(&w) {
            words.push(w);
        }
    }
    match words.as_slice() {
        [] => "nothing".into(),
        [one] => (*one).into(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
    }
}
