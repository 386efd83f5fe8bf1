//! A recursive-descent reader for well-formed sprite files: the same
//! language as `sprite.lalrpop`, producing the same tree, but only for
//! input without a syntax error. On anything unexpected it gives up
//! (`None`) and [`super::parse`] runs the LALRPOP parser, whose error
//! recovery and messages are the reference. Valid files are nearly all the
//! files a build sees, and this reader is several times faster than the
//! table-driven parser (which moves 160-byte symbols on every shift).
//!
//! The tests below check that whenever this reader accepts a text, the
//! LALRPOP parser accepts it too without an error and builds an equal tree.

use super::ast::{Comment, File, Frame, Name, Number, State};
use super::lexer::{Spanned, Tok, tokens};
use crate::Span;

struct Reader<'s, I: Iterator<Item = Spanned<'s>>> {
    toks: std::iter::Peekable<I>,
    /// End of the last token consumed (LALRPOP's `@R`).
    last_end: usize,
}

impl<'s, I: Iterator<Item = Spanned<'s>>> Reader<'s, I> {
    fn peek(&mut self) -> Option<Tok<'s>> {
        self.toks.peek().map(|t| t.1)
    }

    fn next(&mut self) -> Option<Spanned<'s>> {
        let t = self.toks.next()?;
        self.last_end = t.2;
        Some(t)
    }

    fn eat(&mut self, tok: Tok<'s>) -> bool {
        if self.peek() == Some(tok) {
            self.next();
            true
        } else {
            false
        }
    }

    fn newlines(&mut self) {
        while self.eat(Tok::Newline) {}
    }

    fn name(&mut self) -> Option<Name> {
        match self.toks.peek() {
            Some(&(l, Tok::Name(t), r)) => {
                self.next();
                Some(Name { text: t.to_string(), span: Span::new(l, r) })
            }
            _ => None,
        }
    }

    fn number(&mut self) -> Option<Number> {
        let (l, negative) = match self.toks.peek() {
            Some(&(l, Tok::Minus, _)) => {
                self.next();
                (l, true)
            }
            Some(&(l, _, _)) => (l, false),
            None => return None,
        };
        match self.toks.peek() {
            Some(&(_, Tok::Int(t) | Tok::Decimal(t), r)) => {
                self.next();
                Some(Number { text: t.to_string(), negative, span: Span::new(l, r) })
            }
            _ => None,
        }
    }

    /// `("|" name)*`, appended to `out`.
    fn events(&mut self, out: &mut Vec<Name>) -> Option<()> {
        while self.eat(Tok::Pipe) {
            out.push(self.name()?);
        }
        Some(())
    }

    fn frame(&mut self) -> Option<Frame> {
        let l = self.toks.peek()?.0;
        match self.peek()? {
            Tok::Name(_) => {
                let head = self.name()?;
                let mut events = Vec::new();
                self.events(&mut events)?;
                let r = self.last_end;
                Some(Frame::Control { head, events, span: Span::new(l, r) })
            }
            Tok::Minus | Tok::Int(_) | Tok::Decimal(_) => {
                let duration = self.number()?;
                let mut index = None;
                let mut events = Vec::new();
                if self.eat(Tok::Pipe) {
                    match self.peek()? {
                        Tok::Name(_) => events.push(self.name()?),
                        _ => index = Some(self.number()?),
                    }
                    self.events(&mut events)?;
                }
                let r = self.last_end;
                Some(Frame::Timed { duration, index, events, span: Span::new(l, r) })
            }
            _ => None,
        }
    }

    fn state(&mut self) -> Option<State> {
        let name = self.name()?;
        let l = name.span.start;
        let category = if self.eat(Tok::LBracket) {
            let c = self.name()?;
            self.eat(Tok::RBracket).then_some(())?;
            Some(c)
        } else {
            None
        };
        self.eat(Tok::Colon).then_some(())?;
        self.newlines();
        let mut frames = vec![self.frame()?];
        while self.eat(Tok::Comma) {
            self.newlines();
            frames.push(self.frame()?);
        }
        let r = frames.last().map_or(self.last_end, |f| f.span().end);
        Some(State { name, category, frames, span: Span::new(l, r) })
    }
}

