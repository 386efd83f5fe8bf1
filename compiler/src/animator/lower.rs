//! Lowers checked Animator commands to bytecode, one command at a time.
//! The ahead-of-time compiler ([`lower_script`]) and `animvm`'s stream both
//! use [`emit_command`] and one macro [`MacroRecorder`], so a script compiled and
//! the same script streamed make exactly the same host calls.
//!
//! Lowering never fails: it takes [`Checked`] commands only, which the
//! checker (`super::check`) alone makes, after every error of the command
//! (values, limits, colours, macro structure, the size of a function) was
//! reported.
//!
//! Each command becomes one domain op whose constant block holds its
//! arguments in canonical form: both `rect` forms become corners, `scale x`
//! becomes `scale x x`, the four `imgpoly` forms become anchor + edge
//! vectors (anchor = the first polygon point when omitted), colours become
//! RGB. `invoke X Y NAME` becomes `PUSH; SHIFT X Y; CALLN NAME; POP`. Macro
//! bodies become functions, bound by `BIND` (`macro`), `BINDPUSH` (`macro
//! push`) or `DECLARE` (`macro push NAME` followed directly by `endmacro`)
//! at the point of definition, and `invoke` looks the name up at run time.

use super::check::{Checked, Ending, Script, Step};
use super::row_ops::{RowOp, row_op};
use crate::builder::{FunctionBuilder, Mark, ProgramBuilder};
use animkit_grammar::animator::ast::{self, Cmd, HAlign, VAlign};
use animkit_grammar::animator::fields::{Field, FieldSink};
use animkit_vm::engine::isa::{Insn, MAX_AX, Op};
use animkit_vm::engine::program::{Function, Language, Module, StrId};
use std::convert::Infallible;

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
    #[inline(always)]
    fn num(&mut self, v: f64) -> &mut Self {
        self.f.num(v);
        self
    }
    #[inline(always)]
    fn int(&mut self, i: &ast::Int) -> &mut Self {
        self.f.num(i.value as f64);
        self
    }
    #[inline(always)]
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

/// Emits the code of one checked command that is not part of macro
/// structure (`macro` and `endmacro` go through the [`MacroRecorder`]).
/// The op comes from the command's row in the command table
/// (`row_ops::row_op`); `write_block` writes its block.
pub fn emit_command(c: Checked<'_>, f: &mut FunctionBuilder, s: &mut dyn Strings, keep_pos: bool) {
    let cmd = c.command();
    let pos = keep_pos.then_some((cmd.pos.line, cmd.pos.col));
    match (row_op(&cmd.kind), &cmd.kind) {
        (RowOp::One(op, _), _) => emit_op(f, op, pos, |b| {
            write_block(c, b, s);
        }),
        // `invoke X Y NAME`: `PUSH; SHIFT X Y; CALLN NAME; POP`.
        (RowOp::Seq(&[push, shift, call, pop]), Cmd::InvokeAt { at, name }) => {
            let id = s.name(&name.text);
            emit_op(f, push, pos, |_| {});
            emit_op(f, shift, pos, |b| {
                b.num(at.x.value).num(at.y.value);
            });
            emit_op(f, call, pos, |b| {
                b.str(id);
            });
            emit_op(f, pop, pos, |_| {});
        }
        // The checker gives these `Step::Begin` and `Step::End`, which the
        // recorder takes: they never come here.
        (RowOp::Seq(&[]), Cmd::Macro { .. } | Cmd::Endmacro) => {}
        // A row's sequence with no lowering here: the every-form test
        // (`tests::every_command_adds_the_constants_the_checker_counts`)
        // finds its constants missing.
        (RowOp::Seq(ops), kind) => debug_assert!(false, "no lowering of {ops:?} for {kind:?}"),
    }
}

