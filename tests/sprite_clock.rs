//! Playback speed, phase and catch-up (issue 16 §2): the VM against the
//! spec's reference interpreter (`tests/reference/sprite.rs`) driven by a
//! clock written here from the rules in `vm/src/sprite/speed.rs`'s docs;
//! `SpriteBatch` against one `SpriteInstance` per member; `advance(n)`
//! against n calls of `tick()`, events included, for n up to 10^6; and the
//! guard rail that catching up on a looping state does not walk its frames.
//!
//! Cases per property: `PROPTEST_CASES` (default 256) for the first three,
//! 4 for the one that advances by up to 10^6 ticks (about 10 s in a debug
//! build; shrinking stops after 40 steps there, each takes seconds).

use crate::common;
use crate::reference::sprite as reference;

use animkit_vm::engine::sprite::{MAX_PENDING_EVENTS, Speed, SpriteInstance, Sprites};
use common::sprite_programs::{
    GameOp, Seen, apply, apply_batch, arb_ops, arb_source, arb_speed, compiles, tick_batch_seen, tick_seen,
};
use common::{frames, sprites};
use proptest::prelude::*;
use reference::{RefInstance, RefTick};

/// The reference interpreter behind the clock the VM documents: a credit
/// in 1/65536ths that starts one short of a whole animation tick at every
/// state entry the game asks for, gains the speed every tick and runs one
/// reference tick per whole unit; a phase runs that many reference ticks
/// silently at the start of the next tick.
struct RefClocked {
    inst: RefInstance,
    speed: u64,
    credit: u64,
    skip: u32,
}

impl RefClocked {
    fn new(file: &animkit_grammar::sprite::ast::File, start: &str, phase: u32) -> RefClocked {
        RefClocked { inst: RefInstance::new(file, start), speed: 65536, credit: 65535, skip: phase }
    }

    fn apply(&mut self, file: &animkit_grammar::sprite::ast::File, op: GameOp) {
        let n = file.states.len() as u16;
        let name = |s: u16| file.states[(s % n) as usize].name.text.clone();
        match op {
            GameOp::Set(s, p) => {
                if self.inst.observe().state != name(s) {
                    self.restart(&name(s), p);
                }
            }
            GameOp::Restart(s, p) => self.restart(&name(s), p),
            GameOp::Speed(raw) => self.speed = Speed::from_raw(raw).raw() as u64,
        }
    }

    fn restart(&mut self, name: &str, phase: u32) {
        self.inst.restart_state(name);
        self.credit = 65535;
        self.skip = phase;
    }

    fn tick(&mut self) -> RefTick {
        for _ in 0..std::mem::take(&mut self.skip) {
            self.inst.tick();
        }
        self.credit += self.speed;
        let runs = self.credit >> 16;
        self.credit &= 0xffff;
        let mut events = Vec::new();
        for _ in 0..runs {
            events.extend(self.inst.tick().events);
        }
        RefTick { events, ..self.inst.observe() }
    }
}

fn observe(s: &Sprites, i: &mut SpriteInstance) -> RefTick {
    let events = i.drain_events().map(|e| s.event_name(e).to_string()).collect();
    RefTick { state: i.state_name().into(), category: i.category().into(), frame: i.frame(), events }
}

fn line(t: &RefTick) -> String {
    format!("{}[{}] frame {} events {:?}", t.state, t.category, t.frame, t.events)
}

/// `n` ticks mostly small, sometimes a few thousand.
fn arb_n() -> impl Strategy<Value = u32> {
    prop_oneof![4 => 0u32..200, 1 => 200u32..5000]
}

/// Per instance: start state, phase, speed, ops before ticks.
type Member = (u16, u32, u32, Vec<(usize, GameOp)>);

fn arb_member() -> impl Strategy<Value = Member> {
    (0u16..4, prop_oneof![2 => Just(0u32), 1 => 0u32..40], arb_speed(), arb_ops(60))
}

fn start_name(s: &Sprites, start: u16) -> String {
    s.state_name(start % s.state_count() as u16).to_string()
}

