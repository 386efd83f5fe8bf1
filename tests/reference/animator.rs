//! A reference interpreter for Animator, written directly from
//! `animator.md` over the AST, as plainly as possible: it walks the
//! commands in order and calls the recording host ([`Recorder`]) the way the
//! spec says each command draws.
//!
//! It shares nothing with the lowering or the VM beyond the AST and the host
//! trait's types (`Canvas`, `Pen`, `Matrix` as plain data for `events`,
//! `HAlign`/`VAlign`, `DumpTarget`). The colour table is language data, so
//! it uses `animkit_compiler::animator::colors::resolve` for colour names
//! and `#hex` forms (and its clamping of numeric colours to 0..1).
//!
//! # What it does, command by command
//!
//! - **Matrices** are row-major 3x3 arrays. Every transformation
//!   post-multiplies the current matrix (`current = current * T`, so it acts
//!   in the current local system): `rotate a` by `[c -s 0; s c 0; 0 0 1]`
//!   with `(s, c) = a.to_radians().sin_cos()`, `scale x [y]`, `shift x y`,
//!   `mult` by its nine numbers, `viewport` by the matrix that maps
//!   `l b .. r t` to `-1 -1 .. 1 1` (`sx = 2/(r-l)`, `tx = -1 - l*sx`, the
//!   same for y), with `r = l + width`, `t = b + height` in the width form.
//!   A point maps to `x' = m0*x + m1*y + m2`, `y' = m3*x + m4*y + m5`, divided
//!   by `w = m6*x + m7*y + m8` when `w != 1`.
//! - **Stack.** `push` copies the current matrix (at most 65 536 entries,
//!   README's limit); `pop` with only the root matrix left is reported and
//!   ignored; `ident` loads the identity.
//! - **Pen.** Black, opaque, 1 pixel, dash `0xffff` at the start and after
//!   every `frame`; matrices are kept.
//! - **Drawing.** Geometry reaches the host in root coordinates: `line` is a
//!   two-point open stroke, `lines` an open stroke, `rect` a closed stroke
//!   through `(x1,y1) (x2,y1) (x2,y2) (x1,y2)`, `fillrect` a convex fill of
//!   the same corners, `poly` a (not necessarily convex) fill, `circle` /
//!   `fillcircle` the `n` vertices `(x + r cos(i*step), y + r sin(i*step))`
//!   with `step = 2*pi/n`, closed / convex. `text` and `blit` default to
//!   centre/centre.
//! - **Images.** `colormap` maps a character to a colour for `image_set`,
//!   whose characters without a colour leave their pixel alone (`None`).
//!   `imgpoly` has four forms; without an anchor the first polygon point is
//!   the anchor, without edge vectors they are `1,0` and `0,1`, and the two
//!   numbers of the third form are `ux` and `vy`. The anchor is transformed
//!   as a point and each edge vector as the difference between the images
//!   of `anchor + vector` and of the anchor.
//! - **Macros** are a table from name to a list of bodies, looked up each
//!   time they are invoked. `macro NAME ... endmacro` replaces the list with
//!   one body, `macro push NAME ... endmacro` appends a body, `macro push
//!   NAME` directly followed by `endmacro` only makes sure NAME is in the
//!   table, `forget` empties the table. `invoke X Y NAME` is `push`,
//!   `shift X Y`, `invoke NAME`, `pop`. Invocations nest at most 1000 deep:
//!   the invocation that would go deeper is an error at that `invoke` (an
//!   invocation of a macro only declared, with no body, runs nothing and
//!   nests nothing), and
//!   the program goes on after the outermost invocation (so an outermost
//!   `invoke X Y NAME` still pops).
//! - **`viewport NAME`** measures the macro: it runs the commands of its
//!   bodies as they would run at the top level, on an identity matrix and a
//!   stack of their own, drawing nothing and reporting nothing (a failing
//!   command does nothing, as when run), and collects the points they would
//!   draw (text and blit anchors count as points; points that are not
//!   finite do not). It then maps the bounding box to `-1..1`; `viewport
//!   aspect NAME` maps the square around the box's centre whose side is the
//!   box's longer side. A macro that draws nothing, a flat box without
//!   `aspect` and a single point (a square of no size) are errors. Measurements nest at most 16 deep (a `viewport
//!   NAME` inside a measured macro measures again; the VM's limit, which
//!   `animator.md` and the README leave open).
//! - **Work.** A top-level command's invocations may take at most
//!   2^24 work units (an instruction, a point, a vertex, 64 bytes of text
//!   each; 4 096 for frame, file and clock ops, as `tests/README.md`'s
//!   limits say): past that the whole call stops, is reported at the
//!   top-level `invoke` and the program goes on after it. The reference
//!   does not know the lowering, so it keeps bounds on the work and says
//!   when it cannot tell what the VM does (`Outcome::undecidable`).
//! - **Errors** are reported (command position and a message in the VM's
//!   words) and the command is ignored; the program goes on. `quit` ends
//!   it.

