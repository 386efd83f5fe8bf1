//! Many animations of one sprite module ([`AnimationBatch`]): the
//! column-wise batch that touches only the instances whose frame ends.

use super::animation::{Event, SpriteModule, State};
use super::error::RestoreError;
use crate::sprite::{self, ReloadReport, Speed, SpriteBatch};
use serde::{Deserialize, Serialize};

/// An event fired by instance `instance` of an [`AnimationBatch`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct InstanceEvent {
    /// The instance's index in its batch.
    pub instance: u32,
    /// The event.
    pub event: Event,
}

/// Many animations of one sprite module, indexed from 0 in spawn order.
/// A tick costs next to nothing for instances in the middle of a frame;
/// [`AnimationBatch::advance`] catches up in time that grows with the
/// instances and the events kept. At most [`super::MAX_PENDING_EVENTS`]
/// events stay pending for the whole batch; those fired while that many
/// are pending /// are dropped and counted ([`AnimationBatch::dropped_events`]).
/// Instances are addressed by index: a read past the end answers `None`
/// (as [`slice::get`] does), a setter past the end changes nothing.
///
/// ```
/// use animkit_vm::game::InstanceEvent;
/// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
/// let walk = hero.state("Walk").unwrap();
/// let mut crowd = hero.batch();
/// for i in 0..3 {
///     crowd.spawn_at(walk, i);
/// }
/// crowd.tick();
/// assert_eq!(crowd.frames(), &[0, 0, 1]);
/// let mut events = [InstanceEvent::default(); 16];
/// let n = crowd.drain_events(&mut events);
/// let who: Vec<u32> = events[..n].iter().map(|e| e.instance).collect();
/// assert_eq!(who, [0], "a phase skips the events of the ticks it skips");
/// ```
#[derive(Clone, Debug)]
pub struct AnimationBatch {
    module: SpriteModule,
    inner: SpriteBatch,
    /// Ticks run since the batch was made.
    ticks: u64,
    /// Per instance, `ticks` when the game last entered its state.
    entered: Vec<u64>,
}

impl AnimationBatch {
    pub(super) fn new(module: SpriteModule) -> AnimationBatch {
        let inner = module.sprites.batch();
        AnimationBatch { module, inner, ticks: 0, entered: Vec::new() }
    }

    /// The module of this batch.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// assert_eq!(hero.batch().module().name(), "hero");
    /// ```
    pub fn module(&self) -> &SpriteModule {
        &self.module
    }

    /// Adds an animation in `state`; returns its index.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let mut b = hero.batch();
    /// assert_eq!(b.spawn(hero.state("Walk").unwrap()), 0);
    /// assert_eq!(b.spawn(hero.state("Walk").unwrap()), 1);
    /// ```
    pub fn spawn(&mut self, state: State) -> u32 {
        self.spawn_at(state, 0)
    }

    /// Adds an animation in `state` entered `phase` animation ticks in.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let mut b = hero.batch();
    /// b.spawn_at(hero.state("Walk").unwrap(), 2);
    /// b.tick();
    /// assert_eq!(b.frame(0), Some(1));
    /// ```
    pub fn spawn_at(&mut self, state: State, phase: u32) -> u32 {
        self.entered.push(self.ticks);
        self.inner.spawn_id(self.module.id(state), phase)
    }

    /// Whether `i` is the index of an animation.
    fn has(&self, i: u32) -> bool {
        (i as usize) < self.len()
    }

