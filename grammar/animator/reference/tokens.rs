//! The thin token adapter between the logos lexer and the grammar: each
//! token of the lexer becomes one terminal, classified by what the
//! positions of a command may take. The classes are lexical facts about
//! one token (is it one character, is it the word `on`), so that the
//! grammar's rules can say which tokens each argument takes without
//! looking at text.
//!
//! ```text
//! lexer token        terminal
//! Keyword(k)         "line", "push", ... (one per keyword)
//! Number             num, or num1 when it is one character (`5`)
//! Word               word, word1 (one character, or 'c'), or the context
//!                    words on off left center right bottom top
//! Str                qstr, qstr1, qon, qoff, qleft, ... (the same classes,
//!                    quoted: context words compared as written, one
//!                    character after unescaping)
//! Sep, Dot           "-", "."
//! Unterminated, or   bad (taken by no rule: always an error)
//! invalid UTF-8
//! Comment            (dropped)
//! ```

use crate::Span;
use crate::animator::lexer::{Keyword, Tok, check_utf8, single_char, unescape, unquoted};
use logos::Logos;

/// What a word or quoted string is, for the positions that look at it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// Anything else.
    Other,
    /// One character (`x`, `'x'`, `"x"`): a `colormap` key.
    One,
    /// `on`.
    On,
    /// `off`.
    Off,
    /// `left`.
    Left,
    /// `center`.
    Center,
    /// `right`.
    Right,
    /// `bottom`.
    Bottom,
    /// `top`.
    Top,
}

/// A token that no rule takes, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bad {
    /// A word or string with invalid UTF-8, first at this span.
    Utf8(Span),
    /// A quoted string without its closing quote; `at_end` when the input
    /// ends right after it (else a line break does).
    Unterminated { at_end: bool },
}

/// One terminal of the grammar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum T {
    /// A command name (also the context words `area`, `aspect`, `push`).
    Kw(Keyword),
    /// A number; `one` when it is written as one character.
    Num { one: bool },
    /// A bare word.
    Word(Class),
    /// A quoted string.
    Quoted(Class),
    /// A lone `-`.
    Sep,
    /// A lone `.`.
    Dot,
    /// See [`Bad`].
    Bad(Bad),
}

/// A terminal with its byte offsets, as LALRPOP consumes it.
pub type Spanned = (usize, T, usize);

/// The class of a word or quoted string: `raw` as written (between the
/// quotes for a string), `text` what it stands for.
fn class(raw: &[u8], text: &str) -> Class {
    match raw {
        b"on" => Class::On,
        b"off" => Class::Off,
        b"left" => Class::Left,
        b"center" => Class::Center,
        b"right" => Class::Right,
        b"bottom" => Class::Bottom,
        b"top" => Class::Top,
        _ if single_char(text).is_some() => Class::One,
        _ => Class::Other,
    }
}

/// The terminals of `src`, comments left out.
///
/// ```
/// use animkit_grammar::animator::lexer::Keyword;
/// use animkit_grammar::animator::reference::tokens::{terminals, Class, T};
/// let ts: Vec<T> = terminals("keepalive on x \"ab\" 5 ! c").map(|(_, t, _)| t).collect();
/// assert_eq!(
///     ts,
///     [T::Kw(Keyword::Keepalive), T::Word(Class::On), T::Word(Class::One), T::Quoted(Class::Other), T::Num { one: true }]
/// );
/// ```
pub fn terminals(src: &str) -> impl Iterator<Item = Spanned> + '_ {
    let bytes = src.as_bytes();
    let mut lex = Tok::lexer(bytes);
    std::iter::from_fn(move || {
        loop {
            // Every byte belongs to some token: a failure would only make
            // a word, as in the reader.
            let tok = lex.next()?.unwrap_or(Tok::Word);
            let span = lex.span();
            let raw = &bytes[span.clone()];
            // Tokens end at ASCII bytes, so their spans are character
            // boundaries of `src`.
            let text = |r: std::ops::Range<usize>| src.get(r).unwrap_or("");
            let utf8 = || {
                check_utf8(raw).err().map(|r| T::Bad(Bad::Utf8(Span::new(span.start + r.start, span.start + r.end))))
            };
            let t = match tok {
                Tok::Comment => continue,
                Tok::Keyword(k) => T::Kw(k),
                Tok::Number => T::Num { one: raw.len() == 1 },
                Tok::Sep => T::Sep,
                Tok::Dot => T::Dot,
                Tok::Word => utf8().unwrap_or_else(|| T::Word(class(raw, text(span.clone())))),
                Tok::Str => utf8().unwrap_or_else(|| T::Quoted(class(unquoted(raw), &unescape(text(span.clone()))))),
                Tok::Unterminated => utf8().unwrap_or(T::Bad(Bad::Unterminated { at_end: span.end == src.len() })),
            };
            return Some((span.start, t, span.end));
        }
    })
}
