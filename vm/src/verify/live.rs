//! A module that changes while it runs (an Animator stream's): functions
//! come and go one at a time, each verified as it is installed, and the
//! string table is the caller's, checked in constant time whenever the
//! module is handed to the interpreter.

use super::proof::fresh_stamp;
use super::{Ctx, ModuleVerifier, ValueRule, VerifiedModule, VerifyError, value_rules, values_ok, verify_function};
use crate::isa::{Format, Insn, Op};
use crate::program::{ConstKind, FuncId, Function, Language, Module, StrId};

/// Most entry shapes a [`LiveModule`] remembers (the most recently used).
pub const MAX_SHAPES: usize = 64;

/// A shape matched at this index or further down the list is swapped to
/// the front (a stream's few hot shapes are then found within the first
/// few, without a move per command).
const SWAP_AT: usize = 4;

/// How [`LiveModule::set_entry`] checked the entries it was given.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EntryChecks {
    /// Verified in full.
    pub full: u64,
    /// Of a shape verified before: only the rules that read constant
    /// values were checked.
    pub values: u64,
}

/// What the verifier read of an entry that passed, but its constants'
/// values and its debug positions' lines and columns: an entry equal to
/// it in all of these passes every rule that does not read a constant's
/// value (see `values_ok`).
struct Shape {
    name: StrId,
    nregs: u8,
    code: Vec<Insn>,
    kinds: Vec<ConstKind>,
    line_pcs: Vec<u32>,
    /// The module's function count (the `call` and `Func` rules read it).
    functions: usize,
    /// The pcs of the domain ops with a constant block.
    blocks: Vec<u32>,
    /// Whether a constant is a string (the strings needed then depend on
    /// the values).
    strings: bool,
    /// What the constants' values must be; `None` when a block holds a
    /// point list (the blocks at `blocks` are then checked as the verifier
    /// does).
    rules: Option<Vec<(u32, ValueRule)>>,
    /// When it last matched or was added ([`LiveModule`]'s `tick`): the
    /// least recently used shape is the one dropped.
    used: u64,
}

impl Shape {
    fn of(m: &Module, f: &Function) -> Shape {
        let blocks = (0..f.code.len() as u32)
            .filter(|&pc| f.code[pc as usize].op().is_some_and(|op| op.info().format == Format::K));
        Shape {
            name: f.name,
            nregs: f.nregs,
            code: f.code.clone(),
            kinds: f.kinds.clone(),
            line_pcs: f.lines.iter().map(|e| e.pc).collect(),
            functions: m.functions.len(),
            blocks: blocks.collect(),
            strings: f.kinds.contains(&ConstKind::Str),
            rules: value_rules(m, f),
            used: 0,
        }
    }

    fn matches(&self, f: &Function, functions: usize) -> bool {
        // The first instruction (a command's op) tells most shapes apart.
        self.code.first() == f.code.first()
            && self.code.len() == f.code.len()
            && self.kinds.len() == f.kinds.len()
            && self.line_pcs.len() == f.lines.len()
            && self.nregs == f.nregs
            && self.name == f.name
            && self.functions == functions
            && self.code.iter().zip(&f.code).all(|(a, b)| a.0 == b.0)
            && self.kinds.iter().zip(&f.kinds).all(|(a, b)| a == b)
            && self.line_pcs.iter().zip(&f.lines).all(|(&pc, e)| pc == e.pc)
    }
}

