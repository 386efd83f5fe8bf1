//! The SLAP reference evaluator (`tests/reference/slap.rs`) itself: fixed
//! scenes against hand-computed expectations (the spec's scene, rounding
//! of times, stable ordering, closed-form motion and re-anchoring, pose
//! phases, the camera forms, defines), and as properties against the
//! checker (`animkit_compiler::slap::front`): on random valid scenes
//! (`tests/common/slap_scenes.rs`) both accept, and the reference's
//! timeline is the checker's IR command for command, value for value (bit
//! for bit), with the same length and warnings; on scenes with a mistake
//! put in, both accept or both refuse.
//!
//! Cases per property: 256 by default (`PROPTEST_CASES`).

// Scripts define PI as the spec's examples do (3.1416, 3.14159265358979).
#![allow(clippy::approx_constant)]

use crate::common;
use crate::common::slap_scenes as scenes;
use crate::reference::slap as reference;

use animkit_compiler::slap::ir::{ActorAttr, CameraAttr, Command};
use common::equivalence::{config, first_difference};
use proptest::prelude::*;
use reference::{RefActorState, RefCamera, RefCommand, RefFrame, evaluate, trace};

/// One timeline entry, comparable bit for bit: frame, what, id, values.
type Entry = (u64, &'static str, Option<u64>, Vec<u64>);

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

fn reference_timeline(scene: &reference::RefScene) -> Vec<Entry> {
    scene
        .timeline
        .iter()
        .map(|t| {
            let what = match t.command {
                RefCommand::Action { .. } => "action",
                RefCommand::Direction { .. } => "direction",
                RefCommand::Position2 { .. } => "position2",
                RefCommand::Position3 { .. } => "position3",
                RefCommand::Color { .. } => "color",
                RefCommand::Size { .. } => "size",
                RefCommand::CameraPosition(_) => "camera position",
                RefCommand::CameraVector(_) => "camera vector",
                RefCommand::CameraAngles { .. } => "camera angles",
                RefCommand::CameraLookAt(_) => "camera lookat",
                RefCommand::CameraFollow { .. } => "camera follow",
                RefCommand::CameraMove { .. } => "camera move",
            };
            (t.frame, what, t.command.id().map(f64::to_bits), bits(&t.command.values()))
        })
        .collect()
}

fn checker_timeline(ir: &animkit_compiler::slap::ir::SceneIr) -> Vec<Entry> {
    ir.commands
        .iter()
        .map(|c| {
            let (what, id, args) = match &c.command {
                Command::Actor { id, attr, args } => {
                    let what = match attr {
                        ActorAttr::Action => "action",
                        ActorAttr::Direction => "direction",
                        ActorAttr::Position2 => "position2",
                        ActorAttr::Position3 => "position3",
                        ActorAttr::Color => "color",
                        ActorAttr::Size => "size",
                    };
                    (what, Some(id.value.to_bits()), args)
                }
                Command::Camera { attr, args } => {
                    let what = match attr {
                        CameraAttr::Position => "camera position",
                        CameraAttr::DirectionVector => "camera vector",
                        CameraAttr::DirectionAngles => "camera angles",
                        CameraAttr::LookAt => "camera lookat",
                        CameraAttr::Follow => "camera follow",
                        CameraAttr::Move => "camera move",
                    };
                    (what, None, args)
                }
            };
            (u64::from(c.frame), what, id, args.iter().map(|v| v.value.to_bits()).collect())
        })
        .collect()
}

fn line_of(src: &str, offset: usize) -> usize {
    1 + src[..offset].matches('\n').count()
}

/// The reference and the checker agree on `src`: both accept it with the
/// same timeline, length and warnings, or both refuse it.
fn agree(src: &str) -> Result<(), TestCaseError> {
    let checked = animkit_compiler::slap::front(src);
    let reference = evaluate(src);
    let (checked, reference) = match (checked, reference) {
        (Ok(c), Ok(r)) => (c, r),
        (Err(_), Err(_)) => return Ok(()),
        (Ok(_), Err(e)) => {
            return Err(TestCaseError::fail(format!("the checker accepts, the reference says {e}\n{src}")));
        }
        (Err(d), Ok(_)) => {
            let shown = animkit_compiler::diagnostic::render("t.slap", src, &d);
            return Err(TestCaseError::fail(format!("the reference accepts, the checker says\n{shown}\n{src}")));
        }
    };
    let want = reference_timeline(&reference);
    let got = checker_timeline(&checked.ir);
    if let Some(d) =
        first_difference(&got, &want, "command", ("checker", "reference"), |e| format!("{e:?}"), |a, b| a == b)
    {
        return Err(TestCaseError::fail(format!("{d}\n{src}")));
    }
    prop_assert_eq!(u64::from(checked.ir.length), reference.length, "length\n{}", src);
    let warned: Vec<usize> = checked.warnings.iter().map(|w| line_of(src, w.span.start)).collect();
    prop_assert_eq!(warned, reference.warnings, "warnings\n{}", src);
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn scenes_are_valid_and_evaluate_as_the_checker_does(src in scenes::scene(30)) {
        if let Err(d) = animkit_compiler::slap::front(&src) {
            let shown = animkit_compiler::diagnostic::render("t.slap", &src, &d);
            return Err(TestCaseError::fail(format!("a generated scene does not check:\n{shown}\n{src}")));
        }
        agree(&src)?;
    }

    #[test]
    fn the_reference_and_the_checker_refuse_the_same_scenes(src in scenes::scene_with_mistake(12)) {
        agree(&src)?;
    }
}

// ---- fixed scenes, by hand -----------------------------------------------

fn frames(src: &str, last: u64) -> Vec<RefFrame> {
    let scene = evaluate(src).unwrap_or_else(|e| panic!("{e}\n{src}"));
    trace(&scene, last).0
}

fn actor(frame: &RefFrame, id: u32) -> RefActorState {
    *frame.actors.iter().find(|a| a.id == id).unwrap_or_else(|| panic!("no actor {id} at frame {}", frame.frame))
}

const SPEC_SCENE: &str = "\
define idle 0 # this describes the idle action
define scamper 1
define swagger 2
define broadjump 3
define prowl 4
define lumber 5
define dejected 6
define no 7
define yes 8
define hotfeet 9
define sprint 10
define hop 11
define PI 3.1416
time 0
define red 1 0 0
define green 0 1 0
actor 1 position 0 0 # in the middle
actor 1 color red
actor 1 size .9 # the larger actor
actor 1 action idle
actor 2 position 2 0 # to the right by 2 units
actor 2 color green
actor 2 size .6 # the smaller actor
actor 2 action idle
time +500 # 500 frames later
actor 1 direction PI/4 # 45 degrees
actor 1 action swagger # start walking
time +1000
actor 1 action idle
";

#[test]
fn the_spec_scene() {
    let scene = evaluate(SPEC_SCENE).unwrap();
    assert_eq!(scene.length, 1500);
    assert!(scene.warnings.is_empty());
    let f = frames(SPEC_SCENE, 1600);
    assert_eq!(f.len(), 1601);
    // Frame 0: both actors as set up, the default camera.
    let a1 = actor(&f[0], 1);
    assert_eq!((a1.position, a1.color, a1.size, a1.action, a1.direction), ([0.0; 3], [1.0, 0.0, 0.0], 0.9, 0, 0.0));
    let a2 = actor(&f[0], 2);
    assert_eq!((a2.position, a2.color, a2.size), ([2.0, 0.0, 0.0], [0.0, 1.0, 0.0], 0.6));
    assert_eq!(f[0].camera, RefCamera { position: [0.0, 2.0, 8.0], direction: [0.0, -1.0, -4.0] });
    // Idle until 500; then 1000 frames of swagger at 1/32 * 0.9 along PI/4.
    assert_eq!(actor(&f[500], 1).position, [0.0; 3]);
    let k = 1.0 / 32.0 * 0.9;
    let h = 3.1416f64 / 4.0;
    let (vx, vz) = (k * h.sin(), k * h.cos());
    for n in [1u32, 7, 500, 999, 1000] {
        let at = actor(&f[500 + n as usize], 1).position;
        assert_eq!(at, [0.0 + f64::from(n) * vx, 0.0, 0.0 + f64::from(n) * vz], "frame {}", 500 + n);
    }
    // Stopped at 1500, for good.
    let stop = [1000.0 * vx, 0.0, 1000.0 * vz];
    assert!((stop[0] - 19.8874).abs() < 1e-3 && (stop[2] - 19.8874).abs() < 1e-3, "{stop:?}");
    for frame in &f[1500..] {
        assert_eq!(actor(frame, 1).position, stop);
        assert_eq!(actor(frame, 1).action, 0);
    }
    // Pose phases: idle's 90-frame cycle from frame 0, swagger's 32 from
    // 500, idle again from 1500.
    assert_eq!(actor(&f[95], 2).phase, 5);
    assert_eq!(actor(&f[600], 1).phase, 100 % 32);
    assert_eq!(actor(&f[1600], 1).phase, 10);
    assert_eq!(actor(&f[1600], 2).phase, 1600 % 90);
    assert!(f.iter().all(|fr| fr.actors.len() == 2 && fr.actors[0].id == 1));
}

#[test]
fn times_round_to_the_nearest_frame_and_relative_times_add_to_the_last_value() {
    let src = "time 0.4\nactor 1 size 1\ntime +0.4\nactor 2 size 1\ntimep 0.4\nactor 3 size 1\ntime 2.5\nactor 4 size 1\n\
               define sec 25\ntimep sec/2\nactor 5 size 1\n";
    let scene = evaluate(src).unwrap();
    let at: Vec<(u64, Option<f64>)> = scene.timeline.iter().map(|t| (t.frame, t.command.id())).collect();
    assert_eq!(at, [(0, Some(1.0)), (1, Some(2.0)), (1, Some(3.0)), (3, Some(4.0)), (15, Some(5.0))]);
    assert_eq!(scene.length, 15);
    // Before any time: frame 0; a time without commands still sets the length.
    let scene = evaluate("actor 1 size 2\ntime 10\n").unwrap();
    assert_eq!((scene.timeline[0].frame, scene.length), (0, 10));
}

#[test]
fn absolute_times_may_go_back_and_the_timeline_is_ordered_stably() {
    let src = "time 500\nactor 1 action 2\ntime 10\nactor 1 action 0\nactor 2 size 2\ntime 10\nactor 3 size 1\n";
    let scene = evaluate(src).unwrap();
    assert_eq!(scene.warnings, [3], "the second `time 10` is not earlier");
    let order: Vec<(u64, usize)> = scene.timeline.iter().map(|t| (t.frame, t.line)).collect();
    assert_eq!(order, [(10, 4), (10, 5), (10, 7), (500, 2)]);
    assert_eq!(scene.length, 500);
    let f = frames(src, 510);
    assert!(f[9].actors.is_empty(), "nobody before frame 10");
    assert_eq!(f[10].actors.iter().map(|a| a.id).collect::<Vec<_>>(), [1, 2, 3]);
    // Idle from frame 10 (first mention), swagger from 500.
    assert_eq!(actor(&f[499], 1).phase, 489 % 90);
    assert_eq!(actor(&f[500], 1).phase, 0);
    assert_eq!(actor(&f[510], 1).position, [0.0, 0.0, 10.0 / 32.0]);
}

#[test]
fn motion_is_closed_form_from_each_anchor() {
    let src = "\
define PI 3.14159265358979
define swagger 2
actor 1 position 1 0.5 -2
actor 1 size 2
actor 1 action swagger
time 500
actor 1 direction PI
time 600
actor 1 position 5 5
time 620
actor 1 action swagger
time 640
actor 1 size 2
time 700
actor 1 action 10
time 710
actor 1 color 0.5 0.5 0.5
";
    let (f, errors) = {
        let scene = evaluate(src).unwrap();
        trace(&scene, 720)
    };
    let k = 1.0 / 32.0 * 2.0;
    // 500 frames of swagger at size 2 along +z: exactly 31.25 units.
    for n in [0u32, 1, 250, 500] {
        assert_eq!(actor(&f[n as usize], 1).position, [1.0 + f64::from(n) * 0.0, 0.5, -2.0 + f64::from(n) * k]);
    }
    assert_eq!(actor(&f[500], 1).position, [1.0, 0.5, 29.25]);
    // Turned to PI at 500: motion goes on from there, towards -z.
    let h = 3.14159265358979f64;
    let (vx, vz) = (k * h.sin(), k * h.cos());
    assert_eq!(vz, -k);
    assert_eq!(actor(&f[599], 1).position, [1.0 + 99.0 * vx, 0.5, 29.25 + 99.0 * vz]);
    // `position x z` teleports, keeps y, and the motion goes on.
    assert_eq!(actor(&f[600], 1).position, [5.0, 0.5, 5.0]);
    assert_eq!(actor(&f[610], 1).position, [5.0 + 10.0 * vx, 0.5, 5.0 - 0.625]);
    // The same action again re-anchors at 620 but keeps the pose cycle;
    // the same size again re-anchors at 640.
    let a620 = [5.0 + 20.0 * vx, 0.5, 5.0 + 20.0 * vz];
    assert_eq!(actor(&f[620], 1).position, a620);
    assert_eq!(actor(&f[620], 1).phase, 620 % 32);
    let a640 = [a620[0] + 20.0 * vx, 0.5, a620[2] + 20.0 * vz];
    assert_eq!(actor(&f[640], 1).position, a640);
    assert!(errors.is_empty());
    assert!(f[720].actors.iter().all(|a| a.id == 1));
    assert_eq!(actor(&f[699], 1).size, 2.0);
    // A new action at 700 (sprint, 1/8 at size 2) restarts the cycle.
    let a700 = [a640[0] + 60.0 * vx, 0.5, a640[2] + 60.0 * vz];
    assert_eq!(actor(&f[700], 1).position, a700);
    assert_eq!(actor(&f[705], 1).phase, 5);
    let s = 1.0 / 8.0 * 2.0;
    assert_eq!(actor(&f[720], 1).position, [a700[0] + 20.0 * (s * h.sin()), 0.5, a700[2] + 20.0 * (s * h.cos())]);
    assert_eq!(actor(&f[720], 1).phase, 20 % 14);
    // `color` does not re-anchor: the same closed form before and after.
    assert_eq!(actor(&f[710], 1).color, [0.5; 3]);
    assert_eq!(actor(&f[715], 1).position, [a700[0] + 15.0 * (s * h.sin()), 0.5, a700[2] + 15.0 * (s * h.cos())]);
}

#[test]
fn camera_forms() {
    let src = "define PI 3.1416\ntime 1\ncamera position 1 2 3\ntime 2\ncamera direction 0 0 -2\ntime 3\n\
               camera direction 0 0\ntime 4\ncamera direction PI/2 PI/6\n";
    let f = frames(src, 4);
    assert_eq!(f[0].camera, RefCamera { position: [0.0, 2.0, 8.0], direction: [0.0, -1.0, -4.0] });
    assert_eq!(f[1].camera.position, [1.0, 2.0, 3.0]);
    assert_eq!(f[2].camera.direction, [0.0, 0.0, -2.0], "a vector as given");
    assert_eq!(f[3].camera.direction, [0.0, 0.0, -1.0], "yaw 0, pitch 0 looks along -z");
    let (yaw, pitch) = (3.1416f64 / 2.0, 3.1416f64 / 6.0);
    assert_eq!(f[4].camera.direction, [yaw.sin() * pitch.cos(), pitch.sin(), -yaw.cos() * pitch.cos()]);
    assert!((f[4].camera.direction[0] - 0.866).abs() < 1e-3 && (f[4].camera.direction[1] - 0.5).abs() < 1e-3);
    assert_eq!(f[4].camera.position, [1.0, 2.0, 3.0]);
}

#[test]
fn camera_lookat_and_follow() {
    // Actor 1 sprints (1/8 a frame) along +z from frame 0; the camera
    // follows it from frame 1, 6 behind and 2 above, by default; at frame 3
    // actor 1 turns to PI/2 (+x); at frame 5 a look-at freezes the follow.
    let src = "define PI 3.141592653589793\nactor 1 action 10\ntime 1\ncamera follow 1\ntime 3\n\
               actor 1 direction PI/2\ntime 5\ncamera lookat 0 0 0\ntime 6\ncamera follow 1 -2 0.5\n";
    let f = frames(src, 7);
    assert_eq!(f[0].camera, RefCamera { position: [0.0, 2.0, 8.0], direction: [0.0, -1.0, -4.0] });
    assert_eq!(f[1].camera, RefCamera { position: [0.0, 2.0, 0.125 - 6.0], direction: [0.0, -2.0, 6.0] });
    assert_eq!(f[2].camera, RefCamera { position: [0.0, 2.0, 0.25 - 6.0], direction: [0.0, -2.0, 6.0] });
    let (s, c) = (std::f64::consts::FRAC_PI_2.sin(), std::f64::consts::FRAC_PI_2.cos());
    // At 3 the actor is at (0, 0, 0.375), facing +x.
    assert_eq!(f[3].camera.position, [0.0 - 6.0 * s, 2.0, 0.375 - 6.0 * c]);
    assert_eq!(f[3].camera.direction, [6.0 * s, -2.0, 6.0 * c]);
    // At 5 the actor is at (0.25, 0, 0.375): the camera stays where the
    // follow had it, looking at the origin.
    let at5 = [0.25 - 6.0 * s, 2.0, 0.375 - 6.0 * c];
    assert_eq!(f[5].camera, RefCamera { position: at5, direction: [-at5[0], -2.0, -at5[2]] });
    // A negative distance stands in front of the actor, looking back at it.
    for k in [6, 7] {
        let p = f[k].actors[0].position;
        assert_eq!(f[k].camera.position, [p[0] - -2.0 * s, p[1] + 0.5, p[2] - -2.0 * c], "frame {k}");
    }
    assert_eq!(f[7].actors[0].position[0], 0.5);
    assert_eq!(f[7].camera.direction, [-2.0 * s, -0.5, -2.0 * c]);
    // The evaluator's timeline checks: an actor not yet on the stage, a
    // look-at from the point itself (known positions only).
    assert!(
        evaluate(
            "camera follow 1
time 1
actor 1 size 1
"
        )
        .is_err()
    );
    assert!(
        evaluate(
            "time 1
camera follow 1
time 0
actor 1 size 1
"
        )
        .is_ok()
    );
    assert!(
        evaluate(
            "camera lookat 0 2 8
"
        )
        .is_err()
    );
    assert!(
        evaluate(
            "actor 1 size 1
camera follow 1
camera lookat 0 2 -6
"
        )
        .is_ok()
    );
}

#[test]
fn defines_are_evaluated_when_read() {
    let src = "\
define PI 3.1416
define halfpi PI/2
define left -halfpi
define PI 4
actor 1 direction left
define red 1 0 0
define pale red
actor 1 color pale
define color 5
actor 2 color color color color
define x 1
define x x+1
actor 3 size x
define p 1 2
actor 4 position p
define p 1 2 3
actor 4 position p
define mommy 7
actor mommy size (0.5 + 0.25)*2
define ids 1 2
actor (mommy - 7) action (1 + 1)
";
    let scene = evaluate(src).unwrap();
    let t: Vec<(Option<f64>, Vec<f64>)> = scene.timeline.iter().map(|t| (t.command.id(), t.command.values())).collect();
    assert_eq!(
        t,
        [
            (Some(1.0), vec![-(3.1416 / 2.0)]),
            (Some(1.0), vec![1.0, 0.0, 0.0]),
            (Some(2.0), vec![5.0, 5.0, 5.0]),
            (Some(3.0), vec![2.0]),
            (Some(4.0), vec![1.0, 2.0]),
            (Some(4.0), vec![1.0, 2.0, 3.0]),
            (Some(7.0), vec![1.5]),
            (Some(0.0), vec![2.0]),
        ]
    );
    assert!(matches!(scene.timeline[4].command, RefCommand::Position2 { .. }));
    assert!(matches!(scene.timeline[5].command, RefCommand::Position3 { .. }));
}

#[test]
fn the_reference_refuses_what_the_docs_call_errors() {
    for src in [
        "actor 1 size nosuch\n",
        "actor 1 size 1/0\n",
        "define red 1 0 0\nactor 1 size red*2\n",
        "define red 1 0 0\nactor 1 size red\n",
        "actor 1 action 2.5\n",
        "actor 1 action 12\n",
        "actor 1.5 size 1\n",
        "actor 4294967296 size 1\n",
        "time 5\ntime +(0 - 1)\n",
        "timep +1\n",
        "time -1\n",
        "time 16777215.5\n",
        "tiem 5\n",
        "actor 1 colour 1 1 1\n",
        "camera direction 0 0 0\n",
        "actor 1 size 1e400\n",
        "actor 1 size 1e300*1e300\n",
        "actor 1 position 1 +2\n",
        "actor 1 size 1 - 2\n",
        "define x\n",
        "actor 1 size 0\n",
        "actor 1 size -0\n",
        "actor 1 size 1-2\n",
        "actor 1 size sqrt(-1)\n",
        "actor 1 size sine(1)\n",
        "actor 1 size atan2(1)\n",
        "actor 1 size min(1, 2, 3)\n",
        "camera 0 3 10 0 -1\n",
        "camera 0 3 10 0 0 0\n",
        "camera nosuch 0 -1 -3\n",
    ] {
        assert!(evaluate(src).is_err(), "{src}");
    }
    for src in [
        "time 16777215.4\n",
        "actor 4294967295 size 1e-300\n",
        "camera direction 1e-320 0 0\n",
        "actor -0 action -0\n",
        "actor 1 size sqrt(-0)+1\n",
        "define p 0 3 10\ncamera p 0 -1 -3\n",
    ] {
        assert!(evaluate(src).is_ok(), "{src}");
    }
}

#[test]
fn includes_evaluate_as_the_checker_does() {
    use std::collections::HashMap;
    let files: HashMap<String, String> = [
        ("scenes/lib/colours.slap", "include \"../step.slap\"\ndefine red 1 0 x\n"),
        ("scenes/step.slap", "define x x+0.5\ntime +10\nactor 1 position x 0\n"),
    ]
    .iter()
    .map(|(p, t)| (p.to_string(), t.to_string()))
    .collect();
    let src = "include <polly>\ndefine x 0\ninclude \"lib/colours.slap\"\ninclude \"step.slap\"\nactor 1 color red\n\
               actor 1 action swagger\nactor 1 direction PI/2\n";
    let r = reference::evaluate_files(src, "scenes", &files).unwrap();
    let c = animkit_compiler::slap::front_at("scenes/main.slap", src, &Default::default(), &files).unwrap().ir;
    assert_eq!(r.length, u64::from(c.length));
    assert_eq!(r.timeline.len(), c.commands.len());
    for (r, c) in r.timeline.iter().zip(&c.commands) {
        let values: Vec<f64> = match &c.command {
            animkit_compiler::slap::ir::Command::Actor { args, .. }
            | animkit_compiler::slap::ir::Command::Camera { args, .. } => args.iter().map(|a| a.value).collect(),
        };
        assert_eq!((r.frame, r.command.values()), (u64::from(c.frame), values));
    }
    // A cycle is refused by both.
    let cyc: HashMap<String, String> = [("a.slap".to_string(), "include \"a.slap\"\n".to_string())].into();
    assert!(reference::evaluate_files("include \"a.slap\"\n", "", &cyc).is_err());
}

#[test]
fn the_generator_writes_every_camera_form() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let mut seen = [0usize; 5];
    for _ in 0..300 {
        let src = scenes::scene(30).new_tree(&mut runner).unwrap().current();
        for line in src.lines() {
            let words: Vec<&str> = line.split('#').next().unwrap_or("").split_whitespace().collect();
            match words.as_slice() {
                ["camera", "lookat", ..] => seen[0] += 1,
                ["camera", "follow", _] => seen[1] += 1,
                ["camera", "follow", _, _, ..] => seen[2] += 1,
                ["camera", "position" | "direction", ..] => seen[3] += 1,
                ["camera", "move", ..] => seen[4] += 1,
                _ => {}
            }
        }
        agree(&src).unwrap();
    }
    // Look-ats, follows without and with a distance and height, the
    // attribute forms, moves.
    assert!(seen.iter().all(|&n| n >= 10), "{seen:?}");
}
