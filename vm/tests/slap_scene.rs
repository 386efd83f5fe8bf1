//! The SLAP simulation through the scene player, on hand-assembled
//! programs: exact closed-form motion (bit for bit), re-anchoring, pose
//! phases, defaults, first mention, camera forms, every runtime error with
//! its message and position, and that the scene goes on after it.

use animkit_vm::engine::isa::{Insn, Op};
use animkit_vm::engine::slap::{Action, ActorState, Camera, OpenError, SceneAsm, SceneSim};
use std::sync::Arc;

/// PI as the spec's scripts define it (not `std::f64::consts::PI`).
#[allow(clippy::approx_constant)]
const PI: f64 = 3.1416;

fn scene(asm: &SceneAsm) -> SceneSim {
    SceneSim::new(Arc::new(asm.finish("scene").unwrap()), "scene").unwrap()
}

fn at(scene: &mut SceneSim, frame: u64, id: u32) -> ActorState {
    scene.seek(frame);
    scene.actor(id).unwrap_or_else(|| panic!("no actor {id} at frame {frame}"))
}

fn bits(v: [f64; 3]) -> [u64; 3] {
    v.map(f64::to_bits)
}

/// `speed * size * forward`, in the documented order.
fn velocity(action: Action, size: f64, heading: f64) -> [f64; 2] {
    let k = action.speed() * size;
    [k * heading.sin(), k * heading.cos()]
}

#[test]
fn a_swagger_of_500_frames_ends_where_arithmetic_says() {
    let (x0, y0, z0, size, h) = (1.5, 0.25, -2.0, 0.9, 0.7);
    let mut asm = SceneAsm::new();
    asm.at(10).op(Op::Position3, &[1.0, x0, y0, z0]).op(Op::Size, &[1.0, size]).op(Op::Direction, &[1.0, h]);
    asm.op(Op::Action, &[1.0, Action::Swagger as u8 as f64]);
    let mut s = scene(&asm);
    let v = velocity(Action::Swagger, size, h);
    let end = at(&mut s, 510, 1);
    assert_eq!(bits(end.position), bits([x0 + 500.0 * v[0], y0, z0 + 500.0 * v[1]]));
    // Every frame on the way, the same formula with that frame's count.
    for f in 10..=510u64 {
        let n = (f - 10) as f64;
        assert_eq!(bits(at(&mut s, f, 1).position), bits([x0 + n * v[0], y0, z0 + n * v[1]]), "frame {f}");
    }
}

#[test]
fn the_spec_scene() {
    // time 0: actors 1 and 2 placed, coloured, sized, idle; time +500:
    // actor 1 turns to PI/4 and swaggers; time +1000: actor 1 stops.
    let mut asm = SceneAsm::new();
    asm.op(Op::Position2, &[1.0, 0.0, 0.0]).op(Op::ActorColor, &[1.0, 1.0, 0.0, 0.0]);
    asm.op(Op::Size, &[1.0, 0.9]).op(Op::Action, &[1.0, 0.0]);
    asm.op(Op::Position2, &[2.0, 2.0, 0.0]).op(Op::ActorColor, &[2.0, 0.0, 1.0, 0.0]);
    asm.op(Op::Size, &[2.0, 0.6]).op(Op::Action, &[2.0, 0.0]);
    asm.at(500).op(Op::Direction, &[1.0, PI / 4.0]).op(Op::Action, &[1.0, 2.0]);
    asm.at(1500).op(Op::Action, &[1.0, 0.0]);
    let mut s = scene(&asm);
    assert_eq!(s.length(), 1500);
    let v = velocity(Action::Swagger, 0.9, PI / 4.0);
    let walked = [1000.0 * v[0], 0.0, 1000.0 * v[1]];
    let one = at(&mut s, 1500, 1);
    assert_eq!(bits(one.position), bits(walked));
    assert_eq!((one.action, one.direction, one.size, one.color), (Action::Idle, PI / 4.0, 0.9, [1.0, 0.0, 0.0]));
    // Standing still after the stop, and actor 2 never moved.
    assert_eq!(bits(at(&mut s, 3000, 1).position), bits(walked));
    assert_eq!(at(&mut s, 3000, 2).position, [2.0, 0.0, 0.0]);
    assert_eq!(s.actors().map(|a| a.id).collect::<Vec<_>>(), [1, 2]);
}