/// A verified module built one function at a time: function 0 is the
/// entry (a stream's current command), the others are installed and
/// released (a stream's macros). Every function is verified as it comes
/// in, against the module as it is (its function count; string ids are
/// any), and remembers how many strings it needs; [`LiveModule::code`]
/// hands the module to the interpreter with a string table only when the
/// table holds them all.
///
/// The module keeps its identity (the code id a fiber is bound to, see
/// [`crate::interp::Fiber`]) while it only grows: [`LiveModule::install`]
/// appending a function. Every other change (a new entry, a released or
/// reused slot, renumbered strings) gives it a new one, so a fiber started
/// before is refused rather than resumed on changed code.
///
/// ```
/// use animkit_vm::engine::isa::{Insn, Op};
/// use animkit_vm::engine::program::{ConstKind, Function};
/// use animkit_vm::engine::verify::LiveModule;
/// let mut live = LiveModule::animator(0, None);
/// let echo = Function {
///     code: vec![Insn::ax(Op::Echo, 0), Insn::ax(Op::Halt, 0)],
///     consts: vec![1.0], kinds: vec![ConstKind::Str], ..Function::default()
/// };
/// live.set_entry(echo).unwrap();
/// let strings = ["<command>".to_string(), "hello".to_string()];
/// assert!(live.code(&strings).is_ok());
/// assert!(live.code(&strings[..1]).is_err(), "the ECHO's text is missing");
/// let bad = Function { code: vec![Insn::sj(Op::Jmp, -1)], ..Function::default() };
/// assert_eq!(live.set_entry(bad).unwrap_err().rule, "progress");
/// ```
pub struct LiveModule {
    module: Module,
    /// Per function: one more than the highest string id it uses.
    needs: Vec<u32>,
    /// The most any function but the entry needs.
    needs_rest: u32,
    /// Released slots, reused first.
    free: Vec<FuncId>,
    /// A `HALT` stub that stands in as the entry between
    /// [`LiveModule::take_entry`] and [`LiveModule::set_entry`], moved
    /// back and forth so that a command costs no allocation.
    halt: Function,
    verifier: ModuleVerifier,
    /// Shapes of entries that passed, at most [`MAX_SHAPES`], searched in
    /// order; each says when it was last used. A shape found far down is
    /// swapped to the front, the others stay where they are (moving the
    /// matched shape to the front on every hit, as before, cost a `memcpy`
    /// of the shapes before it for most of a stream's commands).
    shapes: Vec<Shape>,
    /// Counts the entries matched or added to `shapes`.
    tick: u64,
    /// Whether entries are matched against `shapes` at all.
    use_shapes: bool,
    checks: EntryChecks,
    /// The identity of the module as it is ([`VerifiedModule`]'s code
    /// id): renewed by every change but appending a function, so that a
    /// fiber started before a function it may be running was replaced is
    /// refused rather than resumed on other code.
    stamp: u64,
    /// Counts the changes under `stamp` (the stamp is drawn once, at
    /// creation: drawing a fresh one per change was an atomic operation per
    /// streamed command).
    generation: u64,
}

/// What a released slot holds: a function that returns at once.
fn stub(name: StrId, op: Op) -> Function {
    Function { name, code: vec![Insn::ax(op, 0)], ..Function::default() }
}

impl LiveModule {
    /// An Animator module named by string `name` (the caller's table),
    /// whose entry does nothing yet.
    pub fn animator(name: StrId, source: Option<String>) -> LiveModule {
        let module = Module {
            name,
            language: Language::Animator,
            functions: vec![stub(name, Op::Halt)],
            states: vec![],
            entry: Some(0),
            source,
        };
        let base = name.saturating_add(1);
        LiveModule {
            needs: vec![base],
            needs_rest: base,
            module,
            free: Vec::new(),
            halt: stub(name, Op::Halt),
            verifier: ModuleVerifier::default(),
            shapes: Vec::new(),
            tick: 0,
            use_shapes: true,
            checks: EntryChecks::default(),
            stamp: fresh_stamp(),
            generation: 0,
        }
    }

    /// A new identity: a function a fiber may be running changed.
    fn renew(&mut self) {
        self.generation += 1;
    }

    /// Whether [`LiveModule::set_entry`] may check an entry of a shape it
    /// verified before by the rules that read constant values alone (on by
    /// default; off, every entry is verified in full: for measuring what
    /// that costs). Either way the same entries pass, with the same errors.
    pub fn set_shape_cache(&mut self, on: bool) {
        self.use_shapes = on;
        if !on {
            self.shapes.clear();
        }
    }

    /// How the entries were checked so far.
    pub fn entry_checks(&self) -> EntryChecks {
        self.checks
    }

    /// The module as it is.
    pub fn module(&self) -> &Module {
        &self.module
    }

