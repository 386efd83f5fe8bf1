//! A sprite module's code pre-run from every resume point into *steps*
//! (see the module docs of [`super`]), and the sprite interpreter that
//! pre-runs it.

use super::{EventId, StateId};
use crate::isa::{Insn, Op, animator_ops, register_ops, slap_ops};
use crate::program::{Module, State};

/// `remaining` value of an instance stopped by `_wait`, and
/// [`Step::wait`] of a `HALT`.
pub(super) const HALTED: u32 = u32::MAX;

/// The effect of running a sprite module's code from one resume point (a
/// state's entry, or the instruction after a `WAIT`) to the next `WAIT` or
/// `HALT`: the sprite it leaves displayed, the state it leaves the instance
/// in, the events it fires in order, how long the frame it reaches is shown
/// and where it resumes after that.
///
/// Sprite code is straight-line (the verifier forbids anything but
/// `SPRITE EVENT ENTER JMP WAIT HALT NOP`), so this effect depends on the
/// resume point alone: [`Plan::new`] runs the interpreter once per resume
/// point when a module is opened, and a tick applies one `Step` per frame
/// change instead of decoding instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
pub(super) struct Step {
    /// Step to apply when the frame reached has been shown `wait` ticks.
    pub(super) next: u32,
    /// Ticks the frame reached is shown; [`HALTED`] for a `HALT`.
    pub(super) wait: u32,
    /// The sprite set last, or [`KEEP`] when no `SPRITE` ran.
    pub(super) sprite: u32,
    /// First event in [`Plan::events`].
    pub(super) ev_start: u32,
    /// Number of events.
    pub(super) ev_len: u32,
    /// Bytecode instructions this step stands for (for
    /// [`BatchStats`](super::BatchStats)).
    pub(super) insns: u32,
    /// The state entered last, or [`KEEP_STATE`] when no `ENTER` ran.
    pub(super) state: StateId,
    /// 1 unless this is [`HALT_STEP`]: an instance about to apply it is
    /// counted in its batch's wake-up counts.
    pub(super) from_live: u8,
    /// 1 unless `next` is [`HALT_STEP`]: after it, the instance is counted.
    pub(super) to_live: u8,
}

/// `Step::sprite` of a step that sets no sprite.
pub(super) const KEEP: u32 = u32::MAX;
/// `Step::state` of a step that enters no state (never a state id: a
/// module has at most 65 535 states, ids `0..=65534`).
pub(super) const KEEP_STATE: StateId = StateId::MAX;
/// Step 0 of every plan: what a halted instance resumes to. It changes
/// nothing and halts again.
pub(super) const HALT_STEP: u32 = 0;
/// Step 1 of every plan: never applied, but held in a
/// [`SpriteBatch`](super::SpriteBatch)'s step column by an instance on the
/// batch's slow path (a speed other than 1, or a phase still to skip),
/// whose own step is in its slow slot (`slow.rs`). Its `ev_len` is
/// [`SLOW`], so the scan's test for steps with events catches it and the
/// plain path pays no extra test.
pub(super) const SLOW_STEP: u32 = 1;
/// `Step::ev_len` of [`SLOW_STEP`].
pub(super) const SLOW: u32 = u32::MAX - 1;
/// `Plan::pcs` of the two steps that stand for no resume point.
pub(super) const NO_PC: u32 = u32::MAX;

/// A module's code, pre-run from each resume point (see [`Step`]).
#[derive(Debug, Default)]
pub(super) struct Plan {
    pub(super) steps: Vec<Step>,
    events: Vec<EventId>,
    /// The step that enters each state.
    pub(super) entry: Vec<u32>,
    /// Resume pc -> step (`u32::MAX`: no step there). Snapshots name
    /// resume points by pc, so that they do not depend on how steps are
    /// numbered.
    index: Vec<u32>,
    /// Step -> its resume pc ([`NO_PC`] for [`HALT_STEP`] and [`SLOW_STEP`]).
    pub(super) pcs: Vec<u32>,
    /// The cycles of the step graph, for skipping whole cycles (`cycles.rs`).
    pub(super) cycles: super::cycles::Cycles,
}

/// `Step::ev_len` of a step that is not pre-run but interpreted when it is
/// applied (`Step::next` is then its resume pc). Pre-running stops at a
/// budget proportional to the code, so that a hostile program whose resume
/// points share long paths cannot make opening it quadratic in time or
/// memory; the compiler never emits such code.
pub(super) const INTERPRET: u32 = u32::MAX;

