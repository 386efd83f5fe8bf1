//! The scene player: a SLAP module of a loaded program, played frame by
//! frame.
//!
//! # Time model
//! Time is counted in frames. At frame f, every command timed f runs, in
//! source order, and then the frame's state is observed. The scene's code
//! is one fiber: its commands for frame 0, a `WAIT d` to the next time
//! point, that time point's commands, and so on. The player wakes the
//! fiber only when its `WAIT` expires, so a frame between two time points
//! runs no bytecode at all: its positions and poses are computed in closed
//! form when they are observed ([`crate::slap::stage`]). The cost of a frame
//! is therefore that of its own commands plus that of observing the actors,
//! whatever the length of the timeline.
//!
//! A scene's [`length`](SceneSim::length) is its last time point, the sum of
//! its `WAIT`s (the compiler adds a trailing `WAIT` when the last time
//! point has no command). Frames go on after it: the actors keep doing
//! what they were last told.
//!
//! # Errors
//! A command whose values are wrong (see [`crate::slap::domain`]) is
//! skipped with a [`SceneError`] and the scene goes on. Errors are kept
//! with their frame and, when the bundle kept debug info, their source
//! position (at most [`MAX_KEPT_ERRORS`]; [`SceneSim::error_count`] counts
//! them all).
//!
//! ```
//! use std::sync::Arc;
//! use animkit_vm::engine::isa::Op;
//! use animkit_vm::engine::slap::{Action, SceneAsm, SceneSim};
//! let mut asm = SceneAsm::new();
//! asm.op(Op::Position2, &[1.0, 0.0, 0.0]).op(Op::Action, &[1.0, 2.0]); // time 0: walk
//! asm.at(500).op(Op::Action, &[1.0, 0.0]); // time 500: stop
//! let mut scene = SceneSim::new(Arc::new(asm.finish("walk")?), "walk")?;
//! assert_eq!(scene.length(), 500);
//! scene.seek(100);
//! assert_eq!(scene.actor(1).unwrap().position, [0.0, 0.0, 100.0 / 32.0]);
//! scene.seek(800);
//! let a = scene.actor(1).unwrap();
//! assert_eq!((a.action, a.position), (Action::Idle, [0.0, 0.0, 500.0 / 32.0]));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::stage::{ActorId, ActorState, ActorStates, Camera, Stage};
use crate::interp::{self, Bindings, Exit, Fiber, RuntimeError};
use crate::program::{FuncId, Language, Program};
use crate::verify::Verified;
use std::fmt;
use std::sync::Arc;

/// Most runtime errors a scene keeps (a hostile bundle could make one per
/// command of an endless loop); the rest are only counted.
pub const MAX_KEPT_ERRORS: usize = 4096;

/// Why a scene could not be opened. None of them panics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpenError {
    /// No module of that name in the program.
    NoModule(String),
    /// No module with that index.
    NoModuleIndex(usize),
    /// The module exists but is not a SLAP module.
    NotSlap(String),
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpenError::NoModule(m) => write!(f, "no module named `{m}` in the bundle"),
            OpenError::NoModuleIndex(i) => write!(f, "the bundle has no module {i}"),
            OpenError::NotSlap(m) => write!(f, "module `{m}` is not a SLAP module"),
        }
    }
}

impl std::error::Error for OpenError {}

/// A command that failed at run time; the scene skipped it and went on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SceneError {
    /// The frame it ran at.
    pub frame: u64,
    /// What went wrong, and where (a source position if debug info was kept).
    pub error: RuntimeError,
}

impl fmt::Display for SceneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "frame {}: {}", self.frame, self.error)
    }
}

impl std::error::Error for SceneError {}

/// A SLAP module played frame by frame: the stage at the current frame,
/// the fiber that changes it at time points, and what went wrong.
///
/// The engine's SLAP simulation; the game API's [`crate::game::Scene`]
/// wraps it (the two were both named `Scene` until issue 44).
#[derive(Clone, Debug)]
pub struct SceneSim {
    program: Arc<Verified<Program>>,
    module: usize,
    entry: FuncId,
    fiber: Fiber,
    bindings: Bindings,
    stage: Stage,
    frame: u64,
    /// The frame the fiber wakes at; `None` once it has halted.
    wake: Option<u64>,
    length: u64,
    errors: Vec<SceneError>,
    error_count: u64,
    instructions: u64,
}

