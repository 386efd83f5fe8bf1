//! Steps pre-run per speed: a [`SpriteBatch`](super::SpriteBatch)'s
//! tables that make a wake-up at a speed other than 1 one table step, as
//! cheap as a wake-up on the plain path.
//!
//! # Why a speed has finitely many cases
//! Write an instance's countdown as the credit it still needs before its
//! next step applies, `owed = (remaining + 1) * UNIT - credit` (the pair
//! and `owed` determine each other, the credit being below `UNIT`). A tick
//! at speed `s` takes `s` off `owed`; the step applies in the first tick
//! after which `owed <= 0`, and applying it adds `wait * UNIT` (a speed
//! above 1 may apply several steps in one tick, while `owed` stays
//! `<= 0`). So at the start of a wake-up tick `owed` is in `1..=s`, and
//! after the tick the next wake-up is `d = ceil(owed / s)` ticks on, with
//! `owed - (d - 1) * s` (again in `1..=s`) at its start.
//!
//! Let `g = gcd(s, UNIT)` and `s = g * sigma`. Every quantity added or
//! taken is a multiple of `g`, so `owed - 1 = rho + g * j` keeps its
//! residue `rho` (below `g`) while the speed stays, and each test above
//! (`owed <= 0`, `ceil(owed / s)`) gives the same answer for every `rho`:
//! with `owed = g * x + e`, `1 <= e <= g`, `owed <= 0` is `x < 0` and
//! `ceil(owed / s) = ceil((x + 1) / sigma)`. What a wake-up does depends
//! on the step and `j` (`0..sigma`) alone. A table holds, for each step
//! `k` and each `j`, the pre-run effect of that wake-up (sprite, state,
//! the events of every step applied, the ticks until the next wake-up and
//! the entry it wakes to) as a [`Step`], at index `base + k * sigma + j`
//! of the batch's step array (the plan's steps first, then each table).
//! The scan applies it as it does a plain step: it never tells them apart.
//! The residue `rho` and the speed stay in the instance's slow slot, read
//! only when the instance is loaded (a speed change, a snapshot, `advance`).
//!
//! The speeds in the bench (1/2, 3/4, 5/4, 3/2, 2) have `sigma` 1 to 5. A
//! speed whose `sigma` is large (an odd multiple of 1/65536: 65536 cases),
//! one whose table would be too large, and every speed of a module with
//! interpreted steps, stay on the slow path's general catch-up.

use super::EventId;
use super::plan::{HALT_STEP, HALTED, INTERPRET, KEEP, KEEP_STATE, Plan, SLOW_STEP, Step};
use super::speed::{Speed, UNIT};

/// Most cases (`sigma`) of a tabled speed.
const MAX_SIGMA: u64 = 64;
/// Most entries of all tables of a batch together (2 MiB of steps).
const MAX_ENTRIES: usize = 1 << 16;
/// Most events the tables may add (of wake-ups applying several steps).
const MAX_EVENTS: usize = 1 << 18;
/// Most steps one table entry may apply (one tick at a high speed).
const MAX_RUN: u32 = 1024;
/// Most speeds a batch tries to table (built or refused): speeds that
/// change every tick do not build tables for ever.
const MAX_TRIES: usize = 32;
/// Longest wait an entry may have (as the slow path's `MAX_WAIT`).
const MAX_WAIT: u64 = 1 << 31;

/// One speed's table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Table {
    pub(super) speed: Speed,
    /// Index of entry `(0, 0)` in [`Tables::steps`].
    base: u32,
    sigma: u32,
    /// `gcd(speed, UNIT)`.
    g: u32,
}

/// A batch's tables (see the module docs).
#[derive(Clone, Debug, Default)]
pub(super) struct Tables {
    /// Empty while no table is built; then the plan's steps followed by
    /// every table's entries.
    pub(super) steps: Vec<Step>,
    /// The plan's events, then those of entries applying several steps.
    pub(super) events: Vec<EventId>,
    tables: Vec<Table>,
    /// Speeds tried and refused.
    refused: Vec<Speed>,
    /// Number of the plan's steps (where the first table starts).
    plan_len: u32,
}

/// Where a tabled instance goes: its step column value, its wake-up tick
/// and the residue its slot keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Tabled {
    pub(super) step: u32,
    pub(super) wake: u32,
    pub(super) rho: u32,
}

/// `gcd(raw, UNIT)` for a speed above 0: the lowest set bit, at most `UNIT`.
fn gcd_unit(raw: u32) -> u32 {
    1 << raw.trailing_zeros().min(16)
}

impl Tables {
    /// True when step column value `step` is a table entry.
    #[inline]
    pub(super) fn is_entry(&self, step: u32) -> bool {
        !self.steps.is_empty() && step >= self.plan_len
    }

    /// The table of `speed`, if built.
    pub(super) fn find(&self, speed: Speed) -> Option<&Table> {
        self.tables.iter().find(|t| t.speed == speed)
    }

    /// The table of `speed`, built if it can be (see the module docs).
    pub(super) fn get_or_build(&mut self, plan: &Plan, speed: Speed) -> Option<Table> {
        if let Some(t) = self.find(speed) {
            return Some(*t);
        }
        let raw = speed.raw();
        if raw == 0 || (raw / gcd_unit(raw)) as u64 > MAX_SIGMA {
            return None;
        }
        if self.refused.contains(&speed) || self.tables.len() + self.refused.len() >= MAX_TRIES {
            return None;
        }
        match self.build(plan, speed) {
            Some(t) => Some(t),
            None => {
                self.refused.push(speed);
                None
            }
        }
    }