    /// The module with `strings` as its string table, if the table holds
    /// every string its functions use.
    pub fn code<'a>(&'a self, strings: &'a [String]) -> Result<VerifiedModule<'a>, VerifyError> {
        let need = self.needs_rest.max(self.needs[0]) as usize;
        if strings.len() < need {
            return Err(VerifyError {
                rule: "strings",
                module: Some(0),
                function: None,
                pc: None,
                message: format!("the module uses string {}, but the table has {}", need - 1, strings.len()),
            });
        }
        Ok(VerifiedModule::vouch(&self.module, strings, self.stamp, self.generation))
    }

    /// How many strings the module's functions use (the table given to
    /// [`LiveModule::code`] must hold at least this many).
    pub fn strings_needed(&self) -> usize {
        self.needs_rest.max(self.needs[0]) as usize
    }

    /// How many strings the functions other than the entry use.
    pub fn strings_kept(&self) -> usize {
        self.needs_rest as usize
    }

    /// Verifies `f` and makes it the entry (function 0). An entry of the
    /// same shape as one that passed before (the same code, constant
    /// kinds, register count, name and debug-position pcs, with the
    /// module's function count unchanged: a stream's `line` after a
    /// `line`) is checked by the rules that read constant values alone;
    /// the [`MAX_SHAPES`] most recent shapes are kept.
    pub fn set_entry(&mut self, f: Function) -> Result<(), VerifyError> {
        self.needs[0] = self.check_entry(&f)?;
        self.renew();
        let old = std::mem::replace(&mut self.module.functions[0], f);
        if self.is_halt_stub(&old) {
            self.halt = old;
        }
        Ok(())
    }

    /// Verifies `*f` and makes it the entry, as [`LiveModule::set_entry`],
    /// without moving a `Function` in or out: on success `*f` holds the
    /// entry it replaced (a stream lowers its next command into that one's
    /// buffers, in place). On an error the entry becomes a `HALT` and `*f`
    /// is left as it was.
    pub fn swap_entry(&mut self, f: &mut Function) -> Result<(), VerifyError> {
        self.renew();
        match self.check_entry(f) {
            Ok(need) => {
                self.needs[0] = need;
                std::mem::swap(&mut self.module.functions[0], f);
                Ok(())
            }
            Err(e) => {
                self.needs[0] = self.module.name.saturating_add(1);
                self.module.functions[0] = stub(self.module.name, Op::Halt);
                Err(e)
            }
        }
    }

    /// Whether `f` is a `HALT` stub of this module (the entry's stand-in).
    fn is_halt_stub(&self, f: &Function) -> bool {
        f.name == self.module.name && f.code.len() == 1 && f.code[0] == Insn::ax(Op::Halt, 0) && f.consts.is_empty()
    }

    /// The entry again, for building the next one in its buffers (the
    /// module's entry becomes a `HALT`).
    pub fn take_entry(&mut self) -> Function {
        self.renew();
        self.needs[0] = self.module.name.saturating_add(1);
        if !self.is_halt_stub(&self.halt) {
            self.halt = stub(self.module.name, Op::Halt);
        }
        let halt = std::mem::take(&mut self.halt);
        std::mem::replace(&mut self.module.functions[0], halt)
    }

    /// Verifies `f` and installs it in a free slot; its index.
    pub fn install(&mut self, f: Function) -> Result<FuncId, VerifyError> {
        let slot = self.free.last().copied().unwrap_or(self.module.functions.len() as FuncId);
        let need = self.check(slot as usize, &f)?;
        self.needs_rest = self.needs_rest.max(need);
        if self.free.pop().is_some() {
            // A released slot's function changes; appending changes none.
            self.renew();
            self.module.functions[slot as usize] = f;
            self.needs[slot as usize] = need;
        } else {
            self.module.functions.push(f);
            self.needs.push(need);
        }
        Ok(slot)
    }

    /// Frees function `id` (not the entry): it becomes a `RET`, and its
    /// slot is reused. Returns what it held.
    pub fn release(&mut self, id: FuncId) -> Option<Function> {
        let i = id as usize;
        if i == 0 || i >= self.module.functions.len() || self.free.contains(&id) {
            return None;
        }
        self.renew();
        let old = std::mem::replace(&mut self.module.functions[i], stub(self.module.name, Op::Ret));
        self.needs[i] = self.module.name.saturating_add(1);
        self.free.push(id);
        self.needs_rest = self.needs[1..].iter().copied().max().unwrap_or(0).max(self.module.name.saturating_add(1));
        Some(old)
    }

