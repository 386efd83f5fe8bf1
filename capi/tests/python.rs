//! The Python binding (`python/animkit.py`, ctypes over libanimkit.so),
//! end to end: `python/trace.py` prints `animvm --trace`'s lines for a
//! sprite batch (saved and restored midway) and a SLAP scene, byte for
//! byte; `python/check.py` gets the library's errors as exceptions.
//! Skipped, with a note, where there is no `python3`.

use crate::common;

use common::{bundle, capi_dir, cdylib_dir, first_difference, run_ok, tool};
use std::process::Command;

fn python() -> Option<Command> {
    let ok = Command::new("python3").arg("--version").output().is_ok_and(|o| o.status.success());
    if !ok {
        println!("skipped: no python3 here");
        return None;
    }
    let mut cmd = Command::new("python3");
    cmd.env("ANIMKIT_LIB", cdylib_dir().join("libanimkit.so")).env("PYTHONDONTWRITEBYTECODE", "1");
    Some(cmd)
}

#[test]
fn the_python_trace_equals_animvm_trace() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let (hero, story) = (bundle(dir.path(), "hero.anim"), bundle(dir.path(), "story.slap"));
    let script = capi_dir().join("python/trace.py");
    for (state, ticks, snapshot_at) in [("Idle", 130, 61), ("Walk", 60, 13), ("Jump", 40, 5), ("Death", 60, 30)] {
        let Some(mut py) = python() else { return };
        let ours = run_ok(py.arg(&script).arg("sprite").arg(&hero).args([
            state,
            &ticks.to_string(),
            &snapshot_at.to_string(),
        ]));
        let theirs = run_ok(
            Command::new(tool("animvm")).args(["--trace", "--state", state, "--ticks", &ticks.to_string()]).arg(&hero),
        );
        assert!(ours == theirs, "state {state}: {}", first_difference(&ours, &theirs));
    }
    let Some(mut py) = python() else { return };
    let ours = run_ok(py.arg(&script).arg("slap").arg(&story));
    let theirs = run_ok(Command::new(tool("animvm")).arg("--trace").arg(&story));
    assert_eq!(String::from_utf8_lossy(&ours).lines().count(), 1201);
    assert!(ours == theirs, "story.slap: {}", first_difference(&ours, &theirs));
}

#[test]
fn the_python_numbers_equal_serde_json() {
    let Some(mut py) = python() else { return };
    let (args, theirs) = common::numbers_and_serde_json();
    let ours = String::from_utf8(run_ok(py.arg(capi_dir().join("python/trace.py")).arg("numbers").args(&args)))
        .expect("UTF-8");
    assert_eq!(ours, theirs);
}

#[test]
fn python_gets_the_errors_as_exceptions() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let hero = common::stripped_bundle(dir.path(), &common::repo_dir().join("examples/hero.anim"));
    let Some(mut py) = python() else { return };
    let out = String::from_utf8(run_ok(py.arg(capi_dir().join("python/check.py")).arg(&hero))).expect("UTF-8");
    let size = std::fs::metadata(&hero).expect("the bundle").len();
    assert_eq!(
        out,
        format!(
            "not a bundle: animkit_bundle_open: not an animkit bundle (the file does not start with the ANIMB magic bytes)\n\
         corrupt bundle: animkit_bundle_open: truncated bundle: expected {size} bytes, found {}\n\
         modules: [('hero', 0)]\n\
         no such module: animkit_bundle_sprite: no module named `hera` in the bundle; did you mean `hero`?\n\
         unknown state: animkit_sprite_state: no state named `walk` in sprite module `hero`; did you mean `Walk`?\n\
         after 1000003 ticks: frames [3, 0, 0] events 65536 dropped 267800\n\
         Jump by name: Jump 0 1\n\
         index out of range: animkit_batch_frame: instance 3 is past the end of the batch (3 instances)\n\
         invalid snapshot: animkit_batch_restore: the snapshot is cut short\n\
         snapshot of 59 bytes restored\n\
         reloaded: fell back 0, clamped 0, dropped 0, vanished 0, frame kept True\n\
         unknown state: animkit_batch_reload: state 99 is past the 9 states of sprite module `hero`\n\
         null pointer: animkit_batch_reload: `sprite` is NULL\n",
            size - 1
        )
    );
}