    fn build(&mut self, plan: &Plan, speed: Speed) -> Option<Table> {
        let n = plan.steps.len();
        if plan.steps.iter().any(|st| st.ev_len == INTERPRET) {
            return None;
        }
        let (s, g) = (speed.raw() as i64, gcd_unit(speed.raw()));
        let sigma = speed.raw() / g;
        if self.steps.is_empty() {
            self.steps = plan.steps.clone();
            self.events = plan.all_events().to_vec();
            self.plan_len = n as u32;
        }
        let base = self.steps.len();
        if base + n * sigma as usize > MAX_ENTRIES {
            return None;
        }
        let table = Table { speed, base: base as u32, sigma, g };
        let (events_before, mut added) = (self.events.len(), Vec::with_capacity(n * sigma as usize));
        let unit = UNIT as i64;
        for k in 0..n as u32 {
            for j in 0..sigma {
                let halt = Step {
                    next: table.base + j,
                    wait: HALTED,
                    sprite: KEEP,
                    ev_start: 0,
                    ev_len: 0,
                    insns: 0,
                    state: KEEP_STATE,
                    from_live: 0,
                    to_live: 0,
                };
                if k == HALT_STEP || k == SLOW_STEP {
                    added.push(halt);
                    continue;
                }
                // The representative `owed = g * (j + 1)` (`e = g`).
                let mut owed = g as i64 * (j as i64 + 1) - s;
                let mut e = Step { from_live: 1, to_live: 1, ..halt };
                let (mut cur, mut applied, mut halted, mut single) = (k, 0u32, false, None);
                let ev_from = self.events.len();
                while owed <= 0 {
                    let Some(&st) = plan.steps.get(cur as usize) else {
                        self.events.truncate(events_before);
                        return None;
                    };
                    applied += 1;
                    if applied > MAX_RUN || self.events.len() - events_before > MAX_EVENTS {
                        self.events.truncate(events_before);
                        return None;
                    }
                    single = if applied == 1 { Some(st) } else { None };
                    self.events.extend_from_slice(plan.events(&st));
                    if st.sprite != KEEP {
                        e.sprite = st.sprite;
                    }
                    if st.state != KEEP_STATE {
                        e.state = st.state;
                    }
                    e.insns = e.insns.saturating_add(st.insns);
                    cur = st.next;
                    if st.wait == HALTED {
                        halted = true;
                        break;
                    }
                    owed += st.wait as i64 * unit;
                }
                match single {
                    // One step: its own events, already in the array.
                    Some(st) => {
                        self.events.truncate(ev_from);
                        (e.ev_start, e.ev_len) = (st.ev_start, st.ev_len);
                    }
                    None => {
                        let len = (self.events.len() - ev_from) as u32;
                        (e.ev_start, e.ev_len) = if len == 0 { (0, 0) } else { (ev_from as u32, len) };
                    }
                }
                if halted {
                    e.next = table.base + j;
                    e.wait = HALTED;
                    e.to_live = 0;
                } else {
                    let d = (owed as u64).div_ceil(s as u64);
                    if d > MAX_WAIT {
                        self.events.truncate(events_before);
                        return None;
                    }
                    let at_wake = owed - (d as i64 - 1) * s;
                    let j2 = (at_wake / g as i64 - 1) as u32;
                    e.next = table.base + cur * sigma + j2;
                    e.wait = d as u32;
                }
                added.push(e);
            }
        }
        self.steps.extend_from_slice(&added);
        self.tables.push(table);
        Some(table)
    }

    /// Where an instance goes whose next step is `step`, `remaining`
    /// animation ticks of countdown and `credit` at the start of tick `at`,
    /// at the speed of `table` (not halted; no phase to skip); `None` when
    /// its wait is too long for a table.
    pub(super) fn place(&self, t: &Table, step: u32, remaining: u32, credit: u32, at: u32) -> Option<Tabled> {
        if step as usize >= self.plan_len as usize || step == HALT_STEP || step == SLOW_STEP {
            return None;
        }
        let s = t.speed.raw() as u64;
        let owed = (remaining as u64 + 1) * UNIT - credit as u64;
        let d = owed.div_ceil(s);
        if d > MAX_WAIT {
            return None;
        }
        let p = owed - (d - 1) * s - 1;
        let (j, rho) = ((p / t.g as u64) as u32, (p % t.g as u64) as u32);
        Some(Tabled { step: t.base + step * t.sigma + j, wake: at.wrapping_sub(1).wrapping_add(d as u32), rho })
    }

    /// The table and case of entry `step`.
    fn entry(&self, step: u32) -> Option<(&Table, u32, u32)> {
        let t = self.tables.iter().find(|t| step >= t.base && step - t.base < self.plan_len * t.sigma)?;
        let at = step - t.base;
        Some((t, at / t.sigma, at % t.sigma))
    }

    /// The step, countdown and credit at the start of tick `now` of an
    /// instance at entry `step` waking at tick `wake`, its slot keeping
    /// `rho`; `None` for a step that is no entry.
    pub(super) fn load(&self, step: u32, wake: u32, rho: u32, now: u32) -> Option<(u32, u32, u32)> {
        let (t, k, j) = self.entry(step)?;
        let s = t.speed.raw() as u64;
        let owed_at_wake = t.g as u64 * j as u64 + rho as u64 + 1;
        if k == HALT_STEP || k == SLOW_STEP {
            // Halted in the tick that started with `owed_at_wake`: the
            // credit is what that tick left.
            let credit = (s as i64 - owed_at_wake as i64).rem_euclid(UNIT as i64) as u32;
            return Some((HALT_STEP, HALTED, credit));
        }
        let owed = owed_at_wake + wake.wrapping_sub(now) as u64 * s;
        let remaining = owed.div_ceil(UNIT) - 1;
        let credit = (remaining + 1) * UNIT - owed;
        Some((k, remaining as u32, credit as u32))
    }
}