#[test]
fn turns_re_anchor() {
    let mut asm = SceneAsm::new();
    asm.op(Op::Direction, &[1.0, PI / 2.0]).op(Op::Action, &[1.0, 10.0]);
    asm.at(100).op(Op::Direction, &[1.0, PI]);
    asm.at(130).op(Op::Direction, &[1.0, -PI / 2.0]);
    let mut s = scene(&asm);
    let v1 = velocity(Action::Sprint, 1.0, PI / 2.0);
    let v2 = velocity(Action::Sprint, 1.0, PI);
    let v3 = velocity(Action::Sprint, 1.0, -PI / 2.0);
    let a1 = [0.0 + 100.0 * v1[0], 0.0, 0.0 + 100.0 * v1[1]];
    assert_eq!(bits(at(&mut s, 100, 1).position), bits(a1));
    let a2 = [a1[0] + 30.0 * v2[0], 0.0, a1[2] + 30.0 * v2[1]];
    assert_eq!(bits(at(&mut s, 130, 1).position), bits(a2));
    let p = at(&mut s, 171, 1).position;
    assert_eq!(bits(p), bits([a2[0] + 41.0 * v3[0], 0.0, a2[2] + 41.0 * v3[1]]));
    // PI/2 went right (+x), PI away (-z), -PI/2 back left.
    assert!(a1[0] > 12.4 && a2[2] < -3.7 && p[0] < a2[0]);
}

#[test]
fn every_motion_command_re_anchors_even_when_it_changes_nothing() {
    // Walking from frame 0; `action swagger` again and `size 1` again at 7
    // and 9 re-anchor without changing the velocity: the position is
    // computed from the last anchor, so it matches the piecewise formula.
    let mut asm = SceneAsm::new();
    asm.op(Op::Direction, &[1.0, 0.3]).op(Op::Action, &[1.0, 2.0]);
    asm.at(7).op(Op::Action, &[1.0, 2.0]);
    asm.at(9).op(Op::Size, &[1.0, 1.0]);
    let mut s = scene(&asm);
    let v = velocity(Action::Swagger, 1.0, 0.3);
    let a7 = [7.0 * v[0], 0.0, 7.0 * v[1]];
    let a9 = [a7[0] + 2.0 * v[0], 0.0, a7[2] + 2.0 * v[1]];
    assert_eq!(bits(at(&mut s, 1000, 1).position), bits([a9[0] + 991.0 * v[0], 0.0, a9[2] + 991.0 * v[1]]));
}

#[test]
fn size_scales_speed_from_its_frame_on() {
    let mut asm = SceneAsm::new();
    asm.op(Op::Action, &[4.0, 1.0]);
    asm.at(64).op(Op::Size, &[4.0, 3.0]);
    let mut s = scene(&asm);
    // Scamper (1/16 a frame) for 64 frames at size 1, then 64 at size 3.
    assert_eq!(at(&mut s, 128, 4).position, [0.0, 0.0, 4.0 + 12.0]);
}