use animkit_compiler::animator::colors::resolve;
use animkit_grammar::animator::ast::{Align, Cmd, Color, Command, HAlign as AstH, Point, Pos, VAlign as AstV};
use animkit_vm::engine::animator::record::{Call, Recorder};
use animkit_vm::engine::animator::{Canvas, DumpTarget, HAlign, HostResult, Matrix, Pen, VAlign};
use std::collections::HashMap;
use std::rc::Rc;

/// Deepest nesting of macro invocations.
pub const MAX_NESTING: usize = 1000;
/// Most matrices on the stack.
pub const MAX_STACK: usize = 65_536;
/// Deepest nesting of measurements (`viewport NAME` in measured macros).
pub const MAX_MEASURE: usize = 16;
/// Most work units the invocations of one top-level command may take
/// (`tests/README.md`'s limits: an instruction, a point, a vertex each,
/// [`HEAVY`] for frame, file and clock ops), see [`Reference::step`].
pub const MAX_STEPS: u64 = 16_777_216;
/// The work of a frame, file or clock op beyond its instruction.
pub const HEAVY: u64 = 4096;
/// The most instructions one command of a macro body may lower to (the
/// reference does not know the lowering; this bounds it from above).
const MOST_INSTRUCTIONS: u64 = 8;

type M = [f64; 9];

const IDENTITY: M = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];

/// `a * b` (row-major).
fn multiply(a: &M, b: &M) -> M {
    let mut out = [0.0; 9];
    for r in 0..3 {
        for c in 0..3 {
            out[r * 3 + c] = a[r * 3] * b[c] + a[r * 3 + 1] * b[3 + c] + a[r * 3 + 2] * b[6 + c];
        }
    }
    out
}

fn transform(m: &M, x: f64, y: f64) -> [f64; 2] {
    let xp = m[0] * x + m[1] * y + m[2];
    let yp = m[3] * x + m[4] * y + m[5];
    let w = m[6] * x + m[7] * y + m[8];
    if w == 1.0 { [xp, yp] } else { [xp / w, yp / w] }
}

fn viewport_matrix(l: f64, b: f64, r: f64, t: f64) -> M {
    let sx = 2.0 / (r - l);
    let sy = 2.0 / (t - b);
    [sx, 0.0, -1.0 - l * sx, 0.0, sy, -1.0 - b * sy, 0.0, 0.0, 1.0]
}

/// An error the reference reported: where, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct RefError {
    /// The command's line and column.
    pub pos: (u32, u32),
    /// What went wrong, in the VM's words (the property compares them).
    pub message: String,
}

/// Too deep a nesting (the error), or the work limit reached (the error
/// is made at the top-level command): unwinds to the outermost invocation.
enum Nesting {
    Deep(RefError),
    Steps,
}

/// What a program did.
#[derive(Debug)]
pub struct Outcome {
    /// The host calls, in order.
    pub calls: Vec<Call>,
    /// The errors, in order.
    pub errors: Vec<RefError>,
    /// Whether a top-level call came so near the work limit that the
    /// reference cannot tell whether the VM stopped it (see
    /// [`Reference::step`]); its calls and errors then mean nothing.
    pub undecidable: bool,
}

