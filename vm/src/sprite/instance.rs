//! One animated sprite ([`SpriteInstance`]): a cursor in its module's
//! steps, its clock (speed and phase) and its pending events.

use super::advance;
use super::pending::{self, Capped, Discard};
use super::plan::{HALTED, INTERPRET, KEEP, KEEP_STATE};
use super::speed::{Clock, ENTRY_CREDIT, Speed};
use super::{EventId, SpriteError, Sprites, StateId};

/// Where one instance is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Cursor {
    /// The step to apply when `remaining` reaches 0.
    pub(super) step: u32,
    pub(super) remaining: u32,
    pub(super) sprite: u32,
    pub(super) state: StateId,
}

impl Cursor {
    /// At the entry of state `id` of `s`, entered at the next tick.
    pub(super) fn enter(s: &Sprites, id: StateId) -> Cursor {
        Cursor { step: s.plan.entry[id as usize], remaining: 0, sprite: 0, state: id }
    }
}

/// One animated sprite: a cursor in its module's code, a clock (its
/// speed, and the phase it enters a state at) and its pending events.
#[derive(Clone, Debug)]
pub struct SpriteInstance {
    pub(super) sprites: Sprites,
    pub(super) cursor: Cursor,
    pub(super) clock: Clock,
    pub(super) events: Vec<EventId>,
    /// Events fired while [`pending::MAX_PENDING_EVENTS`] were pending.
    pub(super) dropped: u64,
}

impl SpriteInstance {
    /// A new instance of `sprites` in state `id`, entered `phase`
    /// animation ticks in.
    pub(super) fn new(sprites: Sprites, id: StateId, phase: u32) -> SpriteInstance {
        let cursor = Cursor::enter(&sprites, id);
        SpriteInstance {
            sprites,
            cursor,
            clock: Clock { skip: phase, ..Clock::default() },
            events: Vec::new(),
            dropped: 0,
        }
    }

    /// The pending events, for the game API's drain into a caller's buffer.
    pub(crate) fn pending_mut(&mut self) -> &mut Vec<EventId> {
        &mut self.events
    }

    /// Advances one fixed tick (see the module docs for the tick model): one
    /// animation tick at speed 1, none when paused, several at once above
    /// 1 (every event they cross fires, in order).
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// let mut i = s.instance("Walk").unwrap();
    /// i.tick(); i.tick(); i.tick();
    /// assert_eq!(i.frame(), 1);
    /// ```
    pub fn tick(&mut self) {
        if !self.clock.is_plain() {
            return self.tick_clocked();
        }
        let c = &mut self.cursor;
        if c.remaining == 0 {
            let plan = &*self.sprites.plan;
            let mut st = plan.steps[c.step as usize];
            if st.ev_len == INTERPRET {
                let m = &self.sprites.program.modules[self.sprites.module];
                let (events, dropped) = (&mut self.events, &mut self.dropped);
                st = plan.interpret(m, &st, |e| pending::push(events, dropped, e));
            }
            if st.sprite != KEEP {
                c.sprite = st.sprite;
            }
            if st.state != KEEP_STATE {
                c.state = st.state;
            }
            pending::extend(&mut self.events, &mut self.dropped, plan.events(&st));
            c.step = st.next;
            c.remaining = st.wait;
        }
        if c.remaining != HALTED {
            c.remaining -= 1;
        }
    }

    /// A tick at a speed other than 1, or with a phase to skip.
    fn tick_clocked(&mut self) {
        self.skip_phase();
        let n = self.clock.take(1);
        self.run(n);
    }

    /// Runs the phase still to skip, firing nothing (in time that grows
    /// with the steps outside cycles, not with the phase).
    fn skip_phase(&mut self) {
        if self.clock.skip > 0 {
            let s = &self.sprites;
            advance::run(&s.plan, s.module(), &mut self.cursor, self.clock.skip as u64, &mut Discard);
            self.clock.skip = 0;
        }
    }

