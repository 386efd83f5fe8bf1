//! Hot reload (issue 16 §3): reloading the same program (compiled again
//! from the same source) at a random tick changes nothing any instance or
//! batch member shows or fires, whatever its speed, phase and state
//! changes; and the mapping rules of `vm/src/sprite/reload.rs` on edited
//! programs, case by case: frames added and removed, durations shortened,
//! sprites changed, states vanished, events renamed, `_wait`, `_pingpong`.
//!
//! Cases per property: `PROPTEST_CASES` (default 256).

use crate::common;

use animkit_vm::engine::sprite::{ReloadReport, Speed, SpriteError, SpriteInstance, Sprites};
use common::sprite_programs::{
    GameOp, Seen, apply, apply_batch, arb_ops, arb_source, arb_speed, compiles, tick_batch_seen, tick_seen,
};
use common::{program, sprites};
use proptest::prelude::*;
use std::sync::Arc;

type Member = (u16, u32, u32, Vec<(usize, GameOp)>);

fn arb_member() -> impl Strategy<Value = Member> {
    (0u16..4, prop_oneof![2 => Just(0u32), 1 => 0u32..40], arb_speed(), arb_ops(80))
}

fn start_name(s: &Sprites, start: u16) -> String {
    s.state_name(start % s.state_count() as u16).to_string()
}

/// `src` compiled again, as the module `s` names.
fn rebuilt(s: &Sprites, src: &str) -> Sprites {
    s.reload(Arc::new(program(src))).unwrap()
}

proptest! {
    #![proptest_config(common::equivalence::config())]

    #[test]
    fn reloading_the_same_program_is_invisible(
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
        let (mut batch2, mut inst2) = (batch.clone(), inst.clone());
        let again = rebuilt(&s, &src);
        for t in 0..at + 80 {
            if t == at {
                if !drain {
                    // An extra tick whose events stay pending across the reload.
                    inst.iter_mut().chain(inst2.iter_mut()).for_each(SpriteInstance::tick);
                    batch.tick();
                    batch2.tick();
                }
                for i in &mut inst2 {
                    let r = i.reload(&again, None).unwrap();
                    prop_assert_eq!(r, ReloadReport { fallback: again.state_name(0).into(), ..ReloadReport::default() });
                }
                let r = batch2.reload(&again, None).unwrap();
                prop_assert_eq!(r.fell_back + r.clamped + r.dropped_events, 0);
            }
            for (k, m) in members.iter().enumerate() {
                for &(a, op) in &m.3 {
                    if a == t {
                        apply(&mut inst[k], op);
                        apply(&mut inst2[k], op);
                        apply_batch(&mut batch, k as u32, op);
                        apply_batch(&mut batch2, k as u32, op);
                    }
                }
            }
            let want: Vec<Seen> = inst.iter_mut().map(tick_seen).collect();
            let got: Vec<Seen> = inst2.iter_mut().map(tick_seen).collect();
            prop_assert_eq!(&got, &want, "instances, tick {} (reloaded at {})\n{}", t, at, src);
            let want = tick_batch_seen(&mut batch);
            prop_assert_eq!(&tick_batch_seen(&mut batch2), &want, "batch, tick {} (reloaded at {})\n{}", t, at, src);
        }
    }
}

/// Ticks `n` times, returning the frames shown.
fn frames(i: &mut SpriteInstance, n: usize) -> Vec<u32> {
    (0..n).map(|_| tick_seen(i).1).collect()
}

/// An edited source, as a new build of `from`'s module.
fn edited(from: &Sprites, src: &str) -> Sprites {
    rebuilt(from, src)
}

