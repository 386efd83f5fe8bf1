//! A C program (`tests/c/trace.c`) plays a sprite batch and a SLAP scene
//! through libanimkit and prints `animvm --trace`'s lines: its output must
//! equal `animvm --trace`'s byte for byte, linked statically, dynamically
//! and (where `cc` has them) under AddressSanitizer and UBSan.

use crate::common;

use common::{Link, build_c, bundle, first_difference, run_ok, sanitizers_work, tool};
use std::path::Path;
use std::process::Command;

/// (state, ticks, tick at which the C side saves, frees and restores the
/// batch): every state of `examples/hero.anim`, through its transitions,
/// waits, ping-pong and events at a loop's end.
const SPRITE_RUNS: &[(&str, u32, Option<u32>)] = &[
    ("Idle", 130, Some(61)),
    ("Walk", 60, None),
    ("Run", 50, Some(24)),
    ("Jump", 40, Some(5)),
    ("Fall", 20, None),
    ("Land", 40, Some(3)),
    ("Attack", 40, Some(7)),
    ("Hurt", 30, None),
    ("Death", 60, Some(30)),
];

fn compare_sprites(c: &Path, hero: &Path) {
    for &(state, ticks, snapshot_at) in SPRITE_RUNS {
        let mut ours = Command::new(c);
        ours.arg("sprite").arg(hero).arg(state).arg(ticks.to_string());
        if let Some(t) = snapshot_at {
            ours.arg(t.to_string());
        }
        let ours = run_ok(&mut ours);
        let theirs = run_ok(
            Command::new(tool("animvm")).args(["--trace", "--state", state, "--ticks", &ticks.to_string()]).arg(hero),
        );
        assert_eq!(theirs.iter().filter(|&&b| b == b'\n').count(), ticks as usize);
        assert!(ours == theirs, "state {state}: {}", first_difference(&ours, &theirs));
    }
}

fn compare_scenes(c: &Path, story: &Path, two: &Path) {
    let ours = run_ok(Command::new(c).arg("slap").arg(story));
    let theirs = run_ok(Command::new(tool("animvm")).arg("--trace").arg(story));
    assert_eq!(String::from_utf8_lossy(&theirs).lines().count(), 1201, "story.slap: frames 0 to 1200");
    assert!(ours == theirs, "story.slap: {}", first_difference(&ours, &theirs));
    let ours = run_ok(Command::new(c).arg("slap").arg(two).arg("75"));
    let theirs = run_ok(Command::new(tool("animvm")).args(["--trace", "--frames", "75"]).arg(two));
    assert!(ours == theirs, "two_actors.slap: {}", first_difference(&ours, &theirs));
}

#[test]
fn the_c_trace_equals_animvm_trace() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let (hero, story, two) =
        (bundle(dir.path(), "hero.anim"), bundle(dir.path(), "story.slap"), bundle(dir.path(), "two_actors.slap"));
    // The first lines, written out: the comparison compares something.
    let c = build_c(dir.path(), "trace.c", Link::Static);
    let walk = run_ok(Command::new(&c).arg("sprite").arg(&hero).args(["Walk", "7"]));
    assert_eq!(
        String::from_utf8_lossy(&walk),
        "{\"tick\":0,\"state\":\"Walk\",\"category\":\"Walk\",\"frame\":0,\"events\":[\"step\"]}\n\
         {\"tick\":1,\"state\":\"Walk\",\"category\":\"Walk\",\"frame\":0,\"events\":[]}\n\
         {\"tick\":2,\"state\":\"Walk\",\"category\":\"Walk\",\"frame\":0,\"events\":[]}\n\
         {\"tick\":3,\"state\":\"Walk\",\"category\":\"Walk\",\"frame\":0,\"events\":[]}\n\
         {\"tick\":4,\"state\":\"Walk\",\"category\":\"Walk\",\"frame\":0,\"events\":[]}\n\
         {\"tick\":5,\"state\":\"Walk\",\"category\":\"Walk\",\"frame\":0,\"events\":[]}\n\
         {\"tick\":6,\"state\":\"Walk\",\"category\":\"Walk\",\"frame\":1,\"events\":[]}\n"
    );
    compare_sprites(&c, &hero);
    compare_scenes(&c, &story, &two);
    // The same program against the shared library.
    let c = build_c(dir.path(), "trace.c", Link::Dynamic);
    compare_sprites(&c, &hero);
    compare_scenes(&c, &story, &two);
}

#[test]
fn the_c_trace_under_sanitizers() {
    let dir = tempfile::tempdir().expect("a temp dir");
    if let Err(why) = sanitizers_work(dir.path()) {
        println!("skipped: {why}");
        return;
    }
    let (hero, story, two) =
        (bundle(dir.path(), "hero.anim"), bundle(dir.path(), "story.slap"), bundle(dir.path(), "two_actors.slap"));
    let c = build_c(dir.path(), "trace.c", Link::Sanitized);
    compare_sprites(&c, &hero);
    compare_scenes(&c, &story, &two);
}

/// The C number writer (`tests/c/json.h`) against serde_json's, on the
/// edges of its layouts.
#[test]
fn the_c_numbers_equal_serde_json() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let c = build_c(dir.path(), "trace.c", Link::Static);
    let (args, theirs) = common::numbers_and_serde_json();
    let ours = String::from_utf8(run_ok(Command::new(&c).arg("numbers").args(&args))).expect("UTF-8");
    assert_eq!(ours, theirs);
}
