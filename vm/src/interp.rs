//! The register interpreter for functions with calls and domain ops
//! (Animator and SLAP). Sprite code has its own compact loop in
//! [`crate::sprite`].
//!
//! A [`Fiber`] is a resumable thread of execution: a call stack over one
//! module, bound to it (checked once each time [`run`] starts or resumes),
//! so the loop trusts what the verifier proved of that code: it decodes
//! opcodes and indexes code and functions without error branches (see
//! ARCHITECTURE.md for the rule each removed check relies on). [`run`] executes it until it halts, returns from its first
//! function, or a domain op asks to suspend (a `sleep`, a frame delay); the
//! caller resumes it later by calling [`run`] again. Domain ops are handed
//! to a [`Domain`], which gives them meaning (drawing, scene updates),
//! with their arguments as [`Args`]: a constant block or, for register-
//! window ops, the registers `R[A..A+len]` of the running frame.
//!
//! Calls are iterative (an explicit frame stack), so no input can overflow
//! the Rust stack; nesting deeper than [`Limits::max_depth`] is a runtime
//! error naming the function.
//!
//! Work is bounded too. The entry function's own code cannot loop without
//! suspending (the verifier's `progress` rule), but calls can multiply work
//! without recursing (a macro invoking another twice, that one invoking a
//! third twice, ...). So everything a top-level call does is counted in
//! work units (one per instruction, plus each domain op's cost from its
//! row of the ISA table, `crate::work::op_work`: points, vertices, text,
//! whole-frame ops; plus what domain ops report through
//! [`Domain::take_work`]: measurements), and a call
//! that exceeds [`Limits::max_steps`] is abandoned with a runtime error at
//! the top-level call; the fiber resumes after it.
//!
//! ```
//! use animkit_vm::engine::interp::{run, Args, Domain, Env, Exit, Fiber, Flow, Bindings};
//! use animkit_vm::engine::isa::{Insn, Op};
//! use animkit_vm::engine::program::*;
//!
//! struct Log(Vec<String>);
//! impl Domain for Log {
//!     type Error = std::convert::Infallible;
//!     fn op(&mut self, op: Op, args: Args<'_>, _env: &Env<'_>) -> Result<Flow, Self::Error> {
//!         self.0.push(format!("{op} {}", args.str(0)));
//!         Ok(Flow::Continue)
//!     }
//! }
//! let module = Module {
//!     name: 0, language: Language::Animator, states: vec![], entry: Some(0), source: None,
//!     functions: vec![Function {
//!         name: 0,
//!         code: vec![Insn::ax(Op::Echo, 0), Insn::abc(Op::Halt, 0, 0, 0)],
//!         consts: vec![1.0], kinds: vec![ConstKind::Str],
//!         ..Function::default()
//!     }],
//! };
//! let strings = vec!["main".to_string(), "hello".to_string()];
//! // Only verified code runs.
//! let program = animkit_vm::engine::verify::verify(Program { strings, modules: vec![module] })?;
//! let code = program.code(0).unwrap();
//! let mut fiber = Fiber::new(code, 0);
//! let mut log = Log(vec![]);
//! let exit = run(&mut fiber, code, &mut Bindings::default(), &mut log)?;
//! assert_eq!(exit, Exit::Halted);
//! assert_eq!(log.0, ["ECHO hello"]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::isa::{Format, Op, animator_ops, slap_ops, sprite_ops};
use crate::limits::{MAX_DEPTH, MAX_STEPS};
use crate::program::{FuncId, Function, Module, StrId};
use crate::verify::{CodeId, VerifiedModule};
use std::collections::HashMap;
use std::fmt;

/// Resource limits of one fiber.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Deepest call nesting below the entry function (Animator: macro
    /// invocations inside macros).
    pub max_depth: usize,
    /// Most work units one call from the entry function may take, nested
    /// calls included (see the module documentation).
    pub max_steps: u64,
    /// Count the entry function's own instructions too, never resetting, so
    /// that `max_steps` bounds the whole run (for code run inside a domain
    /// op, such as measuring a macro for `viewport NAME`).
    pub whole_run: bool,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { max_depth: MAX_DEPTH, max_steps: MAX_STEPS, whole_run: false }
    }
}