/// Emits `op`, with the block `fill` writes when the op's signature has
/// one (`Ax` 0 when it has none).
fn emit_op(f: &mut FunctionBuilder, op: Op, pos: Option<(u32, u32)>, fill: impl FnOnce(&mut Block<'_>)) {
    if op.info().block.is_empty() {
        f.emit(Insn::ax(op, 0), pos);
        return;
    }
    let mut b = Block::new(f);
    fill(&mut b);
    let start = b.start;
    // The checker counted the function's constants.
    debug_assert!(start <= MAX_AX, "a block starts at constant {start}");
    f.emit(Insn::ax(op, start), pos);
}

/// Writes the constant block of a command that lowers to one op, its
/// arguments in canonical form (see the module docs): a command's own
/// layout where it has one (sizes as corners, defaults filled in), else
/// each argument by the kind the command table gives it
/// (`Cmd::sink_fields`). Commands whose op has no block write nothing.
fn write_block(c: Checked<'_>, b: &mut Block<'_>, s: &mut dyn Strings) {
    let cmd = c.command();
    match &cmd.kind {
        Cmd::Scale { x, y } => b.num(x.value).num(y.unwrap_or(*x).value),
        Cmd::Viewport { left, bottom, width, height } | Cmd::Clip { left, bottom, width, height } => {
            let (l, b_, r, t) = (left.value, bottom.value, left.value + width.value, bottom.value + height.value);
            b.num(l).num(b_).num(r).num(t)
        }
        Cmd::ViewportMacro { name, keep_aspect } => b.str(s.name(&name.text)).num(*keep_aspect as u8 as f64),
        Cmd::Rect { corner, width, height } | Cmd::FillRect { corner, width, height } => {
            let (x1, y1) = (corner.x.value, corner.y.value);
            b.num(x1).num(y1).num(x1 + width.value).num(y1 + height.value)
        }
        Cmd::ImgPoly { image, points, .. }
        | Cmd::ImgPolyEdges { image, points, .. }
        | Cmd::ImgPolyAxes { image, points, .. }
        | Cmd::ImgPolyUnit { image, points } => {
            let first = points.first().map_or([0.0, 0.0], |p| [p.x.value, p.y.value]);
            let (anchor, u, v) = match &cmd.kind {
                Cmd::ImgPoly { anchor, u, v, .. } => {
                    ([anchor.x.value, anchor.y.value], [u.x.value, u.y.value], [v.x.value, v.y.value])
                }
                Cmd::ImgPolyEdges { u, v, .. } => (first, [u.x.value, u.y.value], [v.x.value, v.y.value]),
                Cmd::ImgPolyAxes { ux, vy, .. } => (first, [ux.value, 0.0], [0.0, vy.value]),
                _ => (first, [1.0, 0.0], [0.0, 1.0]),
            };
            let id = s.text(&image.text);
            b.num(anchor[0]).num(anchor[1]).num(u[0]).num(u[1]).num(v[0]).num(v[1]).str(id).points(points)
        }
        // Not one op (`row_op` gives a sequence): `emit_command` lowers
        // them.
        Cmd::InvokeAt { .. } | Cmd::Macro { .. } | Cmd::Endmacro => b,
        kind => {
            let _ = kind.sink_fields(&mut BlockFields { b: &mut *b, s, c });
            b
        }
    };
}

/// The block of a command whose arguments are written as their kinds give
/// them, one [`Field`] at a time. Its `field` is inlined at each field of
/// each variant (`Cmd::sink_fields`), where its `match` folds away: the
/// stream's hottest commands (`line`, `fillcircle`, `color`) cost what
/// blocks written out by hand cost (BENCHMARKS.md, "Animator compile").
struct BlockFields<'a, 'b, 'c> {
    b: &'a mut Block<'b>,
    s: &'a mut dyn Strings,
    c: Checked<'c>,
}

impl FieldSink for BlockFields<'_, '_, '_> {
    type Error = Infallible;

    #[inline(always)]
    fn field(&mut self, f: Field<'_>) -> Result<(), Infallible> {
        let b = &mut *self.b;
        match f {
            Field::Word(_) | Field::Flag(..) => {}
            Field::Num(n) => {
                b.num(n.value);
            }
            Field::OptNum(n) => {
                if let Some(n) = n {
                    b.num(n.value);
                }
            }
            Field::Nums(ns) => {
                for n in ns {
                    b.num(n.value);
                }
            }
            Field::Int(i) | Field::Bits(i) => {
                b.int(i);
            }
            Field::Str(t) | Field::Hex(t) => {
                b.str(self.s.text(&t.text));
            }
            Field::Name(t) => {
                b.str(self.s.name(&t.text));
            }
            Field::OptStr(t) => {
                if let Some(t) = t {
                    b.str(self.s.text(&t.text));
                }
            }
            Field::Point(p) => {
                b.num(p.x.value).num(p.y.value);
            }
            Field::Points(ps) => {
                b.points(ps);
            }
            Field::On(on) => {
                b.num(on as u8 as f64);
            }
            Field::Color(_) => {
                let rgb = self.c.rgb();
                b.num(rgb[0]).num(rgb[1]).num(rgb[2]);
            }
            Field::Char(ch) => {
                b.num(ch.value as u32 as f64);
            }
            Field::OptAlign(a) => {
                let (h, v) = align_codes(a);
                b.num(h).num(v);
            }
        }
        Ok(())
    }
}

