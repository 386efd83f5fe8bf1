//! Check 1, what was written: each argument's value as the text has it
//! (numbers finite, whole numbers whole, `#` colours and cursor bitmaps
//! well formed), quoted as written.

use super::Text;
use crate::diagnostic::Diagnostic;
use animkit_grammar::animator::ast::{Cmd, Color, Int, Num, Point, Str};
use animkit_grammar::animator::fields::Field;

/// Every argument's value as written, in the order of the text, by the
/// kind the command table gives it (`Cmd::try_fields`).
pub(super) fn as_written(cmd: &Cmd, text: Text<'_>) -> Result<(), Diagnostic> {
    let point = |p: &Point| finite(&p.x, text).and_then(|()| finite(&p.y, text));
    cmd.try_fields(|f| match f {
        Field::Num(n) => finite(n, text),
        Field::OptNum(n) => n.as_ref().map_or(Ok(()), |n| finite(n, text)),
        Field::Nums(ns) => ns.iter().try_for_each(|n| finite(n, text)),
        Field::Point(p) => point(p),
        Field::Points(ps) => ps.iter().try_for_each(point),
        Field::Int(i) | Field::Bits(i) => whole(i, text),
        Field::Color(c) => written_color(c, text),
        Field::Hex(s) => bitmap(s),
        Field::Word(_)
        | Field::Str(_)
        | Field::Name(_)
        | Field::OptStr(_)
        | Field::On(_)
        | Field::Flag(..)
        | Field::Char(_)
        | Field::OptAlign(_) => Ok(()),
    })
}

// The checks on the stream's hot path are inline and their errors cold:
// a simple command costs a few comparisons.

#[inline]
pub(super) fn finite(n: &Num, text: Text<'_>) -> Result<(), Diagnostic> {
    if n.value.is_finite() { Ok(()) } else { Err(not_finite(n, text)) }
}

#[cold]
#[inline(never)]
pub(super) fn not_finite(n: &Num, text: Text<'_>) -> Diagnostic {
    let message = format!("expected a number, found {} (not a finite number)", text.quote(n.span));
    Diagnostic::error(n.span, message, "not finite")
}

#[inline]
pub(super) fn whole(i: &Int, text: Text<'_>) -> Result<(), Diagnostic> {
    match i.not_int {
        None => Ok(()),
        Some(v) => Err(not_whole(i, v, text)),
    }
}

#[cold]
#[inline(never)]
pub(super) fn not_whole(i: &Int, v: f64, text: Text<'_>) -> Diagnostic {
    let found = text.quote(i.span);
    let (message, label) = if !v.is_finite() {
        (format!("expected a whole number, found {found} (not a finite number)"), "not finite")
    } else if v.fract() != 0.0 {
        (format!("expected a whole number, found {found}"), "not a whole number")
    } else {
        (format!("expected a whole number, found {found} (out of range)"), "too large")
    };
    Diagnostic::error(i.span, message, label)
}

pub(super) fn written_color(c: &Color, text: Text<'_>) -> Result<(), Diagnostic> {
    match c {
        Color::Name(_) => Ok(()),
        Color::Hex(s) => {
            let digits = s.text.strip_prefix('#').unwrap_or(&s.text);
            if matches!(digits.len(), 1 | 2 | 3 | 6) && digits.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Ok(());
            }
            let message =
                format!("expected a colour, found {} (`#` takes 1, 2, 3 or 6 hex digits)", text.quote(s.span));
            Err(Diagnostic::error(s.span, message, "not a colour"))
        }
        Color::Rgb(r, g, b) => [r, g, b].into_iter().try_for_each(|n| finite(n, text)),
        Color::Gray(g) => finite(g, text),
    }
}

/// A cursor bitmap: exactly 256 hex digits.
pub(super) fn bitmap(s: &Str) -> Result<(), Diagnostic> {
    if let Some((i, c)) = s.text.chars().enumerate().find(|(_, c)| !c.is_ascii_hexdigit()) {
        let message = format!("expected 256 hex digits, found `{c}` at character {}", i + 1);
        return Err(Diagnostic::error(s.span, message, "not a hex digit"));
    }
    if s.text.len() != 256 {
        let message = format!("expected 256 hex digits, found {} characters", s.text.len());
        return Err(Diagnostic::error(s.span, message, "not 256 hex digits"));
    }
    Ok(())
}
