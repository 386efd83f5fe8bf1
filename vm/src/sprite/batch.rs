//! Many instances of one sprite module ([`SpriteBatch`]), stored
//! column-wise, woken by a scan of their wake-up ticks (`scan.rs`).

use super::instance::Cursor;
use super::plan::HALT_STEP;
use super::scan::{Columns, scan};
use super::{EventId, SpriteError, Sprites, StateId};

/// An event fired by an instance of a [`SpriteBatch`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
            events: Vec::new(),
            stats: BatchStats::default(),
            runs: true,
        }
    }

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

/// Bytes of per-instance state a [`SpriteBatch`] keeps (wake-up tick, step,
/// sprite, state).
pub const BATCH_BYTES_PER_INSTANCE: usize = 4 + 4 + 4 + std::mem::size_of::<StateId>();
