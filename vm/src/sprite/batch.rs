//! Many instances of one sprite module ([`SpriteBatch`]), stored
//! column-wise, woken by a scan of their wake-up ticks (`scan.rs`);
//! instances at another speed than 1 or with a phase to skip go through
//! the slow path (`slow.rs`).

use super::advance::{self, Work};
use super::instance::Cursor;
use super::pending::{Discard, Fired, MAX_PENDING_EVENTS};
use super::plan::{HALT_STEP, HALTED, SLOW_STEP};
use super::scan::{Columns, scan};
use super::slow::{Slow, catch_up, place};
use super::speed::{Clock, ENTRY_CREDIT, Speed};
use super::tables::Tables;
use super::{EventId, SpriteError, Sprites, StateId};
use serde::{Deserialize, Serialize};

/// An event fired by an instance of a [`SpriteBatch`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BatchEvent {
    /// Index of the instance in the batch.
    pub instance: u32,
    /// The event.
    pub event: EventId,
}

/// Slots of a batch's wake-up counts (a power of two).
pub(super) const WHEEL: usize = 64;

/// Many instances of one sprite module, stored column-wise.
///
/// Each instance has an absolute wake-up tick; a tick compares the dense
/// `wake` column with the tick number (a read-only scan, vectorised) and
/// applies one pre-run step (see the module docs) to each instance whose frame ends, in
/// instance order; the others are not touched at all. A small ring of
/// counts of wake-up ticks modulo 64 (halted instances not counted) lets a
/// tick on which no instance wakes skip the scan, so a batch of instances
/// mid-countdown, or waiting on `_wait`, costs next to nothing.
///
/// Speeds and phases ([`SpriteBatch::set_speed`], [`SpriteBatch::spawn_at`])
/// behave as on a [`SpriteInstance`](super::SpriteInstance); instances
/// using them live on a slow path (`slow.rs`) whose extra column
/// ([`SpriteBatch::slow_bytes`]) the batch allocates the first time it is
/// needed, so a batch that plays everything at speed 1 is not slowed down;
/// a speed with few cases gets steps pre-run for it (`tables.rs`), so
/// members at it wake as cheaply as at speed 1.
#[derive(Clone, Debug)]
pub struct SpriteBatch {
    pub(super) sprites: Sprites,
    /// Number of the next tick (wrapping).
    pub(super) now: u32,
    /// `due[t % WHEEL]`: instances whose `wake % WHEEL == t % WHEEL`.
    pub(super) due: [u32; WHEEL],
    /// Tick at which each instance applies its next step. A halted
    /// instance wakes `2^32 - 1` ticks later, to its no-op halt step.
    pub(super) wake: Vec<u32>,
    /// The step each instance applies when it wakes ([`SLOW_STEP`] for an
    /// instance on the slow path).
    pub(super) step: Vec<u32>,
    pub(super) sprite: Vec<u32>,
    pub(super) state: Vec<StateId>,
    /// Empty until some instance first leaves speed 1; then one slot per
    /// instance (`slow.rs`).
    pub(super) slow: Vec<Slow>,
    /// Steps pre-run per speed in use (`tables.rs`): empty until an
    /// instance is placed at a speed that has a table.
    pub(super) tables: Tables,
    pub(super) events: Vec<BatchEvent>,
    /// Events fired while [`MAX_PENDING_EVENTS`] were pending.
    pub(super) dropped: u64,
    /// `advance`'s events before they are put in tick order, with the
    /// tick and the order they fired in (kept: its capacity is reused;
    /// at most twice the room under the cap, `pending.rs`).
    pub(super) fired: Vec<(u64, u64, BatchEvent)>,
    pub(super) stats: BatchStats,
    /// Whether the next scan adds wake-up counts in runs (see `scan`).
    pub(super) runs: bool,
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
    /// Trips round a cycle of frames (a looping state, a cycle of
    /// transitions) that [`SpriteBatch::advance`] took in one
    /// multiplication instead of frame by frame; their frame changes are
    /// counted in `frame_changes`.
    pub trips_skipped: u64,
    /// Frame changes that went through the slow path's general catch-up
    /// (a phase to skip, a speed without a pre-run table, the wake-up
    /// that enters a table); a wake-up at a tabled speed is a table step
    /// and is not counted here.
    pub slow_wakes: u64,
}

