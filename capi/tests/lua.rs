//! The LuaJIT binding (`lua/animkit.lua`, FFI over libanimkit.so), end to
//! end: `lua/tests/trace.lua` prints `animvm --trace`'s lines for every
//! state of `examples/hero.anim` (200 ticks, most saved, freed and restored
//! midway), byte for byte; `lua/tests/check.lua` gets the library's errors
//! as `animkit.Error` values (nil names, a truncated bundle, freed and
//! wrong-kind handles). Skipped, with a note, where `luajit` is missing
//! (.ci/run installs Debian's `luajit`). The LÖVE example
//! (`lua/love/main.lua`) is run by `love.rs`.

use crate::common;
use crate::csharp::{available, compare_hero};

use common::{bundle, capi_dir, cdylib_dir, run_ok};
use std::process::Command;

/// `luajit SCRIPT` (from `lua/tests/`), `require("animkit")` finding
/// `lua/animkit.lua` and the binding `libanimkit.so`; None (with a note)
/// without LuaJIT.
fn luajit(script: &str) -> Option<Command> {
    if !available("luajit", "-v", "luajit") {
        return None;
    }
    let lua = capi_dir().join("lua");
    let mut cmd = Command::new("luajit");
    cmd.arg(lua.join("tests").join(script))
        .env("LUA_PATH", format!("{}/?.lua;;", lua.display()))
        .env("ANIMKIT_LIB", cdylib_dir().join("libanimkit.so"));
    Some(cmd)
}

#[test]
fn the_lua_trace_equals_animvm_trace() {
    if luajit("trace.lua").is_none() {
        return;
    }
    let dir = tempfile::tempdir().expect("a temp dir");
    let hero = bundle(dir.path(), "hero.anim");
    compare_hero(&hero, || luajit("trace.lua").expect("luajit was there a moment ago"));
}

#[test]
fn lua_gets_the_documented_statuses() {
    let Some(mut lua) = luajit("check.lua") else { return };
    let dir = tempfile::tempdir().expect("a temp dir");
    let hero = common::stripped_bundle(dir.path(), &common::repo_dir().join("examples/hero.anim"));
    let story = bundle(dir.path(), "story.slap");
    let out = String::from_utf8(run_ok(lua.arg(&hero).arg(&story))).expect("UTF-8");
    let size = std::fs::metadata(&hero).expect("the bundle").len();
    assert_eq!(
        out,
        CHECK_OUTPUT
            .replace("{size}", &size.to_string())
            .replace("{size-1}", &(size - 1).to_string())
            .replace("{version}", env!("CARGO_PKG_VERSION"))
    );
}

/// What `check.lua` prints (`{size}`: the bundle's size).
const CHECK_OUTPUT: &str = "\
     version {version}\n\
     not a bundle: animkit_bundle_open: not an animkit bundle (the file does not start with the ANIMB magic bytes)\n\
     corrupt bundle: animkit_bundle_open: truncated bundle: expected {size} bytes, found {size-1}\n\
     not a bundle: animkit_bundle_open: not an animkit bundle (the file does not start with the ANIMB magic bytes)\n\
     modules: hero 0\n\
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
     reloaded: fell back 0, clamped 0, dropped 0, vanished 0, frame kept true\n\
     unknown state: animkit_batch_reload: state 99 is past the 9 states of sprite module `hero`\n\
     null pointer: animkit_batch_reload: `sprite` is NULL\n\
     a bundle as a batch: wrong handle\n\
     null pointer: animkit_batch_tick: `batch` is NULL\n\
     null pointer: animkit_batch_state: `batch` is NULL\n\
     null pointer: animkit_bundle_sprite: `bundle` is NULL\n\
     after its bundle and module: frame 0, 3 animations\n\
     18000 forgotten bundles, modules and batches freed by the GC\n\
     module of another kind: animkit_bundle_sprite: module `story` is a SLAP scene, not a sprite module\n\
     scene story: frame 1200 of 1200, finished true, 4 actors, errors 0\n\
     index out of range: animkit_scene_actor: no actor 99 on stage at frame 1200\n";
