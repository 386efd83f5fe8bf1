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
pub mod lexer;
mod recursive_descent;

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
/// is 0 levels deep, `-(a+1)` 3. Equal to `animkit_vm::engine::limits::MAX_SLAP_NESTING`
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
/// Each line is read by a recursive-descent reader
/// (`recursive_descent.rs`) that builds the same tree as the LALRPOP
/// grammar for well-formed lines; a line it does not accept goes to the
/// LALRPOP parser, whose error is described from the tokens around it.
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
    let mut comments = Vec::new();
    read_lines(src, fast, Some(&mut comments), |line, error| {
        file.lines.push(line);
        errors.extend(error);
    });
    file.comments = comments;
    (file, errors)
}

/// Most tokens one line may hold: names, numbers, operators,
/// parentheses, commas and the spaces between arguments (a comment is
/// not counted). The longest line any directive accepts is a few dozen
/// tokens; the limit bounds what one line costs to hold, whatever its
/// length (a line of 50 million arguments is one error, in constant
/// memory).
pub const MAX_LINE_TOKENS: usize = 1 << 16;

/// The lines of `src` one at a time, in source order: `each` gets every
/// line [`parse`] would put in [`File::lines`] and that line's syntax
/// error, if it has one (comments are skipped). Only one line's tokens
/// and tree are held at a time, so a caller that does not keep the lines
/// reads a file of any size in the memory of its longest line (at most
/// [`MAX_LINE_TOKENS`] tokens).
///
/// ```
/// let mut keywords = Vec::new();
/// animkit_grammar::slap::each_line("time 5\n# c\nactor 1 size 2sec\n", |line, error| {
///     keywords.push((line, error.map(|e| e.message)));
/// });
/// assert_eq!(keywords.len(), 2);
/// assert_eq!(keywords[1].1.as_deref(), Some("expected an operator or a space, found `sec`"));
/// ```
pub fn each_line<'s>(src: &'s str, each: impl FnMut(Line<'s>, Option<SyntaxError>)) {
    read_lines(src, true, None, each);
}

fn read_lines<'s>(
    src: &'s str,
    fast: bool,
    mut comments: Option<&mut Vec<Comment<'s>>>,
    mut each: impl FnMut(Line<'s>, Option<SyntaxError>),
) {
    let mut line: Vec<Spanned<'_>> = Vec::new();
    // The first token past `MAX_LINE_TOKENS` on this line, and where the
    // line's last token ends.
    let mut over: Option<(Span, usize)> = None;
    let parser = grammar::DirectiveParser::new();
    let mut end_line = |line: &mut Vec<Spanned<'s>>, over: &mut Option<(Span, usize)>| {
        let read = match over.take() {
            Some((at, end)) => Some(too_long(src, &parser, fast, line, at, end)),
            None => finish_line(src, &parser, fast, line),
        };
        if let Some((l, e)) = read {
            each(l, e);
        }
        line.clear();
    };
    for tok in lexer::tokens(src) {
        match tok.1 {
            Tok::Comment(text) => {
                if let Some(c) = comments.as_deref_mut() {
                    c.push(Comment { text: text.trim_end(), span: Span::new(tok.0, tok.2) })
                }
            }
            Tok::Newline => end_line(&mut line, &mut over),
            _ if line.len() < MAX_LINE_TOKENS => line.push(tok),
            _ => {
                // Spaces after the last token allowed are not a token
                // too many: only what follows them is.
                match &mut over {
                    _ if tok.1 == Tok::Sep => {}
                    Some((_, end)) => *end = tok.2,
                    None => over = Some((Span::new(tok.0, tok.2), tok.2)),
                }
            }
        }
    }
    end_line(&mut line, &mut over);
}

/// A line of more than [`MAX_LINE_TOKENS`] tokens: `toks` are its first
/// ones, `at` the first token past them, `end` where its last one ends.
/// A syntax error among its first tokens is the line's error, as it would
/// be were the line read whole (a parser finds an error from the tokens
/// up to it); otherwise the error is the line's length.
fn too_long<'s>(
    src: &'s str,
    parser: &grammar::DirectiveParser,
    fast: bool,
    toks: &[Spanned<'s>],
    at: Span,
    end: usize,
) -> (Line<'s>, Option<SyntaxError>) {
    // An error before the last argument read (whose description reads no
    // further than the argument after it), or one found at a token before
    // the last and described from that token alone, is not an effect of
    // the cut.
    let seps: Vec<usize> = toks.iter().filter(|t| t.1 == Tok::Sep).rev().take(2).map(|t| t.0).collect();
    let complete = seps.get(1).copied().unwrap_or(0);
    let last = toks.last().map_or(0, |t| t.0);
    let deep = describe::too_deep(Span::default()).message;
    let at_token = |m: &str| {
        m == deep || m == "unmatched `)`" || m == "unterminated string" || m.starts_with("unexpected character")
    };
    let (line, error) = match finish_line(src, parser, fast, toks) {
        Some((Line::Invalid(invalid), Some(e)))
            if e.span.end <= complete || (at_token(&e.message) && e.span.end <= last) =>
        {
            (invalid, e)
        }
        _ => {
            let mut toks = toks;
            while let [(_, Tok::Sep, _), rest @ ..] = toks {
                toks = rest;
            }
            let error = SyntaxError::new(
                at,
                format!("this line has more than {MAX_LINE_TOKENS} tokens"),
                format!("token {} is one too many", MAX_LINE_TOKENS + 1),
            )
            .with_help("split it: no directive takes more than a few dozen arguments");
            (invalid(toks), error)
        }
    };
    (Line::Invalid(Invalid { span: Span::new(line.span.start, end), ..line }), Some(error))
}

/// Parses the tokens of one line (comments removed): the line, and its
/// syntax error if it has one; `None` for a line of nothing but spaces.
fn finish_line<'s>(
    src: &'s str,
    parser: &grammar::DirectiveParser,
    fast: bool,
    line: &[Spanned<'s>],
) -> Option<(Line<'s>, Option<SyntaxError>)> {
    let mut toks = line;
    while let [(_, Tok::Sep, _), rest @ ..] = toks {
        toks = rest;
    }
    while let [rest @ .., (_, Tok::Sep, _)] = toks {
        toks = rest;
    }
    if toks.is_empty() {
        return None;
    }
    if let [(l, Tok::Name("include"), _), rest @ ..] = toks {
        return Some(match rest {
            [(_, Tok::Sep, _), (a, t @ (Tok::Str(text) | Tok::Angle(text)), b)] => (
                Line::Include(ast::Include {
                    target: &text[1..text.len() - 1],
                    builtin: matches!(t, Tok::Angle(_)),
                    target_span: Span::new(*a, *b),
                    span: Span::new(*l, *b),
                }),
                None,
            ),
            _ => {
                let at = match rest {
                    [(_, Tok::Sep, _), next, ..] => Span::new(next.0, toks[toks.len() - 1].2),
                    _ => Span::new(toks[0].2, toks[0].2),
                };
                let error = SyntaxError::new(at, "expected one file after `include`", "not a quoted path or `<name>`")
                    .with_help("write `include \"file.slap\"` (relative to this file) or `include <polly>`");
                (Line::Invalid(invalid(toks)), Some(error))
            }
        });
    }
    let parsed = match fast.then(|| recursive_descent::directive(toks)).flatten() {
        Some(d) => Ok(d),
        None => parser.parse(toks.iter().copied()),
    };
    Some(match parsed {
        Ok(d) => (Line::Directive(d), None),
        Err(e) => (Line::Invalid(invalid(toks)), Some(describe::describe(src, toks, e))),
    })
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