/// Runs a whole program on a fresh [`Recorder`].
pub fn run(commands: &[Command]) -> Outcome {
    let mut r = Reference::new();
    r.run(commands);
    Outcome { calls: r.canvas.calls, errors: r.errors, undecidable: r.undecidable }
}

/// The bounding box of the points a measured macro draws.
#[derive(Clone, Copy)]
struct BBox {
    min: [f64; 2],
    max: [f64; 2],
}

/// The interpreter's state.
pub struct Reference {
    canvas: Recorder,
    stack: Vec<M>,
    pen: Pen,
    colormap: HashMap<char, [f64; 3]>,
    /// Bodies are shared: invoking a macro copies the list, not the bodies.
    macros: HashMap<String, Vec<Rc<[Command]>>>,
    /// The macro being recorded: name, `push`, body.
    recording: Option<(String, bool, Vec<Command>)>,
    errors: Vec<RefError>,
    quit: bool,
    /// Set while measuring a macro for `viewport NAME`: points go here
    /// instead of to the host.
    measuring: Option<Option<BBox>>,
    /// How many measurements enclose this one.
    level: usize,
    /// Lower and upper bounds of the work the current top-level command's
    /// invocations have taken.
    work: (u64, u64),
    /// See [`Outcome::undecidable`].
    undecidable: bool,
}

impl Reference {
    fn new() -> Reference {
        Reference {
            canvas: Recorder::default(),
            stack: vec![IDENTITY],
            pen: Pen::default(),
            colormap: HashMap::new(),
            macros: HashMap::new(),
            recording: None,
            errors: Vec::new(),
            quit: false,
            measuring: None,
            level: 0,
            work: (0, 0),
            undecidable: false,
        }
    }

    fn run(&mut self, commands: &[Command]) {
        for cmd in commands {
            if self.quit {
                return;
            }
            self.top_level(cmd);
        }
    }

    fn top_level(&mut self, cmd: &Command) {
        if let Some((name, push, body)) = &mut self.recording {
            if cmd.kind != Cmd::Endmacro {
                body.push(cmd.clone());
                return;
            }
            let (name, push, body) = (std::mem::take(name), *push, std::mem::take(body));
            self.recording = None;
            let bodies = self.macros.entry(name).or_default();
            if !body.is_empty() {
                if !push {
                    bodies.clear();
                }
                bodies.push(body.into());
            }
            return;
        }
        match &cmd.kind {
            Cmd::Macro { name, push } => self.recording = Some((name.text.clone(), *push, Vec::new())),
            Cmd::Forget => self.macros.clear(),
            _ => {
                self.work = (0, 0);
                // Too deep a nesting is caught at the outermost invocation.
                let _ = self.exec(cmd, 0);
            }
        }
    }

    fn error(&mut self, pos: Pos, message: impl Into<String>) {
        self.errors.push(RefError { pos: (pos.line, pos.col), message: message.into() });
    }

    fn host(&mut self, pos: Pos, result: HostResult) {
        if let Err(e) = result {
            self.error(pos, e);
        }
    }

    fn matrix(&self) -> M {
        *self.stack.last().expect("the root matrix is never popped")
    }

    fn then(&mut self, t: M) {
        let top = self.stack.len() - 1;
        self.stack[top] = multiply(&self.stack[top], &t);
    }

    fn point(&self, p: &Point) -> [f64; 2] {
        transform(&self.matrix(), p.x.value, p.y.value)
    }

    fn points(&self, ps: &[Point]) -> Vec<[f64; 2]> {
        ps.iter().map(|p| self.point(p)).collect()
    }

    /// True while measuring: the points are collected instead of drawn.
    fn measured(&mut self, points: &[[f64; 2]]) -> bool {
        let Some(bbox) = &mut self.measuring else { return false };
        for p in points.iter().filter(|p| p[0].is_finite() && p[1].is_finite()) {
            let b = bbox.get_or_insert(BBox { min: *p, max: *p });
            b.min = [b.min[0].min(p[0]), b.min[1].min(p[1])];
            b.max = [b.max[0].max(p[0]), b.max[1].max(p[1])];
        }
        true
    }

