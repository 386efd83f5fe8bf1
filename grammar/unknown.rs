//! Runs of characters a lexer does not know, as one token.
//!
//! A file of ten million NULs would otherwise be ten million tokens: the
//! SLAP reader keeps a line's tokens until the line ends, and LALRPOP's
//! error recovery keeps every token it skips, about 40 bytes each, so a
//! file's garbage cost 40 times its size. One token per run keeps the
//! first character's text (the error names it) and spans the whole run
//! (the caret covers it).

/// `tokens` with each run of adjacent unknown tokens (as `unknown` tells)
/// made one: the first's token, from the first's start to the last's end.
pub(crate) fn merge_runs<T: Copy>(
    tokens: impl Iterator<Item = (usize, T, usize)>,
    unknown: impl Fn(&T) -> bool,
) -> impl Iterator<Item = (usize, T, usize)> {
    let mut tokens = tokens.peekable();
    std::iter::from_fn(move || {
        let (l, tok, mut r) = tokens.next()?;
        if unknown(&tok) {
            while let Some(&(_, _, end)) = tokens.peek().filter(|(next, t, _)| *next == r && unknown(t)) {
                r = end;
                tokens.next();
            }
        }
        Some((l, tok, r))
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn runs_of_unknown_characters_are_one_token() {
        use crate::slap::lexer::{Tok, tokens};
        let all: Vec<_> = tokens("a \0\0\0;b ;").collect();
        assert_eq!(
            all,
            [
                (0, Tok::Name("a"), 1),
                (1, Tok::Sep, 2),
                (2, Tok::Unknown("\0"), 6),
                (6, Tok::Name("b"), 7),
                (7, Tok::Sep, 8),
                (8, Tok::Unknown(";"), 9)
            ]
        );
        use crate::sprite::lexer::{Tok as S, tokens as sprite};
        let all: Vec<_> = sprite("A: \0\0 %%1").collect();
        assert_eq!(
            all,
            [
                (0, S::Name("A"), 1),
                (1, S::Colon, 2),
                (3, S::Unknown("\0"), 5),
                (6, S::Unknown("%"), 8),
                (8, S::Int("1"), 9)
            ]
        );
    }
}
