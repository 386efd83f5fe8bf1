//! Steps pre-run per speed (issue 26 §5, `vm/src/sprite/tables.rs`): a
//! batch whose members play at speeds that have a table (multiples of
//! 1/65536 with few cases: 1/2, 3/4, 5/4, 7/4096 ...) shows and fires
//! exactly what one `SpriteInstance` per member does, through speed
//! changes, phases, `advance(n)` and snapshots taken mid-table; and the
//! counting guard rail that a wake-up at a tabled speed is a table step,
//! not the slow path's general catch-up (`BatchStats::slow_wakes`).
//!
//! Cases: `PROPTEST_CASES` (default 256).

use crate::common;

use animkit_vm::engine::sprite::{Speed, SpriteBatch, SpriteInstance};
use common::sprite_programs::{GameOp, Seen, apply, apply_batch, arb_source, compiles, tick_batch_seen, tick_seen};
use common::sprites;
use proptest::prelude::*;

/// A tabled speed: `sigma` cases times `2^e` (24 speeds, fewer than a
/// batch tries to table, so none is refused), or 0 (paused).
fn arb_tabled() -> impl Strategy<Value = u32> {
    prop_oneof![
        8 => (prop::sample::select(vec![1u32, 2, 3, 5, 7, 64]), prop::sample::select(vec![12u32, 14, 15, 16]))
            .prop_map(|(sigma, e)| sigma << e),
        1 => Just(0u32),
    ]
}

/// Ops at tabled speeds: state changes with phases, speed changes.
fn arb_tabled_ops(ticks: usize) -> impl Strategy<Value = Vec<(usize, GameOp)>> {
    let op = prop_oneof![
        2 => (0u16..4, prop_oneof![2 => Just(0u32), 1 => 0u32..30]).prop_map(|(s, p)| GameOp::Set(s, p)),
        2 => (0u16..4, prop_oneof![2 => Just(0u32), 1 => 0u32..30]).prop_map(|(s, p)| GameOp::Restart(s, p)),
        3 => arb_tabled().prop_map(GameOp::Speed),
    ];
    prop::collection::vec((0..ticks, op), 0..6)
}

type Member = (u16, u32, u32, Vec<(usize, GameOp)>);

fn arb_member() -> impl Strategy<Value = Member> {
    (0u16..4, prop_oneof![2 => Just(0u32), 1 => 0u32..40], arb_tabled(), arb_tabled_ops(80))
}

fn spawn(src: &str, members: &[Member]) -> (SpriteBatch, Vec<SpriteInstance>) {
    let s = sprites(src);
    let mut batch = s.batch();
    let mut inst = Vec::new();
    for (start, phase, speed, _) in members {
        let name = s.state_name(start % s.state_count() as u16).to_string();
        batch.spawn_at(&name, *phase).unwrap();
        batch.set_speed(batch.len() as u32 - 1, Speed::from_raw(*speed));
        let mut i = s.instance_at(&name, *phase).unwrap();
        i.set_speed(Speed::from_raw(*speed));
        inst.push(i);
    }
    (batch, inst)
}