/// What a domain op tells the interpreter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Flow {
    /// Go on with the next instruction.
    Continue,
    /// Stop here; [`run`] returns [`Exit::Suspended`] with this value and
    /// the next call continues after the op.
    Suspend(f64),
    /// Stop the fiber for good (Animator's `quit`).
    Stop,
}

/// Why [`run`] returned.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Exit {
    /// The fiber finished (`HALT` or a return from its first function).
    Halted,
    /// A domain op asked to suspend, with its value (seconds, ticks, ...).
    Suspended(f64),
    /// A `WAIT n`.
    Waiting(u32),
    /// A domain op ended the program ([`Flow::Stop`], Animator's `quit`).
    Stopped,
}

/// A runtime error, with the position of the failing instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuntimeError {
    /// What went wrong, one line.
    pub message: String,
    /// Function index.
    pub function: FuncId,
    /// Instruction index.
    pub pc: u32,
    /// Source line and column, when the bundle kept debug info.
    pub position: Option<(u32, u32)>,
}

impl fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some((l, c)) => write!(f, "{}:{}: {}", l, c, self.message),
            None => write!(f, "function {} instruction {}: {}", self.function, self.pc, self.message),
        }
    }
}

impl std::error::Error for RuntimeError {}

/// Name bindings made by `BIND`, `BINDPUSH` and `DECLARE` (Animator
/// macros): each name maps to the functions run, in order, by `CALLN`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bindings {
    map: HashMap<StrId, Vec<FuncId>>,
}

impl Bindings {
    /// The functions bound to `name`, if it is bound.
    pub fn get(&self, name: StrId) -> Option<&[FuncId]> {
        self.map.get(&name).map(Vec::as_slice)
    }

    /// Binds `name` to `[func]`; returns the functions it replaced.
    pub fn bind(&mut self, name: StrId, func: FuncId) -> Vec<FuncId> {
        self.map.insert(name, vec![func]).unwrap_or_default()
    }

    /// Appends `func` to `name`'s functions (binding it if needed).
    pub fn push(&mut self, name: StrId, func: FuncId) {
        self.map.entry(name).or_default().push(func);
    }

    /// Makes sure `name` is bound (to nothing, if it was not bound).
    pub fn declare(&mut self, name: StrId) {
        self.map.entry(name).or_default();
    }

    /// Removes every binding; returns the functions that were bound.
    pub fn clear(&mut self) -> Vec<FuncId> {
        self.map.drain().flat_map(|(_, v)| v).collect()
    }

    /// Number of bound names.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// True when no name is bound.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Every bound name.
    pub fn names(&self) -> impl Iterator<Item = StrId> + '_ {
        self.map.keys().copied()
    }
}

/// The arguments of a domain op, with typed readers: its constant block
/// (`K` format: from `K[Ax]` to the end of the pool) or its register window
/// (`R` format: exactly `R[A..A+len]`). A verified program guarantees that
/// the reads its op's signature allows are in range; out-of-range reads
/// give 0 / `""` rather than panic. Constant blocks hold checked values;
/// register windows hold whatever the code computed (NaN, infinities,
/// fractions), which the domain must check.
#[derive(Clone, Copy)]
pub struct Args<'a> {
    consts: &'a [f64],
    strings: &'a [String],
}

impl<'a> Args<'a> {
    /// Arguments over a constant block and a string table.
    pub fn new(consts: &'a [f64], strings: &'a [String]) -> Args<'a> {
        Args { consts, strings }
    }

    /// Number `i` of the block.
    #[inline]
    pub fn num(&self, i: usize) -> f64 {
        self.consts.get(i).copied().unwrap_or(0.0)
    }

    /// Whole number `i` of the block.
    #[inline]
    pub fn uint(&self, i: usize) -> u32 {
        self.num(i) as u32
    }

    /// Flag `i` of the block.
    #[inline]
    pub fn flag(&self, i: usize) -> bool {
        self.num(i) != 0.0
    }

    /// String `i` of the block.
    #[inline]
    pub fn str(&self, i: usize) -> &'a str {
        self.strings.get(self.num(i) as usize).map_or("", String::as_str)
    }

    /// String id `i` of the block.
    #[inline]
    pub fn str_id(&self, i: usize) -> StrId {
        self.num(i) as StrId
    }

    /// The point list starting at element `i` (a count, then x, y pairs),
    /// as a flat slice `[x0, y0, x1, y1, ...]`.
    #[inline]
    pub fn points(&self, i: usize) -> &'a [f64] {
        let n = self.uint(i) as usize;
        self.consts.get(i + 1..i + 1 + 2 * n).unwrap_or(&[])
    }

    /// The raw values: a constant block from its first element to the end
    /// of the pool, or a register window, exactly.
    pub fn raw(&self) -> &'a [f64] {
        self.consts
    }
}

