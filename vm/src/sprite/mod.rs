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
    plan: Arc<Plan>,
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
        Ok(Sprites::with_plan(program, module))
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
        Some(Sprites::with_plan(program, module))
    }

    fn with_plan(program: Arc<Program>, module: usize) -> Sprites {
        let plan = Arc::new(Plan::new(&program.modules[module]));
        Sprites { program, module, plan }
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
            now: 0,
            due: [0; WHEEL],
            wake: Vec::new(),
            step: Vec::new(),
            sprite: Vec::new(),
            state: Vec::new(),
            events: Vec::new(),
            stats: BatchStats::default(),
            runs: true,
        }
    }
}

/// The effect of running a sprite module's code from one resume point (a
/// state's entry, or the instruction after a `WAIT`) to the next `WAIT` or
/// `HALT`: the sprite it leaves displayed, the state it leaves the instance
/// in, the events it fires in order, how long the frame it reaches is shown
/// and where it resumes after that.
///
/// Sprite code is straight-line (the verifier forbids anything but
/// `SPRITE EVENT ENTER JMP WAIT HALT NOP`), so this effect depends on the
/// resume point alone: [`Plan::new`] runs the interpreter once per resume
/// point when a module is opened, and a tick applies one `Step` per frame
/// change instead of decoding instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
struct Step {
    /// Step to apply when the frame reached has been shown `wait` ticks.
    next: u32,
    /// Ticks the frame reached is shown; [`HALTED`] for a `HALT`.
    wait: u32,
    /// The sprite set last, or [`KEEP`] when no `SPRITE` ran.
    sprite: u32,
    /// First event in [`Plan::events`].
    ev_start: u32,
    /// Number of events.
    ev_len: u32,
    /// Bytecode instructions this step stands for (for [`BatchStats`]).
    insns: u32,
    /// The state entered last, or [`KEEP_STATE`] when no `ENTER` ran.
    state: StateId,
    /// 1 unless this is [`HALT_STEP`]: an instance about to apply it is
    /// counted in its batch's wake-up counts.
    from_live: u8,
    /// 1 unless `next` is [`HALT_STEP`]: after it, the instance is counted.
    to_live: u8,
}

/// `Step::sprite` of a step that sets no sprite.
const KEEP: u32 = u32::MAX;
/// `Step::state` of a step that enters no state (never a state id: a
/// module has at most 65 535 states, ids `0..=65534`).
const KEEP_STATE: StateId = StateId::MAX;
/// Step 0 of every plan: what a halted instance resumes to. It changes
/// nothing and halts again.
const HALT_STEP: u32 = 0;

/// A module's code, pre-run from each resume point (see [`Step`]).
#[derive(Debug, Default)]
struct Plan {
    steps: Vec<Step>,
    events: Vec<EventId>,
    /// The step that enters each state.
    entry: Vec<u32>,
    /// Resume pc -> step, kept only when some steps are [`INTERPRET`]ed.
    index: Vec<u32>,
}

/// `Step::ev_len` of a step that is not pre-run but interpreted when it is
/// applied (`Step::next` is then its resume pc). Pre-running stops at a
/// budget proportional to the code, so that a hostile program whose resume
/// points share long paths cannot make opening it quadratic in time or
/// memory; the compiler never emits such code.
const INTERPRET: u32 = u32::MAX;

