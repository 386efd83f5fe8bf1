//! SLAP, the Scripting Language for Animating Polly's (`.slap`): lexer,
//! grammar and AST.
//!
//! One directive per line: `define NAME VALUE...`, `time EXPR`,
//! `time +EXPR`, `timep EXPR`, `actor ID ATTRIBUTE ARGS...`,
//! `camera ATTRIBUTE ARGS...`; `#` comments. Arguments are separated by
//! whitespace; each is an expression written without spaces (`-PI/2`) or
//! with spaces inside parentheses (`(a + b)*2`). What the directives mean
//! is the checker's business (`animkit_compiler::slap`): this module reads
//! any keyword with any arguments.
//!
//! ```
//! use animkit_grammar::slap::{parse, ast::{Expr, Line}};
//! let (file, errors) = parse("define halfpi PI/2\ntime +(a + 1)*2 # later\n");
//! assert!(errors.is_empty());
//! let Line::Directive(time) = &file.lines[1] else { panic!() };
//! assert_eq!(time.keyword.text, "time");
//! assert!(time.args[0].plus.is_some());
//! assert!(matches!(time.args[0].expr, Expr::Binary { .. }));
//! assert_eq!(file.comments[0].text, "# later");
//! ```

pub mod ast;
mod describe;
mod fast;
pub mod lexer;

lalrpop_util::lalrpop_mod!(
    #[allow(clippy::all, unused_parens, missing_docs)]
    grammar,
    "/slap/slap.rs"
);

use crate::{Span, SyntaxError};
use ast::{BinOp, Comment, Expr, File, Invalid, Line};
use lalrpop_util::ParseError;
use lexer::{Spanned, Tok};

/// Deepest expression nesting the grammar accepts: each parenthesis,
/// binary operator and unary minus is a level above its operands, so `1`
/// is 0 levels deep, `-(a+1)` 3. Equal to `animkit_vm::limits::MAX_SLAP_NESTING`
/// (the grammar crate does not depend on the VM; a compiler test checks
/// that the two agree).
pub const MAX_NESTING: usize = 64;

/// An expression and how deeply it nests.
pub(crate) type Deep<'s> = (Expr<'s>, usize);

/// The grammar's one error of its own: an expression nested more than
/// [`MAX_NESTING`] levels deep, at the operator or parenthesis that goes
/// over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooDeep {
    /// The operator, `-` or `(` of the level that goes over.
    pub span: Span,
}

type LineError<'s> = ParseError<usize, Tok<'s>, TooDeep>;

fn deeper<'s>(depth: usize, span: Span) -> Result<usize, LineError<'s>> {
    if depth + 1 > MAX_NESTING { Err(ParseError::User { error: TooDeep { span } }) } else { Ok(depth + 1) }
}

pub(crate) fn binary<'s>(lhs: Deep<'s>, op: BinOp, op_span: Span, rhs: Deep<'s>) -> Result<Deep<'s>, LineError<'s>> {
    let depth = deeper(lhs.1.max(rhs.1), op_span)?;
    let span = lhs.0.span().to(rhs.0.span());
    Ok((Expr::Binary { op, op_span, lhs: Box::new(lhs.0), rhs: Box::new(rhs.0), span }, depth))
}

pub(crate) fn negate<'s>(start: usize, operand: Deep<'s>) -> Result<Deep<'s>, LineError<'s>> {
    let depth = deeper(operand.1, Span::new(start, start + 1))?;
    let span = Span::new(start, operand.0.span().end);
    Ok((Expr::Neg { operand: Box::new(operand.0), span }, depth))
}

pub(crate) fn paren<'s>(inner: Deep<'s>, span: Span) -> Result<Deep<'s>, LineError<'s>> {
    let depth = deeper(inner.1, Span::new(span.start, span.start + 1))?;
    Ok((Expr::Paren { inner: Box::new(inner.0), span }, depth))
}

/// A call: one level above its deepest argument, like a parenthesis
/// (`paren` is where the `(` is).
pub(crate) fn call<'s>(
    name: ast::Name<'s>,
    paren: Span,
    args: Vec<Deep<'s>>,
    end: usize,
) -> Result<Deep<'s>, LineError<'s>> {
    let depth = deeper(args.iter().map(|a| a.1).max().unwrap_or(0), Span::new(paren.start, paren.start + 1))?;
    let span = Span::new(name.span.start, end);
    Ok((Expr::Call { name, args: args.into_iter().map(|a| a.0).collect(), span }, depth))
}

