//! A minimal assembler for hand-written SLAP programs, for tests, examples
//! and benchmarks (the compiler's lowering is the real producer): commands
//! are `LOADK`s (`LOADKX` beyond constant 65 535) of their arguments into
//! `R0`, `R1`, ... followed by their register-window op, time points are
//! `WAIT`s, and the result is a verified one-module [`Program`].
//!
//! ```
//! use animkit_vm::engine::isa::Op;
//! use animkit_vm::engine::slap::SceneAsm;
//! let mut asm = SceneAsm::new();
//! asm.op(Op::Action, &[1.0, 2.0]) // time 0: actor 1 action swagger
//!     .at(500)
//!     .op(Op::Action, &[1.0, 0.0]); // time 500: actor 1 action idle
//! let program = asm.finish("walk")?;
//! let text = animkit_vm::engine::disasm::disassemble(&program);
//! assert!(text.contains("ACTION      R0..R1"), "{text}");
//! assert!(text.contains("WAIT        500"), "{text}");
//! # Ok::<(), String>(())
//! ```

use crate::isa::{Format, Insn, MAX_AX, Op};
use crate::program::{ConstKind, Function, Language, LineEntry, Module, Program};
use crate::verify::Verified;
use std::collections::HashMap;

/// Builds the entry function of a SLAP module, instruction by instruction.
#[derive(Clone, Debug, Default)]
pub struct SceneAsm {
    code: Vec<Insn>,
    consts: Vec<f64>,
    /// Constant index by the bits of its value (each value is stored once).
    pool: HashMap<u64, usize>,
    lines: Vec<LineEntry>,
    nregs: usize,
    frame: u64,
}

impl SceneAsm {
    /// An empty scene at frame 0.
    pub fn new() -> SceneAsm {
        SceneAsm::default()
    }

    /// The frame the next command runs at.
    pub fn frame(&self) -> u64 {
        self.frame
    }

    /// Waits until `frame` (nothing if the scene is there or past it).
    pub fn at(&mut self, frame: u64) -> &mut SceneAsm {
        self.wait(frame.saturating_sub(self.frame))
    }

    /// Waits `frames` frames: one `WAIT` per [`MAX_AX`] frames or part.
    pub fn wait(&mut self, frames: u64) -> &mut SceneAsm {
        let mut left = frames;
        while left > 0 {
            let d = left.min(MAX_AX as u64);
            self.code.push(Insn::ax(Op::Wait, d as u32));
            left -= d;
        }
        self.frame += frames;
        self
    }

    /// Gives the instructions that follow the source position `line:col`
    /// (what a compiler keeps as debug info).
    pub fn line(&mut self, line: u32, col: u32) -> &mut SceneAsm {
        let pc = self.code.len() as u32;
        if self.lines.last().is_some_and(|e| e.pc == pc) {
            self.lines.pop();
        }
        self.lines.push(LineEntry { pc, line, col });
        self
    }

    /// The index of constant `value` in the pool, adding it if new.
    pub fn constant(&mut self, value: f64) -> usize {
        let next = self.consts.len();
        let k = *self.pool.entry(value.to_bits()).or_insert(next);
        if k == next {
            self.consts.push(value);
        }
        k
    }

    /// `R[r] := value`: a `LOADK`, or for constant 65 536 and beyond a
    /// `LOADKX` and its `EXTRAARG`.
    pub fn load(&mut self, r: u8, value: f64) -> &mut SceneAsm {
        let k = self.constant(value);
        match u16::try_from(k) {
            Ok(k) => self.insn(Insn::abx(Op::LoadK, r, k)),
            Err(_) => self.insn(Insn::abc(Op::LoadKX, r, 0, 0)).insn(Insn::ax(Op::ExtraArg, k as u32)),
        }
    }

    /// One command: [`load`](SceneAsm::load) each value into `R0`, `R1`,
    /// ..., then `op R0`.
    ///
    /// ```
    /// use animkit_vm::engine::isa::{Insn, Op};
    /// let mut asm = animkit_vm::engine::slap::SceneAsm::new();
    /// asm.op(Op::Size, &[3.0, 0.5]);
    /// let p = asm.finish("s").unwrap();
    /// let f = &p.modules[0].functions[0];
    /// assert_eq!(f.code[..3], [Insn::abx(Op::LoadK, 0, 0), Insn::abx(Op::LoadK, 1, 1), Insn::r(Op::Size, 0)]);
    /// assert_eq!(f.consts, [3.0, 0.5]);
    /// ```
    pub fn op(&mut self, op: Op, values: &[f64]) -> &mut SceneAsm {
        for (r, &v) in values.iter().enumerate() {
            self.load(r as u8, v);
        }
        self.insn(Insn::r(op, 0))
    }

    /// Any instruction (expression code: `LOADK`, `ADD`, ... `NEG`); the
    /// function gets as many registers as its operands and windows use.
    pub fn insn(&mut self, w: Insn) -> &mut SceneAsm {
        if let Some(op) = w.op() {
            let top = match op.info().format {
                Format::A | Format::ABx | Format::AsBx => w.a() as usize + 1,
                Format::AB => w.a().max(w.b()) as usize + 1,
                Format::ABC => w.a().max(w.b()).max(w.c()) as usize + 1,
                Format::R => w.a() as usize + op.info().block.len(),
                _ => 0,
            };
            self.nregs = self.nregs.max(top);
        }
        self.code.push(w);
        self
    }

    /// The program: module `name` (language SLAP) whose entry function is
    /// the code so far and a `HALT`, verified. An error names what is
    /// wrong: a verifier rule, more than 2^24 constants, or more than 255
    /// registers.
    pub fn finish(&self, name: &str) -> Result<Verified<Program>, String> {
        if self.consts.len() > MAX_AX as usize + 1 {
            return Err(format!("{} constants, more than LOADKX can address", self.consts.len()));
        }
        let nregs = u8::try_from(self.nregs).map_err(|_| format!("{} registers, more than 255", self.nregs))?;
        let mut code = self.code.clone();
        code.push(Insn::abc(Op::Halt, 0, 0, 0));
        let function = Function {
            name: 1,
            nregs,
            code,
            consts: self.consts.clone(),
            kinds: vec![ConstKind::Num; self.consts.len()],
            lines: self.lines.clone(),
        };
        let module = Module {
            name: 0,
            language: Language::Slap,
            functions: vec![function],
            states: vec![],
            entry: Some(0),
            source: None,
        };
        let program = Program { strings: vec![name.to_string(), "main".to_string()], modules: vec![module] };
        crate::verify::verify(program).map_err(|e| e.to_string())
    }
}
