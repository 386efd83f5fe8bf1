//! The scan of a [`SpriteBatch`](super::SpriteBatch)'s tick: which
//! instances wake (compared 64 at a time, with SSE2 on x86-64: the crate's
//! only `unsafe`), and their steps applied in instance order.

use super::batch::{BatchEvent, WHEEL};
use super::pending;
use super::plan::{INTERPRET, KEEP, KEEP_STATE, Plan, SLOW, SLOW_STEP, Step};
use super::slow::{self, Slow};
use super::tables::Tables;
use super::{EventId, StateId};
use crate::program::Module;

/// The columns of a batch a scan writes.
pub(super) struct Columns<'a> {
    pub(super) wake: &'a mut [u32],
    pub(super) step: &'a mut [u32],
    pub(super) sprite: &'a mut [u32],
    pub(super) state: &'a mut [StateId],
    /// Empty, or one slot per instance (`slow.rs`).
    pub(super) slow: &'a mut [Slow],
}

/// What a scan did.
pub(super) struct Scanned {
    pub(super) woken: u32,
    pub(super) insns: u64,
    /// Instances woken that were counted in `due` (not halted).
    pub(super) counted: u32,
    /// Wake-ups whose slot differs from the previous wake-up's.
    pub(super) switches: u32,
    /// Wake-ups through the slow path's general catch-up.
    pub(super) slow_wakes: u32,
}

/// Applies its step to every instance whose wake-up tick is `now`, in
/// instance order, and adds their new wake-up ticks to `due`.
///
/// With `RUNS`, wake-up counts are added in runs of equal slots: fastest
/// when the instances waking together wait alike (a crowd walking in
/// step), but the slot-change branch mispredicts when waits vary. Without,
/// they go to four local tables in turn, branch-free, so that equal slots
/// in a row do not chain through one memory location: 15% faster on a
/// mixed population, 17% slower on the walk (see BENCHMARKS.md).
#[inline(always)]
pub(super) fn scan<const RUNS: bool>(
    plan: &Plan,
    module: &Module,
    tables: &Tables,
    cols: Columns<'_>,
    events: (&mut Vec<BatchEvent>, &mut u64),
    due: &mut [u32; WHEEL],
    now: u32,
) -> Scanned {
    let Columns { wake, step, sprite, state, slow } = cols;
    // The plan's steps, or the same followed by the speed tables'.
    let (steps, ev) = if tables.steps.is_empty() {
        (&plan.steps[..], plan.all_events())
    } else {
        (&tables.steps[..], &tables.events[..])
    };
    let mut sc = ScanState {
        plan,
        module,
        tables,
        steps,
        ev,
        slow,
        events: events.0,
        dropped: events.1,
        now,
        r: Scanned { woken: 0, insns: 0, counted: 0, switches: 0, slow_wakes: 0 },
        adds: [[0u32; WHEEL]; 4],
        run_slot: now as usize % WHEEL,
        run: 0,
    };
    let full = wake.len() / 64 * 64;
    let (wake_f, wake_r) = wake.split_at_mut(full);
    let (step_f, step_r) = step.split_at_mut(full);
    let (sprite_f, sprite_r) = sprite.split_at_mut(full);
    let (state_f, state_r) = state.split_at_mut(full);
    let chunks = full / 64;
    // Slots of the slow path are read only for the instances that wake, a
    // few per chunk, scattered over a column too large for the cache: each
    // would be a miss. The wake-ups of the chunk `AHEAD` chunks on are
    // known, so their slots are fetched while this chunk runs.
    // The masks of the chunks fetched ahead, by chunk index mod `AHEAD + 1`.
    let prefetch = !sc.slow.is_empty();
    let mut ahead = [0u64; AHEAD + 1];
    if prefetch {
        for (c, m) in ahead.iter_mut().enumerate().take(AHEAD) {
            *m = prefetch_slots(sc.slow, wake_f, step_f, c, now);
        }
    }
    for base in 0..chunks {
        let mask = if prefetch {
            ahead[(base + AHEAD) % (AHEAD + 1)] = prefetch_slots(sc.slow, wake_f, step_f, base + AHEAD, now);
            ahead[base % (AHEAD + 1)]
        } else {
            eq_mask(&wake_f[base * 64..base * 64 + 64], now)
        };
        let r = base * 64..base * 64 + 64;
        // Fixed-size chunks: every index below is provably in bounds.
        let (Ok(w), Ok(st), Ok(sp), Ok(sa)) = (
            <&mut [u32; 64]>::try_from(&mut wake_f[r.clone()]),
            <&mut [u32; 64]>::try_from(&mut step_f[r.clone()]),
            <&mut [u32; 64]>::try_from(&mut sprite_f[r.clone()]),
            <&mut [StateId; 64]>::try_from(&mut state_f[r]),
        ) else {
            continue;
        };
        sc.chunk::<RUNS>(base * 64, mask, w, st, sp, sa);
    }
    // The last partial chunk goes through padded copies (a padding lane
    // never wakes: its tick is not `now`).
    let rest = wake_r.len();
    if rest > 0 {
        let mut w = [now.wrapping_add(1); 64];
        let (mut st, mut sp, mut sa) = ([0u32; 64], [0u32; 64], [0 as StateId; 64]);
        w[..rest].copy_from_slice(wake_r);
        st[..rest].copy_from_slice(step_r);
        sp[..rest].copy_from_slice(sprite_r);
        sa[..rest].copy_from_slice(state_r);
        let mask = eq_mask(&w, now);
        sc.chunk::<RUNS>(full, mask, &mut w, &mut st, &mut sp, &mut sa);
        wake_r.copy_from_slice(&w[..rest]);
        step_r.copy_from_slice(&st[..rest]);
        sprite_r.copy_from_slice(&sp[..rest]);
        state_r.copy_from_slice(&sa[..rest]);
    }
    if RUNS {
        sc.adds[0][sc.run_slot] += sc.run;
    }
    for (k, d) in due.iter_mut().enumerate() {
        *d += sc.adds[0][k] + sc.adds[1][k] + sc.adds[2][k] + sc.adds[3][k];
    }
    sc.r
}

