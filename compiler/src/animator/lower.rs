//! Lowers Animator commands to bytecode, one command at a time. The
//! ahead-of-time compiler ([`compile_program`]) and `animvm`'s stream both
//! use [`emit_command`], so a script compiled and the same script streamed
//! make exactly the same host calls.
//!
//! Each command becomes one domain op whose constant block holds its
//! arguments in canonical form: both `rect` forms become corners, `scale x`
//! becomes `scale x x`, the four `imgpoly` forms become anchor + edge
//! vectors (anchor = the first polygon point when omitted), colours become
//! RGB. `invoke X Y NAME` becomes `PUSH; SHIFT X Y; CALLN NAME; POP`. Macro
//! bodies become functions, bound by `BIND` (`macro`), `BINDPUSH` (`macro
//! push`) or `DECLARE` (`macro push NAME` followed directly by `endmacro`)
//! at the point of definition, and `invoke` looks the name up at run time.

use super::colors;
use crate::builder::{FunctionBuilder, ProgramBuilder};
use crate::diagnostic::Diagnostic;
use animkit_grammar::Span;
use animkit_grammar::animator::ast::{self, Cmd, Color, Command, HAlign, VAlign};
use animkit_vm::isa::{Insn, MAX_AX, Op};
use animkit_vm::limits;
use animkit_vm::program::{Function, Language, Module, StrId};

// The limits are the VM's (`animkit_vm::limits`), so that every program
// the compiler accepts passes the verifier; they are restated here with
// the integer types the checks below use.

/// Most vertices of one `circle` / `fillcircle`.
pub const MAX_CIRCLE_VERTICES: i64 = limits::MAX_CIRCLE_VERTICES as i64;
/// Most points in one point list (`lines`, `poly`, `area`, `imgpoly`, `echopt`).
pub const MAX_POINTS: usize = limits::MAX_POINTS;
/// Longest string argument, in bytes.
pub const MAX_STRING: usize = limits::MAX_STRING;
/// Largest `resize` width or height.
pub const MAX_WINDOW: i64 = limits::MAX_WINDOW as i64;
/// Largest `image W H` width or height.
pub const MAX_IMAGE: i64 = limits::MAX_IMAGE as i64;
/// Thickest line, in pixels.
pub const MAX_THICK: i64 = 1_024;

/// The commands allowed inside a macro body (`animator.md`).
pub const MACRO_COMMANDS: [&str; 26] = [
    "color",
    "alpha",
    "thick",
    "dash",
    "dot",
    "line",
    "arrow",
    "rect",
    "fillrect",
    "text",
    "blit",
    "lines",
    "poly",
    "circle",
    "fillcircle",
    "push",
    "pop",
    "mult",
    "rotate",
    "scale",
    "shift",
    "viewport",
    "ident",
    "invoke",
    "area",
    "delarea",
];

/// True if `cmd` may appear in a macro body (`clip` too, as the spec lists).
pub fn allowed_in_macro(cmd: &Cmd) -> bool {
    let k = cmd.keyword();
    k == "clip" || MACRO_COMMANDS.contains(&k)
}

/// Where string ids come from. Names that outlive a command (macro names)
/// go through [`Strings::name`]; other text through [`Strings::text`], which
/// a stream may forget after the command ran.
pub trait Strings {
    /// A macro name: interned for the lifetime of the program.
    fn name(&mut self, s: &str) -> StrId;
    /// Any other string argument.
    fn text(&mut self, s: &str) -> StrId;
}

impl Strings for ProgramBuilder {
    fn name(&mut self, s: &str) -> StrId {
        self.intern(s)
    }
    fn text(&mut self, s: &str) -> StrId {
        self.intern(s)
    }
}

fn err(span: Span, message: impl Into<String>, label: impl Into<String>) -> Diagnostic {
    Diagnostic::error(span, message, label)
}

fn int_in(i: &ast::Int, lo: i64, hi: i64, what: &str) -> Result<f64, Diagnostic> {
    if (lo..=hi).contains(&i.value) {
        Ok(i.value as f64)
    } else {
        Err(err(i.span, format!("{what} {} is out of range", i.value), format!("expected {lo} to {hi}")))
    }
}