/// What a domain op may read besides its arguments: the running module,
/// the string table and the current name bindings (Animator's
/// `viewport NAME` measures a macro by running it).
#[derive(Clone, Copy)]
pub struct Env<'a> {
    /// The module being run, with the program's strings.
    pub code: VerifiedModule<'a>,
    /// Current name bindings.
    pub bindings: &'a Bindings,
    /// Work units the running call may still spend: a domain op that runs
    /// code itself (`viewport NAME` measuring a macro) stays within it and
    /// reports what it spent through [`Domain::take_work`].
    pub budget: u64,
}

/// Gives domain ops their meaning.
pub trait Domain {
    /// Why an op failed: its text is the [`RuntimeError`]'s message
    /// (Animator's [`AnimatorOpError`](crate::animator::AnimatorOpError),
    /// SLAP's [`SlapOpError`](crate::slap::SlapOpError)).
    type Error: std::fmt::Display;

    /// Executes one domain op. An `Err` becomes a [`RuntimeError`] at the
    /// op's position; the fiber stays resumable after the op.
    fn op(&mut self, op: Op, args: Args<'_>, env: &Env<'_>) -> Result<Flow, Self::Error>;

    /// What a name-bound function is called in messages ("macro" for
    /// Animator); the default says "binding".
    fn binding_kind(&self) -> &'static str {
        "binding"
    }

    /// Work done by the ops since the last call, beyond one unit per
    /// instruction and the op's row cost (`crate::work::op_work`, which
    /// the interpreter charges itself): code run inside an op, and reset it. The interpreter calls this after every domain op
    /// and charges the work to the running call ([`Limits::max_steps`]).
    fn take_work(&mut self) -> u64 {
        0
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Frame {
    func: FuncId,
    pc: u32,
    base: u32,
    /// For a `CALLN` part: the name and the index of the next part.
    parts: Option<(StrId, u32)>,
}

/// A resumable execution over one module, bound to it: [`run`] refuses to
/// run a fiber on other code than the [`VerifiedModule`] it was started
/// on (another module, another program, or a [`crate::verify::LiveModule`]
/// changed since other than by appending functions), so the interpreter
/// can trust the verifier's proof about every frame's code.
///
/// ```
/// use animkit_vm::engine::interp::{run, Args, Bindings, Domain, Env, Fiber, Flow};
/// use animkit_vm::engine::isa::Op;
/// struct Nothing;
/// impl Domain for Nothing {
///     type Error = std::convert::Infallible;
///     fn op(&mut self, _: Op, _: Args<'_>, _: &Env<'_>) -> Result<Flow, Self::Error> {
///         Ok(Flow::Continue)
///     }
/// }
/// let a = animkit_vm::engine::sprite::doc_program();
/// let b = animkit_vm::engine::verify::verify(a.as_ref().clone().into_inner())?; // equal, verified apart
/// let mut fiber = Fiber::new(a.code(0).unwrap(), 0);
/// let err = run(&mut fiber, b.code(0).unwrap(), &mut Bindings::default(), &mut Nothing).unwrap_err();
/// assert_eq!(err.message, "this fiber was started on other code than it is run on");
/// assert!(fiber.is_finished());
/// # Ok::<(), animkit_vm::engine::verify::VerifyError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Fiber {
    /// The code the fiber was started on (`None`: never started).
    code: Option<CodeId>,
    frames: Vec<Frame>,
    regs: Vec<f64>,
    limits: Limits,
    /// Work charged to the current top-level call (or to the whole run).
    work: u64,
    /// Instructions executed since the fiber was created or restarted.
    instructions: u64,
}

impl Fiber {
    /// A fiber that will start at function `func` of `code`.
    pub fn new(code: VerifiedModule<'_>, func: FuncId) -> Fiber {
        let mut fiber = Fiber::default();
        fiber.restart(code, func);
        fiber
    }

