//! Sprite ticking against benimator 4.1, same workload: N instances of a
//! 4-frame looping walk with 5-tick frames (`Walk: 5, 5, 5, 5, _loop`),
//! ticked with `SpriteBatch::tick` with events drained every tick; for
//! benimator the same four frames at 100 ms each, one `benimator::State`
//! per instance, updated by 20 ms (one 50 Hz fixed update).
//!
//! Two phasings, both measured for both libraries:
//! - *lockstep* (the figures `sprite_ns_per_tick_*`, `benimator_ns_per_tick_*`,
//!   `sprite_vs_benimator_*`): every instance spawned at once, so all of
//!   them change frame on the same tick, as N copies of one animation do;
//! - *staggered* (`*_staggered_*`): instance i is restarted at warm-up tick
//!   `hash(i) % 20`, so every tick a random fifth of the instances changes
//!   frame, as in a game where characters started walking at different
//!   times. This is the harder case for memory traffic.
//!
//! Then the game-side operations of issue 16, which have no peer:
//! snapshot size and restore time of a staggered walk of 10^6 instances
//! (`sprite_snapshot_bytes_per_instance`, `sprite_restore_ms_1e6`) and
//! `SpriteInstance::advance(10^6)` on the walk (`sprite_advance_1e6_ns`).

use super::{Group, pow10_name, sprites_from};
use crate::corpus::Rng;
use crate::timing::{best, best_interleaved, time};
use crate::{Context, Report};
use animkit_vm::engine::sprite::SpriteBatch;
use benimator::{Animation, Frame, State};
use std::hint::black_box;
use std::time::Duration;

/// The walk, in the sprite DSL.
pub const WALK: &str = "Walk: 5, 5, 5, 5, _loop\n";
/// Ticks of one walk cycle.
const CYCLE: usize = 20;

/// The group.
pub struct Sprites;

fn benimator_walk() -> Animation {
    Animation::from_frames((0..4).map(|i| Frame::new(i, Duration::from_millis(100)))).repeat()
}

const DT: Duration = Duration::from_millis(20);

struct Pair {
    ours: SpriteBatch,
    theirs: Vec<State>,
    anim: Animation,
}

impl Pair {
    fn new(n: usize, staggered: bool) -> Pair {
        let sprites = sprites_from(WALK, "walk");
        let mut ours = sprites.batch();
        for _ in 0..n {
            ours.spawn("Walk").expect("state");
        }
        let mut theirs = vec![State::new(); n];
        let anim = benimator_walk();
        let mut phase = Rng::new(n as u64);
        let phases: Vec<u8> =
            (0..n).map(|_| if staggered { (phase.next_u64() % CYCLE as u64) as u8 } else { 0 }).collect();
        // Warm-up: one full cycle (plus the phase restarts when staggered).
        for t in 0..CYCLE as u8 {
            if staggered {
                for (i, p) in phases.iter().enumerate() {
                    if *p == t && t > 0 {
                        ours.restart_state(i as u32, "Walk").expect("state");
                        theirs[i] = State::new();
                    }
                }
            }
            ours.tick();
            ours.drain_events().for_each(|e| {
                black_box(e);
            });
            for s in &mut theirs {
                s.update(&anim, DT);
            }
        }
        Pair { ours, theirs, anim }
    }
}

fn run_ours(b: &mut SpriteBatch, ticks: usize) -> f64 {
    time(|| {
        for _ in 0..ticks {
            b.tick();
            for e in b.drain_events() {
                black_box(e);
            }
        }
        black_box(b.frames().first().copied())
    })
}

fn run_theirs(states: &mut [State], anim: &Animation, ticks: usize) -> f64 {
    time(|| {
        for _ in 0..ticks {
            for s in states.iter_mut() {
                s.update(anim, DT);
            }
            black_box(&*states);
        }
        black_box(states.first().map(State::frame_index))
    })
}

/// Measures one size and phasing; returns (ours, theirs) in ns per
/// instance-tick, best round each.
fn measure(cx: &Context, n: usize, staggered: bool) -> (f64, f64) {
    let mut p = Pair::new(n, staggered);
    // About 10^7 instance-ticks per timed run (a whole number of cycles).
    let target = if cx.opts.quick { 100_000 } else { 10_000_000 };
    let ticks = (target / n).div_ceil(CYCLE).max(1) * CYCLE;
    let Pair { ours, theirs, anim } = &mut p;
    let (a, b) = best_interleaved(cx.rounds(), || run_ours(ours, ticks), || run_theirs(theirs, anim, ticks));
    let per = 1e9 / (ticks * n) as f64;
    (a * per, b * per)
}

impl Group for Sprites {
    fn name(&self) -> &'static str {
        "sprites"
    }

    fn what(&self) -> &'static str {
        "sprite ticking against benimator"
    }

    fn run(&self, cx: &mut Context, report: &mut Report) {
        let sizes: &[usize] = if cx.opts.quick { &[1_000, 10_000] } else { &[1_000, 10_000, 100_000, 1_000_000] };
        for &staggered in &[false, true] {
            for &n in sizes {
                let k = pow10_name(n);
                let tag = if staggered { "staggered_" } else { "" };
                cx.progress.note(&format!("sprites: {}{n} instances", tag));
                let (ours, theirs) = measure(cx, n, staggered);
                let how = if staggered { "staggered walk" } else { "walk" };
                report.add(
                    format!("sprite_{tag}ns_per_tick_{k}"),
                    ours,
                    "ns",
                    format!("animkit, {how}, {n} instances, per instance-tick"),
                );
                report.add(
                    format!("benimator_{tag}ns_per_tick_{k}"),
                    theirs,
                    "ns",
                    format!("benimator 4.1, {how}, {n} instances"),
                );
                report.add(
                    format!("sprite_{tag}vs_benimator_{k}"),
                    theirs / ours,
                    "x",
                    "benimator's time / ours (bigger is better)",
                );
            }
        }
        let sprites = sprites_from(WALK, "walk");
        let mut b = sprites.batch();
        for _ in 0..1000 {
            b.spawn("Walk").expect("state");
        }
        report.add(
            "sprite_bytes_per_instance",
            b.hot_bytes() as f64 / b.len() as f64,
            "B",
            "bytes of per-instance state in a SpriteBatch",
        );
        embed(cx, report);
        snapshots(cx, report);
        catch_up(cx, report);
    }
}

