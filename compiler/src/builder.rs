//! Building a [`Program`]: interned strings, functions with constants and
//! debug positions.

use crate::hash::FxHashMap;
use animkit_vm::engine::isa::Insn;
use animkit_vm::engine::program::{ConstKind, Function, LineEntry, Program, StrId};

/// A program under construction, with a string interner.
#[derive(Debug, Default)]
pub struct ProgramBuilder {
    program: Program,
    interned: FxHashMap<String, StrId>,
}

impl ProgramBuilder {
    /// An empty program.
    pub fn new() -> ProgramBuilder {
        ProgramBuilder::default()
    }

    /// The id of `s`, adding it to the string table the first time.
    pub fn intern(&mut self, s: &str) -> StrId {
        if let Some(&id) = self.interned.get(s) {
            return id;
        }
        let id = self.program.strings.len() as StrId;
        self.program.strings.push(s.to_string());
        self.interned.insert(s.to_string(), id);
        id
    }

    /// The program so far, mutably (to push modules).
    pub fn program_mut(&mut self) -> &mut Program {
        &mut self.program
    }

    /// The finished program.
    pub fn finish(self) -> Program {
        self.program
    }
}

/// One function under construction.
#[derive(Debug, Default)]
pub struct FunctionBuilder {
    f: Function,
    last_pos: Option<(u32, u32)>,
}

impl FunctionBuilder {
    /// An empty function named `name`.
    pub fn new(name: StrId) -> FunctionBuilder {
        FunctionBuilder { f: Function { name, ..Function::default() }, last_pos: None }
    }

    /// Empties the function, keeping its buffers, and names it `name`
    /// (streams lower one command at a time into the same allocation).
    pub fn reset(&mut self, name: StrId) {
        let f = &mut self.f;
        f.name = name;
        f.nregs = 0;
        f.code.clear();
        f.consts.clear();
        f.kinds.clear();
        f.lines.clear();
        self.last_pos = None;
    }

    /// The function built so far, in place (a stream verifies it and swaps
    /// it with the installed entry, whose buffers the next command reuses).
    pub fn function_mut(&mut self) -> &mut Function {
        &mut self.f
    }

    /// Makes room for `code` more instructions, `consts` more constants
    /// and `lines` more debug positions (a lowering that knows its sizes
    /// avoids growing them step by step).
    pub fn reserve(&mut self, code: usize, consts: usize, lines: usize) {
        self.f.code.reserve(code);
        self.f.consts.reserve(consts);
        self.f.kinds.reserve(consts);
        self.f.lines.reserve(lines);
    }

    /// Index of the next instruction.
    pub fn pc(&self) -> u32 {
        self.f.code.len() as u32
    }

    /// Appends an instruction at source position `pos` (line, column).
    #[inline]
    pub fn emit(&mut self, insn: Insn, pos: Option<(u32, u32)>) -> u32 {
        let pc = self.pc();
        if let Some(p) = pos {
            if self.last_pos != Some(p) {
                self.f.lines.push(LineEntry { pc, line: p.0, col: p.1 });
                self.last_pos = Some(p);
            }
        }
        self.f.code.push(insn);
        pc
    }

    /// Appends a number constant; returns its index.
    #[inline]
    pub fn num(&mut self, v: f64) -> u32 {
        self.f.consts.push(v);
        self.f.kinds.push(ConstKind::Num);
        self.f.consts.len() as u32 - 1
    }

    /// Appends a string constant; returns its index.
    #[inline]
    pub fn string(&mut self, id: StrId) -> u32 {
        self.f.consts.push(id as f64);
        self.f.kinds.push(ConstKind::Str);
        self.f.consts.len() as u32 - 1
    }

    /// Index the next constant will get.
    pub fn next_const(&self) -> u32 {
        self.f.consts.len() as u32
    }

    /// Sets the register count.
    pub fn set_nregs(&mut self, n: u8) {
        self.f.nregs = n;
    }

    /// Instructions plus constants so far (a measure of its memory).
    pub fn size(&self) -> usize {
        self.f.code.len() + self.f.consts.len()
    }

    /// A point to go back to with [`FunctionBuilder::rollback`].
    pub fn mark(&self) -> Mark {
        Mark {
            code: self.f.code.len(),
            consts: self.f.consts.len(),
            lines: self.f.lines.len(),
            last_pos: self.last_pos,
        }
    }

    /// Forgets everything emitted since `mark`.
    pub fn rollback(&mut self, mark: Mark) {
        self.f.code.truncate(mark.code);
        self.f.consts.truncate(mark.consts);
        self.f.kinds.truncate(mark.consts);
        self.f.lines.truncate(mark.lines);
        self.last_pos = mark.last_pos;
    }

    /// The finished function.
    pub fn finish(self) -> Function {
        self.f
    }
}

/// A state of a [`FunctionBuilder`] (see [`FunctionBuilder::mark`]).
#[derive(Clone, Copy, Debug)]
pub struct Mark {
    code: usize,
    consts: usize,
    lines: usize,
    last_pos: Option<(u32, u32)>,
}

#[cfg(test)]
mod examples {
    #[test]
    fn intern_returns_one_id_per_string() {
        let mut b = crate::builder::ProgramBuilder::new();
        let a = b.intern("walk");
        assert_eq!(b.intern("walk"), a);
    }

    #[test]
    fn reserve_adds_nothing() {
        let mut f = crate::builder::FunctionBuilder::new(0);
        f.reserve(10, 4, 2);
        assert_eq!(f.size(), 0);
    }

    #[test]
    fn rollback_forgets_what_followed_the_mark() {
        use crate::builder::FunctionBuilder;
        let mut f = FunctionBuilder::new(0);
        f.num(1.0);
        let m = f.mark();
        f.num(2.0);
        f.rollback(m);
        assert_eq!(f.size(), 1);
    }
}