impl Plan {
    /// Runs the interpreter from every resume point reachable from a state
    /// entry. Robust on any program, verified or not: an index out of range
    /// or an op foreign to sprite code halts, and a run longer than the
    /// code without a `WAIT` (impossible once verified) halts too.
    /// `resume` is the module's resume points from the verifier
    /// ([`crate::verify::ModuleInfo::resume_points`]: the pc after each
    /// `WAIT`), which a plan out of budget turns into steps.
    pub(super) fn new(m: &Module, resume: &[u32]) -> Plan {
        let code: &[Insn] = m.functions.first().map_or(&[], |f| &f.code);
        let halt = Step {
            next: HALT_STEP,
            wait: HALTED,
            sprite: KEEP,
            ev_start: 0,
            ev_len: 0,
            insns: 0,
            state: KEEP_STATE,
            from_live: 0,
            to_live: 0,
        };
        let mut plan = Plan {
            steps: vec![halt, Step { next: SLOW_STEP, ev_len: SLOW, ..halt }],
            events: Vec::new(),
            entry: Vec::with_capacity(m.states.len()),
            index: Vec::new(),
            pcs: vec![NO_PC, NO_PC],
            cycles: Default::default(),
        };
        // Resume pc -> step index (u32::MAX: not assigned yet).
        let mut index = vec![u32::MAX; code.len() + 1];
        // Steps whose `next` is still a pc, to patch once all are known.
        let mut queue: Vec<u32> = Vec::new();
        let mut step_at = |pc: u32, plan: &mut Plan, queue: &mut Vec<u32>| -> u32 {
            let Some(slot) = index.get_mut(pc as usize) else { return HALT_STEP };
            if *slot == u32::MAX {
                *slot = plan.steps.len() as u32;
                plan.steps.push(Step { next: pc, ..plan.steps[0] });
                plan.pcs.push(pc);
                queue.push(*slot);
            }
            *slot
        };
        for s in &m.states {
            let e = step_at(s.entry, &mut plan, &mut queue);
            plan.entry.push(e);
        }
        // Instructions pre-run so far, and the budget.
        let (mut work, budget) = (0usize, 8 * code.len() + 4096);
        while let Some(si) = queue.pop() {
            if work > budget {
                // Out of budget: every resume point becomes a step that is
                // interpreted when applied.
                queue.push(si);
                for &pc in resume {
                    step_at(pc, &mut plan, &mut queue);
                }
                for q in queue.drain(..) {
                    let st = &mut plan.steps[q as usize];
                    *st = Step { ev_len: INTERPRET, from_live: 1, to_live: 1, ..*st };
                }
                break;
            }
            let start = plan.steps[si as usize].next;
            let ev_start = plan.events.len() as u32;
            let mut events = std::mem::take(&mut plan.events);
            let run = run_code(code, &m.states, start, |e| events.push(e));
            plan.events = events;
            work += run.insns as usize;
            let next = match run.resume {
                Some(r) => step_at(r, &mut plan, &mut queue),
                None => HALT_STEP,
            };
            let ev_len = plan.events.len() as u32 - ev_start;
            let (from_live, to_live) = ((si != HALT_STEP) as u8, (next != HALT_STEP) as u8);
            plan.steps[si as usize] = Step {
                next,
                wait: run.wait,
                sprite: run.sprite,
                ev_start,
                ev_len,
                insns: run.insns,
                state: run.state,
                from_live,
                to_live,
            };
        }
        plan.index = index;
        plan.cycles = super::cycles::Cycles::new(&plan.steps, |st| plan.events(st));
        plan
    }

    /// The step that resumes at `pc`, if the module has one there.
    pub(super) fn step_at(&self, pc: u32) -> Option<u32> {
        self.index.get(pc as usize).copied().filter(|&s| s != u32::MAX)
    }

    /// The effect of an [`INTERPRET`] step (whose `next` is its pc), as a
    /// pre-run step; its events go to `emit`.
    #[cold]
    pub(super) fn interpret(&self, m: &Module, st: &Step, emit: impl FnMut(EventId)) -> Step {
        let code: &[Insn] = m.functions.first().map_or(&[], |f| &f.code);
        let run = run_code(code, &m.states, st.next, emit);
        let next = run.resume.and_then(|r| self.step_at(r)).unwrap_or(HALT_STEP);
        Step {
            next,
            wait: run.wait,
            sprite: run.sprite,
            ev_start: 0,
            ev_len: 0,
            insns: run.insns,
            state: run.state,
            from_live: 1,
            to_live: (next != HALT_STEP) as u8,
        }
    }

    /// Every step's events, indexed by `Step::ev_start`.
    pub(super) fn all_events(&self) -> &[EventId] {
        &self.events
    }

    #[inline]
    pub(super) fn events(&self, st: &Step) -> &[EventId] {
        self.events.get(st.ev_start as usize..(st.ev_start + st.ev_len) as usize).unwrap_or(&[])
    }
}

/// What running sprite code from one resume point to its next `WAIT` or
/// `HALT` did.
struct Run {
    sprite: u32,
    state: StateId,
    wait: u32,
    resume: Option<u32>,
    insns: u32,
}

/// The sprite interpreter: runs `code` from `pc` until a `WAIT` (or a
/// `HALT`), firing events through `emit`. Robust on any program, verified
/// or not: an index out of range or an op foreign to sprite code halts, and
/// so does a run longer than the code without a `WAIT` (impossible once
/// verified).
fn run_code(code: &[Insn], states: &[State], mut pc: u32, mut emit: impl FnMut(EventId)) -> Run {
    let mut run = Run { sprite: KEEP, state: KEEP_STATE, wait: HALTED, resume: None, insns: 0 };
    let mut budget = code.len() + 1;
    while let Some(&w) = code.get(pc as usize) {
        if budget == 0 {
            break;
        }
        budget -= 1;
        run.insns += 1;
        pc += 1;
        match w.op() {
            Some(Op::Sprite) => run.sprite = w.ax_field(),
            Some(Op::Event) => emit(w.ax_field()),
            Some(Op::Wait) => {
                run.wait = w.ax_field().max(1);
                run.resume = Some(pc);
                break;
            }
            Some(Op::Jmp) => pc = (pc as i64 + w.sj_field() as i64).clamp(0, u32::MAX as i64) as u32,
            Some(Op::Enter) => match states.get(w.ax_field() as usize) {
                Some(st) => {
                    run.state = w.ax_field() as StateId;
                    pc = st.entry;
                }
                None => break,
            },
            Some(Op::Nop) => {}
            // The end of the code.
            Some(Op::Halt) => break,
            // Ops foreign to sprite code (the verifier's `sprite` rule
            // refuses them; unverified code halts on them).
            Some(register_ops!() | animator_ops!() | slap_ops!()) => break,
            // An unassigned opcode byte.
            None => break,
        }
    }
    run
}
