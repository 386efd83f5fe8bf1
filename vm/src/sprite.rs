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
//! Only instances whose frame ends in this tick run any bytecode; the rest
//! just count down.
//!
//! ```
//! use animkit_vm::sprite::Sprites;
//! # let program = animkit_vm::sprite::doc_program();
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

use crate::isa::{Insn, Op};
use crate::program::{Language, Program, StrId};
use std::fmt;
use std::sync::Arc;

/// Index of a state within its sprite module.
pub type StateId = u16;
/// An event, as the string-table id of its name (compare ids in hot code,
/// names with [`Sprites::event_name`]).
pub type EventId = StrId;

/// `remaining` value of an instance stopped by `_wait`.
const HALTED: u32 = u32::MAX;

/// Errors of the sprite API. None of them panics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpriteError {
    /// No module of that name in the program.
    NoModule(String),
    /// The module exists but is not a sprite module.
    NotSprite(String),
    /// No state of that name in the module (names are case-sensitive).
    NoState(String),
}

impl fmt::Display for SpriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpriteError::NoModule(m) => write!(f, "no module named `{m}` in the bundle"),
            SpriteError::NotSprite(m) => write!(f, "module `{m}` is not a sprite module"),
            SpriteError::NoState(s) => {
                write!(f, "no state named `{s}` (state names are case-sensitive)")
            }
        }
    }
}

impl std::error::Error for SpriteError {}

/// A sprite module of a loaded program: a cheap, clonable handle.
#[derive(Clone)]
pub struct Sprites {
    program: Arc<Program>,
    module: usize,
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
    /// use animkit_vm::sprite::{Sprites, SpriteError};
    /// # let program = animkit_vm::sprite::doc_program();
    /// assert!(Sprites::new(program.clone(), "hero").is_ok());
    /// assert_eq!(Sprites::new(program, "villain").unwrap_err(), SpriteError::NoModule("villain".into()));
    /// ```
    pub fn new(program: Arc<Program>, name: &str) -> Result<Sprites, SpriteError> {
        let module = program
            .modules
            .iter()
            .position(|m| program.string(m.name) == name)
            .ok_or_else(|| SpriteError::NoModule(name.to_string()))?;
        if program.modules[module].language != Language::Sprite {
            return Err(SpriteError::NotSprite(name.to_string()));
        }
        Ok(Sprites { program, module })
    }

    /// The first sprite module of a program, for single-file bundles.
    ///
    /// ```
    /// # let program = animkit_vm::sprite::doc_program();
    /// let sprites = animkit_vm::sprite::Sprites::first(program).unwrap();
    /// assert_eq!(sprites.name(), "hero");
    /// ```
    pub fn first(program: Arc<Program>) -> Option<Sprites> {
        let module = program.modules.iter().position(|m| m.language == Language::Sprite)?;
        Some(Sprites { program, module })
    }

    /// The module's name.
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
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
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// assert_eq!(s.state_count(), 1);
    /// ```
    pub fn state_count(&self) -> usize {
        self.states().len()
    }

    /// The id of state `name` (case-sensitive; aliases are not names).
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// assert_eq!(s.state_id("Walk"), Some(0));
    /// assert_eq!(s.state_id("walk"), None);
    /// ```
    pub fn state_id(&self, name: &str) -> Option<StateId> {
        self.states().iter().position(|s| self.program.string(s.name) == name).map(|i| i as StateId)
    }

    /// The name of state `id` (`""` if out of range).
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// assert_eq!(s.state_name(0), "Walk");
    /// ```
    pub fn state_name(&self, id: StateId) -> &str {
        self.states().get(id as usize).map_or("", |s| self.program.string(s.name))
    }

    /// The sprite category of state `id`: its alias, or its own name.
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// assert_eq!(s.category(0), "Walk");
    /// ```
    pub fn category(&self, id: StateId) -> &str {
        self.states().get(id as usize).map_or("", |s| self.program.string(s.category))
    }

    /// The name of an event.
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// let id = s.event_id("step").unwrap();
    /// assert_eq!(s.event_name(id), "step");
    /// ```
    pub fn event_name(&self, id: EventId) -> &str {
        self.program.string(id)
    }

    /// The id of the event named `name`, to compare against in hot code.
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// assert!(s.event_id("step").is_some());
    /// ```
    pub fn event_id(&self, name: &str) -> Option<EventId> {
        self.program.find_string(name)
    }

