//! The verifier: a complete pass over a decoded program whose success is
//! the interpreter's only precondition (as WebAssembly validation is). A
//! verified program cannot make the VM index out of bounds, jump outside
//! its code, read a missing register, constant or string, or spin forever
//! inside one activation.
//!
//! Rules, one test each in `vm/tests/verify_rules.rs` (every row of this
//! table, every part of a row). The verifier runs in time linear in the
//! size of the program (no rule is checked by a nested scan), so a hostile
//! bundle cannot make loading slow.
//!
//! | rule | what must hold |
//! | --- | --- |
//! | `strings` | every string id (module, function, state and category names, string constants, `EVENT` operands) is below the string table's length |
//! | `module-shape` | a sprite module has exactly one function, no entry function and 1 to [`crate::limits::MAX_STATES`] states; an Animator or SLAP module has an entry function below its function count and no states |
//! | `state-entry` | every state's entry is an instruction of function 0; state names are unique in a module |
//! | `consts` | a function has as many constant kinds as constants |
//! | `lines` | debug positions are sorted by pc and point inside the code |
//! | `opcode` | every instruction's low byte is an assigned opcode |
//! | `op-class` | a module uses only generic ops and those of its own language (sprite, Animator or SLAP, `crate::isa::OpClass::of`); sprite code uses no registers, calls or bindings (only `NOP JMP WAIT HALT` of the generic ops: the rows flagged `crate::isa::Props::SPRITE_CODE`) |
//! | `unused-bits` | operand bits the format does not use are zero |
//! | `registers` | register operands are below the function's register count |
//! | `window` | a register-window op's window `R[A..A+len]` (`len` from its signature, `crate::isa::Format::R`) lies inside the function's registers |
//! | `loadk` | `LOADK`'s constant exists and is a number; a `LOADKX` is followed by an `EXTRAARG` whose `Ax` names such a constant |
//! | `jump` | jump targets are instructions of the same function |
//! | `call` | `CALL` names an existing function of the module |
//! | `wait` | `WAIT` waits at least one tick |
//! | `enter` | `ENTER` names an existing state |
//! | `block` | a domain op's constant block lies inside the pool and matches its signature (`crate::isa::Arg`): `Num`s are finite; `UInt`s are whole and in `0..=i32::MAX`; `Max(n)`s are whole and in `0..=n` (sizes and counts of [`crate::limits`]: window and image sides, circle vertices, dash patterns, alignments, characters, cursor hot spots); `Bool`s are 0 or 1; `Str`s are string constants; `Func`s are function indices of the module; a `Points` count is whole, at most [`crate::limits::MAX_POINTS`], and followed by that many pairs of finite numbers |
//! | `fallthrough` | a function has at least one instruction, and execution can never run past the last one |
//! | `progress` | every cycle of the control-flow graph passes through a `WAIT` |

use crate::isa::{Arg, Format, Insn, MAX_AX, Op, OpClass, Props, animator_ops, register_non_ax_ops, slap_ops};
use crate::limits::{MAX_POINTS, MAX_STATES};
use crate::program::{CodeForm, ConstKind, Function, Language, Module, Program};
use std::collections::HashSet;
use std::fmt;

mod info;
mod live;
mod proof;

pub use info::ModuleInfo;
pub use live::{EntryChecks, LiveModule, MAX_SHAPES};
pub(crate) use proof::CodeId;
pub use proof::{Verified, VerifiedModule};

/// A broken verifier rule and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyError {
    /// The rule's name from the table in this module's documentation.
    pub rule: &'static str,
    /// Module index.
    pub module: Option<usize>,
    /// Function index within the module.
    pub function: Option<usize>,
    /// Instruction index within the function.
    pub pc: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.module {
            write!(f, "module {m}")?;
            if let Some(func) = self.function {
                write!(f, ", function {func}")?;
            }
            if let Some(pc) = self.pc {
                write!(f, ", instruction {pc}")?;
            }
            f.write_str(": ")?;
        }
        write!(f, "{} [rule {}]", self.message, self.rule)
    }
}

impl std::error::Error for VerifyError {}

pub(crate) struct Ctx<'p> {
    strings: &'p [String],
    /// How many string ids are valid: the table's length, or every id for
    /// a [`LiveModule`]'s function, whose string needs are checked against
    /// the table when it runs.
    nstrings: usize,
    module: usize,
    function: Option<usize>,
}

