//! `SpriteBatch` and `SpriteInstance` against a reference interpreter that
//! decodes the bytecode one instruction at a time (what the runtime did
//! before steps were pre-run), tick by tick, with `set_state` and
//! `restart_state` at arbitrary ticks; and the guard rails that keep sprite
//! ticking cheap without timing anything: instruction counts and memory.

use crate::common;
use animkit_vm::engine::isa::Op;
use animkit_vm::engine::program::Program;
use animkit_vm::engine::sprite::{BATCH_BYTES_PER_INSTANCE, SpriteBatch, Sprites};
use common::sprites;
use proptest::prelude::*;

/// The sprite interpreter as the ISA table defines it, one instruction at a
/// time.
#[derive(Clone, Debug)]
struct Reference {
    pc: u32,
    remaining: u32,
    sprite: u32,
    state: u16,
    events: Vec<u32>,
}

const HALTED: u32 = u32::MAX;

impl Reference {
    fn new(s: &Sprites, program: &Program, state: u16) -> Reference {
        let m = program.module(s.name()).unwrap();
        Reference { pc: m.states[state as usize].entry, remaining: 0, sprite: 0, state, events: Vec::new() }
    }

    fn restart(&mut self, program: &Program, s: &Sprites, state: u16) {
        let m = program.module(s.name()).unwrap();
        self.pc = m.states[state as usize].entry;
        self.remaining = 0;
        self.state = state;
    }

    fn tick(&mut self, program: &Program, s: &Sprites) {
        let m = program.module(s.name()).unwrap();
        let code = &m.functions[0].code;
        if self.remaining == 0 {
            self.remaining = loop {
                let w = code[self.pc as usize];
                self.pc += 1;
                match w.op().unwrap() {
                    Op::Sprite => self.sprite = w.ax_field(),
                    Op::Event => self.events.push(w.ax_field()),
                    Op::Wait => break w.ax_field(),
                    Op::Jmp => self.pc = (self.pc as i64 + w.sj_field() as i64) as u32,
                    Op::Enter => {
                        self.state = w.ax_field() as u16;
                        self.pc = m.states[self.state as usize].entry;
                    }
                    Op::Halt => break HALTED,
                    Op::Nop => {}
                    op => panic!("{op} in sprite code"),
                }
            };
        }
        if self.remaining != HALTED {
            self.remaining -= 1;
        }
    }
}

/// Runs `ticks` ticks of one batch, one `SpriteInstance` per batch member
/// and one reference per member, all spawned in every state `copies` times;
/// every `every` ticks, member `k` is set or restarted into a state chosen
/// by `choose`. Asserts all three agree on state, frame and events.
fn agree(src: &str, ticks: usize, copies: usize, every: usize) {
    agree_program(&sprites(src), &common::program(src), src, ticks, copies, every);
}

fn agree_program(s: &Sprites, program: &Program, src: &str, ticks: usize, copies: usize, every: usize) {
    let s = s.clone();
    let n_states = s.state_count() as u16;
    let mut batch = s.batch();
    let mut inst = Vec::new();
    let mut refs = Vec::new();
    for c in 0..copies {
        for st in 0..n_states {
            let name = s.state_name(st);
            batch.spawn(name).unwrap();
            inst.push(s.instance(name).unwrap());
            let mut r = Reference::new(&s, program, st);
            // Stagger the copies: restart some at later ticks below.
            r.events.clear();
            refs.push(r);
            let _ = c;
        }
    }
    let mut seed = 0x1234_5678u64;
    let mut rand = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for t in 0..ticks {
        if every > 0 && t % every == 0 {
            for _ in 0..3 {
                let k = (rand() % refs.len() as u64) as usize;
                let st = (rand() % n_states as u64) as u16;
                let name = s.state_name(st).to_string();
                if rand() % 2 == 0 {
                    batch.set_state(k as u32, &name).unwrap();
                    inst[k].set_state(&name).unwrap();
                    if refs[k].state != st {
                        refs[k].restart(program, &s, st);
                    }
                } else {
                    batch.restart_state(k as u32, &name).unwrap();
                    inst[k].restart_state(&name).unwrap();
                    refs[k].restart(program, &s, st);
                }
                assert_eq!(batch.state(k as u32), st);
                assert_eq!(inst[k].state(), st);
            }
        }
        batch.tick();
        let events: Vec<_> = batch.drain_events().collect();
        let mut expected = Vec::new();
        for (k, (i, r)) in inst.iter_mut().zip(refs.iter_mut()).enumerate() {
            i.tick();
            r.tick(program, &s);
            let ie: Vec<u32> = i.drain_events().collect();
            assert_eq!(ie, r.events, "tick {t}, instance {k}: events of SpriteInstance\n{src}");
            assert_eq!((i.frame(), i.state()), (r.sprite, r.state), "tick {t}, instance {k}: SpriteInstance\n{src}");
            assert_eq!(
                (batch.frame(k as u32), batch.state(k as u32)),
                (r.sprite, r.state),
                "tick {t}, instance {k}: SpriteBatch\n{src}"
            );
            assert_eq!(i.is_waiting(), r.remaining == HALTED);
            expected.extend(r.events.drain(..).map(|e| (k as u32, e)));
        }
        let got: Vec<(u32, u32)> = events.iter().map(|e| (e.instance, e.event)).collect();
        assert_eq!(got, expected, "tick {t}: batch events in instance order\n{src}");
    }
}

