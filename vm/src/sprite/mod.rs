//! Sprite state machines for games: load a bundle, pick a sprite module,
//! create instances, `tick()` them at the fixed update rate, read what to
//! draw and drain the events they fired.
//!
//! # Tick model
//! The value read after the t-th call of `tick()` (t = 0, 1, ...) is the
//! sprite displayed during tick t; the events drained after it are those
//! fired on entering frames at the start of tick t, in order. A new
//! instance, and an instance after `set_state`, enters the state's first
//! frame at the start of the next tick. Zero-duration frames are passed
//! through instantly, firing their events in order. A frame of duration d
//! is displayed for d ticks. Entering a state shows sprite 0 until one of
//! its frames sets a sprite.
//!
//! Only instances whose frame ends in this tick do any work: when a module
//! is opened its code is pre-run once from every resume point (a state's
//! entry, or the instruction after a `WAIT`) into *steps*, and a frame
//! change applies one step (sprite, state, events, wait, next step) instead
//! of decoding instructions. A [`SpriteBatch`] keeps a wake-up tick per
//! instance and touches only the instances that wake.
//!
//! ```
//! use animkit_vm::engine::sprite::Sprites;
//! # let program = animkit_vm::engine::sprite::doc_program();
//! // `program` holds a module "hero" compiled from `Walk: 2|step, 2, _loop`.
//! let sprites = Sprites::new(program, "hero").unwrap();
//! let mut walk = sprites.instance("Walk").unwrap();
//! let mut frames = Vec::new();
//! for _ in 0..5 {
//!     walk.tick();
//!     frames.push(walk.frame());
//! }
//! assert_eq!(frames, [0, 0, 1, 1, 0]);
//! let events: Vec<&str> = walk.drain_events().map(|e| sprites.event_name(e)).collect();
//! assert_eq!(events, ["step", "step"]);
//! ```

mod advance;
mod batch;
mod cycles;
mod instance;
mod pending;
mod plan;
mod reload;
mod scan;
mod slow;
mod snapshot;
mod speed;
mod tables;

pub use batch::{BATCH_BYTES_PER_INSTANCE, BATCH_SLOW_BYTES_PER_INSTANCE, BatchEvent, BatchStats, SpriteBatch};
pub use instance::SpriteInstance;
pub use pending::MAX_PENDING_EVENTS;
pub use reload::ReloadReport;
pub use snapshot::{BatchSnapshot, InstanceSnapshot};
pub use speed::Speed;

use crate::isa::{Insn, Op};
use crate::program::{Language, Module, Program, StrId};
use crate::verify::Verified;
use plan::Plan;
use std::fmt;
use std::sync::Arc;

/// Index of a state within its sprite module.
pub type StateId = u16;
/// An event, as the string-table id of its name (compare ids in hot code,
/// names with [`Sprites::event_name`]).
pub type EventId = StrId;

/// Errors of the sprite API. None of them panics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpriteError {
    /// No module of that name in the program.
    NoModule(String),
    /// The module exists but is not a sprite module.
    NotSprite(String),
    /// No state of that name in the module (names are case-sensitive).
    NoState(String),
    /// A snapshot taken of another module (or another build of it) than
    /// the one it is restored into: the two module hashes
    /// ([`Sprites::module_hash`]).
    WrongModule {
        /// The hash of the module restored into.
        expected: u64,
        /// The hash the snapshot names.
        found: u64,
    },
    /// A snapshot that names this module but cannot be one of its (edited
    /// by hand or corrupted): what is wrong with it.
    BadSnapshot(String),
}

impl fmt::Display for SpriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpriteError::NoModule(m) => write!(f, "no module named `{m}` in the bundle"),
            SpriteError::NotSprite(m) => write!(f, "module `{m}` is not a sprite module"),
            SpriteError::NoState(s) => {
                write!(f, "no state named `{s}` (state names are case-sensitive)")
            }
            SpriteError::WrongModule { expected, found } => write!(
                f,
                "the snapshot belongs to another program (module hash {found:016x}; this module's is {expected:016x})"
            ),
            SpriteError::BadSnapshot(what) => write!(f, "invalid snapshot: {what}"),
        }
    }
}

impl std::error::Error for SpriteError {}