/// What a scan carries from chunk to chunk.
struct ScanState<'a> {
    plan: &'a Plan,
    module: &'a Module,
    tables: &'a Tables,
    /// Indexed by the step column (see [`scan`]).
    steps: &'a [Step],
    ev: &'a [EventId],
    slow: &'a mut [Slow],
    events: &'a mut Vec<BatchEvent>,
    /// Events fired while the cap's worth were pending (`pending.rs`).
    dropped: &'a mut u64,
    now: u32,
    r: Scanned,
    adds: [[u32; WHEEL]; 4],
    run_slot: usize,
    run: u32,
}

impl ScanState<'_> {
    /// One chunk of 64 instances from `base`, those waking now set in
    /// `mask` (see [`scan`]).
    #[inline(always)]
    fn chunk<const RUNS: bool>(
        &mut self,
        base: usize,
        mut mask: u64,
        wake: &mut [u32; 64],
        step: &mut [u32; 64],
        sprite: &mut [u32; 64],
        state: &mut [StateId; 64],
    ) {
        let (plan, steps, ev, now) = (self.plan, self.steps, self.ev, self.now);
        while mask != 0 {
            let j = mask.trailing_zeros() as usize & 63;
            mask &= mask - 1;
            let mut st = &steps[step[j] as usize];
            let interpreted;
            if st.ev_len != 0 {
                let instance = (base + j) as u32;
                let (events, dropped) = (&mut *self.events, &mut *self.dropped);
                let mut emit = |event| pending::push(events, dropped, BatchEvent { instance, event });
                if st.ev_len == INTERPRET {
                    interpreted = plan.interpret(self.module, st, emit);
                    st = &interpreted;
                } else if st.ev_len == SLOW {
                    // An instance on the slow path: its own step, countdown
                    // and clock are in its slot (a slot-less one is halted).
                    let slot = self.slow.get_mut(base + j);
                    interpreted = match slot {
                        Some(slot) => {
                            self.r.slow_wakes += 1;
                            slow::wake(plan, self.module, self.tables, slot, sprite[j], state[j], now, emit)
                        }
                        None => plan.steps[super::plan::HALT_STEP as usize],
                    };
                    st = &interpreted;
                } else {
                    let mine = ev.get(st.ev_start as usize..(st.ev_start + st.ev_len) as usize).unwrap_or(&[]);
                    for &event in mine {
                        emit(event);
                    }
                }
            }
            if st.sprite != KEEP {
                sprite[j] = st.sprite;
            }
            if st.state != KEEP_STATE {
                state[j] = st.state;
            }
            // A halted instance (at HALT_STEP) is not counted in `due`: only
            // its wake-up after 2^32 - 1 ticks can meet a scan, and its halt
            // step then changes nothing.
            self.r.counted += st.from_live as u32;
            step[j] = st.next;
            let w = now.wrapping_add(st.wait);
            wake[j] = w;
            let s = w as usize % WHEEL;
            if RUNS {
                if s != self.run_slot {
                    // `due` is added to at the end; runs are kept here.
                    self.adds[0][self.run_slot] += self.run;
                    self.run_slot = s;
                    self.run = 0;
                    self.r.switches += 1;
                }
                self.run += st.to_live as u32;
            } else {
                self.adds[self.r.woken as usize & 3][s] += st.to_live as u32;
                self.r.switches += (s != self.run_slot) as u32;
                self.run_slot = s;
            }
            self.r.woken += 1;
            self.r.insns += st.insns as u64;
        }
    }
}

