//! Running many animation ticks of one cursor at once: what a tick at a
//! speed above 1, a phase skip and `advance(n)` do. Countdowns are taken
//! in one subtraction and whole trips round a cycle of steps in one
//! multiplication (`cycles.rs`), so the work grows with the events fired,
//! not with the ticks run; trips whose events the sink no longer wants
//! (`pending.rs`: the pending-event cap is reached) are counted, not walked.

use super::instance::Cursor;
use super::pending::Sink;
use super::plan::{HALTED, INTERPRET, KEEP, KEEP_STATE, Plan};
use crate::program::Module;

/// Steps applied (skipped trips included), the bytecode instructions they
/// stand for, and the trips round a cycle skipped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Work {
    pub(super) steps: u64,
    pub(super) insns: u64,
    pub(super) trips: u64,
}

impl std::ops::AddAssign for Work {
    fn add_assign(&mut self, w: Work) {
        self.steps += w.steps;
        self.insns += w.insns;
        self.trips += w.trips;
    }
}

/// Fewest animation ticks left for which skipping trips is tried.
const SKIP_FROM: u64 = 64;

/// Runs `ticks` animation ticks of `c`, exactly as that many calls of the
/// plain tick would: each event goes to `sink` with the animation tick
/// (0-based, within this run) that fired it, in order. Time grows with the
/// events the sink keeps and the steps outside cycles, not with `ticks`.
pub(super) fn run(plan: &Plan, module: &Module, c: &mut Cursor, ticks: u64, sink: &mut impl Sink) -> Work {
    let mut work = Work::default();
    let mut done = 0u64;
    while done < ticks {
        if c.remaining == HALTED {
            break;
        }
        if c.remaining > 0 {
            let d = (c.remaining as u64).min(ticks - done);
            c.remaining -= d as u32;
            done += d;
            continue;
        }
        // The step applies at animation tick `done`. When two trips round
        // its cycle or more are left, all but the last one to two are
        // skipped: they fire their events and come back to this step. The
        // trips still walked set the sprite and state each would have.
        // (Only worth a look when many ticks are left: a tick at speed 2
        // runs two, and must not pay for the lookup.)
        let left = ticks - done;
        if let Some(trip) = (left >= SKIP_FROM).then(|| plan.cycles.trip(c.step)).flatten() {
            if left >= 2 * trip.len {
                let q = left / trip.len - 1;
                let count = trip.event_count() as u64;
                if count > 0 {
                    for r in 0..q {
                        let at = done + r * trip.len;
                        if !sink.wants(at) {
                            // Every event of this trip and the next ones
                            // fires at `at` or later: none is kept.
                            sink.drop_events((q - r) * count);
                            break;
                        }
                        for (t, e) in trip.events() {
                            sink.offer(at + t, e);
                        }
                    }
                }
                done += q * trip.len;
                work.trips += q;
                work.steps += q * trip.steps;
                work.insns += q * trip.insns;
            }
        }
        let Some(&st) = plan.steps.get(c.step as usize) else {
            c.remaining = HALTED;
            break;
        };
        let st = if st.ev_len == INTERPRET {
            plan.interpret(module, &st, |e| sink.offer(done, e))
        } else {
            for &e in plan.events(&st) {
                sink.offer(done, e);
            }
            st
        };
        if st.sprite != KEEP {
            c.sprite = st.sprite;
        }
        if st.state != KEEP_STATE {
            c.state = st.state;
        }
        c.step = st.next;
        c.remaining = st.wait;
        if c.remaining != HALTED {
            c.remaining -= 1;
        }
        done += 1;
        work.steps += 1;
        work.insns += st.insns as u64;
    }
    work
}
