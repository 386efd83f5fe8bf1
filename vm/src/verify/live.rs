//! A module that changes while it runs (an Animator stream's): functions
//! come and go one at a time, each verified as it is installed, and the
//! string table is the caller's, checked in constant time whenever the
//! module is handed to the interpreter.

use super::{Ctx, ModuleVerifier, VerifiedModule, VerifyError, verify_function};
use crate::isa::{Insn, Op};
use crate::program::{ConstKind, FuncId, Function, Language, Module, StrId};

/// A verified module built one function at a time: function 0 is the
/// entry (a stream's current command), the others are installed and
/// released (a stream's macros). Every function is verified as it comes
/// in, against the module as it is (its function count; string ids are
/// any), and remembers how many strings it needs; [`LiveModule::code`]
/// hands the module to the interpreter with a string table only when the
/// table holds them all.
///
/// ```
/// use animkit_vm::isa::{Insn, Op};
/// use animkit_vm::program::{ConstKind, Function};
/// use animkit_vm::verify::LiveModule;
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
        }
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
        Ok(VerifiedModule::vouch(&self.module, strings))
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

    /// Verifies `f` and makes it the entry (function 0).
    pub fn set_entry(&mut self, f: Function) -> Result<(), VerifyError> {
        self.needs[0] = self.check(0, &f)?;
        let old = std::mem::replace(&mut self.module.functions[0], f);
        if self.is_halt_stub(&old) {
            self.halt = old;
        }
        Ok(())
    }

    /// Whether `f` is a `HALT` stub of this module (the entry's stand-in).
    fn is_halt_stub(&self, f: &Function) -> bool {
        f.name == self.module.name && f.code.len() == 1 && f.code[0] == Insn::ax(Op::Halt, 0) && f.consts.is_empty()
    }

    /// The entry again, for building the next one in its buffers (the
    /// module's entry becomes a `HALT`).
    pub fn take_entry(&mut self) -> Function {
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

    /// Checks `f` as function `slot`; the strings it needs.
    fn check(&mut self, slot: usize, f: &Function) -> Result<u32, VerifyError> {
        let cx = Ctx { strings: &[], nstrings: usize::MAX, module: 0, function: Some(slot) };
        verify_function(&cx, &self.module, f, &mut self.verifier.scratch)?;
        let mut need = f.name.max(self.module.name).saturating_add(1);
        for (v, k) in f.consts.iter().zip(&f.kinds) {
            if *k == ConstKind::Str {
                // A whole number below the table's length (`strings`).
                need = need.max((*v as u32).saturating_add(1));
            }
        }
        Ok(need)
    }
}
