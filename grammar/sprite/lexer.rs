//! The sprite DSL lexer (logos).
//!
//! Newlines are tokens (one state per line; a line may continue after `,` or
//! `:`); spaces and tabs are skipped; `#` comments are tokens that the
//! parser sets aside. The lexer never fails:
//! a character it does not know becomes [`Tok::Unknown`], which the grammar
//! rejects with a positioned error, so one bad character does not hide the
//! errors after it.

use logos::Logos;
use std::fmt;

/// One token of the sprite DSL.
#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq)]
#[logos(skip r"[ \t\f]+")]
pub enum Tok<'s> {
    /// A `#` comment up to the end of the line. The parser keeps comments
    /// beside the tree (for the formatter); the grammar never sees them.
    #[regex(r"#[^\n]*", |lex| lex.slice(), allow_greedy = true)]
    Comment(&'s str),
    /// A state, category or event name, or a special such as `_loop`.
    #[regex(r"[A-Za-z_][A-Za-z0-9_]*", |lex| lex.slice())]
    Name(&'s str),
    /// A whole number (duration or frame index), kept as text so that the
    /// checker can report numbers too large for the format.
    #[regex(r"[0-9]+", |lex| lex.slice())]
    Int(&'s str),
    /// A number with a fraction: accepted by the grammar, rejected by the
    /// checker with a clear message (ticks and sprite indices are whole).
    #[regex(r"[0-9]+\.[0-9]*|\.[0-9]+", |lex| lex.slice())]
    Decimal(&'s str),
    /// `-`, only ever an error (negative durations and indices).
    #[token("-")]
    Minus,
    /// `:` after the state name.
    #[token(":")]
    Colon,
    /// `,` between frames.
    #[token(",")]
    Comma,
    /// `|` between the parts of a frame.
    #[token("|")]
    Pipe,
    /// `[` opening a sprite category.
    #[token("[")]
    LBracket,
    /// `]` closing a sprite category.
    #[token("]")]
    RBracket,
    /// End of a line (`\n` or `\r\n`).
    #[regex(r"\r?\n")]
    Newline,
    /// Any other character.
    Unknown(&'s str),
}

impl fmt::Display for Tok<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Name(s) | Tok::Int(s) | Tok::Decimal(s) | Tok::Unknown(s) | Tok::Comment(s) => write!(f, "`{s}`"),
            Tok::Minus => f.write_str("`-`"),
            Tok::Colon => f.write_str("`:`"),
            Tok::Comma => f.write_str("`,`"),
            Tok::Pipe => f.write_str("`|`"),
            Tok::LBracket => f.write_str("`[`"),
            Tok::RBracket => f.write_str("`]`"),
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
/// use animkit_grammar::sprite::lexer::{tokens, Tok};
/// let toks: Vec<_> = tokens("A: 5|x").map(|(_, t, _)| t).collect();
/// assert_eq!(toks, [Tok::Name("A"), Tok::Colon, Tok::Int("5"), Tok::Pipe, Tok::Name("x")]);
/// ```
pub fn tokens(src: &str) -> impl Iterator<Item = Spanned<'_>> {
    let mut lex = Tok::lexer(src);
    let raw = std::iter::from_fn(move || {
        let tok = lex.next()?;
        let span = lex.span();
        let tok = tok.unwrap_or(Tok::Unknown(&src[span.clone()]));
        Some((span.start, tok, span.end))
    });
    crate::unknown::merge_runs(raw, |t| matches!(t, Tok::Unknown(_)))
}