impl Plan {
    /// Runs the interpreter from every resume point reachable from a state
    /// entry. Robust on any program, verified or not: an index out of range
    /// or an op foreign to sprite code halts, and a run longer than the
    /// code without a `WAIT` (impossible once verified) halts too.
    fn new(m: &crate::program::Module) -> Plan {
        let code: &[Insn] = m.functions.first().map_or(&[], |f| &f.code);
        let mut plan = Plan {
            steps: vec![Step {
                next: HALT_STEP,
                wait: HALTED,
                sprite: KEEP,
                ev_start: 0,
                ev_len: 0,
                insns: 0,
                state: KEEP_STATE,
                from_live: 0,
                to_live: 0,
            }],
            events: Vec::new(),
            entry: Vec::with_capacity(m.states.len()),
            index: Vec::new(),
        };
        // Resume pc -> step index (u32::MAX: not assigned yet).
        let mut index = vec![u32::MAX; code.len() + 1];
        // Steps whose `next` is still a pc, to patch once all are known.
        let mut queue: Vec<u32> = Vec::new();
        let mut step_at = |pc: u32, plan: &mut Plan, queue: &mut Vec<u32>| -> u32 {
            let Some(slot) = index.get_mut(pc as usize) else { return HALT_STEP };
            if *slot == u32::MAX {
                *slot = plan.steps.len() as u32;
                plan.steps.push(Step { next: pc, ..plan.steps[0] });
                queue.push(*slot);
            }
            *slot
        };
        for s in &m.states {
            let e = step_at(s.entry, &mut plan, &mut queue);
            plan.entry.push(e);
        }
        // Instructions pre-run so far, and the budget.
        let (mut work, budget) = (0usize, 8 * code.len() + 4096);
        while let Some(si) = queue.pop() {
            if work > budget {
                // Out of budget: every resume point becomes a step that is
                // interpreted when applied.
                queue.push(si);
                for (pc, w) in code.iter().enumerate() {
                    if w.op() == Some(Op::Wait) {
                        step_at(pc as u32 + 1, &mut plan, &mut queue);
                    }
                }
                for q in queue.drain(..) {
                    let st = &mut plan.steps[q as usize];
                    *st = Step { ev_len: INTERPRET, from_live: 1, to_live: 1, ..*st };
                }
                plan.index = index;
                break;
            }
            let start = plan.steps[si as usize].next;
            let ev_start = plan.events.len() as u32;
            let mut events = std::mem::take(&mut plan.events);
            let run = run_code(code, &m.states, start, |e| events.push(e));
            plan.events = events;
            work += run.insns as usize;
            let next = match run.resume {
                Some(r) => step_at(r, &mut plan, &mut queue),
                None => HALT_STEP,
            };
            let ev_len = plan.events.len() as u32 - ev_start;
            let (from_live, to_live) = ((si != HALT_STEP) as u8, (next != HALT_STEP) as u8);
            plan.steps[si as usize] = Step {
                next,
                wait: run.wait,
                sprite: run.sprite,
                ev_start,
                ev_len,
                insns: run.insns,
                state: run.state,
                from_live,
                to_live,
            };
        }
        plan
    }

    /// The effect of an [`INTERPRET`] step (whose `next` is its pc), as a
    /// pre-run step; its events go to `emit`.
    #[cold]
    fn interpret(&self, m: &crate::program::Module, st: &Step, emit: impl FnMut(EventId)) -> Step {
        let code: &[Insn] = m.functions.first().map_or(&[], |f| &f.code);
        let run = run_code(code, &m.states, st.next, emit);
        let next = run.resume.and_then(|r| self.index.get(r as usize).copied()).filter(|&s| s != u32::MAX);
        let next = next.unwrap_or(HALT_STEP);
        Step {
            next,
            wait: run.wait,
            sprite: run.sprite,
            ev_start: 0,
            ev_len: 0,
            insns: run.insns,
            state: run.state,
            from_live: 1,
            to_live: (next != HALT_STEP) as u8,
        }
    }

    #[inline]
    fn events(&self, st: &Step) -> &[EventId] {
        self.events.get(st.ev_start as usize..(st.ev_start + st.ev_len) as usize).unwrap_or(&[])
    }
}

/// What running sprite code from one resume point to its next `WAIT` or
/// `HALT` did.
struct Run {
    sprite: u32,
    state: StateId,
    wait: u32,
    resume: Option<u32>,
    insns: u32,
}

