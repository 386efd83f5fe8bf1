//! Snapshots (issue 16 §1): for random programs driven by random
//! `set_state` / `restart_state` / phases / speeds, a snapshot taken at a
//! random tick and restored into a fresh instance or batch (directly, and
//! after a trip through JSON) gives exactly the ticks, frames and events
//! the original gives from that point; pending events are in it, drained
//! ones are not; a snapshot restores only into its own module (by hash),
//! and a damaged one is an error that leaves the target unchanged.
//!
//! Cases per property: `PROPTEST_CASES` (default 256).

use crate::common;

use animkit_compiler::{Options, Source, compile};
use animkit_vm::engine::sprite::{BatchSnapshot, InstanceSnapshot, Speed, SpriteError, Sprites};
use common::sprite_programs::{
    GameOp, Seen, apply, apply_batch, arb_ops, arb_source, arb_speed, batch_seen, compiles, tick_batch_seen, tick_seen,
};
use common::sprites;
use proptest::prelude::*;
use std::sync::Arc;

fn json<T: serde::Serialize + serde::de::DeserializeOwned>(v: &T) -> T {
    serde_json::from_str(&serde_json::to_string(v).unwrap()).unwrap()
}

type Member = (u16, u32, u32, Vec<(usize, GameOp)>);

fn arb_member() -> impl Strategy<Value = Member> {
    (0u16..4, prop_oneof![2 => Just(0u32), 1 => 0u32..40], arb_speed(), arb_ops(80))
}

fn start_name(s: &Sprites, start: u16) -> String {
    s.state_name(start % s.state_count() as u16).to_string()
}

/// Ops of each member at tick `t`, applied to instances and a batch.
fn apply_at(members: &[Member], t: usize, mut each: impl FnMut(usize, GameOp)) {
    for (k, m) in members.iter().enumerate() {
        for &(at, op) in &m.3 {
            if at == t {
                each(k, op);
            }
        }
    }
}

proptest! {
    #![proptest_config(common::equivalence::config())]

    #[test]
    fn restored_instances_and_batches_replay_exactly(
        src in arb_source(),
        members in prop::collection::vec(arb_member(), 1..5),
        at in 0usize..60,
        drain in any::<bool>(),
    ) {
        prop_assume!(compiles(&src));
        let s = sprites(&src);
        let mut batch = s.batch();
        let mut inst = Vec::new();
        for (start, phase, speed, _) in &members {
            let name = start_name(&s, *start);
            batch.spawn_at(&name, *phase).unwrap();
            batch.set_speed(batch.len() as u32 - 1, Speed::from_raw(*speed));
            let mut i = s.instance_at(&name, *phase).unwrap();
            i.set_speed(Speed::from_raw(*speed));
            inst.push(i);
        }
        for t in 0..at {
            apply_at(&members, t, |k, op| {
                apply(&mut inst[k], op);
                apply_batch(&mut batch, k as u32, op);
            });
            batch.tick();
            inst.iter_mut().for_each(|i| i.tick());
            if drain {
                batch.drain_events().for_each(drop);
                inst.iter_mut().for_each(|i| i.drain_events().for_each(drop));
            }
        }
        // Some ops land on the snapshot tick itself, before the snapshot:
        // the pending phase and the fresh credit must be in it.
        apply_at(&members, at, |k, op| {
            apply(&mut inst[k], op);
            apply_batch(&mut batch, k as u32, op);
        });
        let snaps: Vec<InstanceSnapshot> = inst.iter().map(|i| i.snapshot()).collect();
        let bsnap = batch.snapshot();
        let mut copies: Vec<_> = snaps
            .iter()
            .enumerate()
            .map(|(k, snap)| {
                // Restored into instances that are elsewhere: all of it is replaced.
                let mut i = s.instance(&start_name(&s, k as u16 + 1)).unwrap();
                i.set_speed(Speed::ratio(3, 1).unwrap());
                i.tick();
                i.restore(&json(snap)).unwrap();
                i
            })
            .collect();
        let mut fresh = s.batch();
        fresh.spawn(&start_name(&s, 0)).unwrap();
        fresh.restore(&bsnap).unwrap();
        let mut from_json = s.batch();
        from_json.restore(&json(&bsnap)).unwrap();
        prop_assert_eq!(from_json.snapshot(), bsnap.clone());
        // Pending events come back with the snapshot.
        prop_assert_eq!(batch_seen(&mut fresh), batch_seen(&mut batch.clone()));
        batch_seen(&mut from_json);
        batch_seen(&mut batch);
        for t in at..at + 80 {
            if t > at {
                apply_at(&members, t, |k, op| {
                    apply(&mut inst[k], op);
                    apply(&mut copies[k], op);
                    apply_batch(&mut batch, k as u32, op);
                    apply_batch(&mut fresh, k as u32, op);
                    apply_batch(&mut from_json, k as u32, op);
                });
            }
            let want: Vec<Seen> = inst.iter_mut().map(tick_seen).collect();
            let got: Vec<Seen> = copies.iter_mut().map(tick_seen).collect();
            prop_assert_eq!(&got, &want, "restored instances, tick {}\n{}", t, src);
            let want = tick_batch_seen(&mut batch);
            prop_assert_eq!(&tick_batch_seen(&mut fresh), &want, "restored batch, tick {}\n{}", t, src);
            prop_assert_eq!(&tick_batch_seen(&mut from_json), &want, "batch restored from JSON, tick {}", t);
        }
    }
}