/// `embed_sprite_ns_per_tick_1e6`: the lockstep walk of 10^6 instances
/// through the game API (`game::AnimationBatch::tick`, events drained into
/// a caller's 4 096-event buffer), interleaved round by round with the
/// engine's `SpriteBatch` on the same workload (`embed_vs_batch_1e6`, the
/// game API's time / the batch's; the bound is 1.05).
fn embed(cx: &mut Context, report: &mut Report) {
    use animkit_vm::game::{AnimationBatch, Bundle, InstanceEvent};
    let n = if cx.opts.quick { 10_000 } else { 1_000_000 };
    let k = pow10_name(n);
    cx.progress.note(&format!("sprites: game API, {n} instances"));
    let sources = [animkit_compiler::Source::new("walk.anim".to_string(), WALK)];
    let program = animkit_compiler::compile(&sources, &Default::default()).unwrap_or_else(|e| panic!("{e}"));
    let bytes = animkit_vm::engine::codec::encode(&program);
    let bundle = Bundle::from_bytes(&bytes).expect("bundle opens");
    let walk = bundle.sprite("walk").expect("module");
    let state = walk.state("Walk").expect("state");
    let mut game = walk.batch();
    let sprites = sprites_from(WALK, "walk");
    let mut engine = sprites.batch();
    for _ in 0..n {
        game.spawn(state);
        engine.spawn("Walk").expect("state");
    }
    let mut events = vec![InstanceEvent::default(); 4096];
    let mut run_game = |b: &mut AnimationBatch, ticks: usize| {
        time(|| {
            for _ in 0..ticks {
                b.tick();
                while b.drain_events(&mut events) == events.len() {}
            }
        })
    };
    run_game(&mut game, CYCLE);
    run_ours(&mut engine, CYCLE);
    let target = if cx.opts.quick { 100_000 } else { 10_000_000 };
    let ticks = (target / n).div_ceil(CYCLE).max(1) * CYCLE;
    let (a, b) = best_interleaved(cx.rounds(), || run_game(&mut game, ticks), || run_ours(&mut engine, ticks));
    let per = 1e9 / (ticks * n) as f64;
    report.add(
        format!("embed_sprite_ns_per_tick_{k}"),
        a * per,
        "ns",
        format!("game API (AnimationBatch), walk, {n} instances, per instance-tick"),
    );
    report.add(
        format!("embed_vs_batch_{k}"),
        a / b,
        "x",
        "game API's time / SpriteBatch's, interleaved rounds (bound 1.05)",
    );
}

/// A staggered walk of `n` instances (as in [`Pair::new`]), events drained.
fn staggered(n: usize) -> SpriteBatch {
    let mut b = sprites_from(WALK, "walk").batch();
    for _ in 0..n {
        b.spawn("Walk").expect("state");
    }
    let mut phase = Rng::new(n as u64);
    let phases: Vec<u8> = (0..n).map(|_| (phase.next_u64() % CYCLE as u64) as u8).collect();
    for t in 0..CYCLE as u8 {
        for (i, p) in phases.iter().enumerate() {
            if *p == t && t > 0 {
                b.restart_state(i as u32, "Walk").expect("state");
            }
        }
        b.tick();
        b.drain_events().for_each(drop);
    }
    b
}

/// Snapshot size, and the time to take and to restore one.
fn snapshots(cx: &mut Context, report: &mut Report) {
    let n = if cx.opts.quick { 10_000 } else { 1_000_000 };
    let k = pow10_name(n);
    cx.progress.note(&format!("sprites: snapshots of {n} instances"));
    let b = staggered(n);
    let snap = b.snapshot();
    report.add(
        "sprite_snapshot_bytes_per_instance",
        snap.bytes() as f64 / n as f64,
        "B",
        "bytes per instance of a SpriteBatch snapshot (staggered walk, speed 1)",
    );
    let mut target = b.sprites().batch();
    let take = best(cx.rounds(), || time(|| black_box(b.snapshot())));
    let restore = best(cx.rounds(), || time(|| target.restore(&snap).expect("restores")));
    report.add(format!("sprite_snapshot_ms_{k}"), take * 1e3, "ms", format!("SpriteBatch::snapshot of {n} instances"));
    report.add(
        format!("sprite_restore_ms_{k}"),
        restore * 1e3,
        "ms",
        format!("SpriteBatch::restore of {n} instances (validated) into a batch"),
    );
}

/// `advance(10^6)` on the looping walk: whole cycles are skipped, so this
/// is a few dozen nanoseconds whatever the count.
fn catch_up(cx: &mut Context, report: &mut Report) {
    let walk = sprites_from(WALK, "walk");
    let mut i = walk.instance("Walk").expect("state");
    let reps = if cx.opts.quick { 1_000 } else { 200_000 };
    let t = best(cx.rounds(), || {
        time(|| {
            for _ in 0..reps {
                i.advance(1_000_000);
                black_box(i.frame());
            }
        })
    });
    report.add(
        "sprite_advance_1e6_ns",
        t * 1e9 / reps as f64,
        "ns",
        "SpriteInstance::advance(10^6) on the walk, per call",
    );
}