/// The sprite interpreter: runs `code` from `pc` until a `WAIT` (or a
/// `HALT`), firing events through `emit`. Robust on any program, verified
/// or not: an index out of range or an op foreign to sprite code halts, and
/// so does a run longer than the code without a `WAIT` (impossible once
/// verified).
fn run_code(code: &[Insn], states: &[crate::program::State], mut pc: u32, mut emit: impl FnMut(EventId)) -> Run {
    let mut run = Run { sprite: KEEP, state: KEEP_STATE, wait: HALTED, resume: None, insns: 0 };
    let mut budget = code.len() + 1;
    while let Some(&w) = code.get(pc as usize) {
        if budget == 0 {
            break;
        }
        budget -= 1;
        run.insns += 1;
        pc += 1;
        match w.op() {
            Some(Op::Sprite) => run.sprite = w.ax_field(),
            Some(Op::Event) => emit(w.ax_field()),
            Some(Op::Wait) => {
                run.wait = w.ax_field().max(1);
                run.resume = Some(pc);
                break;
            }
            Some(Op::Jmp) => pc = (pc as i64 + w.sj_field() as i64).clamp(0, u32::MAX as i64) as u32,
            Some(Op::Enter) => match states.get(w.ax_field() as usize) {
                Some(st) => {
                    run.state = w.ax_field() as StateId;
                    pc = st.entry;
                }
                None => break,
            },
            Some(Op::Nop) => {}
            _ => break,
        }
    }
    run
}

/// Where one instance is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cursor {
    /// The step to apply when `remaining` reaches 0.
    step: u32,
    remaining: u32,
    sprite: u32,
    state: StateId,
}

impl Cursor {
    fn enter(s: &Sprites, id: StateId) -> Cursor {
        Cursor { step: s.plan.entry[id as usize], remaining: 0, sprite: 0, state: id }
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
            let plan = &*self.sprites.plan;
            let mut st = plan.steps[c.step as usize];
            if st.ev_len == INTERPRET {
                let m = &self.sprites.program.modules[self.sprites.module];
                let events = &mut self.events;
                st = plan.interpret(m, &st, |e| events.push(e));
            }
            if st.sprite != KEEP {
                c.sprite = st.sprite;
            }
            if st.state != KEEP_STATE {
                c.state = st.state;
            }
            self.events.extend_from_slice(plan.events(&st));
            c.step = st.next;
            c.remaining = st.wait;
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

/// Slots of a batch's wake-up counts (a power of two).
const WHEEL: usize = 64;

/// Many instances of one sprite module, stored column-wise.
///
/// Each instance has an absolute wake-up tick; a tick compares the dense
/// `wake` column with the tick number (a read-only scan, vectorised) and
/// applies one pre-run step (see the module docs) to each instance whose frame ends, in
/// instance order; the others are not touched at all. A small ring of
/// counts of wake-up ticks modulo 64 (halted instances not counted) lets a
/// tick on which no instance wakes skip the scan, so a batch of instances
/// mid-countdown, or waiting on `_wait`, costs next to nothing.
#[derive(Clone, Debug)]
pub struct SpriteBatch {
    sprites: Sprites,
    /// Number of the next tick (wrapping).
    now: u32,
    /// `due[t % WHEEL]`: instances whose `wake % WHEEL == t % WHEEL`.
    due: [u32; WHEEL],
    /// Tick at which each instance applies its next step. A halted
    /// instance wakes `2^32 - 1` ticks later, to its no-op halt step.
    wake: Vec<u32>,
    /// The step each instance applies when it wakes.
    step: Vec<u32>,
    sprite: Vec<u32>,
    state: Vec<StateId>,
    events: Vec<BatchEvent>,
    stats: BatchStats,
    /// Whether the next scan adds wake-up counts in runs (see `scan`).
    runs: bool,
}

/// Work counts of a [`SpriteBatch`] since it was created: cheap enough to
/// keep always, and what the guard-rail tests check (ticking instances that
/// are mid-countdown or waiting runs no bytecode).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BatchStats {
    /// Calls of [`SpriteBatch::tick`].
    pub ticks: u64,
    /// Ticks that scanned the batch (the others had no instance to wake).
    pub scans: u64,
    /// Frame changes applied (one per instance and tick that woke it).
    pub frame_changes: u64,
    /// Bytecode instructions those frame changes stand for.
    pub instructions: u64,
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
        self.wake.push(self.now);
        self.due[self.now as usize % WHEEL] += 1;
        self.step.push(c.step);
        self.sprite.push(c.sprite);
        self.state.push(c.state);
        Ok(self.wake.len() as u32 - 1)
    }