#[test]
fn position_teleports_and_motion_continues() {
    let mut asm = SceneAsm::new();
    asm.op(Op::Direction, &[1.0, PI / 2.0]).op(Op::Action, &[1.0, 1.0]);
    asm.at(200).op(Op::Position3, &[1.0, 5.0, 1.0, 5.0]);
    asm.at(250).op(Op::Position2, &[1.0, -3.0, 2.0]);
    let mut s = scene(&asm);
    let v = velocity(Action::Scamper, 1.0, PI / 2.0);
    assert_eq!(bits(at(&mut s, 200, 1).position), bits([5.0, 1.0, 5.0]));
    assert_eq!(bits(at(&mut s, 240, 1).position), bits([5.0 + 40.0 * v[0], 1.0, 5.0 + 40.0 * v[1]]));
    // A two-value position keeps y.
    assert_eq!(bits(at(&mut s, 250, 1).position), bits([-3.0, 1.0, 2.0]));
    assert_eq!(bits(at(&mut s, 260, 1).position), bits([-3.0 + 10.0 * v[0], 1.0, 2.0 + 10.0 * v[1]]));
    // The action (and its pose cycle) went on through both teleports.
    assert_eq!(at(&mut s, 260, 1).pose, Action::Scamper.pose(260));
}

#[test]
fn the_same_action_keeps_its_pose_phase_a_new_one_restarts_it() {
    let mut asm = SceneAsm::new();
    asm.at(3).op(Op::Action, &[1.0, 2.0]);
    asm.at(13).op(Op::Action, &[1.0, 2.0]);
    asm.at(20).op(Op::Action, &[1.0, 11.0]);
    asm.at(31).op(Op::Action, &[1.0, 2.0]);
    let mut s = scene(&asm);
    assert_eq!(at(&mut s, 3, 1).pose, Action::Swagger.pose(0));
    assert_eq!(at(&mut s, 17, 1).pose, Action::Swagger.pose(14));
    assert_eq!(at(&mut s, 20, 1).pose, Action::Hop.pose(0));
    assert_eq!(at(&mut s, 25, 1).pose, Action::Hop.pose(5));
    assert_eq!(at(&mut s, 40, 1).pose, Action::Swagger.pose(9));
    // The idle of a first mention starts its breathing at that frame.
    let mut asm = SceneAsm::new();
    asm.at(50).op(Op::Size, &[9.0, 1.0]);
    assert_eq!(at(&mut scene(&asm), 80, 9).pose, Action::Idle.pose(30));
}

#[test]
fn an_actor_exists_from_its_first_mention_with_the_defaults() {
    let mut asm = SceneAsm::new();
    asm.op(Op::Size, &[5.0, 2.0]);
    asm.at(40).op(Op::ActorColor, &[3.0, 0.5, 0.25, 2.0]);
    let mut s = scene(&asm);
    s.seek(39);
    assert_eq!(s.actors().map(|a| a.id).collect::<Vec<_>>(), [5]);
    s.seek(100);
    assert_eq!(s.actors().map(|a| a.id).collect::<Vec<_>>(), [3, 5]);
    let three = s.actor(3).unwrap();
    assert_eq!(
        three,
        ActorState {
            id: 3,
            action: Action::Idle,
            position: [0.0, 0.0, 0.0],
            direction: 0.0,
            color: [0.5, 0.25, 2.0], // not clamped
            size: 1.0,
            pose: Action::Idle.pose(60),
        }
    );
    assert_eq!(s.actor(5).unwrap().color, animkit_vm::engine::slap::stage::DEFAULT_COLOR);
    assert_eq!(s.actor(4), None);
}

#[test]
fn camera_forms() {
    let mut asm = SceneAsm::new();
    asm.at(1).op(Op::CamPos, &[1.0, 2.0, 3.0]);
    asm.at(2).op(Op::CamDir, &[0.0, -2.0, -6.0]);
    asm.at(3).op(Op::CamAngles, &[PI / 2.0, 0.0]);
    asm.at(4).op(Op::CamAngles, &[0.0, 0.5]);
    let mut s = scene(&asm);
    assert_eq!(s.camera(), Camera { position: [0.0, 2.0, 8.0], direction: [0.0, -1.0, -4.0] });
    s.seek(1);
    assert_eq!(s.camera().position, [1.0, 2.0, 3.0]);
    s.seek(2);
    assert_eq!(s.camera().direction, [0.0, -2.0, -6.0]); // as given
    s.seek(3);
    let d = s.camera().direction;
    assert_eq!(d, Camera::look(PI / 2.0, 0.0));
    assert!((d[0] - 1.0).abs() < 1e-8 && d[1] == 0.0 && d[2].abs() < 1e-4, "{d:?}"); // right: +x
    s.seek(4);
    assert_eq!(s.camera().direction, [0.0, 0.5f64.sin(), -0.5f64.cos()]); // level yaw, looking up
    assert_eq!(s.camera().position, [1.0, 2.0, 3.0]);
}