/// A sprite module of a loaded program: a cheap, clonable handle.
#[derive(Clone)]
pub struct Sprites {
    program: Arc<Verified<Program>>,
    module: usize,
    plan: Arc<Plan>,
    /// [`Sprites::module_hash`].
    hash: u64,
}

impl fmt::Debug for Sprites {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sprites").field("module", &self.name()).finish()
    }
}

impl Sprites {
    /// The sprite module `name` of a verified program.
    ///
    /// ```
    /// use animkit_vm::engine::sprite::{Sprites, SpriteError};
    /// # let program = animkit_vm::engine::sprite::doc_program();
    /// assert!(Sprites::new(program.clone(), "hero").is_ok());
    /// assert_eq!(Sprites::new(program, "villain").unwrap_err(), SpriteError::NoModule("villain".into()));
    /// ```
    pub fn new(program: Arc<Verified<Program>>, name: &str) -> Result<Sprites, SpriteError> {
        let module = program
            .modules
            .iter()
            .position(|m| program.string(m.name) == name)
            .ok_or_else(|| SpriteError::NoModule(name.to_string()))?;
        if program.modules[module].language != Language::Sprite {
            return Err(SpriteError::NotSprite(name.to_string()));
        }
        Ok(Sprites::with_plan(program, module))
    }

    /// The first sprite module of a program, for single-file bundles.
    ///
    /// ```
    /// # let program = animkit_vm::engine::sprite::doc_program();
    /// let sprites = animkit_vm::engine::sprite::Sprites::first(program).unwrap();
    /// assert_eq!(sprites.name(), "hero");
    /// ```
    pub fn first(program: Arc<Verified<Program>>) -> Option<Sprites> {
        let module = program.modules.iter().position(|m| m.language == Language::Sprite)?;
        Some(Sprites::with_plan(program, module))
    }

    fn with_plan(program: Arc<Verified<Program>>, module: usize) -> Sprites {
        let resume = program.info(module).map_or(&[][..], |i| i.resume_points());
        let plan = Arc::new(Plan::new(&program.modules[module], resume));
        let hash = snapshot::module_hash(&program, &program.modules[module]);
        Sprites { program, module, plan, hash }
    }

    /// The same module (by name) in a new build of the program, for hot
    /// reloading: hand the result to [`SpriteInstance::reload`] or
    /// [`SpriteBatch::reload`], which map each instance onto it keeping its
    /// state, frame and ticks into the frame.
    ///
    /// ```
    /// # let program = animkit_vm::engine::sprite::doc_program();
    /// let s = animkit_vm::engine::sprite::Sprites::new(program.clone(), "hero").unwrap();
    /// let again = s.reload(program).unwrap(); // a recompiled bundle, in a game
    /// assert_eq!(again.module_hash(), s.module_hash());
    /// ```
    pub fn reload(&self, program: Arc<Verified<Program>>) -> Result<Sprites, SpriteError> {
        Sprites::new(program, self.name())
    }

    /// A 64-bit hash naming this module's behaviour, which every snapshot
    /// carries: a snapshot restores only into a module with the same hash.
    ///
    /// It covers the module's name, its code word for word, its states
    /// (name, category and entry, names as text), and the text of every
    /// event its code fires (events are held by string-table id, so a
    /// table in another order is another program). It does not cover debug
    /// positions, other modules of the bundle or the bundle's format, so
    /// the same source compiled again (stripped or not, alone or with
    /// other files that leave its string ids alone) restores, and any
    /// change to a frame, an event or a state is refused. FNV-1a, 64 bits.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// let again = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// assert_eq!(s.module_hash(), again.module_hash());
    /// ```
    pub fn module_hash(&self) -> u64 {
        self.hash
    }