#[test]
fn a_frame_added_or_removed_keeps_the_position_or_clamps_it() {
    let s = sprites("Walk: 3, 3, 3, _loop\n");
    let mut i = s.instance("Walk").unwrap();
    assert_eq!(frames(&mut i, 8), [0, 0, 0, 1, 1, 1, 2, 2]);
    // Two ticks into frame 2; a frame added after it.
    let longer = edited(&s, "Walk: 3, 3, 3, 3, _loop\n");
    let r = i.reload(&longer, None).unwrap();
    assert_eq!((r.clamped, r.fell_back), (0, 0));
    assert_eq!(frames(&mut i, 5), [2, 3, 3, 3, 0]);
    // Now in frame 0 (one tick shown); make it frame 3 of 4, then remove
    // two frames: it is clamped to the last one, frame 1.
    assert_eq!(frames(&mut i, 9), [0, 0, 1, 1, 1, 2, 2, 2, 3]);
    let shorter = edited(&longer, "Walk: 3, 3, _loop\n");
    let r = i.reload(&shorter, None).unwrap();
    assert_eq!(r.clamped, 1);
    assert_eq!(frames(&mut i, 4), [1, 1, 0, 0]);
}

#[test]
fn a_shortened_frame_ends_at_the_next_tick_and_a_new_sprite_shows_at_once() {
    let s = sprites("Walk: 6|0, 6|1, _loop\n");
    let mut i = s.instance("Walk").unwrap();
    assert_eq!(frames(&mut i, 4), [0, 0, 0, 0]);
    let r = i.reload(&edited(&s, "Walk: 3|0, 6|1, _loop\n"), None).unwrap();
    assert_eq!(r.clamped, 1, "4 ticks shown of a frame now 3 long");
    assert_eq!(frames(&mut i, 2), [1, 1]);
    let r = i.reload(&edited(&s, "Walk: 3|0, 6|7, _loop\n"), None).unwrap();
    assert_eq!(r.clamped, 0);
    assert_eq!(i.frame(), 7, "the edited frame's sprite, before any tick");
    assert_eq!(frames(&mut i, 5), [7, 7, 7, 7, 0]);
}

#[test]
fn vanished_states_fall_back_and_are_reported() {
    let s = sprites("Idle: 4, _loop\nRun: 2|go, 2, _loop\nJump: 5, _wait\n");
    let mut i = s.instance("Run").unwrap();
    i.tick();
    let new = edited(&s, "Idle: 4, 4, _loop\nJump: 5, _wait\nSwim: 1, _loop\n");
    // A fallback the new module lacks is an error, and nothing changes.
    let before = i.snapshot();
    assert_eq!(i.reload(&new, Some("Fly")).unwrap_err(), SpriteError::NoState("Fly".into()));
    assert_eq!(i.snapshot(), before);
    let r = i.reload(&new, Some("Jump")).unwrap();
    assert_eq!(
        r,
        ReloadReport {
            vanished: vec!["Run".into()],
            fallback: "Jump".into(),
            fell_back: 1,
            clamped: 0,
            dropped_events: 1
        }
    );
    // Between the reload and the next tick: the fallback state, the old sprite.
    assert_eq!((i.state_name(), i.frame()), ("Jump", 0));
    i.tick();
    assert_eq!(i.state_name(), "Jump");
    // Without a fallback: the first state.
    let mut j = s.instance("Run").unwrap();
    j.tick();
    let r = j.reload(&new, None).unwrap();
    assert_eq!((r.fallback.as_str(), r.fell_back), ("Idle", 1));
    j.tick();
    assert_eq!(j.state_name(), "Idle");
}

#[test]
fn pending_events_are_kept_by_name() {
    let s = sprites("A: 2|step|dust, 2, _loop\n");
    let mut i = s.instance("A").unwrap();
    i.tick();
    // The new program interns its strings in another order: `step` keeps
    // its name, not its id; `dust` is gone.
    let new = edited(&s, "A: 2|puff|step, 2, _loop\n");
    let r = i.reload(&new, None).unwrap();
    assert_eq!(r.dropped_events, 1);
    let names: Vec<&str> = i.drain_events().map(|e| new.event_name(e)).collect();
    assert_eq!(names, ["step"]);
}