/// The macro being recorded.
#[derive(Debug)]
struct Recording {
    /// Its name.
    name: StrId,
    /// The body, as it will be compiled.
    body: FunctionBuilder,
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

/// What [`MacroRecorder::add`] did with a command.
#[derive(Debug)]
pub enum Recorded {
    /// A command outside any macro: the caller emits it where it runs
    /// ([`emit_command`]).
    Run,
    /// `macro`: recording has begun.
    Begun,
    /// A command of the body, now in it; going back to the mark leaves it
    /// out again ([`MacroRecorder::leave_out`]).
    Body(Mark),
    /// `endmacro`: the definition to make.
    Defined(Definition),
}

/// Macro recording, the one for files and streams: it follows the
/// checker's [`Step`]s, which have settled the structure (every body
/// command allowed, bodies not empty unless they only declare the name,
/// `endmacro` only after `macro`), so it cannot fail.
#[derive(Debug, Default)]
pub struct MacroRecorder {
    open: Option<Recording>,
}

impl MacroRecorder {
    /// Takes one checked command, in the order the checker saw them.
    pub fn add(&mut self, c: Checked<'_>, s: &mut dyn Strings, keep_pos: bool) -> Recorded {
        let cmd = c.command();
        match c.step() {
            Step::Run => Recorded::Run,
            Step::Begin => {
                if let Cmd::Macro { name, .. } = &cmd.kind {
                    let id = s.name(&name.text);
                    self.open = Some(Recording { name: id, body: FunctionBuilder::new(id) });
                }
                Recorded::Begun
            }
            Step::Record => {
                // The checker says `Record` only while a macro is open;
                // without one there is nothing to record into.
                debug_assert!(self.open.is_some(), "a body command outside a macro");
                let Some(rec) = self.open.as_mut() else { return Recorded::Begun };
                let mark = rec.body.mark();
                emit_command(c, &mut rec.body, s, keep_pos);
                Recorded::Body(mark)
            }
            Step::End(ending) => {
                debug_assert!(self.open.is_some(), "`endmacro` outside a macro");
                let Some(rec) = self.open.take() else { return Recorded::Begun };
                Recorded::Defined(match ending {
                    Ending::Declare => Definition::Declare(rec.name),
                    Ending::Bind | Ending::Push => {
                        let mut body = rec.body;
                        body.emit(Insn::ax(Op::Ret, 0), keep_pos.then_some((cmd.pos.line, cmd.pos.col)));
                        let f = body.finish();
                        if ending == Ending::Push {
                            Definition::Push(rec.name, f)
                        } else {
                            Definition::Bind(rec.name, f)
                        }
                    }
                })
            }
        }
    }

    /// True between `macro` and `endmacro`.
    pub fn is_recording(&self) -> bool {
        self.open.is_some()
    }

    /// Instructions plus constants of the body being recorded (0 when none).
    pub fn body_size(&self) -> usize {
        self.open.as_ref().map_or(0, |r| r.body.size())
    }

    /// Takes the body command just added out again (a stream that would
    /// hold too much); the checker is told with `Checker::leave_out`.
    pub fn leave_out(&mut self, mark: Mark) {
        if let Some(rec) = self.open.as_mut() {
            rec.body.rollback(mark);
        }
    }

    /// Forgets the macro just begun (a stream that would hold too many
    /// strings); the checker is told with `Checker::cancel_macro`.
    pub fn cancel(&mut self) {
        self.open = None;
    }
}

/// Lowers a checked Animator file into a module: function 0 runs the
/// commands in order; each macro definition adds a function.
pub fn lower_script(script: &Script, name: &str, b: &mut ProgramBuilder, keep_pos: bool) -> Module {
    let mut lowering = FileLowering::new(b);
    for c in script.iter() {
        lowering.add(c, b, keep_pos);
    }
    lowering.finish(name, b)
}

/// A file's lowering, one checked command at a time, so that a file is
/// lowered as it is read and checked, without holding its commands
/// (`super::checked`): function 0 runs the commands in order; each macro
/// definition adds a function.
pub(super) struct FileLowering {
    main: FunctionBuilder,
    functions: Vec<Function>,
    recorder: MacroRecorder,
}

impl FileLowering {
    /// Interns `main` first, as the string ids of a bundle expect.
    pub(super) fn new(s: &mut dyn Strings) -> FileLowering {
        let main_name = s.name("main");
        FileLowering {
            main: FunctionBuilder::new(main_name),
            functions: Vec::new(),
            recorder: MacroRecorder::default(),
        }
    }

