//! Check 3, limits and meaning: sizes and counts within the VM's limits,
//! colour names known, viewports not flat; and the error of a function
//! whose constants are out of the instruction word's reach.

use super::{MAX_CIRCLE_VERTICES, MAX_IMAGE, MAX_POINTS, MAX_STRING, MAX_THICK, MAX_WINDOW};
use crate::animator::colors;
use crate::diagnostic::Diagnostic;
use animkit_grammar::Span;
use animkit_grammar::animator::ast::{Cmd, Color, Command, Int, Point, Str};
use animkit_grammar::animator::fields::Field;
use animkit_vm::engine::limits;

/// The checks that need meaning: a command's own checks (ranges of whole
/// numbers, flat viewports), then by the kinds the command table gives its
/// arguments (`Cmd::try_fields`): point counts, string lengths, colours;
/// returns the resolved colour of colour commands.
pub(super) fn limits_and_meaning(cmd: &Command) -> Result<[f64; 3], Diagnostic> {
    own_checks(&cmd.kind)?;
    cmd.kind.try_fields(|f| match f {
        Field::Points(points) => point_count(points, cmd.span),
        _ => Ok(()),
    })?;
    let mut rgb = [0.0; 3];
    cmd.kind.try_fields(|f| match f {
        Field::Str(s) | Field::Name(s) | Field::Hex(s) | Field::OptStr(Some(s)) => string(s),
        Field::Color(c) => resolve(c).map(|c| rgb = c),
        _ => Ok(()),
    })?;
    Ok(rgb)
}

/// The checks of the commands with a meaning of their own (the rest have
/// only those of their arguments' kinds).
fn own_checks(cmd: &Cmd) -> Result<(), Diagnostic> {
    match cmd {
        Cmd::Resize { width, height } => {
            in_range(width, 1, MAX_WINDOW, "width")?;
            in_range(height, 1, MAX_WINDOW, "height")
        }
        Cmd::Viewport { width, height, .. } => {
            if width.value == 0.0 || height.value == 0.0 {
                return Err(Diagnostic::error(
                    width.span.to(height.span),
                    "viewport of zero width or height",
                    "must not be 0",
                ));
            }
            Ok(())
        }
        Cmd::ViewportCorners { left, bottom, right, top } => {
            if left.value == right.value || bottom.value == top.value {
                return Err(Diagnostic::error(
                    left.span.to(top.span),
                    "viewport of zero width or height",
                    "corners must differ",
                ));
            }
            Ok(())
        }
        Cmd::Thick { pixels } => in_range(pixels, 0, MAX_THICK, "thickness"),
        Cmd::Dash { pattern } => in_range(pattern, 0, limits::MAX_DASH as i64, "dash pattern"),
        Cmd::Circle { vertices, .. } | Cmd::FillCircle { vertices, .. } => {
            in_range(vertices, 0, MAX_CIRCLE_VERTICES, "vertex count")
        }
        Cmd::ImageNew { width, height, .. } => {
            in_range(width, 1, MAX_IMAGE, "image width")?;
            in_range(height, 1, MAX_IMAGE, "image height")
        }
        Cmd::ImageSet { x, y, .. } => {
            in_range(x, 0, MAX_IMAGE, "column")?;
            in_range(y, 0, MAX_IMAGE, "row")
        }
        Cmd::Defcursor { hot_col, hot_row, .. } => {
            let hot = limits::MAX_CURSOR_HOT as i64;
            in_range(hot_col, 0, hot, "hot spot column")?;
            in_range(hot_row, 0, hot, "hot spot row")
        }
        _ => Ok(()),
    }
}

pub(super) fn in_range(i: &Int, lo: i64, hi: i64, what: &str) -> Result<(), Diagnostic> {
    if (lo..=hi).contains(&i.value) {
        Ok(())
    } else {
        Err(Diagnostic::error(i.span, format!("{what} {} is out of range", i.value), format!("expected {lo} to {hi}")))
    }
}

pub(super) fn string(s: &Str) -> Result<(), Diagnostic> {
    if s.text.len() > MAX_STRING {
        return Err(Diagnostic::error(
            s.span,
            format!("string of {} bytes is too long", s.text.len()),
            format!("at most {MAX_STRING}"),
        ));
    }
    Ok(())
}

pub(super) fn point_count(points: &[Point], span: Span) -> Result<(), Diagnostic> {
    if points.len() > MAX_POINTS {
        return Err(Diagnostic::error(
            span,
            format!("{} points in one command", points.len()),
            format!("at most {MAX_POINTS}"),
        ));
    }
    Ok(())
}

pub(super) fn resolve(c: &Color) -> Result<[f64; 3], Diagnostic> {
    colors::resolve(c).map_err(|e| match (e.suggestion, c) {
        (Some(s), Color::Name(name)) => {
            Diagnostic::error(e.span, format!("unknown colour `{}`", name.text), "unknown colour")
                .with_help(format!("did you mean `{s}`?"))
        }
        _ => Diagnostic::error(e.span, e.message.clone(), "not a colour"),
    })
}

pub(super) fn too_many_constants(span: Span) -> Diagnostic {
    Diagnostic::error(span, "the script has too many arguments for one module", "split it into several files")
}