fn color(c: &Color) -> Result<[f64; 3], Diagnostic> {
    colors::resolve(c).map_err(|e| match (e.suggestion, c) {
        (Some(s), Color::Name(name)) => {
            Diagnostic::error(e.span, format!("unknown colour `{}`", name.text), "unknown colour")
                .with_help(format!("did you mean `{s}`?"))
        }
        _ => Diagnostic::error(e.span, e.message.clone(), "not a colour"),
    })
}

/// Emits the constant block of one command and returns its first index.
struct Block<'a> {
    f: &'a mut FunctionBuilder,
    start: u32,
}

impl<'a> Block<'a> {
    fn new(f: &'a mut FunctionBuilder) -> Block<'a> {
        let start = f.next_const();
        Block { f, start }
    }
    fn num(&mut self, v: f64) -> &mut Self {
        self.f.num(v);
        self
    }
    fn str(&mut self, id: StrId) -> &mut Self {
        self.f.string(id);
        self
    }
    fn points(&mut self, pts: &[ast::Point]) -> &mut Self {
        self.f.num(pts.len() as f64);
        for p in pts {
            self.f.num(p.x.value);
            self.f.num(p.y.value);
        }
        self
    }
}

fn check_str(s: &ast::Str) -> Result<&str, Diagnostic> {
    if s.text.len() > MAX_STRING {
        return Err(err(
            s.span,
            format!("string of {} bytes is too long", s.text.len()),
            format!("at most {MAX_STRING}"),
        ));
    }
    Ok(&s.text)
}

fn check_points(pts: &[ast::Point], span: Span) -> Result<(), Diagnostic> {
    if pts.len() > MAX_POINTS {
        return Err(err(span, format!("{} points in one command", pts.len()), format!("at most {MAX_POINTS}")));
    }
    Ok(())
}

fn align_codes(a: &Option<ast::Align>) -> (f64, f64) {
    match a {
        None => (1.0, 1.0),
        Some(a) => (
            match a.h {
                HAlign::Left => 0.0,
                HAlign::Center => 1.0,
                HAlign::Right => 2.0,
            },
            match a.v {
                VAlign::Bottom => 0.0,
                VAlign::Center => 1.0,
                VAlign::Top => 2.0,
            },
        ),
    }
}

/// Emits the code of one command that is not part of macro structure
/// (`macro`, `endmacro` and `forget` are handled by the caller).
pub fn emit_command(
    cmd: &Command,
    f: &mut FunctionBuilder,
    s: &mut dyn Strings,
    keep_pos: bool,
) -> Result<(), Diagnostic> {
    let pos = keep_pos.then_some((cmd.pos.line, cmd.pos.col));
    let simple = |f: &mut FunctionBuilder, op: Op| {
        f.emit(Insn::ax(op, 0), pos);
    };
    macro_rules! k {
        ($op:expr, |$b:ident| $body:expr) => {{
            let mut $b = Block::new(f);
            $body;
            let start = $b.start;
            if start > MAX_AX {
                return Err(err(
                    cmd.span,
                    "the script has too many arguments for one module",
                    "split it into several files",
                ));
            }
            f.emit(Insn::ax($op, start), pos);
        }};
    }
    match &cmd.kind {
        Cmd::Quit => simple(f, Op::Quit),
        Cmd::Keepalive { on } => k!(Op::Keepalive, |b| b.num(*on as u8 as f64)),
        Cmd::Events { on } => k!(Op::Events, |b| b.num(*on as u8 as f64)),
        Cmd::Resize { width, height } => {
            let (w, h) = (int_in(width, 1, MAX_WINDOW, "width")?, int_in(height, 1, MAX_WINDOW, "height")?);
            k!(Op::Resize, |b| b.num(w).num(h))
        }
        Cmd::Warp { at } => k!(Op::Warp, |b| b.num(at.x.value).num(at.y.value)),
        Cmd::WarpArea { area } => {
            let id = s.text(check_str(area)?);
            k!(Op::WarpArea, |b| b.str(id))
        }
        Cmd::Echo { text } => {
            let id = s.text(check_str(text)?);
            k!(Op::Echo, |b| b.str(id))
        }
        Cmd::Echopt { text, points } => {
            check_points(points, cmd.span)?;
            let id = s.text(check_str(text)?);
            k!(Op::EchoPt, |b| b.str(id).points(points))
        }
        Cmd::Title { text } => {
            let id = s.text(check_str(text)?);
            k!(Op::Title, |b| b.str(id))
        }
        Cmd::Frame => simple(f, Op::Frame),
        Cmd::Flush => simple(f, Op::Flush),
        Cmd::Screenshot { file } => {
            let id = s.text(check_str(file)?);
            k!(Op::Screenshot, |b| b.str(id))
        }
        Cmd::Screendump { file: None } => simple(f, Op::Screendump),
        Cmd::Screendump { file: Some(file) } => {
            let id = s.text(check_str(file)?);
            k!(Op::ScreendumpFile, |b| b.str(id))
        }
        Cmd::Sleep { seconds } => k!(Op::Sleep, |b| b.num(seconds.value)),
        Cmd::Flushdelay { seconds } => k!(Op::FlushDelay, |b| b.num(seconds.value)),
        Cmd::Aspect { on } => k!(Op::Aspect, |b| b.num(*on as u8 as f64)),
        Cmd::Bg { color: c } => {
            let rgb = color(c)?;
            k!(Op::Bg, |b| b.num(rgb[0]).num(rgb[1]).num(rgb[2]))
        }
        Cmd::Rotate { degrees } => k!(Op::Rotate, |b| b.num(degrees.value)),
        Cmd::Scale { x, y } => {
            let y = y.unwrap_or(*x);
            k!(Op::Scale, |b| b.num(x.value).num(y.value))
        }
        Cmd::Shift { x, y } => k!(Op::Shift, |b| b.num(x.value).num(y.value)),
        Cmd::Viewport { left, bottom, width, height } => {
            if width.value == 0.0 || height.value == 0.0 {
                return Err(err(width.span.to(height.span), "viewport of zero width or height", "must not be 0"));
            }
            let (l, b_, r, t) = (left.value, bottom.value, left.value + width.value, bottom.value + height.value);
            k!(Op::Viewport, |b| b.num(l).num(b_).num(r).num(t))
        }
        Cmd::ViewportCorners { left, bottom, right, top } => {
            if left.value == right.value || bottom.value == top.value {
                return Err(err(left.span.to(top.span), "viewport of zero width or height", "corners must differ"));
            }
            k!(Op::Viewport, |b| b.num(left.value).num(bottom.value).num(right.value).num(top.value))
        }
        Cmd::ViewportMacro { name, keep_aspect } => {
            let id = s.name(check_str(name)?);
            k!(Op::ViewportMacro, |b| b.str(id).num(*keep_aspect as u8 as f64))
        }
        Cmd::Mult { matrix } => k!(Op::Mult, |b| {
            for n in matrix {
                b.num(n.value);
            }
        }),
        Cmd::Push => simple(f, Op::Push),
        Cmd::Pop => simple(f, Op::Pop),
        Cmd::Ident => simple(f, Op::Ident),
        Cmd::Clip { left, bottom, width, height } => {
            let (l, b_, r, t) = (left.value, bottom.value, left.value + width.value, bottom.value + height.value);
            k!(Op::Clip, |b| b.num(l).num(b_).num(r).num(t))
        }
        Cmd::ClipCorners { left, bottom, right, top } => {
            k!(Op::Clip, |b| b.num(left.value).num(bottom.value).num(right.value).num(top.value))
        }
        Cmd::Color { color: c } => {
            let rgb = color(c)?;
            k!(Op::Color, |b| b.num(rgb[0]).num(rgb[1]).num(rgb[2]))
        }
        Cmd::Alpha { alpha } => k!(Op::Alpha, |b| b.num(alpha.value)),
        Cmd::Thick { pixels } => {
            let t = int_in(pixels, 0, MAX_THICK, "thickness")?;
            k!(Op::Thick, |b| b.num(t))
        }
        Cmd::Dash { pattern } => {
            let d = int_in(pattern, 0, limits::MAX_DASH as i64, "dash pattern")?;
            k!(Op::Dash, |b| b.num(d))
        }
        Cmd::Dot { at } => k!(Op::Dot, |b| b.num(at.x.value).num(at.y.value)),
        Cmd::Line { from, to } => {
            k!(Op::Line, |b| b.num(from.x.value).num(from.y.value).num(to.x.value).num(to.y.value))
        }
        Cmd::Arrow { from, to } => {
            k!(Op::Arrow, |b| b.num(from.x.value).num(from.y.value).num(to.x.value).num(to.y.value))
        }
        Cmd::Rect { corner, width, height } | Cmd::FillRect { corner, width, height } => {
            let op = if matches!(cmd.kind, Cmd::Rect { .. }) { Op::Rect } else { Op::FillRect };
            let (x1, y1) = (corner.x.value, corner.y.value);
            let (x2, y2) = (x1 + width.value, y1 + height.value);
            k!(op, |b| b.num(x1).num(y1).num(x2).num(y2))
        }
        Cmd::RectCorners { from, to } | Cmd::FillRectCorners { from, to } => {
            let op = if matches!(cmd.kind, Cmd::RectCorners { .. }) { Op::Rect } else { Op::FillRect };
            k!(op, |b| b.num(from.x.value).num(from.y.value).num(to.x.value).num(to.y.value))
        }
        Cmd::Text { align, at, text } => {
            let (h, v) = align_codes(align);
            let id = s.text(check_str(text)?);
            k!(Op::Text, |b| b.num(h).num(v).num(at.x.value).num(at.y.value).str(id))
        }
        Cmd::Blit { align, at, image } => {
            let (h, v) = align_codes(align);
            let id = s.text(check_str(image)?);
            k!(Op::Blit, |b| b.num(h).num(v).num(at.x.value).num(at.y.value).str(id))
        }
        Cmd::Lines { points } => {
            check_points(points, cmd.span)?;
            k!(Op::Lines, |b| b.points(points))
        }
        Cmd::Poly { points } => {
            check_points(points, cmd.span)?;
            k!(Op::Poly, |b| b.points(points))
        }
        Cmd::Circle { center, radius, vertices } | Cmd::FillCircle { center, radius, vertices } => {
            let op = if matches!(cmd.kind, Cmd::Circle { .. }) { Op::Circle } else { Op::FillCircle };
            let n = int_in(vertices, 0, MAX_CIRCLE_VERTICES, "vertex count")?;
            k!(op, |b| b.num(center.x.value).num(center.y.value).num(radius.value).num(n))
        }
        Cmd::ImageLoad { name, path } => {
            let (n, p) = (s.text(check_str(name)?), s.text(check_str(path)?));
            k!(Op::Image, |b| b.str(n).str(p))
        }
        Cmd::ImageNew { width, height, name } => {
            let (w, h) = (int_in(width, 1, MAX_IMAGE, "image width")?, int_in(height, 1, MAX_IMAGE, "image height")?);
            let n = s.text(check_str(name)?);
            k!(Op::ImageNew, |b| b.num(w).num(h).str(n))
        }
        Cmd::Colormap { ch, color: c } => {
            let rgb = color(c)?;
            k!(Op::Colormap, |b| b.num(ch.value as u32 as f64).num(rgb[0]).num(rgb[1]).num(rgb[2]))
        }
        Cmd::ImageSet { image, x, y, pixels } => {
            let (x, y) = (int_in(x, 0, MAX_IMAGE, "column")?, int_in(y, 0, MAX_IMAGE, "row")?);
            let (i, p) = (s.text(check_str(image)?), s.text(check_str(pixels)?));
            k!(Op::ImageSet, |b| b.str(i).num(x).num(y).str(p))
        }
        Cmd::ImgPoly { image, points, .. }
        | Cmd::ImgPolyEdges { image, points, .. }
        | Cmd::ImgPolyAxes { image, points, .. }
        | Cmd::ImgPolyUnit { image, points } => {
            check_points(points, cmd.span)?;
            let first = points.first().map_or([0.0, 0.0], |p| [p.x.value, p.y.value]);
            let (anchor, u, v) = match &cmd.kind {
                Cmd::ImgPoly { anchor, u, v, .. } => {
                    ([anchor.x.value, anchor.y.value], [u.x.value, u.y.value], [v.x.value, v.y.value])
                }
                Cmd::ImgPolyEdges { u, v, .. } => (first, [u.x.value, u.y.value], [v.x.value, v.y.value]),
                Cmd::ImgPolyAxes { ux, vy, .. } => (first, [ux.value, 0.0], [0.0, vy.value]),
                _ => (first, [1.0, 0.0], [0.0, 1.0]),
            };
            let id = s.text(check_str(image)?);
            k!(Op::ImgPoly, |b| b
                .num(anchor[0])
                .num(anchor[1])
                .num(u[0])
                .num(u[1])
                .num(v[0])
                .num(v[1])
                .str(id)
                .points(points))
        }
        Cmd::Area { name, points } => {
            check_points(points, cmd.span)?;
            let id = s.text(check_str(name)?);
            k!(Op::Area, |b| b.str(id).points(points))
        }
        Cmd::Delarea { name } => {
            let id = s.text(check_str(name)?);
            k!(Op::DelArea, |b| b.str(id))
        }
        Cmd::Killareas => simple(f, Op::KillAreas),
        Cmd::Invoke { name } => {
            let id = s.name(check_str(name)?);
            k!(Op::CallN, |b| b.str(id))
        }
        Cmd::InvokeAt { at, name } => {
            let id = s.name(check_str(name)?);
            simple(f, Op::Push);
            k!(Op::Shift, |b| b.num(at.x.value).num(at.y.value));
            k!(Op::CallN, |b| b.str(id));
            simple(f, Op::Pop);
        }
        Cmd::Forget => simple(f, Op::Forget),
        Cmd::Defcursor { name, data, mask, hot_col, hot_row } => {
            let hot = limits::MAX_CURSOR_HOT as i64;
            let (c, r) = (int_in(hot_col, 0, hot, "hot spot column")?, int_in(hot_row, 0, hot, "hot spot row")?);
            let (n, d, m) = (s.text(check_str(name)?), s.text(check_str(data)?), s.text(check_str(mask)?));
            k!(Op::DefCursor, |b| b.str(n).str(d).str(m).num(c).num(r))
        }
        Cmd::Setcursor { name } => {
            let id = s.text(check_str(name)?);
            k!(Op::SetCursor, |b| b.str(id))
        }
        Cmd::Macro { .. } | Cmd::Endmacro => {
            return Err(err(cmd.span, format!("`{}` is not allowed here", cmd.kind.keyword()), "macro structure"));
        }
    }
    Ok(())
}

/// The macro being recorded.
#[derive(Debug)]
pub struct Recording {
    /// Its name.
    pub name: ast::Str,
    /// `macro push`.
    pub push: bool,
    /// The `macro` command (for errors).
    pub span: Span,
    /// Position of the `macro` command.
    pub pos: ast::Pos,
    /// The body, as it will be compiled.
    pub body: FunctionBuilder,
    /// Number of commands in the body.
    pub commands: usize,
    /// Commands that could not go into the body (already reported).
    pub rejected: usize,
}

/// How a finished macro definition takes effect.
#[derive(Debug)]
pub enum Definition {
    /// `macro NAME ... endmacro`: replace the binding.
    Bind(StrId, Function),
    /// `macro push NAME ... endmacro`: extend it.
    Push(StrId, Function),
    /// `macro push NAME` + `endmacro`: make sure it exists.
    Declare(StrId),
}

/// Starts recording a macro body.
pub fn begin_macro(cmd: &Command, name: &ast::Str, push: bool, s: &mut dyn Strings) -> Result<Recording, Diagnostic> {
    let id = s.name(check_str(name)?);
    Ok(Recording {
        name: name.clone(),
        push,
        span: cmd.span,
        pos: cmd.pos,
        body: FunctionBuilder::new(id),
        commands: 0,
        rejected: 0,
    })
}

/// Adds one command to the macro body, or explains why it cannot go there.
pub fn record(rec: &mut Recording, cmd: &Command, s: &mut dyn Strings, keep_pos: bool) -> Result<(), Diagnostic> {
    if !allowed_in_macro(&cmd.kind) {
        rec.rejected += 1;
        let d = err(
            cmd.span,
            format!("`{}` is not allowed inside a macro", cmd.kind.keyword()),
            format!("inside macro `{}`", rec.name.text),
        )
        .with_secondary(rec.span, "the macro starts here")
        .with_note("macros hold drawing and transformation commands only: color alpha thick dash dot line arrow rect fillrect text blit lines poly circle fillcircle push pop mult rotate scale shift viewport ident invoke area delarea clip");
        return Err(if matches!(cmd.kind, Cmd::Macro { .. }) {
            d.with_help(format!("end macro `{}` with `endmacro` before starting another", rec.name.text))
        } else {
            d
        });
    }
    if let Err(e) = emit_command(cmd, &mut rec.body, s, keep_pos) {
        rec.rejected += 1;
        return Err(e);
    }
    rec.commands += 1;
    Ok(())
}

/// Finishes a macro at `endmacro`.
pub fn end_macro(rec: Recording, end: &Command, s: &mut dyn Strings, keep_pos: bool) -> Result<Definition, Diagnostic> {
    let id = s.name(&rec.name.text);
    if rec.commands == 0 {
        if rec.push || rec.rejected > 0 {
            return Ok(Definition::Declare(id));
        }
        return Err(err(
            rec.span,
            format!("macro `{}` has an empty body", rec.name.text),
            "nothing between here and `endmacro`",
        )
        .with_secondary(end.span, "ends here")
        .with_help("to make sure a macro exists without changing it, use `macro push NAME` followed by `endmacro`"));
    }
    let mut body = rec.body;
    body.emit(Insn::ax(Op::Ret, 0), keep_pos.then_some((end.pos.line, end.pos.col)));
    let f = body.finish();
    Ok(if rec.push { Definition::Push(id, f) } else { Definition::Bind(id, f) })
}

/// Compiles a whole Animator file into a module: function 0 runs the
/// commands in order; each macro definition adds a function. Every error
/// of the file is returned.
pub fn compile_program(
    commands: &[Command],
    name: &str,
    b: &mut ProgramBuilder,
    keep_pos: bool,
) -> Result<Module, Vec<Diagnostic>> {
    let main_name = b.intern("main");
    let mut main = FunctionBuilder::new(main_name);
    let mut functions: Vec<Function> = Vec::new();
    let mut errors = Vec::new();
    let mut recording: Option<Recording> = None;
    for cmd in commands {
        let pos = keep_pos.then_some((cmd.pos.line, cmd.pos.col));
        match (&cmd.kind, recording.as_mut()) {
            (Cmd::Endmacro, None) => {
                errors.push(err(cmd.span, "`endmacro` without `macro`", "no macro is being recorded"))
            }
            (Cmd::Endmacro, Some(_)) => {
                let Some(rec) = recording.take() else { continue };
                match end_macro(rec, cmd, b, keep_pos) {
                    Ok(def) => {
                        let (op, id, func) = match def {
                            Definition::Bind(id, f) => (Op::Bind, id, Some(f)),
                            Definition::Push(id, f) => (Op::BindPush, id, Some(f)),
                            Definition::Declare(id) => (Op::Declare, id, None),
                        };
                        let start = main.next_const();
                        main.string(id);
                        if let Some(f) = func {
                            functions.push(f);
                            main.num(functions.len() as f64);
                        }
                        main.emit(Insn::ax(op, start), pos);
                    }
                    Err(e) => errors.push(e),
                }
            }
            (Cmd::Macro { name, push }, None) => match begin_macro(cmd, name, *push, b) {
                Ok(rec) => recording = Some(rec),
                Err(e) => errors.push(e),
            },
            (_, Some(rec)) => {
                if let Err(e) = record(rec, cmd, b, keep_pos) {
                    errors.push(e);
                }
            }
            (_, None) => {
                if let Err(e) = emit_command(cmd, &mut main, b, keep_pos) {
                    errors.push(e);
                }
            }
        }
    }
    if let Some(rec) = recording {
        errors.push(
            err(rec.span, format!("macro `{}` is never ended", rec.name.text), "recording starts here")
                .with_help("add `endmacro` after its last command"),
        );
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    main.emit(Insn::ax(Op::Halt, 0), None);
    let mut all = vec![main.finish()];
    all.extend(functions);
    let module_name = b.intern(name);
    Ok(Module {
        name: module_name,
        language: Language::Animator,
        functions: all,
        states: vec![],
        entry: Some(0),
        source: None,
    })
}