#[test]
fn hero_batch_matches_reference() {
    let src = std::fs::read_to_string(common::path("examples/hero.anim")).unwrap();
    agree(&src, 400, 3, 7);
    agree(&src, 200, 1, 0);
}

#[test]
fn spec_patterns_match_reference() {
    for src in [
        "Walk: 5, 5, 5, 5, _loop\n",
        "Breathe: 5, 5, 5, 5, _pingpong|vfx\n",
        "Jump: 5, 0|2, 5, _wait\nAttack: 5, 0|sfxHit, 5, Idle\nIdle: 10|0, 10|1, 10|2, 10|1, _loop\n",
        "A: 0|a, 1, B\nB: 0|b, 0|3|c, C\nC: 2|x, A\n",
        "fall: 8, _wait\nX: 0|e, _wait|f\nY: 1|2, _loop|z\n",
        "Idle: 0|e, 3|5, 0|7, _loop\n",
    ] {
        agree(src, 120, 2, 5);
    }
}

fn arb_source() -> impl Strategy<Value = String> {
    let frame = (0u32..4, prop::option::of(0u32..6), prop::collection::vec(0usize..3, 0..2));
    let state = (prop::collection::vec(frame, 1..5), 0usize..6, prop::collection::vec(0usize..3, 0..2));
    prop::collection::vec(state, 1..5).prop_map(|states| {
        let n = states.len();
        let mut src = String::new();
        for (i, (frames, end, end_events)) in states.iter().enumerate() {
            src.push_str(&format!("S{i}: "));
            for (d, idx, evs) in frames {
                src.push_str(&d.to_string());
                if let Some(x) = idx {
                    src.push_str(&format!("|{x}"));
                }
                for e in evs {
                    src.push_str(&format!("|e{e}"));
                }
                src.push_str(", ");
            }
            match end {
                0 => src.push_str("_loop"),
                1 => src.push_str("_wait"),
                2 => src.push_str("_pingpong"),
                k => src.push_str(&format!("S{}", k % n)),
            }
            for e in end_events {
                src.push_str(&format!("|e{e}"));
            }
            src.push('\n');
        }
        src
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
    #[test]
    fn random_modules_match_reference(src in arb_source()) {
        let ok = animkit_compiler::compile(&[animkit_compiler::Source::new("test.anim", src.clone())], &Default::default()).is_ok();
        prop_assume!(ok);
        agree(&src, 60, 2, 4);
    }
}

/// A program no compiler emits: many resume points that all run one long
/// chain of events. Pre-running every resume point would be quadratic, so
/// the runtime interprets the steps past its budget; they must behave the
/// same.
#[test]
fn shared_long_paths_fall_back_to_interpretation() {
    use animkit_vm::engine::isa::Insn;
    use animkit_vm::engine::program::{Function, Language, Module, State};
    let (m, n) = (200u32, 400u32);
    // State k enters at pc 2k: `WAIT`, then a jump into one shared chain of
    // n events, so each of the m resume points after those waits runs n
    // instructions.
    let chain = 2 * m;
    let mut code = Vec::new();
    for k in 0..m {
        code.push(Insn::ax(Op::Wait, 1 + k % 3));
        let pc = code.len() as i32;
        code.push(Insn::sj(Op::Jmp, chain as i32 - pc - 1));
    }
    code.push(Insn::ax(Op::Sprite, 7));
    for e in 0..n {
        code.push(Insn::ax(Op::Event, 2 + e % 3));
    }
    code.push(Insn::ax(Op::Wait, 2));
    code.push(Insn::ax(Op::Enter, 3));
    let mut strings: Vec<String> = vec!["m".into(), "x".into(), "a".into(), "b".into(), "c".into()];
    let states: Vec<State> = (0..m)
        .map(|k| {
            strings.push(format!("S{k}"));
            State { name: strings.len() as u32 - 1, category: strings.len() as u32 - 1, entry: 2 * k }
        })
        .collect();
    let program = Program {
        strings,
        modules: vec![Module {
            name: 0,
            language: Language::Sprite,
            functions: vec![Function { name: 0, code, ..Function::default() }],
            states,
            entry: None,
            source: None,
        }],
    };
    let program = animkit_vm::engine::codec::load(&animkit_vm::engine::codec::encode(&program)).expect("verifies");
    let s = Sprites::new(std::sync::Arc::new(program.clone()), "m").unwrap();
    agree_program(&s, &program, "(hand-made)", 12, 1, 3);
}

fn walkers(n: usize) -> SpriteBatch {
    let s = sprites("Walk: 5, 5, 5, 5, _loop\nDead: 3|0, 2|1|thud, _wait\n");
    let mut b = s.batch();
    for _ in 0..n {
        b.spawn("Walk").unwrap();
    }
    b
}

#[test]
fn instances_mid_countdown_run_no_bytecode() {
    let mut b = walkers(1000);
    b.tick(); // every instance enters frame 0: SPRITE 0, WAIT 5
    let after_entry = b.stats();
    assert_eq!(after_entry.frame_changes, 1000);
    assert_eq!(after_entry.instructions, 2000);
    for _ in 0..4 {
        b.tick();
    }
    let s = b.stats();
    assert_eq!(s.instructions, after_entry.instructions, "ticks 1-4 are pure countdown");
    assert_eq!(s.scans, after_entry.scans, "no instance wakes: the batch is not even scanned");
    b.tick(); // frame 1 for everyone
    assert_eq!(b.stats().frame_changes, 2000);
}

#[test]
fn only_instances_whose_frame_ends_run() {
    let mut b = walkers(100);
    b.tick();
    b.tick();
    // Restart every other walker: from now on half the batch changes
    // frame on ticks where the other half counts down.
    for i in (0..100).step_by(2) {
        b.restart_state(i, "Walk").unwrap();
    }
    let before = b.stats();
    for _ in 0..20 {
        b.tick();
    }
    let s = b.stats();
    // 20 ticks = 4 frames of 5 ticks for each of the 100 walkers.
    assert_eq!(s.frame_changes - before.frame_changes, 400);
    // SPRITE + WAIT per frame, and one JMP for each walker that wrapped
    // around (the 50 that were not restarted; the others entered afresh).
    assert_eq!(s.instructions - before.instructions, 400 * 2 + 50);
}

#[test]
fn waiting_instances_cost_nothing() {
    let s = sprites("Dead: 3|0, 2|1|thud, _wait\n");
    let mut b = s.batch();
    for _ in 0..1000 {
        b.spawn("Dead").unwrap();
    }
    for _ in 0..6 {
        b.tick();
    }
    assert_eq!(b.drain_events().count(), 1000);
    let before = b.stats();
    for _ in 0..10_000 {
        b.tick();
    }
    let s = b.stats();
    assert_eq!(s.instructions, before.instructions, "a halted instance runs nothing");
    assert_eq!(s.frame_changes, before.frame_changes);
    assert_eq!(s.scans, before.scans, "a batch of halted instances is never scanned");
    assert_eq!(b.drain_events().count(), 0);
    assert!(b.frames().iter().all(|&f| f == 1));
    // And they still wake up when told to.
    b.set_state(7, "Dead").unwrap(); // already in it: nothing
    b.restart_state(7, "Dead").unwrap();
    b.tick();
    assert_eq!(b.stats().frame_changes, s.frame_changes + 1);
}

#[test]
fn per_instance_memory_is_at_most_16_bytes() {
    let b = walkers(10_000);
    const { assert!(BATCH_BYTES_PER_INSTANCE <= 16) };
    assert_eq!(b.hot_bytes(), 10_000 * BATCH_BYTES_PER_INSTANCE);
}
