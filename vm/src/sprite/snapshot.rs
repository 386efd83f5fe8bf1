//! Snapshots of sprite instances and batches, for rollback netcode and
//! replays: plain data (no pointers into the program, serde-ready) that
//! restores exactly.
//!
//! A snapshot holds where each instance is (its resume point as a
//! bytecode pc, the countdown, the sprite shown, the state), its clock
//! (speed, credit, phase still to skip) and the events fired but not yet
//! drained; events already drained are not in it, so a restored instance
//! does not fire them again. Resume points are pcs, not the runtime's step
//! numbers, so a snapshot does not depend on how a module is pre-run. It
//! names its module by [`Sprites::module_hash`]; restoring it into another
//! module is [`SpriteError::WrongModule`], and a snapshot that names the
//! module but cannot be one of its (changed by hand, corrupted) is
//! [`SpriteError::BadSnapshot`], never undefined behaviour.

use super::batch::BatchEvent;
use super::instance::{Cursor, SpriteInstance};
use super::plan::{HALT_STEP, HALTED, NO_PC};
use super::speed::{Clock, Speed, UNIT};
use super::{EventId, SpriteBatch, SpriteError, Sprites, StateId};
use crate::isa::Op;
use crate::program::{Module, Program};
use serde::{Deserialize, Serialize};

/// FNV-1a, 64 bits: a few lines, stable across platforms and versions.
struct Fnv(u64);

impl Fnv {
    fn bytes(&mut self, b: &[u8]) {
        for &x in b {
            self.0 = (self.0 ^ x as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    fn u32(&mut self, v: u32) {
        self.bytes(&v.to_le_bytes());
    }

    fn str(&mut self, s: &str) {
        self.u32(s.len() as u32);
        self.bytes(s.as_bytes());
    }
}

/// The hash [`Sprites::module_hash`] documents.
pub(super) fn module_hash(program: &Program, m: &Module) -> u64 {
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    h.str("animkit sprite module v1");
    h.str(program.string(m.name));
    h.u32(m.functions.len() as u32);
    for f in &m.functions {
        h.u32(f.code.len() as u32);
        for w in &f.code {
            h.u32(w.0);
        }
        h.u32(f.consts.len() as u32);
        for c in &f.consts {
            h.bytes(&c.to_bits().to_le_bytes());
        }
    }
    h.u32(m.states.len() as u32);
    for s in &m.states {
        h.str(program.string(s.name));
        h.str(program.string(s.category));
        h.u32(s.entry);
    }
    for f in &m.functions {
        for w in f.code.iter().filter(|w| w.op() == Some(Op::Event)) {
            h.str(program.string(w.ax_field()));
        }
    }
    h.0
}

/// One instance's position and clock, as a snapshot stores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Position {
    /// The pc the next step resumes at (`u32::MAX`: stopped on `_wait`).
    resume: u32,
    /// Animation ticks of countdown before it applies.
    remaining: u32,
    sprite: u32,
    state: StateId,
}

/// An instance's clock when it is not the default one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct ClockSnapshot {
    speed: Speed,
    credit: u32,
    skip: u32,
}

impl Position {
    fn of(s: &Sprites, c: &Cursor) -> Position {
        let resume = s.plan.pcs.get(c.step as usize).copied().unwrap_or(NO_PC);
        Position { resume, remaining: c.remaining, sprite: c.sprite, state: c.state }
    }

    fn cursor(&self, s: &Sprites) -> Result<Cursor, SpriteError> {
        let bad = |what: String| Err(SpriteError::BadSnapshot(what));
        if self.state as usize >= s.state_count() {
            return bad(format!("state {} of a module with {} states", self.state, s.state_count()));
        }
        let step = match (self.resume, self.remaining) {
            (NO_PC, HALTED) => HALT_STEP,
            (NO_PC, _) | (_, HALTED) => return bad("a stopped instance with a resume point or a countdown".into()),
            (pc, _) => match s.plan.step_at(pc) {
                Some(step) => step,
                None => return bad(format!("no resume point at pc {pc}")),
            },
        };
        Ok(Cursor { step, remaining: self.remaining, sprite: self.sprite, state: self.state })
    }
}

impl ClockSnapshot {
    fn of(c: &Clock) -> Option<ClockSnapshot> {
        (*c != Clock::default()).then_some(ClockSnapshot { speed: c.speed, credit: c.credit, skip: c.skip })
    }

    fn clock(&self) -> Result<Clock, SpriteError> {
        if self.speed > Speed::MAX || self.credit as u64 >= UNIT {
            return Err(SpriteError::BadSnapshot(format!(
                "speed {} or credit {} out of range",
                self.speed.raw(),
                self.credit
            )));
        }
        Ok(Clock { speed: self.speed, credit: self.credit, skip: self.skip })
    }
}

fn check_module(s: &Sprites, found: u64) -> Result<(), SpriteError> {
    match s.module_hash() {
        expected if expected == found => Ok(()),
        expected => Err(SpriteError::WrongModule { expected, found }),
    }
}

fn check_event(s: &Sprites, e: EventId) -> Result<(), SpriteError> {
    match (e as usize) < s.program.strings.len() {
        true => Ok(()),
        false => Err(SpriteError::BadSnapshot(format!("event {e} is not a string of the program"))),
    }
}

/// A saved [`SpriteInstance`] (see the module docs of `sprite`): where it
/// is, its clock and its pending events, and the hash of its module.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InstanceSnapshot {
    module: u64,
    position: Position,
    clock: Option<ClockSnapshot>,
    events: Vec<EventId>,
}

