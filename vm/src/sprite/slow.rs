//! A [`SpriteBatch`](super::SpriteBatch)'s slow path: instances at a speed
//! other than 1, or with a phase still to skip.
//!
//! The batch's hot columns stay as they are for everyone (wake-up tick,
//! step, sprite, state: 14 bytes), so the plain path is not slowed down.
//! An instance on the slow path holds [`SLOW_STEP`] in the step column
//! and its real step, countdown and clock in a slot of a side column that
//! the batch allocates the first time any instance leaves speed 1. Its
//! wake-up tick is still in the `wake` column: the first tick on which its
//! next step is due at its speed, so that a slow instance mid-countdown
//! costs nothing either. When it wakes, the scan meets `SLOW_STEP` (whose
//! marker sits where the plain path already tests for events) and calls
//! [`wake`], which runs the animation ticks owed since the slot was last
//! brought up to date, and schedules the next wake-up. An instance whose
//! speed goes back to 1 leaves the slow path at that wake-up.
//!
//! An instance at a speed with a pre-run table (`tables.rs`) holds a table
//! entry in the step column instead, and wakes through the scan's plain
//! path; its slot keeps only its speed and residue (see [`Slow`]). This
//! module's catch-up is then for phases, speeds without a table, and the
//! wake-up after which an instance enters a table.

use super::EventId;
use super::StateId;
use super::advance::{self, Work};
use super::instance::Cursor;
use super::pending::{Discard, Each};
use super::plan::{HALT_STEP, HALTED, Plan, SLOW_STEP, Step};
use super::speed::{Clock, Speed, UNIT};
use super::tables::Tables;
use crate::program::Module;

/// An instance's slot on the slow path (see the module docs). Instances
/// on the plain path keep their credit here once the column exists; an
/// instance at a table entry keeps its speed in `clock.speed` and its
/// residue (`tables.rs`) in `clock.credit`, the other fields unused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Slow {
    /// The step applied next (while the step column holds `SLOW_STEP`).
    pub(super) step: u32,
    /// Animation ticks of countdown left before `step` applies, as of
    /// the start of tick `at`.
    pub(super) remaining: u32,
    pub(super) clock: Clock,
    /// The first tick not yet accounted for in `remaining` and the credit.
    pub(super) at: u32,
    /// Whether the instance is counted in the batch's wake-up counts.
    pub(super) counted: bool,
}

impl Default for Slow {
    fn default() -> Slow {
        Slow { step: HALT_STEP, remaining: HALTED, clock: Clock::default(), at: 0, counted: false }
    }
}

/// Longest wait between two wake-ups of a slow instance: a countdown
/// that would take longer (2^24 animation ticks at 1/65536 speed) wakes
/// part-way to bring its slot up to date, so wake-up ticks never wrap.
const MAX_WAIT: u64 = 1 << 31;

/// Where an instance goes in the batch's columns: what its step column
/// holds, the tick it wakes on, and whether that wake-up is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Placed {
    pub(super) step: u32,
    pub(super) wake: u32,
    pub(super) counted: bool,
    /// For a table entry, the residue the slot keeps (`tables.rs`).
    pub(super) rho: Option<u32>,
}

/// Where cursor `c` with clock `clock` goes, `at` being the first tick not
/// accounted for in it: a table entry of `tables` when its speed has one.
pub(super) fn place(c: &Cursor, clock: &Clock, at: u32, tables: &Tables) -> Placed {
    // An instance that never wakes by itself (halted, paused) is not
    // counted; its wake-up tick is 2^32 - 1 ticks away, where a scan that
    // meets it finds nothing to do.
    let idle = |step| Placed { step, wake: at.wrapping_sub(2), counted: false, rho: None };
    if clock.is_plain() {
        if c.remaining == HALTED {
            return idle(HALT_STEP);
        }
        return Placed { step: c.step, wake: at.wrapping_add(c.remaining), counted: true, rho: None };
    }
    if clock.skip > 0 {
        return Placed { step: SLOW_STEP, wake: at, counted: true, rho: None };
    }
    if c.remaining == HALTED || clock.speed == Speed::PAUSED {
        return idle(SLOW_STEP);
    }
    if let Some(t) = tables.find(clock.speed) {
        if let Some(p) = tables.place(t, c.step, c.remaining, clock.credit, at) {
            return Placed { step: p.step, wake: p.wake, counted: true, rho: Some(p.rho) };
        }
    }
    // The first tick whose animation ticks reach the one that applies the
    // step: tick `at - 1 + d` with `d` the least such that
    // `credit + d * speed >= (remaining + 1) * UNIT`.
    let owed = (c.remaining as u64 + 1) * UNIT - clock.credit as u64;
    let d = owed.div_ceil(clock.speed.raw() as u64).min(MAX_WAIT);
    Placed { step: SLOW_STEP, wake: at.wrapping_sub(1).wrapping_add(d as u32), counted: true, rho: None }
}

/// Brings the slot of an instance that has not woken since tick `slot.at`
/// up to the start of tick `now`: the countdown the ticks in between took
/// (none of them applied a step, or it would have woken).
pub(super) fn catch_up(slot: &Slow, now: u32) -> (u32, Clock) {
    let mut clock = slot.clock;
    let elapsed = now.wrapping_sub(slot.at) as u64;
    if elapsed == 0 || clock.skip > 0 || slot.remaining == HALTED {
        return (slot.remaining, clock);
    }
    let n = clock.take(elapsed);
    (slot.remaining - n.min(slot.remaining as u64) as u32, clock)
}

/// What a slow instance does when it wakes at tick `now`: skips its phase,
/// runs the animation ticks owed, and returns the step the scan then
/// applies as it does any other (sprite, state, next step column value,
/// wait until the next wake-up, whether it was and is counted).
#[allow(clippy::too_many_arguments)]
pub(super) fn wake(
    plan: &Plan,
    module: &Module,
    tables: &Tables,
    slot: &mut Slow,
    sprite: u32,
    state: StateId,
    now: u32,
    emit: impl FnMut(EventId),
) -> Step {
    let mut c = Cursor { step: slot.step, remaining: slot.remaining, sprite, state };
    let mut work = Work::default();
    if slot.clock.skip > 0 {
        work = advance::run(plan, module, &mut c, slot.clock.skip as u64, &mut Discard);
        slot.clock.skip = 0;
    }
    let n = slot.clock.take(now.wrapping_sub(slot.at) as u64 + 1);
    let w = advance::run(plan, module, &mut c, n, &mut Each(emit));
    let from_live = slot.counted as u8;
    slot.step = c.step;
    slot.remaining = c.remaining;
    slot.at = now.wrapping_add(1);
    let p = place(&c, &slot.clock, slot.at, tables);
    slot.counted = p.counted;
    if let Some(rho) = p.rho {
        // Into a table: the slot keeps the speed and the residue.
        slot.clock = Clock { speed: slot.clock.speed, credit: rho, skip: 0 };
    }
    Step {
        next: p.step,
        wait: p.wake.wrapping_sub(now),
        sprite: c.sprite,
        ev_start: 0,
        ev_len: 0,
        insns: (work.insns + w.insns).min(u32::MAX as u64) as u32,
        state: c.state,
        from_live,
        to_live: p.counted as u8,
    }
}