    /// Number of animations.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let mut b = hero.batch();
    /// b.spawn(hero.state("Walk").unwrap());
    /// assert_eq!(b.len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        self.inner.len()
    }

    /// Whether it has no animations.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// assert!(hero.batch().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.inner.is_empty()
    }

    /// One fixed tick of every animation.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let mut b = hero.batch();
    /// b.spawn(hero.state("Walk").unwrap());
    /// b.tick(); b.tick(); b.tick();
    /// assert_eq!(b.frame(0), Some(1));
    /// ```
    pub fn tick(&mut self) {
        self.inner.tick();
        self.ticks += 1;
    }

    /// `ticks` ticks at once, exactly as that many calls of
    /// [`AnimationBatch::tick`] (events in the order those ticks fire them:
    /// the earliest [`super::MAX_PENDING_EVENTS`], less those already
    /// pending, are kept; the rest are counted in
    /// [`AnimationBatch::dropped_events`]). Whole trips round a looping
    /// state are skipped in one step: `advance(u32::MAX)` returns at once.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let mut b = hero.batch();
    /// b.spawn(hero.state("Walk").unwrap());
    /// b.advance(1_000_003);
    /// assert_eq!((b.frame(0), b.time_in_state(0)), (Some(1), Some(1_000_003)));
    /// ```
    pub fn advance(&mut self, ticks: u32) {
        self.inner.advance(ticks);
        self.ticks += ticks as u64;
    }

    /// Switches animation `i` to `state` at the next tick (no-op when
    /// already in it).
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let walk = hero.state("Walk").unwrap();
    /// let mut b = hero.batch();
    /// b.spawn(walk);
    /// b.tick();
    /// b.set_state(0, walk);
    /// assert_eq!(b.time_in_state(0), Some(1));
    /// ```
    pub fn set_state(&mut self, i: u32, state: State) {
        self.set_state_at(i, state, 0);
    }

    /// [`AnimationBatch::set_state`], entering `phase` animation ticks in.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let walk = hero.state("Walk").unwrap();
    /// let mut b = hero.batch();
    /// b.spawn(walk);
    /// b.set_state_at(0, walk, 2); // already walking
    /// b.tick();
    /// assert_eq!(b.frame(0), Some(0));
    /// ```
    pub fn set_state_at(&mut self, i: u32, state: State, phase: u32) {
        let id = self.module.id(state);
        if self.has(i) && self.inner.state(i) != id {
            self.restart_at(i, state, phase);
        }
    }

    /// Starts animation `i` over in `state` at the next tick.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let walk = hero.state("Walk").unwrap();
    /// let mut b = hero.batch();
    /// b.spawn(walk);
    /// b.advance(3);
    /// b.restart(0, walk);
    /// b.tick();
    /// assert_eq!((b.frame(0), b.time_in_state(0)), (Some(0), Some(1)));
    /// ```
    pub fn restart(&mut self, i: u32, state: State) {
        self.restart_at(i, state, 0);
    }

    /// [`AnimationBatch::restart`], entering `phase` animation ticks in.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let walk = hero.state("Walk").unwrap();
    /// let mut b = hero.batch();
    /// b.spawn(walk);
    /// b.restart_at(0, walk, 2);
    /// b.tick();
    /// assert_eq!(b.frame(0), Some(1));
    /// ```
    pub fn restart_at(&mut self, i: u32, state: State, phase: u32) {
        if let Some(e) = self.entered.get_mut(i as usize) {
            *e = self.ticks;
            self.inner.enter_id(i, self.module.id(state), phase, true);
        }
    }

    /// Sets animation `i`'s speed from the next tick on.
    ///
    /// ```
    /// use animkit_vm::game::Speed;
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let mut b = hero.batch();
    /// b.spawn(hero.state("Walk").unwrap());
    /// b.set_speed(0, Speed::PAUSED);
    /// b.advance(10);
    /// assert_eq!((b.frame(0), b.speed(0)), (Some(0), Some(Speed::PAUSED)));
    /// ```
    pub fn set_speed(&mut self, i: u32, speed: Speed) {
        self.inner.set_speed(i, speed);
    }

    /// Animation `i`'s speed; `None` past the end.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let mut b = hero.batch();
    /// b.spawn(hero.state("Walk").unwrap());
    /// assert_eq!((b.speed(0), b.speed(1)), (Some(animkit_vm::game::Speed::ONE), None));
    /// ```
    pub fn speed(&self, i: u32) -> Option<Speed> {
        self.has(i).then(|| self.inner.speed(i))
    }

    /// Animation `i`'s current state; `None` past the end.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let walk = hero.state("Walk").unwrap();
    /// let mut b = hero.batch();
    /// b.spawn(walk);
    /// assert_eq!((b.state(0), b.state(1)), (Some(walk), None));
    /// ```
    pub fn state(&self, i: u32) -> Option<State> {
        self.has(i).then(|| State(self.inner.state(i)))
    }

    /// Animation `i`'s sprite index; `None` past the end.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let mut b = hero.batch();
    /// b.spawn(hero.state("Walk").unwrap());
    /// b.advance(3);
    /// assert_eq!((b.frame(0), b.frame(99)), (Some(1), None));
    /// ```
    pub fn frame(&self, i: u32) -> Option<u32> {
        self.inner.frames().get(i as usize).copied()
    }

    /// Every animation's sprite index, in index order (a column, to copy
    /// into a game's instance buffer).
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let mut b = hero.batch();
    /// b.spawn(hero.state("Walk").unwrap());
    /// b.tick();
    /// assert_eq!(b.frames(), &[0]);
    /// ```
    pub fn frames(&self) -> &[u32] {
        self.inner.frames()
    }

    /// Ticks since the game last entered animation `i`'s state (see
    /// [`super::Animation::time_in_state`]); `None` past the end.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let mut b = hero.batch();
    /// b.advance(5);
    /// b.spawn(hero.state("Walk").unwrap());
    /// b.advance(2);
    /// assert_eq!((b.time_in_state(0), b.time_in_state(1)), (Some(2), None));
    /// ```
    pub fn time_in_state(&self, i: u32) -> Option<u64> {
        self.entered.get(i as usize).map(|&e| self.ticks - e)
    }

    /// Whether animation `i` is waiting for the game (a `_wait` end, or a
    /// halt); `None` past the end.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let mut b = hero.batch();
    /// b.spawn(hero.state("Walk").unwrap());
    /// b.advance(100);
    /// assert_eq!((b.is_waiting(0), b.is_waiting(1)), (Some(false), None), "Walk loops");
    /// ```
    pub fn is_waiting(&self, i: u32) -> Option<bool> {
        self.inner.is_waiting(i)
    }

    /// Removes animation `i`: the last animation takes index `i`
    /// (swap-remove), every other index stays as it was. Its pending
    /// events go with it; the moved animation's are renumbered. Returns
    /// false, changing nothing, for an index past the end.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let walk = hero.state("Walk").unwrap();
    /// let mut b = hero.batch();
    /// b.spawn_at(walk, 0);
    /// b.spawn_at(walk, 1);
    /// b.spawn_at(walk, 2);
    /// assert!(b.remove(0));
    /// b.tick();
    /// assert_eq!(b.frames(), &[1, 0], "the last took index 0");
    /// assert!(!b.remove(2));
    /// ```
    pub fn remove(&mut self, i: u32) -> bool {
        if !self.inner.swap_remove(i) {
            return false;
        }
        self.entered.swap_remove(i as usize);
        true
    }

    /// Number of events fired and not yet drained.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let mut b = hero.batch();
    /// b.spawn(hero.state("Walk").unwrap());
    /// b.tick();
    /// assert_eq!(b.pending_events(), 1);
    /// ```
    pub fn pending_events(&mut self) -> usize {
        self.inner.pending_mut().len()
    }

    /// Events dropped since the batch was made because
    /// [`super::MAX_PENDING_EVENTS`] were pending: the newest are dropped,
    /// those kept stay in order (a snapshot does not carry the count).
    ///
    /// ```
    /// use animkit_vm::game::MAX_PENDING_EVENTS;
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let mut b = hero.batch();
    /// b.spawn(hero.state("Walk").unwrap());
    /// b.advance(u32::MAX); // `step` every 4 ticks: 1 073 741 824 of them
    /// assert_eq!(b.pending_events(), MAX_PENDING_EVENTS);
    /// assert_eq!(b.dropped_events(), 1_073_741_824 - 65_536);
    /// ```
    pub fn dropped_events(&self) -> u64 {
        self.inner.dropped_events()
    }

    /// Moves the oldest pending events into `out` (as many as fit, by tick
    /// then by instance) and returns how many; the rest stay pending.
    /// Allocates nothing.
    ///
    /// ```
    /// use animkit_vm::game::InstanceEvent;
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let mut b = hero.batch();
    /// b.spawn(hero.state("Walk").unwrap());
    /// b.spawn(hero.state("Walk").unwrap());
    /// b.tick();
    /// let mut buf = [InstanceEvent::default(); 1];
    /// assert_eq!(b.drain_events(&mut buf), 1);
    /// assert_eq!(buf[0].instance, 0);
    /// assert_eq!(b.drain_events(&mut buf), 1);
    /// assert_eq!(buf[0].instance, 1);
    /// ```
    pub fn drain_events(&mut self, out: &mut [InstanceEvent]) -> usize {
        let pending = self.inner.pending_mut();
        let n = pending.len().min(out.len());
        for (o, e) in out.iter_mut().zip(pending.drain(..n)) {
            *o = InstanceEvent { instance: e.instance, event: Event(e.event) };
        }
        n
    }

    /// Moves every animation onto `to`, a new build of this batch's module
    /// (the same module from a recompiled bundle: hot reload), keeping
    /// indices. Each animation keeps its state by name, its frame position
    /// and ticks into the frame (clamped where the new state is shorter),
    /// speed and phase; one whose state `to` lacks restarts in `fallback`
    /// (a state of `to`; past its states, `to`'s first state) at the next
    /// tick, and its time in state starts over. Pending events are kept by
    /// name (those `to` lacks are dropped). The report counts each case.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let again = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let walk = hero.state("Walk").unwrap();
    /// let mut b = hero.batch();
    /// b.spawn(walk);
    /// b.advance(3);
    /// let report = b.reload(&again, walk);
    /// assert_eq!((report.fell_back, report.clamped), (0, 0));
    /// b.tick();
    /// assert_eq!((b.frame(0), b.time_in_state(0)), (Some(1), Some(4)), "still in the second frame");
    /// ```
    pub fn reload(&mut self, to: &SpriteModule, fallback: State) -> ReloadReport {
        let fallback_name = to.state_name(State(to.id(fallback))).to_string();
        let kept: Vec<bool> = (0..self.len() as u32)
            .map(|i| to.sprites.state_id(self.module.sprites.state_name(self.inner.state(i))).is_some())
            .collect();
        match self.inner.reload(&to.sprites, Some(&fallback_name)) {
            Ok(report) => {
                for (e, kept) in self.entered.iter_mut().zip(kept) {
                    if !kept {
                        *e = self.ticks;
                    }
                }
                self.module = to.clone();
                report
            }
            // A fallback that names a state of `to` is always found.
            Err(_) => ReloadReport::default(),
        }
    }

    /// Saves the batch (serde).
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let mut b = hero.batch();
    /// b.spawn(hero.state("Walk").unwrap());
    /// b.advance(3);
    /// let saved = b.snapshot();
    /// let mut c = hero.batch();
    /// c.restore(&saved).unwrap();
    /// b.tick(); c.tick();
    /// assert_eq!((b.frames(), b.time_in_state(0)), (c.frames(), c.time_in_state(0)));
    /// ```
    pub fn snapshot(&self) -> BatchSnapshot {
        let in_state = self.entered.iter().map(|&e| self.ticks - e).collect();
        BatchSnapshot { batch: self.inner.snapshot(), in_state }
    }

    /// Restores a snapshot of this module (instances are replaced); on an
    /// error the batch is unchanged.
    ///
    /// ```
    /// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
    /// let saved = hero.batch().snapshot();
    /// assert!(hero.batch().restore(&saved).is_ok());
    /// ```
    pub fn restore(&mut self, snapshot: &BatchSnapshot) -> Result<(), RestoreError> {
        if snapshot.in_state.len() != snapshot.batch.len() {
            return Err(RestoreError::Invalid(format!(
                "{} instances but {} times in state",
                snapshot.batch.len(),
                snapshot.in_state.len()
            )));
        }
        self.inner.restore(&snapshot.batch).map_err(RestoreError::from_sprite)?;
        // Times are kept relative to a tick count that starts past the
        // longest of them, so that none is negative.
        self.ticks = snapshot.in_state.iter().copied().max().unwrap_or(0);
        self.entered.clear();
        self.entered.extend(snapshot.in_state.iter().map(|&t| self.ticks - t));
        Ok(())
    }
}

/// A saved [`AnimationBatch`] (serde).
///
/// ```
/// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
/// let mut b = hero.batch();
/// b.spawn(hero.state("Walk").unwrap());
/// let saved = b.snapshot();
/// assert_eq!((saved.len(), saved.module_hash()), (1, hero.module_hash()));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BatchSnapshot {
    batch: sprite::BatchSnapshot,
    in_state: Vec<u64>,
}

impl BatchSnapshot {
    /// The hash of the module it was taken of.
    pub fn module_hash(&self) -> u64 {
        self.batch.module_hash()
    }

    /// Number of animations saved.
    pub fn len(&self) -> usize {
        self.batch.len()
    }

    /// Whether it saved no animation.
    pub fn is_empty(&self) -> bool {
        self.batch.is_empty()
    }
}