    /// A new instance in state `state`; it enters the first frame at its
    /// first `tick()`.
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// let mut i = s.instance("Walk").unwrap();
    /// i.tick();
    /// assert_eq!(i.state_name(), "Walk");
    /// assert!(s.instance("Run").is_err());
    /// ```
    pub fn instance(&self, state: &str) -> Result<SpriteInstance, SpriteError> {
        let id = self.state_id(state).ok_or_else(|| SpriteError::NoState(state.to_string()))?;
        Ok(SpriteInstance { sprites: self.clone(), cursor: Cursor::enter(self, id), events: Vec::new() })
    }

    /// An empty batch of instances of this module.
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// let mut batch = s.batch();
    /// batch.spawn("Walk").unwrap();
    /// assert_eq!(batch.len(), 1);
    /// ```
    pub fn batch(&self) -> SpriteBatch {
        SpriteBatch {
            sprites: self.clone(),
            remaining: Vec::new(),
            pc: Vec::new(),
            sprite: Vec::new(),
            state: Vec::new(),
            events: Vec::new(),
        }
    }
}

/// Where one instance is: 14 bytes of hot state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cursor {
    pc: u32,
    remaining: u32,
    sprite: u32,
    state: StateId,
}

impl Cursor {
    fn enter(s: &Sprites, id: StateId) -> Cursor {
        Cursor { pc: s.states()[id as usize].entry, remaining: 0, sprite: 0, state: id }
    }
}

/// Runs sprite code from `pc` until it waits or halts; returns the ticks to
/// wait (`HALTED` for ever). The verifier guarantees that every index is in
/// range, only sprite ops occur and every cycle contains a `WAIT`, so this
/// terminates within one pass over the code.
#[inline]
fn advance(
    code: &[Insn],
    states: &[crate::program::State],
    pc: &mut u32,
    sprite: &mut u32,
    state: &mut StateId,
    mut emit: impl FnMut(EventId),
) -> u32 {
    loop {
        let Some(&w) = code.get(*pc as usize) else {
            return HALTED;
        };
        *pc += 1;
        match w.op() {
            Some(Op::Sprite) => *sprite = w.ax_field(),
            Some(Op::Event) => emit(w.ax_field()),
            Some(Op::Wait) => return w.ax_field(),
            Some(Op::Jmp) => *pc = (*pc as i64 + w.sj_field() as i64) as u32,
            Some(Op::Enter) => {
                let s = w.ax_field();
                *state = s as StateId;
                *pc = states.get(s as usize).map_or(u32::MAX, |st| st.entry);
            }
            Some(Op::Nop) => {}
            _ => {
                *pc -= 1;
                return HALTED;
            }
        }
    }
}

/// One animated sprite: a cursor in its module's code plus its pending
/// events.
#[derive(Clone, Debug)]
pub struct SpriteInstance {
    sprites: Sprites,
    cursor: Cursor,
    events: Vec<EventId>,
}

impl SpriteInstance {
    /// Advances one fixed tick (see the module docs for the tick model).
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// let mut i = s.instance("Walk").unwrap();
    /// i.tick(); i.tick(); i.tick();
    /// assert_eq!(i.frame(), 1);
    /// ```
    pub fn tick(&mut self) {
        let c = &mut self.cursor;
        if c.remaining == 0 {
            let m = &self.sprites.program.modules[self.sprites.module];
            let events = &mut self.events;
            c.remaining =
                advance(&m.functions[0].code, &m.states, &mut c.pc, &mut c.sprite, &mut c.state, |e| events.push(e));
        }
        if c.remaining != HALTED {
            c.remaining -= 1;
        }
    }

    /// Switches to state `name` at the start of the next tick. Setting the
    /// state the instance is already in does nothing; use
    /// [`SpriteInstance::restart_state`] to start it over.
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// let mut i = s.instance("Walk").unwrap();
    /// assert!(i.set_state("Nope").is_err());
    /// i.set_state("Walk").unwrap();
    /// ```
    pub fn set_state(&mut self, name: &str) -> Result<(), SpriteError> {
        let id = self.sprites.state_id(name).ok_or_else(|| SpriteError::NoState(name.to_string()))?;
        self.set_state_id(id);
        Ok(())
    }

    /// [`SpriteInstance::set_state`] by id (an id out of range is ignored).
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// let mut i = s.instance("Walk").unwrap();
    /// i.set_state_id(0);
    /// assert_eq!(i.state(), 0);
    /// ```
    pub fn set_state_id(&mut self, id: StateId) {
        if id != self.cursor.state && (id as usize) < self.sprites.state_count() {
            self.restart_state_id(id);
        }
    }

