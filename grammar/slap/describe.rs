//! Syntax error messages for one SLAP line, worded from the tokens around
//! the place where the parser stopped rather than from LALRPOP's list of
//! expected terminals: SLAP's mistakes are about spaces and operators
//! (`1 - 2`, `2 *3`, `2sec`), where that list would only say "`+`, `-`,
//! `*`, `/` or a space".

use super::lexer::{Spanned, Tok};
use super::{LineError, MAX_NESTING, TooDeep};
use crate::{Span, SyntaxError};
use lalrpop_util::ParseError;

pub(super) fn too_deep(span: Span) -> SyntaxError {
    SyntaxError::new(
        span,
        format!("expression nested more than {MAX_NESTING} levels deep"),
        format!("level {} starts here", MAX_NESTING + 1),
    )
    .with_note("each parenthesis, operator and unary minus is one level of nesting")
}

fn is_operator(t: Tok<'_>) -> bool {
    matches!(t, Tok::Plus | Tok::Minus | Tok::Star | Tok::Slash)
}

fn what(t: Option<Tok<'_>>) -> String {
    t.map_or_else(|| "end of line".to_string(), |t| t.to_string())
}

fn span_of(t: &Spanned<'_>) -> Span {
    Span::new(t.0, t.2)
}

/// Whether `text` opens and closes its parentheses in order.
fn balanced(text: &str) -> bool {
    let mut depth = 0i32;
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => return false,
            ')' => depth -= 1,
            _ => {}
        }
    }
    depth == 0
}

