//! One sprite module of a bundle ([`SpriteModule`]), its handles
//! ([`State`], [`Event`]) and one animated sprite ([`Animation`]).

use super::batch::AnimationBatch;
use super::error::{RestoreError, UnknownEvent, UnknownState, nearest};
use crate::sprite::{InstanceSnapshot, Speed, SpriteInstance, Sprites, StateId};
use serde::{Deserialize, Serialize};

/// A state of a sprite module, found once by name with
/// [`SpriteModule::state`] (or by index with [`SpriteModule::state_at`]).
/// A handle is only meaningful for the module it came from (another
/// module reads it as its state of the same index, or its first state
/// past the end). `State::default()` is every module's first state.
///
/// ```
/// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
/// let walk = hero.state("Walk").unwrap();
/// assert_eq!(walk.index(), 0);
/// assert_eq!(hero.state_name(walk), "Walk");
/// assert_eq!(animkit_vm::game::State::default(), walk, "the first state");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct State(pub(super) StateId);

impl State {
    /// The state's index in its module (declaration order).
    pub fn index(self) -> u16 {
        self.0
    }
}

/// An event a sprite module fires, found once by name with
/// [`SpriteModule::event`], compared by value in the game loop.
///
/// ```
/// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
/// let step = hero.event("step").unwrap();
/// assert_eq!(hero.event_name(step), "step");
/// assert_eq!(hero.event_name(animkit_vm::game::Event::default()), "", "not an event of `hero`");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Event(pub(super) u32);

impl Event {
    /// The event's number in the bundle (its name's string-table index):
    /// the same for every module of one bundle.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// assert_eq!(hero.event("step").unwrap().id(), 2);
    /// ```
    pub fn id(self) -> u32 {
        self.0
    }
}

/// A sprite module of a [`super::Bundle`]: names to handles, and new
/// animations. Cheap to clone.
#[derive(Clone, Debug)]
pub struct SpriteModule {
    pub(super) sprites: Sprites,
    /// The events its code fires, sorted.
    events: std::sync::Arc<[u32]>,
}

impl SpriteModule {
    pub(super) fn new(sprites: Sprites) -> SpriteModule {
        let events = sprites.fired_events().into();
        SpriteModule { sprites, events }
    }

    /// Whether the module's code fires `id`.
    fn fires(&self, id: u32) -> bool {
        self.events.binary_search(&id).is_ok()
    }

    /// The module's name.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// assert_eq!(hero.name(), "hero");
    /// ```
    pub fn name(&self) -> &str {
        self.sprites.name()
    }

    /// The state `name` (case-sensitive); the error lists the nearest
    /// names.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// assert!(hero.state("Walk").is_ok());
    /// assert_eq!(hero.state("Wlak").unwrap_err().nearest, ["Walk"]);
    /// ```
    pub fn state(&self, name: &str) -> Result<State, UnknownState> {
        self.sprites.state_id(name).map(State).ok_or_else(|| UnknownState {
            name: name.to_string(),
            module: self.name().to_string(),
            nearest: nearest(name, (0..self.state_count() as StateId).map(|i| self.sprites.state_name(i))),
        })
    }

    /// Number of states (at least 1).
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// assert_eq!(hero.state_count(), 1);
    /// ```
    pub fn state_count(&self) -> usize {
        self.sprites.state_count()
    }

    /// The state of index `index` (declaration order, as [`State::index`]
    /// gives): for a state list the game keeps by index. `None` past the
    /// module's states.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// assert_eq!(hero.state_at(0), Some(hero.state("Walk").unwrap()));
    /// assert_eq!(hero.state_at(1), None);
    /// assert_eq!(hero.state_at(999), None);
    /// ```
    pub fn state_at(&self, index: usize) -> Option<State> {
        (index < self.state_count()).then_some(State(index as StateId))
    }