proptest! {
    #![proptest_config(common::equivalence::config())]

    #[test]
    fn speeds_and_phases_match_the_reference(src in arb_source(), start in 0u16..4, phase in 0u32..40, ops in arb_ops(100)) {
        prop_assume!(compiles(&src));
        let s = sprites(&src);
        let (file, errors) = animkit_grammar::sprite::parse(&src);
        prop_assert!(errors.is_empty());
        let start = start_name(&s, start);
        let mut vm = s.instance_at(&start, phase).unwrap();
        let mut r = RefClocked::new(&file, &start, phase);
        let (mut got, mut want) = (Vec::new(), Vec::new());
        for t in 0..100 {
            for &(at, op) in &ops {
                if at == t {
                    apply(&mut vm, op);
                    r.apply(&file, op);
                }
            }
            vm.tick();
            got.push(observe(&s, &mut vm));
            want.push(r.tick());
        }
        let diff = common::equivalence::first_difference(&got, &want, "tick", ("vm", "ref"), line, |a, b| a == b);
        prop_assert!(diff.is_none(), "{src}start {start} phase {phase}, ops {ops:?}\n{}", diff.unwrap_or_default());
    }

    #[test]
    fn batch_matches_one_instance_per_member(src in arb_source(), members in prop::collection::vec(arb_member(), 1..7)) {
        prop_assume!(compiles(&src));
        let s = sprites(&src);
        let mut batch = s.batch();
        let mut inst = Vec::new();
        for (start, phase, speed, _) in &members {
            let name = start_name(&s, *start);
            batch.spawn_at(&name, *phase).unwrap();
            let mut i = s.instance_at(&name, *phase).unwrap();
            i.set_speed(Speed::from_raw(*speed));
            batch.set_speed(batch.len() as u32 - 1, Speed::from_raw(*speed));
            inst.push(i);
        }
        for t in 0..90 {
            for (k, (_, _, _, ops)) in members.iter().enumerate() {
                for &(at, op) in ops {
                    if at == t {
                        apply(&mut inst[k], op);
                        apply_batch(&mut batch, k as u32, op);
                    }
                }
            }
            let want: Vec<Seen> = inst.iter_mut().map(tick_seen).collect();
            let got = tick_batch_seen(&mut batch);
            prop_assert_eq!(&got, &want, "tick {}\n{}members {:?}", t, src, members);
            for (k, i) in inst.iter().enumerate() {
                prop_assert_eq!(batch.speed(k as u32), i.speed());
            }
        }
    }

    #[test]
    fn advance_equals_ticks(src in arb_source(), members in prop::collection::vec(arb_member(), 1..5), before in 0usize..30, n in arb_n()) {
        prop_assume!(compiles(&src));
        advance_case(&src, &members, before, n)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4, max_shrink_iters: 40, ..common::equivalence::config() })]

    #[test]
    fn advance_equals_ticks_up_to_a_million(src in arb_source(), members in prop::collection::vec(arb_member(), 1..3), n in 100_000u32..=1_000_000) {
        prop_assume!(compiles(&src));
        advance_case(&src, &members, 7, n)?;
    }
}