    fn push(&mut self, pos: Pos) {
        if self.stack.len() >= MAX_STACK {
            self.error(pos, format!("push: the matrix stack is full ({MAX_STACK} matrices)"));
        } else {
            self.stack.push(self.matrix());
        }
    }

    fn pop(&mut self, pos: Pos) {
        if self.stack.len() == 1 {
            self.error(pos, "pop without a matching push: the matrix stack holds only the root matrix");
        } else {
            self.stack.pop();
        }
    }

    fn viewport(&mut self, pos: Pos, l: f64, b: f64, r: f64, t: f64) {
        if r == l || t == b {
            self.error(pos, format!("viewport {l} {b} - {r} {t} has no width or no height"));
        } else {
            self.then(viewport_matrix(l, b, r, t));
        }
    }

    /// `invoke NAME` at `depth`: at the top level, too deep a nesting
    /// further in is reported here and the program goes on after this
    /// invocation.
    fn invoke_from(&mut self, pos: Pos, name: &str, depth: usize) -> Result<(), Nesting> {
        match self.invoke(pos, name, depth) {
            Err(Nesting::Deep(e)) if depth == 0 => {
                self.errors.push(e);
                Ok(())
            }
            Err(Nesting::Steps) if depth == 0 => {
                let message = format!(
                    "macro `{name}` ran longer than {MAX_STEPS} steps (instructions, points and vertices drawn); it was stopped"
                );
                self.error(pos, message);
                Ok(())
            }
            result => result,
        }
    }

    /// The work limit. Inside an invocation every instruction costs one
    /// unit, and the VM stops the top-level command's whole call at the
    /// first instruction that takes the work past [`MAX_STEPS`]; drawing
    /// ops add their points and vertices, frame, file and clock ops
    /// [`HEAVY`]. The reference does not know how many instructions a
    /// command lowers to (one to [`MOST_INSTRUCTIONS`]), so it keeps bounds:
    /// a command whose lower bound passes the limit certainly stops the
    /// call; a visible one whose upper bound does, while its lower bound
    /// does not, is [`Outcome::undecidable`]. The programs that reach the
    /// limit do so with a bomb of `ident`s that shows nothing while the
    /// bounds straddle the limit.
    /// `visible`: whether running the command shows (a host call, an
    /// error, a change of state); one that does not may run or not near
    /// the limit without the outcome depending on it.
    fn step(&mut self, instructions: (u64, u64), visible: bool) -> Result<(), Nesting> {
        self.work = (self.work.0.saturating_add(instructions.0), self.work.1.saturating_add(instructions.1));
        if self.work.0 > MAX_STEPS {
            return Err(Nesting::Steps);
        }
        if self.work.1 > MAX_STEPS && visible {
            self.undecidable = true;
        }
        Ok(())
    }

    /// Whether running `cmd` at `depth` shows: all but `ident` on the
    /// identity and the invocation of a macro that exists, within the
    /// nesting limit (its commands show or not by themselves).
    fn visible(&self, cmd: &Cmd, depth: usize) -> bool {
        match cmd {
            Cmd::Ident => self.matrix() != IDENTITY,
            Cmd::Invoke { name } => !self.macros.contains_key(&name.text) || depth >= MAX_NESTING,
            _ => true,
        }
    }

    /// Work beyond the instructions (checked at the next instruction).
    fn spend(&mut self, units: u64) {
        self.work = (self.work.0.saturating_add(units), self.work.1.saturating_add(units));
    }

    fn invoke(&mut self, pos: Pos, name: &str, depth: usize) -> Result<(), Nesting> {
        let Some(bodies) = self.macros.get(name).cloned() else {
            self.error(pos, format!("no macro named `{name}`"));
            return Ok(());
        };
        // A macro only declared (`macro push NAME` then `endmacro`) has no
        // body to run, so invoking it nests nothing, however deep.
        if depth >= MAX_NESTING && !bodies.is_empty() {
            let message =
                format!("macro `{name}` nested more than {MAX_NESTING} invocations deep (unbounded recursion?)");
            return Err(Nesting::Deep(RefError { pos: (pos.line, pos.col), message }));
        }
        for body in &bodies {
            for cmd in body.iter() {
                // Its instructions (the invocation's own `CALLN` included).
                let visible = self.visible(&cmd.kind, depth + 1);
                self.step((1, MOST_INSTRUCTIONS), visible)?;
                self.exec(cmd, depth + 1)?;
                self.spend(Self::work_of(&cmd.kind));
            }
            // The body's return.
            self.step((1, MOST_INSTRUCTIONS), false)?;
        }
        Ok(())
    }

