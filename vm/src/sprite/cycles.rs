//! The cycles of a plan's step graph, so that catching up on many ticks
//! (`advance`) skips whole cycles of a looping state arithmetically
//! instead of applying their steps one by one.
//!
//! Every pre-run step has exactly one successor (`Step::next`), so the
//! steps form a functional graph whose cycles are disjoint: a `_loop`, a
//! `_pingpong`, two states entering each other. A cycle is used only when
//! every step on it is pre-run (no [`INTERPRET`] step, which only hostile
//! programs have) and shown for a finite time.

use super::EventId;
use super::plan::{HALT_STEP, HALTED, INTERPRET, SLOW_STEP, Step};

/// Where a step sits on its cycle.
#[derive(Clone, Copy, Debug)]
struct At {
    /// Index in [`Cycles::cycles`].
    cycle: u32,
    /// Animation ticks from the cycle's first step to this one.
    offset: u64,
    /// Index (within the cycle's events) of its first event fired at or
    /// after `offset`.
    split: u32,
}

/// One cycle of steps.
#[derive(Clone, Copy, Debug)]
struct Cycle {
    /// Animation ticks one trip round the cycle takes (the sum of its waits).
    len: u64,
    /// Its events, in [`Cycles::events`], from its first step on.
    ev_start: u32,
    ev_len: u32,
    /// Bytecode instructions and steps of one trip (for batch statistics).
    insns: u64,
    steps: u64,
}

/// A plan's cycles (see the module docs).
#[derive(Debug, Default)]
pub(super) struct Cycles {
    /// Per step; `None` when the step is on no usable cycle.
    at: Vec<Option<At>>,
    cycles: Vec<Cycle>,
    /// `(animation ticks from the cycle's first step, event)`, per cycle.
    events: Vec<(u64, EventId)>,
}

/// What one trip round a cycle does, seen from one of its steps.
pub(super) struct Trip<'a> {
    /// Animation ticks a trip takes.
    pub(super) len: u64,
    /// Bytecode instructions and steps a trip stands for.
    pub(super) insns: u64,
    pub(super) steps: u64,
    /// The trip's events from the step on, then those before it, with
    /// their tick within the trip. Read by [`Trip::events`].
    after: &'a [(u64, EventId)],
    before: &'a [(u64, EventId)],
    offset: u64,
}

impl Trip<'_> {
    /// The events of one trip starting at the step, each with the
    /// animation tick (from the step's application) at which it fires.
    pub(super) fn events(&self) -> impl Iterator<Item = (u64, EventId)> + '_ {
        let (len, offset) = (self.len, self.offset);
        let after = self.after.iter().map(move |&(t, e)| (t - offset, e));
        after.chain(self.before.iter().map(move |&(t, e)| (t + len - offset, e)))
    }

    /// Number of events one trip fires.
    pub(super) fn event_count(&self) -> usize {
        self.after.len() + self.before.len()
    }
}

impl Cycles {
    /// Finds the cycles of `steps` (linear in their number and events).
    pub(super) fn new<'e>(steps: &[Step], events: impl Fn(&Step) -> &'e [EventId]) -> Cycles {
        let n = steps.len();
        let mut cycles = Cycles { at: vec![None; n], cycles: Vec::new(), events: Vec::new() };
        let usable = |s: u32| {
            s != HALT_STEP
                && s != SLOW_STEP
                && steps.get(s as usize).is_some_and(|st| st.ev_len != INTERPRET && st.wait != HALTED)
        };
        // 0: not seen; 1: on the walk being followed; 2: done.
        let mut mark = vec![0u8; n];
        let mut path = Vec::new();
        for start in 0..n as u32 {
            let mut s = start;
            path.clear();
            while usable(s) && mark[s as usize] == 0 {
                mark[s as usize] = 1;
                path.push(s);
                s = steps[s as usize].next;
            }
            if usable(s) && mark[s as usize] == 1 {
                // `s` closes a cycle: the path from `s` on.
                let from = path.iter().position(|&p| p == s).unwrap_or(0);
                cycles.add(&path[from..], steps, &events);
            }
            for &p in &path {
                mark[p as usize] = 2;
            }
        }
        cycles
    }

    fn add<'e>(&mut self, ring: &[u32], steps: &[Step], events: &impl Fn(&Step) -> &'e [EventId]) {
        let id = self.cycles.len() as u32;
        let ev_start = self.events.len() as u32;
        let (mut offset, mut insns) = (0u64, 0u64);
        for &s in ring {
            let st = &steps[s as usize];
            let split = self.events.len() as u32 - ev_start;
            self.at[s as usize] = Some(At { cycle: id, offset, split });
            self.events.extend(events(st).iter().map(|&e| (offset, e)));
            offset += st.wait as u64;
            insns += st.insns as u64;
        }
        let ev_len = self.events.len() as u32 - ev_start;
        self.cycles.push(Cycle { len: offset, ev_start, ev_len, insns, steps: ring.len() as u64 });
    }

    /// The trip round the cycle that step `step` is on, if any.
    pub(super) fn trip(&self, step: u32) -> Option<Trip<'_>> {
        let at = (*self.at.get(step as usize)?)?;
        let c = self.cycles.get(at.cycle as usize)?;
        let all = self.events.get(c.ev_start as usize..(c.ev_start + c.ev_len) as usize)?;
        let (before, after) = all.split_at((at.split as usize).min(all.len()));
        Some(Trip { len: c.len, insns: c.insns, steps: c.steps, after, before, offset: at.offset })
    }
}