/// Members as in `batch_matches_one_instance_per_member`, ticked `before`
/// times with their ops; then each instance is copied, one copy advanced
/// by `n` and one ticked `n` times recording the tick of every event, and
/// the batch advanced by `n`. The advanced instance must have fired the
/// ticked one's events in order, the batch all of them ordered by tick and
/// then by instance (what `n` batch ticks queue: `batch_matches_...`
/// checks the batch's ticks against the instances'), and all must show the
/// same and keep agreeing for 40 more ticks (so countdowns and credits
/// agree too). The advanced copies and the batch keep the first
/// `MAX_PENDING_EVENTS` of those events and count the rest as dropped (the
/// ticked copies, drained every tick, drop none). Only instances are ticked `n` times: a batch ticked 10^6
/// times one by one is too slow for a debug build.
fn advance_case(src: &str, members: &[Member], before: usize, n: u32) -> Result<(), TestCaseError> {
    let s = sprites(src);
    let mut batch = s.batch();
    let mut inst = Vec::new();
    for (start, phase, speed, _) in members {
        let name = start_name(&s, *start);
        batch.spawn_at(&name, *phase).unwrap();
        batch.set_speed(batch.len() as u32 - 1, Speed::from_raw(*speed));
        let mut i = s.instance_at(&name, *phase).unwrap();
        i.set_speed(Speed::from_raw(*speed));
        inst.push(i);
    }
    for t in 0..before {
        for (k, (_, _, _, ops)) in members.iter().enumerate() {
            for &(at, op) in ops {
                if at == t {
                    apply(&mut inst[k], op);
                    apply_batch(&mut batch, k as u32, op);
                }
            }
        }
        batch.tick();
        inst.iter_mut().for_each(SpriteInstance::tick);
    }
    batch.drain_events().for_each(drop);
    batch.advance(n);
    // (tick, instance, event) of every event the ticked copies fire.
    let mut expected: Vec<(u32, u32, u32)> = Vec::new();
    let mut advanced = Vec::new();
    let mut ticked = Vec::new();
    for (k, i) in inst.iter_mut().enumerate() {
        i.drain_events().for_each(drop);
        let (mut a, mut b) = (i.clone(), i.clone());
        a.advance(n);
        for t in 0..n {
            b.tick();
            expected.extend(b.drain_events().map(|e| (t, k as u32, e)));
        }
        let ea: Vec<u32> = a.drain_events().collect();
        let mut eb: Vec<u32> = expected.iter().filter(|x| x.1 == k as u32).map(|x| x.2).collect();
        let dropped = eb.len().saturating_sub(MAX_PENDING_EVENTS) as u64;
        eb.truncate(MAX_PENDING_EVENTS);
        prop_assert!(ea == eb, "instance {k}: {} events after advance({n}), {} after ticks\n{src}", ea.len(), eb.len());
        prop_assert_eq!(a.dropped_events(), dropped, "instance {} events dropped after advance({})", k, n);
        prop_assert_eq!(b.dropped_events(), 0);
        prop_assert_eq!((a.state(), a.frame(), a.is_waiting()), (b.state(), b.frame(), b.is_waiting()));
        prop_assert_eq!(
            (batch.state(k as u32), batch.frame(k as u32)),
            (a.state(), a.frame()),
            "batch and instance after advance"
        );
        advanced.push(a);
        ticked.push(b);
    }
    expected.sort_by_key(|x| x.0);
    let got: Vec<(u32, u32)> = batch.drain_events().map(|e| (e.instance, e.event)).collect();
    let mut want: Vec<(u32, u32)> = expected.iter().map(|x| (x.1, x.2)).collect();
    let dropped = want.len().saturating_sub(MAX_PENDING_EVENTS) as u64;
    want.truncate(MAX_PENDING_EVENTS);
    prop_assert_eq!(batch.dropped_events(), dropped, "batch events dropped after advance({})\n{}", n, src);
    prop_assert_eq!(got.len(), want.len(), "batch events after advance({})\n{}", n, src);
    prop_assert!(got == want, "batch events in another order\n{src}");
    for t in 0..40 {
        let want: Vec<Seen> = ticked.iter_mut().map(tick_seen).collect();
        let got: Vec<Seen> = advanced.iter_mut().map(tick_seen).collect();
        prop_assert_eq!(&got, &want, "instances, tick {} after the catch-up\n{}", t, src);
        prop_assert_eq!(&tick_batch_seen(&mut batch), &want, "batch, tick {} after the catch-up\n{}", t, src);
    }
    Ok(())
}

fn frames_of(i: &mut SpriteInstance, n: usize) -> Vec<u32> {
    (0..n).map(|_| tick_seen(i).1).collect()
}

fn names(s: &Sprites, i: &mut SpriteInstance) -> Vec<String> {
    i.drain_events().map(|e| s.event_name(e).to_string()).collect()
}

/// State name, frame and drained event names.
fn look(s: &Sprites, i: &mut SpriteInstance) -> (String, u32, Vec<String>) {
    let e = names(s, i);
    (i.state_name().to_string(), i.frame(), e)
}