impl SpriteBatch {
    /// An empty batch of instances of `sprites`.
    pub(super) fn new(sprites: Sprites) -> SpriteBatch {
        SpriteBatch {
            sprites,
            now: 0,
            due: [0; WHEEL],
            wake: Vec::new(),
            step: Vec::new(),
            sprite: Vec::new(),
            state: Vec::new(),
            slow: Vec::new(),
            tables: Tables::default(),
            events: Vec::new(),
            dropped: 0,
            fired: Vec::new(),
            stats: BatchStats::default(),
            runs: true,
        }
    }

    /// Adds an instance in state `state`; returns its index.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// let mut b = s.batch();
    /// assert_eq!(b.spawn("Walk").unwrap(), 0);
    /// assert_eq!(b.spawn("Walk").unwrap(), 1);
    /// ```
    pub fn spawn(&mut self, state: &str) -> Result<u32, SpriteError> {
        self.spawn_at(state, 0)
    }

    /// Adds an instance in state `state`, entered `phase` animation ticks
    /// in (see [`SpriteInstance::restart_state_at`](super::SpriteInstance::restart_state_at)):
    /// a crowd spawned with different phases does not walk in lockstep.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// let mut b = s.batch();
    /// b.spawn_at("Walk", 0).unwrap();
    /// b.spawn_at("Walk", 2).unwrap();
    /// b.tick();
    /// assert_eq!(b.frames(), &[0, 1]);
    /// ```
    pub fn spawn_at(&mut self, state: &str, phase: u32) -> Result<u32, SpriteError> {
        let id = self.sprites.state_id(state).ok_or_else(|| SpriteError::NoState(state.to_string()))?;
        Ok(self.spawn_id(id, phase))
    }

    /// [`SpriteBatch::spawn_at`] by state id (in range: the caller checks).
    pub(crate) fn spawn_id(&mut self, id: StateId, phase: u32) -> u32 {
        let c = Cursor::enter(&self.sprites, id);
        self.wake.push(self.now);
        self.due[self.now as usize % WHEEL] += 1;
        self.step.push(c.step);
        self.sprite.push(c.sprite);
        self.state.push(c.state);
        if !self.slow.is_empty() {
            self.slow.push(Slow::default());
        }
        let i = self.wake.len() - 1;
        if phase > 0 {
            self.store(i, c, Clock { skip: phase, ..Clock::default() });
        }
        i as u32
    }

    /// [`SpriteBatch::set_state_at`] (`restart` false) or
    /// [`SpriteBatch::restart_state_at`] by state id (in range: the caller
    /// checks); an instance out of range is ignored.
    pub(crate) fn enter_id(&mut self, i: u32, id: StateId, phase: u32, restart: bool) {
        let i = i as usize;
        if i < self.len() && (restart || self.state[i] != id) {
            self.restart_at(i, id, phase);
        }
    }

    /// The pending events, for the game API's drain into a caller's buffer.
    pub(crate) fn pending_mut(&mut self) -> &mut Vec<BatchEvent> {
        &mut self.events
    }

    /// Number of instances.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
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
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// let mut b = s.batch();
    /// b.spawn("Walk").unwrap();
    /// assert_eq!(b.hot_bytes(), animkit_vm::engine::sprite::BATCH_BYTES_PER_INSTANCE);
    /// ```
    pub fn hot_bytes(&self) -> usize {
        use std::mem::size_of_val;
        size_of_val(&self.wake[..])
            + size_of_val(&self.step[..])
            + size_of_val(&self.sprite[..])
            + size_of_val(&self.state[..])
    }