    /// The name of `state` (`""` for a handle of another module past this
    /// module's states).
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// assert_eq!(hero.state_name(hero.state_at(0).unwrap()), "Walk");
    /// ```
    pub fn state_name(&self, state: State) -> &str {
        self.sprites.state_name(state.0)
    }

    /// The sprite category of `state` (its `[alias]`, or its own name):
    /// which sheet to draw its frames from.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// assert_eq!(hero.category(hero.state("Walk").unwrap()), "Walk");
    /// ```
    pub fn category(&self, state: State) -> &str {
        self.sprites.category(state.0)
    }

    /// The event `name` (case-sensitive): one the module's code fires. A
    /// state's or the module's own name is not an event; the error lists
    /// the nearest event names.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// assert!(hero.event("step").is_ok());
    /// assert_eq!(hero.event("stpe").unwrap_err().to_string(), "no event named `stpe` in sprite module `hero`; did you mean `step`?");
    /// assert!(hero.event("Walk").is_err(), "a state");
    /// assert!(hero.event("hero").is_err(), "the module");
    /// ```
    pub fn event(&self, name: &str) -> Result<Event, UnknownEvent> {
        match self.sprites.event_id(name) {
            Some(id) if self.fires(id) => Ok(Event(id)),
            _ => Err(UnknownEvent {
                name: name.to_string(),
                module: self.name().to_string(),
                nearest: nearest(name, self.events.iter().map(|&e| self.sprites.event_name(e))),
            }),
        }
    }

    /// The event of number `id` (an [`Event::id`] a game kept, or got
    /// through the C ABI); `None` for a number that is not an event the
    /// module fires.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let step = hero.event("step").unwrap();
    /// assert_eq!(hero.event_by_id(step.id()), Some(step));
    /// assert_eq!(hero.event_by_id(u32::MAX), None);
    /// assert_eq!(hero.event_by_id(0), None, "a string of the bundle, not an event");
    /// ```
    pub fn event_by_id(&self, id: u32) -> Option<Event> {
        self.fires(id).then_some(Event(id))
    }

    /// The name of `event` (`""` for an event the module does not fire,
    /// such as `Event::default()`).
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// assert_eq!(hero.event_name(hero.event("step").unwrap()), "step");
    /// assert_eq!(hero.event_name(animkit_vm::game::Event::default()), "");
    /// ```
    pub fn event_name(&self, event: Event) -> &str {
        if self.fires(event.0) { self.sprites.event_name(event.0) } else { "" }
    }

    /// A hash of the module's behaviour that every snapshot carries: a
    /// snapshot restores only into a module with the same hash.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// assert_eq!(hero.module_hash(), hero.clone().module_hash());
    /// ```
    pub fn module_hash(&self) -> u64 {
        self.sprites.module_hash()
    }

    /// The index a handle stands for in this module (past the end: 0).
    pub(super) fn id(&self, state: State) -> StateId {
        if (state.0 as usize) < self.state_count() { state.0 } else { 0 }
    }

    /// A new animation in `state`; it shows the state's first frame from
    /// its first [`Animation::tick`].
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let mut a = hero.spawn(hero.state("Walk").unwrap());
    /// a.tick();
    /// assert_eq!(a.frame(), 0);
    /// ```
    pub fn spawn(&self, state: State) -> Animation {
        self.spawn_at(state, 0)
    }

    /// A new animation in `state`, entered `phase` animation ticks in, so
    /// that a crowd does not walk in lockstep (the skipped ticks fire no
    /// events).
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// // Walk: 2|step, 2, _loop shows 0 0 1 1 0 0 ...
    /// let mut a = hero.spawn_at(hero.state("Walk").unwrap(), 2);
    /// a.tick();
    /// assert_eq!(a.frame(), 1);
    /// ```
    pub fn spawn_at(&self, state: State, phase: u32) -> Animation {
        let inner = self.sprites.instance_id(self.id(state), phase);
        Animation { inner, in_state: 0 }
    }

