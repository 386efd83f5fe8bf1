//! A quick measurement (the bench crate has the real one): nanoseconds per
//! actor-frame of a SLAP scene whose actors all move and pose, stepped one
//! frame at a time and observed in full every frame.
//!
//! `cargo run --release -p animkit-vm --example slap_observe [ACTORS...]`

use animkit_vm::engine::isa::Op;
use animkit_vm::engine::slap::{SceneAsm, SceneSim};
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

/// `n` actors spread on a grid, each with a moving action, a heading and a
/// size of its own; no time point for a long while.
fn crowd(n: u32) -> SceneSim {
    let moving = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 10.0, 11.0];
    let mut asm = SceneAsm::new();
    for id in 0..n {
        let f = id as f64;
        asm.op(Op::Position2, &[f, (id % 317) as f64, (id / 317) as f64]);
        asm.op(Op::Direction, &[f, f * 0.37]);
        asm.op(Op::Size, &[f, 0.5 + (id % 7) as f64 * 0.1]);
        asm.op(Op::Action, &[f, moving[id as usize % moving.len()]]);
    }
    asm.at(10_000_000);
    let program = asm.finish("crowd").unwrap_or_else(|e| panic!("{e}"));
    SceneSim::new(Arc::new(program), "crowd").unwrap_or_else(|e| panic!("{e}"))
}

fn measure(n: u32) -> f64 {
    let mut scene = crowd(n);
    let frames = (20_000_000 / n as u64).max(20);
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let t = Instant::now();
        let mut sum = 0.0f64;
        for _ in 0..frames {
            scene.step();
            for a in scene.actors() {
                sum += a.position[0] + a.position[2] + a.pose.body_height as f64 + a.pose.leg_swing_left as f64;
            }
        }
        black_box(sum);
        best = best.min(t.elapsed().as_nanos() as f64 / (frames * n as u64) as f64);
    }
    best
}

fn main() {
    let sizes: Vec<u32> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let sizes = if sizes.is_empty() { vec![1_000, 100_000] } else { sizes };
    for n in sizes {
        println!("{n} actors: {:.2} ns per actor-frame (step + observe, best of 5)", measure(n));
    }
}