#[test]
fn actors_are_listed_by_id_whatever_the_order_of_mention() {
    let mut asm = SceneAsm::new();
    for id in [9.0, 4294967295.0, 0.0, 7.0] {
        asm.op(Op::Size, &[id, 1.0]);
    }
    asm.at(5).op(Op::Size, &[3.0, 1.0]);
    let mut s = scene(&asm);
    s.seek(5);
    let ids: Vec<u32> = s.actors().map(|a| a.id).collect();
    assert_eq!(ids, [0, 3, 7, 9, u32::MAX]);
    assert_eq!(s.actors().len(), 5);
}

#[test]
fn runtime_errors_name_the_command_and_its_position_and_the_scene_goes_on() {
    let mut asm = SceneAsm::new();
    // Line 2 at frame 0: a fraction for an action.
    asm.line(2, 1).op(Op::Action, &[1.0, 2.5]);
    asm.line(3, 1).op(Op::Action, &[1.0, 2.0]);
    // Line 5 at frame 10: a direction computed as 0/0 by VM arithmetic.
    asm.at(10).line(5, 1);
    let (zero, one) = (asm.constant(0.0) as u16, asm.constant(1.0) as u16);
    asm.insn(Insn::abx(Op::LoadK, 0, one))
        .insn(Insn::abx(Op::LoadK, 1, zero))
        .insn(Insn::abc(Op::Div, 1, 1, 1))
        .insn(Insn::r(Op::Direction, 0));
    asm.line(6, 1).op(Op::Size, &[1.0, 0.0]);
    asm.line(7, 1).op(Op::Size, &[-1.0, 1.0]);
    asm.line(8, 1).op(Op::CamDir, &[0.0, 0.0, 0.0]);
    asm.line(9, 1).op(Op::Position2, &[1.0, f64::INFINITY, 0.0]);
    asm.line(10, 1).op(Op::Size, &[1.0, 2.0]);
    // Frame 20: more commands run after the errors of frame 10.
    asm.at(20).line(12, 3).op(Op::Action, &[2.0, 99.0]);
    asm.line(13, 1).op(Op::Action, &[2.0, 10.0]);
    let mut s = scene(&asm);
    s.seek(30);
    let errors: Vec<String> = s.errors().iter().map(ToString::to_string).collect();
    assert_eq!(
        errors,
        [
            "frame 0: 2:1: `actor 1 action 2.5`: the action must be one of the twelve, a whole number in 0..=11",
            "frame 10: 5:1: `actor 1 direction NaN`: the direction must be a finite number",
            "frame 10: 6:1: `actor 1 size 0`: the size must be a finite number above 0",
            "frame 10: 7:1: `actor -1 size 1`: the actor id must be a whole number in 0..=4294967295",
            "frame 10: 8:1: `camera direction 0 0 0`: the look vector must not be all zero",
            "frame 10: 9:1: `actor 1 position inf 0`: every coordinate must be a finite number",
            "frame 20: 12:3: `actor 2 action 99`: the action must be one of the twelve, a whole number in 0..=11",
        ]
    );
    assert_eq!(s.error_count(), 7);
    // Every valid command ran; every failed one was skipped.
    let one = s.actor(1).unwrap();
    assert_eq!((one.action, one.direction, one.size), (Action::Swagger, 0.0, 2.0));
    // Walked 10 frames at size 1, then 20 at size 2 (never teleported).
    assert_eq!(one.position, [0.0, 0.0, 10.0 / 32.0 + 20.0 * (2.0 / 32.0)]);
    assert_eq!(s.actor(2).unwrap().action, Action::Sprint);
    assert_eq!(s.camera(), Camera::DEFAULT);
    assert_eq!(s.actors().len(), 2); // actor -1 was never created
    // Without debug info the error names the instruction.
    let mut stripped = asm.finish("scene").unwrap();
    stripped.strip();
    let s = SceneSim::new(Arc::new(stripped), "scene").unwrap();
    assert_eq!(
        s.errors()[0].to_string(),
        "frame 0: function 0 instruction 2: `actor 1 action 2.5`: the action must be one of the twelve, a whole number in 0..=11"
    );
    assert_eq!(s.errors()[0].error.position, None);
}

