//! Lowers a [`SceneIr`] to one straight-line entry function:
//!
//! ```text
//! frame 0:        command*                 ; the commands timed 0, in order
//! next point:     WAIT d  command*         ; d >= 1 frames later
//! ...
//! end:            WAIT d                   ; only if the length lies after the last command
//!                 HALT
//! command:        load R0 := id (actors)  load R1 := arg 1 ...  OP R0
//! ```
//!
//! A command's values go into consecutive registers from `R0` and its
//! register-window op (`ACTION`, ..., `CAMANGLES`) reads them there. With
//! constant folding on (the default) each value is one load of its
//! already-evaluated constant: `LOADK` for constants 0 to 65 535, `LOADKX`
//! plus `EXTRAARG` beyond, each command taking the next constants in order.
//! That exact shape is what the bundle codec writes as one byte per
//! command, so `LOADI` is not used for small whole numbers: it would need
//! its operand written out, while a small whole constant costs one or two
//! bytes in the constant pool's encoding.
//!
//! With folding off each value's arithmetic ([`Expr`]: names already
//! replaced by their values) is computed by the VM with `LOADK` / `LOADKX`,
//! `ADD`, `SUB`, `MUL`, `DIV` and `NEG`, left operand first, exactly the
//! IEEE operations [`Expr::eval`] does, so both forms give the same bits.
//!
//! # Registers
//! An argument is computed into its window register `t`, with the
//! registers above the window (from `R[len]`, `len` <= 4) as temporaries:
//!
//! ```text
//! Num v         -> load R[t] := v
//! Neg x         -> x into R[t];  NEG R[t] R[t]
//! Bin op l r    -> l into R[t];  r into R[free] (temporaries from free + 1);  OP R[t] R[t] R[free]
//! ```
//!
//! Only the right operand of a `Bin` takes a new register, so an expression
//! needs at most as many temporaries as it has levels: `temps(Num) = 0`,
//! `temps(Neg x) = temps(x)`, `temps(Bin l r) = max(temps(l), 1 +
//! temps(r)) <= depth`. The IR's depth is at most the source's nesting (the
//! checker drops parentheses, which count as levels in the source), and the
//! grammar refuses more than [`MAX_SLAP_NESTING`] (64) levels, so a command
//! uses at most `4 + 64 = 68` registers, well under the 255 a function may
//! have. `tests` check it at the nesting limit.
//!
//! # Debug positions
//! Every instruction of a command carries its directive's line and column,
//! so a runtime error (a value the verifier cannot see) points at the
//! source line. `WAIT` and `HALT` carry none.

use super::ir::{ActorAttr, BinOp, CameraAttr, Expr, Kind, SceneIr, Step, Timeline, Value};
use crate::builder::{FunctionBuilder, ProgramBuilder};
use crate::diagnostic::LineIndex;
use animkit_vm::engine::isa::{Insn, Op};
use animkit_vm::engine::limits::MAX_SLAP_NESTING;
use animkit_vm::engine::program::{Language, Module};

/// Lowers `scene` into a module named `name` of the program being built.
/// `lines` maps spans to positions for debug info (`None`: strip); `fold`
/// loads each value as one constant instead of computing its arithmetic.
/// Never fails: the checker refused everything that could not be lowered
/// (at most [`animkit_vm::engine::limits::MAX_SLAP_CONSTANTS`] numbers, frames
/// within a `WAIT`). The same code as [`lower_timeline`] of
/// [`Timeline::from_ir`].
pub fn lower(scene: &SceneIr, name: &str, b: &mut ProgramBuilder, lines: Option<&LineIndex<'_>>, fold: bool) -> Module {
    lower_timeline(&Timeline::from_ir(scene), name, b, lines, fold)
}

/// [`lower`] for a scene in the compile path's form.
pub fn lower_timeline(
    scene: &Timeline,
    name: &str,
    b: &mut ProgramBuilder,
    lines: Option<&LineIndex<'_>>,
    fold: bool,
) -> Module {
    let main_name = b.intern("main");
    let mut f = FunctionBuilder::new(main_name);
    if fold {
        // The exact sizes: a load per value (LOADKX pairs aside), the op,
        // and a WAIT per time point at most.
        let values = scene.values.len();
        let n = scene.steps.len();
        f.reserve(values + 2 * n + 2, values, if lines.is_some() { n } else { 0 });
    }
    let mut lw = Lowering { f: &mut f, fold, nregs: 0 };
    let mut frame = 0u32;
    for step in &scene.steps {
        if step.frame > frame {
            lw.f.emit(Insn::ax(Op::Wait, step.frame - frame), None);
            frame = step.frame;
        }
        let pos = lines.map(|l| l.line_col(step.at as usize));
        lw.command(scene, step, pos);
    }
    if scene.length > frame {
        lw.f.emit(Insn::ax(Op::Wait, scene.length - frame), None);
    }
    let nregs = lw.nregs;
    f.emit(Insn::ax(Op::Halt, 0), None);
    // At most 4 + MAX_SLAP_NESTING registers (see the module docs).
    f.set_nregs(u8::try_from(nregs).unwrap_or(u8::MAX));
    let module_name = b.intern(name);
    Module {
        name: module_name,
        language: Language::Slap,
        functions: vec![f.finish()],
        states: vec![],
        entry: Some(0),
        source: None,
    }
}

