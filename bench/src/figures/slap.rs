//! SLAP: compile throughput and bundle size on the generated scene corpus
//! ([`crate::slap_corpus`]) and the examples, and the simulation's cost per
//! actor and frame.
//!
//! - `compile_mb_s_slap` (and `_1thread`): source -> bundle bytes, as the
//!   sprite and Animator figures measure it (`compile.rs`).
//! - `bundle_ratio_source_slap`: the worst of the corpus (one bundle of
//!   every scene, as `animc corpus/*.slap` makes) and each
//!   `examples/*.slap`, debug positions kept; the per-input ratios, their
//!   stripped sizes and the ratios to `gzip -9` are reported beside it.
//! - `slap_sim_ns_per_actor_frame_1e3` / `_1e5`: a crowd of 10^3 or 10^5
//!   actors, each placed, turned, sized and set moving (eight moving
//!   actions) at frame 0, compiled from SLAP source through bundle bytes
//!   and played with `SceneSim::step`, every actor observed every frame
//!   (position and pose read), as a renderer would; no time point for
//!   millions of frames, so the figure is the cost of a frame between time
//!   points, which runs no bytecode (`vm/tests/slap_counting.rs`). Best of
//!   the rounds; the same workload as `cargo run --release -p animkit-vm
//!   --example slap_observe`, which builds the crowd by hand.
//! - `slap_seek_ms_1e6`: a `--start` seek to the last frame of a
//!   1 000 000-frame scene whose camera follows a sprinting actor that
//!   turns at each of its 1 000 time points ([`follow_source`]): restart,
//!   seek, read the camera, as `animvm --start 999999` does before its
//!   first frame. The follow is evaluated from the actor's closed-form
//!   state, so the seek runs the time points only
//!   (`vm/tests/slap_counting.rs` counts it).

use super::Group;
use super::bundle::{corpus_ratios, examples_ratios};
use super::compile::measure;
use crate::timing::{best, time};
use crate::{Context, Report};
use animkit_compiler::{Options, Source, compile};
use animkit_vm::engine::slap::SceneSim;
use std::fmt::Write;
use std::hint::black_box;
use std::sync::Arc;

/// The group.
pub struct Slap;

/// The SLAP corpus as compiler sources.
pub fn sources(cx: &mut Context) -> Vec<Source> {
    cx.slap_corpus().files.iter().map(|(p, t)| Source::new(p.clone(), t.clone())).collect()
}

impl Group for Slap {
    fn name(&self) -> &'static str {
        "slap"
    }

    fn what(&self) -> &'static str {
        "SLAP: compile, bundle size, simulation"
    }

    fn run(&self, cx: &mut Context, report: &mut Report) {
        let sources = sources(cx);
        let bytes = cx.slap_corpus().bytes();
        measure(cx, report, &sources, bytes, "slap", "scenes");
        let all = cx.slap_corpus().concatenated();
        let worst = corpus_ratios(report, "slap_corpus", &sources, bytes, &all);
        let worst = examples_ratios(report, "slap", worst);
        report.add("bundle_ratio_source_slap", worst.0, "x", "SLAP: worst of corpus and examples, bundle / source");
        report.add("bundle_ratio_gzip_slap", worst.1, "x", "SLAP: worst of corpus and examples, bundle / gzip -9");
        report.add(
            "slap_seek_ms_1e6",
            seek_ms(cx),
            "ms",
            "seek to frame 999999 of a 1e6-frame scene with a follow camera (1000 time points), camera read",
        );
        for n in [1_000, 100_000] {
            let ns = simulate(cx, n);
            report.add(
                format!("slap_sim_ns_per_actor_frame_{}", super::pow10_name(n)),
                ns,
                "ns",
                format!("{n} actors all moving and posing: step + observe every actor, per actor-frame"),
            );
        }
    }
}