impl Ctx<'_> {
    fn err(&self, rule: &'static str, pc: Option<usize>, message: String) -> VerifyError {
        VerifyError { rule, module: Some(self.module), function: self.function, pc, message }
    }

    fn string(&self, id: u32, what: &str) -> Result<(), VerifyError> {
        if (id as usize) < self.nstrings {
            Ok(())
        } else {
            Err(self.err("strings", None, format!("{what} uses string {id}, but the table has {}", self.nstrings)))
        }
    }
}

/// Checks every rule in the table above.
///
/// ```
/// use animkit_vm::engine::program::*;
/// use animkit_vm::engine::isa::{Insn, Op};
/// use animkit_vm::engine::verify::verify_program;
/// let mut p = Program { strings: vec!["m".into(), "main".into()], modules: vec![] };
/// p.modules.push(Module {
///     name: 0, language: Language::Animator, states: vec![], entry: Some(0), source: None,
///     functions: vec![Function { name: 1, code: vec![Insn::sj(Op::Jmp, 5)], ..Function::default() }],
/// });
/// let err = verify_program(&p).unwrap_err();
/// assert_eq!(err.rule, "jump");
/// ```
pub fn verify_program(program: &Program) -> Result<(), VerifyError> {
    let mut verifier = ModuleVerifier::default();
    for (mi, module) in program.modules.iter().enumerate() {
        verifier.verify(&program.strings, mi, module)?;
    }
    Ok(())
}

/// Checks every rule in the table above and, when they hold, returns the
/// program as [`Verified`]: what the interpreters and game types take.
///
/// ```
/// use animkit_vm::engine::program::*;
/// use animkit_vm::engine::isa::{Insn, Op};
/// use animkit_vm::engine::verify::verify;
/// let mut p = Program { strings: vec!["m".into(), "main".into()], modules: vec![] };
/// p.modules.push(Module {
///     name: 0, language: Language::Animator, states: vec![], entry: Some(0), source: None,
///     functions: vec![Function { name: 1, code: vec![Insn::ax(Op::Halt, 0)], ..Function::default() }],
/// });
/// let verified = verify(p.clone()).unwrap();
/// assert_eq!(*verified, p);
/// p.modules[0].functions[0].code[0] = Insn::sj(Op::Jmp, 5);
/// assert_eq!(verify(p).unwrap_err().rule, "jump");
/// ```
pub fn verify(program: Program) -> Result<Verified<Program>, VerifyError> {
    let mut verifier = ModuleVerifier::default();
    for (mi, module) in program.modules.iter().enumerate() {
        verifier.verify(&program.strings, mi, module)?;
    }
    // Every module passed, in order.
    Ok(Verified::vouch(program, verifier.infos))
}

/// [`verify_program`] one module at a time, for the loader: it checks each
/// module as soon as it is decoded, while its code is still in the cache.
/// The rules and the messages are the same; a module's rules need only the
/// string table besides the module itself.
#[derive(Default)]
pub(crate) struct ModuleVerifier {
    scratch: Scratch,
    /// Modules `0..passed` passed, in order.
    passed: usize,
    /// What the verifier learnt of each of them.
    infos: Vec<ModuleInfo>,
}

impl ModuleVerifier {
    /// Checks module `mi` of a program whose string table is `strings`.
    pub(crate) fn verify(&mut self, strings: &[String], mi: usize, module: &Module) -> Result<(), VerifyError> {
        let mut cx = Ctx { strings, nstrings: strings.len(), module: mi, function: None };
        let info = verify_module(&mut cx, module, &mut self.scratch)?;
        if mi == self.passed {
            self.passed += 1;
            self.infos.push(info);
        }
        Ok(())
    }

    /// The program whose modules [`ModuleVerifier::verify`] passed one by
    /// one, in order, as [`Verified`]; `None` if some module was not.
    pub(crate) fn seal(self, program: Program) -> Option<Verified<Program>> {
        (self.passed == program.modules.len()).then(|| Verified::vouch(program, self.infos))
    }
}

/// The verifier's working tables, allocated once per program and reused
/// by every module and function: verifying allocates a handful of times
/// however many functions and instructions there are.
#[derive(Default)]
pub(crate) struct Scratch {
    /// The JMPs and ENTERs of the sprite code being checked, in order.
    jumps: Vec<u32>,
    /// Three-colour marking of the progress check.
    colour: Vec<u8>,
    /// The chain being followed by the progress check.
    path: Vec<usize>,
    /// A module's state names, sorted to find repeats.
    names: Vec<u32>,
    /// [`finite_runs`] of the function being verified.
    runs: Vec<u32>,
    /// The resume points of the sprite code just verified (the pc after
    /// each `WAIT`), for its [`ModuleInfo`].
    resume: Vec<u32>,
}