    /// The limits in force.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Replaces the limits.
    pub fn with_limits(mut self, limits: Limits) -> Fiber {
        self.limits = limits;
        self
    }

    /// Work units charged so far to the current top-level call (with
    /// [`Limits::whole_run`]: to the whole run).
    pub fn work(&self) -> u64 {
        self.work
    }

    /// Instructions executed since the fiber was created or last
    /// restarted (every instruction counts one, whatever its work units):
    /// for counting tests, which guard what runs rather than how fast.
    pub fn instructions(&self) -> u64 {
        self.instructions
    }

    /// Forgets everything and starts over at `func` of `code`.
    pub fn restart(&mut self, code: VerifiedModule<'_>, func: FuncId) {
        let module = code.module();
        self.code = Some(code.id());
        self.work = 0;
        self.instructions = 0;
        self.frames.clear();
        self.regs.clear();
        let nregs = module.functions.get(func as usize).map_or(0, |f| f.nregs as usize);
        self.regs.resize(nregs, 0.0);
        self.frames.push(Frame { func, pc: 0, base: 0, parts: None });
    }

    /// True once the fiber has nothing left to run.
    pub fn is_finished(&self) -> bool {
        self.frames.is_empty()
    }

    /// Register `r` of the innermost frame (for tests and debuggers).
    pub fn reg(&self, r: u8) -> f64 {
        let base = self.frames.last().map_or(0, |f| f.base as usize);
        self.regs.get(base + r as usize).copied().unwrap_or(0.0)
    }
}

fn error(module: &Module, func: FuncId, pc: u32, message: String) -> RuntimeError {
    let position = module.functions.get(func as usize).and_then(|f| f.position(pc));
    RuntimeError { message, function: func, pc, position }
}

