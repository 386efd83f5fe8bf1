//! Running a compiled Animator module (from a bundle or a `.draw` file
//! compiled on the fly): the same VM and host calls as streaming the
//! script, including the timing of `sleep` and `flushdelay`.

use super::stream::Status;
use crate::report;
use animkit_vm::Program;
use animkit_vm::animator::{AnimatorVm, Canvas};
use animkit_vm::interp::Exit;
use std::io::Write;

/// A compiled Animator module being run on a canvas.
///
/// ```
/// use animkit_runtime::animator::{script::Script, stream::Status};
/// use animkit_vm::animator::record::{Call, Recorder};
/// let program = animkit_compiler::compile(&[animkit_compiler::Source::new("s.draw", "echo hi\n")], &Default::default()).unwrap();
/// let mut s = Script::new(program, 0, Recorder::default()).unwrap();
/// assert_eq!(s.run(&mut std::io::sink()), Status::Done);
/// assert_eq!(s.canvas().calls, [Call::Echo("hi".into())]);
/// ```
pub struct Script<C: Canvas> {
    program: Program,
    module: usize,
    vm: AnimatorVm<C>,
    file: String,
    errors: usize,
    done: Option<Status>,
}

impl<C: Canvas> Script<C> {
    /// Prepares module `module` of a verified program (it must be an
    /// Animator module with an entry function).
    pub fn new(program: Program, module: usize, canvas: C) -> Result<Script<C>, String> {
        let m = program.modules.get(module).ok_or("no such module")?;
        let entry = m.entry.ok_or_else(|| format!("module `{}` has no entry function", program.string(m.name)))?;
        let file = m.source.clone().unwrap_or_else(|| format!("{}.draw", program.string(m.name)));
        let mut vm = AnimatorVm::new(canvas);
        vm.start(m, entry);
        Ok(Script { program, module, vm, file, errors: 0, done: None })
    }

    /// The canvas.
    pub fn canvas(&self) -> &C {
        self.vm.machine.canvas()
    }

    /// The canvas, mutably.
    pub fn canvas_mut(&mut self) -> &mut C {
        self.vm.machine.canvas_mut()
    }

    /// Runtime errors reported so far.
    pub fn error_count(&self) -> usize {
        self.errors
    }

    /// Runs until the program ends, quits or suspends; errors are reported
    /// as one line each and the program goes on.
    pub fn run(&mut self, errors: &mut dyn Write) -> Status {
        if let Some(done) = self.done {
            return done;
        }
        let module = &self.program.modules[self.module];
        loop {
            match self.vm.run(module, &self.program.strings) {
                Ok(Exit::Suspended(s)) => return Status::Suspended(s),
                Ok(Exit::Stopped) => {
                    self.done = Some(Status::Quit);
                    return Status::Quit;
                }
                Ok(Exit::Halted | Exit::Waiting(_)) => {
                    self.done = Some(Status::Done);
                    return Status::Done;
                }
                Err(e) => {
                    self.errors += 1;
                    report::runtime_error(errors, &self.file, &e);
                }
            }
        }
    }
}