fn verify_module(cx: &mut Ctx<'_>, m: &Module, scratch: &mut Scratch) -> Result<ModuleInfo, VerifyError> {
    cx.string(m.name, "the module name")?;
    match m.language.code() {
        CodeForm::Sprite => {
            if m.functions.len() != 1 || m.entry.is_some() || m.states.is_empty() || m.states.len() > MAX_STATES {
                return Err(cx.err(
                    "module-shape",
                    None,
                    format!(
                        "a sprite module needs exactly one function, no entry function and 1 to {MAX_STATES} states (has {} functions, {} states)",
                        m.functions.len(),
                        m.states.len()
                    ),
                ));
            }
        }
        CodeForm::Register => {
            let ok = m.entry.is_some_and(|e| (e as usize) < m.functions.len()) && m.states.is_empty();
            if !ok {
                return Err(cx.err(
                    "module-shape",
                    None,
                    format!("a {} module needs an entry function below its function count and no states", m.language),
                ));
            }
        }
    }
    let code_len = m.functions.first().map_or(0, |f| f.code.len());
    // Sorting finds whether any name repeats in n log n; only then does the
    // loop below look for the first repeat (a bundle may hold many states).
    let has_dup_names = {
        let names = &mut scratch.names;
        names.clear();
        names.extend(m.states.iter().map(|s| s.name));
        names.sort_unstable();
        names.windows(2).any(|w| w[0] == w[1])
    };
    let mut seen = HashSet::new();
    for (si, s) in m.states.iter().enumerate() {
        cx.string(s.name, "a state name")?;
        cx.string(s.category, "a state category")?;
        if s.entry as usize >= code_len {
            return Err(cx.err(
                "state-entry",
                None,
                format!("state {si} enters at {} outside code of {code_len}", s.entry),
            ));
        }
        if has_dup_names && !seen.insert(s.name) {
            return Err(cx.err(
                "state-entry",
                None,
                format!("state name `{}` appears twice", cx.strings.get(s.name as usize).map_or("", String::as_str)),
            ));
        }
    }
    for (fi, f) in m.functions.iter().enumerate() {
        cx.function = Some(fi);
        verify_function(cx, m, f, scratch)?;
    }
    cx.function = None;
    // A sprite module's one function was verified last: `scratch.resume`
    // holds its resume points (one allocation, of their exact number).
    let resume_points = if m.language.code() == CodeForm::Sprite { scratch.resume[..].into() } else { Box::default() };
    // A timeline module's (SLAP's) last time point (its entry exists:
    // `module-shape`).
    let entry_waits = match (m.language.timeline(), m.entry.and_then(|e| m.functions.get(e as usize))) {
        (true, Some(f)) => f.code.iter().filter(|w| w.op() == Some(Op::Wait)).map(|w| w.ax_field() as u64).sum(),
        _ => 0,
    };
    Ok(ModuleInfo { resume_points, entry_waits })
}

/// What [`verify_block`] requires of one constant's value, for a block
/// whose layout does not depend on values (no point list).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum ValueRule {
    /// A finite number (`Num`).
    Finite,
    /// A whole number in `0..=max` (`UInt`, `Max`, `Bool`, `Func`).
    Whole(f64),
    /// A string id: whole, not negative, below the table's length (every
    /// string constant, block or not).
    String,
}

/// The value rules of `f`'s constants (index, rule), for the constants
/// a rule of [`verify_function`] reads the value of: every string
/// constant and every constant of a domain op's block. `None` when a
/// block holds a point list (whose count places the rest: `values_ok`
/// then runs [`verify_block`] itself). `f` passed [`verify_function`].
pub(crate) fn value_rules(m: &Module, f: &Function) -> Option<Vec<(u32, ValueRule)>> {
    let mut rules = Vec::new();
    for (k, kind) in f.kinds.iter().enumerate() {
        if *kind == ConstKind::Str {
            rules.push((k as u32, ValueRule::String));
        }
    }
    for w in &f.code {
        let Some(info) = w.op().map(Op::info).filter(|i| i.format == Format::K) else { continue };
        let mut k = w.ax_field();
        for arg in info.block {
            let rule = match arg {
                Arg::Num => ValueRule::Finite,
                Arg::Bool => ValueRule::Whole(1.0),
                Arg::Func => ValueRule::Whole(m.functions.len() as f64 - 1.0),
                Arg::Max(n) => ValueRule::Whole(*n as f64),
                Arg::UInt => ValueRule::Whole(i32::MAX as f64),
                // The kind (`Str`) is the shape's; the value's rule is
                // that of every string constant, above.
                Arg::Str => {
                    k += 1;
                    continue;
                }
                Arg::Points => return None,
            };
            rules.push((k, rule));
            k += 1;
        }
    }
    Some(rules)
}

