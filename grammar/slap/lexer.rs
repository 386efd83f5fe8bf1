//! The SLAP lexer (logos), with the one piece of context SLAP's argument
//! rule needs.
//!
//! Arguments are separated by whitespace, and an argument is an expression
//! written without spaces, unless it is inside parentheses, where spaces
//! are free. So whitespace outside parentheses is a token,
//! [`Tok::Sep`] (an argument boundary), and whitespace inside parentheses
//! is skipped. [`tokens`] counts the open parentheses of the current line
//! to tell the two apart: `1 -2` is `1`, a boundary and `-2` (two
//! arguments), `(1 - 2)` is one argument, `1 - 2` is `1`, a boundary, a
//! `-` alone and another boundary, which the grammar rejects.
//!
//! Newlines are tokens (one directive per line) and close any parenthesis
//! left open on the line. `#` comments are tokens that the parser sets
//! aside. The lexer never fails: a character it does not know becomes
//! [`Tok::Unknown`], which the grammar rejects with a positioned error. A
//! `(` opened more than [`super::MAX_NESTING`] levels deep becomes
//! [`Tok::TooDeep`], so no parser ever holds deeper nesting.

use logos::Logos;
use std::fmt;

/// What logos itself recognises; [`tokens`] turns it into [`Tok`].
#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq)]
enum Raw<'s> {
    #[regex(r"#[^\n]*", |lex| lex.slice(), allow_greedy = true)]
    Comment(&'s str),
    #[regex(r"[A-Za-z_][A-Za-z0-9_]*", |lex| lex.slice())]
    Name(&'s str),
    #[regex(r"[0-9]+(\.[0-9]*)?([eE][+-]?[0-9]+)?|\.[0-9]+([eE][+-]?[0-9]+)?", |lex| lex.slice())]
    Number(&'s str),
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("/")]
    Slash,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token(",")]
    Comma,
    #[regex(r#""[^"\n]*""#, |lex| lex.slice())]
    Str(&'s str),
    #[regex(r"<[A-Za-z0-9_]*>", |lex| lex.slice())]
    Angle(&'s str),
    #[regex(r"[ \t\f\r]+")]
    Space,
    #[token("\n")]
    Newline,
}

/// One token of SLAP.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok<'s> {
    /// A `#` comment up to the end of the line (the text includes the `#`).
    /// The parser keeps comments beside the tree; the grammar never sees
    /// them.
    Comment(&'s str),
    /// A name: a directive, an attribute or a defined name
    /// (`[A-Za-z_][A-Za-z0-9_]*`).
    Name(&'s str),
    /// A number as written: digits with an optional fraction and exponent
    /// (`3`, `3.`, `.9`, `1e3`, `2.5E-2`), no sign.
    Number(&'s str),
    /// `+`: addition, or the mark of a relative time (`time +10`).
    Plus,
    /// `-`: subtraction or negation.
    Minus,
    /// `*`
    Star,
    /// `/`
    Slash,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `,` inside parentheses: between the arguments of a function call
    /// (`atan2(y, x)`). Outside parentheses a comma is [`Tok::Unknown`].
    Comma,
    /// A quoted file name, quotes included (`"lib.slap"`): only the
    /// argument of `include`.
    Str(&'s str),
    /// A name in angle brackets, brackets included (`<polly>`): only the
    /// argument of `include`.
    Angle(&'s str),
    /// Whitespace outside parentheses: the boundary between two arguments.
    Sep,
    /// End of a line (`\n`; a `\r` before it is whitespace).
    Newline,
    /// A `(` that would open more than [`super::MAX_NESTING`] levels.
    TooDeep,
    /// Any other character.
    Unknown(&'s str),
}

impl fmt::Display for Tok<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Name(s) | Tok::Number(s) | Tok::Unknown(s) | Tok::Comment(s) | Tok::Str(s) | Tok::Angle(s) => {
                write!(f, "`{s}`")
            }
            Tok::Plus => f.write_str("`+`"),
            Tok::Minus => f.write_str("`-`"),
            Tok::Star => f.write_str("`*`"),
            Tok::Slash => f.write_str("`/`"),
            Tok::LParen | Tok::TooDeep => f.write_str("`(`"),
            Tok::RParen => f.write_str("`)`"),
            Tok::Comma => f.write_str("`,`"),
            Tok::Sep => f.write_str("a space"),
            Tok::Newline => f.write_str("end of line"),
        }
    }
}

/// A spanned token as LALRPOP consumes it.
pub type Spanned<'s> = (usize, Tok<'s>, usize);

/// Tokens of `src` with byte offsets; never fails (see [`Tok::Unknown`]:
/// a run of unknown characters is one token, named by its first).
///
/// ```
/// use animkit_grammar::slap::lexer::{tokens, Tok};
/// let toks: Vec<_> = tokens("time +(a - 1)*2 -b").map(|(_, t, _)| t).collect();
/// assert_eq!(
///     toks,
///     [
///         Tok::Name("time"), Tok::Sep, Tok::Plus, Tok::LParen, Tok::Name("a"), Tok::Minus,
///         Tok::Number("1"), Tok::RParen, Tok::Star, Tok::Number("2"), Tok::Sep, Tok::Minus, Tok::Name("b"),
///     ]
/// );
/// ```
pub fn tokens(src: &str) -> impl Iterator<Item = Spanned<'_>> {
    let mut lex = Raw::lexer(src);
    let mut depth = 0usize;
    let raw = std::iter::from_fn(move || {
        loop {
            let raw = lex.next()?;
            let span = lex.span();
            let tok = match raw {
                Ok(Raw::Comment(s)) => Tok::Comment(s),
                Ok(Raw::Name(s)) => Tok::Name(s),
                Ok(Raw::Number(s)) => Tok::Number(s),
                Ok(Raw::Str(s)) => Tok::Str(s),
                Ok(Raw::Angle(s)) => Tok::Angle(s),
                Ok(Raw::Plus) => Tok::Plus,
                Ok(Raw::Minus) => Tok::Minus,
                Ok(Raw::Star) => Tok::Star,
                Ok(Raw::Slash) => Tok::Slash,
                Ok(Raw::LParen) => {
                    depth += 1;
                    if depth > super::MAX_NESTING { Tok::TooDeep } else { Tok::LParen }
                }
                Ok(Raw::RParen) => {
                    depth = depth.saturating_sub(1);
                    Tok::RParen
                }
                Ok(Raw::Comma) if depth > 0 => Tok::Comma,
                Ok(Raw::Comma) => Tok::Unknown(&src[span.clone()]),
                Ok(Raw::Space) if depth > 0 => continue,
                Ok(Raw::Space) => Tok::Sep,
                Ok(Raw::Newline) => {
                    depth = 0;
                    Tok::Newline
                }
                Err(()) => Tok::Unknown(&src[span.clone()]),
            };
            return Some((span.start, tok, span.end));
        }
    });
    crate::unknown::merge_runs(raw, |t| matches!(t, Tok::Unknown(_)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(src: &str) -> Vec<Tok<'_>> {
        tokens(src).map(|(_, t, _)| t).collect()
    }

    #[test]
    fn numbers() {
        for n in ["3", "3.", ".9", "1e3", "2.5E-2", "10e+4", "0.5"] {
            assert_eq!(toks(n), [Tok::Number(n)], "{n}");
        }
        // An exponent needs digits: `1e` is a number and a name.
        assert_eq!(toks("1e"), [Tok::Number("1"), Tok::Name("e")]);
        assert_eq!(toks("1e+x"), [Tok::Number("1"), Tok::Name("e"), Tok::Plus, Tok::Name("x")]);
        assert_eq!(toks("1.2.3"), [Tok::Number("1.2"), Tok::Number(".3")]);
        assert_eq!(toks("2sec"), [Tok::Number("2"), Tok::Name("sec")]);
    }

    #[test]
    fn spaces_separate_outside_parentheses_only() {
        assert_eq!(toks("1 -2"), [Tok::Number("1"), Tok::Sep, Tok::Minus, Tok::Number("2")]);
        assert_eq!(toks("( 1 - 2 )"), [Tok::LParen, Tok::Number("1"), Tok::Minus, Tok::Number("2"), Tok::RParen]);
        assert_eq!(toks("1 - 2"), [Tok::Number("1"), Tok::Sep, Tok::Minus, Tok::Sep, Tok::Number("2")]);
        // A stray `)` does not make the depth negative.
        assert_eq!(toks(") 1"), [Tok::RParen, Tok::Sep, Tok::Number("1")]);
        // A line break closes what the line left open.
        assert_eq!(toks("(1\n 2"), [Tok::LParen, Tok::Number("1"), Tok::Newline, Tok::Sep, Tok::Number("2")]);
        assert_eq!(toks("a\r\n"), [Tok::Name("a"), Tok::Sep, Tok::Newline]);
    }

    #[test]
    fn comments_and_unknown_characters() {
        assert_eq!(toks("a # b (c\n"), [Tok::Name("a"), Tok::Sep, Tok::Comment("# b (c"), Tok::Newline]);
        let all: Vec<_> = tokens("a é").collect();
        assert_eq!(all[2], (2, Tok::Unknown("é"), 4));
        // A comma separates call arguments inside parentheses only.
        assert_eq!(toks("a,b"), [Tok::Name("a"), Tok::Unknown(","), Tok::Name("b")]);
        assert_eq!(
            toks("f(a, b)"),
            [Tok::Name("f"), Tok::LParen, Tok::Name("a"), Tok::Comma, Tok::Name("b"), Tok::RParen]
        );
    }

    #[test]
    fn parentheses_are_capped() {
        let src = "(".repeat(super::super::MAX_NESTING + 2);
        let t = toks(&src);
        assert!(t[..super::super::MAX_NESTING].iter().all(|t| *t == Tok::LParen));
        assert_eq!(&t[super::super::MAX_NESTING..], [Tok::TooDeep, Tok::TooDeep]);
    }
}
