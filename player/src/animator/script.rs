//! Running a compiled Animator module (from a bundle or a `.draw` file
//! compiled on the fly): the same VM and host calls as streaming the
//! script, including the timing of `sleep` and `flushdelay`.

use crate::player_error::PlayerError;
use crate::report;
use animkit_vm::Program;
use animkit_vm::engine::animator::{AnimatorVm, Canvas};
use animkit_vm::engine::interp::Exit;
use animkit_vm::engine::program::Language;
use animkit_vm::engine::verify::Verified;
use std::io::Write;

/// What a running Animator program needs next (a [`Script`], and the
/// runtime's streams, `animkit_runtime::stream::Stream`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Status {
    /// Every complete command ran; push more input (or `finish`).
    NeedInput,
    /// A command (`sleep`, `flushdelay` in a window) asked to wait this many
    /// seconds; call `run` again afterwards.
    Suspended(f64),
    /// Input ended and every command ran.
    Done,
    /// `quit` ran.
    Quit,
}

/// A compiled Animator module being run on a canvas.
///
/// ```
/// use animkit_player::animator::script::{Script, Status};
/// use animkit_vm::engine::animator::record::{Call, Recorder};
/// let program = animkit_compiler::compile(&[animkit_compiler::Source::new("s.draw", "echo hi\n")], &Default::default()).unwrap();
/// let program = animkit_vm::engine::verify::verify(program).unwrap();
/// let mut s = Script::new(program, 0, Recorder::default()).unwrap();
/// assert_eq!(s.run(&mut std::io::sink()), Status::Done);
/// assert_eq!(s.canvas().calls, [Call::Echo("hi".into())]);
/// ```
pub struct Script<C: Canvas> {
    program: Verified<Program>,
    module: usize,
    vm: AnimatorVm<C>,
    file: String,
    errors: usize,
    done: Option<Status>,
}

impl<C: Canvas> Script<C> {
    /// Prepares module `module` of a verified program (it must be an
    /// Animator module with an entry function).
    pub fn new(program: Verified<Program>, module: usize, canvas: C) -> Result<Script<C>, PlayerError> {
        let code = program.code(module).ok_or_else(|| PlayerError::Module("no such module".into()))?;
        let m = code.module();
        let entry = m
            .entry
            .ok_or_else(|| PlayerError::Module(format!("module `{}` has no entry function", program.string(m.name))))?;
        let file = m.source.clone().unwrap_or_else(|| format!("{}.draw", program.string(m.name)));
        let mut vm = AnimatorVm::new(canvas);
        vm.start(code, entry);
        Ok(Script { program, module, vm, file, errors: 0, done: None })
    }

    /// Starts this script's module (by name) of `program`, a new build of
    /// its file, over from its first command on the same canvas, which
    /// keeps what it shows until the new run draws (`animvm --watch`).
    /// Runtime errors counted so far stay counted. If `program` has no
    /// such Animator module, this script is handed back (boxed) with the
    /// reason.
    ///
    /// ```
    /// use animkit_player::animator::script::{Script, Status};
    /// use animkit_vm::engine::animator::record::{Call, Recorder};
    /// let build = |text: &str| {
    ///     let program = animkit_compiler::compile(&[animkit_compiler::Source::new("s.draw", text)], &Default::default());
    ///     animkit_vm::engine::verify::verify(program.unwrap()).unwrap()
    /// };
    /// let mut s = Script::new(build("echo one\n"), 0, Recorder::default()).unwrap();
    /// assert_eq!(s.run(&mut std::io::sink()), Status::Done);
    /// let mut s = s.restart(build("echo two\n")).map_err(|e| e.1).unwrap();
    /// assert_eq!(s.run(&mut std::io::sink()), Status::Done);
    /// assert_eq!(s.canvas().calls, [Call::Echo("one".into()), Call::Echo("two".into())]);
    /// ```
    pub fn restart(self, program: Verified<Program>) -> Result<Script<C>, Box<(Script<C>, PlayerError)>> {
        let name = self.program.string(self.program.modules[self.module].name).to_string();
        let found = program.modules.iter().enumerate().find_map(|(i, m)| {
            let same = program.string(m.name) == name && m.language == Language::Animator;
            same.then_some(m.entry).flatten().map(|entry| (i, entry))
        });
        let Some((module, entry)) = found else {
            return Err(Box::new((
                self,
                PlayerError::Module(format!("the new build has no Animator module `{name}`")),
            )));
        };
        let mut vm = AnimatorVm::new(self.vm.into_canvas());
        if let Some(code) = program.code(module) {
            vm.start(code, entry);
        }
        Ok(Script { program, module, vm, file: self.file, errors: self.errors, done: None })
    }

    /// The canvas.
    pub fn canvas(&self) -> &C {
        self.vm.canvas()
    }

    /// The canvas, mutably.
    pub fn canvas_mut(&mut self) -> &mut C {
        self.vm.canvas_mut()
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
        let Some(code) = self.program.code(self.module) else { return Status::Done };
        loop {
            match self.vm.run(code) {
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
