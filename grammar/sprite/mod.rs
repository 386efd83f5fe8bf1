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
mod fast;
pub use fast::{FrameRef, NameRef, NumberRef, Sink, read};
pub mod lexer;

lalrpop_util::lalrpop_mod!(
    #[allow(clippy::all, unused_parens, missing_docs)]
    grammar,
    "/sprite/sprite.rs"
);

use crate::{Span, SyntaxError};
use lalrpop_util::ParseError;

/// Parses a whole file. Always returns a tree (possibly missing the states
/// whose lines had errors) and every syntax error, in source order.
///
/// A file without syntax errors is read by a recursive-descent reader
/// (`fast.rs`) that builds the same tree; the LALRPOP parser, with its
/// error recovery and messages, reads the others.
pub fn parse(src: &str) -> (ast::File, Vec<SyntaxError>) {
    match fast::parse(src) {
        Some(file) => (file, Vec::new()),
        None => parse_lalrpop(src),
    }
}

/// [`parse`] by the LALRPOP parser alone.
fn parse_lalrpop(src: &str) -> (ast::File, Vec<SyntaxError>) {
    let mut recovered = Vec::new();
    let mut comments = Vec::new();
    let tokens = lexer::tokens(src).filter(|(l, t, r)| match t {
        lexer::Tok::Comment(text) => {
            comments.push(ast::Comment { text: text.trim_end().to_string(), span: Span::new(*l, *r) });
            false
        }
        _ => true,
    });
    let result = grammar::FileParser::new().parse(&mut recovered, tokens);
    let mut errors: Vec<SyntaxError> = recovered.into_iter().map(|r| describe(src, r.error)).collect();
    let mut file = match result {
        Ok(file) => file,
        Err(e) => {
            errors.push(describe(src, e));
            ast::File::default()
        }
    };
    file.comments = comments;
    errors.sort_by_key(|e| e.span.start);
    errors.dedup_by_key(|e| e.span.start);
    (file, errors)
}

fn describe(src: &str, err: ParseError<usize, lexer::Tok<'_>, std::convert::Infallible>) -> SyntaxError {
    match err {
        ParseError::InvalidToken { location } => SyntaxError {
            span: Span::new(location, location + 1),
            message: "invalid token".into(),
            label: "not understood".into(),
            notes: Vec::new(),
        },
        ParseError::UnrecognizedEof { location, expected } => SyntaxError {
            span: Span::new(location, location),
            message: format!("expected {}, found end of file", expected_list(&expected)),
            label: "file ends here".into(),
            notes: Vec::new(),
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
            SyntaxError { span, message, label, notes: Vec::new() }
        }
        ParseError::ExtraToken { token: (l, tok, r) } => SyntaxError {
            span: Span::new(l, r),
            message: format!("unexpected {tok}"),
            label: "not expected here".into(),
            notes: Vec::new(),
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