    /// Runs `n` animation ticks, keeping their events (up to the cap).
    fn run(&mut self, n: u64) {
        let s = &self.sprites;
        let mut sink = Capped { pending: &mut self.events, dropped: &mut self.dropped };
        advance::run(&s.plan, s.module(), &mut self.cursor, n, &mut sink);
    }

    /// Events fired while [`MAX_PENDING_EVENTS`](super::MAX_PENDING_EVENTS)
    /// were pending (the newest are dropped, those kept stay in order),
    /// since the instance was made.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// let mut i = s.instance("Walk").unwrap();
    /// i.advance(u32::MAX); // Walk fires `step` every 4 ticks
    /// assert_eq!(i.drain_events().count(), animkit_vm::engine::sprite::MAX_PENDING_EVENTS);
    /// assert_eq!(i.dropped_events(), (u32::MAX as u64).div_ceil(4) - 65_536);
    /// ```
    pub fn dropped_events(&self) -> u64 {
        self.dropped
    }

    /// Runs `ticks` ticks at once, exactly as that many calls of
    /// [`SpriteInstance::tick`] would, every event they cross included, in
    /// order: for an instance that was culled or paused and must catch up.
    /// The time it takes grows with the events fired, not with `ticks`:
    /// countdowns are one subtraction, and whole trips round a looping state
    /// (or a cycle of transitions) one multiplication.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// let (mut a, mut b) = (s.instance("Walk").unwrap(), s.instance("Walk").unwrap());
    /// a.advance(1_000_001);
    /// for _ in 0..1_000_001 { b.tick(); }
    /// assert_eq!((a.frame(), a.drain_events().count()), (b.frame(), b.drain_events().count()));
    /// assert_eq!(a.frame(), 0);
    /// ```
    pub fn advance(&mut self, ticks: u32) {
        if ticks == 0 {
            return;
        }
        self.skip_phase();
        let n = self.clock.take(ticks as u64);
        self.run(n);
    }

    /// Sets the playback speed from the next tick on (see [`Speed`]): 0
    /// pauses, 2 plays twice as fast, 1/2 at half speed. The fraction of
    /// an animation tick carried so far is kept, so a speed that changes
    /// every tick still adds up exactly.
    ///
    /// ```
    /// use animkit_vm::engine::sprite::Speed;
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// let mut i = s.instance("Walk").unwrap();
    /// i.set_speed(Speed::ratio(1, 2).unwrap());
    /// let mut frames = Vec::new();
    /// for _ in 0..8 { i.tick(); frames.push(i.frame()); }
    /// assert_eq!(frames, [0, 0, 0, 0, 1, 1, 1, 1]);
    /// assert_eq!(i.speed(), Speed::ratio(1, 2).unwrap());
    /// ```
    pub fn set_speed(&mut self, speed: Speed) {
        self.clock.speed = speed;
    }

    /// The playback speed.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// assert_eq!(s.instance("Walk").unwrap().speed(), animkit_vm::engine::sprite::Speed::ONE);
    /// ```
    pub fn speed(&self) -> Speed {
        self.clock.speed
    }

    /// Switches to state `name` at the start of the next tick. Setting the
    /// state the instance is already in does nothing; use
    /// [`SpriteInstance::restart_state`] to start it over.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
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
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// let mut i = s.instance("Walk").unwrap();
    /// i.set_state_id(0);
    /// assert_eq!(i.state(), 0);
    /// ```
    pub fn set_state_id(&mut self, id: StateId) {
        if id != self.cursor.state && (id as usize) < self.sprites.state_count() {
            self.restart_state_id(id);
        }
    }

