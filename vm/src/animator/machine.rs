//! The meaning of Animator's domain ops: the transformation stack, the pen,
//! the colormap, the host's named resources, and the calls on a
//! [`Canvas`]. `viewport NAME` measures a macro by running it on another
//! machine, over a canvas that only collects bounds (`measure.rs`).

use super::canvas::{Canvas, Pen};
use super::dispatch::dispatch_from_table;
use super::matrix::{Matrix, Point};
use super::measure::{fit, measure};
use super::op_error::AnimatorOpError;
use crate::interp::{Args, Domain, Env, Flow};
use crate::isa::{Op, generic_ops, slap_ops, sprite_ops};
use std::collections::HashMap;

/// Deepest matrix stack (`push` without `pop`) before `push` fails.
pub const MAX_MATRIX_STACK: usize = 65_536;
/// Deepest nesting of `viewport NAME` measurements inside measured macros.
pub const MAX_MEASURE_DEPTH: usize = 16;
pub use crate::work::{HEAVY_WORK, op_work};

/// How many named resources (areas, images, cursors) an Animator program
/// may hold on its host at once, so that a stream that keeps defining new
/// names cannot make the host keep ever more. The defaults are those of
/// [`crate::limits`]; exceeding one is a runtime error at the command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostLimits {
    /// Most areas.
    pub areas: usize,
    /// Most bytes of area names plus 16 per area point.
    pub area_bytes: u64,
    /// Most images.
    pub images: usize,
    /// Most cursors.
    pub cursors: usize,
    /// Most bytes of image names, and of cursor names.
    pub name_bytes: u64,
}

impl Default for HostLimits {
    fn default() -> HostLimits {
        use crate::limits::*;
        HostLimits {
            areas: MAX_AREAS,
            area_bytes: MAX_AREA_BYTES,
            images: MAX_IMAGES,
            cursors: MAX_CURSORS,
            name_bytes: MAX_NAME_BYTES,
        }
    }
}

/// Names the program holds on its host, with the bytes each takes.
#[derive(Debug, Default)]
struct Held {
    sizes: HashMap<String, u64>,
    bytes: u64,
}

impl Held {
    /// Checks that `name` taking `size` bytes (replacing what it took) stays
    /// within `count` names and `max` bytes.
    fn check(
        &self,
        what: &'static str,
        name: &str,
        size: u64,
        count: usize,
        max: u64,
        free: &'static str,
    ) -> Result<(), AnimatorOpError> {
        let old = self.sizes.get(name).copied();
        if old.is_none() && self.sizes.len() >= count {
            return Err(AnimatorOpError::TooMany { what, name: name.to_string(), count, free });
        }
        if self.bytes - old.unwrap_or(0) + size > max {
            return Err(AnimatorOpError::TooLarge { what, name: name.to_string(), max, free });
        }
        Ok(())
    }

    fn insert(&mut self, name: &str, size: u64) {
        let old = self.sizes.insert(name.to_string(), size).unwrap_or(0);
        self.bytes = self.bytes - old + size;
    }

    fn remove(&mut self, name: &str) {
        self.bytes -= self.sizes.remove(name).unwrap_or(0);
    }

    fn clear(&mut self) {
        self.sizes.clear();
        self.bytes = 0;
    }
}

/// Animator state over a canvas: matrices, pen and colormap.
///
/// ```
/// use animkit_vm::engine::animator::{Machine, record::{Recorder, Call}};
/// let mut m = Machine::new(Recorder::default());
/// assert_eq!(m.matrix(), animkit_vm::engine::animator::matrix::Matrix::IDENTITY);
/// assert!(m.canvas().calls.is_empty());
/// ```
#[derive(Debug)]
pub struct Machine<C> {
    canvas: C,
    stack: Vec<Matrix>,
    pen: Pen,
    colormap: HashMap<u32, [f64; 3]>,
    scratch: Vec<Point>,
    /// `(cos, sin)` of the vertices of the last circle's vertex count
    /// (`unit_n`), so a stream of circles computes them once.
    unit: Vec<[f64; 2]>,
    unit_n: u32,
    work: u64,
    /// What the program may hold on its host.
    pub host_limits: HostLimits,
    areas: Held,
    images: Held,
    cursors: Held,
    /// How many `viewport NAME` measurements enclose this machine: 0 for
    /// the one that runs the program.
    measuring: usize,
}