#[allow(clippy::needless_update)] // `Options` grows with the front ends
fn compiled(src: &str, strip: bool) -> Sprites {
    let options = Options { strip, ..Options::default() };
    let program = compile(&[Source::new("hero.anim", src)], &options).unwrap();
    Sprites::new(Arc::new(animkit_vm::engine::verify::verify(program).unwrap()), "hero").unwrap()
}

const HERO: &str = "Idle: 4, 4, _pingpong\nWalk: 3|step, 3, _loop\n";

#[test]
fn the_same_source_compiled_again_restores_and_an_edit_does_not() {
    let a = compiled(HERO, false);
    let mut i = a.instance("Walk").unwrap();
    i.tick();
    let snap = i.snapshot();
    // Compiled again, and stripped of debug positions: the same module.
    for b in [compiled(HERO, false), compiled(&format!("# a comment\n{HERO}"), true)] {
        assert_eq!(b.module_hash(), a.module_hash());
        b.instance("Idle").unwrap().restore(&snap).unwrap();
    }
    // Any change to a frame, an event or a state is another module.
    for edited in [
        "Idle: 4, 4, _pingpong\nWalk: 3|step, 4, _loop\n",
        "Idle: 4, 4, _pingpong\nWalk: 3|stomp, 3, _loop\n",
        "Idle: 4, 4, _pingpong\nWalking: 3|step, 3, _loop\n",
        "Idle[Stand]: 4, 4, _pingpong\nWalk: 3|step, 3, _loop\n",
    ] {
        let b = compiled(edited, false);
        assert_ne!(b.module_hash(), a.module_hash(), "{edited}");
        let mut j = b.instance("Idle").unwrap();
        j.tick();
        let before = j.snapshot();
        let err = j.restore(&snap).unwrap_err();
        assert_eq!(err, SpriteError::WrongModule { expected: b.module_hash(), found: a.module_hash() });
        assert!(err.to_string().starts_with("the snapshot belongs to another program (module hash "), "{err}");
        assert_eq!(j.snapshot(), before, "a refused restore changes nothing");
        assert!(matches!(b.batch().restore(&a.batch().snapshot()), Err(SpriteError::WrongModule { .. })));
    }
}

#[test]
fn pending_events_are_in_the_snapshot_and_drained_ones_are_not() {
    let s = compiled(HERO, false);
    let step = s.event_id("step").unwrap();
    let mut i = s.instance("Walk").unwrap();
    i.tick();
    let pending = i.snapshot();
    assert_eq!(pending.pending_events(), [step]);
    i.drain_events().for_each(drop);
    let drained = i.snapshot();
    assert!(drained.pending_events().is_empty());
    let mut j = s.instance("Walk").unwrap();
    j.restore(&pending).unwrap();
    assert_eq!(j.drain_events().collect::<Vec<_>>(), [step]);
    j.restore(&drained).unwrap();
    assert_eq!(j.drain_events().count(), 0);
    // Ticks after the restore fire what the original fires.
    for _ in 0..6 {
        i.tick();
        j.tick();
    }
    assert_eq!(i.drain_events().collect::<Vec<_>>(), j.drain_events().collect::<Vec<_>>());
}

