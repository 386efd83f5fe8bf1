//! A C program (`tests/c/errors.c`) makes every mistake a game could:
//! NULL pointers, huge and wrong lengths, truncated, changed, foreign and
//! newer bundles, unknown names, indices past the end, handles of the
//! wrong kind, damaged snapshots. Each call must return its status and
//! message (compared line by line below), never crash, and, where `cc`
//! has them, pass AddressSanitizer and UBSan.

use crate::common;

use common::{Link, build_c, run, stripped_bundle};
use std::path::Path;
use std::process::Command;

/// What `errors.c` prints; checksums and module hashes (which change with
/// the compiler's output) are masked by [`mask`].
const EXPECTED: &str = r#"version 100 (0.1.0), bundle format 3, last error before any: ""
status names: ok, internal error (panic), unknown status
open NULL bytes, length 10: null pointer | animkit_bundle_open: `bytes` is NULL with a length of 10
out-parameter untouched on failure: yes
open NULL out: null pointer | animkit_bundle_open: `out_bundle` is NULL
open NULL bytes, length 0: not a bundle | animkit_bundle_open: not an animkit bundle (the file does not start with the ANIMB magic bytes)
open GIF: not a bundle | animkit_bundle_open: not an animkit bundle (the file does not start with the ANIMB magic bytes)
open SIZE_MAX bytes: invalid argument | animkit_bundle_open: the length 18446744073709551615 of `bytes` is past the end of the address space
open PTRDIFF_MAX + 1 bytes: invalid argument | animkit_bundle_open: the length 9223372036854775808 of `bytes` is past the end of the address space
open half: corrupt bundle | animkit_bundle_open: truncated bundle: expected 286 bytes, found 143
open one byte short: corrupt bundle | animkit_bundle_open: truncated bundle: expected 286 bytes, found 285
open one byte more: corrupt bundle | animkit_bundle_open: corrupted bundle: expected 286 bytes, found 287
open format 9: newer bundle format | animkit_bundle_open: the bundle has format version 9, newer than this build reads (3): update animkit
open format 1: older bundle format | animkit_bundle_open: the bundle has format version 1, older than this build reads (3): recompile it with this animc
open a changed payload byte: corrupt bundle | animkit_bundle_open: corrupted bundle: checksum mismatch (header says 0x########, contents give 0x########)
hero.animb: every truncation and changed byte refused
story.animb: every truncation and changed byte refused
modules: 1, the first `hero` of kind 0
module 1: index out of range | animkit_bundle_module: module 1 is past the bundle's 1 modules
module count NULL out: null pointer | animkit_bundle_module_count: `out_count` is NULL
sprite `hera`: no such module | animkit_bundle_sprite: no module named `hera` in the bundle; did you mean `hero`?
sprite NULL name: null pointer | animkit_bundle_sprite: `name` is NULL
sprite name not UTF-8: invalid argument | animkit_bundle_sprite: `name` is not UTF-8 (at byte 2)
scene `hero`: module of another kind | animkit_bundle_scene: module `hero` is a sprite module, not a SLAP scene
state `walk`: unknown state | animkit_sprite_state: no state named `walk` in sprite module `hero`; did you mean `Walk`?
state `Jmp`: unknown state | animkit_sprite_state: no state named `Jmp` in sprite module `hero`; did you mean `Jump`?
states: 9, Walk 1, Jump 3, the category of state 5 `Jump`
state name 10: unknown state | animkit_sprite_state_name: state 10 is past the 9 states of sprite module `hero`
event `jump`: unknown event | animkit_sprite_event: no event named `jump` in sprite module `hero`
event `step` is 1, named `step`, the same pointer twice: yes
event 4000000000 is named ""
spawn state 10: unknown state | animkit_batch_spawn: state 10 is past the 9 states of sprite module `hero`
frame of instance 2: index out of range | animkit_batch_frame: instance 2 is past the end of the batch (2 instances)
set state of instance 7: index out of range | animkit_batch_set_state: instance 7 is past the end of the batch (2 instances)
remove instance 2: index out of range | animkit_batch_remove: instance 2 is past the end of the batch (2 instances)
is waiting of instance 2: index out of range | animkit_batch_is_waiting: instance 2 is past the end of the batch (2 instances)
is waiting NULL out: null pointer | animkit_batch_is_waiting: `out_waiting` is NULL
instance 0 waiting: no
set state 99: unknown state | animkit_batch_set_state: state 99 is past the 9 states of sprite module `hero`
set state `Wlak`: unknown state | animkit_batch_set_state_by_name: no state named `Wlak` in sprite module `hero`; did you mean `Walk`?
set state NULL name: null pointer | animkit_batch_set_state_by_name: `name` is NULL
speed 1/0: invalid argument | animkit_batch_set_speed: the speed 1/0 divides by 0
after 1000003 ticks: frames 3 1, time in state 1000003, speed of 1 98304, 65536 events pending, 142798 dropped
drain into NULL, capacity 5: null pointer | animkit_batch_drain_events: `events` is NULL with a capacity of 5
drain SIZE_MAX events: invalid argument | animkit_batch_drain_events: a capacity of 18446744073709551615 for `events` is past the end of the address space
drained into NULL, capacity 0: 0
drained 3: (0, 1) (1, 1) (0, 1)
drained the other 65533, 0 pending
set to Jump by name: state 3, time in state 1
frames column: 2 values, 0 1
snapshot into 3 bytes: buffer too small | animkit_batch_snapshot: the snapshot takes 50 bytes, the buffer has 3
snapshot: 50 bytes, size query said 50, starts AKBSNAP1
snapshot NULL buffer, capacity 8: null pointer | animkit_batch_snapshot: `buffer` is NULL with a length of 8
restore NULL, length 4: null pointer | animkit_batch_restore: `buffer` is NULL with a length of 4
restore garbage: invalid snapshot | animkit_batch_restore: not an animkit batch snapshot (no AKBSNAP1 magic bytes)
restore the magic only: invalid snapshot | animkit_batch_restore: the snapshot is cut short
restore cut short: invalid snapshot | animkit_batch_restore: the snapshot is cut short
restore a byte more: invalid snapshot | animkit_batch_restore: 1 byte after the snapshot
snapshot bytes flipped: 33 refused, 9 restored (a valid state of the same module)
after the failed restores, the batch is unchanged: frame 0, state 3
restore into another module: snapshot of another module | animkit_batch_restore: the snapshot belongs to another module (module hash ################; this module's is ################)
reload onto another module: invalid argument | animkit_batch_reload: the batch animates sprite module `hero`, not `other`: a reload takes a new build of the same module
reload with fallback 999: unknown state | animkit_batch_reload: state 999 is past the 9 states of sprite module `hero`
after the refused reloads: report untouched 1
restored: 2 instances, time in state 1
sprite of a scene: module of another kind | animkit_bundle_sprite: module `story` is a SLAP scene, not a sprite module
scene `story`: length 1200, at frame 600, finished 0, 4 actors
actor 7: action 6, size 1.1, pose body height -0.05
actor 999: index out of range | animkit_scene_actor: no actor 999 on stage at frame 600
actors into NULL, capacity 3: null pointer | animkit_scene_actors: `actors` is NULL with a capacity of 3
two actors of more: 2 written, ids 1 2
seek past the end: finished 1, 0 runtime errors
tick a scene as a batch: wrong handle | animkit_batch_tick: `batch` is not an AnimkitSpriteBatch: it is an AnimkitScene
step a bundle as a scene: wrong handle | animkit_scene_step: `scene` is not an AnimkitScene: it is an AnimkitBundle
sprite from a batch as a bundle: wrong handle | animkit_bundle_sprite: `bundle` is not an AnimkitBundle: it is an AnimkitSpriteBatch
batch of a scene as a sprite: wrong handle | animkit_sprite_batch_new: `sprite` is not an AnimkitSprite: it is an AnimkitScene
tick zeroed memory: wrong handle | animkit_batch_tick: `batch` is not an AnimkitSpriteBatch: it is not a handle of this library
tick a misaligned pointer: wrong handle | animkit_batch_tick: `batch` is not an AnimkitSpriteBatch (misaligned)
tick NULL: null pointer | animkit_batch_tick: `batch` is NULL
scene frame NULL out: null pointer | animkit_scene_frame: `out_frame` is NULL
the scene after a wrong free: ok
the last error, kept after that success: animkit_scene_frame: `out_frame` is NULL
done
"#;

/// Replaces `0x` and 8 hex digits, and words of 16 hex digits, by `#`s.
fn mask(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines().filter(|l| !l.starts_with("  by status")) {
        let words: Vec<String> = line
            .split(' ')
            .map(|w| {
                let hex =
                    |s: &str| s.len() == 16 && s.bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase());
                let core = w.trim_end_matches([',', ')', ';']);
                let tail = &w[core.len()..];
                if let Some(h) =
                    core.strip_prefix("0x").filter(|h| h.len() == 8 && h.bytes().all(|b| b.is_ascii_hexdigit()))
                {
                    let _ = h;
                    format!("0x########{tail}")
                } else if hex(core) {
                    format!("################{tail}")
                } else {
                    w.to_string()
                }
            })
            .collect();
        out.push_str(&words.join(" "));
        out.push('\n');
    }
    out
}

fn check(exe: &Path, dir: &Path) {
    let examples = common::repo_dir().join("examples");
    let hero = stripped_bundle(dir, &examples.join("hero.anim"));
    let story = stripped_bundle(dir, &examples.join("story.slap"));
    let other_src = dir.join("other.anim");
    std::fs::write(&other_src, "Walk: 2|step, 2, _loop\n").expect("a temp file");
    let other = stripped_bundle(dir, &other_src);
    let out = run(Command::new(exe).arg(&hero).arg(&story).arg(&other));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "errors.c failed ({}):\n{}\n{}",
        out.status,
        stdout,
        String::from_utf8_lossy(&out.stderr)
    );
    let got = mask(&stdout);
    for (i, (g, e)) in got.lines().zip(EXPECTED.lines()).enumerate() {
        assert_eq!(g, e, "line {}", i + 1);
    }
    assert_eq!(got, EXPECTED);
}

#[test]
fn every_mistake_is_a_status_and_a_message() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let exe = build_c(dir.path(), "errors.c", Link::Static);
    check(&exe, dir.path());
}

#[test]
fn every_mistake_under_sanitizers() {
    let dir = tempfile::tempdir().expect("a temp dir");
    if let Err(why) = common::sanitizers_work(dir.path()) {
        println!("skipped: {why}");
        return;
    }
    let exe = build_c(dir.path(), "errors.c", Link::Sanitized);
    check(&exe, dir.path());
}

#[test]
fn masking() {
    assert_eq!(
        mask("says 0x09782e4a, give 0x79e2a38a)\n  by status: x\nhash 437acd7beb0f2e05; is a4b4e61e7d7bbf71)\n"),
        "says 0x########, give 0x########)\nhash ################; is ################)\n"
    );
}
