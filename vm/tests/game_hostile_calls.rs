//! Hostile calls of the game API (issue 42 §3): `advance(u32::MAX)` on a
//! looping state, spawns at a phase near `u32::MAX`, and a 16 MiB state
//! name end promptly with bounded memory (checked under a 256 MiB
//! `RLIMIT_AS` in a child process, `hostile_calls_in_a_child`), and the
//! pending-event cap ([`MAX_PENDING_EVENTS`]) keeps the same events and
//! counts the same drops whether the ticks run one by one or in one
//! `advance`.
//!
//! The doc bundle's `hero` has one state, `Walk: 2|step, 2, _loop`: frames
//! 0 0 1 1 0 0 ..., a `step` on every 4th tick from the first.

use animkit_test_support::limited::run_test_limited;
use animkit_vm::game::{Animation, Bundle, Event, InstanceEvent, MAX_PENDING_EVENTS, SpriteModule};
use std::time::Duration;

fn hero() -> SpriteModule {
    Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap()
}

/// Frame shown during the 0-based tick `t` of a plain walk.
fn walk_frame(t: u64) -> u32 {
    ((t / 2) % 2) as u32
}

/// `step`s fired by a walk entered `phase` ticks in over `n` ticks: the
/// multiples of 4 in `[phase, phase + n)`.
fn steps_in(phase: u64, n: u64) -> u64 {
    let q = phase % 4;
    (q + n).div_ceil(4) - q.div_ceil(4)
}

fn drain_all(a: &mut Animation) -> Vec<Event> {
    let mut buf = vec![Event::default(); 4096];
    let mut all = Vec::new();
    loop {
        let n = a.drain_events(&mut buf);
        if n == 0 {
            return all;
        }
        all.extend_from_slice(&buf[..n]);
    }
}

fn drain_batch(b: &mut animkit_vm::game::AnimationBatch) -> Vec<InstanceEvent> {
    let mut buf = vec![InstanceEvent::default(); 4096];
    let mut all = Vec::new();
    loop {
        let n = b.drain_events(&mut buf);
        if n == 0 {
            return all;
        }
        all.extend_from_slice(&buf[..n]);
    }
}

/// Before: `advance(4294967295)` kept 2^30 events (4 GiB for an
/// animation, 16 GiB for a batch) and aborted. Now the first 65 536 are
/// kept, the rest counted, and it returns at once.
#[test]
fn advance_u32_max_keeps_the_cap_and_counts_the_rest() {
    let hero = hero();
    let walk = hero.state("Walk").unwrap();
    let step = hero.event("step").unwrap();
    let fired = steps_in(0, u32::MAX as u64);
    let start = animkit_test_support::cpu::ThreadTimer::start();
    let mut a = hero.spawn(walk);
    a.advance(u32::MAX);
    assert_eq!((a.frame(), a.time_in_state()), (walk_frame(u32::MAX as u64 - 1), u32::MAX as u64));
    assert_eq!(a.pending_events(), MAX_PENDING_EVENTS);
    assert_eq!(a.dropped_events(), fired - MAX_PENDING_EVENTS as u64);
    assert!(drain_all(&mut a).iter().all(|&e| e == step));
    // Drained, it keeps counting from the next events on.
    a.advance(8);
    assert_eq!((a.pending_events(), a.dropped_events()), (2, fired - MAX_PENDING_EVENTS as u64));

    let mut b = hero.batch();
    for i in 0..1000 {
        b.spawn_at(walk, i);
    }
    b.advance(u32::MAX);
    assert_eq!(b.pending_events(), MAX_PENDING_EVENTS);
    let kept = drain_batch(&mut b);
    // The earliest by tick, then by instance: instances 0, 4, 8, ... fire
    // on the first tick (a phase of 4k is a whole trip in).
    let first: Vec<u32> = kept.iter().take(3).map(|e| e.instance).collect();
    assert_eq!(first, [0, 4, 8]);
    let total: u64 = (0..1000u64).map(|i| steps_in(i, u32::MAX as u64)).sum();
    assert_eq!(b.dropped_events(), total - MAX_PENDING_EVENTS as u64);
    for i in 0..1000u32 {
        assert_eq!(b.frame(i), Some(walk_frame(u32::MAX as u64 - 1 + i as u64)), "instance {i}");
    }
    assert!(start.elapsed() < Duration::from_secs(10), "took {:?}", start.elapsed());
}

