//! The meaning of Animator's domain ops: the transformation stack, the pen,
//! the colormap, macro measurement for `viewport NAME`, and the calls on a
//! [`Canvas`].

use super::canvas::{Canvas, DumpTarget, HAlign, Pen, VAlign};
use super::matrix::{Matrix, Point};
use crate::interp::{self, Args, Bindings, Domain, Env, Exit, Fiber, Flow, Limits};
use crate::isa::{Arg, Op};
use std::collections::HashMap;

/// Deepest matrix stack (`push` without `pop`) before `push` fails.
pub const MAX_MATRIX_STACK: usize = 65_536;
/// Deepest nesting of `viewport NAME` measurements inside measured macros.
pub const MAX_MEASURE_DEPTH: usize = 16;
/// Work units charged for an op that touches the whole frame, a file or
/// the clock (`frame`, `flush`, `screenshot`, `image`, `sleep`, ...), so
/// that runaway calls cannot repeat them millions of times.
pub const HEAVY_WORK: u64 = 4096;

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
    fn check(&self, what: &str, name: &str, size: u64, count: usize, max: u64, free: &str) -> Result<(), String> {
        let old = self.sizes.get(name).copied();
        if old.is_none() && self.sizes.len() >= count {
            return Err(format!(
                "{what} `{name}`: the program already holds {count} {what}s, the most it may ({free})"
            ));
        }
        if self.bytes - old.unwrap_or(0) + size > max {
            return Err(format!("{what} `{name}`: {what}s would take more than {max} bytes ({free})"));
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

/// The work units an Animator op costs beyond its one instruction (see
/// [`crate::interp::Limits::max_steps`]): one per point or circle vertex,
/// one per 64 bytes of printed or drawn text, one per `image_set` pixel,
/// [`HEAVY_WORK`] for whole-frame, file and clock ops (or one per 16
/// pixels of a new image, if more). `viewport NAME` is charged what
/// measuring the macro took.
pub fn op_work(op: Op, a: &Args<'_>) -> u64 {
    let mut work = 0;
    if let Some(i) = op.info().block.iter().position(|arg| *arg == Arg::Points) {
        work += a.uint(i) as u64;
    }
    let text = |i: usize| a.str(i).len() as u64 / 64;
    work += match op {
        Op::Circle | Op::FillCircle => a.uint(3) as u64,
        Op::Echo | Op::EchoPt | Op::Title => text(0),
        Op::Text => text(4),
        Op::ImageSet => a.str(3).len() as u64,
        Op::ImageNew => (a.uint(0) as u64 * a.uint(1) as u64 / 16).max(HEAVY_WORK),
        Op::Frame
        | Op::Flush
        | Op::Screenshot
        | Op::Screendump
        | Op::ScreendumpFile
        | Op::Image
        | Op::Sleep
        | Op::FlushDelay
        | Op::Resize => HEAVY_WORK,
        _ => 0,
    };
    work
}

/// Animator state over a canvas: matrices, pen and colormap.
///
/// ```
/// use animkit_vm::animator::{Machine, record::{Recorder, Call}};
/// let mut m = Machine::new(Recorder::default());
/// assert_eq!(m.matrix(), animkit_vm::animator::matrix::Matrix::IDENTITY);
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
pub fn cursor_bitmap(hex: &str) -> Result<[u8; 128], String> {
    let digits: Vec<u8> = hex
        .bytes()
        .map(|b| (b as char).to_digit(16).map(|d| d as u8))
        .collect::<Option<_>>()
        .ok_or_else(|| "cursor bitmaps are hexadecimal digits only".to_string())?;
    if digits.len() != 256 {
        return Err(format!("a cursor bitmap has 256 hexadecimal digits (32x32 bits), this one has {}", digits.len()));
    }
    let mut out = [0u8; 128];
    for (i, pair) in digits.chunks_exact(2).enumerate() {
        out[i] = pair[0] << 4 | pair[1];
    }
    Ok(out)
}

impl<C: Canvas> Domain for Machine<C> {
    fn binding_kind(&self) -> &'static str {
        "macro"
    }

    fn take_work(&mut self) -> u64 {
        std::mem::take(&mut self.work)
    }

    fn op(&mut self, op: Op, a: Args<'_>, env: &Env<'_>) -> Result<Flow, String> {
        self.work += op_work(op, &a);
        let pen = self.pen;
        let m = self.matrix();
        match op {
            Op::Quit => {
                self.canvas.quit();
                return Ok(Flow::Stop);
            }
            Op::Keepalive => self.canvas.keepalive(a.flag(0)),
            Op::Events => self.canvas.events(a.flag(0), &m),
            Op::Resize => self.canvas.resize(a.uint(0), a.uint(1)),
            Op::Warp => self.canvas.warp(m.apply([a.num(0), a.num(1)])),
            Op::WarpArea => self.canvas.warp_area(a.str(0))?,
            Op::Echo => self.canvas.echo(a.str(0)),
            Op::EchoPt => {
                self.transform_points(a.points(1));
                self.canvas.echo_points(a.str(0), &self.scratch);
            }
            Op::Title => self.canvas.title(a.str(0)),
            Op::Frame => {
                self.pen = Pen::default();
                self.canvas.frame();
            }
            Op::Flush => self.canvas.flush()?,
            Op::Screenshot => self.canvas.screenshot(a.str(0))?,
            Op::Screendump => self.canvas.screendump(DumpTarget::Descriptor)?,
            Op::ScreendumpFile => self.canvas.screendump(DumpTarget::File(a.str(0)))?,
            Op::Sleep => return self.canvas.sleep(a.num(0)),
            Op::FlushDelay => return self.canvas.flush_delay(a.num(0)),
            Op::Aspect => self.canvas.aspect(a.flag(0)),
            Op::Bg => self.canvas.background([a.num(0), a.num(1), a.num(2)]),
            Op::Rotate => *self.top() = m.then(&Matrix::rotation_degrees(a.num(0))),
            Op::Scale => *self.top() = m.then(&Matrix::scaling(a.num(0), a.num(1))),
            Op::Shift => *self.top() = m.then(&Matrix::translation(a.num(0), a.num(1))),
            Op::Viewport => {
                let (l, b, r, t) = (a.num(0), a.num(1), a.num(2), a.num(3));
                if r == l || t == b {
                    return Err(format!("viewport {l} {b} - {r} {t} has no width or no height"));
                }
                *self.top() = m.then(&Matrix::viewport(l, b, r, t));
            }
            Op::ViewportMacro => {
                let name = a.str_id(0);
                let mut spent = 0;
                let measured = measure(env, name, 0, &mut spent);
                self.work += spent;
                let (l, b, r, t) = measured?;
                let text = env.strings.get(name as usize).map_or("", String::as_str);
                let fitted = fit((l, b, r, t), a.flag(1)).ok_or_else(|| {
                    if a.flag(1) {
                        format!("macro `{text}` draws a single point ({l} {b}), which has no size to fit")
                    } else {
                        format!(
                            "macro `{text}` is flat ({l} {b} - {r} {t}); use `viewport aspect` to keep its proportions"
                        )
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
                    return Err(format!("push: the matrix stack is full ({MAX_MATRIX_STACK} matrices)"));
                }
                self.stack.push(m);
            }
            Op::Pop => {
                if self.stack.len() <= 1 {
                    return Err("pop without a matching push: the matrix stack holds only the root matrix".into());
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
            Op::Dot => self.canvas.dot(&pen, m.apply([a.num(0), a.num(1)])),
            Op::Line => {
                self.transform_points(&[a.num(0), a.num(1), a.num(2), a.num(3)]);
                self.canvas.stroke(&pen, &self.scratch, false);
            }
            Op::Arrow => self.canvas.arrow(&pen, m.apply([a.num(0), a.num(1)]), m.apply([a.num(2), a.num(3)])),
            Op::Rect | Op::FillRect => {
                self.corners(a.num(0), a.num(1), a.num(2), a.num(3));
                if op == Op::Rect {
                    self.canvas.stroke(&pen, &self.scratch, true);
                } else {
                    self.canvas.fill(&pen, &self.scratch, true);
                }
            }
            Op::Text => self.canvas.text(
                &pen,
                m.apply([a.num(2), a.num(3)]),
                HAlign::from_code(a.uint(0)),
                VAlign::from_code(a.uint(1)),
                a.str(4),
            ),
            Op::Blit => self.canvas.blit(
                &pen,
                m.apply([a.num(2), a.num(3)]),
                HAlign::from_code(a.uint(0)),
                VAlign::from_code(a.uint(1)),
                a.str(4),
            )?,
            Op::Lines => {
                self.transform_points(a.points(0));
                self.canvas.stroke(&pen, &self.scratch, false);
            }
            Op::Poly => {
                self.transform_points(a.points(0));
                self.canvas.fill(&pen, &self.scratch, false);
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
            Op::SetCursor => self.canvas.set_cursor(a.str(0))?,
            other => return Err(format!("{other} is not an Animator operation")),
        }
        Ok(Flow::Continue)
    }
}

/// Collects the bounding box of what a macro draws, in the macro's own
/// coordinates (identity at its start).
struct Measure {
    stack: Vec<Matrix>,
    min: Point,
    max: Point,
    depth: usize,
    work: u64,
}

impl Measure {
    fn add(&mut self, p: Point) {
        let m = self.stack.last().copied().unwrap_or_default();
        let q = m.apply(p);
        if q[0].is_finite() && q[1].is_finite() {
            self.min = [self.min[0].min(q[0]), self.min[1].min(q[1])];
            self.max = [self.max[0].max(q[0]), self.max[1].max(q[1])];
        }
    }

    fn add_flat(&mut self, flat: &[f64]) {
        for p in flat.chunks_exact(2) {
            self.add([p[0], p[1]]);
        }
    }

    fn then(&mut self, t: Matrix) {
        if let Some(top) = self.stack.last_mut() {
            *top = top.then(&t);
        }
    }
}

impl Domain for Measure {
    fn binding_kind(&self) -> &'static str {
        "macro"
    }

    fn take_work(&mut self) -> u64 {
        std::mem::take(&mut self.work)
    }

    fn op(&mut self, op: Op, a: Args<'_>, env: &Env<'_>) -> Result<Flow, String> {
        self.work += op_work(op, &a);
        match op {
            Op::Rotate => self.then(Matrix::rotation_degrees(a.num(0))),
            Op::Scale => self.then(Matrix::scaling(a.num(0), a.num(1))),
            Op::Shift => self.then(Matrix::translation(a.num(0), a.num(1))),
            Op::Viewport => {
                let (l, b, r, t) = (a.num(0), a.num(1), a.num(2), a.num(3));
                if r != l && t != b {
                    self.then(Matrix::viewport(l, b, r, t));
                }
            }
            Op::ViewportMacro => {
                let mut spent = 0;
                let measured = measure(env, a.str_id(0), self.depth + 1, &mut spent);
                self.work += spent;
                if let Some(fitted) = fit(measured?, a.flag(1)) {
                    self.then(fitted);
                }
            }
            Op::Mult => {
                let mut k = [0.0; 9];
                for (i, v) in k.iter_mut().enumerate() {
                    *v = a.num(i);
                }
                self.then(Matrix(k));
            }
            // A full stack or a lone root matrix: the command does nothing.
            Op::Push if self.stack.len() < MAX_MATRIX_STACK => {
                let top = self.stack.last().copied().unwrap_or_default();
                self.stack.push(top);
            }
            Op::Pop if self.stack.len() > 1 => {
                self.stack.pop();
            }
            Op::Push | Op::Pop => {}
            Op::Ident => {
                if let Some(top) = self.stack.last_mut() {
                    *top = Matrix::IDENTITY;
                }
            }
            Op::Dot => self.add([a.num(0), a.num(1)]),
            // A line's two ends; a rectangle's four corners (under a
            // rotation they are not the corners of the line's box).
            Op::Line | Op::Arrow => self.add_flat(&[a.num(0), a.num(1), a.num(2), a.num(3)]),
            Op::Rect | Op::FillRect => {
                let (x1, y1, x2, y2) = (a.num(0), a.num(1), a.num(2), a.num(3));
                self.add_flat(&[x1, y1, x2, y1, x2, y2, x1, y2]);
            }
            Op::Text | Op::Blit => self.add([a.num(2), a.num(3)]),
            Op::Lines | Op::Poly => self.add_flat(a.points(0)),
            Op::ImgPoly => self.add_flat(a.points(7)),
            Op::Circle | Op::FillCircle => {
                for p in circle_points(a.num(0), a.num(1), a.num(2), a.uint(3)) {
                    self.add(p);
                }
            }
            _ => {}
        }
        Ok(Flow::Continue)
    }
}

/// The matrix that maps a measured box `(l, b, r, t)` onto `-1..1`; with
/// `aspect`, the square around the box's centre whose side is the box's
/// longer side. `None` when the box (or the square) has no width or height.
fn fit((l, b, r, t): (f64, f64, f64, f64), aspect: bool) -> Option<Matrix> {
    let (l, b, r, t) = if aspect {
        let (cx, cy) = ((l + r) / 2.0, (b + t) / 2.0);
        let half = (r - l).max(t - b) / 2.0;
        (cx - half, cy - half, cx + half, cy + half)
    } else {
        (l, b, r, t)
    };
    (r != l && t != b).then(|| Matrix::viewport(l, b, r, t))
}

/// The bounding box `(l, b, r, t)` of what the macro bound to `name` draws.
/// Measuring runs the macro within the caller's remaining work budget
/// (`env.budget`); `spent` receives the work it took, even on error.
fn measure(env: &Env<'_>, name: u32, depth: usize, spent: &mut u64) -> Result<(f64, f64, f64, f64), String> {
    let text = env.strings.get(name as usize).map_or("", String::as_str);
    if depth >= MAX_MEASURE_DEPTH {
        return Err(format!("viewport {text}: macros measure each other more than {MAX_MEASURE_DEPTH} levels deep"));
    }
    let parts = env.bindings.get(name).ok_or_else(|| format!("no macro named `{text}`"))?;
    let mut measure =
        Measure { stack: vec![Matrix::IDENTITY], min: [f64::INFINITY; 2], max: [f64::NEG_INFINITY; 2], depth, work: 0 };
    // Copying the bindings costs one unit per name.
    *spent = spent.saturating_add(env.bindings.len() as u64);
    let mut bindings: Bindings = env.bindings.clone();
    for &part in parts {
        let left = env.budget.saturating_sub(*spent);
        let too_long =
            || format!("viewport {text}: measuring the macro took more than the {left} steps left to this call");
        if left == 0 {
            return Err(too_long());
        }
        let limits = Limits { max_steps: left, whole_run: true, ..Limits::default() };
        let mut fiber = Fiber::new(env.module, part).with_limits(limits);
        loop {
            let result = interp::run(&mut fiber, env.module, env.strings, &mut bindings, &mut measure);
            match result {
                Ok(Exit::Halted | Exit::Stopped) => break,
                Ok(_) => return Err(format!("viewport {text}: the macro tried to wait while being measured")),
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
    if measure.min[0] > measure.max[0] {
        return Err(format!("viewport {text}: the macro draws nothing, so it has no size to fit"));
    }
    Ok((measure.min[0], measure.min[1], measure.max[0], measure.max[1]))
}
