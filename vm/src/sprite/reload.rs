//! Hot reload: mapping live instances onto a new build of their module,
//! keeping where each one is.
//!
//! An instance's place in its state is read off the bytecode: the state's
//! code is the run of instructions from its entry to the next state's
//! entry, and its *frame position* is the ordinal of the `WAIT` it is
//! counting down in, in code order (the frames that are shown, zero-tick
//! frames aside; a `_pingpong` state numbers its way back after its way
//! out, as its code lays them out: `5, 5, 5, 5, _pingpong` has positions
//! 0 to 6, the last three showing sprites 2, 1 and 0 again). On reload:
//!
//! - the state is the state of the same name; if the new module has none,
//!   the instance restarts in the fallback state (named by the caller, or
//!   the first state) at the next tick, and is counted in
//!   [`ReloadReport::fell_back`];
//! - the frame position is kept if the new state has that many frames,
//!   else it becomes the last one; the ticks already shown are kept if the
//!   new frame is that long, else the frame ends at the next tick (both
//!   counted in [`ReloadReport::clamped`]); a state left with no frame
//!   shown restarts;
//! - the sprite shown becomes the new frame's sprite, so an edited frame
//!   shows at once;
//! - an instance about to enter a state enters the new one (with its
//!   phase); one stopped on `_wait` stays stopped in the state of the same
//!   name, showing its sprite;
//! - speed, credit and phase are kept; pending events are kept by name,
//!   and those whose name the new program lacks are dropped (counted in
//!   [`ReloadReport::dropped_events`]).
//!
//! Reloading the same module (or the same source compiled again) changes
//! nothing an instance shows or fires.

use super::instance::{Cursor, SpriteInstance};
use super::plan::{HALT_STEP, HALTED};
use super::speed::{Clock, ENTRY_CREDIT};
use super::{EventId, SpriteBatch, SpriteError, Sprites, StateId};
use crate::isa::{Insn, Op, animator_ops, register_ops, slap_ops};
use crate::program::Module;
use std::collections::HashMap;

/// What a reload did to the instances it mapped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReloadReport {
    /// States of the old module the new one lacks, in the old order.
    pub vanished: Vec<String>,
    /// The state that instances of vanished states restarted in.
    pub fallback: String,
    /// Instances whose state vanished.
    pub fell_back: usize,
    /// Instances whose frame position or ticks into the frame were clamped.
    pub clamped: usize,
    /// Pending events dropped because the new program has no event of
    /// their name.
    pub dropped_events: usize,
}

/// Where each state's shown frames are in a module's code.
struct Layout {
    /// Per state: `(pc of the WAIT, sprite set last before it in the
    /// state's code)`, in code order.
    frames: Vec<Vec<(u32, Option<u32>)>>,
    /// Per pc: the state whose code holds it and the frame position of the
    /// `WAIT` there (`None` for other instructions).
    at: HashMap<u32, (StateId, usize)>,
}

fn code(m: &Module) -> &[Insn] {
    m.functions.first().map_or(&[], |f| &f.code)
}

impl Layout {
    fn new(m: &Module) -> Layout {
        let code = code(m);
        let mut starts: Vec<(u32, StateId)> =
            m.states.iter().enumerate().map(|(i, s)| (s.entry, i as StateId)).collect();
        starts.sort_unstable();
        let mut frames = vec![Vec::new(); m.states.len()];
        let mut at = HashMap::new();
        // The states whose code starts at each distinct entry, in pc order.
        let mut groups: Vec<(u32, Vec<StateId>)> = Vec::new();
        for (entry, s) in starts {
            match groups.last_mut() {
                Some((e, g)) if *e == entry => g.push(s),
                _ => groups.push((entry, vec![s])),
            }
        }
        for (gi, (entry, states)) in groups.iter().enumerate() {
            let end = groups.get(gi + 1).map_or(code.len() as u32, |g| g.0).min(code.len() as u32);
            let mut sprite = None;
            for pc in *entry..end {
                let w = code[pc as usize];
                match w.op() {
                    Some(Op::Sprite) => sprite = Some(w.ax_field()),
                    Some(Op::Wait) => {
                        for &s in states {
                            at.entry(pc).or_insert((s, frames[s as usize].len()));
                            frames[s as usize].push((pc, sprite));
                        }
                    }
                    // No frame of their own: the ops that move through the
                    // code or fire events, the end, the ops foreign to sprite
                    // code and unassigned bytes.
                    Some(Op::Nop | Op::Jmp | Op::Enter | Op::Event | Op::Halt) => {}
                    Some(register_ops!() | animator_ops!() | slap_ops!()) | None => {}
                }
            }
        }
        Layout { frames, at }
    }
}