    /// Enters state `name` from its first frame at the next tick, even if
    /// the instance is already in it.
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// let mut i = s.instance("Walk").unwrap();
    /// i.tick(); i.tick(); i.tick();
    /// i.restart_state("Walk").unwrap();
    /// i.tick();
    /// assert_eq!(i.frame(), 0);
    /// ```
    pub fn restart_state(&mut self, name: &str) -> Result<(), SpriteError> {
        let id = self.sprites.state_id(name).ok_or_else(|| SpriteError::NoState(name.to_string()))?;
        self.restart_state_id(id);
        Ok(())
    }

    /// [`SpriteInstance::restart_state`] by id (out of range is ignored).
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// let mut i = s.instance("Walk").unwrap();
    /// i.restart_state_id(0);
    /// ```
    pub fn restart_state_id(&mut self, id: StateId) {
        if (id as usize) < self.sprites.state_count() {
            let sprite = self.cursor.sprite;
            self.cursor = Cursor::enter(&self.sprites, id);
            // The displayed sprite changes only when the next tick enters.
            self.cursor.sprite = sprite;
        }
    }

    /// The current state (after transitions taken so far).
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// assert_eq!(s.instance("Walk").unwrap().state(), 0);
    /// ```
    pub fn state(&self) -> StateId {
        self.cursor.state
    }

    /// The current state's name.
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// assert_eq!(s.instance("Walk").unwrap().state_name(), "Walk");
    /// ```
    pub fn state_name(&self) -> &str {
        self.sprites.state_name(self.cursor.state)
    }

    /// The sprite category to draw from: the state's alias or its name.
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// assert_eq!(s.instance("Walk").unwrap().category(), "Walk");
    /// ```
    pub fn category(&self) -> &str {
        self.sprites.category(self.cursor.state)
    }

    /// The sprite index displayed during the last tick.
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// let mut i = s.instance("Walk").unwrap();
    /// i.tick();
    /// assert_eq!(i.frame(), 0);
    /// ```
    pub fn frame(&self) -> u32 {
        self.cursor.sprite
    }

    /// True once the instance stopped on a `_wait`.
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// assert!(!s.instance("Walk").unwrap().is_waiting());
    /// ```
    pub fn is_waiting(&self) -> bool {
        self.cursor.remaining == HALTED
    }

    /// Removes and yields the events fired since the last drain, in order.
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// let mut i = s.instance("Walk").unwrap();
    /// i.tick();
    /// assert_eq!(i.drain_events().count(), 1);
    /// assert_eq!(i.drain_events().count(), 0);
    /// ```
    pub fn drain_events(&mut self) -> std::vec::Drain<'_, EventId> {
        self.events.drain(..)
    }

    /// The module this instance belongs to.
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// assert_eq!(s.instance("Walk").unwrap().sprites().name(), "hero");
    /// ```
    pub fn sprites(&self) -> &Sprites {
        &self.sprites
    }
}

/// An event fired by an instance of a [`SpriteBatch`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BatchEvent {
    /// Index of the instance in the batch.
    pub instance: u32,
    /// The event.
    pub event: EventId,
}

/// Many instances of one sprite module, stored column-wise so that a tick
/// touches a dense countdown array and interprets only the instances whose
/// frame ends.
#[derive(Clone, Debug)]
pub struct SpriteBatch {
    sprites: Sprites,
    remaining: Vec<u32>,
    pc: Vec<u32>,
    sprite: Vec<u32>,
    state: Vec<StateId>,
    events: Vec<BatchEvent>,
}

impl SpriteBatch {
    /// Adds an instance in state `state`; returns its index.
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// let mut b = s.batch();
    /// assert_eq!(b.spawn("Walk").unwrap(), 0);
    /// assert_eq!(b.spawn("Walk").unwrap(), 1);
    /// ```
    pub fn spawn(&mut self, state: &str) -> Result<u32, SpriteError> {
        let id = self.sprites.state_id(state).ok_or_else(|| SpriteError::NoState(state.to_string()))?;
        let c = Cursor::enter(&self.sprites, id);
        self.remaining.push(c.remaining);
        self.pc.push(c.pc);
        self.sprite.push(c.sprite);
        self.state.push(c.state);
        Ok(self.remaining.len() as u32 - 1)
    }

    /// Number of instances.
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// assert!(s.batch().is_empty());
    /// ```
    pub fn len(&self) -> usize {
        self.remaining.len()
    }

    /// Bytes of per-instance state the batch holds for its instances (the
    /// columns a tick reads or writes; capacity slack and pending events
    /// not counted).
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// let mut b = s.batch();
    /// b.spawn("Walk").unwrap();
    /// assert_eq!(b.hot_bytes(), animkit_vm::sprite::BATCH_BYTES_PER_INSTANCE);
    /// ```
    pub fn hot_bytes(&self) -> usize {
        self.len() * BATCH_BYTES_PER_INSTANCE
    }