/// The crowd: `n` actors on a grid, each with a heading, a size and a
/// moving action of its own, set at frame 0; the next time point is
/// millions of frames away.
pub fn crowd_source(n: usize) -> String {
    const MOVING: [u32; 8] = [1, 2, 3, 4, 5, 6, 10, 11];
    let mut s = String::with_capacity(n * 96);
    s.push_str("# a crowd, all moving\ndefine PI 3.14159265358979\n");
    for id in 0..n {
        let _ = writeln!(s, "actor {id} position {} {}", id % 317, id / 317);
        let _ = writeln!(s, "actor {id} direction {}*PI/64", id % 128);
        let _ = writeln!(s, "actor {id} size {}", 0.5 + (id % 7) as f64 * 0.1);
        let _ = writeln!(s, "actor {id} action {}", MOVING[id % MOVING.len()]);
    }
    s.push_str("time 10000000\n");
    s
}

/// A million frames with the camera following actor 1, which sprints and
/// turns every 1 000 frames.
pub fn follow_source() -> String {
    let mut s = String::from("actor 1 action 10\ncamera follow 1 6 2\n");
    for i in 1..1000 {
        let _ = writeln!(s, "time {}\nactor 1 direction {}", i * 1000, (i % 13) as f64 * 0.5);
    }
    s.push_str("time 1000000\n");
    s
}

/// Milliseconds of restarting the follow scene and seeking to its frame
/// 999 999, the camera read there.
fn seek_ms(cx: &Context) -> f64 {
    let program =
        compile(&[Source::new("follow.slap", follow_source())], &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let program =
        animkit_vm::engine::codec::load(&animkit_vm::engine::codec::encode(&program)).expect("the scene loads");
    let mut scene = SceneSim::new(Arc::new(program), "follow").expect("a SLAP module");
    let seconds = best(cx.rounds().max(5), || {
        time(|| {
            scene.restart();
            scene.seek(999_999);
            black_box(scene.camera())
        })
    });
    seconds * 1e3
}

/// The crowd of `n` as a game gets it: compiled, through bundle bytes,
/// loaded and verified, opened at frame 0.
pub fn crowd(n: usize) -> SceneSim {
    let program =
        compile(&[Source::new("crowd.slap", crowd_source(n))], &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let program =
        animkit_vm::engine::codec::load(&animkit_vm::engine::codec::encode(&program)).expect("the crowd loads");
    SceneSim::new(Arc::new(program), "crowd").expect("the crowd is a SLAP module")
}

/// Nanoseconds per actor-frame of stepping the crowd of `n` and observing
/// every actor every frame.
fn simulate(cx: &Context, n: usize) -> f64 {
    let mut scene = crowd(n);
    let work = if cx.opts.quick { 200_000 } else { 20_000_000 };
    let frames = (work / n as u64).max(4);
    let seconds = best(cx.rounds(), || {
        time(|| {
            let mut sum = 0.0f64;
            for _ in 0..frames {
                scene.step();
                for a in scene.actors() {
                    sum += a.position[0] + a.position[2] + a.pose.body_height as f64 + a.pose.leg_swing_left as f64;
                }
            }
            black_box(sum)
        })
    });
    seconds * 1e9 / (frames * n as u64) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_crowd_moves_and_poses() {
        let mut scene = crowd(100);
        assert_eq!(scene.actors().len(), 100);
        let before: Vec<_> = scene.actors().map(|a| (a.position, a.pose)).collect();
        scene.step();
        let after: Vec<_> = scene.actors().map(|a| (a.position, a.pose)).collect();
        for (i, (b, a)) in before.iter().zip(&after).enumerate() {
            assert_ne!(b.0, a.0, "actor {i} does not move");
        }
        assert!(before.iter().zip(&after).all(|(b, a)| b.1 != a.1), "every actor poses");
        assert_eq!(scene.next_time_point(), Some(10_000_000));
    }

    #[test]
    fn the_follow_scene_follows_to_its_last_frame() {
        let program = compile(&[Source::new("follow.slap", follow_source())], &Options::default()).unwrap();
        let mut scene =
            SceneSim::new(Arc::new(animkit_vm::engine::verify::verify(program).unwrap()), "follow").unwrap();
        assert_eq!(scene.length(), 1_000_000);
        scene.seek(999_999);
        let a = scene.actor(1).unwrap();
        assert_eq!(scene.camera().position[1], a.position[1] + 2.0);
        assert!(scene.stage().follow().is_some());
    }
}