    /// An empty batch of animations of this module (see [`AnimationBatch`]).
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// assert!(hero.batch().is_empty());
    /// ```
    pub fn batch(&self) -> AnimationBatch {
        AnimationBatch::new(self.clone())
    }
}

/// One animated sprite: its state, frame, clock (speed and phase) and
/// pending events.
///
/// Tick model: the frame read after the t-th `tick()` is the sprite shown
/// during tick t; the events drained after it fired on entering frames at
/// its start, in order. `advance(n)` is exactly `n` ticks, in time that
/// grows with the events kept, not with `n`. At most
/// [`super::MAX_PENDING_EVENTS`] events stay pending: those fired while
/// that many are pending are dropped and counted
/// ([`Animation::dropped_events`]).
#[derive(Clone, Debug)]
pub struct Animation {
    inner: SpriteInstance,
    in_state: u64,
}

impl Animation {
    /// One fixed tick (no allocation once the event buffer has grown to
    /// the most events one tick fires).
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let mut a = hero.spawn(hero.state("Walk").unwrap());
    /// for _ in 0..3 { a.tick(); }
    /// assert_eq!(a.frame(), 1);
    /// ```
    pub fn tick(&mut self) {
        self.inner.tick();
        self.in_state = self.in_state.saturating_add(1);
    }

    /// `ticks` ticks at once, exactly as that many calls of
    /// [`Animation::tick`]: for a sprite that was off screen or paused.
    /// Whole trips round a looping state are skipped in one step, so
    /// `advance(u32::MAX)` returns at once; of its events, the first
    /// [`super::MAX_PENDING_EVENTS`] (less those already pending) are
    /// kept, the rest counted in [`Animation::dropped_events`].
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let mut a = hero.spawn(hero.state("Walk").unwrap());
    /// a.advance(1_000_003);
    /// assert_eq!((a.frame(), a.time_in_state()), (1, 1_000_003));
    /// ```
    pub fn advance(&mut self, ticks: u32) {
        self.inner.advance(ticks);
        self.in_state = self.in_state.saturating_add(ticks as u64);
    }

    /// Sets the playback speed from the next tick on: [`Speed::PAUSED`]
    /// pauses, `Speed::ratio(2, 1)` plays twice as fast.
    ///
    /// ```
    /// use animkit_vm::game::Speed;
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let mut a = hero.spawn(hero.state("Walk").unwrap());
    /// a.set_speed(Speed::ratio(2, 1).unwrap());
    /// a.tick(); a.tick();
    /// assert_eq!(a.frame(), 1);
    /// assert_eq!(a.speed(), Speed::ratio(2, 1).unwrap());
    /// ```
    pub fn set_speed(&mut self, speed: Speed) {
        self.inner.set_speed(speed);
    }

    /// The playback speed.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// assert_eq!(hero.spawn(hero.state("Walk").unwrap()).speed(), animkit_vm::game::Speed::ONE);
    /// ```
    pub fn speed(&self) -> Speed {
        self.inner.speed()
    }

    /// Switches to `state` at the next tick; nothing happens when already
    /// in it (see [`Animation::restart`]).
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let walk = hero.state("Walk").unwrap();
    /// let mut a = hero.spawn(walk);
    /// a.tick(); a.tick(); a.tick();
    /// a.set_state(walk); // already walking
    /// assert_eq!(a.time_in_state(), 3);
    /// ```
    pub fn set_state(&mut self, state: State) {
        self.set_state_at(state, 0);
    }

    /// [`Animation::set_state`], entering `phase` animation ticks in.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let walk = hero.state("Walk").unwrap();
    /// let mut a = hero.spawn(walk);
    /// a.set_state_at(walk, 2); // already walking: no effect
    /// a.tick();
    /// assert_eq!(a.frame(), 0);
    /// ```
    pub fn set_state_at(&mut self, state: State, phase: u32) {
        let id = self.module_id(state);
        if self.inner.state() != id {
            self.restart_at(state, phase);
        }
    }

