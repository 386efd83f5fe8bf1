//! A mixed population: loops with events, ping-pongs, waits, transitions
//! (including two states that transition into each other for ever) and
//! zero-duration event frames, instances spread over the states and
//! phases, events drained every tick. benimator cannot express events or
//! transitions, so this figure has no peer; its reference is the plain walk
//! at the same size, measured in the same rounds.
//!
//! The same population with a random playback speed per instance (1/2,
//! 3/4, 1, 5/4, 3/2 or 2: a crowd that does not move in lockstep) is
//! `sprite_speed_mixed_ns_per_tick_*`, measured in the same rounds: every
//! instance at a speed other than 1 goes through the batch's slow path.

use super::{Group, sprites::WALK, sprites_from};
use crate::corpus::Rng;
use crate::timing::{best_rotating, time};
use crate::{Context, Report};
use animkit_vm::engine::sprite::{Speed, SpriteBatch};
use std::hint::black_box;

/// The mixed module.
pub const MIXED: &str = "\
Idle: 15, 15, 15, 15, _pingpong
Walk: 6|step, 6, 6|step, 6, _loop
Run: 4|step, 4, 4|step, 4, 4|step, 4, _loop|dust
Jump: 3|0|jumpSound, 3|1, 4|2, Fall
Fall[Jump]: 4|3, 4|4, _wait
Attack: 3|swingStart, 3|swing, 2|hitFrame, 4|recover, 0|attackDone, Idle
Combo: 2|a, 2, 0|b, 3, Combo2
Combo2: 3|c, 3, Combo
Death: 6|deathSound, 6, 6, 6, 8, 0|dead, _wait
Blink[Idle]: 40|0, 2|7|blink, _loop
";

/// State names and their share of the population (out of 100).
const MIX: &[(&str, u64)] =
    &[("Idle", 20), ("Walk", 20), ("Run", 15), ("Jump", 5), ("Attack", 10), ("Combo", 10), ("Death", 5), ("Blink", 15)];

/// The group.
pub struct SpriteMixed;

fn batch(src: &str, module: &str, n: usize, mixed: bool) -> SpriteBatch {
    let sprites = sprites_from(src, module);
    let mut b = sprites.batch();
    let mut rng = Rng::new(42);
    let mut phases = Vec::with_capacity(n);
    for _ in 0..n {
        let state = if mixed {
            let mut r = rng.next_u64() % 100;
            MIX.iter()
                .find(|(_, w)| {
                    if r < *w {
                        true
                    } else {
                        r -= w;
                        false
                    }
                })
                .map_or("Idle", |(s, _)| s)
        } else {
            "Walk"
        };
        b.spawn(state).expect("state");
        phases.push((rng.next_u64() % 60) as u8);
    }
    for t in 0..60u8 {
        for (i, p) in phases.iter().enumerate() {
            if *p == t && t > 0 {
                let s = b.state(i as u32);
                let name = b.sprites().state_name(s).to_string();
                b.restart_state(i as u32, &name).expect("state");
            }
        }
        b.tick();
        b.drain_events().for_each(|e| {
            black_box(e);
        });
    }
    b
}

fn ticks(b: &mut SpriteBatch, n: usize, events: &std::cell::Cell<usize>) -> f64 {
    let mut count = 0usize;
    let t = time(|| {
        for _ in 0..n {
            b.tick();
            for e in b.drain_events() {
                black_box(e);
                count += 1;
            }
        }
    });
    events.set(events.get() + count);
    t
}

impl Group for SpriteMixed {
    fn name(&self) -> &'static str {
        "sprite_mixed"
    }

    fn what(&self) -> &'static str {
        "a mixed sprite population"
    }

    fn run(&self, cx: &mut Context, report: &mut Report) {
        let n = if cx.opts.quick { 10_000 } else { 1_000_000 };
        let t = if cx.opts.quick { 20 } else { 60 };
        let mut mixed = batch(MIXED, "mixed", n, true);
        let mut walk = batch(WALK, "walk", n, false);
        let mut speedy = batch(MIXED, "mixed", n, true);
        let mut rng = Rng::new(7);
        let speeds = [(1, 2), (3, 4), (1, 1), (5, 4), (3, 2), (2, 1)];
        for i in 0..n as u32 {
            let (a, b) = speeds[(rng.next_u64() % speeds.len() as u64) as usize];
            speedy.set_speed(i, Speed::ratio(a, b).expect("ratio"));
        }
        let before = mixed.stats();
        let events = std::cell::Cell::new(0usize);
        let best = best_rotating(
            cx.rounds(),
            &mut [
                &mut || ticks(&mut mixed, t, &events),
                &mut || ticks(&mut walk, t, &std::cell::Cell::new(0)),
                &mut || ticks(&mut speedy, t, &std::cell::Cell::new(0)),
            ],
        );
        let (m, w, sp) = (best[0], best[1], best[2]);
        let after = mixed.stats();
        let instance_ticks = ((after.ticks - before.ticks) * n as u64) as f64;
        let per = 1e9 / (t * n) as f64;
        let k = super::pow10_name(n);
        report.add(
            format!("sprite_mixed_ns_per_tick_{k}"),
            m * per,
            "ns",
            format!("mixed population, {n} instances, events drained"),
        );
        report.add(format!("sprite_mixed_vs_walk_{k}"), m / w, "x", "mixed time / staggered walk time, same rounds");
        report.add(
            format!("sprite_speed_mixed_ns_per_tick_{k}"),
            sp * per,
            "ns",
            format!("mixed population at random speeds 1/2..2, {n} instances, events drained"),
        );
        report.add(
            format!("sprite_speed_mixed_vs_mixed_{k}"),
            sp / m,
            "x",
            "random speeds time / speed-1 mixed time, same rounds",
        );
        report.add(
            "sprite_mixed_frame_changes_per_tick",
            (after.frame_changes - before.frame_changes) as f64 / instance_ticks,
            "/inst",
            "frame changes per instance-tick in the mixed population (walk: 0.2)",
        );
        report.add(
            "sprite_mixed_events_per_tick",
            events.get() as f64 / instance_ticks,
            "/inst",
            "events fired and drained per instance-tick in the mixed population",
        );
    }
}