    /// Number of instances.
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// assert!(s.batch().is_empty());
    /// ```
    pub fn len(&self) -> usize {
        self.wake.len()
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
        use std::mem::size_of_val;
        size_of_val(&self.wake[..])
            + size_of_val(&self.step[..])
            + size_of_val(&self.sprite[..])
            + size_of_val(&self.state[..])
    }

    /// True when the batch holds no instance.
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// assert_eq!(s.batch().len(), 0);
    /// ```
    pub fn is_empty(&self) -> bool {
        self.wake.is_empty()
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
        let now = self.now;
        self.now = now.wrapping_add(1);
        self.stats.ticks += 1;
        let slot = now as usize % WHEEL;
        if self.due[slot] == 0 {
            return;
        }
        self.stats.scans += 1;
        let plan = &*self.sprites.plan;
        let module = &self.sprites.program.modules[self.sprites.module];
        let n = self.wake.len();
        let (wake, step) = (&mut self.wake[..n], &mut self.step[..n]);
        let (sprite, state) = (&mut self.sprite[..n], &mut self.state[..n]);
        let events = &mut self.events;
        let due = &mut self.due;
        let cols = Columns { wake, step, sprite, state };
        // Two ways to add up the wake-up ticks of the instances that wake
        // (see `scan`); each scan counts how often consecutive wake-ups
        // change slot, and the next scan picks the way that suits.
        let r = if self.runs {
            scan::<true>(plan, module, cols, events, due, now)
        } else {
            scan::<false>(plan, module, cols, events, due, now)
        };
        self.runs = r.switches * 8 <= r.woken;
        let (woken, insns, counted) = (r.woken as u64, r.insns, r.counted);
        due[slot] -= counted;
        self.stats.frame_changes += woken;
        self.stats.instructions += insns;
    }