/// Edits one field of a snapshot's JSON form.
fn edit(v: &impl serde::Serialize, f: impl FnOnce(&mut serde_json::Value)) -> serde_json::Value {
    let mut j = serde_json::to_value(v).unwrap();
    f(&mut j);
    j
}

#[test]
fn damaged_snapshots_are_errors_that_change_nothing() {
    let s = compiled(HERO, false);
    let mut i = s.instance("Walk").unwrap();
    i.set_speed(Speed::ratio(1, 2).unwrap());
    i.tick();
    let snap = i.snapshot();
    let bad_instance = [
        (edit(&snap, |j| j["position"]["state"] = 9.into()), "invalid snapshot: state 9 of a module with 2 states"),
        (edit(&snap, |j| j["position"]["resume"] = 3.into()), "invalid snapshot: no resume point at pc 3"),
        (
            edit(&snap, |j| j["position"]["resume"] = u32::MAX.into()),
            "invalid snapshot: a stopped instance with a resume point or a countdown",
        ),
        (
            edit(&snap, |j| j["clock"]["credit"] = 65536.into()),
            "invalid snapshot: speed 32768 or credit 65536 out of range",
        ),
        (
            edit(&snap, |j| j["clock"]["speed"] = (257u32 << 16).into()),
            "invalid snapshot: speed 16842752 or credit 32767 out of range",
        ),
        (
            edit(&snap, |j| j["events"] = serde_json::json!([1000])),
            "invalid snapshot: event 1000 is not a string of the program",
        ),
    ];
    for (j, message) in bad_instance {
        let bad: InstanceSnapshot = serde_json::from_value(j).unwrap();
        let mut k = s.instance("Idle").unwrap();
        k.tick();
        let before = k.snapshot();
        assert_eq!(k.restore(&bad).unwrap_err().to_string(), message);
        assert_eq!(k.snapshot(), before);
    }
    let mut b = s.batch();
    for _ in 0..3 {
        b.spawn("Walk").unwrap();
    }
    b.set_speed(1, Speed::ratio(1, 3).unwrap());
    b.tick();
    let snap = b.snapshot();
    let bad_batch = [
        (edit(&snap, |j| j["state"] = serde_json::json!([0, 1])), "invalid snapshot: columns of different lengths"),
        (edit(&snap, |j| j["clocks"][0][0] = 7.into()), "invalid snapshot: clocks out of order or of no instance"),
        (edit(&snap, |j| j["events"][0]["instance"] = 3.into()), "invalid snapshot: an event of instance 3 of 3"),
        (edit(&snap, |j| j["resume"][2] = 1.into()), "invalid snapshot: no resume point at pc 1"),
    ];
    for (j, message) in bad_batch {
        let bad: BatchSnapshot = serde_json::from_value(j).unwrap();
        let mut c = s.batch();
        c.spawn("Idle").unwrap();
        let before = c.snapshot();
        assert_eq!(c.restore(&bad).unwrap_err().to_string(), message);
        assert_eq!(c.snapshot(), before);
    }
}

#[test]
fn batch_snapshots_take_14_bytes_per_instance_at_speed_1() {
    let s = compiled(HERO, false);
    let mut b = s.batch();
    for _ in 0..1000 {
        b.spawn("Walk").unwrap();
    }
    b.tick();
    b.drain_events().for_each(drop);
    assert_eq!(b.snapshot().bytes(), 14 * 1000);
    // A clock other than the default one adds a sparse entry.
    b.set_speed(10, Speed::ratio(1, 2).unwrap());
    let with_clock = b.snapshot().bytes();
    assert!(with_clock > 14 * 1000 && with_clock <= 14 * 1000 + 32, "{with_clock}");
}
