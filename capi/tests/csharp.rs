//! The C# binding (`csharp/Animkit.cs`, P/Invoke over libanimkit.so), end
//! to end with Mono: `csharp/tests/Trace.cs` prints `animvm --trace`'s lines
//! for every state of `examples/hero.anim` (200 ticks, most saved, disposed
//! and restored midway), byte for byte; `csharp/tests/Check.cs` gets the
//! library's errors as `AnimkitException`s (null names, a truncated bundle,
//! disposed and wrong-kind handles). Skipped, with a note, where `mcs` or
//! `mono` is missing (.ci/run installs Debian's `mono-mcs` and
//! `mono-runtime`).

use crate::common;

use common::{bundle, capi_dir, cdylib_dir, first_difference, run_ok, tool};
use std::path::{Path, PathBuf};
use std::process::Command;

/// (state, tick at which the C# side saves, disposes and restores the
/// batch): every state of `examples/hero.anim`, 200 ticks each.
pub const HERO_RUNS: &[(&str, Option<u32>)] = &[
    ("Idle", Some(61)),
    ("Walk", None),
    ("Run", Some(24)),
    ("Jump", Some(5)),
    ("Fall", None),
    ("Land", Some(3)),
    ("Attack", Some(7)),
    ("Hurt", None),
    ("Death", Some(30)),
];
pub const HERO_TICKS: u32 = 200;

/// The first lines of the Walk trace, written out: the comparisons compare
/// something.
pub const WALK_START: &str = "{\"tick\":0,\"state\":\"Walk\",\"category\":\"Walk\",\"frame\":0,\"events\":[\"step\"]}\n\
     {\"tick\":1,\"state\":\"Walk\",\"category\":\"Walk\",\"frame\":0,\"events\":[]}\n\
     {\"tick\":2,\"state\":\"Walk\",\"category\":\"Walk\",\"frame\":0,\"events\":[]}\n\
     {\"tick\":3,\"state\":\"Walk\",\"category\":\"Walk\",\"frame\":0,\"events\":[]}\n\
     {\"tick\":4,\"state\":\"Walk\",\"category\":\"Walk\",\"frame\":0,\"events\":[]}\n\
     {\"tick\":5,\"state\":\"Walk\",\"category\":\"Walk\",\"frame\":0,\"events\":[]}\n\
     {\"tick\":6,\"state\":\"Walk\",\"category\":\"Walk\",\"frame\":1,\"events\":[]}\n\
     {\"tick\":7,\"state\":\"Walk\",\"category\":\"Walk\",\"frame\":1,\"events\":[]}\n\
     {\"tick\":8,\"state\":\"Walk\",\"category\":\"Walk\",\"frame\":1,\"events\":[]}\n\
     {\"tick\":9,\"state\":\"Walk\",\"category\":\"Walk\",\"frame\":1,\"events\":[]}\n\
     {\"tick\":10,\"state\":\"Walk\",\"category\":\"Walk\",\"frame\":1,\"events\":[]}\n\
     {\"tick\":11,\"state\":\"Walk\",\"category\":\"Walk\",\"frame\":1,\"events\":[]}\n\
     {\"tick\":12,\"state\":\"Walk\",\"category\":\"Walk\",\"frame\":2,\"events\":[\"step\"]}\n";

/// Whether `program FLAG` (its version) runs; prints the skip note when
/// not.
pub fn available(program: &str, flag: &str, package: &str) -> bool {
    let ok = Command::new(program).arg(flag).output().is_ok_and(|o| o.status.success());
    if !ok {
        println!("skipped: no `{program}` here (Debian package {package}; .ci/run installs it)");
    }
    ok
}

/// `Animkit.cs` and `csharp/tests/SOURCE` compiled by `mcs` into
/// `dir/NAME.exe`, warnings as errors; None (with a note) without Mono.
fn compile(dir: &Path, source: &str) -> Option<PathBuf> {
    if !available("mcs", "--version", "mono-mcs") || !available("mono", "--version", "mono-runtime") {
        return None;
    }
    let exe = dir.join(Path::new(source).with_extension("exe"));
    let csharp = capi_dir().join("csharp");
    run_ok(
        Command::new("mcs")
            .args(["-nologo", "-warnaserror+", "-langversion:7"])
            .arg(format!("-out:{}", exe.display()))
            .arg(csharp.join("Animkit.cs"))
            .arg(csharp.join("tests").join(source)),
    );
    Some(exe)
}

