//! The Animator language's runtime semantics: a [`Machine`] gives meaning
//! to Animator's domain ops (transformations, pen, colormap, macro
//! measurement) and calls a [`Canvas`] with geometry in root coordinates.
//! [`AnimatorVm`] bundles a machine with a fiber and name bindings to run a
//! module.

pub mod canvas;
pub mod machine;
pub mod matrix;
mod measure;
pub mod record;

pub use canvas::{Canvas, DumpTarget, HAlign, HostResult, Pen, VAlign};
pub use machine::Machine;
pub use matrix::{Matrix, Point};

use crate::interp::{self, Bindings, Exit, Fiber, RuntimeError};
use crate::program::{FuncId, Module};

/// Runs Animator code: a machine (state + canvas), the macro bindings and
/// one fiber.
///
/// ```
/// use animkit_vm::animator::{AnimatorVm, record::{Call, Recorder}};
/// use animkit_vm::interp::Exit;
/// use animkit_vm::isa::{Insn, Op};
/// use animkit_vm::program::*;
/// let module = Module {
///     name: 0, language: Language::Animator, states: vec![], entry: Some(0), source: None,
///     functions: vec![Function {
///         name: 0,
///         code: vec![Insn::ax(Op::Echo, 0), Insn::abc(Op::Halt, 0, 0, 0)],
///         consts: vec![1.0], kinds: vec![ConstKind::Str], ..Function::default()
///     }],
/// };
/// let strings = ["main".to_string(), "hello".to_string()];
/// let mut vm = AnimatorVm::new(Recorder::default());
/// vm.start(&module, 0);
/// assert_eq!(vm.run(&module, &strings), Ok(Exit::Halted));
/// assert_eq!(vm.machine.canvas().calls, [Call::Echo("hello".into())]);
/// ```
#[derive(Debug)]
pub struct AnimatorVm<C> {
    /// Transformations, pen and the canvas.
    pub machine: Machine<C>,
    /// Macro bindings.
    pub bindings: Bindings,
    /// The running code.
    pub fiber: Fiber,
}

impl<C: Canvas> AnimatorVm<C> {
    /// A VM with nothing to run yet.
    pub fn new(canvas: C) -> AnimatorVm<C> {
        AnimatorVm { machine: Machine::new(canvas), bindings: Bindings::default(), fiber: Fiber::default() }
    }

    /// Points the fiber at function `func` of `module` (keeping the machine
    /// state and bindings).
    pub fn start(&mut self, module: &Module, func: FuncId) {
        self.fiber.restart(module, func);
    }

    /// Runs until the fiber halts, suspends, or an op fails. After an
    /// error the fiber is positioned after the failing command, so calling
    /// `run` again goes on with the rest of the program.
    pub fn run(&mut self, module: &Module, strings: &[String]) -> Result<Exit, RuntimeError> {
        interp::run(&mut self.fiber, module, strings, &mut self.bindings, &mut self.machine)
    }
}