impl<C: Canvas> Machine<C> {
    /// A machine in the initial state: identity matrix, default pen.
    pub fn new(canvas: C) -> Machine<C> {
        Machine {
            canvas,
            stack: vec![Matrix::IDENTITY],
            pen: Pen::default(),
            colormap: HashMap::new(),
            scratch: Vec::new(),
            unit: Vec::new(),
            unit_n: 0,
            work: 0,
            host_limits: HostLimits::default(),
            areas: Held::default(),
            images: Held::default(),
            cursors: Held::default(),
            measuring: 0,
        }
    }

    /// The canvas.
    pub fn canvas(&self) -> &C {
        &self.canvas
    }

    /// The canvas, mutably.
    pub fn canvas_mut(&mut self) -> &mut C {
        &mut self.canvas
    }

    /// The current transformation matrix.
    pub fn matrix(&self) -> Matrix {
        self.stack.last().copied().unwrap_or_default()
    }

    /// The current pen.
    pub fn pen(&self) -> Pen {
        self.pen
    }

    /// Consumes the machine, returning its canvas.
    pub fn into_canvas(self) -> C {
        self.canvas
    }

    /// How many measurements enclose this machine (0: it runs the program).
    pub(super) fn measuring(&self) -> usize {
        self.measuring
    }

    /// A fresh machine over `canvas` that measures a macro for this one:
    /// one measurement deeper, and holding this machine's point buffers
    /// until [`Machine::take_back`], so that nested measurements share one
    /// buffer of up to a million points instead of holding one each.
    pub(super) fn measurer<D: Canvas>(&mut self, canvas: D) -> Machine<D> {
        let mut m = Machine::new(canvas);
        m.measuring = self.measuring + 1;
        m.scratch = std::mem::take(&mut self.scratch);
        m.unit = std::mem::take(&mut self.unit);
        m.unit_n = std::mem::replace(&mut self.unit_n, 0);
        m
    }

    /// Takes back the buffers lent to `measurer`; returns its canvas.
    pub(super) fn take_back<D>(&mut self, measurer: Machine<D>) -> D {
        self.scratch = measurer.scratch;
        self.unit = measurer.unit;
        self.unit_n = measurer.unit_n;
        measurer.canvas
    }

    fn top(&mut self) -> &mut Matrix {
        if self.stack.is_empty() {
            self.stack.push(Matrix::IDENTITY);
        }
        let last = self.stack.len() - 1;
        &mut self.stack[last]
    }

    fn transform_points(&mut self, flat: &[f64]) {
        let m = self.matrix();
        self.scratch.clear();
        self.scratch.extend(flat.chunks_exact(2).map(|p| m.apply([p[0], p[1]])));
    }

    fn corners(&mut self, x1: f64, y1: f64, x2: f64, y2: f64) {
        self.transform_points(&[x1, y1, x2, y1, x2, y2, x1, y2]);
    }

    fn circle(&mut self, x: f64, y: f64, r: f64, n: u32) {
        if self.unit_n != n || self.unit.len() != n as usize {
            self.unit.clear();
            self.unit.extend(unit_circle(n));
            self.unit_n = n;
        }
        let m = self.matrix();
        self.scratch.clear();
        // Exactly `circle_points`, with the sines and cosines kept.
        self.scratch.extend(self.unit.iter().map(|&[c, s]| m.apply([x + r * c, y + r * s])));
    }
}

/// `(cos, sin)` of the `n` vertex angles of [`circle_points`].
fn unit_circle(n: u32) -> impl Iterator<Item = [f64; 2]> {
    let step = std::f64::consts::TAU / n.max(1) as f64;
    (0..n).map(move |i| {
        let (s, c) = (i as f64 * step).sin_cos();
        [c, s]
    })
}

/// The `n` vertices of the circle of radius `r` around `(x, y)`, starting at
/// angle 0 and going counter-clockwise.
pub fn circle_points(x: f64, y: f64, r: f64, n: u32) -> impl Iterator<Item = Point> {
    unit_circle(n).map(move |[c, s]| [x + r * c, y + r * s])
}

