//! A recursive-descent reader for well-formed SLAP lines: the same
//! language as `slap.lalrpop`, producing the same tree, but only for a line
//! without a syntax error. On anything unexpected it gives up (`None`) and
//! [`super::parse`] runs the LALRPOP parser, whose errors are the reference.
//! Nearly every line a build sees is well formed, and this reader skips
//! the table-driven parser's large symbol moves on every shift.
//!
//! Recursion happens only at a `(`, and the lexer turns a `(` deeper than
//! [`super::MAX_NESTING`] into a token no rule accepts, so the recursion is
//! bounded; unary minus and operator chains are loops.
//!
//! The tests below check that whenever this reader accepts a line, the
//! LALRPOP parser accepts it too and builds an equal tree.

use super::ast::{Arg, BinOp, Directive, Expr, Name, Number};
use super::lexer::{Spanned, Tok};
use super::{Deep, binary, call, negate, paren};
use crate::Span;

struct Reader<'t, 's> {
    toks: &'t [Spanned<'s>],
    at: usize,
}

impl<'s> Reader<'_, 's> {
    fn peek(&self) -> Option<Tok<'s>> {
        self.toks.get(self.at).map(|t| t.1)
    }

    fn span(&self) -> Span {
        let t = &self.toks[self.at];
        Span::new(t.0, t.2)
    }

    fn sum(&mut self) -> Option<Deep<'s>> {
        let mut lhs = self.product()?;
        loop {
            let op = match self.peek() {
                Some(Tok::Plus) => BinOp::Add,
                Some(Tok::Minus) => BinOp::Sub,
                _ => return Some(lhs),
            };
            let op_span = self.span();
            self.at += 1;
            let rhs = self.product()?;
            lhs = binary(lhs, op, op_span, rhs).ok()?;
        }
    }

    fn product(&mut self) -> Option<Deep<'s>> {
        let mut lhs = self.unary()?;
        loop {
            let op = match self.peek() {
                Some(Tok::Star) => BinOp::Mul,
                Some(Tok::Slash) => BinOp::Div,
                _ => return Some(lhs),
            };
            let op_span = self.span();
            self.at += 1;
            let rhs = self.unary()?;
            lhs = binary(lhs, op, op_span, rhs).ok()?;
        }
    }

    fn unary(&mut self) -> Option<Deep<'s>> {
        let first = self.at;
        while self.peek() == Some(Tok::Minus) {
            self.at += 1;
        }
        let minuses = first..self.at;
        let mut e = self.atom()?;
        for minus in self.toks[minuses].iter().rev() {
            e = negate(minus.0, e).ok()?;
        }
        Some(e)
    }

    fn atom(&mut self) -> Option<Deep<'s>> {
        let &(l, tok, r) = self.toks.get(self.at)?;
        self.at += 1;
        match tok {
            Tok::Number(t) => Some((Expr::Number(Number { text: t, span: Span::new(l, r) }), 0)),
            Tok::Name(t) if self.peek() == Some(Tok::LParen) => {
                let name = Name { text: t, span: Span::new(l, r) };
                let paren = self.span();
                self.at += 1;
                let mut args = Vec::new();
                if self.peek() != Some(Tok::RParen) {
                    loop {
                        args.push(self.sum()?);
                        if self.peek() != Some(Tok::Comma) {
                            break;
                        }
                        self.at += 1;
                    }
                }
                let &(_, close, end) = self.toks.get(self.at)?;
                (close == Tok::RParen).then_some(())?;
                self.at += 1;
                call(name, paren, args, end).ok()
            }
            Tok::Name(t) => Some((Expr::Name(Name { text: t, span: Span::new(l, r) }), 0)),
            Tok::LParen => {
                let inner = self.sum()?;
                let &(_, close, r) = self.toks.get(self.at)?;
                (close == Tok::RParen).then_some(())?;
                self.at += 1;
                paren(inner, Span::new(l, r)).ok()
            }
            _ => None,
        }
    }

    fn arg(&mut self) -> Option<Arg<'s>> {
        // Most arguments are one number or name: no need to go down
        // through the precedence levels for those.
        if let Some(&(l, tok @ (Tok::Number(_) | Tok::Name(_)), r)) = self.toks.get(self.at) {
            if matches!(self.toks.get(self.at + 1), None | Some((_, Tok::Sep, _))) {
                self.at += 1;
                let span = Span::new(l, r);
                let expr = match tok {
                    Tok::Number(text) => Expr::Number(Number { text, span }),
                    Tok::Name(text) => Expr::Name(Name { text, span }),
                    _ => return None,
                };
                return Some(Arg { plus: None, expr, span });
            }
        }
        let plus = match self.toks.get(self.at) {
            Some(&(l, Tok::Plus, r)) => {
                self.at += 1;
                Some(Span::new(l, r))
            }
            _ => None,
        };
        let (expr, _) = self.sum()?;
        let end = expr.span().end;
        let span = Span::new(plus.map_or(expr.span().start, |p| p.start), end);
        Some(Arg { plus, expr, span })
    }
}