    /// Starts `state` over at the next tick, even when already in it.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let walk = hero.state("Walk").unwrap();
    /// let mut a = hero.spawn(walk);
    /// a.tick(); a.tick(); a.tick();
    /// a.restart(walk);
    /// a.tick();
    /// assert_eq!((a.frame(), a.time_in_state()), (0, 1));
    /// ```
    pub fn restart(&mut self, state: State) {
        self.restart_at(state, 0);
    }

    /// [`Animation::restart`], entering `phase` animation ticks in.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let walk = hero.state("Walk").unwrap();
    /// let mut a = hero.spawn(walk);
    /// a.restart_at(walk, 2);
    /// a.tick();
    /// assert_eq!(a.frame(), 1);
    /// ```
    pub fn restart_at(&mut self, state: State, phase: u32) {
        let id = self.module_id(state);
        self.inner.restart_state_id_at(id, phase);
        self.in_state = 0;
    }

    fn module_id(&self, state: State) -> StateId {
        if (state.0 as usize) < self.inner.sprites().state_count() { state.0 } else { 0 }
    }

    /// The current state (after the transitions its code took).
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let walk = hero.state("Walk").unwrap();
    /// assert_eq!(hero.spawn(walk).state(), walk);
    /// ```
    pub fn state(&self) -> State {
        State(self.inner.state())
    }

    /// The sprite index to draw from the state's sheet.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let mut a = hero.spawn(hero.state("Walk").unwrap());
    /// let frames: Vec<u32> = (0..5).map(|_| { a.tick(); a.frame() }).collect();
    /// assert_eq!(frames, [0, 0, 1, 1, 0]);
    /// ```
    pub fn frame(&self) -> u32 {
        self.inner.frame()
    }

    /// Ticks run since the game last entered a state (spawn,
    /// [`Animation::restart`], or a [`Animation::set_state`] that changed
    /// it), as Spine's track time: a transition the animation's own code
    /// takes (`Jump: ..., Fall`) does not reset it.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let mut a = hero.spawn(hero.state("Walk").unwrap());
    /// assert_eq!(a.time_in_state(), 0);
    /// a.advance(7);
    /// assert_eq!(a.time_in_state(), 7);
    /// ```
    pub fn time_in_state(&self) -> u64 {
        self.in_state
    }

    /// Whether it is waiting for the game (a `_wait` end, or a halt).
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// assert!(!hero.spawn(hero.state("Walk").unwrap()).is_waiting());
    /// ```
    pub fn is_waiting(&self) -> bool {
        self.inner.is_waiting()
    }

    /// Number of events fired and not yet drained.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let mut a = hero.spawn(hero.state("Walk").unwrap());
    /// a.advance(4);
    /// assert_eq!(a.pending_events(), 1);
    /// ```
    pub fn pending_events(&mut self) -> usize {
        self.inner.pending_mut().len()
    }

    /// Events dropped since the animation was made because
    /// [`super::MAX_PENDING_EVENTS`] were pending: the newest are dropped,
    /// those kept stay in order (a snapshot does not carry the count).
    ///
    /// ```
    /// use animkit_vm::game::MAX_PENDING_EVENTS;
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let mut a = hero.spawn(hero.state("Walk").unwrap());
    /// a.advance(u32::MAX); // `step` every 4 ticks: 1 073 741 824 of them
    /// assert_eq!(a.pending_events(), MAX_PENDING_EVENTS);
    /// assert_eq!(a.dropped_events(), 1_073_741_824 - 65_536);
    /// ```
    pub fn dropped_events(&self) -> u64 {
        self.inner.dropped_events()
    }

