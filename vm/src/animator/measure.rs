//! `viewport NAME`: measuring a macro is running it on a [`Machine`] whose
//! canvas only collects bounds ([`Bounds`]), so the transformation
//! semantics (matrices, the stack, nested `viewport`s) are written once,
//! in the machine.
//!
//! The measuring machine starts as a fresh one (identity matrix, a stack of
//! its own) and draws nothing and reports nothing: [`Bounds`] ignores
//! every call but the drawing ones, whose points (line ends, rectangle
//! corners, circle vertices, polygon points, text and blit anchors) it
//! adds to a box. A failing command inside is skipped, as when the macro
//! runs; measuring stays within the caller's remaining work, and nests at
//! most [`MAX_MEASURE_DEPTH`] deep.

use super::canvas::{Canvas, HAlign, HostResult, Pen, VAlign};
use super::machine::{MAX_MEASURE_DEPTH, Machine};
use super::matrix::{Matrix, Point};
use super::op_error::AnimatorOpError;
use crate::interp::{self, Bindings, Env, Exit, Fiber, Limits};

/// The canvas of a measuring machine: the box around the finite points the
/// drawing calls would draw, in root coordinates (the measured macro's own,
/// since its machine starts at the identity).
#[derive(Debug)]
pub(super) struct Bounds {
    min: Point,
    max: Point,
}

impl Default for Bounds {
    fn default() -> Bounds {
        Bounds { min: [f64::INFINITY; 2], max: [f64::NEG_INFINITY; 2] }
    }
}

impl Bounds {
    fn add(&mut self, q: Point) {
        if q[0].is_finite() && q[1].is_finite() {
            self.min = [self.min[0].min(q[0]), self.min[1].min(q[1])];
            self.max = [self.max[0].max(q[0]), self.max[1].max(q[1])];
        }
    }

    fn add_all(&mut self, points: &[Point]) {
        for &p in points {
            self.add(p);
        }
    }

    /// `(l, b, r, t)`, or `None` when no point was added.
    fn measured(&self) -> Option<(f64, f64, f64, f64)> {
        (self.min[0] <= self.max[0]).then_some((self.min[0], self.min[1], self.max[0], self.max[1]))
    }
}

impl Canvas for Bounds {
    fn dot(&mut self, _pen: &Pen, p: Point) {
        self.add(p);
    }
    fn stroke(&mut self, _pen: &Pen, points: &[Point], _closed: bool) {
        self.add_all(points);
    }
    fn arrow(&mut self, _pen: &Pen, from: Point, to: Point) {
        self.add(from);
        self.add(to);
    }
    fn fill(&mut self, _pen: &Pen, points: &[Point], _convex: bool) {
        self.add_all(points);
    }
    fn text(&mut self, _pen: &Pen, at: Point, _h: HAlign, _v: VAlign, _text: &str) {
        self.add(at);
    }
    fn blit(&mut self, _pen: &Pen, at: Point, _h: HAlign, _v: VAlign, _image: &str) -> HostResult {
        self.add(at);
        Ok(())
    }
    /// The polygon's points; the image's anchor and edges are not drawn.
    fn image_polygon(
        &mut self,
        _pen: &Pen,
        _image: &str,
        _anchor: Point,
        _u: Point,
        _v: Point,
        points: &[Point],
    ) -> HostResult {
        self.add_all(points);
        Ok(())
    }
}

/// The matrix that maps a measured box `(l, b, r, t)` onto `-1..1`; with
/// `aspect`, the square around the box's centre whose side is the box's
/// longer side. `None` when the box (or the square) has no width or height.
pub(super) fn fit((l, b, r, t): (f64, f64, f64, f64), aspect: bool) -> Option<Matrix> {
    let (l, b, r, t) = if aspect {
        let (cx, cy) = ((l + r) / 2.0, (b + t) / 2.0);
        let half = (r - l).max(t - b) / 2.0;
        (cx - half, cy - half, cx + half, cy + half)
    } else {
        (l, b, r, t)
    };
    (r != l && t != b).then(|| Matrix::viewport(l, b, r, t))
}