    /// Work counts since the batch was created.
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// let mut b = s.batch();
    /// b.spawn("Walk").unwrap();
    /// b.tick(); // enters frame 0 (2 ticks): SPRITE, EVENT, WAIT
    /// b.tick(); // mid-countdown: nothing runs
    /// assert_eq!(b.stats().frame_changes, 1);
    /// assert_eq!(b.stats().instructions, 3);
    /// ```
    pub fn stats(&self) -> BatchStats {
        self.stats
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
        if self.step[i] != HALT_STEP {
            self.due[self.wake[i] as usize % WHEEL] -= 1;
        }
        self.due[self.now as usize % WHEEL] += 1;
        self.wake[i] = self.now;
        self.step[i] = c.step;
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

/// The columns of a batch a scan writes.
struct Columns<'a> {
    wake: &'a mut [u32],
    step: &'a mut [u32],
    sprite: &'a mut [u32],
    state: &'a mut [StateId],
}

/// What a scan did.
struct Scanned {
    woken: u32,
    insns: u64,
    /// Instances woken that were counted in `due` (not halted).
    counted: u32,
    /// Wake-ups whose slot differs from the previous wake-up's.
    switches: u32,
}

/// Applies its step to every instance whose wake-up tick is `now`, in
/// instance order, and adds their new wake-up ticks to `due`.
///
/// With `RUNS`, wake-up counts are added in runs of equal slots: fastest
/// when the instances waking together wait alike (a crowd walking in
/// step), but the slot-change branch mispredicts when waits vary. Without,
/// they go to four local tables in turn, branch-free, so that equal slots
/// in a row do not chain through one memory location: 15% faster on a
/// mixed population, 17% slower on the walk (see BENCHMARKS.md).
#[inline(always)]
fn scan<const RUNS: bool>(
    plan: &Plan,
    module: &crate::program::Module,
    cols: Columns<'_>,
    events: &mut Vec<BatchEvent>,
    due: &mut [u32; WHEEL],
    now: u32,
) -> Scanned {
    let Columns { wake, step, sprite, state } = cols;
    let mut sc = ScanState {
        plan,
        module,
        events,
        now,
        r: Scanned { woken: 0, insns: 0, counted: 0, switches: 0 },
        adds: [[0u32; WHEEL]; 4],
        run_slot: now as usize % WHEEL,
        run: 0,
    };
    let full = wake.len() / 64 * 64;
    let (wake_f, wake_r) = wake.split_at_mut(full);
    let (step_f, step_r) = step.split_at_mut(full);
    let (sprite_f, sprite_r) = sprite.split_at_mut(full);
    let (state_f, state_r) = state.split_at_mut(full);
    let chunks = wake_f
        .chunks_exact_mut(64)
        .zip(step_f.chunks_exact_mut(64))
        .zip(sprite_f.chunks_exact_mut(64))
        .zip(state_f.chunks_exact_mut(64));
    for (base, (((w, st), sp), sa)) in chunks.enumerate() {
        // Fixed-size chunks: every index below is provably in bounds.
        let (Ok(w), Ok(st), Ok(sp), Ok(sa)) = (w.try_into(), st.try_into(), sp.try_into(), sa.try_into()) else {
            continue;
        };
        sc.chunk::<RUNS>(base * 64, w, st, sp, sa);
    }
    // The last partial chunk goes through padded copies (a padding lane
    // never wakes: its tick is not `now`).
    let rest = wake_r.len();
    if rest > 0 {
        let mut w = [now.wrapping_add(1); 64];
        let (mut st, mut sp, mut sa) = ([0u32; 64], [0u32; 64], [0 as StateId; 64]);
        w[..rest].copy_from_slice(wake_r);
        st[..rest].copy_from_slice(step_r);
        sp[..rest].copy_from_slice(sprite_r);
        sa[..rest].copy_from_slice(state_r);
        sc.chunk::<RUNS>(full, &mut w, &mut st, &mut sp, &mut sa);
        wake_r.copy_from_slice(&w[..rest]);
        step_r.copy_from_slice(&st[..rest]);
        sprite_r.copy_from_slice(&sp[..rest]);
        state_r.copy_from_slice(&sa[..rest]);
    }
    if RUNS {
        sc.adds[0][sc.run_slot] += sc.run;
    }
    for (k, d) in due.iter_mut().enumerate() {
        *d += sc.adds[0][k] + sc.adds[1][k] + sc.adds[2][k] + sc.adds[3][k];
    }
    sc.r
}

/// What a scan carries from chunk to chunk.
struct ScanState<'a> {
    plan: &'a Plan,
    module: &'a crate::program::Module,
    events: &'a mut Vec<BatchEvent>,
    now: u32,
    r: Scanned,
    adds: [[u32; WHEEL]; 4],
    run_slot: usize,
    run: u32,
}