    /// The work of a command beyond its instructions: its points and
    /// vertices, 64 bytes of text, [`HEAVY`] for frame, file and clock ops.
    fn work_of(cmd: &Cmd) -> u64 {
        let text = |s: &str| s.len() as u64 / 64;
        match cmd {
            Cmd::Frame
            | Cmd::Flush
            | Cmd::Screenshot { .. }
            | Cmd::Screendump { .. }
            | Cmd::ImageLoad { .. }
            | Cmd::Sleep { .. }
            | Cmd::Flushdelay { .. }
            | Cmd::Resize { .. } => HEAVY,
            Cmd::ImageNew { width, height, .. } => (width.value as u64 * height.value as u64 / 16).max(HEAVY),
            Cmd::Lines { points } | Cmd::Poly { points } | Cmd::Area { points, .. } => points.len() as u64,
            Cmd::Circle { vertices, .. } | Cmd::FillCircle { vertices, .. } => vertices.value as u64,
            Cmd::Echo { text: t } | Cmd::Title { text: t } => text(&t.text),
            Cmd::Echopt { text: t, points } => text(&t.text) + points.len() as u64,
            Cmd::Text { text: t, .. } => text(&t.text),
            Cmd::ImageSet { pixels, .. } => pixels.text.len() as u64,
            Cmd::ImgPoly { points, .. }
            | Cmd::ImgPolyEdges { points, .. }
            | Cmd::ImgPolyAxes { points, .. }
            | Cmd::ImgPolyUnit { points, .. } => points.len() as u64,
            _ => 0,
        }
    }

    /// The bounding box of what macro `name` draws, in its own coordinates.
    fn measure(&mut self, name: &str) -> Result<Option<BBox>, String> {
        if self.level >= MAX_MEASURE {
            return Err(format!("viewport {name}: macros measure each other more than {MAX_MEASURE} levels deep"));
        }
        let Some(bodies) = self.macros.get(name).cloned() else { return Err(format!("no macro named `{name}`")) };
        let mut m = Reference::new();
        m.macros = self.macros.clone();
        m.measuring = Some(None);
        m.level = self.level + 1;
        for body in &bodies {
            for cmd in body.iter() {
                // As at the top level; errors are dropped with `m`.
                let _ = m.exec(cmd, 0);
            }
        }
        Ok(m.measuring.flatten())
    }

    fn color(c: &Color) -> [f64; 3] {
        resolve(c).expect("a program that compiles has only known colours")
    }

    fn align(a: &Option<Align>) -> (HAlign, VAlign) {
        match a {
            None => (HAlign::Center, VAlign::Center),
            Some(a) => (
                match a.h {
                    AstH::Left => HAlign::Left,
                    AstH::Center => HAlign::Center,
                    AstH::Right => HAlign::Right,
                },
                match a.v {
                    AstV::Bottom => VAlign::Bottom,
                    AstV::Center => VAlign::Center,
                    AstV::Top => VAlign::Top,
                },
            ),
        }
    }

    fn cursor_bits(hex: &str) -> [u8; 128] {
        let d: Vec<u8> = hex.chars().map(|c| c.to_digit(16).expect("checked by the reader") as u8).collect();
        std::array::from_fn(|i| d[2 * i] << 4 | d[2 * i + 1])
    }