    /// Moves the oldest pending events into `out` (as many as fit, in the
    /// order they fired) and returns how many; the rest stay pending for
    /// the next call. Allocates nothing.
    ///
    /// ```
    /// use animkit_vm::game::Event;
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let mut a = hero.spawn(hero.state("Walk").unwrap());
    /// a.advance(9); // three `step`s
    /// let mut buf = [Event::default(); 2];
    /// assert_eq!(a.drain_events(&mut buf), 2);
    /// assert_eq!(buf, [hero.event("step").unwrap(); 2]);
    /// assert_eq!(a.drain_events(&mut buf), 1);
    /// assert_eq!(a.drain_events(&mut buf), 0);
    /// ```
    pub fn drain_events(&mut self, out: &mut [Event]) -> usize {
        let pending = self.inner.pending_mut();
        let n = pending.len().min(out.len());
        for (o, e) in out.iter_mut().zip(pending.drain(..n)) {
            *o = Event(e);
        }
        n
    }

    /// Moves the animation onto `to`, a new build of its module (the same
    /// module from a recompiled bundle: hot reload), as
    /// [`AnimationBatch::reload`] does for each of a batch's: it keeps its
    /// state by name, frame position and ticks into the frame (clamped
    /// where the new state is shorter), speed and phase; if `to` lacks its
    /// state it restarts in `fallback` (a state of `to`; past its states,
    /// `to`'s first) at the next tick and its time in state starts over.
    /// Pending events are kept by name (those `to` lacks are dropped).
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let again = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let walk = hero.state("Walk").unwrap();
    /// let mut a = hero.spawn(walk);
    /// a.advance(3);
    /// let report = a.reload(&again, walk);
    /// assert_eq!((report.fell_back, report.clamped), (0, 0));
    /// a.tick();
    /// assert_eq!((a.frame(), a.time_in_state()), (1, 4), "still in the second frame");
    /// ```
    pub fn reload(&mut self, to: &SpriteModule, fallback: State) -> crate::sprite::ReloadReport {
        let fallback_name = to.state_name(State(to.id(fallback))).to_string();
        let from = self.inner.sprites().clone();
        let kept = to.sprites.state_id(from.state_name(self.inner.state())).is_some();
        match self.inner.reload(&to.sprites, Some(&fallback_name)) {
            Ok(report) => {
                if !kept {
                    self.in_state = 0;
                }
                report
            }
            // A fallback that names a state of `to` is always found.
            Err(_) => crate::sprite::ReloadReport::default(),
        }
    }

    /// Saves the animation (serde): restoring it into any animation of the
    /// same module gives the same frames, states and events from here on.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let walk = hero.state("Walk").unwrap();
    /// let mut a = hero.spawn(walk);
    /// a.advance(3);
    /// let saved = a.snapshot();
    /// let mut b = hero.spawn(walk);
    /// b.restore(&saved).unwrap();
    /// a.tick(); b.tick();
    /// assert_eq!((a.frame(), a.time_in_state()), (b.frame(), b.time_in_state()));
    /// ```
    pub fn snapshot(&self) -> AnimationSnapshot {
        AnimationSnapshot { instance: self.inner.snapshot(), in_state: self.in_state }
    }

    /// Restores a snapshot of this module; on an error the animation is
    /// unchanged.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let mut a = hero.spawn(hero.state("Walk").unwrap());
    /// let saved = a.snapshot();
    /// assert!(a.restore(&saved).is_ok());
    /// ```
    pub fn restore(&mut self, snapshot: &AnimationSnapshot) -> Result<(), RestoreError> {
        self.inner.restore(&snapshot.instance).map_err(RestoreError::from_sprite)?;
        self.in_state = snapshot.in_state;
        Ok(())
    }
}

/// A saved [`Animation`] (serde: any format a game saves in).
///
/// ```
/// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
/// let saved = hero.spawn(hero.state("Walk").unwrap()).snapshot();
/// assert_eq!(saved.module_hash(), hero.module_hash());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnimationSnapshot {
    instance: InstanceSnapshot,
    in_state: u64,
}

impl AnimationSnapshot {
    /// The hash of the module it was taken of ([`SpriteModule::module_hash`]).
    pub fn module_hash(&self) -> u64 {
        self.instance.module_hash()
    }
}