#[test]
fn waiting_instances_stay_waiting_and_pingpong_positions_count_on() {
    let s = sprites("Dead: 2|0, 2|3, _wait\nBreathe: 2, 2, 2, _pingpong\n");
    let mut i = s.instance("Dead").unwrap();
    frames(&mut i, 10);
    assert!(i.is_waiting());
    i.reload(&edited(&s, "Dead: 2|0, 2|3, 2|4, _wait\nBreathe: 2, 2, 2, _pingpong\n"), None).unwrap();
    assert!(i.is_waiting());
    assert_eq!(frames(&mut i, 3), [3, 3, 3]);
    // Breathe shows 0 1 2 1 0 1 ...: positions 0 1 2 on the way out, 3 4
    // (sprites 1 and 0) on the way back. In position 3, reloaded into a
    // ping-pong of four frames: position 3 is now the way out's last frame.
    let mut b = s.instance("Breathe").unwrap();
    assert_eq!(frames(&mut b, 7), [0, 0, 1, 1, 2, 2, 1]);
    b.reload(&edited(&s, "Dead: 2|0, 2|3, _wait\nBreathe: 2, 2, 2, 2, _pingpong\n"), None).unwrap();
    assert_eq!(frames(&mut b, 5), [3, 2, 2, 1, 1]);
}

#[test]
fn a_batch_reloads_every_member_and_reports_once() {
    let s = sprites("Idle: 4, _loop\nRun: 2|go, 2, _loop\n");
    let mut b = s.batch();
    for k in 0..10 {
        b.spawn(if k % 2 == 0 { "Idle" } else { "Run" }).unwrap();
    }
    b.set_speed(3, Speed::ratio(1, 2).unwrap());
    b.tick();
    let new = edited(&s, "Idle: 4, 4, _loop\nWalk: 3, _loop\n");
    let r = b.reload(&new, Some("Walk")).unwrap();
    assert_eq!((r.vanished, r.fell_back, r.dropped_events), (vec!["Run".to_string()], 5, 5));
    assert_eq!(b.speed(3), Speed::ratio(1, 2).unwrap(), "speeds are kept");
    b.tick();
    let walk = new.state_id("Walk").unwrap();
    assert!((0..10).filter(|k| k % 2 == 1).all(|k| b.state(k) == walk));
    assert_eq!(b.sprites().module_hash(), new.module_hash());
}

/// `src` compiled into a bundle, opened through the game API.
fn game_module(src: &str) -> animkit_vm::game::SpriteModule {
    use animkit_compiler::{Options, Source, compile};
    let program = compile(&[Source::new("hero.anim", src)], &Options::default()).expect("compiles");
    let bundle = animkit_vm::game::Bundle::from_bytes(&animkit_vm::engine::codec::encode(&program)).expect("a bundle");
    bundle.sprite("hero").expect("the module `hero`")
}

/// Issue 42: `Animation::reload` (the game API's single instance) onto a
/// build that lacks its state restarts it in the fallback at the next tick,
/// its time in state starting over, and reports it; onto a build that has
/// the state it keeps position and time.
#[test]
fn a_game_animation_whose_state_is_gone_restarts_in_the_fallback() {
    let old = game_module("Idle: 4, _loop\nRun: 2|0|go, 2|1, 2|2, _loop\n");
    let mut a = old.spawn(old.state("Run").unwrap());
    a.advance(3);
    assert_eq!((a.frame(), a.time_in_state()), (1, 3));
    let new = game_module("Idle: 4|5, _loop\nJump: 3|7, _wait\n");
    let jump = new.state("Jump").unwrap();
    let r = a.reload(&new, jump);
    assert_eq!((r.vanished.clone(), r.fallback.as_str(), r.fell_back), (vec!["Run".to_string()], "Jump", 1));
    assert_eq!(new.state_name(a.state()), "Jump", "the fallback reads at once");
    a.tick();
    assert_eq!((a.frame(), a.time_in_state()), (7, 1), "Jump's first frame; time in state starts over");
    a.advance(5);
    assert!(a.is_waiting());
    // A build that still has `Jump`: the animation keeps its place.
    let again = game_module("Idle: 4|5, _loop\nJump: 3|7, 3|8, _wait\n");
    let r = a.reload(&again, again.state("Idle").unwrap());
    assert_eq!((r.fell_back, r.vanished.len()), (0, 0));
    assert_eq!(again.state_name(a.state()), "Jump");
    assert_eq!(a.time_in_state(), 6);
}
