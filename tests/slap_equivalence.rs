//! SLAP: the reference evaluator (`tests/reference/slap.rs`, from the docs
//! over the AST) equals the VM (`animkit_vm::engine::slap::SceneSim` on the compiled
//! program) frame by frame, bit for bit: every actor's id, action,
//! position, direction, colour and size (each `f64` by its bits), its pose
//! (the VM's pose table at the phase the reference computes from the
//! documented cycle lengths), the camera, the scene's length and the
//! runtime errors (frame, message, line). For each scene the VM side is
//! the compiled program as it is, and through bundle bytes with constant
//! folding on and off, with and without debug info (`Options { fold,
//! strip }`); and the formatter round trip (format, recompile) gives the
//! same trace. `animvm --trace`'s lines (`animkit_runtime::slap::trace`)
//! equal the reference's frames written in the JSON form. Scenes
//! come from `tests/common/slap_scenes.rs`; fixed cases
//! are the examples, the spec's scene and hand-computed motion.
//!
//! Cases per property: 256 by default (`PROPTEST_CASES`).

// Scripts define PI as the spec's examples do (3.1416, 3.14159265358979).
#![allow(clippy::approx_constant)]

use crate::common;
use crate::common::slap_scenes as scenes;
use crate::reference::slap as reference;

use animkit_compiler::{Options, Source, compile};
use animkit_vm::engine::program::Program;
use animkit_vm::engine::slap::{Action, Pose, SceneSim};
use common::equivalence::{config, first_difference};
use proptest::prelude::*;
use reference::{RefFrame, RefScene, evaluate, trace};
use std::sync::Arc;

/// What one frame shows, as compared: `Debug` prints every `f64` so that
/// two values print alike exactly when their bits are equal (`-0.0` is not
/// `0.0`), so comparing the printed frames compares bits.
#[derive(Clone, Debug)]
#[allow(dead_code)] // read through `Debug`
struct Seen {
    frame: u64,
    actors: Vec<SeenActor>,
    camera: ([f64; 3], [f64; 3]),
}

#[derive(Clone, Debug)]
#[allow(dead_code)] // read through `Debug`
struct SeenActor {
    id: u32,
    action: u32,
    position: [f64; 3],
    direction: f64,
    color: [f64; 3],
    size: f64,
    pose: Pose,
}

/// A runtime error as compared: its frame, the end of its message, and its
/// line when the bundle kept positions.
type SeenError = (u64, String, Option<u32>);

fn same(a: &Seen, b: &Seen) -> bool {
    format!("{a:?}") == format!("{b:?}")
}

fn from_reference(f: &RefFrame) -> Seen {
    Seen {
        frame: f.frame,
        actors: f
            .actors
            .iter()
            .map(|a| SeenActor {
                id: a.id,
                action: a.action,
                position: a.position,
                direction: a.direction,
                color: a.color,
                size: a.size,
                pose: Action::from_index(a.action).map(|x| x.pose(a.phase)).unwrap_or_default(),
            })
            .collect(),
        camera: (f.camera.position, f.camera.direction),
    }
}

fn from_vm(s: &SceneSim) -> Seen {
    Seen {
        frame: s.frame(),
        actors: s
            .actors()
            .map(|a| SeenActor {
                id: a.id,
                action: a.action as u32,
                position: a.position,
                direction: a.direction,
                color: a.color,
                size: a.size,
                pose: a.pose,
            })
            .collect(),
        camera: (s.camera().position, s.camera().direction),
    }
}

/// The reference's frames `0..=last` and errors.
fn reference_trace(scene: &RefScene, last: u64, lines: bool) -> (Vec<Seen>, Vec<SeenError>) {
    let (frames, errors) = trace(scene, last);
    let errors = errors.iter().map(|e| (e.frame, e.why.to_string(), lines.then_some(e.line as u32))).collect();
    (frames.iter().map(from_reference).collect(), errors)
}