#[test]
fn computed_arguments_equal_folded_ones_bit_for_bit() {
    // direction (PI/4 + 0.1)*-3 computed by VM arithmetic vs its folded value.
    let folded = (PI / 4.0 + 0.1) * -3.0;
    let mut asm = SceneAsm::new();
    let (pi, four, tenth, three) = (asm.constant(PI), asm.constant(4.0), asm.constant(0.1), asm.constant(3.0));
    let one = asm.constant(1.0) as u16;
    asm.insn(Insn::abx(Op::LoadK, 0, one))
        .insn(Insn::abx(Op::LoadK, 1, pi as u16))
        .insn(Insn::abx(Op::LoadK, 2, four as u16))
        .insn(Insn::abc(Op::Div, 1, 1, 2))
        .insn(Insn::abx(Op::LoadK, 2, tenth as u16))
        .insn(Insn::abc(Op::Add, 1, 1, 2))
        .insn(Insn::abx(Op::LoadK, 2, three as u16))
        .insn(Insn::abc(Op::Neg, 2, 2, 0))
        .insn(Insn::abc(Op::Mul, 1, 1, 2))
        .insn(Insn::r(Op::Direction, 0))
        .op(Op::Action, &[1.0, 3.0]);
    let mut computed = scene(&asm);
    let mut asm = SceneAsm::new();
    asm.op(Op::Direction, &[1.0, folded]).op(Op::Action, &[1.0, 3.0]);
    let mut constant = scene(&asm);
    for f in [0, 1, 77, 5000] {
        assert_eq!(at(&mut computed, f, 1), at(&mut constant, f, 1), "frame {f}");
    }
    assert_eq!(computed.actor(1).unwrap().direction.to_bits(), folded.to_bits());
}

#[test]
fn seeking_back_stepping_and_restarting_agree() {
    let mut asm = SceneAsm::new();
    asm.op(Op::Action, &[1.0, 10.0]).op(Op::Action, &[2.0, 11.0]);
    asm.at(33).op(Op::Direction, &[1.0, 1.0]).line(4, 4).op(Op::Size, &[2.0, -1.0]);
    asm.at(70).op(Op::Action, &[2.0, 4.0]);
    let mut stepped = scene(&asm);
    let mut states = Vec::new();
    for _ in 0..100 {
        stepped.step();
        states.push(stepped.actors().collect::<Vec<_>>());
    }
    assert_eq!(stepped.frame(), 100);
    let mut jumping = scene(&asm);
    for f in [100u64, 50, 99, 1, 70, 69, 33, 100] {
        jumping.seek(f);
        assert_eq!(jumping.frame(), f);
        assert_eq!(jumping.actors().collect::<Vec<_>>(), states[f as usize - 1], "frame {f}");
        // Errors are those of the frames up to here, once each.
        assert_eq!(jumping.error_count(), u64::from(f >= 33), "frame {f}");
    }
    jumping.restart();
    assert_eq!((jumping.frame(), jumping.error_count()), (0, 0));
    assert_eq!(jumping.actors().map(|a| a.id).collect::<Vec<_>>(), [1, 2]);
}