#[test]
fn half_speed_shows_each_frame_twice_as_long() {
    let s = sprites("Walk: 2|step, 3, _loop\n");
    let mut i = s.instance("Walk").unwrap();
    i.set_speed(Speed::ratio(1, 2).unwrap());
    let seen: Vec<Seen> = (0..20).map(|_| tick_seen(&mut i)).collect();
    assert_eq!(seen.iter().map(|t| t.1).collect::<Vec<_>>(), frames("0x4 1x6 0x4 1x6"));
    let step = s.event_id("step").unwrap();
    let fired: Vec<usize> = seen.iter().enumerate().filter(|(_, t)| t.2 == [step]).map(|(k, _)| k).collect();
    assert_eq!(fired, [0, 10]);
}

#[test]
fn double_speed_fires_every_event_it_crosses() {
    // Frame 1 is one tick long: at speed 2 it is never on screen after a
    // tick, but its event fires, in order, in the tick that crosses it.
    let s = sprites("A: 1|a, 1|b, 1|c, 1|d, _loop|end\n");
    let mut i = s.instance("A").unwrap();
    i.set_speed(Speed::ratio(2, 1).unwrap());
    let ticks: Vec<(u32, Vec<String>)> = (0..4)
        .map(|_| {
            i.tick();
            (i.frame(), names(&s, &mut i))
        })
        .collect();
    let ev = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(ticks, [(1, ev(&["a", "b"])), (3, ev(&["c", "d"])), (1, ev(&["end", "a", "b"])), (3, ev(&["c", "d"]))]);
}

#[test]
fn paused_instances_keep_time_and_resume_where_they_were() {
    let s = sprites("W: 3, 3, 3, _loop\n");
    let mut i = s.instance("W").unwrap();
    assert_eq!(frames_of(&mut i, 4), [0, 0, 0, 1]);
    i.set_speed(Speed::PAUSED);
    assert_eq!(frames_of(&mut i, 50), [1; 50]);
    i.set_speed(Speed::ONE);
    assert_eq!(frames_of(&mut i, 6), [1, 1, 2, 2, 2, 0]);
    // Paused before it ever ticked: it never enters.
    let mut j = s.instance("W").unwrap();
    j.set_speed(Speed::PAUSED);
    j.advance(1000);
    assert_eq!((j.frame(), j.drain_events().count()), (0, 0));
}

#[test]
fn a_speed_change_keeps_the_fraction_carried() {
    // 1/4 speed: the credit starts at 65535 (in 1/65536ths) and the first
    // tick runs one animation tick (81919), leaving 16383; the second runs
    // none (32767). Switching to 3/4 keeps those 32767: the next ticks reach
    // 81919 (1), 65535 (0), 114687 (1), 98303 (1), 81919 (1), 65535 (0).
    // (Starting over from 65535 would run 1, 1, 1, 0, 1, 1.)
    let s = sprites("C: 1, 1, 1, 1, 1, 1, 1, 1, _loop\n");
    let mut i = s.instance("C").unwrap();
    i.set_speed(Speed::ratio(1, 4).unwrap());
    assert_eq!(frames_of(&mut i, 2), [0, 0]);
    i.set_speed(Speed::ratio(3, 4).unwrap());
    assert_eq!(frames_of(&mut i, 6), [1, 1, 2, 3, 4, 4]);
    // Entering a state starts the credit over: the next tick enters.
    i.restart_state("C").unwrap();
    assert_eq!(frames_of(&mut i, 2), [0, 1]);
}