/// How many chunks ahead [`prefetch_slots`] looks: far enough for a slot
/// to arrive from memory while the chunks in between run (a dozen wake-ups
/// each in a mixed population), near enough to stay in the cache.
const AHEAD: usize = 2;

/// Asks the cache for the slow-path slots of the instances of chunk
/// `chunk` that wake at `now` through the slow path (a table entry reads
/// no slot), and returns the mask of all that wake ([`eq_mask`]; 0 past
/// the columns' end).
#[inline(always)]
fn prefetch_slots(slow: &[Slow], wake: &[u32], step: &[u32], chunk: usize, now: u32) -> u64 {
    let Some(w) = wake.get(chunk * 64..chunk * 64 + 64) else {
        return 0;
    };
    let all = eq_mask(w, now);
    let mut mask = all;
    while mask != 0 {
        let j = mask.trailing_zeros() as usize & 63;
        mask &= mask - 1;
        if step.get(chunk * 64 + j) == Some(&SLOW_STEP) {
            if let Some(slot) = slow.get(chunk * 64 + j) {
                prefetch(slot);
            }
        }
    }
    all
}

/// A hint that `*x` is read soon; no effect on what the program computes.
#[inline(always)]
fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE is in the x86-64 baseline; a prefetch reads nothing the
    // program sees and cannot fault, and `x` is a valid reference anyway.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>((x as *const T).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// Bit j set where `chunk[j] == now` (`chunk` has at most 64 entries).
#[inline]
fn eq_mask(chunk: &[u32], now: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if let Ok(c) = <&[u32; 64]>::try_from(chunk) {
        return eq_mask_sse2(c, now);
    }
    let mut m = 0u64;
    for (j, &w) in chunk.iter().enumerate() {
        m |= ((w == now) as u64) << j;
    }
    m
}

/// [`eq_mask`] for a full chunk with SSE2 (part of every x86-64 CPU): 16
/// lanes per `movemask`, where the portable loop compiles to shifts of
/// 64-bit lanes.
#[cfg(target_arch = "x86_64")]
#[inline]
#[allow(unused_unsafe)]
fn eq_mask_sse2(chunk: &[u32; 64], now: u32) -> u64 {
    use std::arch::x86_64::*;
    let mut m = 0u64;
    // SAFETY: SSE2 is in the x86-64 baseline, so the intrinsics exist on
    // every target this compiles for; each unaligned load reads 4 lanes at
    // `4 * q < 64`, inside `chunk`.
    unsafe {
        let k = _mm_set1_epi32(now as i32);
        let p = chunk.as_ptr() as *const __m128i;
        for g in 0..4 {
            let e0 = _mm_cmpeq_epi32(_mm_loadu_si128(p.add(4 * g)), k);
            let e1 = _mm_cmpeq_epi32(_mm_loadu_si128(p.add(4 * g + 1)), k);
            let e2 = _mm_cmpeq_epi32(_mm_loadu_si128(p.add(4 * g + 2)), k);
            let e3 = _mm_cmpeq_epi32(_mm_loadu_si128(p.add(4 * g + 3)), k);
            let bytes = _mm_packs_epi16(_mm_packs_epi32(e0, e1), _mm_packs_epi32(e2, e3));
            m |= (_mm_movemask_epi8(bytes) as u16 as u64) << (16 * g);
        }
    }
    m
}
