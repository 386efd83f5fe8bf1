//! The fast path: the facts of a simple top-level command that passes
//! every check, found with a few comparisons.

use super::{Facts, MAX_CIRCLE_VERTICES, MAX_THICK, Step};
use crate::animator::colors;
use animkit_grammar::animator::ast::{Cmd, Color, Int, Num, Point};

/// The facts of a simple command at the top level that passes every
/// check (its constants aside, which the caller counts), without building
/// anything: the commands whose only checks are
/// that their numbers are finite and their whole numbers in range. `None`
/// for any other command, and for one with an error, which the full check
/// then reports (a unit test compares the two on every form).
#[inline]
pub(super) fn quick(cmd: &Cmd) -> Option<Facts> {
    let f = |n: &Num| n.value.is_finite();
    let p = |p: &Point| f(&p.x) & f(&p.y);
    let int = |i: &Int, hi: i64| i.not_int.is_none() & (0..=hi).contains(&i.value);
    let run = |ok: bool| ok.then_some(Facts { step: Step::Run, rgb: [0.0; 3] });
    match cmd {
        Cmd::Quit | Cmd::Frame | Cmd::Flush | Cmd::Push | Cmd::Pop | Cmd::Ident | Cmd::Killareas => run(true),
        Cmd::Line { from, to }
        | Cmd::Arrow { from, to }
        | Cmd::RectCorners { from, to }
        | Cmd::FillRectCorners { from, to } => run(p(from) & p(to)),
        Cmd::Rect { corner, width, height } | Cmd::FillRect { corner, width, height } => {
            run(p(corner) & f(width) & f(height))
        }
        Cmd::Circle { center, radius, vertices } | Cmd::FillCircle { center, radius, vertices } => {
            run(p(center) & f(radius) & int(vertices, MAX_CIRCLE_VERTICES))
        }
        Cmd::Dot { at } | Cmd::Warp { at } => run(p(at)),
        Cmd::Shift { x, y } | Cmd::Scale { x, y: Some(y) } => run(f(x) & f(y)),
        Cmd::Scale { x, y: None } => run(f(x)),
        Cmd::Rotate { degrees: n } | Cmd::Alpha { alpha: n } | Cmd::Sleep { seconds: n } => run(f(n)),
        Cmd::Clip { left, bottom, width: r, height: t } | Cmd::ClipCorners { left, bottom, right: r, top: t } => {
            run(f(left) & f(bottom) & f(r) & f(t))
        }
        Cmd::Thick { pixels } => run(int(pixels, MAX_THICK)),
        Cmd::Color { color: Color::Rgb(r, g, b) } | Cmd::Bg { color: Color::Rgb(r, g, b) } => {
            (f(r) & f(g) & f(b)).then(|| Facts { step: Step::Run, rgb: [r, g, b].map(colors::clamp) })
        }
        _ => None,
    }
}