/// Parses a whole file. Always returns a tree, with an [`Line::Invalid`]
/// for each line that has a syntax error, and every syntax error (one per
/// bad line), in source order.
///
/// Each line is read by a recursive-descent reader (`fast.rs`) that
/// builds the same tree as the LALRPOP grammar for well-formed lines; a
/// line it does not accept goes to the LALRPOP parser, whose error is
/// described from the tokens around it.
///
/// ```
/// let (file, errors) = animkit_grammar::slap::parse("actor 1 position 1 - 2\nactor 1 size 2sec\ntime 5\n");
/// assert_eq!(file.lines.len(), 3);
/// assert_eq!(errors.len(), 2);
/// assert_eq!(errors[0].message, "`-` between spaces is not an argument");
/// assert_eq!(errors[1].message, "expected an operator or a space, found `sec`");
/// ```
pub fn parse(src: &str) -> (File<'_>, Vec<SyntaxError>) {
    parse_with(src, true)
}

/// [`parse`], with or without the fast line reader (tests compare the two).
fn parse_with(src: &str, fast: bool) -> (File<'_>, Vec<SyntaxError>) {
    let mut file = File::default();
    let mut errors = Vec::new();
    let mut line: Vec<Spanned<'_>> = Vec::new();
    let parser = grammar::DirectiveParser::new();
    for tok in lexer::tokens(src) {
        match tok.1 {
            Tok::Comment(text) => file.comments.push(Comment { text: text.trim_end(), span: Span::new(tok.0, tok.2) }),
            Tok::Newline => {
                finish_line(src, &parser, fast, &line, &mut file, &mut errors);
                line.clear();
            }
            _ => line.push(tok),
        }
    }
    finish_line(src, &parser, fast, &line, &mut file, &mut errors);
    (file, errors)
}

/// Parses the tokens of one line (comments removed) into `file`.
fn finish_line<'s>(
    src: &'s str,
    parser: &grammar::DirectiveParser,
    fast: bool,
    line: &[Spanned<'s>],
    file: &mut File<'s>,
    errors: &mut Vec<SyntaxError>,
) {
    let mut toks = line;
    while let [(_, Tok::Sep, _), rest @ ..] = toks {
        toks = rest;
    }
    while let [rest @ .., (_, Tok::Sep, _)] = toks {
        toks = rest;
    }
    if toks.is_empty() {
        return;
    }
    if let [(l, Tok::Name("include"), _), rest @ ..] = toks {
        match rest {
            [(_, Tok::Sep, _), (a, t @ (Tok::Str(text) | Tok::Angle(text)), b)] => {
                file.lines.push(Line::Include(ast::Include {
                    target: &text[1..text.len() - 1],
                    builtin: matches!(t, Tok::Angle(_)),
                    target_span: Span::new(*a, *b),
                    span: Span::new(*l, *b),
                }))
            }
            _ => {
                let at = match rest {
                    [(_, Tok::Sep, _), next, ..] => Span::new(next.0, toks[toks.len() - 1].2),
                    _ => Span::new(toks[0].2, toks[0].2),
                };
                errors.push(
                    SyntaxError::new(at, "expected one file after `include`", "not a quoted path or `<name>`")
                        .with_help("write `include \"file.slap\"` (relative to this file) or `include <polly>`"),
                );
                file.lines.push(Line::Invalid(invalid(toks)));
            }
        }
        return;
    }
    let parsed = match fast.then(|| fast::directive(toks)).flatten() {
        Some(d) => Ok(d),
        None => parser.parse(toks.iter().copied()),
    };
    match parsed {
        Ok(d) => file.lines.push(Line::Directive(d)),
        Err(e) => {
            errors.push(describe::describe(src, toks, e));
            file.lines.push(Line::Invalid(invalid(toks)));
        }
    }
}

/// What a bad line seems to be: its first word and, if the second is a
/// name standing alone, that name.
fn invalid<'s>(toks: &[Spanned<'s>]) -> Invalid<'s> {
    let name = |t: &Spanned<'s>| match t.1 {
        Tok::Name(text) => Some(ast::Name { text, span: Span::new(t.0, t.2) }),
        _ => None,
    };
    let keyword = toks.first().and_then(name);
    let first = match toks {
        [_, (_, Tok::Sep, _), second, rest @ ..] if matches!(rest.first(), None | Some((_, Tok::Sep, _))) => {
            name(second)
        }
        _ => None,
    };
    let start = toks.first().map_or(0, |t| t.0);
    let end = toks.last().map_or(start, |t| t.2);
    Invalid { keyword, first, span: Span::new(start, end) }
}