    /// [`SpriteInstance::set_state`], entering the state `phase` animation
    /// ticks in (see [`SpriteInstance::restart_state_at`]); nothing happens
    /// when the instance is already in it.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// let mut i = s.instance("Walk").unwrap();
    /// i.set_state_at("Walk", 2).unwrap(); // already walking: no effect
    /// i.tick();
    /// assert_eq!(i.frame(), 0);
    /// ```
    pub fn set_state_at(&mut self, name: &str, phase: u32) -> Result<(), SpriteError> {
        let id = self.sprites.state_id(name).ok_or_else(|| SpriteError::NoState(name.to_string()))?;
        if id != self.cursor.state {
            self.restart_state_id_at(id, phase);
        }
        Ok(())
    }

    /// Enters state `name` at the next tick as if it had been entered
    /// `phase` animation ticks earlier: the next tick shows what the
    /// `phase`-th tick after a plain entry (counting from 0) would show and
    /// fires that tick's events; the events of the ticks skipped are not
    /// fired. Transitions and ends met while skipping are taken (a `_wait`
    /// state skipped past its end waits). Phase 0 is
    /// [`SpriteInstance::restart_state`]. The phase is in animation ticks,
    /// whatever the speed.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// // Walk: 2|step, 2, _loop shows 0 0 1 1 0 0 ...
    /// let mut i = s.instance("Walk").unwrap();
    /// i.restart_state_at("Walk", 2).unwrap();
    /// i.tick();
    /// assert_eq!(i.frame(), 1);
    /// assert_eq!(i.drain_events().count(), 0, "the skipped frame's `step` is not fired");
    /// i.tick(); i.tick();
    /// assert_eq!(i.frame(), 0);
    /// assert_eq!(i.drain_events().count(), 1);
    /// ```
    pub fn restart_state_at(&mut self, name: &str, phase: u32) -> Result<(), SpriteError> {
        let id = self.sprites.state_id(name).ok_or_else(|| SpriteError::NoState(name.to_string()))?;
        self.restart_state_id_at(id, phase);
        Ok(())
    }

    /// Enters state `name` from its first frame at the next tick, even if
    /// the instance is already in it.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
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
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// let mut i = s.instance("Walk").unwrap();
    /// i.restart_state_id(0);
    /// ```
    pub fn restart_state_id(&mut self, id: StateId) {
        self.restart_state_id_at(id, 0);
    }

    /// [`SpriteInstance::restart_state_at`] by id (out of range is ignored).
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// let mut i = s.instance("Walk").unwrap();
    /// i.restart_state_id_at(0, 3);
    /// i.tick();
    /// assert_eq!(i.frame(), 1);
    /// ```
    pub fn restart_state_id_at(&mut self, id: StateId, phase: u32) {
        if (id as usize) < self.sprites.state_count() {
            let sprite = self.cursor.sprite;
            self.cursor = Cursor::enter(&self.sprites, id);
            // The displayed sprite changes only when the next tick enters.
            self.cursor.sprite = sprite;
            self.clock.credit = ENTRY_CREDIT;
            self.clock.skip = phase;
        }
    }

    /// The current state (after transitions taken so far).
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// assert_eq!(s.instance("Walk").unwrap().state(), 0);
    /// ```
    pub fn state(&self) -> StateId {
        self.cursor.state
    }

    /// The current state's name.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// assert_eq!(s.instance("Walk").unwrap().state_name(), "Walk");
    /// ```
    pub fn state_name(&self) -> &str {
        self.sprites.state_name(self.cursor.state)
    }

    /// The sprite category to draw from: the state's alias or its name.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// assert_eq!(s.instance("Walk").unwrap().category(), "Walk");
    /// ```
    pub fn category(&self) -> &str {
        self.sprites.category(self.cursor.state)
    }

    /// The sprite index displayed during the last tick.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
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
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// assert!(!s.instance("Walk").unwrap().is_waiting());
    /// ```
    pub fn is_waiting(&self) -> bool {
        self.cursor.remaining == HALTED
    }

    /// Removes and yields the events fired since the last drain, in order.
    ///
    /// ```
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
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
    /// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
    /// assert_eq!(s.instance("Walk").unwrap().sprites().name(), "hero");
    /// ```
    pub fn sprites(&self) -> &Sprites {
        &self.sprites
    }
}