impl ScanState<'_> {
    /// One chunk of 64 instances from `base` (see [`scan`]).
    #[inline(always)]
    fn chunk<const RUNS: bool>(
        &mut self,
        base: usize,
        wake: &mut [u32; 64],
        step: &mut [u32; 64],
        sprite: &mut [u32; 64],
        state: &mut [StateId; 64],
    ) {
        let (plan, now) = (self.plan, self.now);
        let mut mask = eq_mask(wake, now);
        while mask != 0 {
            let j = mask.trailing_zeros() as usize & 63;
            mask &= mask - 1;
            let mut st = &plan.steps[step[j] as usize];
            let interpreted;
            if st.ev_len != 0 {
                let instance = (base + j) as u32;
                let events = &mut *self.events;
                if st.ev_len == INTERPRET {
                    interpreted = plan.interpret(self.module, st, |event| events.push(BatchEvent { instance, event }));
                    st = &interpreted;
                } else {
                    events.extend(plan.events(st).iter().map(|&event| BatchEvent { instance, event }));
                }
            }
            if st.sprite != KEEP {
                sprite[j] = st.sprite;
            }
            if st.state != KEEP_STATE {
                state[j] = st.state;
            }
            // A halted instance (at HALT_STEP) is not counted in `due`: only
            // its wake-up after 2^32 - 1 ticks can meet a scan, and its halt
            // step then changes nothing.
            self.r.counted += st.from_live as u32;
            step[j] = st.next;
            let w = now.wrapping_add(st.wait);
            wake[j] = w;
            let s = w as usize % WHEEL;
            if RUNS {
                if s != self.run_slot {
                    // `due` is added to at the end; runs are kept here.
                    self.adds[0][self.run_slot] += self.run;
                    self.run_slot = s;
                    self.run = 0;
                    self.r.switches += 1;
                }
                self.run += st.to_live as u32;
            } else {
                self.adds[self.r.woken as usize & 3][s] += st.to_live as u32;
                self.r.switches += (s != self.run_slot) as u32;
                self.run_slot = s;
            }
            self.r.woken += 1;
            self.r.insns += st.insns as u64;
        }
    }
}

/// Bit j set where `chunk[j] == now` (`chunk` has at most 64 entries).
#[inline]
fn eq_mask(chunk: &[u32], now: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if let Ok(c) = <&[u32; 64]>::try_from(chunk) {
        return eq_mask_sse2(c, now);
    }
    let mut m = 0u64;
    for (j, &w) in chunk.iter().enumerate() {
        m |= ((w == now) as u64) << j;
    }
    m
}

/// [`eq_mask`] for a full chunk with SSE2 (part of every x86-64 CPU): 16
/// lanes per `movemask`, where the portable loop compiles to shifts of
/// 64-bit lanes.
#[cfg(target_arch = "x86_64")]
#[inline]
#[allow(unused_unsafe)]
fn eq_mask_sse2(chunk: &[u32; 64], now: u32) -> u64 {
    use std::arch::x86_64::*;
    let mut m = 0u64;
    // SAFETY: SSE2 is in the x86-64 baseline, so the intrinsics exist on
    // every target this compiles for; each unaligned load reads 4 lanes at
    // `4 * q < 64`, inside `chunk`.
    unsafe {
        let k = _mm_set1_epi32(now as i32);
        let p = chunk.as_ptr() as *const __m128i;
        for g in 0..4 {
            let e0 = _mm_cmpeq_epi32(_mm_loadu_si128(p.add(4 * g)), k);
            let e1 = _mm_cmpeq_epi32(_mm_loadu_si128(p.add(4 * g + 1)), k);
            let e2 = _mm_cmpeq_epi32(_mm_loadu_si128(p.add(4 * g + 2)), k);
            let e3 = _mm_cmpeq_epi32(_mm_loadu_si128(p.add(4 * g + 3)), k);
            let bytes = _mm_packs_epi16(_mm_packs_epi32(e0, e1), _mm_packs_epi32(e2, e3));
            m |= (_mm_movemask_epi8(bytes) as u16 as u64) << (16 * g);
        }
    }
    m
}

/// Bytes of per-instance state a [`SpriteBatch`] keeps (wake-up tick, step,
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