/// Before: 1 000 spawns of `Walk` at a phase near `u32::MAX`, then one
/// tick, did not return within 60 s (the phase was walked trip by trip).
#[test]
fn spawns_at_a_phase_near_u32_max_cost_no_more_than_at_phase_0() {
    let hero = hero();
    let walk = hero.state("Walk").unwrap();
    let start = animkit_test_support::cpu::ThreadTimer::start();
    let mut b = hero.batch();
    for i in 0..1000 {
        b.spawn_at(walk, u32::MAX - i);
    }
    b.tick();
    for i in 0..1000u32 {
        assert_eq!(b.frame(i), Some(walk_frame((u32::MAX - i) as u64)), "instance {i}");
    }
    let mut a = hero.spawn_at(walk, u32::MAX);
    a.tick();
    assert_eq!(a.frame(), walk_frame(u32::MAX as u64));
    a.restart_at(walk, u32::MAX - 2);
    a.tick();
    assert_eq!(a.frame(), walk_frame(u32::MAX as u64 - 2));
    assert!(start.elapsed() < Duration::from_secs(10), "took {:?}", start.elapsed());
}

/// The cap is the same whether the ticks run one by one or at once: the
/// same events kept in the same order, the same counted as dropped, the
/// same frames after (300 000 ticks of one walk fire 75 000 `step`s).
#[test]
fn the_cap_keeps_the_same_events_ticked_or_advanced() {
    let hero = hero();
    let walk = hero.state("Walk").unwrap();
    let (mut ticked, mut advanced, mut chunks) = (hero.spawn(walk), hero.spawn(walk), hero.spawn(walk));
    for _ in 0..300_000 {
        ticked.tick();
    }
    advanced.advance(300_000);
    for _ in 0..3 {
        chunks.advance(99_999);
    }
    chunks.advance(3);
    for a in [&ticked, &advanced, &chunks] {
        assert_eq!((a.frame(), a.time_in_state()), (walk_frame(299_999), 300_000));
        assert_eq!(a.dropped_events(), 75_000 - MAX_PENDING_EVENTS as u64);
    }
    let t = drain_all(&mut ticked);
    assert_eq!(t.len(), MAX_PENDING_EVENTS);
    assert_eq!(drain_all(&mut advanced), t);
    assert_eq!(drain_all(&mut chunks), t);

    // A batch of three walks out of step: 100 000 ticks fire 75 000.
    let mut tb = hero.batch();
    for p in 0..3 {
        tb.spawn_at(walk, p);
    }
    let mut ab = tb.clone();
    for _ in 0..100_000 {
        tb.tick();
    }
    ab.advance(100_000);
    assert_eq!(tb.frames(), ab.frames());
    let fired: u64 = (0..3u64).map(|p| steps_in(p, 100_000)).sum();
    assert_eq!(fired, 75_000);
    let dropped = fired - MAX_PENDING_EVENTS as u64;
    assert_eq!((tb.dropped_events(), ab.dropped_events()), (dropped, dropped));
    let te = drain_batch(&mut tb);
    assert_eq!(te.len(), MAX_PENDING_EVENTS);
    assert_eq!(drain_batch(&mut ab), te);
    // Drained, they fill up and drop the same way again (the other way
    // round this time).
    tb.advance(100_000);
    for _ in 0..100_000 {
        ab.tick();
    }
    assert_eq!(tb.frames(), ab.frames());
    assert_eq!((tb.dropped_events(), ab.dropped_events()), (2 * dropped, 2 * dropped));
    assert_eq!(drain_batch(&mut ab), drain_batch(&mut tb));
}

/// A 16 MiB state name: before, a (len+1)^2 table (940 MB) for "did you
/// mean" and a 16 MiB message; now no suggestion is searched for a name
/// that long, and the message quotes 32 characters of it.
#[test]
fn a_16_mib_state_name_is_refused_with_a_short_message() {
    let hero = hero();
    let name = "W".repeat(16 << 20);
    let start = animkit_test_support::cpu::ThreadTimer::start();
    let e = hero.state(&name).unwrap_err();
    assert_eq!(e.to_string(), format!("no state named `{}…` (16777216 bytes) in sprite module `hero`", "W".repeat(32)));
    assert!(e.nearest.is_empty());
    assert!(start.elapsed() < Duration::from_secs(5), "took {:?}", start.elapsed());
}

/// The calls above under a 256 MiB address-space limit, in a process of
/// their own (this binary again, running only `hostile_calls_in_a_child`).
#[test]
fn hostile_calls_stay_under_256_mib() {
    let run = run_test_limited("game_hostile_calls::hostile_calls_in_a_child", 256 << 20);
    assert_eq!((run.code, run.signal), (Some(0), 0), "{}", run.stderr);
    assert!(run.cpu < Duration::from_secs(60), "took {:?} of CPU", run.cpu);
}

#[test]
#[ignore = "run by hostile_calls_stay_under_256_mib under a memory limit"]
fn hostile_calls_in_a_child() {
    advance_u32_max_keeps_the_cap_and_counts_the_rest();
    spawns_at_a_phase_near_u32_max_cost_no_more_than_at_phase_0();
    a_16_mib_state_name_is_refused_with_a_short_message();
}