/// Runs `fiber` until it halts, suspends or fails. It runs verified code
/// only ([`VerifiedModule`], from [`crate::verify::Verified::code`] or a
/// [`crate::verify::LiveModule`]).
pub fn run<D: Domain>(
    fiber: &mut Fiber,
    code: VerifiedModule<'_>,
    bindings: &mut Bindings,
    domain: &mut D,
) -> Result<Exit, RuntimeError> {
    let (module, strings) = (code.module(), code.strings());
    let funcs = &module.functions;
    // Checked once per call of `run`, never per instruction: the fiber's
    // frames point into the very code the verifier passed. Every frame but
    // the first was pushed by a checked call; the first is where `restart`
    // pointed the fiber, checked here.
    if let Some(&first) = fiber.frames.first() {
        if fiber.code != Some(code.id()) {
            let top = fiber.frames.last().copied().unwrap_or(first);
            fiber.frames.clear();
            return Err(RuntimeError {
                message: "this fiber was started on other code than it is run on".into(),
                function: top.func,
                pc: top.pc,
                position: None,
            });
        }
        if funcs.get(first.func as usize).is_none() {
            fiber.frames.clear();
            return Err(error(module, first.func, 0, format!("call of missing function {}", first.func)));
        }
    }
    'frames: while let Some(frame) = fiber.frames.last().copied() {
        // Every frame's function exists (the check above, the `call` rule
        // for `CALL`, the checks of name-bound calls), and the fiber's
        // registers cover it (each frame was sized as it was pushed).
        let f = &funcs[frame.func as usize];
        let base = frame.base as usize;
        let mut pc = frame.pc;
        loop {
            // In range: a frame starts at 0 (`fallthrough`: a function has
            // an instruction) or resumes after a non-terminator, jumps land
            // inside the code (`jump`), and no instruction but a
            // terminator is last (`fallthrough`).
            let w = f.code[pc as usize];
            let at = pc;
            pc += 1;
            fiber.instructions += 1;
            // Every word's opcode is assigned (`opcode`).
            let op = w.verified_op();
            if fiber.frames.len() > 1 || fiber.limits.whole_run {
                fiber.work += 1;
                if fiber.work > fiber.limits.max_steps {
                    return Err(runaway(fiber, module, strings, domain));
                }
            } else {
                fiber.work = 0;
            }
            let r = |x: u8| base + x as usize;
            match op {
                Op::Nop => {}
                Op::Move => fiber.regs[r(w.a())] = fiber.regs[r(w.b())],
                Op::LoadK => fiber.regs[r(w.a())] = f.num(w.bx() as usize),
                Op::LoadKX => {
                    // The constant index is the next word's Ax (the verifier's
                    // `loadk` rule); that word is skipped.
                    let k = f.code[pc as usize].ax_field();
                    fiber.regs[r(w.a())] = f.num(k as usize);
                    pc += 1;
                }
                Op::ExtraArg => {}
                Op::LoadI => fiber.regs[r(w.a())] = w.sbx() as f64,
                Op::Add => fiber.regs[r(w.a())] = fiber.regs[r(w.b())] + fiber.regs[r(w.c())],
                Op::Sub => fiber.regs[r(w.a())] = fiber.regs[r(w.b())] - fiber.regs[r(w.c())],
                Op::Mul => fiber.regs[r(w.a())] = fiber.regs[r(w.b())] * fiber.regs[r(w.c())],
                Op::Div => fiber.regs[r(w.a())] = fiber.regs[r(w.b())] / fiber.regs[r(w.c())],
                Op::Neg => fiber.regs[r(w.a())] = -fiber.regs[r(w.b())],
                Op::Jmp => pc = (pc as i64 + w.sj_field() as i64) as u32,
                Op::Call => {
                    save_pc(fiber, pc);
                    // The callee exists (`call`).
                    let func = w.ax_field();
                    push_frame(fiber, module, base, f, (func, Some(&funcs[func as usize])), None, at)?;
                    continue 'frames;
                }
                Op::CallN => {
                    let name = f.num(w.ax_field() as usize) as StrId;
                    let name_text = strings.get(name as usize).map_or("", String::as_str);
                    save_pc(fiber, pc);
                    let Some(parts) = bindings.get(name) else {
                        let kind = domain.binding_kind();
                        return Err(error(module, frame.func, at, format!("no {kind} named `{name_text}`")));
                    };
                    if let Some(&first) = parts.first() {
                        // Bindings outlive a module (a script restarted on
                        // a new program keeps them): their functions are
                        // checked, once per call (by `push_frame`).
                        let callee = funcs.get(first as usize);
                        if let Err(mut e) = push_frame(fiber, module, base, f, (first, callee), Some((name, 1)), at) {
                            // Abandon the whole runaway call chain: resume
                            // after the outermost call.
                            fiber.frames.truncate(1);
                            e.message = format!(
                                "{} `{name_text}` nested more than {} invocations deep (unbounded recursion?)",
                                domain.binding_kind(),
                                fiber.limits.max_depth
                            );
                            return Err(e);
                        }
                        continue 'frames;
                    }
                }
                // `K[Ax]` names the binding, `K[Ax+1]` is the function.
                Op::Bind => {
                    let k = w.ax_field() as usize;
                    bindings.bind(f.num(k) as StrId, f.num(k + 1) as FuncId);
                }
                Op::BindPush => {
                    let k = w.ax_field() as usize;
                    bindings.push(f.num(k) as StrId, f.num(k + 1) as FuncId);
                }
                Op::Declare => bindings.declare(f.num(w.ax_field() as usize) as StrId),
                Op::Forget => {
                    bindings.clear();
                }
                Op::Ret => {
                    if let Some(next) = next_part(fiber, bindings) {
                        // A binding's function: checked (see `CALLN`).
                        let Some(part) = funcs.get(next.func as usize) else {
                            fiber.frames.clear();
                            return Err(error(module, next.func, 0, format!("call of missing function {}", next.func)));
                        };
                        fiber.regs.resize(next.base as usize + part.nregs as usize, 0.0);
                        let top = fiber.frames.len() - 1;
                        fiber.frames[top] = next;
                        continue 'frames;
                    }
                    pop_frame(fiber);
                    continue 'frames;
                }
                Op::Halt => {
                    fiber.frames.clear();
                    return Ok(Exit::Halted);
                }
                Op::Wait => {
                    save_pc(fiber, pc);
                    return Ok(Exit::Waiting(w.ax_field()));
                }
                // Every domain op, of whichever language (the verifier let
                // only this module's own through).
                sprite_ops!() | animator_ops!() | slap_ops!() => {
                    let info = op.info();
                    let values = if info.format == Format::R {
                        // The window R[A..A+len] of this frame (the verifier's
                        // `window` rule; an unverified one reads nothing).
                        let start = r(w.a());
                        fiber.regs.get(start..start + info.block.len()).unwrap_or(&[])
                    } else {
                        f.consts.get(w.ax_field() as usize..).unwrap_or(&[])
                    };
                    let args = Args::new(values, strings);
                    let budget = fiber.limits.max_steps.saturating_sub(fiber.work);
                    let env = Env { code, bindings, budget };
                    let result = domain.op(op, args, &env);
                    let work = domain.take_work();
                    if fiber.frames.len() > 1 || fiber.limits.whole_run {
                        // The op's row says what it costs; the domain adds
                        // what it ran besides (a measured macro).
                        let cost = crate::work::op_work(op, &args).saturating_add(work);
                        fiber.work = fiber.work.saturating_add(cost);
                    }
                    match result {
                        Ok(Flow::Continue) => {}
                        Ok(Flow::Suspend(v)) => {
                            save_pc(fiber, pc);
                            return Ok(Exit::Suspended(v));
                        }
                        Ok(Flow::Stop) => {
                            fiber.frames.clear();
                            return Ok(Exit::Stopped);
                        }
                        Err(e) => {
                            save_pc(fiber, pc);
                            return Err(error(module, frame.func, at, e.to_string()));
                        }
                    }
                }
            }
        }
    }
    Ok(Exit::Halted)
}