/// The register-window op of an actor attribute.
pub const fn actor_op(attr: ActorAttr) -> Op {
    match attr {
        ActorAttr::Action => Op::Action,
        ActorAttr::Direction => Op::Direction,
        ActorAttr::Position2 => Op::Position2,
        ActorAttr::Position3 => Op::Position3,
        ActorAttr::Color => Op::ActorColor,
        ActorAttr::Size => Op::Size,
    }
}

/// The register-window op of a camera attribute.
pub const fn camera_op(attr: CameraAttr) -> Op {
    match attr {
        CameraAttr::Position => Op::CamPos,
        CameraAttr::DirectionVector => Op::CamDir,
        CameraAttr::DirectionAngles => Op::CamAngles,
        CameraAttr::LookAt => Op::CamLookAt,
        CameraAttr::Follow => Op::CamFollow,
        CameraAttr::Move => Op::CamMove,
    }
}

/// The registers [`lower`] gives a command computing `values` with folding
/// off: the window plus the temporaries of its deepest value (see the
/// module docs).
///
/// ```
/// use animkit_compiler::slap::ir::{BinOp, Expr, Value};
/// use animkit_compiler::slap::lower::registers_unfolded;
/// let one = |expr| Value { expr, value: 0.0, span: animkit_grammar::Span::new(0, 0) };
/// let n = |v| Box::new(Expr::Num(v));
/// // 1 + 2*3: the product needs one temporary, its right operand another.
/// let e = Expr::Bin(BinOp::Add, n(1.0), Box::new(Expr::Bin(BinOp::Mul, n(2.0), n(3.0))));
/// assert_eq!(registers_unfolded(&[one(Expr::Num(1.0)), one(e)]), 2 + 2);
/// ```
pub fn registers_unfolded(values: &[Value]) -> usize {
    values.len() + values.iter().map(|v| temps(&v.expr)).max().unwrap_or(0)
}

/// The temporaries computing `e` needs above its target register.
fn temps(e: &Expr) -> usize {
    // Recursion as deep as the expression: at most MAX_SLAP_NESTING.
    match e {
        Expr::Num(_) => 0,
        Expr::Neg(x) => temps(x),
        Expr::Bin(_, l, r) => temps(l).max(1 + temps(r)),
    }
}

struct Lowering<'f> {
    f: &'f mut FunctionBuilder,
    fold: bool,
    /// Registers used so far.
    nregs: usize,
}

impl Lowering<'_> {
    fn command(&mut self, scene: &Timeline, step: &Step, pos: Option<(u32, u32)>) {
        let op = match step.kind {
            Kind::Actor(attr) => actor_op(attr),
            Kind::Camera(attr) => camera_op(attr),
        };
        let window = step.kind.window();
        debug_assert_eq!(window, op.info().block.len(), "{op}");
        let first = step.first as usize;
        for (r, &v) in scene.values_of(step).iter().enumerate() {
            // `R[r] := v`, with temporaries from `R[window]` up.
            match scene.expr(first + r).filter(|_| !self.fold) {
                Some(e) => self.expr(e, r as u8, window as u8, pos),
                None => self.load(r as u8, v, pos),
            }
        }
        self.f.emit(Insn::r(op, 0), pos);
        self.nregs = self.nregs.max(window);
    }

    /// `R[target] := e`, computed left operand first.
    fn expr(&mut self, e: &Expr, target: u8, free: u8, pos: Option<(u32, u32)>) {
        match e {
            Expr::Num(v) => self.load(target, *v, pos),
            Expr::Neg(x) => {
                self.expr(x, target, free, pos);
                self.f.emit(Insn::abc(Op::Neg, target, target, 0), pos);
            }
            Expr::Bin(op, l, r) => {
                self.expr(l, target, free, pos);
                // `free` stays below 4 + MAX_SLAP_NESTING (module docs).
                debug_assert!((free as usize) < 4 + MAX_SLAP_NESTING);
                self.expr(r, free, free.saturating_add(1), pos);
                let op = match op {
                    BinOp::Add => Op::Add,
                    BinOp::Sub => Op::Sub,
                    BinOp::Mul => Op::Mul,
                    BinOp::Div => Op::Div,
                };
                self.f.emit(Insn::abc(op, target, target, free), pos);
                self.nregs = self.nregs.max(free as usize + 1);
            }
        }
    }

    /// `R[r] := v` from the next constant: `LOADK`, or `LOADKX` and its
    /// `EXTRAARG` beyond constant 65 535.
    fn load(&mut self, r: u8, v: f64, pos: Option<(u32, u32)>) {
        let k = self.f.num(v);
        match u16::try_from(k) {
            Ok(k) => {
                self.f.emit(Insn::abx(Op::LoadK, r, k), pos);
            }
            Err(_) => {
                self.f.emit(Insn::abc(Op::LoadKX, r, 0, 0), pos);
                self.f.emit(Insn::ax(Op::ExtraArg, k), pos);
            }
        }
        self.nregs = self.nregs.max(r as usize + 1);
    }
}

#[cfg(test)]
mod examples {
    #[test]
    fn lowering_emits_windows_and_waits() {
        use crate::builder::ProgramBuilder;
        use crate::slap::{front, lower::lower};
        let scene = front("define PI 3.1416\nactor 1 direction PI/2\ntime 10\n").unwrap().ir;
        let mut b = ProgramBuilder::new();
        let module = lower(&scene, "s", &mut b, None, true);
        b.program_mut().modules.push(module);
        let asm = animkit_vm::engine::disasm::disassemble(&b.finish());
        assert!(asm.contains("DIRECTION   R0..R1"), "{asm}");
        assert!(asm.contains("WAIT        10"), "{asm}");
    }
}