/// `mono EXE`, finding libanimkit.so (DllImport "animkit") through
/// LD_LIBRARY_PATH.
fn mono(exe: &Path) -> Command {
    let mut cmd = Command::new("mono");
    cmd.arg(exe).env("LD_LIBRARY_PATH", cdylib_dir());
    cmd
}

/// Every run of [`HERO_RUNS`] through `program` (its arguments: bundle,
/// state, ticks, snapshot tick) equals `animvm --trace`.
pub fn compare_hero(hero: &Path, mut program: impl FnMut() -> Command) {
    let walk = run_ok(program().arg(hero).args(["Walk", "13"]));
    assert_eq!(String::from_utf8_lossy(&walk), WALK_START);
    for &(state, snapshot_at) in HERO_RUNS {
        let mut ours = program();
        ours.arg(hero).arg(state).arg(HERO_TICKS.to_string());
        if let Some(t) = snapshot_at {
            ours.arg(t.to_string());
        }
        let ours = run_ok(&mut ours);
        let theirs = run_ok(
            Command::new(tool("animvm"))
                .args(["--trace", "--state", state, "--ticks", &HERO_TICKS.to_string()])
                .arg(hero),
        );
        assert_eq!(theirs.iter().filter(|&&b| b == b'\n').count(), HERO_TICKS as usize);
        assert!(ours == theirs, "state {state}: {}", first_difference(&ours, &theirs));
    }
}

#[test]
fn the_csharp_trace_equals_animvm_trace() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let Some(exe) = compile(dir.path(), "Trace.cs") else { return };
    let hero = bundle(dir.path(), "hero.anim");
    compare_hero(&hero, || mono(&exe));
}

#[test]
fn csharp_gets_the_documented_statuses() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let Some(exe) = compile(dir.path(), "Check.cs") else { return };
    let hero = common::stripped_bundle(dir.path(), &common::repo_dir().join("examples/hero.anim"));
    let story = bundle(dir.path(), "story.slap");
    let out = String::from_utf8(run_ok(mono(&exe).arg(&hero).arg(&story))).expect("UTF-8");
    let size = std::fs::metadata(&hero).expect("the bundle").len();
    assert_eq!(
        out,
        CHECK_OUTPUT
            .replace("{size}", &size.to_string())
            .replace("{size-1}", &(size - 1).to_string())
            .replace("{version}", env!("CARGO_PKG_VERSION"))
    );
}

/// What `Check.cs` prints (`{size}`: the bundle's size).
const CHECK_OUTPUT: &str = "\
     version {version}\n\
     not a bundle: animkit_bundle_open: not an animkit bundle (the file does not start with the ANIMB magic bytes)\n\
     corrupt bundle: animkit_bundle_open: truncated bundle: expected {size} bytes, found {size-1}\n\
     not a bundle: animkit_bundle_open: not an animkit bundle (the file does not start with the ANIMB magic bytes)\n\
     modules: hero Sprite\n\
     no such module: animkit_bundle_sprite: no module named `hera` in the bundle; did you mean `hero`?\n\
     null pointer: animkit_bundle_sprite: `name` is NULL\n\
     unknown state: animkit_sprite_state: no state named `walk` in sprite module `hero`; did you mean `Walk`?\n\
     null pointer: animkit_sprite_state: `name` is NULL\n\
     unknown event: animkit_sprite_event: no event named `Walk` in sprite module `hero`\n\
     after 1000003 ticks: frames [3, 0, 0] events 65536 dropped 267800 speed 131072\n\
     Jump by name: Jump 0 1\n\
     index out of range: animkit_batch_frame: instance 3 is past the end of the batch (3 instances)\n\
     invalid argument: animkit_batch_set_speed: the speed 1/0 divides by 0\n\
     invalid snapshot: animkit_batch_restore: the snapshot is cut short\n\
     snapshot of 59 bytes restored\n\
     reloaded: fell back 0, clamped 0, dropped 0, vanished 0, frame kept True\n\
     unknown state: animkit_batch_reload: state 99 is past the 9 states of sprite module `hero`\n\
     a bundle as a batch: wrong handle\n\
     tick after dispose: ObjectDisposedException\n\
     state after dispose: ObjectDisposedException\n\
     sprite of a disposed bundle: ObjectDisposedException\n\
     after its bundle and module: frame 0, 3 animations\n\
     18000 forgotten bundles, modules and batches freed by the GC\n\
     module of another kind: animkit_bundle_sprite: module `story` is a SLAP scene, not a sprite module\n\
     scene story: frame 1200 of 1200, finished True, 4 actors, errors 0\n\
     index out of range: animkit_scene_actor: no actor 99 on stage at frame 1200\n";