impl InstanceSnapshot {
    /// The [`Sprites::module_hash`] of the module it was taken of.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// assert_eq!(s.instance("Walk").unwrap().snapshot().module_hash(), s.module_hash());
    /// ```
    pub fn module_hash(&self) -> u64 {
        self.module
    }

    /// The events fired but not yet drained when it was taken.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// let mut i = s.instance("Walk").unwrap();
    /// i.tick();
    /// assert_eq!(i.snapshot().pending_events(), &[s.event_id("step").unwrap()]);
    /// ```
    pub fn pending_events(&self) -> &[EventId] {
        &self.events
    }
}

impl SpriteInstance {
    /// Saves this instance: restoring the snapshot (into this instance or
    /// any instance of the same module) and ticking gives exactly the
    /// frames, states and events this one gives from here. Pending events
    /// are part of it; drained ones are not.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// let mut hero = s.instance("Walk").unwrap();
    /// hero.tick(); hero.tick(); hero.tick();
    /// let saved = hero.snapshot();
    /// let mut replay = s.instance("Walk").unwrap();
    /// replay.restore(&saved).unwrap();
    /// for _ in 0..10 {
    ///     hero.tick();
    ///     replay.tick();
    ///     assert_eq!(hero.frame(), replay.frame());
    /// }
    /// assert!(hero.drain_events().eq(replay.drain_events()));
    /// ```
    pub fn snapshot(&self) -> InstanceSnapshot {
        InstanceSnapshot {
            module: self.sprites.module_hash(),
            position: Position::of(&self.sprites, &self.cursor),
            clock: ClockSnapshot::of(&self.clock),
            events: self.events.clone(),
        }
    }

    /// Restores a snapshot of this module (see [`SpriteInstance::snapshot`]):
    /// position, clock and pending events are replaced. A snapshot of
    /// another module is [`SpriteError::WrongModule`], an impossible one
    /// [`SpriteError::BadSnapshot`]; either way the instance is unchanged.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// let saved = s.instance("Walk").unwrap().snapshot();
    /// let mut other = s.instance("Walk").unwrap();
    /// assert!(other.restore(&saved).is_ok());
    /// ```
    pub fn restore(&mut self, snap: &InstanceSnapshot) -> Result<(), SpriteError> {
        check_module(&self.sprites, snap.module)?;
        let cursor = snap.position.cursor(&self.sprites)?;
        let clock = snap.clock.as_ref().map_or(Ok(Clock::default()), ClockSnapshot::clock)?;
        check_pending(snap.events.len())?;
        for &e in &snap.events {
            check_event(&self.sprites, e)?;
        }
        self.cursor = cursor;
        self.clock = clock;
        self.events.clone_from(&snap.events);
        Ok(())
    }
}

/// A saved [`SpriteBatch`]: per instance its position (resume pc,
/// countdown, sprite, state: 14 bytes), the clocks that are not the default
/// one (speed 1, no phase) as a sparse list, the pending events, and the
/// hash of its module.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BatchSnapshot {
    module: u64,
    resume: Vec<u32>,
    remaining: Vec<u32>,
    sprite: Vec<u32>,
    state: Vec<StateId>,
    /// `(instance, clock)`, by increasing instance.
    clocks: Vec<(u32, ClockSnapshot)>,
    events: Vec<BatchEvent>,
}

impl BatchSnapshot {
    /// The [`Sprites::module_hash`] of the module it was taken of.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// assert_eq!(s.batch().snapshot().module_hash(), s.module_hash());
    /// ```
    pub fn module_hash(&self) -> u64 {
        self.module
    }

    /// Number of instances.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// let mut b = s.batch();
    /// b.spawn("Walk").unwrap();
    /// assert_eq!(b.snapshot().len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        self.resume.len()
    }

    /// True when it holds no instance.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// assert!(s.batch().snapshot().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.resume.is_empty()
    }

    /// Bytes of data it holds (columns, clocks and pending events), to
    /// size rollback buffers: 14 per instance at speed 1.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// let mut b = s.batch();
    /// for _ in 0..100 { b.spawn("Walk").unwrap(); }
    /// assert_eq!(b.snapshot().bytes(), 1400);
    /// ```
    pub fn bytes(&self) -> usize {
        use std::mem::size_of_val;
        size_of_val(&self.resume[..])
            + size_of_val(&self.remaining[..])
            + size_of_val(&self.sprite[..])
            + size_of_val(&self.state[..])
            + size_of_val(&self.clocks[..])
            + size_of_val(&self.events[..])
    }
}