    /// Renumbers every string id the module holds (its name, and the names
    /// and string constants of its functions but the entry, which becomes
    /// a `HALT`) through `map`, for a caller compacting its string table.
    pub fn renumber_strings(&mut self, mut map: impl FnMut(StrId) -> StrId) {
        self.renew();
        self.module.name = map(self.module.name);
        self.module.functions[0] = stub(self.module.name, Op::Halt);
        let base = self.module.name.saturating_add(1);
        self.needs[0] = base;
        let mut rest = base;
        for (f, need) in self.module.functions.iter_mut().zip(&mut self.needs).skip(1) {
            f.name = map(f.name);
            let mut n = f.name.saturating_add(1);
            for (v, k) in f.consts.iter_mut().zip(&f.kinds) {
                if *k == ConstKind::Str {
                    let id = map(*v as StrId);
                    *v = id as f64;
                    n = n.max(id.saturating_add(1));
                }
            }
            *need = n.max(base);
            rest = rest.max(*need);
        }
        self.needs_rest = rest;
    }

    /// Checks `f` as the entry, through the shapes when it has a known
    /// one; the strings it needs.
    fn check_entry(&mut self, f: &Function) -> Result<u32, VerifyError> {
        let functions = self.module.functions.len();
        if self.use_shapes {
            if let Some(i) = self.shapes.iter().position(|s| s.matches(f, functions)) {
                let cx = Ctx { strings: &[], nstrings: usize::MAX, module: 0, function: Some(0) };
                let s = &self.shapes[i];
                if values_ok(&cx, &self.module, f, s.rules.as_deref(), &s.blocks, &mut self.verifier.scratch) {
                    self.checks.values += 1;
                    let need =
                        if s.strings { self.strings_of(f) } else { f.name.max(self.module.name).saturating_add(1) };
                    self.tick += 1;
                    self.shapes[i].used = self.tick;
                    if i >= SWAP_AT {
                        self.shapes.swap(0, i);
                    }
                    return Ok(need);
                }
            }
        }
        let need = self.check(0, f)?;
        self.checks.full += 1;
        if self.use_shapes {
            self.tick += 1;
            let shape = Shape { used: self.tick, ..Shape::of(&self.module, f) };
            if self.shapes.len() < MAX_SHAPES {
                self.shapes.push(shape);
            } else if let Some(lru) = self.shapes.iter_mut().min_by_key(|s| s.used) {
                *lru = shape;
            }
        }
        Ok(need)
    }

    /// Checks `f` as function `slot`; the strings it needs.
    fn check(&mut self, slot: usize, f: &Function) -> Result<u32, VerifyError> {
        let cx = Ctx { strings: &[], nstrings: usize::MAX, module: 0, function: Some(slot) };
        verify_function(&cx, &self.module, f, &mut self.verifier.scratch)?;
        Ok(self.strings_of(f))
    }