/// Decodes a `defcursor` bitmap: 256 hex digits, rows top to bottom.
pub fn cursor_bitmap(hex: &str) -> Result<[u8; 128], AnimatorOpError> {
    let digits: Vec<u8> = hex
        .bytes()
        .map(|b| (b as char).to_digit(16).map(|d| d as u8))
        .collect::<Option<_>>()
        .ok_or(AnimatorOpError::CursorNotHex)?;
    if digits.len() != 256 {
        return Err(AnimatorOpError::CursorLength(digits.len()));
    }
    let mut out = [0u8; 128];
    for (i, pair) in digits.chunks_exact(2).enumerate() {
        out[i] = pair[0] << 4 | pair[1];
    }
    Ok(out)
}

impl<C: Canvas> Domain for Machine<C> {
    type Error = AnimatorOpError;

    fn binding_kind(&self) -> &'static str {
        "macro"
    }

    fn take_work(&mut self) -> u64 {
        std::mem::take(&mut self.work)
    }

    fn op(&mut self, op: Op, a: Args<'_>, env: &Env<'_>) -> Result<Flow, AnimatorOpError> {
        let pen = self.pen;
        let m = self.matrix();
        // One match over the op: an arm per `{canvas...}` op of the command
        // table (`super::dispatch`), then these, the `{machine}` ops.
        animkit_commands::animator_commands!(dispatch_from_table; @ self op a m {
            Op::Quit => {
                self.canvas.quit();
                // Measuring runs a macro's commands, not the program: a
                // `quit` inside does not cut the measurement short (as in
                // the reference interpreter, `tests/reference/animator.rs`).
                if self.measuring == 0 {
                    return Ok(Flow::Stop);
                }
            }
            Op::Frame => {
                self.pen = Pen::default();
                self.canvas.frame();
            }
            Op::Rotate => *self.top() = m.then(&Matrix::rotation_degrees(a.num(0))),
            Op::Scale => *self.top() = m.then(&Matrix::scaling(a.num(0), a.num(1))),
            Op::Shift => *self.top() = m.then(&Matrix::translation(a.num(0), a.num(1))),
            Op::Viewport => {
                let (l, b, r, t) = (a.num(0), a.num(1), a.num(2), a.num(3));
                if r == l || t == b {
                    return Err(AnimatorOpError::EmptyViewport { ltrb: [l, b, r, t] });
                }
                *self.top() = m.then(&Matrix::viewport(l, b, r, t));
            }
            Op::ViewportMacro => {
                let name = a.str_id(0);
                let mut spent = 0;
                let measured = measure(self, env, name, &mut spent);
                self.work += spent;
                let (l, b, r, t) = measured?;
                let text = env.code.strings().get(name as usize).map_or("", String::as_str);
                let fitted = fit((l, b, r, t), a.flag(1)).ok_or_else(|| {
                    let name = text.to_string();
                    if a.flag(1) {
                        AnimatorOpError::MacroIsAPoint { name, at: [l, b] }
                    } else {
                        AnimatorOpError::MacroIsFlat { name, ltrb: [l, b, r, t] }
                    }
                })?;
                *self.top() = m.then(&fitted);
            }
            Op::Mult => {
                let mut k = [0.0; 9];
                for (i, v) in k.iter_mut().enumerate() {
                    *v = a.num(i);
                }
                *self.top() = m.then(&Matrix(k));
            }
            Op::Push => {
                if self.stack.len() >= MAX_MATRIX_STACK {
                    return Err(AnimatorOpError::StackFull { max: MAX_MATRIX_STACK });
                }
                self.stack.push(m);
            }
            Op::Pop => {
                if self.stack.len() <= 1 {
                    return Err(AnimatorOpError::StackEmpty);
                }
                self.stack.pop();
            }
            Op::Ident => *self.top() = Matrix::IDENTITY,
            Op::Clip => {
                let p = m.apply([a.num(0), a.num(1)]);
                let q = m.apply([a.num(2), a.num(3)]);
                self.canvas.clip([p[0].min(q[0]), p[1].min(q[1])], [p[0].max(q[0]), p[1].max(q[1])]);
            }
            Op::Color => self.pen.rgb = [a.num(0), a.num(1), a.num(2)],
            Op::Alpha => self.pen.alpha = a.num(0),
            Op::Thick => self.pen.thick = a.num(0),
            Op::Dash => self.pen.dash = a.uint(0) as u16,
            Op::Line => {
                self.transform_points(&[a.num(0), a.num(1), a.num(2), a.num(3)]);
                self.canvas.stroke(&pen, &self.scratch, false);
            }
            Op::Rect | Op::FillRect => {
                self.corners(a.num(0), a.num(1), a.num(2), a.num(3));
                if op == Op::Rect {
                    self.canvas.stroke(&pen, &self.scratch, true);
                } else {
                    self.canvas.fill(&pen, &self.scratch, true);
                }
            }
            Op::Circle | Op::FillCircle => {
                self.circle(a.num(0), a.num(1), a.num(2), a.uint(3));
                if op == Op::Circle {
                    self.canvas.stroke(&pen, &self.scratch, true);
                } else {
                    self.canvas.fill(&pen, &self.scratch, true);
                }
            }
            Op::Image | Op::ImageNew => {
                let name = a.str(if op == Op::Image { 0 } else { 2 });
                let l = self.host_limits;
                let size = name.len() as u64;
                self.images.check(
                    "image",
                    name,
                    size,
                    l.images,
                    l.name_bytes,
                    "images cannot be deleted; reuse names",
                )?;
                if op == Op::Image {
                    self.canvas.load_image(name, a.str(1))?;
                } else {
                    self.canvas.create_image(name, a.uint(0), a.uint(1))?;
                }
                self.images.insert(name, size);
            }
            Op::Colormap => {
                self.colormap.insert(a.uint(0), [a.num(1), a.num(2), a.num(3)]);
            }
            Op::ImageSet => {
                let pixels: Vec<Option<[f64; 3]>> =
                    a.str(3).chars().map(|c| self.colormap.get(&(c as u32)).copied()).collect();
                self.canvas.set_pixels(a.str(0), a.uint(1), a.uint(2), &pixels)?;
            }
            Op::ImgPoly => {
                let anchor = [a.num(0), a.num(1)];
                let at = m.apply(anchor);
                let tip = |d: [f64; 2]| {
                    let p = m.apply([anchor[0] + d[0], anchor[1] + d[1]]);
                    [p[0] - at[0], p[1] - at[1]]
                };
                let (u, v) = (tip([a.num(2), a.num(3)]), tip([a.num(4), a.num(5)]));
                self.transform_points(a.points(7));
                self.canvas.image_polygon(&pen, a.str(6), at, u, v, &self.scratch)?;
            }
            Op::Area => {
                let (name, points) = (a.str(0), a.points(1));
                let size = name.len() as u64 + 8 * points.len() as u64;
                let l = self.host_limits;
                self.areas.check("area", name, size, l.areas, l.area_bytes, "`delarea` and `killareas` free them")?;
                self.transform_points(points);
                self.canvas.area(name, &self.scratch);
                self.areas.insert(name, size);
            }
            Op::DelArea => {
                self.canvas.delete_area(a.str(0));
                self.areas.remove(a.str(0));
            }
            Op::KillAreas => {
                self.canvas.kill_areas();
                self.areas.clear();
            }
            Op::DefCursor => {
                let name = a.str(0);
                let l = self.host_limits;
                let size = name.len() as u64;
                self.cursors.check(
                    "cursor",
                    name,
                    size,
                    l.cursors,
                    l.name_bytes,
                    "cursors cannot be deleted; reuse names",
                )?;
                let data = cursor_bitmap(a.str(1))?;
                let mask = cursor_bitmap(a.str(2))?;
                self.canvas.define_cursor(name, &data, &mask, (a.uint(3), a.uint(4)))?;
                self.cursors.insert(name, size);
            }
            generic_ops!() | sprite_ops!() | slap_ops!() => {
                return Err(AnimatorOpError::NotAnimator(op));
            }
        });
        Ok(Flow::Continue)
    }
}