#[test]
fn length_is_the_last_time_point_and_frames_go_on_after_it() {
    let mut asm = SceneAsm::new();
    asm.op(Op::Action, &[1.0, 10.0]).at(40).at(1000);
    let mut s = scene(&asm);
    assert_eq!(s.length(), 1000);
    s.seek(1000);
    assert_eq!(s.next_time_point(), None);
    s.seek(2000);
    assert_eq!(s.actor(1).unwrap().position, [0.0, 0.0, 250.0]);
    // Very long waits are split into several WAITs; the length adds up.
    let mut asm = SceneAsm::new();
    asm.at(40_000_000).op(Op::Size, &[1.0, 2.0]);
    let mut s = scene(&asm);
    assert_eq!(s.length(), 40_000_000);
    s.seek(39_999_999);
    assert!(s.actors().len() == 0);
    s.step();
    assert_eq!(s.actors().len(), 1);
}

#[test]
fn opening_checks_the_module() {
    let slap = Arc::new(SceneAsm::new().finish("s").unwrap());
    assert_eq!(SceneSim::new(slap.clone(), "t").unwrap_err().to_string(), "no module named `t` in the bundle");
    assert_eq!(SceneSim::with_index(slap, 3).unwrap_err(), OpenError::NoModuleIndex(3));
    let sprite = animkit_vm::engine::sprite::doc_program();
    let e = SceneSim::new(sprite, "hero").unwrap_err();
    assert_eq!(e, OpenError::NotSlap("hero".into()));
    assert_eq!(e.to_string(), "module `hero` is not a SLAP module");
}

#[test]
fn a_bundle_round_trip_plays_the_same() {
    let mut asm = SceneAsm::new();
    asm.line(1, 1)
        .op(Op::Direction, &[1.0, -0.5])
        .op(Op::Action, &[1.0, 5.0])
        .op(Op::ActorColor, &[1.0, 0.1, 0.2, 0.3]);
    asm.at(17).line(2, 1).op(Op::CamAngles, &[0.25, -0.125]).op(Op::Action, &[1.0, 12.0]);
    let program = asm.finish("scene").unwrap();
    let bytes = animkit_vm::engine::codec::encode(&program);
    let loaded = Arc::new(animkit_vm::engine::codec::load(&bytes).unwrap());
    let mut a = SceneSim::new(Arc::new(program), "scene").unwrap();
    let mut b = SceneSim::new(loaded, "scene").unwrap();
    for f in [0, 16, 17, 18, 400] {
        a.seek(f);
        b.seek(f);
        assert_eq!(a.actors().collect::<Vec<_>>(), b.actors().collect::<Vec<_>>());
        assert_eq!(a.camera(), b.camera());
    }
    assert_eq!(a.errors(), b.errors());
    assert_eq!(b.errors()[0].error.position, Some((2, 1)));
}

#[test]
fn scenes_beyond_65536_constants_load_them_with_loadkx() {
    let n = 70_000u32;
    let mut asm = SceneAsm::new();
    for id in 0..n {
        asm.op(Op::Position2, &[id as f64, id as f64 + 0.5, -(id as f64)]);
    }
    let program = asm.finish("crowd").unwrap();
    let text = animkit_vm::engine::disasm::disassemble(&program);
    assert!(text.contains("LOADKX      0"), "{}", &text[text.len() - 2000..]);
    let s = SceneSim::new(Arc::new(program), "crowd").unwrap();
    assert_eq!(s.actors().len(), n as usize);
    assert_eq!(s.actor(n - 1).unwrap().position, [(n - 1) as f64 + 0.5, 0.0, -((n - 1) as f64)]);
    assert!(s.errors().is_empty());
}

