//! The Animator language's runtime semantics: a [`Machine`] gives meaning
//! to Animator's domain ops (transformations, pen, colormap, macro
//! measurement) and calls a [`Canvas`] with geometry in root coordinates.
//! [`AnimatorVm`] bundles a machine with a fiber and name bindings to run a
//! module.

pub mod canvas;
mod dispatch;
pub mod host_error;
pub mod machine;
pub mod matrix;
mod measure;
pub mod op_error;
pub mod record;

#[cfg(test)]
mod charge_tests;

pub use canvas::{Canvas, DumpTarget, HAlign, HostResult, Pen, VAlign};
pub use host_error::{HostError, Written};
pub use machine::Machine;
pub use matrix::{Matrix, Point};
pub use op_error::AnimatorOpError;

use crate::interp::{self, Bindings, Exit, Fiber, Limits, RuntimeError};
use crate::program::FuncId;
use crate::verify::VerifiedModule;
use machine::HostLimits;

/// Runs Animator code: a machine (state + canvas), the macro bindings and
/// one fiber, over verified code only.
///
/// ```
/// use animkit_vm::engine::animator::{AnimatorVm, record::{Call, Recorder}};
/// use animkit_vm::engine::interp::Exit;
/// use animkit_vm::engine::isa::{Insn, Op};
/// use animkit_vm::engine::program::*;
/// let module = Module {
///     name: 0, language: Language::Animator, states: vec![], entry: Some(0), source: None,
///     functions: vec![Function {
///         name: 0,
///         code: vec![Insn::ax(Op::Echo, 0), Insn::abc(Op::Halt, 0, 0, 0)],
///         consts: vec![1.0], kinds: vec![ConstKind::Str], ..Function::default()
///     }],
/// };
/// let strings = vec!["main".to_string(), "hello".to_string()];
/// let program = animkit_vm::engine::verify::verify(Program { strings, modules: vec![module] })?;
/// let code = program.code(0).unwrap();
/// let mut vm = AnimatorVm::new(Recorder::default());
/// vm.start(code, 0);
/// assert_eq!(vm.run(code), Ok(Exit::Halted));
/// assert_eq!(vm.canvas().calls, [Call::Echo("hello".into())]);
/// # Ok::<(), animkit_vm::engine::verify::VerifyError>(())
/// ```
///
/// Its state is private: a host changes it only through the methods below
/// (the bindings through [`AnimatorVm::bindings_mut`], which a stream
/// hands to its compiler), never by reaching into a field:
///
/// ```compile_fail,E0616
/// use animkit_vm::engine::animator::{AnimatorVm, record::Recorder};
/// let mut vm = AnimatorVm::new(Recorder::default());
/// let _ = &mut vm.bindings;
/// ```
/// ```compile_fail,E0616
/// use animkit_vm::engine::animator::{AnimatorVm, record::Recorder};
/// let mut vm = AnimatorVm::new(Recorder::default());
/// let _ = &mut vm.fiber;
/// ```
/// ```compile_fail,E0616
/// use animkit_vm::engine::animator::{AnimatorVm, record::Recorder};
/// let mut vm = AnimatorVm::new(Recorder::default());
/// let _ = &mut vm.machine;
/// ```
#[derive(Debug)]
pub struct AnimatorVm<C> {
    /// Transformations, pen and the canvas.
    machine: Machine<C>,
    /// Macro bindings.
    bindings: Bindings,
    /// The running code.
    fiber: Fiber,
}

impl<C: Canvas> AnimatorVm<C> {
    /// A VM with nothing to run yet.
    pub fn new(canvas: C) -> AnimatorVm<C> {
        AnimatorVm { machine: Machine::new(canvas), bindings: Bindings::default(), fiber: Fiber::default() }
    }

    /// Points the fiber at function `func` of `code` (keeping the machine
    /// state and bindings).
    pub fn start(&mut self, code: VerifiedModule<'_>, func: FuncId) {
        self.fiber.restart(code, func);
    }

    /// Runs until the fiber halts, suspends, or an op fails. After an
    /// error the fiber is positioned after the failing command, so calling
    /// `run` again goes on with the rest of the program.
    pub fn run(&mut self, code: VerifiedModule<'_>) -> Result<Exit, RuntimeError> {
        interp::run(&mut self.fiber, code, &mut self.bindings, &mut self.machine)
    }

    /// The machine: transformations, pen, colormap and the canvas.
    pub fn machine(&self) -> &Machine<C> {
        &self.machine
    }

    /// The canvas.
    pub fn canvas(&self) -> &C {
        self.machine.canvas()
    }

    /// The canvas, mutably (a window host feeds it input events).
    pub fn canvas_mut(&mut self) -> &mut C {
        self.machine.canvas_mut()
    }

    /// Ends the VM, giving its canvas back.
    pub fn into_canvas(self) -> C {
        self.machine.into_canvas()
    }

    /// Replaces the limits on what the program may hold on its host
    /// (areas, images, cursors).
    pub fn set_host_limits(&mut self, limits: HostLimits) {
        self.machine.host_limits = limits;
    }

    /// Replaces the interpreter's limits (call depth, work per command).
    pub fn set_limits(&mut self, limits: Limits) {
        self.fiber = std::mem::take(&mut self.fiber).with_limits(limits);
    }

    /// The fiber's limits.
    pub fn limits(&self) -> Limits {
        self.fiber.limits()
    }

    /// Instructions the fiber ran since it was last started.
    pub fn instructions(&self) -> u64 {
        self.fiber.instructions()
    }

    /// The macro bindings (name to functions, as `CALLN` finds them).
    pub fn bindings(&self) -> &Bindings {
        &self.bindings
    }

    /// The macro bindings, mutably (a stream's compiler binds the macros
    /// it defines).
    pub fn bindings_mut(&mut self) -> &mut Bindings {
        &mut self.bindings
    }
}