/// The tree of `src`, or `None` if it has any syntax error (or anything
/// this reader does not handle).
pub fn parse(src: &str) -> Option<File> {
    let mut comments = Vec::new();
    let states = states(src, &mut comments)?;
    Some(File { states, comments })
}

fn states(src: &str, comments: &mut Vec<Comment>) -> Option<Vec<State>> {
    let toks = tokens(src).filter(|&(l, t, r)| match t {
        Tok::Comment(text) => {
            comments.push(Comment { text: text.trim_end().to_string(), span: Span::new(l, r) });
            false
        }
        _ => true,
    });
    let mut r = Reader { toks: toks.peekable(), last_end: 0 };
    let mut states = Vec::new();
    loop {
        match r.peek() {
            None => return Some(states),
            Some(Tok::Newline) => {
                r.next();
            }
            Some(Tok::Name(_)) => {
                states.push(r.state()?);
                match r.peek() {
                    None | Some(Tok::Newline) => {}
                    Some(_) => return None,
                }
            }
            Some(_) => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn agrees(src: &str) -> Result<bool, TestCaseError> {
        let Some(fast) = parse(src) else { return Ok(false) };
        let (slow, errors) = super::super::parse_lalrpop(src);
        prop_assert!(errors.is_empty(), "fast reader accepted {src:?}, LALRPOP reports {errors:?}");
        prop_assert_eq!(fast, slow, "{:?}", src);
        Ok(true)
    }

    #[test]
    fn spec_examples_agree() {
        for src in [
            "Walk: 5, 5, 5, 5, _loop\n",
            "Attack: 5|swingSound, 5|hitSound, 5, Idle\nIdle: 10|0, 10|1, 10|2, 10|1, _loop\n",
            "Jump: 3|0|jumpSound, 3|1, 3|2|landSound, _wait",
            "\n\n# comment\nFall[Jump]: 1|2, _wait|sfxLand # trailing\n\n",
            "Long: 5,\n   5,\n\n 5, _loop\n",
            "Neg: -5, 2.5|-1, .5, _loop\r\nX:\n 1, _wait\n",
            "",
        ] {
            assert!(agrees(src).unwrap(), "{src:?}");
        }
        assert!(parse("Walk 5, _loop").is_none());
        assert!(parse("Walk: 5 5, _loop").is_none());
        assert!(parse("Walk: 5, ?").is_none());
    }

    fn piece() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "A",
            "Idle",
            "_loop",
            "_wait",
            "ev",
            "5",
            "12",
            "0",
            "-",
            "2.5",
            ".5",
            ":",
            ",",
            "|",
            "[",
            "]",
            "\n",
            "\r\n",
            " ",
            "\t",
            "#c\n",
            "?",
            "A: ",
            "5, ",
            "|e",
            "_pingpong",
        ])
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]
        #[test]
        fn fast_reader_agrees_with_lalrpop(parts in prop::collection::vec(piece(), 0..24)) {
            agrees(&parts.concat())?;
        }

        #[test]
        fn well_formed_files_take_the_fast_path(
            states in prop::collection::vec((0usize..3, prop::collection::vec((0u8..30, prop::option::of(0u8..9), 0usize..3), 1..6), 0usize..4), 1..6)
        ) {
            let mut src = String::new();
            for (k, (cat, frames, end)) in states.iter().enumerate() {
                src.push_str(&format!("S{k}"));
                if *cat == 1 {
                    src.push_str("[Cat]");
                }
                src.push_str(": ");
                for (d, i, e) in frames {
                    src.push_str(&d.to_string());
                    if let Some(i) = i {
                        src.push_str(&format!("|{i}"));
                    }
                    for n in 0..*e {
                        src.push_str(&format!("|ev{n}"));
                    }
                    src.push_str(if *cat == 2 { ",\n    " } else { ", " });
                }
                src.push_str(["_loop", "_wait|x", "_pingpong", "S0"][*end]);
                src.push('\n');
            }
            prop_assert!(agrees(&src)?, "{}", src);
        }
    }
}