/// The bounding box `(l, b, r, t)` of what the macro bound to `name` draws,
/// measured for `outer` (the machine running `viewport NAME`). Measuring
/// runs the macro within the caller's remaining work budget (`env.budget`);
/// `spent` receives the work it took, even on error.
pub(super) fn measure<C: Canvas>(
    outer: &mut Machine<C>,
    env: &Env<'_>,
    name: u32,
    spent: &mut u64,
) -> Result<(f64, f64, f64, f64), AnimatorOpError> {
    let text = env.code.strings().get(name as usize).map_or("", String::as_str);
    if outer.measuring() >= MAX_MEASURE_DEPTH {
        return Err(AnimatorOpError::MeasuredTooDeep(text.to_string()));
    }
    let parts = env.bindings.get(name).ok_or_else(|| AnimatorOpError::NoMacro(text.to_string()))?;
    let mut machine = outer.measurer(Bounds::default());
    let ran = run_parts(&mut machine, env, parts, text, spent);
    let bounds = outer.take_back(machine);
    ran?;
    bounds.measured().ok_or_else(|| AnimatorOpError::MeasuredNothing(text.to_string()))
}

/// Runs the bodies `parts` of macro `text` on the measuring machine.
fn run_parts(
    machine: &mut Machine<Bounds>,
    env: &Env<'_>,
    parts: &[crate::program::FuncId],
    text: &str,
    spent: &mut u64,
) -> Result<(), AnimatorOpError> {
    // Copying the bindings costs one unit per name.
    *spent = spent.saturating_add(env.bindings.len() as u64);
    let mut bindings: Bindings = env.bindings.clone();
    for &part in parts {
        let left = env.budget.saturating_sub(*spent);
        let too_long = || AnimatorOpError::MeasuredTooLong { name: text.to_string(), left };
        if left == 0 {
            return Err(too_long());
        }
        let limits = Limits { max_steps: left, whole_run: true, ..Limits::default() };
        let mut fiber = Fiber::new(env.code, part).with_limits(limits);
        loop {
            let result = interp::run(&mut fiber, env.code, &mut bindings, machine);
            match result {
                Ok(Exit::Halted | Exit::Stopped) => break,
                Ok(_) => return Err(AnimatorOpError::MeasuredWait(text.to_string())),
                // Out of steps: measuring stops, and says so.
                Err(_) if fiber.work() > left => {
                    *spent = spent.saturating_add(fiber.work());
                    return Err(too_long());
                }
                // A failing command inside does nothing, as when the macro
                // runs (an unknown macro, too deep a nesting, a nested
                // `viewport` of a macro that draws nothing); measuring goes
                // on after it and reports nothing.
                Err(_) => continue,
            }
        }
        *spent = spent.saturating_add(fiber.work());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::animator::record::{Call, Recorder};
    use crate::animator::{AnimatorVm, Pen};
    use crate::interp::Exit;
    use crate::isa::{Insn, Op};
    use crate::program::{ConstKind, Function, Language, Module};

    /// `macro q` = `dot 0 0`, `quit`, `dot 2 2` (a bundle can hold a `quit`
    /// in a macro, though the compiler refuses one), then `viewport q` and
    /// `dot 2 2` at the top level.
    fn quitting_macro() -> Module {
        use ConstKind::{Num, Str};
        let main = Function {
            name: 0,
            code: vec![
                Insn::ax(Op::Bind, 0),
                Insn::ax(Op::ViewportMacro, 2),
                Insn::ax(Op::Dot, 4),
                Insn::abc(Op::Halt, 0, 0, 0),
            ],
            consts: vec![1.0, 1.0, 1.0, 0.0, 2.0, 2.0],
            kinds: vec![Str, Num, Str, Num, Num, Num],
            ..Function::default()
        };
        let q = Function {
            name: 1,
            code: vec![
                Insn::ax(Op::Dot, 0),
                Insn::abc(Op::Quit, 0, 0, 0),
                Insn::ax(Op::Dot, 2),
                Insn::abc(Op::Ret, 0, 0, 0),
            ],
            consts: vec![0.0, 0.0, 2.0, 2.0],
            kinds: vec![Num; 4],
            ..Function::default()
        };
        Module {
            name: 0,
            language: Language::Animator,
            functions: vec![main, q],
            states: vec![],
            entry: Some(0),
            source: None,
        }
    }

    #[test]
    fn a_quit_inside_a_measured_macro_ends_neither_the_measurement_nor_the_program() {
        let module = quitting_macro();
        let strings = vec!["main".to_string(), "q".to_string()];
        let program = crate::verify::verify(crate::program::Program { strings, modules: vec![module] }).unwrap();
        let code = program.code(0).unwrap();
        let mut vm = AnimatorVm::new(Recorder::default());
        vm.start(code, 0);
        assert_eq!(vm.run(code), Ok(Exit::Halted));
        // The box is 0..2 (the dot after the `quit` counts): `dot 2 2` is
        // drawn at 1 1, and the measuring machine's `quit` never reached
        // the canvas.
        assert_eq!(vm.canvas().calls, [Call::Dot(Pen::default(), [1.0, 1.0])]);
    }
}