impl SceneSim {
    /// The SLAP module `name` of a verified program (from
    /// [`crate::codec::load`] or the compiler), at frame 0: the commands
    /// of frame 0 have run.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use animkit_vm::engine::slap::{OpenError, SceneAsm, SceneSim};
    /// let program = Arc::new(SceneAsm::new().finish("intro").unwrap());
    /// assert!(SceneSim::new(program.clone(), "intro").is_ok());
    /// assert_eq!(SceneSim::new(program, "outro").unwrap_err(), OpenError::NoModule("outro".into()));
    /// ```
    pub fn new(program: Arc<Verified<Program>>, name: &str) -> Result<SceneSim, OpenError> {
        let index = program
            .modules
            .iter()
            .position(|m| program.string(m.name) == name)
            .ok_or_else(|| OpenError::NoModule(name.to_string()))?;
        SceneSim::with_index(program, index)
    }

    /// The SLAP module at `index` of a verified program.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use animkit_vm::engine::slap::{OpenError, SceneAsm, SceneSim};
    /// let program = Arc::new(SceneAsm::new().finish("intro").unwrap());
    /// assert_eq!(SceneSim::with_index(program.clone(), 0).unwrap().name(), "intro");
    /// assert_eq!(SceneSim::with_index(program, 1).unwrap_err(), OpenError::NoModuleIndex(1));
    /// ```
    pub fn with_index(program: Arc<Verified<Program>>, index: usize) -> Result<SceneSim, OpenError> {
        let m = program.modules.get(index).ok_or(OpenError::NoModuleIndex(index))?;
        if m.language != Language::Slap {
            return Err(OpenError::NotSlap(program.string(m.name).to_string()));
        }
        let entry = m.entry.unwrap_or(0);
        // The last time point: every WAIT of the entry function (straight-line
        // code in what the compiler emits; any verified code has this sum),
        // summed by the verifier.
        let length = program.info(index).map_or(0, |i| i.entry_waits());
        let Some(code) = program.code(index) else { return Err(OpenError::NoModuleIndex(index)) };
        let fiber = Fiber::new(code, entry);
        let mut scene = SceneSim {
            program,
            module: index,
            entry,
            fiber,
            bindings: Bindings::default(),
            stage: Stage::new(),
            frame: 0,
            wake: Some(0),
            length,
            errors: Vec::new(),
            error_count: 0,
            instructions: 0,
        };
        scene.seek(0);
        Ok(scene)
    }

    /// The module's name.
    pub fn name(&self) -> &str {
        self.program.modules.get(self.module).map_or("", |m| self.program.string(m.name))
    }

    /// The program the scene plays.
    pub fn program(&self) -> &Arc<Verified<Program>> {
        &self.program
    }

    /// The scene's length: its last time point, in frames.
    pub fn length(&self) -> u64 {
        self.length
    }

    /// The current frame.
    pub fn frame(&self) -> u64 {
        self.frame
    }

    /// The frame at which bytecode runs next (the next time point), or
    /// `None` once every command has run.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use animkit_vm::engine::slap::{SceneAsm, SceneSim};
    /// let mut asm = SceneAsm::new();
    /// asm.at(30);
    /// let mut scene = SceneSim::with_index(Arc::new(asm.finish("s").unwrap()), 0).unwrap();
    /// assert_eq!(scene.next_time_point(), Some(30));
    /// scene.seek(30);
    /// assert_eq!(scene.next_time_point(), None);
    /// ```
    pub fn next_time_point(&self) -> Option<u64> {
        self.wake
    }

    /// Advances one frame, running that frame's commands if it is a time
    /// point.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use animkit_vm::engine::isa::Op;
    /// use animkit_vm::engine::slap::{SceneAsm, SceneSim};
    /// let mut asm = SceneAsm::new();
    /// asm.at(2).op(Op::Size, &[1.0, 2.0]);
    /// let mut scene = SceneSim::with_index(Arc::new(asm.finish("s").unwrap()), 0).unwrap();
    /// scene.step();
    /// assert_eq!((scene.frame(), scene.actors().len()), (1, 0));
    /// scene.step();
    /// assert_eq!((scene.frame(), scene.actors().len()), (2, 1));
    /// ```
    pub fn step(&mut self) {
        self.seek(self.frame.saturating_add(1));
    }