    /// One more than the highest string id `f` (a verified function) uses.
    fn strings_of(&self, f: &Function) -> u32 {
        let mut need = f.name.max(self.module.name).saturating_add(1);
        for (v, k) in f.consts.iter().zip(&f.kinds) {
            if *k == ConstKind::Str {
                // A whole number below the table's length (`strings`).
                need = need.max((*v as u32).saturating_add(1));
            }
        }
        need
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::LineEntry;
    use proptest::prelude::*;

    /// Code of a few fixed skeletons (so that shapes repeat), each over
    /// constants 0.. (any values): one-command chunks of a stream, a call,
    /// a register op, a loop.
    fn skeleton(i: u8) -> (Vec<Insn>, u8) {
        let halt = Insn::ax(Op::Halt, 0);
        match i % 10 {
            0 => (vec![Insn::ax(Op::Line, 0), halt], 0),
            1 => (vec![Insn::ax(Op::FillCircle, 0), halt], 0),
            2 => (vec![Insn::ax(Op::Color, 0), halt], 0),
            3 => (vec![Insn::ax(Op::Poly, 0), halt], 0),
            4 => (vec![Insn::ax(Op::Echo, 0), Insn::ax(Op::Line, 1), halt], 0),
            5 => (vec![Insn::ax(Op::ViewportMacro, 0), Insn::ax(Op::Call, 1), halt], 0),
            6 => (vec![Insn::abx(Op::LoadK, 0, 0), Insn::ax(Op::Halt, 0)], 1),
            7 => (vec![Insn::ax(Op::ImgPoly, 0), halt], 0),
            8 => (vec![Insn::sj(Op::Jmp, -1)], 0),
            _ => (vec![Insn::ax(Op::Line, 0), Insn::ax(Op::Flush, 0), halt], 0),
        }
    }

    fn value() -> impl Strategy<Value = f64> {
        prop_oneof![
            Just(0.0),
            Just(1.0),
            Just(2.0),
            Just(12.0),
            Just(0.5),
            Just(-1.0),
            Just(1e9),
            Just(f64::NAN),
            Just(f64::INFINITY),
            -3.0..3.0f64,
        ]
    }

    #[derive(Debug, Clone)]
    enum Step {
        Entry { skeleton: u8, nregs_off: bool, consts: Vec<(f64, bool)>, lines: Vec<(u32, u32)> },
        Install,
    }

    fn step() -> impl Strategy<Value = Step> {
        prop_oneof![
            8 => (any::<u8>(), proptest::bool::weighted(0.1), proptest::collection::vec((value(), proptest::bool::weighted(0.1)), 0..12), proptest::collection::vec((0u32..4, 1u32..9), 0..3))
                .prop_map(|(skeleton, nregs_off, consts, lines)| Step::Entry { skeleton, nregs_off, consts, lines }),
            1 => Just(Step::Install),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]
        /// With the shapes, `set_entry` accepts exactly the entries the full
        /// verifier accepts, with the same errors, and the same strings
        /// needed; of a known shape it checks constant values only.
        #[test]
        fn shapes_agree_with_full_verification(steps in proptest::collection::vec(step(), 1..40)) {
            let mut cached = LiveModule::animator(0, None);
            let mut full = LiveModule::animator(0, None);
            full.set_shape_cache(false);
            let mut entries = 0;
            for s in steps {
                match s {
                    Step::Install => {
                        let f = Function { code: vec![Insn::ax(Op::Ret, 0)], ..Function::default() };
                        prop_assert_eq!(cached.install(f.clone()), full.install(f));
                    }
                    Step::Entry { skeleton: k, nregs_off, consts, lines } => {
                        let (code, nregs) = super::tests::skeleton(k);
                        let f = Function {
                            name: 0,
                            nregs: if nregs_off { nregs ^ 1 } else { nregs },
                            code,
                            consts: consts.iter().map(|&(v, string)| if string { v.abs().floor() } else { v }).collect(),
                            kinds: consts.iter().map(|c| if c.1 { ConstKind::Str } else { ConstKind::Num }).collect(),
                            lines: lines.iter().map(|&(pc, line)| LineEntry { pc, line, col: line }).collect(),
                        };
                        entries += 1;
                        let (a, b) = (cached.set_entry(f.clone()), full.set_entry(f));
                        prop_assert_eq!(&a, &b);
                        if a.is_ok() {
                            prop_assert_eq!(cached.strings_needed(), full.strings_needed());
                            let (x, y) = (&cached.module().functions[0], &full.module().functions[0]);
                            prop_assert_eq!(&x.code, &y.code);
                            let bits = |f: &Function| f.consts.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
                            prop_assert_eq!(bits(x), bits(y));
                        }
                    }
                }
            }
            let (c, f) = (cached.entry_checks(), full.entry_checks());
            prop_assert_eq!(f.values, 0);
            prop_assert!(f.full <= entries && c.full <= f.full);
            prop_assert_eq!(c.full + c.values, f.full);
        }
    }

    /// A chunk drawing `line x 0 1 1`.
    fn line(x: f64) -> Function {
        Function {
            code: vec![Insn::ax(Op::Line, 0), Insn::ax(Op::Halt, 0)],
            consts: vec![x, 0.0, 1.0, 1.0],
            kinds: vec![ConstKind::Num; 4],
            lines: vec![LineEntry { pc: 0, line: 1, col: 1 }],
            ..Function::default()
        }
    }

    /// The same shape twice is verified once; a different constant value
    /// that breaks a rule is refused with the full verifier's error.
    #[test]
    fn a_known_shape_checks_values_only() {
        let mut live = LiveModule::animator(0, None);
        live.set_entry(line(0.25)).unwrap();
        live.set_entry(line(0.5)).unwrap();
        assert_eq!(live.entry_checks(), EntryChecks { full: 1, values: 1 });
        let e = live.set_entry(line(f64::NAN)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "module 0, function 0, instruction 0: LINE: constant 0 is not a finite number [rule block]"
        );
        assert_eq!(live.entry_checks(), EntryChecks { full: 1, values: 1 });
        live.set_entry(line(0.75)).unwrap();
        assert_eq!(live.entry_checks(), EntryChecks { full: 1, values: 2 });
    }

    /// `swap_entry` installs a verified function and hands back the entry
    /// it replaced; a refused one is left as it was, and the entry becomes
    /// a `HALT`.
    #[test]
    fn swap_entry_hands_back_the_replaced_entry() {
        let mut live = LiveModule::animator(0, None);
        live.set_entry(line(0.25)).unwrap();
        let mut f = line(0.5);
        live.swap_entry(&mut f).unwrap();
        assert_eq!(f, line(0.25));
        assert_eq!(live.module().functions[0], line(0.5));
        let mut refused = line(f64::INFINITY);
        let e = live.swap_entry(&mut refused).unwrap_err();
        assert_eq!(
            e.to_string(),
            "module 0, function 0, instruction 0: LINE: constant 0 is not a finite number [rule block]"
        );
        assert_eq!(refused, line(f64::INFINITY));
        assert_eq!(live.module().functions[0], stub(0, Op::Halt));
        assert!(live.code(&["<command>".to_string()]).is_ok());
    }

    /// The [`MAX_SHAPES`] most recently used shapes are kept: a new shape
    /// when the list is full drops the least recently used one, whatever
    /// its place in the list.
    #[test]
    fn the_least_recently_used_shape_is_dropped() {
        let mut live = LiveModule::animator(0, None);
        // Shape `n`: a `HALT` over `n` constants.
        let shape = |n: usize| Function {
            code: vec![Insn::ax(Op::Halt, 0)],
            consts: vec![0.5; n],
            kinds: vec![ConstKind::Num; n],
            ..Function::default()
        };
        let checks = |live: &LiveModule| (live.entry_checks().full, live.entry_checks().values);
        for n in 0..MAX_SHAPES {
            live.set_entry(shape(n)).unwrap();
        }
        assert_eq!(checks(&live), (64, 0));
        // Used again, oldest first but for shape 1: shape 1 is now the
        // least recently used (shapes found far down are swapped to the
        // front, so the list's order is no longer the order of use).
        for n in (0..MAX_SHAPES).filter(|&n| n != 1) {
            live.set_entry(shape(n)).unwrap();
        }
        assert_eq!(checks(&live), (64, 63));
        live.set_entry(shape(MAX_SHAPES)).unwrap();
        assert_eq!(checks(&live), (65, 63), "a new shape, verified in full");
        live.set_entry(shape(0)).unwrap();
        live.set_entry(shape(MAX_SHAPES)).unwrap();
        assert_eq!(checks(&live), (65, 65), "shape 0 and the new one kept");
        live.set_entry(shape(1)).unwrap();
        assert_eq!(checks(&live), (66, 65), "shape 1 was dropped: verified in full again");
        // Shape 1 came back in place of shape 2 (the least recently used
        // then), every other shape is still known.
        for n in (0..=MAX_SHAPES).filter(|&n| n != 2) {
            live.set_entry(shape(n)).unwrap();
        }
        assert_eq!(checks(&live), (66, 65 + 64));
        live.set_entry(shape(2)).unwrap();
        assert_eq!(checks(&live), (67, 129));
    }
}
