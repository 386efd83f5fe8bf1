//! Check 1, what was written: each argument's value as the text has it
//! (numbers finite, whole numbers whole, `#` colours and cursor bitmaps
//! well formed), quoted as written.

use super::Text;
use crate::diagnostic::Diagnostic;
use animkit_grammar::animator::ast::{Cmd, Color, Int, Num, Point, Str};

/// Every argument's value as written, in the order of the text.
pub(super) fn as_written(cmd: &Cmd, text: Text<'_>) -> Result<(), Diagnostic> {
    let num = |n: &Num| finite(n, text);
    let point = |p: &Point| finite(&p.x, text).and_then(|()| finite(&p.y, text));
    let points = |ps: &[Point]| ps.iter().try_for_each(point);
    let int = |i: &Int| whole(i, text);
    let color = |c: &Color| written_color(c, text);
    match cmd {
        Cmd::Quit
        | Cmd::Keepalive { .. }
        | Cmd::Events { .. }
        | Cmd::WarpArea { .. }
        | Cmd::Echo { .. }
        | Cmd::Title { .. }
        | Cmd::Frame
        | Cmd::Flush
        | Cmd::Screenshot { .. }
        | Cmd::Screendump { .. }
        | Cmd::Aspect { .. }
        | Cmd::ViewportMacro { .. }
        | Cmd::Push
        | Cmd::Pop
        | Cmd::Ident
        | Cmd::ImageLoad { .. }
        | Cmd::Delarea { .. }
        | Cmd::Killareas
        | Cmd::Macro { .. }
        | Cmd::Endmacro
        | Cmd::Invoke { .. }
        | Cmd::Forget
        | Cmd::Setcursor { .. } => Ok(()),
        Cmd::Resize { width, height } | Cmd::ImageNew { width, height, .. } => int(width).and_then(|()| int(height)),
        Cmd::Warp { at } | Cmd::Dot { at } | Cmd::InvokeAt { at, .. } => point(at),
        Cmd::Text { at, .. } | Cmd::Blit { at, .. } => point(at),
        Cmd::Echopt { points: ps, .. } | Cmd::Lines { points: ps } | Cmd::Poly { points: ps } => points(ps),
        Cmd::Area { points: ps, .. } | Cmd::ImgPolyUnit { points: ps, .. } => points(ps),
        Cmd::Sleep { seconds: n } | Cmd::Flushdelay { seconds: n } | Cmd::Rotate { degrees: n } => num(n),
        Cmd::Alpha { alpha: n } => num(n),
        Cmd::Bg { color: c } | Cmd::Color { color: c } | Cmd::Colormap { color: c, .. } => color(c),
        Cmd::Scale { x, y } => num(x).and_then(|()| y.as_ref().map_or(Ok(()), num)),
        Cmd::Shift { x, y } => num(x).and_then(|()| num(y)),
        Cmd::Viewport { left, bottom, width, height } | Cmd::Clip { left, bottom, width, height } => {
            [left, bottom, width, height].into_iter().try_for_each(num)
        }
        Cmd::ViewportCorners { left, bottom, right, top } | Cmd::ClipCorners { left, bottom, right, top } => {
            [left, bottom, right, top].into_iter().try_for_each(num)
        }
        Cmd::Mult { matrix } => matrix.iter().try_for_each(num),
        Cmd::Thick { pixels: i } | Cmd::Dash { pattern: i } => int(i),
        Cmd::Line { from, to }
        | Cmd::Arrow { from, to }
        | Cmd::RectCorners { from, to }
        | Cmd::FillRectCorners { from, to } => point(from).and_then(|()| point(to)),
        Cmd::Rect { corner, width, height } | Cmd::FillRect { corner, width, height } => {
            point(corner).and_then(|()| num(width)).and_then(|()| num(height))
        }
        Cmd::Circle { center, radius, vertices } | Cmd::FillCircle { center, radius, vertices } => {
            point(center).and_then(|()| num(radius)).and_then(|()| int(vertices))
        }
        Cmd::ImageSet { x, y, .. } => int(x).and_then(|()| int(y)),
        Cmd::ImgPoly { anchor, u, v, points: ps, .. } => {
            point(anchor).and_then(|()| point(u)).and_then(|()| point(v)).and_then(|()| points(ps))
        }
        Cmd::ImgPolyEdges { u, v, points: ps, .. } => point(u).and_then(|()| point(v)).and_then(|()| points(ps)),
        Cmd::ImgPolyAxes { ux, vy, points: ps, .. } => num(ux).and_then(|()| num(vy)).and_then(|()| points(ps)),
        Cmd::Defcursor { data, mask, hot_col, hot_row, .. } => {
            bitmap(data).and_then(|()| bitmap(mask)).and_then(|()| int(hot_col)).and_then(|()| int(hot_row))
        }
    }
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