    /// The events the module's code fires (its `EVENT` operands), sorted,
    /// each once.
    pub(crate) fn fired_events(&self) -> Vec<EventId> {
        let code = self.module().functions.first().map_or(&[][..], |f| &f.code[..]);
        let mut ids: Vec<EventId> =
            code.iter().filter(|w| w.op() == Some(crate::isa::Op::Event)).map(|w| w.ax_field()).collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// The module in the program.
    pub(super) fn module(&self) -> &Module {
        &self.program.modules[self.module]
    }

    /// The module's name.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// assert_eq!(s.name(), "hero");
    /// ```
    pub fn name(&self) -> &str {
        self.program.string(self.program.modules[self.module].name)
    }

    fn states(&self) -> &[crate::program::State] {
        &self.program.modules[self.module].states
    }

    /// Number of states.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// assert_eq!(s.state_count(), 1);
    /// ```
    pub fn state_count(&self) -> usize {
        self.states().len()
    }

    /// The id of state `name` (case-sensitive; aliases are not names).
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// assert_eq!(s.state_id("Walk"), Some(0));
    /// assert_eq!(s.state_id("walk"), None);
    /// ```
    pub fn state_id(&self, name: &str) -> Option<StateId> {
        self.states().iter().position(|s| self.program.string(s.name) == name).map(|i| i as StateId)
    }

    /// The name of state `id` (`""` if out of range).
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// assert_eq!(s.state_name(0), "Walk");
    /// ```
    pub fn state_name(&self, id: StateId) -> &str {
        self.states().get(id as usize).map_or("", |s| self.program.string(s.name))
    }

    /// The sprite category of state `id`: its alias, or its own name.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// assert_eq!(s.category(0), "Walk");
    /// ```
    pub fn category(&self, id: StateId) -> &str {
        self.states().get(id as usize).map_or("", |s| self.program.string(s.category))
    }

    /// The name of an event.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// let id = s.event_id("step").unwrap();
    /// assert_eq!(s.event_name(id), "step");
    /// ```
    pub fn event_name(&self, id: EventId) -> &str {
        self.program.string(id)
    }

    /// The id of the event named `name`, to compare against in hot code.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// assert!(s.event_id("step").is_some());
    /// ```
    pub fn event_id(&self, name: &str) -> Option<EventId> {
        self.program.find_string(name)
    }

    /// A new instance in state `state`; it enters the first frame at its
    /// first `tick()`.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// let mut i = s.instance("Walk").unwrap();
    /// i.tick();
    /// assert_eq!(i.state_name(), "Walk");
    /// assert!(s.instance("Run").is_err());
    /// ```
    pub fn instance(&self, state: &str) -> Result<SpriteInstance, SpriteError> {
        self.instance_at(state, 0)
    }

    /// A new instance in state `state`, entered `phase` animation ticks in
    /// (see [`SpriteInstance::restart_state_at`]): instances spawned with
    /// different phases do not walk in lockstep.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// let mut i = s.instance_at("Walk", 2).unwrap();
    /// i.tick();
    /// assert_eq!(i.frame(), 1);
    /// ```
    pub fn instance_at(&self, state: &str, phase: u32) -> Result<SpriteInstance, SpriteError> {
        let id = self.state_id(state).ok_or_else(|| SpriteError::NoState(state.to_string()))?;
        Ok(SpriteInstance::new(self.clone(), id, phase))
    }

    /// A new instance in state `id` (in range: the caller checks), entered
    /// `phase` animation ticks in: the game API's spawn by handle.
    pub(crate) fn instance_id(&self, id: StateId, phase: u32) -> SpriteInstance {
        SpriteInstance::new(self.clone(), id, phase)
    }

    /// An empty batch of instances of this module.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// let mut batch = s.batch();
    /// batch.spawn("Walk").unwrap();
    /// assert_eq!(batch.len(), 1);
    /// ```
    pub fn batch(&self) -> SpriteBatch {
        SpriteBatch::new(self.clone())
    }
}

/// A tiny program for the documentation examples: module `hero` with
/// `Walk: 2|step, 2, _loop`, assembled by hand.
#[doc(hidden)]
pub fn doc_program() -> Arc<Verified<Program>> {
    use crate::program::{Function, Module, State};
    let program = Program {
        strings: vec!["hero".into(), "Walk".into(), "step".into(), "sprite".into()],
        modules: vec![Module {
            name: 0,
            language: Language::Sprite,
            functions: vec![Function {
                name: 3,
                code: vec![
                    Insn::ax(Op::Sprite, 0),
                    Insn::ax(Op::Event, 2),
                    Insn::ax(Op::Wait, 2),
                    Insn::ax(Op::Sprite, 1),
                    Insn::ax(Op::Wait, 2),
                    Insn::sj(Op::Jmp, -6),
                ],
                ..Function::default()
            }],
            states: vec![State { name: 1, category: 1, entry: 0 }],
            entry: None,
            source: None,
        }],
    };
    Arc::new(crate::verify::verify(program).expect("the documentation's program is valid"))
}