/// The VM's frames `0..=last` and errors, from the scene at frame 0.
fn vm_trace(mut scene: SceneSim, last: u64, lines: bool) -> (Vec<Seen>, Vec<SeenError>) {
    let mut frames = vec![from_vm(&scene)];
    for _ in 0..last {
        scene.step();
        frames.push(from_vm(&scene));
    }
    let errors = scene
        .errors()
        .iter()
        .map(|e| {
            // The message names the command, then says why: compare why.
            let why = e.error.message.rsplit(": ").next().unwrap_or_default().to_string();
            (e.frame, why, if lines { e.error.position.map(|p| p.0) } else { None })
        })
        .collect();
    (frames, errors)
}

fn open(program: Program) -> SceneSim {
    let program = animkit_vm::engine::verify::verify(program)
        .unwrap_or_else(|e| panic!("the compiler emitted an invalid program: {e}"));
    SceneSim::with_index(Arc::new(program), 0).unwrap_or_else(|e| panic!("{e}"))
}

/// The scene of `src` compiled with `options`: as it is, or through bytes.
fn compiled(src: &str, options: &Options, through_bytes: bool) -> SceneSim {
    let program = compile(&[Source::new("t.slap", src)], options).unwrap_or_else(|e| panic!("{e}\n{src}"));
    if !through_bytes {
        return open(program);
    }
    let bytes = animkit_vm::engine::codec::encode(&program);
    open(
        animkit_vm::engine::codec::load(&bytes)
            .unwrap_or_else(|e| panic!("the bundle does not load: {e}\n{src}"))
            .into_inner(),
    )
}

/// `v` as the trace format writes a number: a plain JSON number,
/// `null` for what JSON cannot hold.
fn json(v: f64) -> String {
    serde_json::to_string(&v).unwrap_or_default()
}

fn json3(v: &[f64; 3]) -> String {
    format!("[{},{},{}]", json(v[0]), json(v[1]), json(v[2]))
}

/// The reference's frame as a trace line (issue 14: `{"frame":0,"actors":
/// [{"id":1,"action":0,"position":[x,y,z],"direction":d,"color":[r,g,b],
/// "size":s}],"camera":{"position":[x,y,z],"direction":[x,y,z]}}`).
fn reference_line(f: &RefFrame) -> String {
    let actors: Vec<String> = f
        .actors
        .iter()
        .map(|a| {
            format!(
                "{{\"id\":{},\"action\":{},\"position\":{},\"direction\":{},\"color\":{},\"size\":{}}}",
                a.id,
                a.action,
                json3(&a.position),
                json(a.direction),
                json3(&a.color),
                json(a.size)
            )
        })
        .collect();
    format!(
        "{{\"frame\":{},\"actors\":[{}],\"camera\":{{\"position\":{},\"direction\":{}}}}}",
        f.frame,
        actors.join(","),
        json3(&f.camera.position),
        json3(&f.camera.direction)
    )
}

/// `animvm --trace`'s lines (`animkit_runtime::slap::trace`) for frames
/// `0..=last` of `src` equal the reference's frames written as the issue
/// says; the first difference otherwise.
fn trace_matches(src: &str, scene: &RefScene, last: u64) -> Result<(), String> {
    let vm = compiled(src, &Options::default(), true);
    let (mut out, mut errors) = (Vec::new(), Vec::new());
    animkit_runtime::slap::trace::run(vm, Some(last + 1), &mut out, &mut errors).map_err(|e| e.report())?;
    let got: Vec<String> = String::from_utf8_lossy(&out).lines().map(str::to_string).collect();
    let want: Vec<String> = trace(scene, last).0.iter().map(reference_line).collect();
    match first_difference(&got, &want, "trace line", ("animvm --trace", "reference"), String::clone, |a, b| a == b) {
        Some(d) => Err(format!("{d}\n{src}")),
        None => Ok(()),
    }
}

/// The ways a scene reaches the VM.
const WAYS: [(Options, bool); 5] = [
    (Options { strip: false, fold: true, strict: false }, false),
    (Options { strip: false, fold: true, strict: false }, true),
    (Options { strip: false, fold: false, strict: false }, true),
    (Options { strip: true, fold: true, strict: false }, true),
    (Options { strip: true, fold: false, strict: false }, true),
];