    /// Executes one command (`depth`: macro bodies being executed).
    fn exec(&mut self, cmd: &Command, depth: usize) -> Result<(), Nesting> {
        let pos = cmd.pos;
        let pen = self.pen;
        match &cmd.kind {
            Cmd::Quit => {
                self.canvas.quit();
                self.quit = true;
            }
            Cmd::Keepalive { on } => self.canvas.keepalive(*on),
            Cmd::Events { on } => self.canvas.events(*on, &Matrix(self.matrix())),
            Cmd::Resize { width, height } => self.canvas.resize(width.value as u32, height.value as u32),
            Cmd::Warp { at } => self.canvas.warp(self.point(at)),
            Cmd::WarpArea { area } => {
                let r = self.canvas.warp_area(&area.text);
                self.host(pos, r);
            }
            Cmd::Echo { text } => self.canvas.echo(&text.text),
            Cmd::Echopt { text, points } => self.canvas.echo_points(&text.text, &self.points(points)),
            Cmd::Title { text } => self.canvas.title(&text.text),
            Cmd::Frame => {
                self.pen = Pen::default();
                self.canvas.frame();
            }
            Cmd::Flush => {
                let r = self.canvas.flush();
                self.host(pos, r);
            }
            Cmd::Screenshot { file } => {
                let r = self.canvas.screenshot(&file.text);
                self.host(pos, r);
            }
            Cmd::Screendump { file } => {
                let target = match file {
                    None => DumpTarget::Descriptor,
                    Some(f) => DumpTarget::File(&f.text),
                };
                let r = self.canvas.screendump(target);
                self.host(pos, r);
            }
            Cmd::Sleep { seconds } => {
                let r = self.canvas.sleep(seconds.value).map(|_| ());
                self.host(pos, r);
            }
            Cmd::Flushdelay { seconds } => {
                let r = self.canvas.flush_delay(seconds.value).map(|_| ());
                self.host(pos, r);
            }
            Cmd::Aspect { on } => self.canvas.aspect(*on),
            Cmd::Bg { color } => self.canvas.background(Self::color(color)),
            Cmd::Rotate { degrees } => {
                let (s, c) = degrees.value.to_radians().sin_cos();
                self.then([c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0]);
            }
            Cmd::Scale { x, y } => {
                let (sx, sy) = (x.value, y.unwrap_or(*x).value);
                self.then([sx, 0.0, 0.0, 0.0, sy, 0.0, 0.0, 0.0, 1.0]);
            }
            Cmd::Shift { x, y } => self.then([1.0, 0.0, x.value, 0.0, 1.0, y.value, 0.0, 0.0, 1.0]),
            Cmd::Viewport { left, bottom, width, height } => {
                let (l, b) = (left.value, bottom.value);
                self.viewport(pos, l, b, l + width.value, b + height.value);
            }
            Cmd::ViewportCorners { left, bottom, right, top } => {
                self.viewport(pos, left.value, bottom.value, right.value, top.value)
            }
            Cmd::ViewportMacro { name, keep_aspect } => match self.measure(&name.text) {
                Err(e) => self.error(pos, e),
                Ok(None) => {
                    let message = format!("viewport {}: the macro draws nothing, so it has no size to fit", name.text);
                    self.error(pos, message)
                }
                Ok(Some(BBox { min: [l, b], max: [r, t] })) => {
                    let text = &name.text;
                    let (l2, b2, r2, t2) = if *keep_aspect {
                        let (cx, cy) = ((l + r) / 2.0, (b + t) / 2.0);
                        let half = (r - l).max(t - b) / 2.0;
                        (cx - half, cy - half, cx + half, cy + half)
                    } else {
                        (l, b, r, t)
                    };
                    if r2 != l2 && t2 != b2 {
                        self.viewport(pos, l2, b2, r2, t2);
                    } else if *keep_aspect {
                        self.error(
                            pos,
                            format!("macro `{text}` draws a single point ({l} {b}), which has no size to fit"),
                        );
                    } else {
                        let message = format!(
                            "macro `{text}` is flat ({l} {b} - {r} {t}); use `viewport aspect` to keep its proportions"
                        );
                        self.error(pos, message);
                    }
                }
            },
            Cmd::Mult { matrix } => self.then(matrix.map(|n| n.value)),
            Cmd::Push => self.push(pos),
            Cmd::Pop => self.pop(pos),
            Cmd::Ident => {
                let top = self.stack.len() - 1;
                self.stack[top] = IDENTITY;
            }
            Cmd::Clip { left, bottom, width, height } => {
                let (l, b) = (left.value, bottom.value);
                self.clip(l, b, l + width.value, b + height.value);
            }
            Cmd::ClipCorners { left, bottom, right, top } => {
                self.clip(left.value, bottom.value, right.value, top.value)
            }
            Cmd::Color { color } => self.pen.rgb = Self::color(color),
            Cmd::Alpha { alpha } => self.pen.alpha = alpha.value,
            Cmd::Thick { pixels } => self.pen.thick = pixels.value as f64,
            Cmd::Dash { pattern } => self.pen.dash = pattern.value as u16,
            Cmd::Dot { at } => {
                let p = self.point(at);
                if !self.measured(&[p]) {
                    self.canvas.dot(&pen, p);
                }
            }
            Cmd::Line { from, to } => {
                let ps = [self.point(from), self.point(to)];
                if !self.measured(&ps) {
                    self.canvas.stroke(&pen, &ps, false);
                }
            }
            Cmd::Arrow { from, to } => {
                let (a, b) = (self.point(from), self.point(to));
                if !self.measured(&[a, b]) {
                    self.canvas.arrow(&pen, a, b);
                }
            }
            Cmd::Rect { corner, width, height } => {
                let (x, y) = (corner.x.value, corner.y.value);
                self.rect(x, y, x + width.value, y + height.value, false);
            }
            Cmd::RectCorners { from, to } => self.rect(from.x.value, from.y.value, to.x.value, to.y.value, false),
            Cmd::FillRect { corner, width, height } => {
                let (x, y) = (corner.x.value, corner.y.value);
                self.rect(x, y, x + width.value, y + height.value, true);
            }
            Cmd::FillRectCorners { from, to } => self.rect(from.x.value, from.y.value, to.x.value, to.y.value, true),
            Cmd::Text { align, at, text } => {
                let (h, v) = Self::align(align);
                let p = self.point(at);
                if !self.measured(&[p]) {
                    self.canvas.text(&pen, p, h, v, &text.text);
                }
            }
            Cmd::Blit { align, at, image } => {
                let (h, v) = Self::align(align);
                let p = self.point(at);
                if !self.measured(&[p]) {
                    let r = self.canvas.blit(&pen, p, h, v, &image.text);
                    self.host(pos, r);
                }
            }
            Cmd::Lines { points } => {
                let ps = self.points(points);
                if !self.measured(&ps) {
                    self.canvas.stroke(&pen, &ps, false);
                }
            }
            Cmd::Poly { points } => {
                let ps = self.points(points);
                if !self.measured(&ps) {
                    self.canvas.fill(&pen, &ps, false);
                }
            }
            Cmd::Circle { center, radius, vertices } | Cmd::FillCircle { center, radius, vertices } => {
                let (x, y, r, n) = (center.x.value, center.y.value, radius.value, vertices.value);
                let step = 2.0 * std::f64::consts::PI / n as f64;
                let m = self.matrix();
                let ps: Vec<[f64; 2]> = (0..n)
                    .map(|i| {
                        let (s, c) = (i as f64 * step).sin_cos();
                        transform(&m, x + r * c, y + r * s)
                    })
                    .collect();
                if !self.measured(&ps) {
                    if matches!(cmd.kind, Cmd::Circle { .. }) {
                        self.canvas.stroke(&pen, &ps, true);
                    } else {
                        self.canvas.fill(&pen, &ps, true);
                    }
                }
            }
            Cmd::ImageLoad { name, path } => {
                let r = self.canvas.load_image(&name.text, &path.text);
                self.host(pos, r);
            }
            Cmd::ImageNew { width, height, name } => {
                let r = self.canvas.create_image(&name.text, width.value as u32, height.value as u32);
                self.host(pos, r);
            }
            Cmd::Colormap { ch, color } => {
                self.colormap.insert(ch.value, Self::color(color));
            }
            Cmd::ImageSet { image, x, y, pixels } => {
                let row: Vec<Option<[f64; 3]>> = pixels.text.chars().map(|c| self.colormap.get(&c).copied()).collect();
                let r = self.canvas.set_pixels(&image.text, x.value as u32, y.value as u32, &row);
                self.host(pos, r);
            }
            Cmd::ImgPoly { anchor, u, v, image, points } => {
                let (a, u, v) = ([anchor.x.value, anchor.y.value], [u.x.value, u.y.value], [v.x.value, v.y.value]);
                self.imgpoly(pos, a, u, v, &image.text, points);
            }
            Cmd::ImgPolyEdges { u, v, image, points } => {
                let a = [points[0].x.value, points[0].y.value];
                self.imgpoly(pos, a, [u.x.value, u.y.value], [v.x.value, v.y.value], &image.text, points);
            }
            Cmd::ImgPolyAxes { ux, vy, image, points } => {
                let a = [points[0].x.value, points[0].y.value];
                self.imgpoly(pos, a, [ux.value, 0.0], [0.0, vy.value], &image.text, points);
            }
            Cmd::ImgPolyUnit { image, points } => {
                let a = [points[0].x.value, points[0].y.value];
                self.imgpoly(pos, a, [1.0, 0.0], [0.0, 1.0], &image.text, points);
            }
            Cmd::Area { name, points } => {
                if self.measuring.is_none() {
                    let ps = self.points(points);
                    self.canvas.area(&name.text, &ps);
                }
            }
            Cmd::Delarea { name } => {
                if self.measuring.is_none() {
                    self.canvas.delete_area(&name.text);
                }
            }
            Cmd::Killareas => self.canvas.kill_areas(),
            Cmd::Invoke { name } => self.invoke_from(pos, &name.text, depth)?,
            Cmd::InvokeAt { at, name } => {
                // "equivalent to: push; shift by X,Y; execute macro; pop"
                self.push(pos);
                self.then([1.0, 0.0, at.x.value, 0.0, 1.0, at.y.value, 0.0, 0.0, 1.0]);
                self.invoke_from(pos, &name.text, depth)?;
                self.pop(pos);
            }
            Cmd::Defcursor { name, data, mask, hot_col, hot_row } => {
                let (d, m) = (Self::cursor_bits(&data.text), Self::cursor_bits(&mask.text));
                let hot = (hot_col.value as u32, hot_row.value as u32);
                let r = self.canvas.define_cursor(&name.text, &d, &m, hot);
                self.host(pos, r);
            }
            Cmd::Setcursor { name } => {
                let r = self.canvas.set_cursor(&name.text);
                self.host(pos, r);
            }
            Cmd::Macro { .. } | Cmd::Endmacro | Cmd::Forget => {
                unreachable!("macro structure is handled at the top level of a program that compiles")
            }
        }
        Ok(())
    }