#[test]
fn a_phase_skips_frames_without_their_events() {
    let s = sprites("A: 2|a, 2|b, B|t\nB: 3|0|c, _wait|w\n");
    // Phase 3: ticks 0-2 (a, b) are skipped; tick 3 shows frame 1 still.
    let mut i = s.instance_at("A", 3).unwrap();
    i.tick();
    assert_eq!(look(&s, &mut i), ("A".to_string(), 1, vec![]));
    i.tick();
    let ev = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(look(&s, &mut i), ("B".to_string(), 0, ev(&["t", "c"])));
    // A phase past a transition lands in the target; past `_wait`, waits.
    let mut j = s.instance_at("A", 5).unwrap();
    j.tick();
    assert_eq!(look(&s, &mut j), ("B".to_string(), 0, vec![]));
    let mut k = s.instance_at("A", 100).unwrap();
    k.tick();
    assert!(k.is_waiting());
    let (state, _, events) = look(&s, &mut k);
    assert_eq!((state.as_str(), events), ("B", vec![]));
    // Between the call and the next tick the state is the new one and the
    // sprite on screen the old one, as for `set_state`.
    let mut m = s.instance("B").unwrap();
    m.tick();
    m.restart_state_at("A", 3).unwrap();
    assert_eq!((m.state_name(), m.frame()), ("A", 0));
}

#[test]
fn advance_on_a_looping_walk_skips_whole_cycles() {
    let s = sprites("Walk: 5, 5, 5, 5, _loop\nStep: 5|l, 5, 5|r, 5, _loop\n");
    let mut b = s.batch();
    b.spawn("Walk").unwrap();
    b.advance(1_000_000);
    let st = b.stats();
    // One frame change every 5 ticks; all but at most two trips round the
    // 4-frame cycle taken arithmetically.
    assert_eq!(st.frame_changes, 200_000);
    assert!(st.trips_skipped >= 50_000 - 2, "{st:?}");
    assert_eq!(b.frame(0), 3);
    // With events, every one of them is fired, in order (60 000: under
    // the pending-event cap).
    let mut c = s.batch();
    c.spawn("Step").unwrap();
    c.advance(600_000);
    let ev: Vec<u32> = c.drain_events().map(|e| e.event).collect();
    assert_eq!(ev.len(), 60_000);
    let (l, r) = (s.event_id("l").unwrap(), s.event_id("r").unwrap());
    assert!(ev.chunks(2).all(|p| p == [l, r]));
    // Past the cap: the first MAX_PENDING_EVENTS are kept, in order, and
    // the rest counted (100 000 fired in 1 000 000 ticks).
    let mut d = s.batch();
    d.spawn("Step").unwrap();
    d.advance(1_000_000);
    let ev: Vec<u32> = d.drain_events().map(|e| e.event).collect();
    assert_eq!((ev.len(), d.dropped_events()), (MAX_PENDING_EVENTS, 100_000 - MAX_PENDING_EVENTS as u64));
    assert!(ev.chunks(2).all(|p| p == [l, r]));
}

#[test]
fn batch_slow_path_columns_only_when_used() {
    let s = sprites("Walk: 5, 5, 5, 5, _loop\n");
    let mut b = s.batch();
    for _ in 0..100 {
        b.spawn("Walk").unwrap();
    }
    b.advance(17);
    b.restart_state(3, "Walk").unwrap();
    assert_eq!(b.slow_bytes(), 0, "speed 1 and no phase: the plain path only");
    b.set_speed(5, Speed::ratio(1, 2).unwrap());
    assert_eq!(b.slow_bytes(), 100 * animkit_vm::engine::sprite::BATCH_SLOW_BYTES_PER_INSTANCE);
}

#[test]
fn slow_instances_mid_countdown_are_not_scanned() {
    // A batch of walkers at 1/8 speed: a frame of 5 ticks lasts 40 ticks,
    // and the ticks in between do not even scan the batch.
    let s = sprites("Walk: 5, 5, 5, 5, _loop\n");
    let mut b = s.batch();
    for k in 0..1000 {
        b.spawn("Walk").unwrap();
        b.set_speed(k, Speed::ratio(1, 8).unwrap());
    }
    b.tick();
    let first = b.stats();
    for _ in 0..39 {
        b.tick();
    }
    assert_eq!(b.stats().scans, first.scans, "ticks 1-39 are countdown: no scan");
    assert!(b.frames().iter().all(|&f| f == 0));
    b.tick();
    assert_eq!(b.stats().scans, first.scans + 1, "tick 40 shows frame 1");
    assert_eq!(b.stats().frame_changes, first.frame_changes + 1000);
    assert!(b.frames().iter().all(|&f| f == 1));
}