/// The error for a call that ran past [`Limits::max_steps`]: the whole call
/// chain is abandoned and the fiber resumes after the top-level call, which
/// the error points at.
fn runaway<D: Domain>(fiber: &mut Fiber, module: &Module, strings: &[String], domain: &D) -> RuntimeError {
    let max = fiber.limits.max_steps;
    let callee = fiber.frames.get(1).copied();
    // A whole-run budget stays spent; a per-call one starts again.
    if !fiber.limits.whole_run {
        fiber.work = 0;
    }
    if fiber.frames.len() <= 1 {
        // A whole-run budget spent at the entry level: nothing to resume.
        let (func, pc) = fiber.frames.last().map_or((0, 0), |f| (f.func, f.pc));
        fiber.frames.clear();
        return error(module, func, pc, format!("ran longer than {max} steps"));
    }
    fiber.frames.truncate(1);
    let entry = fiber.frames[0];
    let what = match callee {
        Some(Frame { parts: Some((name, _)), .. }) => {
            let text = strings.get(name as usize).map_or("", String::as_str);
            format!("{} `{text}`", domain.binding_kind())
        }
        Some(c) => format!("the call of function {}", c.func),
        None => "the call".to_string(),
    };
    error(
        module,
        entry.func,
        entry.pc.saturating_sub(1),
        format!("{what} ran longer than {max} steps (instructions, points and vertices drawn); it was stopped"),
    )
}

fn save_pc(fiber: &mut Fiber, pc: u32) {
    if let Some(top) = fiber.frames.last_mut() {
        top.pc = pc;
    }
}

/// Pushes a frame for `callee` (function `func`), called at `at` from the
/// running frame, whose registers start at `caller_base` and whose
/// function is `caller`; `None` for a missing callee (a stale binding: a
/// `CALL`'s callee exists).
fn push_frame(
    fiber: &mut Fiber,
    module: &Module,
    caller_base: usize,
    caller: &Function,
    (func, callee): (FuncId, Option<&Function>),
    parts: Option<(StrId, u32)>,
    at: u32,
) -> Result<(), RuntimeError> {
    if fiber.frames.len() > fiber.limits.max_depth {
        let f = fiber.frames.last().map_or(0, |c| c.func);
        return Err(error(
            module,
            f,
            at,
            format!("calls nested more than {} deep (unbounded recursion?)", fiber.limits.max_depth),
        ));
    }
    let Some(callee) = callee else {
        let f = fiber.frames.last().map_or(0, |c| c.func);
        return Err(error(module, f, at, format!("call of missing function {func}")));
    };
    let base = caller_base + caller.nregs as usize;
    fiber.regs.resize(base + callee.nregs as usize, 0.0);
    fiber.frames.push(Frame { func, pc: 0, base: base as u32, parts });
    Ok(())
}