/// The rules of [`verify_function`] that read constant values, for a
/// function whose every other part (name, register count, code, constant
/// kinds, the pcs of its debug positions, the module's function count) is
/// that of a function that passed them all: the constant count, then
/// `rules` (from [`value_rules`]) or, where a block holds a point list,
/// string constants and [`verify_block`] at the pcs `blocks`. Only says
/// yes or no; on no, the caller runs [`verify_function`] for the error.
pub(crate) fn values_ok(
    cx: &Ctx<'_>,
    m: &Module,
    f: &Function,
    rules: Option<&[(u32, ValueRule)]>,
    blocks: &[u32],
    scratch: &mut Scratch,
) -> bool {
    if f.kinds.len() != f.consts.len() {
        return false;
    }
    if let Some(rules) = rules {
        return rules.iter().all(|&(k, rule)| {
            let Some(&v) = f.consts.get(k as usize) else { return false };
            match rule {
                ValueRule::Finite => v.is_finite(),
                ValueRule::Whole(max) => v.is_finite() && v.fract() == 0.0 && v >= 0.0 && v <= max,
                ValueRule::String => v.fract() == 0.0 && v >= 0.0 && v < cx.nstrings as f64,
            }
        });
    }
    for (v, k) in f.consts.iter().zip(&f.kinds) {
        if *k == ConstKind::Str && (v.fract() != 0.0 || *v < 0.0 || *v >= cx.nstrings as f64) {
            return false;
        }
    }
    finite_runs(f, &mut scratch.runs);
    blocks.iter().all(|&pc| {
        let w = f.code[pc as usize];
        match w.op() {
            Some(op) => verify_block(cx, m, f, &scratch.runs, pc as usize, op, w.ax_field() as usize).is_ok(),
            None => false,
        }
    })
}

/// "a sprite", "an animator", "a slap": the language with its article.
fn article(language: Language) -> String {
    let name = language.name();
    let an = name.starts_with(['a', 'e', 'i', 'o', 'u']);
    format!("{} {name}", if an { "an" } else { "a" })
}

fn op_allowed(language: Language, op: Op) -> bool {
    match (language, op.info().class) {
        // The compact sprite interpreter has no registers, calls or
        // bindings: the rows say which generic ops it runs.
        (language, OpClass::Generic) if language.code() == CodeForm::Sprite => {
            op.info().props.contains(Props::SPRITE_CODE)
        }
        (_, OpClass::Generic) => true,
        (language, class) => class == OpClass::of(language),
    }
}

/// Successors of the instruction at `pc` (at most one: the ISA has no
/// conditional branches), `None` for terminators.
fn successor(m: &Module, f: &Function, pc: usize) -> Option<usize> {
    let w = f.code[pc];
    match w.op() {
        Some(Op::Jmp) => Some((pc as i64 + 1 + w.sj_field() as i64) as usize),
        // The EXTRAARG after it is its operand, not an instruction.
        Some(Op::LoadKX) => Some(pc + 2),
        Some(Op::Enter) => m.states.get(w.ax_field() as usize).map(|s| s.entry as usize),
        // The next instruction, unless the row ends the code (`RET`,
        // `HALT`, `QUIT`: the `ENDS` flag). The generic and sprite ops one
        // by one, so that a new one (a branch?) is a compile error here;
        // the domain classes by pattern, whose rows say whether they end.
        Some(
            op @ (Op::Nop
            | Op::Move
            | Op::LoadK
            | Op::LoadI
            | Op::Add
            | Op::Sub
            | Op::Mul
            | Op::Div
            | Op::Neg
            | Op::Call
            | Op::CallN
            | Op::Bind
            | Op::BindPush
            | Op::Declare
            | Op::Forget
            | Op::Ret
            | Op::Halt
            | Op::Wait
            | Op::ExtraArg
            | Op::Sprite
            | Op::Event
            | animator_ops!()
            | slap_ops!()),
        ) => (!op.info().props.contains(Props::ENDS)).then_some(pc + 1),
        // An unassigned byte (the `opcode` rule refuses it first).
        None => Some(pc + 1),
    }
}