    /// True when the batch holds no instance.
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// assert_eq!(s.batch().len(), 0);
    /// ```
    pub fn is_empty(&self) -> bool {
        self.remaining.is_empty()
    }

    /// Advances every instance one tick.
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// let mut b = s.batch();
    /// for _ in 0..1000 { b.spawn("Walk").unwrap(); }
    /// b.tick();
    /// assert_eq!(b.drain_events().count(), 1000);
    /// ```
    pub fn tick(&mut self) {
        let m = &self.sprites.program.modules[self.sprites.module];
        let (code, states) = (&m.functions[0].code, &m.states);
        let events = &mut self.events;
        for (i, r) in self.remaining.iter_mut().enumerate() {
            if *r == 0 {
                let instance = i as u32;
                *r = advance(code, states, &mut self.pc[i], &mut self.sprite[i], &mut self.state[i], |event| {
                    events.push(BatchEvent { instance, event })
                });
            }
            if *r != HALTED {
                *r -= 1;
            }
        }
    }

    /// Sprite displayed by instance `i` during the last tick (0 if out of range).
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// let mut b = s.batch();
    /// b.spawn("Walk").unwrap();
    /// b.tick();
    /// assert_eq!(b.frame(0), 0);
    /// ```
    pub fn frame(&self, i: u32) -> u32 {
        self.sprite.get(i as usize).copied().unwrap_or(0)
    }

    /// Every instance's displayed sprite, indexed by instance.
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// let mut b = s.batch();
    /// b.spawn("Walk").unwrap();
    /// assert_eq!(b.frames(), &[0]);
    /// ```
    pub fn frames(&self) -> &[u32] {
        &self.sprite
    }

    /// Current state of instance `i` (0 if out of range).
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// let mut b = s.batch();
    /// b.spawn("Walk").unwrap();
    /// assert_eq!(b.state(0), 0);
    /// ```
    pub fn state(&self, i: u32) -> StateId {
        self.state.get(i as usize).copied().unwrap_or(0)
    }

    /// Switches instance `i` to state `name` (no-op if already in it).
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// let mut b = s.batch();
    /// b.spawn("Walk").unwrap();
    /// assert!(b.set_state(0, "Walk").is_ok());
    /// assert!(b.set_state(0, "Fly").is_err());
    /// ```
    pub fn set_state(&mut self, i: u32, name: &str) -> Result<(), SpriteError> {
        let id = self.sprites.state_id(name).ok_or_else(|| SpriteError::NoState(name.to_string()))?;
        let i = i as usize;
        if i < self.len() && self.state[i] != id {
            self.restart_at(i, id);
        }
        Ok(())
    }

    /// Restarts instance `i` in state `name`, even if already in it.
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// let mut b = s.batch();
    /// b.spawn("Walk").unwrap();
    /// b.restart_state(0, "Walk").unwrap();
    /// ```
    pub fn restart_state(&mut self, i: u32, name: &str) -> Result<(), SpriteError> {
        let id = self.sprites.state_id(name).ok_or_else(|| SpriteError::NoState(name.to_string()))?;
        if (i as usize) < self.len() {
            self.restart_at(i as usize, id);
        }
        Ok(())
    }

    fn restart_at(&mut self, i: usize, id: StateId) {
        let c = Cursor::enter(&self.sprites, id);
        self.remaining[i] = c.remaining;
        self.pc[i] = c.pc;
        self.state[i] = c.state;
    }

    /// Removes and yields the events fired since the last drain, in the
    /// order they fired (by instance index within one tick).
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// let mut b = s.batch();
    /// b.spawn("Walk").unwrap();
    /// b.tick();
    /// let e: Vec<_> = b.drain_events().collect();
    /// assert_eq!(e[0].instance, 0);
    /// ```
    pub fn drain_events(&mut self) -> std::vec::Drain<'_, BatchEvent> {
        self.events.drain(..)
    }

    /// The module of this batch.
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// assert_eq!(s.batch().sprites().name(), "hero");
    /// ```
    pub fn sprites(&self) -> &Sprites {
        &self.sprites
    }
}

/// Bytes of per-instance state a [`SpriteBatch`] keeps (countdown, pc,
/// sprite, state).
pub const BATCH_BYTES_PER_INSTANCE: usize = 4 + 4 + 4 + std::mem::size_of::<StateId>();

/// A tiny program for the documentation examples: module `hero` with
/// `Walk: 2|step, 2, _loop`, assembled by hand.
#[doc(hidden)]
pub fn doc_program() -> Arc<Program> {
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
    Arc::new(program)
}