    /// Bytes of the slow-path column: 0 until some instance is given a
    /// speed other than 1 or a phase, then [`BATCH_SLOW_BYTES_PER_INSTANCE`]
    /// per instance (read only for the instances on the slow path).
    ///
    /// ```
    /// use animkit_vm::engine::sprite::{Speed, BATCH_SLOW_BYTES_PER_INSTANCE};
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// let mut b = s.batch();
    /// b.spawn("Walk").unwrap();
    /// assert_eq!(b.slow_bytes(), 0);
    /// b.set_speed(0, Speed::ratio(1, 2).unwrap());
    /// assert_eq!(b.slow_bytes(), BATCH_SLOW_BYTES_PER_INSTANCE);
    /// ```
    pub fn slow_bytes(&self) -> usize {
        std::mem::size_of_val(&self.slow[..])
    }

    /// True when the batch holds no instance.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// assert_eq!(s.batch().len(), 0);
    /// ```
    pub fn is_empty(&self) -> bool {
        self.wake.is_empty()
    }

    /// Advances every instance one tick.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
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
        let slow = &mut self.slow[..];
        let events = (&mut self.events, &mut self.dropped);
        let due = &mut self.due;
        let cols = Columns { wake, step, sprite, state, slow };
        let tables = &self.tables;
        // Two ways to add up the wake-up ticks of the instances that wake
        // (see `scan`); each scan counts how often consecutive wake-ups
        // change slot, and the next scan picks the way that suits.
        let r = if self.runs {
            scan::<true>(plan, module, tables, cols, events, due, now)
        } else {
            scan::<false>(plan, module, tables, cols, events, due, now)
        };
        self.stats.slow_wakes += r.slow_wakes as u64;
        self.runs = r.switches * 8 <= r.woken;
        let (woken, insns, counted) = (r.woken as u64, r.insns, r.counted);
        due[slot] -= counted;
        self.stats.frame_changes += woken;
        self.stats.instructions += insns;
    }

    /// Work counts since the batch was created.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
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
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
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
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
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
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
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
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// let mut b = s.batch();
    /// b.spawn("Walk").unwrap();
    /// assert!(b.set_state(0, "Walk").is_ok());
    /// assert!(b.set_state(0, "Fly").is_err());
    /// ```
    pub fn set_state(&mut self, i: u32, name: &str) -> Result<(), SpriteError> {
        self.set_state_at(i, name, 0)
    }

    /// [`SpriteBatch::set_state`], entering the state `phase` animation
    /// ticks in (no-op if already in it).
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// let mut b = s.batch();
    /// b.spawn("Walk").unwrap();
    /// assert!(b.set_state_at(0, "Walk", 3).is_ok());
    /// b.tick();
    /// assert_eq!(b.frame(0), 0, "already walking: the phase is not applied");
    /// ```
    pub fn set_state_at(&mut self, i: u32, name: &str, phase: u32) -> Result<(), SpriteError> {
        let id = self.sprites.state_id(name).ok_or_else(|| SpriteError::NoState(name.to_string()))?;
        let i = i as usize;
        if i < self.len() && self.state[i] != id {
            self.restart_at(i, id, phase);
        }
        Ok(())
    }

    /// Restarts instance `i` in state `name`, even if already in it.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// let mut b = s.batch();
    /// b.spawn("Walk").unwrap();
    /// b.restart_state(0, "Walk").unwrap();
    /// ```
    pub fn restart_state(&mut self, i: u32, name: &str) -> Result<(), SpriteError> {
        self.restart_state_at(i, name, 0)
    }

    /// Restarts instance `i` in state `name`, `phase` animation ticks in
    /// (see [`SpriteInstance::restart_state_at`](super::SpriteInstance::restart_state_at)).
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// let mut b = s.batch();
    /// b.spawn("Walk").unwrap();
    /// b.restart_state_at(0, "Walk", 2).unwrap();
    /// b.tick();
    /// assert_eq!(b.frame(0), 1);
    /// assert_eq!(b.drain_events().count(), 0);
    /// ```
    pub fn restart_state_at(&mut self, i: u32, name: &str, phase: u32) -> Result<(), SpriteError> {
        let id = self.sprites.state_id(name).ok_or_else(|| SpriteError::NoState(name.to_string()))?;
        if (i as usize) < self.len() {
            self.restart_at(i as usize, id, phase);
        }
        Ok(())
    }

    pub(super) fn restart_at(&mut self, i: usize, id: StateId, phase: u32) {
        let mut c = Cursor::enter(&self.sprites, id);
        if phase == 0 && self.slow.is_empty() {
            // Every instance is on the plain path: only the columns change.
            if self.step[i] != HALT_STEP {
                self.due[self.wake[i] as usize % WHEEL] -= 1;
            }
            self.due[self.now as usize % WHEEL] += 1;
            self.wake[i] = self.now;
            self.step[i] = c.step;
            self.state[i] = c.state;
            return;
        }
        let (old, clock) = self.load(i);
        // The displayed sprite changes only when the next tick enters.
        c.sprite = old.sprite;
        self.store(i, c, Clock { speed: clock.speed, credit: ENTRY_CREDIT, skip: phase });
    }

    /// Sets instance `i`'s playback speed from the next tick on, as
    /// [`SpriteInstance::set_speed`](super::SpriteInstance::set_speed) does.
    ///
    /// The first time a member is placed at a speed with few cases (a
    /// multiple of 1/65536 such as 1/2, 3/4, 5/4 or 2: at most 64 cases),
    /// the batch pre-runs its steps for that speed once (a table of up to
    /// 64 entries per step), and the wake-ups of members at that speed are
    /// then as cheap as at speed 1. Other speeds take the slow path's
    /// general catch-up.
    ///
    /// ```
    /// use animkit_vm::engine::sprite::Speed;
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// let mut b = s.batch();
    /// b.spawn("Walk").unwrap();
    /// b.spawn("Walk").unwrap();
    /// b.set_speed(1, Speed::ratio(2, 1).unwrap());
    /// b.tick(); b.tick();
    /// assert_eq!(b.frames(), &[0, 1]);
    /// assert_eq!(b.speed(1), Speed::ratio(2, 1).unwrap());
    /// ```
    pub fn set_speed(&mut self, i: u32, speed: Speed) {
        let i = i as usize;
        if i < self.len() {
            let (c, mut clock) = self.load(i);
            if clock.speed != speed {
                clock.speed = speed;
                self.store(i, c, clock);
            }
        }
    }

    /// Instance `i`'s playback speed ([`Speed::ONE`] if out of range).
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// let mut b = s.batch();
    /// b.spawn("Walk").unwrap();
    /// assert_eq!(b.speed(0), animkit_vm::engine::sprite::Speed::ONE);
    /// ```
    pub fn speed(&self, i: u32) -> Speed {
        match (self.step.get(i as usize), self.slow.get(i as usize)) {
            (Some(&step), Some(s)) if step == SLOW_STEP || self.tables.is_entry(step) => s.clock.speed,
            _ => Speed::ONE,
        }
    }

    /// Runs `ticks` ticks at once, exactly as that many calls of
    /// [`SpriteBatch::tick`] would: every event each instance crosses
    /// fires once, and they are queued in the order those ticks would have
    /// queued them (by tick, then by instance). The time it takes grows
    /// with the instances and the events kept, not with `ticks` (see
    /// [`SpriteInstance::advance`](super::SpriteInstance::advance)). At
    /// most [`MAX_PENDING_EVENTS`] stay pending: the earliest (by tick,
    /// then instance); later ones are counted in
    /// [`SpriteBatch::dropped_events`].
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// let mut b = s.batch();
    /// b.spawn("Walk").unwrap();
    /// b.spawn_at("Walk", 1).unwrap();
    /// b.advance(10);
    /// assert_eq!(b.frames(), &[0, 1]);
    /// let order: Vec<u32> = b.drain_events().map(|e| e.instance).collect();
    /// assert_eq!(order, [0, 1, 0, 1, 0]);
    /// ```
    pub fn advance(&mut self, ticks: u32) {
        if ticks == 0 {
            return;
        }
        let end = self.now.wrapping_add(ticks);
        let mut buf = std::mem::take(&mut self.fired);
        let mut fired = Fired::new(&mut buf, MAX_PENDING_EVENTS.saturating_sub(self.events.len()));
        let mut work = Work::default();
        // Every instance is placed again at the end: the counts start over.
        self.due = [0; WHEEL];
        for i in 0..self.len() {
            let (mut c, mut clock) = self.load(i);
            let (plan, module) = (&*self.sprites.plan, self.sprites.module());
            if clock.skip > 0 {
                work += advance::run(plan, module, &mut c, clock.skip as u64, &mut Discard);
                clock.skip = 0;
            }
            let start = clock;
            let n = clock.take(ticks as u64);
            work += advance::run(plan, module, &mut c, n, &mut fired.of(i as u32, start));
            self.put(i, c, clock, end);
        }
        // In tick order; within a tick, instance order and each one's own
        // order (the order they fired in breaks ties).
        self.dropped += fired.finish(&mut self.events);
        self.fired = buf;
        self.now = end;
        self.stats.ticks += ticks as u64;
        self.stats.frame_changes += work.steps;
        self.stats.instructions += work.insns;
        self.stats.trips_skipped += work.trips;
    }

    /// Whether instance `i` stopped on a `_wait` (or a halt); `None` past
    /// the end.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// let mut b = s.batch();
    /// b.spawn("Walk").unwrap();
    /// assert_eq!((b.is_waiting(0), b.is_waiting(1)), (Some(false), None));
    /// ```
    pub fn is_waiting(&self, i: u32) -> Option<bool> {
        let i = i as usize;
        (i < self.len()).then(|| self.load(i).0.remaining == HALTED)
    }

    /// Removes instance `i` (swap-remove): the last instance takes index
    /// `i`, the others keep theirs. Pending events of the removed instance
    /// are dropped (not counted in `dropped_events`), those of the moved one
    /// renumbered. Returns false, changing nothing, past the end.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// let mut b = s.batch();
    /// b.spawn_at("Walk", 0).unwrap();
    /// b.spawn_at("Walk", 2).unwrap();
    /// b.spawn_at("Walk", 1).unwrap();
    /// assert!(b.swap_remove(0));
    /// b.tick();
    /// assert_eq!(b.frames(), &[0, 1], "the last (phase 1) took index 0");
    /// assert!(!b.swap_remove(2));
    /// ```
    pub fn swap_remove(&mut self, i: u32) -> bool {
        let i = i as usize;
        if i >= self.len() {
            return false;
        }
        if self.counted(i) {
            self.due[self.wake[i] as usize % WHEEL] -= 1;
        }
        self.wake.swap_remove(i);
        self.step.swap_remove(i);
        self.sprite.swap_remove(i);
        self.state.swap_remove(i);
        if !self.slow.is_empty() {
            self.slow.swap_remove(i);
        }
        let last = self.len() as u32;
        self.events.retain(|e| e.instance != i as u32);
        for e in &mut self.events {
            if e.instance == last {
                e.instance = i as u32;
            }
        }
        true
    }

    /// Whether instance `i` is counted in the wake-up counts.
    fn counted(&self, i: usize) -> bool {
        match self.step[i] {
            SLOW_STEP => self.slow.get(i).is_some_and(|s| s.counted),
            HALT_STEP => false,
            // A table entry: counted unless it is a halt.
            step if self.tables.is_entry(step) => {
                self.tables.steps.get(step as usize).is_some_and(|st| st.from_live == 1)
            }
            _ => true,
        }
    }

    /// Instance `i` as a cursor and clock at the start of tick `now`.
    pub(super) fn load(&self, i: usize) -> (Cursor, Clock) {
        let (sprite, state) = (self.sprite[i], self.state[i]);
        let credit = self.slow.get(i).map_or(ENTRY_CREDIT, |s| s.clock.credit);
        let plain = Clock { credit, ..Clock::default() };
        match (self.step[i], self.slow.get(i)) {
            (step, Some(slot)) if self.tables.is_entry(step) => {
                let speed = slot.clock.speed;
                match self.tables.load(step, self.wake[i], slot.clock.credit, self.now) {
                    Some((step, remaining, credit)) => {
                        (Cursor { step, remaining, sprite, state }, Clock { speed, credit, skip: 0 })
                    }
                    None => (Cursor { step: HALT_STEP, remaining: HALTED, sprite, state }, plain),
                }
            }
            (SLOW_STEP, Some(slot)) => {
                let (remaining, clock) = catch_up(slot, self.now);
                (Cursor { step: slot.step, remaining, sprite, state }, clock)
            }
            (HALT_STEP, _) | (SLOW_STEP, None) => (Cursor { step: HALT_STEP, remaining: HALTED, sprite, state }, plain),
            (step, _) => (Cursor { step, remaining: self.wake[i].wrapping_sub(self.now), sprite, state }, plain),
        }
    }

    /// Puts instance `i` back as cursor `c` with `clock` at the start of
    /// tick `now`, keeping the wake-up counts right.
    pub(super) fn store(&mut self, i: usize, c: Cursor, clock: Clock) {
        if self.counted(i) {
            self.due[self.wake[i] as usize % WHEEL] -= 1;
        }
        self.put(i, c, clock, self.now);
    }

    /// [`SpriteBatch::store`] at the start of tick `at`, for an instance
    /// not counted in the wake-up counts.
    pub(super) fn put(&mut self, i: usize, c: Cursor, clock: Clock, at: u32) {
        if clock.speed != Speed::ONE {
            // Built the first time an instance is placed at the speed (a
            // tick allocates nothing: the wake-up after a phase, which
            // enters the table, only looks it up).
            self.tables.get_or_build(&self.sprites.plan, clock.speed);
        }
        let p = place(&c, &clock, at, &self.tables);
        if self.slow.is_empty() && (p.step == SLOW_STEP || p.rho.is_some() || clock.credit != ENTRY_CREDIT) {
            self.slow = vec![Slow::default(); self.len()];
        }
        if let Some(s) = self.slow.get_mut(i) {
            *s = match p.rho {
                Some(rho) => Slow {
                    step: c.step,
                    remaining: 0,
                    clock: Clock { speed: clock.speed, credit: rho, skip: 0 },
                    at,
                    counted: p.counted,
                },
                None => Slow { step: c.step, remaining: c.remaining, clock, at, counted: p.counted },
            };
        }
        self.step[i] = p.step;
        self.wake[i] = p.wake;
        self.sprite[i] = c.sprite;
        self.state[i] = c.state;
        if p.counted {
            self.due[p.wake as usize % WHEEL] += 1;
        }
    }

    /// Events fired while [`MAX_PENDING_EVENTS`] were pending (the newest
    /// are dropped: those kept stay, in order), since the batch was made.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// let mut b = s.batch();
    /// b.spawn("Walk").unwrap();
    /// b.spawn("Walk").unwrap();
    /// b.advance(u32::MAX); // each fires `step` every 4 ticks
    /// assert_eq!(b.drain_events().count(), animkit_vm::engine::sprite::MAX_PENDING_EVENTS);
    /// assert_eq!(b.dropped_events(), 2 * (u32::MAX as u64).div_ceil(4) - 65_536);
    /// ```
    pub fn dropped_events(&self) -> u64 {
        self.dropped
    }

    /// Removes and yields the events fired since the last drain, in the
    /// order they fired (by instance index within one tick).
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
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
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// assert_eq!(s.batch().sprites().name(), "hero");
    /// ```
    pub fn sprites(&self) -> &Sprites {
        &self.sprites
    }
}

/// Bytes of per-instance state a [`SpriteBatch`] keeps (wake-up tick, step,
/// sprite, state).
pub const BATCH_BYTES_PER_INSTANCE: usize = 4 + 4 + 4 + std::mem::size_of::<StateId>();

/// Bytes per instance of a [`SpriteBatch`]'s slow-path column, once some
/// instance uses a speed or a phase ([`SpriteBatch::slow_bytes`]).
pub const BATCH_SLOW_BYTES_PER_INSTANCE: usize = std::mem::size_of::<Slow>();