impl SpriteBatch {
    /// Saves the batch (see [`SpriteInstance::snapshot`]); [`BatchStats`](super::BatchStats)
    /// are not part of it (they count this batch's own work).
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// let mut b = s.batch();
    /// for _ in 0..3 { b.spawn("Walk").unwrap(); }
    /// b.tick();
    /// let saved = b.snapshot();
    /// b.tick(); b.tick();
    /// let later = b.frames().to_vec();
    /// let mut replay = s.batch();
    /// replay.restore(&saved).unwrap();
    /// assert_eq!(replay.drain_events().count(), 3, "pending events come back");
    /// replay.tick(); replay.tick();
    /// assert_eq!(replay.frames(), &later[..]);
    /// ```
    pub fn snapshot(&self) -> BatchSnapshot {
        let n = self.len();
        let mut snap = BatchSnapshot {
            module: self.sprites.module_hash(),
            resume: Vec::with_capacity(n),
            remaining: Vec::with_capacity(n),
            sprite: self.sprite.clone(),
            state: self.state.clone(),
            clocks: Vec::new(),
            events: self.events.clone(),
        };
        for i in 0..n {
            let (c, clock) = self.load(i);
            let p = Position::of(&self.sprites, &c);
            snap.resume.push(p.resume);
            snap.remaining.push(p.remaining);
            if let Some(cs) = ClockSnapshot::of(&clock) {
                snap.clocks.push((i as u32, cs));
            }
        }
        snap
    }

    /// Replaces every instance and pending event of the batch with a
    /// snapshot of this module (see [`SpriteBatch::snapshot`]). A snapshot
    /// of another module is [`SpriteError::WrongModule`], an impossible one
    /// [`SpriteError::BadSnapshot`]; either way the batch is unchanged.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// let mut b = s.batch();
    /// b.spawn("Walk").unwrap();
    /// let saved = b.snapshot();
    /// let mut fresh = s.batch();
    /// fresh.restore(&saved).unwrap();
    /// assert_eq!(fresh.len(), 1);
    /// ```
    pub fn restore(&mut self, snap: &BatchSnapshot) -> Result<(), SpriteError> {
        check_module(&self.sprites, snap.module)?;
        let n = snap.resume.len();
        if snap.remaining.len() != n || snap.sprite.len() != n || snap.state.len() != n {
            return Err(SpriteError::BadSnapshot("columns of different lengths".into()));
        }
        let mut b = SpriteBatch::new(self.sprites.clone());
        b.now = self.now;
        b.wake = vec![0; n];
        b.step = vec![HALT_STEP; n];
        b.sprite = vec![0; n];
        b.state = vec![0; n];
        let mut clocks = snap.clocks.iter().peekable();
        for i in 0..n {
            let p = Position {
                resume: snap.resume[i],
                remaining: snap.remaining[i],
                sprite: snap.sprite[i],
                state: snap.state[i],
            };
            let c = p.cursor(&self.sprites)?;
            let clock = match clocks.next_if(|(k, _)| *k as usize == i) {
                Some((_, cs)) => cs.clock()?,
                None => Clock::default(),
            };
            let now = b.now;
            b.put(i, c, clock, now);
        }
        if clocks.next().is_some() {
            return Err(SpriteError::BadSnapshot("clocks out of order or of no instance".into()));
        }
        check_pending(snap.events.len())?;
        for e in &snap.events {
            check_event(&self.sprites, e.event)?;
            if e.instance as usize >= n {
                return Err(SpriteError::BadSnapshot(format!("an event of instance {} of {n}", e.instance)));
            }
        }
        b.events.clone_from(&snap.events);
        b.stats = self.stats;
        b.dropped = self.dropped;
        *self = b;
        Ok(())
    }
}

/// A snapshot holds at most the cap's worth of pending events
/// ([`super::MAX_PENDING_EVENTS`]): no instance or batch can have more.
fn check_pending(n: usize) -> Result<(), SpriteError> {
    if n > super::MAX_PENDING_EVENTS {
        return Err(SpriteError::BadSnapshot(format!(
            "{n} pending events, more than the {} kept pending",
            super::MAX_PENDING_EVENTS
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snapshot_with_more_pending_events_than_the_cap_is_refused() {
        let s = Sprites::first(super::super::doc_program()).unwrap();
        let step = s.event_id("step").unwrap();
        let mut i = s.instance("Walk").unwrap();
        let mut snap = i.snapshot();
        snap.events = vec![step; super::super::MAX_PENDING_EVENTS + 1];
        assert_eq!(
            i.restore(&snap).unwrap_err().to_string(),
            "invalid snapshot: 65537 pending events, more than the 65536 kept pending"
        );
        snap.events.pop();
        assert!(i.restore(&snap).is_ok());

        let mut b = s.batch();
        b.spawn("Walk").unwrap();
        let mut bs = b.snapshot();
        bs.events = vec![super::super::BatchEvent { instance: 0, event: step }; super::super::MAX_PENDING_EVENTS + 1];
        assert_eq!(
            b.restore(&bs).unwrap_err().to_string(),
            "invalid snapshot: 65537 pending events, more than the 65536 kept pending"
        );
    }
}