/// The reference and the VM agree on `src` every way, and on its
/// formatted text; the first difference otherwise.
fn equivalent(src: &str) -> Result<(), String> {
    let scene = evaluate(src).map_err(|e| format!("the reference refuses a valid scene: {e}\n{src}"))?;
    let last = scene.length + 5;
    let mut texts = vec![("as written", src.to_string())];
    if let Ok(formatted) = animkit_compiler::driver::format_source(&Source::new("t.slap", src)) {
        texts.push(("formatted", formatted));
    } else {
        return Err(format!("the formatter refuses a valid scene\n{src}"));
    }
    trace_matches(src, &scene, last)?;
    for (which, text) in &texts {
        // Formatting may join blank lines: error lines are compared for
        // the text as written only.
        let lines_kept = *which == "as written";
        for (options, through_bytes) in &WAYS {
            let lines = lines_kept && !options.strip;
            let (want, want_errors) = reference_trace(&scene, last, lines);
            let vm = compiled(text, options, *through_bytes);
            if vm.length() != scene.length {
                return Err(format!(
                    "length: vm {}, reference {} ({which}, {options:?})\n{text}",
                    vm.length(),
                    scene.length
                ));
            }
            let (got, got_errors) = vm_trace(vm, last, lines);
            let way = format!("{which}, {options:?}, {}", if *through_bytes { "through bytes" } else { "in memory" });
            if let Some(d) = first_difference(&got, &want, "frame", ("vm", "reference"), |f| format!("{f:?}"), same) {
                return Err(format!("{way}: {d}\n{text}"));
            }
            if got_errors != want_errors {
                return Err(format!(
                    "{way}: runtime errors\n  vm:        {got_errors:?}\n  reference: {want_errors:?}\n{text}"
                ));
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn the_vm_plays_every_scene_as_the_reference_does(src in scenes::scene(30)) {
        equivalent(&src).map_err(TestCaseError::fail)?;
    }
}

// ---- fixed scenes --------------------------------------------------------

fn assert_equivalent(src: &str) {
    if let Err(e) = equivalent(src) {
        panic!("{e}");
    }
}

#[test]
fn the_examples() {
    for name in ["two_actors", "story"] {
        assert_equivalent(&std::fs::read_to_string(common::path(format!("examples/{name}.slap"))).unwrap());
    }
}

#[test]
fn the_spec_scene() {
    let src = "define PI 3.1416\ndefine idle 0\ndefine swagger 2\ntime 0\ndefine red 1 0 0\ndefine green 0 1 0\n\
               actor 1 position 0 0\nactor 1 color red\nactor 1 size .9\nactor 1 action idle\n\
               actor 2 position 2 0\nactor 2 color green\nactor 2 size .6\nactor 2 action idle\n\
               time +500\nactor 1 direction PI/4\nactor 1 action swagger\ntime +1000\nactor 1 action idle\n";
    assert_equivalent(src);
}

#[test]
fn a_500_frame_swagger_ends_where_arithmetic_says() {
    // Swagger at 1/32 a frame times size 2, heading PI/2 (+x): 500 frames
    // from (1, 0.5, -2) are 31.25 units, so x = 1 + 500 * (1/16 * sin h).
    let src = "define PI 3.14159265358979\ndefine swagger 2\nactor 1 position 1 0.5 -2\nactor 1 size 2\n\
               actor 1 direction PI/2\ntime 10\nactor 1 action swagger\ntime +500\nactor 1 action 0\n";
    assert_equivalent(src);
    let program = compile(&[Source::new("t.slap", src)], &Options::default()).unwrap();
    let mut vm = open(program);
    vm.seek(600);
    let h = 3.14159265358979f64 / 2.0;
    let k = 1.0 / 32.0 * 2.0;
    let at = vm.actor(1).unwrap().position;
    assert_eq!(at, [1.0 + 500.0 * (k * h.sin()), 0.5, -2.0 + 500.0 * (k * h.cos())]);
    assert_eq!(at[0], 32.25);
}

#[test]
fn negative_zero_and_re_anchoring_at_one_frame() {
    // A coordinate of -0, re-anchored at the same frame with a velocity of
    // +0: -0 + 0 * 0 is +0 by the documented formula.
    assert_equivalent("actor 1 position -0 -0 -0\nactor 1 action 0\nactor 1 direction -0\ntime 3\nactor 1 size 2\n");
    assert_equivalent("actor 1 position -0 1\nactor 1 direction -1\nactor 1 action 2\nactor 1 action 2\ntime 1\n");
}

#[test]
fn sizes_at_or_below_zero_are_refused_by_both() {
    for src in ["actor 9 size 0\n", "actor 1 size -0\n", "time 2\nactor 1 size 1-2\n", "define s 0\nactor 1 size s*3\n"]
    {
        assert!(reference::evaluate(src).is_err(), "{src:?}");
        let e = animkit_compiler::slap::front(src).unwrap_err();
        assert!(e[0].message.ends_with("is not above 0"), "{src:?}: {}", e[0].message);
    }
    // A tiny size is fine.
    assert_equivalent("actor 1 size 1e-300\nactor 1 action 1\ntime +3\n");
}

#[test]
fn fractional_and_out_of_order_times() {
    // Halves round away from zero; relative times add to the value of the
    // last time directive, before rounding; an earlier absolute time
    // (a warning) puts its commands back in the timeline, stably.
    assert_equivalent(
        "time 2.5\nactor 1 action 1\ntime 0.4\nactor 2 action 2\ntime +0.4\nactor 2 direction 1\ntimep 0.5\n\
         actor 1 size 2\ntime 20\nactor 1 action 10\ntime 5\nactor 1 direction -1\ntime 20\nactor 1 position 1 2\n\
         time 2.5\nactor 3 color 0 0 0\n",
    );
}

#[test]
fn every_action_over_several_cycles() {
    // 300 frames each: every pose cycle wraps (the longest is 90), and
    // repeating an action keeps its cycle while re-anchoring its motion.
    let mut src = String::from("define PI 3.14159265358979\n");
    for a in 0..12 {
        src.push_str(&format!("actor {a} direction PI*{a}/6\nactor {a} size 0.{}\nactor {a} action {a}\n", a + 1));
    }
    for t in [37, 150, 151, 299] {
        src.push_str(&format!("time {t}\n"));
        for a in 0..12 {
            src.push_str(&format!("actor {a} action {}\n", if t == 150 { (a + 1) % 12 } else { a }));
        }
    }
    src.push_str("time 300\n");
    assert_equivalent(&src);
}

#[test]
fn extreme_values() {
    // The largest id, id 0, huge sizes and coordinates (motion that
    // overflows to infinity), tiny ones, the camera's both forms with
    // angles beyond a turn.
    assert_equivalent(
        "actor 4294967295 position 1e300 -1e300 1e300\nactor 4294967295 size 1e308\nactor 4294967295 action 10\n\
         actor 0 size 1e-300\nactor 0 action 3\nactor 0 direction 1e300\ncamera direction 100 -7\n\
         time 12\ncamera direction 1e-300 0 0\ncamera position -1e308 0 1e308\nactor 4294967295 direction 2\ntime 40\n",
    );
}

#[test]
fn many_actors_and_one_long_wait() {
    // 2000 actors named out of order; a last time point far away with
    // nothing at it (the trailing WAIT): the scene's length.
    let mut src = String::new();
    for i in 0..2000u32 {
        let id = i.wrapping_mul(2_654_435_761) % 100_000;
        src.push_str(&format!("actor {id} action {}\nactor {id} direction {}\n", i % 12, f64::from(i) / 7.0));
    }
    src.push_str("time 3\nactor 5 size 3\ntime 1000\n");
    let scene = evaluate(&src).unwrap();
    assert_eq!(scene.length, 1000);
    assert_equivalent(&src.replace("time 1000\n", "time 9\n"));
    let mut vm = compiled(&src, &Options { strip: false, fold: false, strict: false }, true);
    assert_eq!(vm.length(), 1000);
    vm.seek(1000);
    let (frames, _) = trace(&scene, 1000);
    let want = from_reference(&frames[1000]);
    assert!(same(&from_vm(&vm), &want), "frame 1000 differs");
}