#[test]
fn mentions_in_reverse_id_order_are_not_quadratic() {
    // 200 000 actors, each first mentioned at its own time point in
    // descending id order: one merge per seek, not one insertion each.
    let n = 200_000u32;
    let mut asm = SceneAsm::new();
    for k in 0..n {
        asm.wait(1).op(Op::Size, &[(n - k) as f64, 1.0]);
    }
    let mut s = scene(&asm);
    let t = animkit_test_support::cpu::ThreadTimer::start();
    s.seek(n as u64);
    assert_eq!(s.actors().len(), n as usize);
    assert!(s.actors().map(|a| a.id).eq(1..=n));
    // Stepping through them frame by frame merges a few at a time.
    s.seek(0);
    for _ in 0..1000 {
        s.step();
    }
    assert_eq!(s.actors().map(|a| a.id).collect::<Vec<_>>(), (n - 999..=n).collect::<Vec<_>>());
    assert!(t.elapsed().as_secs() < 10, "{:?}", t.elapsed());
}

#[test]
fn a_follow_is_the_actors_closed_form_state_at_every_frame() {
    let (h, size) = (0.7, 0.9);
    let mut asm = SceneAsm::new();
    asm.op(Op::Position2, &[3.0, 1.0, -2.0]).op(Op::Size, &[3.0, size]).op(Op::Direction, &[3.0, h]);
    asm.op(Op::Action, &[3.0, Action::Sprint as u8 as f64]);
    asm.at(5).op(Op::CamFollow, &[3.0, 6.0, 2.0]);
    asm.at(400).op(Op::Direction, &[3.0, -h]);
    asm.at(700).op(Op::CamPos, &[0.0, 5.0, 5.0]);
    let mut s = scene(&asm);
    // Before the follow, the default camera.
    s.seek(4);
    assert_eq!(s.camera(), Camera::DEFAULT);
    assert_eq!(s.stage().follow(), None);
    let expect = |s: &mut SceneSim, f: u64| {
        let a = at(s, f, 3);
        let (sin, cos) = a.direction.sin_cos();
        let (ds, dc) = (6.0 * sin, 6.0 * cos);
        Camera { position: [a.position[0] - ds, a.position[1] + 2.0, a.position[2] - dc], direction: [ds, -2.0, dc] }
    };
    for f in [5, 6, 100, 399, 400, 401, 699] {
        let want = expect(&mut s, f);
        assert_eq!(s.camera(), want, "frame {f}");
        assert_eq!(s.stage().follow(), Some(animkit_vm::engine::slap::Follow { id: 3, distance: 6.0, height: 2.0 }));
    }
    // The next camera command ends it: the look vector stays where the
    // follow had it at frame 700, the position is the command's.
    let frozen = expect(&mut s, 700);
    s.seek(700);
    assert_eq!(s.camera(), Camera { position: [0.0, 5.0, 5.0], direction: frozen.direction });
    s.seek(2000);
    assert_eq!(s.camera(), Camera { position: [0.0, 5.0, 5.0], direction: frozen.direction });
    // Seeking back and forth gives the same bits.
    s.seek(100);
    assert_eq!(s.camera(), expect(&mut s, 100));
}