/// The directive of one line (comments and the whitespace at either end
/// removed), or `None` if it has a syntax error or anything this reader
/// does not handle.
pub(super) fn directive<'s>(toks: &[Spanned<'s>]) -> Option<Directive<'s>> {
    let &(l, Tok::Name(text), r) = toks.first()? else { return None };
    let keyword = Name { text, span: Span::new(l, r) };
    let mut reader = Reader { toks, at: 1 };
    // Separators stand only between arguments (never inside parentheses),
    // so there are as many arguments as separators.
    let mut args = Vec::with_capacity(toks.iter().filter(|t| t.1 == Tok::Sep).count());
    while reader.at < toks.len() {
        (reader.peek() == Some(Tok::Sep)).then_some(())?;
        reader.at += 1;
        args.push(reader.arg()?);
    }
    let end = args.last().map_or(r, |a: &Arg<'_>| a.span.end);
    Some(Directive { keyword, args, span: Span::new(l, end) })
}

#[cfg(test)]
mod tests {
    use super::super::parse_with;
    use proptest::prelude::*;

    /// Whether the fast reader took every line of `src`; fails if it took
    /// a line the LALRPOP parser rejects or reads differently.
    fn agrees(src: &str) -> Result<bool, TestCaseError> {
        let (fast, fast_errors) = parse_with(src, true);
        let (slow, slow_errors) = parse_with(src, false);
        prop_assert_eq!(&fast, &slow, "{:?}", src);
        prop_assert_eq!(&fast_errors, &slow_errors, "{:?}", src);
        Ok(fast_errors.is_empty())
    }

    #[test]
    fn spec_lines_agree() {
        for src in [
            "define PI 3.1416\nactor 1 direction PI/4\n",
            "time 0\ndefine red 1 0 0\nactor 1 position 0 0 # in the middle\nactor 1 color red\nactor 1 size .9\n",
            "time +500 # 500 frames later\n",
            "timep sec/2\ntimep 2*sec\ndefine left -PI/2\n",
            "  actor\t1 position (0.5 + 0.1)*2 -(a - -b) ((1))\r\n",
            "camera direction 0 0 -1\n\n\n# only a comment\n",
            "actor 1 position sin(PI/4)*2 atan2( -y , x ) min(max(a,1),f()) -sqrt((2))\n",
            "",
            "x",
        ] {
            assert!(agrees(src).unwrap(), "{src:?}");
        }
        for bad in [
            "1 - 2",
            "actor 1 size 2sec",
            "time + 10",
            "a (1",
            "a 1)",
            "a ()",
            "a 2 *3",
            "5 x",
            "a é",
            "a f(1,)",
            "a f(,1)",
            "a f(1 2)",
            "a (1, 2)",
            "a 1,2",
        ] {
            assert!(!agrees(bad).unwrap(), "{bad:?}");
        }
    }

    fn piece() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "actor", "time", "define", "x", "PI", "1", "2.5", ".9", "1e3", " ", "  ", "\t", "+", "-", "*", "/", "(",
            ")", "( ", " )", "\n", "#c\n", "?", "-x", "+1", "(a + b)", "((", "f(", ",", ", ", "sin(x)",
        ])
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]
        #[test]
        fn fast_reader_agrees_with_lalrpop(parts in prop::collection::vec(piece(), 0..24)) {
            agrees(&parts.concat())?;
        }

        #[test]
        fn deep_nesting_agrees(depth in 60usize..70, kind in 0usize..4) {
            let src = match kind {
                0 => format!("a {}1{}", "(".repeat(depth), ")".repeat(depth)),
                1 => format!("a {}1", "-".repeat(depth)),
                2 => format!("a 1{}", "+1".repeat(depth)),
                _ => format!("a {}1{}", "(-".repeat(depth / 2), ")".repeat(depth / 2)),
            };
            agrees(&src)?;
        }
    }
}
