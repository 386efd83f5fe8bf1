//! Counting guard rails for the SLAP player (instructions, not time): a
//! frame between time points runs no bytecode, however long the timeline;
//! a time point runs its own commands only; the whole timeline runs each
//! instruction once; observing the actors runs nothing either.

use animkit_vm::engine::isa::Op;
use animkit_vm::engine::slap::{SceneAsm, SceneSim};
use std::sync::Arc;

/// Ten actors, all moving; `points` time points 100 frames apart except
/// for a gap of 2 000 frames after time point `points / 2`. Each time point
/// turns one actor and changes another's action (three instructions per
/// command, one `WAIT`). Returns the scene and the frame of the time point
/// before the gap.
fn scene(points: u32) -> (SceneSim, u64) {
    let mut asm = SceneAsm::new();
    for id in 0..10 {
        asm.op(Op::Action, &[id as f64, 1.0 + (id % 5) as f64]);
    }
    let mut before_gap = 0;
    for i in 1..points {
        let gap = if i == points / 2 + 1 { 2000 } else { 100 };
        asm.wait(gap);
        if i == points / 2 {
            before_gap = asm.frame();
        }
        asm.op(Op::Direction, &[(i % 10) as f64, (i % 7) as f64 * 0.5]);
        asm.op(Op::Action, &[((i + 3) % 10) as f64, [1.0, 2.0, 10.0, 11.0][i as usize % 4]]);
    }
    let program = asm.finish("long").unwrap();
    assert!(asm.frame() <= animkit_vm::engine::limits::MAX_SLAP_FRAME as u64);
    (SceneSim::new(Arc::new(program), "long").unwrap(), before_gap)
}

/// Instructions run while stepping `frames` frames one at a time, and the
/// actor states observed on the way (each frame observed in full).
fn step_and_observe(scene: &mut SceneSim, frames: u64) -> (u64, usize) {
    let before = scene.instructions();
    let mut observed = 0;
    for _ in 0..frames {
        scene.step();
        observed += scene.actors().filter(|a| a.position[0].is_finite()).count();
    }
    (scene.instructions() - before, observed)
}

#[test]
fn frames_between_time_points_run_no_bytecode_however_long_the_timeline() {
    let (mut short, short_gap) = scene(10);
    let (mut long, long_gap) = scene(100_000);
    assert_eq!(short.length(), 9 * 100 + 1900);
    assert_eq!(long.length(), 99_999 * 100 + 1900);
    short.seek(short_gap);
    long.seek(long_gap);
    // 1 000 frames inside the gap: nothing interpreted, in either scene,
    // and observing every actor every frame interprets nothing either.
    assert_eq!(step_and_observe(&mut short, 1000), (0, 10_000));
    assert_eq!(step_and_observe(&mut long, 1000), (0, 10_000));
    assert_eq!(short.next_time_point(), Some(short_gap + 2000));
    assert_eq!(long.next_time_point(), Some(long_gap + 2000));
    // Observation is a function of the actors alone: same count, same
    // shape, whatever the number of time points behind or ahead.
    assert_eq!(short.actors().len(), long.actors().len());
}

#[test]
fn a_time_point_runs_its_own_commands_only() {
    let (mut short, short_gap) = scene(10);
    let (mut long, long_gap) = scene(100_000);
    for (s, gap) in [(&mut short, short_gap), (&mut long, long_gap)] {
        s.seek(gap - 1);
        let before = s.instructions();
        s.step();
        // Two commands of three instructions (two LOADKs and the op), then
        // the WAIT to the next time point.
        assert_eq!(s.instructions() - before, 7);
        let (ran, _) = step_and_observe(s, 2000);
        assert_eq!(ran, 7, "the next time point only");
    }
}

#[test]
fn the_whole_timeline_runs_each_instruction_once() {
    let (mut long, _) = scene(100_000);
    let code_len = long.program().modules[0].functions[0].code.len() as u64;
    long.seek(long.length() + 10_000);
    assert_eq!(long.instructions(), code_len);
    assert_eq!(long.next_time_point(), None);
    // Seeking back starts over, and runs the code once more.
    long.seek(0);
    long.seek(long.length());
    assert_eq!(long.instructions(), 2 * code_len);
}

/// A follow camera over a scene of `points` time points, 10 frames apart,
/// each turning the followed actor: the camera at any frame is the actor's
/// closed-form state then, so seeking runs the time points only.
fn follow_scene(points: u32) -> SceneSim {
    let mut asm = SceneAsm::new();
    asm.op(Op::Action, &[1.0, 10.0]).op(Op::CamFollow, &[1.0, 6.0, 2.0]);
    for i in 1..points {
        asm.wait(10);
        asm.op(Op::Direction, &[1.0, (i % 13) as f64 * 0.5]);
    }
    asm.wait(1_000_000);
    SceneSim::new(Arc::new(asm.finish("follow").unwrap()), "follow").unwrap()
}

#[test]
fn a_seek_into_a_follow_scene_costs_its_time_points_not_its_frames() {
    for points in [10u32, 1000] {
        let mut s = follow_scene(points);
        let code_len = s.program().modules[0].functions[0].code.len() as u64;
        // Deep into the last gap, a million frames long.
        let target = s.length() - 10;
        s.seek(target);
        // Every instruction once but the HALT after the last WAIT: the
        // time points' commands and WAITs, nothing per frame.
        assert_eq!(s.instructions(), code_len - 1, "{points} time points");
        assert_eq!(code_len, 3 + 4 + 4 * (points as u64 - 1) + 1 + 1);
        // Observing the camera, and stepping on, runs nothing.
        let before = s.instructions();
        let c = s.camera();
        let a = s.actor(1).unwrap();
        assert_eq!(c.position[1], a.position[1] + 2.0);
        for _ in 0..5 {
            s.step();
            let _ = s.camera();
        }
        assert_eq!(s.instructions(), before);
    }
}