fn verify_function(cx: &Ctx<'_>, m: &Module, f: &Function, scratch: &mut Scratch) -> Result<(), VerifyError> {
    cx.string(f.name, "the function name")?;
    if f.code.is_empty() {
        return Err(cx.err("fallthrough", None, "a function needs at least one instruction".into()));
    }
    if f.kinds.len() != f.consts.len() {
        return Err(cx.err(
            "consts",
            None,
            format!("{} constants but {} constant kinds", f.consts.len(), f.kinds.len()),
        ));
    }
    for (i, (v, k)) in f.consts.iter().zip(&f.kinds).enumerate() {
        if *k == ConstKind::Str && (v.fract() != 0.0 || *v < 0.0 || *v >= cx.nstrings as f64) {
            return Err(cx.err("strings", None, format!("string constant {i} names string {v}")));
        }
    }
    // Strictly increasing and below the code's length: each pair in order
    // (a branch-free pass), then the last one in range; the message names
    // the first entry that breaks either.
    let in_order = f.lines.windows(2).fold(true, |ok, w| ok & (w[0].pc < w[1].pc));
    if !in_order || f.lines.last().is_some_and(|e| e.pc as usize >= f.code.len()) {
        let mut last_pc = None;
        for e in &f.lines {
            if e.pc as usize >= f.code.len() || last_pc.is_some_and(|p| e.pc <= p) {
                return Err(cx.err("lines", None, format!("debug position for pc {} out of order or range", e.pc)));
            }
            last_pc = Some(e.pc);
        }
    }
    if m.language.code() == CodeForm::Sprite && sprite_code_ok(cx, m, f, scratch) {
        return Ok(());
    }
    finite_runs(f, &mut scratch.runs);
    for (pc, &w) in f.code.iter().enumerate() {
        verify_insn(cx, m, f, &scratch.runs, pc, w)?;
    }
    verify_control_flow(cx, m, f, scratch)?;
    if m.language.code() == CodeForm::Sprite {
        // The fast path agrees with the rules (its proptest), so this is
        // never reached for code that passes; the facts stay right anyway.
        scratch.resume.clear();
        let waits = f.code.iter().enumerate().filter(|(_, w)| w.op() == Some(Op::Wait));
        scratch.resume.extend(waits.map(|(pc, _)| pc as u32 + 1));
    }
    Ok(())
}