/// The text of the argument whose last token is `toks[last]`, or `None`
/// if that is a separator or the line's keyword, or the text is not a
/// balanced argument on its own.
fn arg_ending_at<'s>(src: &'s str, toks: &[Spanned<'_>], last: usize) -> Option<&'s str> {
    if matches!(toks[last].1, Tok::Sep) {
        return None;
    }
    let first = toks[..last].iter().rposition(|t| t.1 == Tok::Sep).map(|i| i + 1)?;
    src.get(toks[first].0..toks[last].2).filter(|t| balanced(t))
}

/// The text of the argument that starts at `toks[first]`, if one does and
/// it is balanced.
fn arg_starting_at<'s>(src: &'s str, toks: &[Spanned<'_>], first: usize) -> Option<&'s str> {
    let start = toks.get(first).filter(|t| t.1 != Tok::Sep)?.0;
    let last = toks[first..].iter().position(|t| t.1 == Tok::Sep).map_or(toks.len(), |i| first + i) - 1;
    src.get(start..toks[last].2).filter(|t| balanced(t))
}

/// Describes the error `err` of the line made of `toks` (comments and the
/// whitespace at either end removed; `toks` is not empty).
pub(super) fn describe(src: &str, toks: &[Spanned<'_>], err: LineError<'_>) -> SyntaxError {
    let at = match err {
        ParseError::User { error: TooDeep { span } } => return too_deep(span),
        ParseError::UnrecognizedToken { token: (l, _, _), .. } | ParseError::ExtraToken { token: (l, _, _) } => {
            toks.iter().position(|t| t.0 == l).unwrap_or(toks.len())
        }
        ParseError::InvalidToken { location } => toks.iter().position(|t| t.0 == location).unwrap_or(toks.len()),
        ParseError::UnrecognizedEof { .. } => toks.len(),
    };
    let end = toks.last().map_or(0, |t| t.2);
    let found = toks.get(at).map(|t| t.1);
    let span = toks.get(at).map_or(Span::new(end, end), span_of);
    // The parentheses still open where the parser stopped, innermost last.
    let mut open = Vec::new();
    for t in &toks[..at] {
        match t.1 {
            Tok::LParen => open.push(span_of(t)),
            Tok::RParen => {
                open.pop();
            }
            _ => {}
        }
    }
    match found {
        Some(Tok::TooDeep) => return too_deep(span),
        Some(Tok::Unknown(c)) if c.starts_with('"') && c.len() > 1 => {
            return SyntaxError::new(span, "unterminated string", "no closing `\"` on this line");
        }
        Some(Tok::Unknown(c)) => {
            return SyntaxError::new(span, format!("unexpected character `{}`", c.escape_debug()), "not part of SLAP");
        }
        Some(Tok::RParen) if open.is_empty() => {
            return SyntaxError::new(span, "unmatched `)`", "no `(` before it on this line");
        }
        _ => {}
    }
    if at == 0 {
        return SyntaxError::new(span, format!("expected a directive, found {}", what(found)), "not a directive")
            .with_note("a line is `define`, `time`, `timep`, `actor` or `camera` and its arguments");
    }
    let prev = toks[at - 1].1;
    if is_operator(prev) && matches!(found, None | Some(Tok::Sep)) {
        return operator_alone(src, toks, at, found);
    }
    if prev == Tok::Sep
        && matches!(found, Some(Tok::Star | Tok::Slash))
        && matches!(toks.get(at + 1).map(|t| t.1), None | Some(Tok::Sep))
    {
        // `PI / 4`: the parser stops at the operator, not after it.
        return operator_alone(src, toks, at + 1, toks.get(at + 1).map(|t| t.1));
    }
    if is_operator(prev) || matches!(prev, Tok::LParen | Tok::Sep | Tok::Comma) {
        return operand_expected(src, toks, at, found, span);
    }
    // After an operand: an operator, a separator or `)` was expected.
    if found.is_none() {
        if let Some(&paren) = open.last() {
            return SyntaxError::new(paren, "unclosed `(`", "not closed on this line");
        }
    }
    if found == Some(Tok::Comma) {
        return SyntaxError::new(span, "unexpected `,`", "not in a function call")
            .with_note("a comma separates the arguments of a function call: `atan2(y, x)`");
    }
    if open.is_empty() {
        SyntaxError::new(span, format!("expected an operator or a space, found {}", what(found)), "unexpected here")
            .with_help(format!("put an operator between {prev} and {}, or a space to make two arguments", what(found)))
    } else {
        SyntaxError::new(span, format!("expected an operator or `)`, found {}", what(found)), "unexpected here")
            .with_note("inside parentheses spaces do not separate arguments: what is inside is one value")
    }
}

/// `1 - 2`, `time + 10`, `2* 3`, `x-`: an operator without an operand after
/// it (the token after it, `found`, is a separator or the end of the line).
fn operator_alone(src: &str, toks: &[Spanned<'_>], at: usize, found: Option<Tok<'_>>) -> SyntaxError {
    let op_tok = toks[at - 1].1;
    let op_span = span_of(&toks[at - 1]);
    let op = &src[op_span.range()];
    let alone = at >= 2 && toks[at - 2].1 == Tok::Sep;
    if alone && found.is_some() {
        let e = SyntaxError::new(
            op_span,
            format!("`{op}` between spaces is not an argument"),
            "arguments are separated by spaces",
        );
        let before = if at >= 3 { arg_ending_at(src, toks, at - 3) } else { None };
        let after = arg_starting_at(src, toks, at + 1);
        return match (before, after) {
            (Some(before), Some(after)) if op_tok == Tok::Minus => {
                e.with_help(format!("write `({before} - {after})` for one value, or `{before} -{after}` for two"))
            }
            (Some(before), Some(after)) => {
                e.with_help(format!("write `({before} {op} {after})` or `{before}{op}{after}` for one value"))
            }
            (None, Some(after)) if op_tok == Tok::Plus && at == 3 => {
                e.with_help(format!("a relative time is written without a space: `+{after}`"))
            }
            _ => e.with_help("an argument is written without spaces; spaces are allowed inside parentheses"),
        };
    }
    let e = SyntaxError::new(
        op_span,
        format!("expected a number, a name or `(` after `{op}`, found {}", what(found)),
        format!("`{op}` needs an operand after it"),
    );
    if found.is_some() {
        e.with_help("an argument is written without spaces; spaces are allowed inside parentheses: `(a + b)`")
    } else {
        e
    }
}

/// An operand was expected at `toks[at]` (after an operator, `(` or a
/// separator).
fn operand_expected(src: &str, toks: &[Spanned<'_>], at: usize, found: Option<Tok<'_>>, span: Span) -> SyntaxError {
    let prev = toks[at - 1].1;
    if found == Some(Tok::RParen) && prev == Tok::LParen {
        return SyntaxError::new(span_of(&toks[at - 1]).to(span), "empty parentheses", "expected an expression inside");
    }
    let after = if is_operator(prev) { format!(" after {prev}") } else { String::new() };
    let e = SyntaxError::new(
        span,
        format!("expected a number, a name or `(`{after}, found {}", what(found)),
        "expected an operand",
    );
    match found {
        Some(Tok::Star | Tok::Slash | Tok::Plus) if prev == Tok::Sep => {
            let op = &src[span.range()];
            let before = if at >= 2 { arg_ending_at(src, toks, at - 2) } else { None };
            let rest = arg_starting_at(src, toks, at + 1);
            match (before, rest) {
                (Some(b), Some(r)) => e.with_help(format!(
                    "an argument cannot start with `{op}`: write `{b}{op}{r}` or `({b} {op} {r})` for one value"
                )),
                _ => e.with_help(format!("an argument cannot start with `{op}`")),
            }
        }
        Some(Tok::Plus) => {
            e.with_note("there is no unary `+`: a `+` before an argument marks a relative time (`time +10`)")
        }
        _ => e,
    }
}