    fn clip(&mut self, l: f64, b: f64, r: f64, t: f64) {
        if self.measuring.is_some() {
            return;
        }
        // "The bottom left and top right corners of the rectangle are
        // calculated, then transformed [...] Clipping will always be
        // axis-aligned".
        let m = self.matrix();
        let (p, q) = (transform(&m, l, b), transform(&m, r, t));
        self.canvas.clip([p[0].min(q[0]), p[1].min(q[1])], [p[0].max(q[0]), p[1].max(q[1])]);
    }

    fn rect(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, fill: bool) {
        let m = self.matrix();
        let ps = [transform(&m, x1, y1), transform(&m, x2, y1), transform(&m, x2, y2), transform(&m, x1, y2)];
        if self.measured(&ps) {
            return;
        }
        let pen = self.pen;
        if fill {
            self.canvas.fill(&pen, &ps, true);
        } else {
            self.canvas.stroke(&pen, &ps, true);
        }
    }

    fn imgpoly(&mut self, pos: Pos, anchor: [f64; 2], u: [f64; 2], v: [f64; 2], image: &str, points: &[Point]) {
        let ps = self.points(points);
        if self.measured(&ps) {
            return;
        }
        let m = self.matrix();
        let a = transform(&m, anchor[0], anchor[1]);
        let edge = |d: [f64; 2]| {
            let tip = transform(&m, anchor[0] + d[0], anchor[1] + d[1]);
            [tip[0] - a[0], tip[1] - a[1]]
        };
        let (u, v) = (edge(u), edge(v));
        let pen = self.pen;
        let r = self.canvas.image_polygon(&pen, image, a, u, v, &ps);
        self.host(pos, r);
    }
}