proptest! {
    #![proptest_config(common::equivalence::config())]

    /// Tick by tick against one instance each; then a snapshot restored
    /// into a new batch, an `advance` and plain ticks must all agree
    /// (they load every tabled instance back into a countdown and a credit).
    #[test]
    fn tabled_speeds_match_one_instance_each(src in arb_source(), members in prop::collection::vec(arb_member(), 1..6), n in 0u32..300) {
        prop_assume!(compiles(&src));
        let (mut batch, mut inst) = spawn(&src, &members);
        // Wake-ups through the general catch-up: at most one per phase
        // given (the wake-up that skips it and enters the table).
        let phased = members.iter().filter(|m| m.1 > 0).count()
            + members.iter().flat_map(|m| &m.3).filter(|(_, op)| matches!(op, GameOp::Set(_, p) | GameOp::Restart(_, p) if *p > 0)).count();
        for t in 0..80 {
            for (k, (_, _, _, ops)) in members.iter().enumerate() {
                for &(at, op) in ops {
                    if at == t {
                        apply(&mut inst[k], op);
                        apply_batch(&mut batch, k as u32, op);
                    }
                }
            }
            let want: Vec<Seen> = inst.iter_mut().map(tick_seen).collect();
            prop_assert_eq!(&tick_batch_seen(&mut batch), &want, "tick {}\n{}members {:?}", t, src, members);
            for (k, i) in inst.iter().enumerate() {
                prop_assert_eq!(batch.speed(k as u32), i.speed());
            }
        }
        // Holds for every generated case because every speed drawn gets a
        // table within `vm/src/sprite/tables.rs`'s limits (at most 64 cases
        // against `MAX_SIGMA` 64, 24 speeds against `MAX_TRIES` 32, and
        // events well under `MAX_EVENTS`, the thinnest margin). A speed
        // refused a table takes general wake-ups: if those limits shrink or
        // the generator grows, count its wake-ups here too.
        let slow = batch.stats().slow_wakes;
        prop_assert!(slow <= phased as u64, "{} general wake-ups for {} phases\n{}members {:?}", slow, phased, src, members);
        let mut restored = batch.sprites().batch();
        restored.restore(&batch.snapshot()).unwrap();
        let mut advanced = batch.clone();
        advanced.advance(n);
        let mut fired: Vec<(u32, u32)> = Vec::new();
        for _ in 0..n {
            let want: Vec<Seen> = inst.iter_mut().map(tick_seen).collect();
            prop_assert_eq!(&tick_batch_seen(&mut restored), &want, "restored\n{}members {:?}", src, members);
            batch.tick();
            fired.extend(batch.drain_events().map(|e| (e.instance, e.event)));
        }
        let got: Vec<(u32, u32)> = advanced.drain_events().map(|e| (e.instance, e.event)).collect();
        prop_assert_eq!(got, fired, "advance({}) against ticks\n{}", n, src);
        for t in 0..40 {
            let want: Vec<Seen> = inst.iter_mut().map(tick_seen).collect();
            prop_assert_eq!(&tick_batch_seen(&mut advanced), &want, "advanced, tick {}\n{}", t, src);
            prop_assert_eq!(&tick_batch_seen(&mut batch), &want, "ticked, tick {}\n{}", t, src);
        }
    }
}

#[test]
fn wake_ups_at_a_tabled_speed_are_table_steps() {
    let s = sprites("Walk: 5|step, 5, 5, 5, _loop\n");
    let mut b = s.batch();
    let mut one = s.instance("Walk").unwrap();
    let three_quarters = Speed::ratio(3, 4).unwrap();
    one.set_speed(three_quarters);
    for k in 0..1000 {
        b.spawn("Walk").unwrap();
        b.set_speed(k, three_quarters);
    }
    let mut steps = 0;
    for _ in 0..400 {
        b.tick();
        one.tick();
        steps += one.drain_events().count();
        assert!(b.frames().iter().all(|&f| f == one.frame()));
    }
    // 400 ticks at 3/4: 300 animation ticks, 60 frames, 15 `step`s each.
    assert_eq!(steps, 15);
    assert_eq!(b.drain_events().count(), 15 * 1000);
    assert_eq!(b.stats().frame_changes, 60 * 1000);
    assert_eq!(b.stats().slow_wakes, 0, "every wake-up a table step");
    // The same frames at speed 1 (300 ticks) stand for as many instructions.
    let mut plain = s.batch();
    for _ in 0..1000 {
        plain.spawn("Walk").unwrap();
    }
    (0..300).for_each(|_| plain.tick());
    assert_eq!(plain.stats().frame_changes, b.stats().frame_changes);
    assert_eq!(b.stats().instructions, plain.stats().instructions);

    // A phase: one general wake-up each (skip it, enter the table), then
    // table steps again.
    for k in 0..1000 {
        b.restart_state_at(k, "Walk", 3).unwrap();
    }
    for _ in 0..100 {
        b.tick();
    }
    assert_eq!(b.stats().slow_wakes, 1000);

    // 1/3 is 21845/65536: 21845 cases, no table; every wake-up is general.
    let mut c = s.batch();
    for k in 0..100 {
        c.spawn("Walk").unwrap();
        c.set_speed(k, Speed::ratio(1, 3).unwrap());
    }
    for _ in 0..300 {
        c.tick();
    }
    assert!(c.stats().frame_changes >= 100 * 19);
    assert_eq!(c.stats().slow_wakes, c.stats().frame_changes);
}