    /// Goes to `frame`: forwards by running the time points up to it (and
    /// no code for the frames between them), backwards by starting over.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use animkit_vm::engine::isa::Op;
    /// use animkit_vm::engine::slap::{SceneAsm, SceneSim};
    /// let mut asm = SceneAsm::new();
    /// asm.op(Op::Action, &[1.0, 10.0]); // sprint from frame 0
    /// let mut scene = SceneSim::with_index(Arc::new(asm.finish("s").unwrap()), 0).unwrap();
    /// scene.seek(80);
    /// assert_eq!(scene.actor(1).unwrap().position[2], 10.0);
    /// scene.seek(8);
    /// assert_eq!(scene.actor(1).unwrap().position[2], 1.0);
    /// ```
    pub fn seek(&mut self, frame: u64) {
        if frame < self.frame {
            self.restart();
        }
        while let Some(wake) = self.wake.filter(|&w| w <= frame) {
            self.frame = wake;
            self.stage.set_frame(wake);
            self.run_time_point();
        }
        self.frame = frame;
        self.stage.set_frame(frame);
        self.stage.settle();
    }

    /// Starts over at frame 0 (with frame 0's commands run); errors are
    /// forgotten, the instruction counter keeps counting.
    pub fn restart(&mut self) {
        let program = &*self.program;
        if let Some(m) = program.code(self.module) {
            self.fiber.restart(m, self.entry);
        }
        self.bindings = Bindings::default();
        self.stage = Stage::new();
        self.frame = 0;
        self.wake = Some(0);
        self.errors.clear();
        self.error_count = 0;
        self.seek(0);
    }

    /// Runs the fiber until its next `WAIT` (or its end), recording the
    /// errors of the commands it skipped.
    fn run_time_point(&mut self) {
        let program = &*self.program;
        let Some(m) = program.code(self.module) else {
            self.wake = None;
            return;
        };
        let before = self.fiber.instructions();
        self.wake = loop {
            match interp::run(&mut self.fiber, m, &mut self.bindings, &mut self.stage) {
                // A verified WAIT waits at least one frame.
                Ok(Exit::Waiting(d)) => break Some(self.frame.saturating_add(d.max(1) as u64)),
                // SLAP ops never suspend.
                Ok(Exit::Suspended(_)) => continue,
                Ok(Exit::Halted | Exit::Stopped) => break None,
                Err(error) => {
                    self.error_count += 1;
                    if self.errors.len() < MAX_KEPT_ERRORS {
                        self.errors.push(SceneError { frame: self.frame, error });
                    }
                    if self.fiber.is_finished() {
                        break None;
                    }
                }
            }
        };
        self.instructions += self.fiber.instructions() - before;
    }

    /// Every actor at the current frame, by id (positions and poses
    /// computed now, nothing allocated).
    pub fn actors(&self) -> ActorStates<'_> {
        self.stage.actors()
    }

    /// Actor `id` at the current frame, if it has been mentioned.
    pub fn actor(&self, id: ActorId) -> Option<ActorState> {
        self.stage.actor(id)
    }

    /// The camera at the current frame.
    pub fn camera(&self) -> Camera {
        self.stage.camera()
    }

    /// The stage at the current frame.
    pub fn stage(&self) -> &Stage {
        &self.stage
    }

    /// The runtime errors since the scene started (or restarted), oldest
    /// first, at most [`MAX_KEPT_ERRORS`].
    ///
    /// ```
    /// use std::sync::Arc;
    /// use animkit_vm::engine::isa::Op;
    /// use animkit_vm::engine::slap::{SceneAsm, SceneSim};
    /// let mut asm = SceneAsm::new();
    /// asm.at(3).line(7, 1).op(Op::Action, &[1.0, 12.0]).op(Op::Size, &[1.0, 2.0]);
    /// let mut scene = SceneSim::with_index(Arc::new(asm.finish("s").unwrap()), 0).unwrap();
    /// scene.seek(3);
    /// assert_eq!(
    ///     scene.errors()[0].to_string(),
    ///     "frame 3: 7:1: `actor 1 action 12`: the action must be one of the twelve, a whole number in 0..=11"
    /// );
    /// assert_eq!(scene.actor(1).unwrap().size, 2.0); // the next command ran
    /// ```
    pub fn errors(&self) -> &[SceneError] {
        &self.errors
    }

    /// How many runtime errors there were, kept or not.
    pub fn error_count(&self) -> u64 {
        self.error_count
    }

    /// Instructions run since the scene was opened, restarts included: a
    /// frame between time points adds none.
    pub fn instructions(&self) -> u64 {
        self.instructions
    }
}