/// The same rules as [`verify_insn`] and [`verify_control_flow`] for sprite
/// code, in one pass over raw words with a successor function specialised
/// to the six sprite ops: bundles are mostly sprite code, and loading them
/// is dominated by this check. It only says yes or no; on no, the general
/// path runs and reports the first broken rule, so the errors are the same.
fn sprite_code_ok(cx: &Ctx<'_>, m: &Module, f: &Function, scratch: &mut Scratch) -> bool {
    let code = &f.code;
    let n = code.len();
    let (strings, states) = (cx.nstrings, m.states.len());
    // One pass over the words: each op's operand rule, and every edge
    // inside the code. A fall-through edge goes to `pc + 1`, so only the
    // last word may not fall through (it must be a JMP, ENTER or HALT).
    // Each arm is a flat test on the raw word; no table is built.
    const SPRITE: u8 = Op::Sprite as u8;
    const EVENT: u8 = Op::Event as u8;
    const WAIT: u8 = Op::Wait as u8;
    const NOP: u8 = Op::Nop as u8;
    const HALT: u8 = Op::Halt as u8;
    const ENTER: u8 = Op::Enter as u8;
    const JMP: u8 = Op::Jmp as u8;
    let mut falls_off = false;
    let jumps = &mut scratch.jumps;
    jumps.clear();
    // The pc after each WAIT: at most one per word, reserved up front so
    // that the loop never grows it.
    let resume = &mut scratch.resume;
    resume.clear();
    resume.reserve(n);
    for (pc, w) in code.iter().enumerate() {
        let ax = w.0 >> 8;
        let ok = match w.0 as u8 {
            SPRITE => {
                falls_off = true;
                true
            }
            EVENT => {
                falls_off = true;
                (ax as usize) < strings
            }
            WAIT => {
                falls_off = true;
                resume.push(pc as u32 + 1);
                ax != 0
            }
            NOP => {
                falls_off = true;
                ax == 0
            }
            HALT => {
                falls_off = false;
                ax == 0
            }
            ENTER => {
                falls_off = false;
                jumps.push(pc as u32);
                (ax as usize) < states && (m.states[ax as usize].entry as usize) < n
            }
            JMP => {
                falls_off = false;
                jumps.push(pc as u32);
                let t = pc as i64 + 1 + ((w.0 as i32) >> 8) as i64;
                0 <= t && t < n as i64
            }
            // A match over the raw byte, for speed, so it cannot list
            // every op: any other byte (a register, Animator or SLAP op,
            // an unassigned byte, a sprite-code op added later) makes the
            // fast path answer no, and the general path, which reads the
            // rows, decides. A new op needs no edit here to be verified
            // right.
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    if falls_off {
        return false;
    }
    // `progress`: every cycle passes through a WAIT. Only chains from JMPs
    // and ENTERs need following: every other edge goes from `pc` to
    // `pc + 1`, so every cycle holds one of them, and a chain that is done
    // was followed to its end, cycle or not. The successor is computed
    // from the word (every edge was checked above).
    let starts = scratch.jumps.iter().map(|&pc| pc as usize);
    let step = |pc: usize| {
        let w = code[pc].0;
        match w as u8 {
            WAIT | HALT => None,
            JMP => Some((pc as i64 + 1 + ((w as i32) >> 8) as i64) as usize),
            ENTER => Some(m.states[(w >> 8) as usize].entry as usize),
            // `SPRITE`, `EVENT`, `NOP`: the pass above let no other byte
            // through.
            _ => Some(pc + 1),
        }
    };
    cycle_without_wait(n, starts, step, &mut scratch.colour, &mut scratch.path).is_none()
}

/// The `progress` search: from each start, follows the chain of
/// instructions (`step` gives the next one, `None` where the chain stops:
/// at a `WAIT` or a terminator) with a three-colour marking, and returns
/// the instruction where a chain meets itself, if one does. Each node has
/// at most one successor, so the search is linear in `n`.
#[inline]
fn cycle_without_wait(
    n: usize,
    starts: impl Iterator<Item = usize>,
    step: impl Fn(usize) -> Option<usize>,
    colour: &mut Vec<u8>,
    path: &mut Vec<usize>,
) -> Option<usize> {
    const WHITE: u8 = 0;
    const ON_PATH: u8 = 1;
    const DONE: u8 = 2;
    colour.clear();
    colour.resize(n, WHITE);
    path.clear();
    for start in starts {
        let mut pc = start;
        loop {
            match colour[pc] {
                ON_PATH => return Some(pc),
                DONE => break,
                _ => {}
            }
            colour[pc] = ON_PATH;
            path.push(pc);
            match step(pc) {
                Some(next) => pc = next,
                None => break,
            }
        }
        for p in path.drain(..) {
            colour[p] = DONE;
        }
    }
    None
}

/// For each constant index `k`, how many constants from `k` on are finite
/// numbers in a row, so that a point list is checked in constant time
/// however many instructions share it.
fn finite_runs(f: &Function, runs: &mut Vec<u32>) {
    runs.clear();
    runs.resize(f.consts.len() + 1, 0);
    for k in (0..f.consts.len()).rev() {
        let finite = f.kinds.get(k) == Some(&ConstKind::Num) && f.consts[k].is_finite();
        runs[k] = if finite { runs[k + 1].saturating_add(1) } else { 0 };
    }
}

fn verify_insn(cx: &Ctx<'_>, m: &Module, f: &Function, runs: &[u32], pc: usize, w: Insn) -> Result<(), VerifyError> {
    let at = Some(pc);
    let op = w.op().ok_or_else(|| cx.err("opcode", at, format!("unknown opcode byte {:#04x}", w.op_byte())))?;
    let info = op.info();
    if !op_allowed(m.language, op) {
        return Err(cx.err("op-class", at, format!("{op} is not allowed in {} module", article(m.language))));
    }
    let reg = |r: u8| -> Result<(), VerifyError> {
        if r < f.nregs {
            Ok(())
        } else {
            Err(cx.err("registers", at, format!("{op} uses register {r}, the function has {}", f.nregs)))
        }
    };
    let unused = |mask: u32| -> Result<(), VerifyError> {
        if w.0 & mask == 0 {
            Ok(())
        } else {
            Err(cx.err("unused-bits", at, format!("{op} has bits set in operand fields it does not use")))
        }
    };
    match info.format {
        Format::None => unused(0xffff_ff00)?,
        Format::A => {
            unused(0xffff_0000)?;
            reg(w.a())?;
            if op == Op::LoadKX {
                let next = f.code.get(pc + 1).filter(|x| x.op() == Some(Op::ExtraArg));
                let Some(next) = next else {
                    return Err(cx.err("loadk", at, "LOADKX is not followed by an EXTRAARG".into()));
                };
                let k = next.ax_field() as usize;
                if f.kinds.get(k) != Some(&ConstKind::Num) {
                    return Err(cx.err(
                        "loadk",
                        at,
                        format!("{op} loads constant {k}, which is not a number constant"),
                    ));
                }
            }
        }
        Format::AB => {
            unused(0xff00_0000)?;
            reg(w.a())?;
            reg(w.b())?;
        }
        Format::ABC => {
            reg(w.a())?;
            reg(w.b())?;
            reg(w.c())?;
        }
        Format::ABx => {
            reg(w.a())?;
            let k = w.bx() as usize;
            if f.kinds.get(k) != Some(&ConstKind::Num) {
                return Err(cx.err("loadk", at, format!("{op} loads constant {k}, which is not a number constant")));
            }
        }
        Format::AsBx => reg(w.a())?,
        Format::SJ => {
            let target = pc as i64 + 1 + w.sj_field() as i64;
            if target < 0 || target >= f.code.len() as i64 {
                return Err(cx.err(
                    "jump",
                    at,
                    format!("jump to {target} outside code of {} instructions", f.code.len()),
                ));
            }
        }
        Format::Ax => {
            let ax = w.ax_field();
            debug_assert!(ax <= MAX_AX);
            // `Ax` names one of the module's `n` functions or states.
            let below = |rule: &'static str, n: usize, what: &str| -> Result<(), VerifyError> {
                if (ax as usize) < n {
                    Ok(())
                } else {
                    Err(cx.err(rule, at, format!("{op} {ax}: the module has {n} {what}")))
                }
            };
            match op {
                Op::Call => below("call", m.functions.len(), "functions")?,
                Op::Wait => {
                    if ax == 0 {
                        return Err(cx.err("wait", at, "WAIT 0 never waits".into()));
                    }
                }
                Op::Event => cx.string(ax, "EVENT")?,
                Op::Enter => below("enter", m.states.len(), "states")?,
                // Any 24 bits: a sprite index (the sheet is the host's),
                // the constant of the `LOADKX` before it (the `loadk` rule
                // checks it there).
                Op::Sprite | Op::ExtraArg => {}
                // Not `Ax` format: not reached. A new generic op is in no
                // pattern until one names it (a compile error here); no
                // Animator or SLAP op is `Ax`
                // (`every_ax_op_is_named_in_the_ax_rules`).
                Op::Nop | Op::Jmp | Op::Halt | register_non_ax_ops!() | animator_ops!() | slap_ops!() => {}
            }
        }
        Format::K => verify_block(cx, m, f, runs, pc, op, w.ax_field() as usize)?,
        Format::R => {
            unused(0xffff_0000)?;
            let (first, len) = (w.a() as usize, info.block.len());
            if first + len > f.nregs as usize {
                return Err(cx.err(
                    "window",
                    at,
                    format!(
                        "{op} reads registers {first}..={} (a window of {len}), the function has {}",
                        first + len - 1,
                        f.nregs
                    ),
                ));
            }
        }
    }
    Ok(())
}

fn verify_block(
    cx: &Ctx<'_>,
    m: &Module,
    f: &Function,
    runs: &[u32],
    pc: usize,
    op: Op,
    start: usize,
) -> Result<(), VerifyError> {
    let at = Some(pc);
    let mut k = start;
    let fail = |k: usize, what: &str| cx.err("block", at, format!("{op}: constant {k} {what}"));
    let num = |k: usize| -> Result<f64, VerifyError> {
        match (f.consts.get(k), f.kinds.get(k)) {
            (Some(v), Some(ConstKind::Num)) if v.is_finite() => Ok(*v),
            (Some(_), Some(ConstKind::Num)) => Err(fail(k, "is not a finite number")),
            (Some(_), _) => Err(fail(k, "should be a number")),
            _ => Err(fail(k, &format!("lies outside the pool of {}", f.consts.len()))),
        }
    };
    for arg in op.info().block {
        match arg {
            Arg::Num => {
                num(k)?;
                k += 1;
            }
            Arg::UInt | Arg::Max(_) | Arg::Bool | Arg::Func => {
                let v = num(k)?;
                let max = match arg {
                    Arg::Bool => 1.0,
                    Arg::Func => m.functions.len() as f64 - 1.0,
                    Arg::Max(n) => *n as f64,
                    _ => i32::MAX as f64,
                };
                if v.fract() != 0.0 || v < 0.0 || v > max {
                    return Err(fail(k, &format!("is {v}, not a whole number in 0..={max}")));
                }
                k += 1;
            }
            Arg::Str => {
                if f.kinds.get(k) != Some(&ConstKind::Str) {
                    return Err(fail(k, "should be a string"));
                }
                k += 1;
            }
            Arg::Points => {
                let n = num(k)?;
                if n.fract() != 0.0 || n < 0.0 || n > MAX_POINTS as f64 {
                    return Err(fail(k, &format!("is a point count of {n}, not a whole number in 0..={MAX_POINTS}")));
                }
                if n > (f.consts.len() / 2) as f64 {
                    return Err(fail(k, &format!("is a point count of {n}, more than the pool holds")));
                }
                k += 1;
                let need = 2 * n as usize;
                let run = runs.get(k).map_or(0, |&r| r as usize);
                if run < need {
                    // Name the first constant that is not a finite number.
                    num(k + run)?;
                }
                k += need;
            }
        }
    }
    Ok(())
}

fn verify_control_flow(cx: &Ctx<'_>, m: &Module, f: &Function, scratch: &mut Scratch) -> Result<(), VerifyError> {
    let n = f.code.len();
    for pc in 0..n {
        if let Some(next) = successor(m, f, pc) {
            if next >= n {
                return Err(cx.err("fallthrough", Some(pc), "execution can run past the last instruction".into()));
            }
        }
    }
    // Cycle detection on the graph whose edges leave every non-WAIT
    // instruction: a cycle there could run forever without suspending.
    let step = |pc: usize| if f.code[pc].op() == Some(Op::Wait) { None } else { successor(m, f, pc) };
    match cycle_without_wait(n, 0..n, step, &mut scratch.colour, &mut scratch.path) {
        Some(pc) => Err(cx.err(
            "progress",
            Some(pc),
            "a cycle of instructions without a WAIT could run forever within one tick".into(),
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::State;
    use proptest::prelude::*;

    /// The `Ax` rules above name every `Ax`-format op: a domain op of
    /// that format (whose class pattern the match takes as not reached)
    /// fails here until its `Ax` gets a rule.
    #[test]
    fn every_ax_op_is_named_in_the_ax_rules() {
        let ax: Vec<Op> = Op::ALL.iter().copied().filter(|op| op.info().format == Format::Ax).collect();
        assert_eq!(ax, [Op::Call, Op::Wait, Op::ExtraArg, Op::Sprite, Op::Event, Op::Enter]);
    }

    fn arb_word() -> impl Strategy<Value = Insn> {
        prop_oneof![
            (0u32..4).prop_map(|v| Insn::ax(Op::Sprite, v)),
            (0u32..5).prop_map(|v| Insn::ax(Op::Event, v)),
            (0u32..3).prop_map(|v| Insn::ax(Op::Wait, v)),
            (-6i32..6).prop_map(|v| Insn::sj(Op::Jmp, v)),
            (0u32..3).prop_map(|v| Insn::ax(Op::Enter, v)),
            Just(Insn(Op::Halt as u32)),
            Just(Insn(Op::Nop as u32)),
            Just(Insn(Op::Halt as u32 | 0x100)),
            Just(Insn::abc(Op::Add, 0, 0, 0)),
            Just(Insn(0xff)),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]
        /// The sprite fast path accepts exactly the code the general rules
        /// accept.
        #[test]
        fn sprite_fast_path_agrees(code in proptest::collection::vec(arb_word(), 1..12), entries in proptest::collection::vec(0u32..12, 1..3)) {
            let n = code.len() as u32;
            let program = Program {
                strings: vec!["m".into(), "s".into(), "e".into()],
                modules: vec![Module {
                    name: 0,
                    language: Language::Sprite,
                    functions: vec![Function { name: 0, code, ..Function::default() }],
                    states: entries.iter().enumerate().map(|(i, &e)| State { name: i as u32, category: 0, entry: e % n }).collect(),
                    entry: None,
                    source: None,
                }],
            };
            let m = &program.modules[0];
            let f = &m.functions[0];
            let cx = Ctx { strings: &program.strings, nstrings: program.strings.len(), module: 0, function: Some(0) };
            let mut scratch = Scratch::default();
            finite_runs(f, &mut scratch.runs);
            let runs = std::mem::take(&mut scratch.runs);
            let general = f.code.iter().enumerate().try_for_each(|(pc, &w)| verify_insn(&cx, m, f, &runs, pc, w))
                .and_then(|_| verify_control_flow(&cx, m, f, &mut scratch));
            prop_assert_eq!(sprite_code_ok(&cx, m, f, &mut scratch), general.is_ok(), "{:?}", general);
        }
    }
}