/// Where an instance is, independently of the step numbering.
#[derive(Clone, Copy, Debug)]
enum Place {
    /// About to enter its state.
    Entering,
    /// Stopped on `_wait`.
    Halted,
    /// Counting down in frame position `k` of state `of`, whose `WAIT` is
    /// `d` ticks long.
    Frame { of: StateId, k: usize, d: u32 },
}

/// Maps cursors of one module onto another.
struct Mapper<'a> {
    to: &'a Sprites,
    to_layout: Layout,
    /// Per old step.
    places: Vec<Place>,
    /// Old state -> new state of the same name.
    states: Vec<Option<StateId>>,
    fallback: StateId,
    report: ReloadReport,
}

impl<'a> Mapper<'a> {
    fn new(from: &Sprites, to: &'a Sprites, fallback: Option<&str>) -> Result<Mapper<'a>, SpriteError> {
        let fallback = match fallback {
            Some(name) => to.state_id(name).ok_or_else(|| SpriteError::NoState(name.to_string()))?,
            None if to.state_count() > 0 => 0,
            None => return Err(SpriteError::NoState("(any state: the new module has none)".into())),
        };
        let (m, layout) = (from.module(), Layout::new(from.module()));
        let code = code(m);
        let places = from
            .plan
            .pcs
            .iter()
            .map(|&pc| {
                let wait = pc.checked_sub(1).and_then(|p| Some((p, *code.get(p as usize)?)));
                match wait {
                    Some((p, w)) if w.op() == Some(Op::Wait) => match layout.at.get(&p) {
                        Some(&(of, k)) => Place::Frame { of, k, d: w.ax_field().max(1) },
                        None => Place::Entering,
                    },
                    _ if m.states.iter().any(|s| s.entry == pc) => Place::Entering,
                    _ => Place::Halted,
                }
            })
            .collect();
        let states: Vec<Option<StateId>> =
            (0..from.state_count()).map(|s| to.state_id(from.state_name(s as StateId))).collect();
        let vanished = states
            .iter()
            .enumerate()
            .filter(|(_, n)| n.is_none())
            .map(|(s, _)| from.state_name(s as StateId).to_string())
            .collect();
        let report =
            ReloadReport { vanished, fallback: to.state_name(fallback).to_string(), ..ReloadReport::default() };
        Ok(Mapper { to, to_layout: Layout::new(to.module()), places, states, fallback, report })
    }

    /// The cursor and clock of `c`, `clock` in the new module.
    fn map(&mut self, c: &Cursor, clock: &Clock) -> (Cursor, Clock) {
        let to = self.to;
        let enter = |id: StateId, clock: Clock| {
            let mut n = Cursor::enter(to, id);
            n.sprite = c.sprite;
            (n, clock)
        };
        let restart = Clock { credit: ENTRY_CREDIT, skip: 0, ..*clock };
        let Some(state) = self.states.get(c.state as usize).copied().flatten() else {
            self.report.fell_back += 1;
            return enter(self.fallback, restart);
        };
        if c.step == HALT_STEP || c.remaining == HALTED {
            return (Cursor { step: HALT_STEP, remaining: HALTED, sprite: c.sprite, state }, *clock);
        }
        match self.places.get(c.step as usize).copied().unwrap_or(Place::Entering) {
            Place::Entering => enter(state, *clock),
            Place::Halted => (Cursor { step: HALT_STEP, remaining: HALTED, sprite: c.sprite, state }, *clock),
            Place::Frame { of, k, d } => {
                let Some(of) = self.states.get(of as usize).copied().flatten() else {
                    self.report.fell_back += 1;
                    return enter(self.fallback, restart);
                };
                let frames = &self.to_layout.frames[of as usize];
                let Some(&(pc, sprite)) = frames.get(k).or(frames.last()) else {
                    self.report.clamped += 1;
                    return enter(state, restart);
                };
                let code = code(to.module());
                let d2 = code.get(pc as usize).map_or(1, |w| w.ax_field().max(1));
                let shown = d - c.remaining.min(d - 1);
                let Some(step) = to.plan.step_at(pc + 1) else {
                    self.report.clamped += 1;
                    return enter(state, restart);
                };
                if k >= frames.len() || shown > d2 {
                    self.report.clamped += 1;
                }
                let cursor = Cursor { step, remaining: d2 - shown.min(d2), sprite: sprite.unwrap_or(c.sprite), state };
                (cursor, *clock)
            }
        }
    }
}

/// Pending events by name, with a cache for batches.
struct Events<'a> {
    from: &'a Sprites,
    to: &'a Sprites,
    ids: HashMap<EventId, Option<EventId>>,
}