/// After a `RET` from part k of a name-bound call, the frame for part k+1.
fn next_part(fiber: &Fiber, bindings: &Bindings) -> Option<Frame> {
    let top = fiber.frames.last()?;
    let (name, next) = top.parts?;
    let func = *bindings.get(name)?.get(next as usize)?;
    Some(Frame { func, pc: 0, base: top.base, parts: Some((name, next + 1)) })
}

fn pop_frame(fiber: &mut Fiber) {
    fiber.frames.pop();
}

#[cfg(test)]
mod tests {
    //! The generic arithmetic ops (first used by a compiler with SLAP's
    //! argument expressions) and register windows, on verified code.
    use super::*;
    use crate::isa::Insn;
    use crate::program::{ConstKind, Language, Program};
    use crate::verify::Verified;

    /// Records each domain op with the values it was handed.
    #[derive(Default)]
    struct Windows(Vec<(Op, Vec<f64>)>);

    impl Domain for Windows {
        type Error = std::convert::Infallible;
        fn op(&mut self, op: Op, args: Args<'_>, _env: &Env<'_>) -> Result<Flow, Self::Error> {
            self.0.push((op, args.raw().to_vec()));
            Ok(Flow::Continue)
        }
    }

    fn slap(functions: Vec<Function>) -> Verified<Program> {
        let module =
            Module { name: 0, language: Language::Slap, functions, states: vec![], entry: Some(0), source: None };
        let program = Program { strings: vec!["scene".into()], modules: vec![module] };
        crate::verify::verify(program).unwrap()
    }

    fn function(nregs: u8, consts: &[f64], code: Vec<Insn>) -> Function {
        Function {
            name: 0,
            nregs,
            code,
            consts: consts.to_vec(),
            kinds: vec![ConstKind::Num; consts.len()],
            lines: vec![],
        }
    }

    /// Runs the entry function to its end; the registers afterwards.
    fn registers(consts: &[f64], mut code: Vec<Insn>) -> Vec<f64> {
        let nregs = 8;
        code.extend([Insn::ax(Op::Wait, 1), Insn::abc(Op::Halt, 0, 0, 0)]);
        let program = slap(vec![function(nregs, consts, code)]);
        let m = program.code(0).unwrap();
        let mut fiber = Fiber::new(m, 0);
        let exit = run(&mut fiber, m, &mut Bindings::default(), &mut Windows::default());
        assert_eq!(exit, Ok(Exit::Waiting(1)));
        (0..nregs).map(|r| fiber.reg(r)).collect()
    }

    fn bits(v: &[f64]) -> Vec<u64> {
        v.iter().map(|x| x.to_bits()).collect()
    }

    #[test]
    fn loadk_and_arithmetic() {
        let r = registers(
            &[1.5, 0.25, 3.0],
            vec![
                Insn::abx(Op::LoadK, 0, 0),
                Insn::abx(Op::LoadK, 1, 1),
                Insn::abx(Op::LoadK, 2, 2),
                Insn::abc(Op::Add, 3, 0, 1),
                Insn::abc(Op::Sub, 4, 1, 0),
                Insn::abc(Op::Mul, 5, 0, 2),
                Insn::abc(Op::Div, 6, 1, 2),
                Insn::abc(Op::Neg, 7, 0, 0),
            ],
        );
        assert_eq!(bits(&r), bits(&[1.5, 0.25, 3.0, 1.75, -1.25, 4.5, 0.25 / 3.0, -1.5]));
    }

    #[test]
    fn operands_may_alias_the_destination() {
        // R0 := R0 + R0; R0 := R0 * R0; MOVE R1 R0; R1 := -R1.
        let r = registers(
            &[3.0],
            vec![
                Insn::abx(Op::LoadK, 0, 0),
                Insn::abc(Op::Add, 0, 0, 0),
                Insn::abc(Op::Mul, 0, 0, 0),
                Insn::abc(Op::Move, 1, 0, 0),
                Insn::abc(Op::Neg, 1, 1, 0),
                Insn::asbx(Op::LoadI, 2, -7),
            ],
        );
        assert_eq!(&r[..3], &[36.0, -36.0, -7.0]);
    }