    /// Lowers the next command of the file.
    pub(super) fn add(&mut self, c: Checked<'_>, b: &mut dyn Strings, keep_pos: bool) {
        let cmd = c.command();
        let main = &mut self.main;
        if c.step() == Step::Run {
            emit_command(c, main, b, keep_pos);
            return;
        }
        match self.recorder.add(c, b, keep_pos) {
            Recorded::Run => emit_command(c, main, b, keep_pos),
            Recorded::Begun | Recorded::Body(_) => {}
            Recorded::Defined(def) => {
                let (op, id, func) = match def {
                    Definition::Bind(id, f) => (Op::Bind, id, Some(f)),
                    Definition::Push(id, f) => (Op::BindPush, id, Some(f)),
                    Definition::Declare(id) => (Op::Declare, id, None),
                };
                let start = main.next_const();
                debug_assert!(start <= MAX_AX, "a definition starts at constant {start}");
                main.string(id);
                if let Some(f) = func {
                    self.functions.push(f);
                    main.num(self.functions.len() as f64);
                }
                main.emit(Insn::ax(op, start), keep_pos.then_some((cmd.pos.line, cmd.pos.col)));
            }
        }
    }

    /// The module, named `name`.
    pub(super) fn finish(self, name: &str, b: &mut ProgramBuilder) -> Module {
        let functions = self.functions();
        animator_module(b.intern(name), functions)
    }

    /// The file's functions: function 0 (the commands, ended by `HALT`),
    /// then one per macro definition.
    pub(super) fn functions(self) -> Vec<Function> {
        let FileLowering { mut main, functions, .. } = self;
        main.emit(Insn::ax(Op::Halt, 0), None);
        let mut all = Vec::with_capacity(functions.len() + 1);
        all.push(main.finish());
        all.extend(functions);
        all
    }
}

/// An Animator module of `functions`, named `name`, entered at function 0.
pub(super) fn animator_module(name: StrId, functions: Vec<Function>) -> Module {
    Module { name, language: Language::Animator, functions, states: vec![], entry: Some(0), source: None }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::animator::check::{Checker, Text};
    use crate::animator::sizes::constants;
    use animkit_grammar::animator::lexer::Keyword;
    use animkit_grammar::animator::reader::command_examples;
    use animkit_vm::engine::isa::Format;

    #[test]
    fn every_command_adds_the_constants_the_checker_counts() {
        // Every form of every row of the command table, as
        // `command_examples` writes it (`macro` and `endmacro` are the
        // recorder's, not `emit_command`'s).
        let mut forms = 0;
        let mut b = ProgramBuilder::new();
        for kw in Keyword::ALL {
            if matches!(kw, Keyword::Macro | Keyword::Endmacro) {
                continue;
            }
            for example in command_examples(kw) {
                forms += 1;
                let (commands, errors) = animkit_grammar::animator::parse(&example);
                assert!(errors.is_empty(), "{example:?}: {errors:?}");
                assert_eq!(commands.len(), 1, "{example:?}");
                constants_of(&commands[0], &example, &mut b);
            }
        }
        assert!(forms > Keyword::ALL.len(), "{forms} forms");
    }

    /// Lowers `cmd` alone and compares its constants, and where its last
    /// block starts, with what `constants` counts.
    fn constants_of(cmd: &ast::Command, text: &str, b: &mut ProgramBuilder) {
        let mut checker = Checker::for_stream();
        let c = checker.check(cmd, Text::of(text)).unwrap_or_else(|r| panic!("{text:?}: {}", r.diagnostic.message));
        let mut f = FunctionBuilder::new(0);
        f.num(0.0);
        let before = f.next_const();
        emit_command(c, &mut f, b, false);
        let (consts, last) = constants(&cmd.kind);
        let function = f.finish();
        assert_eq!(function.consts.len() as u64 - u64::from(before), consts, "{:?}", cmd.kind);
        let blocks: Vec<u32> = function
            .code
            .iter()
            .filter(|i| i.op().is_some_and(|op| op.info().format == Format::K))
            .map(|i| i.ax_field())
            .collect();
        assert_eq!(blocks.last().map(|&s| u64::from(s - before)), last, "{:?}", cmd.kind);
    }
}

#[cfg(test)]
mod examples {
    #[test]
    fn recorder_defines_a_macro_at_endmacro() {
        use crate::animator::check::{Checker, Text};
        use crate::animator::lower::{MacroRecorder, Recorded};
        use crate::builder::ProgramBuilder;
        let src = "macro m\nline 0 0 1 1\nendmacro\n";
        let (commands, _) = animkit_grammar::animator::parse(src);
        let (mut checker, mut recorder, mut b) = (Checker::for_file(), MacroRecorder::default(), ProgramBuilder::new());
        let mut last = None;
        for cmd in &commands {
            let checked = checker.check(cmd, Text::of(src)).unwrap();
            last = Some(recorder.add(checked, &mut b, true));
        }
        assert!(matches!(last, Some(Recorded::Defined(_))));
    }
}