impl Events<'_> {
    fn map(&mut self, e: EventId) -> Option<EventId> {
        let (from, to) = (self.from, self.to);
        *self.ids.entry(e).or_insert_with(|| to.event_id(from.event_name(e)))
    }
}

impl SpriteInstance {
    /// Moves this instance onto `to`, a new build of its module (see
    /// [`Sprites::reload`]), keeping its state, frame position and ticks
    /// into the frame (the rules are in the `reload` module's docs:
    /// clamped where the new state is shorter, the fallback state, or else
    /// the first, where its state vanished). A `fallback` that `to` lacks
    /// is [`SpriteError::NoState`], and nothing changes.
    ///
    /// ```
    /// # let program = animkit_vm::engine::sprite::doc_program();
    /// let s = animkit_vm::engine::sprite::Sprites::new(program.clone(), "hero").unwrap();
    /// let mut hero = s.instance("Walk").unwrap();
    /// hero.tick(); hero.tick(); hero.tick();
    /// let report = hero.reload(&s.reload(program).unwrap(), None).unwrap();
    /// assert_eq!(report.fell_back, 0);
    /// hero.tick();
    /// assert_eq!(hero.frame(), 1, "still in the second frame");
    /// ```
    pub fn reload(&mut self, to: &Sprites, fallback: Option<&str>) -> Result<ReloadReport, SpriteError> {
        let mut mapper = Mapper::new(&self.sprites, to, fallback)?;
        let (cursor, clock) = mapper.map(&self.cursor, &self.clock);
        let mut events = Events { from: &self.sprites, to, ids: HashMap::new() };
        let before = self.events.len();
        let moved: Vec<EventId> = self.events.iter().filter_map(|&e| events.map(e)).collect();
        let mut report = mapper.report;
        report.dropped_events = before - moved.len();
        self.events = moved;
        self.cursor = cursor;
        self.clock = clock;
        self.sprites = to.clone();
        Ok(report)
    }
}

impl SpriteBatch {
    /// Moves every instance of the batch onto `to`, a new build of its
    /// module, as [`SpriteInstance::reload`] does for one; instance indices
    /// stay the same.
    ///
    /// ```
    /// # let program = animkit_vm::engine::sprite::doc_program();
    /// let s = animkit_vm::engine::sprite::Sprites::new(program.clone(), "hero").unwrap();
    /// let mut b = s.batch();
    /// b.spawn("Walk").unwrap();
    /// b.tick(); b.tick(); b.tick();
    /// let report = b.reload(&s.reload(program).unwrap(), Some("Walk")).unwrap();
    /// assert!(report.vanished.is_empty());
    /// b.tick();
    /// assert_eq!(b.frame(0), 1);
    /// ```
    pub fn reload(&mut self, to: &Sprites, fallback: Option<&str>) -> Result<ReloadReport, SpriteError> {
        let mut mapper = Mapper::new(&self.sprites, to, fallback)?;
        let n = self.len();
        let mut b = SpriteBatch::new(to.clone());
        b.now = self.now;
        b.wake = vec![0; n];
        b.step = vec![HALT_STEP; n];
        b.sprite = vec![0; n];
        b.state = vec![0; n];
        for i in 0..n {
            let (c, clock) = self.load(i);
            let (c, clock) = mapper.map(&c, &clock);
            let now = b.now;
            b.put(i, c, clock, now);
        }
        let mut events = Events { from: &self.sprites, to, ids: HashMap::new() };
        b.events =
            self.events.iter().filter_map(|e| Some(super::BatchEvent { event: events.map(e.event)?, ..*e })).collect();
        let mut report = mapper.report;
        report.dropped_events = self.events.len() - b.events.len();
        b.stats = self.stats;
        b.dropped = self.dropped;
        b.runs = self.runs;
        *self = b;
        Ok(report)
    }
}