    #[test]
    fn loadkx_reaches_constants_beyond_loadk() {
        let mut consts = vec![0.0; 70_000];
        consts[69_999] = -2.5;
        let r = registers(
            &consts,
            vec![
                Insn::abc(Op::LoadKX, 3, 0, 0),
                Insn::ax(Op::ExtraArg, 69_999),
                Insn::abx(Op::LoadK, 4, 65_535),
                Insn::ax(Op::ExtraArg, 69_999), // on its own: nothing
            ],
        );
        assert_eq!(&r[3..5], &[-2.5, 0.0]);
    }

    #[test]
    fn negative_zero_keeps_its_sign() {
        let r = registers(
            &[0.0, -1.0],
            vec![
                Insn::abx(Op::LoadK, 0, 0),
                Insn::abc(Op::Neg, 1, 0, 0),  // -0.0
                Insn::abc(Op::Move, 2, 1, 0), // MOVE copies the bits
                Insn::abx(Op::LoadK, 3, 1),   // -1
                Insn::abc(Op::Mul, 4, 0, 3),  // 0 * -1 = -0
                Insn::abc(Op::Add, 5, 1, 2),  // -0 + -0 = -0
                Insn::abc(Op::Add, 6, 1, 0),  // -0 + 0 = +0
                Insn::abc(Op::Sub, 7, 0, 0),  // 0 - 0 = +0
            ],
        );
        assert_eq!(bits(&r[1..]), bits(&[-0.0, -0.0, -1.0, -0.0, -0.0, 0.0, 0.0]));
    }

    #[test]
    fn division_by_zero_gives_infinities_and_nan() {
        let r = registers(
            &[1.0, 0.0, -1.0],
            vec![
                Insn::abx(Op::LoadK, 0, 0),
                Insn::abx(Op::LoadK, 1, 1),
                Insn::abx(Op::LoadK, 2, 2),
                Insn::abc(Op::Div, 3, 0, 1), // 1 / 0
                Insn::abc(Op::Div, 4, 2, 1), // -1 / 0
                Insn::abc(Op::Div, 5, 1, 1), // 0 / 0
                Insn::abc(Op::Neg, 6, 1, 0),
                Insn::abc(Op::Div, 6, 0, 6), // 1 / -0
                Insn::abc(Op::Sub, 7, 3, 3), // inf - inf
            ],
        );
        assert_eq!(&r[3..5], &[f64::INFINITY, f64::NEG_INFINITY]);
        assert!(r[5].is_nan());
        assert_eq!(r[6], f64::NEG_INFINITY);
        assert!(r[7].is_nan());
    }

    #[test]
    fn windows_are_the_registers_of_the_running_frame() {
        // Entry: R0..R2 := 1 2 3; CAMPOS R0..R2; CALL 1; SIZE R1..R2.
        // Function 1 (its registers start after the entry's 4): R0, R1 :=
        // 7, 8; CAMANGLES R0..R1.
        let entry = function(
            4,
            &[1.0, 2.0, 3.0],
            vec![
                Insn::abx(Op::LoadK, 0, 0),
                Insn::abx(Op::LoadK, 1, 1),
                Insn::abx(Op::LoadK, 2, 2),
                Insn::r(Op::CamPos, 0),
                Insn::ax(Op::Call, 1),
                Insn::r(Op::Size, 1),
                Insn::abc(Op::Halt, 0, 0, 0),
            ],
        );
        let callee = function(
            2,
            &[7.0, 8.0],
            vec![
                Insn::abx(Op::LoadK, 0, 0),
                Insn::abx(Op::LoadK, 1, 1),
                Insn::r(Op::CamAngles, 0),
                Insn::abc(Op::Ret, 0, 0, 0),
            ],
        );
        let program = slap(vec![entry, callee]);
        let m = program.code(0).unwrap();
        let mut fiber = Fiber::new(m, 0);
        let mut log = Windows::default();
        let exit = run(&mut fiber, m, &mut Bindings::default(), &mut log);
        assert_eq!(exit, Ok(Exit::Halted));
        assert_eq!(
            log.0,
            [(Op::CamPos, vec![1.0, 2.0, 3.0]), (Op::CamAngles, vec![7.0, 8.0]), (Op::Size, vec![2.0, 3.0])]
        );
        assert_eq!(fiber.instructions(), 11);
    }
}