#[test]
fn a_lookat_aims_from_where_the_camera_stands_then() {
    let mut asm = SceneAsm::new();
    asm.op(Op::Action, &[1.0, Action::Sprint as u8 as f64]);
    asm.at(2).op(Op::CamLookAt, &[1.0, 0.0, 0.0]); // from the default camera
    asm.at(3).op(Op::CamPos, &[4.0, 4.0, 4.0]).op(Op::CamLookAt, &[0.0, 0.0, 0.0]);
    asm.at(4).op(Op::CamFollow, &[1.0, 2.0, 1.0]);
    asm.at(8).op(Op::CamLookAt, &[0.0, 0.0, 0.0]); // from where the follow has it at 8
    asm.at(9).line(7, 3).op(Op::CamLookAt, &[0.0, 1.0, -1.0]); // that very point: refused
    let mut s = scene(&asm);
    s.seek(2);
    assert_eq!(s.camera(), Camera { position: [0.0, 2.0, 8.0], direction: [1.0, -2.0, -8.0] });
    s.seek(3);
    assert_eq!(s.camera(), Camera { position: [4.0, 4.0, 4.0], direction: [-4.0, -4.0, -4.0] });
    s.seek(8);
    // Actor 1 at (0, 0, 1) (8 frames of 1/8), facing +z: the follow had the camera at (0, 1, -1).
    assert_eq!(s.camera(), Camera { position: [0.0, 1.0, -1.0], direction: [0.0, -1.0, 1.0] });
    assert_eq!(s.stage().follow(), None);
    s.seek(9);
    assert_eq!(s.camera(), Camera { position: [0.0, 1.0, -1.0], direction: [0.0, -1.0, 1.0] });
    let errors: Vec<String> = s.errors().iter().map(|e| e.to_string()).collect();
    assert_eq!(
        errors,
        ["frame 9: 7:3: `camera lookat 0 1 -1`: the point is where the camera stands, so there is no look vector"]
    );
}

#[test]
fn a_follow_of_an_actor_not_on_the_stage_is_refused() {
    let mut asm = SceneAsm::new();
    asm.line(1, 1).op(Op::CamFollow, &[2.0, 6.0, 2.0]);
    asm.at(1).op(Op::Size, &[2.0, 1.0]).op(Op::CamFollow, &[2.0, 6.0, 2.0]);
    let mut s = scene(&asm);
    assert_eq!(s.camera(), Camera::DEFAULT);
    assert_eq!(s.errors()[0].to_string(), "frame 0: 1:1: `camera follow 2 6 2`: actor 2 is not in the scene");
    s.seek(1);
    assert_eq!(s.camera().position, [0.0, 2.0, -6.0]);
}

#[test]
fn a_move_slides_the_camera_in_closed_form_until_the_next_camera_command() {
    let mut asm = SceneAsm::new();
    asm.at(10).op(Op::CamMove, &[4.0, 2.0, 0.0, 4.0]); // from the default (0, 2, 8)
    asm.at(20).op(Op::CamMove, &[0.0, 0.0, 0.0, 100.0]);
    asm.at(70).op(Op::CamDir, &[1.0, 0.0, 0.0]); // halfway: frozen there
    asm.at(80).line(4, 1).op(Op::CamMove, &[0.0, 0.0, 0.0, 0.0]); // refused
    let mut s = scene(&asm);
    for (f, want) in [(9, [0.0, 2.0, 8.0]), (10, [0.0, 2.0, 8.0]), (11, [1.0, 2.0, 6.0]), (13, [3.0, 2.0, 2.0])] {
        s.seek(f);
        assert_eq!(s.camera(), Camera { position: want, direction: [0.0, -1.0, -4.0] }, "frame {f}");
    }
    s.seek(15);
    assert_eq!(s.camera().position, [4.0, 2.0, 0.0]);
    assert_eq!(s.stage().camera_move().map(|m| (m.to, m.start, m.frames)), Some(([4.0, 2.0, 0.0], 10, 4)));
    s.seek(45);
    let t = 25.0 / 100.0;
    assert_eq!(s.camera().position, [4.0 + (0.0 - 4.0) * t, 2.0 + (0.0 - 2.0) * t, 0.0]);
    s.seek(75);
    assert_eq!(s.camera(), Camera { position: [2.0, 1.0, 0.0], direction: [1.0, 0.0, 0.0] });
    assert_eq!(s.stage().camera_move(), None);
    s.seek(90);
    assert_eq!(s.camera().position, [2.0, 1.0, 0.0]);
    assert_eq!(
        s.errors()[0].to_string(),
        "frame 80: 4:1: `camera move 0 0 0 over 0`: a move takes a whole number of frames in 1..=16777215"
    );
}
