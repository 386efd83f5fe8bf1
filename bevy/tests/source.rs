//! The source loader (feature `source`, on in the tests): a `.anim`
//! asset compiled on load plays as its `animc` bundle does; a source that
//! does not compile fails to load with `animc`'s diagnostics and its
//! entities get `AnimkitFailed`; a changed source hot-reloads (a broken
//! edit keeps the old program, a fix recovers); 10 MB of junk fails with
//! `animc`'s bounded message.

use crate::common;
use crate::plugin::edited_hero;

use animkit_bevy::{Animkit, AnimkitBundle, AnimkitError, AnimkitFailed, AnimkitReloaded, AnimkitSprite};
use animkit_vm::game::{Bundle, ModuleKind, State};
use bevy::asset::io::memory::Dir;
use bevy::asset::{AssetServer, LoadState};
use bevy::ecs::message::Messages;
use bevy::prelude::*;
use common::{VmTrace, animc_check, animvm_trace, app, compile, first_difference, hero_source, load, run_ticks, trace};
use std::path::Path;
use std::time::{Duration, Instant};

/// The part of a load error after Bevy's prefix naming the asset and the
/// loader (Bevy appends a backtrace when `RUST_BACKTRACE` is set: cut at
/// `expected`'s length, and the rest must be empty without one).
fn loader_message(err: &impl std::fmt::Display, asset: &str, expected_len: usize) -> String {
    let text = err.to_string();
    let prefix = format!("Failed to load asset '{asset}' with asset loader 'animkit_bevy::AnimkitSourceLoader': ");
    let rest = text.strip_prefix(&prefix).unwrap_or_else(|| panic!("{text}"));
    if std::env::var_os("RUST_BACKTRACE").is_none() {
        assert_eq!(rest.len(), expected_len + 1, "one line end, no more:\n{rest}");
    }
    rest.get(..expected_len).unwrap_or(rest).to_string()
}

/// The longest a load may take: a compilation runs on Bevy's task pool
/// while the app updates (the 10 MB one takes seconds in a debug build
/// on a loaded machine, far more than `common::load`'s 1000 updates).
const LOAD_LIMIT: Duration = Duration::from_secs(300);

/// Updates (a millisecond apart; one tick each after the app's first)
/// until `ended` says so, at most [`LOAD_LIMIT`]; the number of updates.
fn update_until(app: &mut App, mut ended: impl FnMut(&mut App) -> bool) -> u64 {
    let start = Instant::now();
    let mut updates = 0;
    while start.elapsed() < LOAD_LIMIT {
        app.update();
        updates += 1;
        if ended(app) {
            return updates;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    panic!("the load did not end in {LOAD_LIMIT:?}");
}

/// Puts `text` at `path` and loads it as a source asset, updating until
/// the load ends.
fn load_source(app: &mut App, dir: &Dir, path: &str, text: Vec<u8>) -> (Handle<AnimkitBundle>, LoadState) {
    dir.insert_asset(Path::new(path), text);
    let handle: Handle<AnimkitBundle> = app.world().resource::<AssetServer>().load(path.to_string());
    let ended = |app: &mut App| {
        matches!(app.world().resource::<AssetServer>().load_state(&handle), LoadState::Loaded | LoadState::Failed(_))
    };
    update_until(app, ended);
    let state = app.world().resource::<AssetServer>().load_state(&handle);
    (handle, state)
}

#[test]
fn a_source_asset_plays_as_its_bundle() {
    let text = hero_source();
    let bytes = compile("hero.anim", &text);
    let (mut app, dir) = app();
    let (source, state) = load_source(&mut app, &dir, "hero.anim", text.into_bytes());
    assert!(matches!(state, LoadState::Loaded), "{state:?}");
    let (bundle, _) = load(&mut app, &dir, "hero.animb", bytes.clone());
    let mut pairs = Vec::new();
    for s in ["Walk", "Attack", "Jump"] {
        let a = app.world_mut().spawn(AnimkitSprite::new(source.clone(), "hero", s)).id();
        let b = app.world_mut().spawn(AnimkitSprite::new(bundle.clone(), "hero", s)).id();
        pairs.push((s, a, b));
    }
    run_ticks(&mut app, 60);
    for (s, a, b) in pairs {
        let (ours, theirs) = (trace(&app, a), trace(&app, b));
        assert!(ours == theirs, "{s}: {}", first_difference(&ours, &theirs));
        let animvm = animvm_trace(&bytes, s, 60);
        assert!(ours == animvm, "{s} against animvm: {}", first_difference(&ours, &animvm));
    }
}

const BROKEN: &str = "Idle: 10, _loop\nWalk: 6|step, 6, _lop\nRun: 4, Jmp\n";

const BROKEN_MESSAGE: &str = "error: unknown special event `_lop`
 --> broken.anim:2:18
  |
2 | Walk: 6|step, 6, _lop
  |                  ^^^^ not a special event
  |
  = note: names starting with `_` are reserved for `_loop`, `_wait` and `_pingpong`
  = help: did you mean `_loop`?

error: unknown state `Jmp`
 --> broken.anim:3:9
  |
3 | Run: 4, Jmp
  |         ^^^ no state with this name
  |
  = note: an events-only frame is `_loop`, `_wait`, `_pingpong` or the name of a state

error: could not compile due to 2 previous errors";

#[test]
fn a_broken_source_fails_with_animcs_diagnostics() {
    assert_eq!(animc_check("broken.anim", BROKEN.as_bytes()), format!("{BROKEN_MESSAGE}\n"));
    let (mut app, dir) = app();
    let (broken, state) = load_source(&mut app, &dir, "broken.anim", BROKEN.as_bytes().to_vec());
    let LoadState::Failed(err) = state else { panic!("loaded: {state:?}") };
    assert_eq!(loader_message(&err, "broken.anim", BROKEN_MESSAGE.len()), BROKEN_MESSAGE);
    // Its entity fails as one of a failed bundle does.
    let e = app.world_mut().spawn(AnimkitSprite::new(broken, "broken", "Idle")).id();
    run_ticks(&mut app, 2);
    let failed = app.world().get::<AnimkitFailed>(e).map(|f| f.0.clone());
    assert_eq!(failed, Some(AnimkitError::Load(err.to_string())));
    // Not UTF-8: animc's message too.
    let bad = b"Idle: 10, _loop\n\xff\n".to_vec();
    let expected = animc_check("latin.anim", &bad);
    let (_, state) = load_source(&mut app, &dir, "latin.anim", bad);
    let LoadState::Failed(err) = state else { panic!("loaded: {state:?}") };
    let want = expected.trim_end();
    assert_eq!(loader_message(&err, "latin.anim", want.len()), want);
    assert!(want.starts_with("error: `latin.anim` is not UTF-8 text: "), "{want}");
}

/// 10 MB of deterministic junk in lines of 100 characters.
fn junk() -> Vec<u8> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/:|,_ ";
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    (0..10_000_000)
        .map(|i| {
            if i % 101 == 100 {
                return b'\n';
            }
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ALPHABET[(x >> 33) as usize % ALPHABET.len()]
        })
        .collect()
}

#[test]
fn ten_mb_of_junk_fails_with_animcs_bounded_message() {
    let junk = junk();
    let expected = animc_check("junk.anim", &junk);
    let want = expected.trim_end();
    // Bounded: 100 errors, then one line for the rest.
    assert!(want.len() < 64 << 10, "{} bytes", want.len());
    let tail: Vec<&str> = want.lines().rev().take(2).collect();
    assert!(tail[1].starts_with("error: ") && tail[1].ends_with(" more errors not shown (at most 100 are printed)"));
    assert!(tail[0].starts_with("error: could not compile due to "), "{}", tail[0]);
    let (mut app, dir) = app();
    let (handle, state) = load_source(&mut app, &dir, "junk.anim", junk);
    let LoadState::Failed(err) = state else { panic!("loaded: {state:?}") };
    assert_eq!(loader_message(&err, "junk.anim", want.len()), want);
    let e = app.world_mut().spawn(AnimkitSprite::new(handle, "junk", "Idle")).id();
    run_ticks(&mut app, 1);
    assert!(matches!(app.world().get::<AnimkitFailed>(e), Some(AnimkitFailed(AnimkitError::Load(_)))));
}

/// Writes `text` over `hero.anim`, asks for a reload and updates until the
/// load ends (failed, or, when `compiles`, loaded with a reload done: the
/// state of the last failed load lasts until the new one ends); the
/// `AnimkitReloaded` messages meanwhile, and the ticks run.
fn edit(
    app: &mut App,
    dir: &Dir,
    hero: &Handle<AnimkitBundle>,
    text: &str,
    compiles: bool,
) -> (LoadState, Vec<AnimkitReloaded>, u64) {
    dir.insert_asset(Path::new("hero.anim"), text.as_bytes().to_vec());
    app.world().resource::<AssetServer>().reload("hero.anim");
    let mut reloads = Vec::new();
    let waited = update_until(app, |app| {
        reloads.extend(app.world_mut().resource_mut::<Messages<AnimkitReloaded>>().drain());
        match app.world().resource::<AssetServer>().load_state(hero) {
            LoadState::Failed(_) => !compiles,
            LoadState::Loaded => compiles && !reloads.is_empty(),
            _ => false,
        }
    });
    (app.world().resource::<AssetServer>().load_state(hero), reloads, waited)
}

#[test]
fn an_edited_source_reloads_keeping_states_and_a_broken_edit_keeps_the_old_program() {
    let old = hero_source();
    let (mut app, dir) = app();
    let (hero, _) = load_source(&mut app, &dir, "hero.anim", old.clone().into_bytes());
    let walk = app.world_mut().spawn(AnimkitSprite::new(hero.clone(), "hero", "Walk")).id();
    let run = app.world_mut().spawn(AnimkitSprite::new(hero.clone(), "hero", "Run")).id();
    run_ticks(&mut app, 8);
    // A broken edit: the load fails (animc's message), the entities play on.
    let broken = old.replace("Walk: 6|step, 6, 6|step, 6, _loop", "Walk: 6|step, 6, 6|step, 6, _lop");
    let (state, reloads, waited_broken) = edit(&mut app, &dir, &hero, &broken, false);
    let LoadState::Failed(err) = state else { panic!("{state:?}") };
    assert!(reloads.is_empty(), "{reloads:?}");
    assert!(err.to_string().contains("error: unknown special event `_lop`\n --> hero.anim:"), "{err}");
    assert_eq!(app.world().get::<AnimkitFailed>(walk).map(|f| f.0.clone()), None);
    // The fix (with an edit): every entity moves onto it.
    let new = edited_hero();
    let (state, reloads, waited) = edit(&mut app, &dir, &hero, &new, true);
    assert!(matches!(state, LoadState::Loaded), "{state:?}");
    run_ticks(&mut app, 40);
    assert_eq!(reloads.len(), 1, "{reloads:?}");
    let report = reloads[0].result.as_ref().expect("hero is in the new build");
    assert_eq!(
        (report.vanished.clone(), report.fallback.as_str(), report.fell_back),
        (vec!["Run".to_string()], "Idle", 1)
    );
    // The reload happened at the start of tick `at` (from 0): the same rule
    // as a bundle's reload, through the vm's game API.
    let at = 8 + waited_broken + waited - 1;
    let old_module = Bundle::from_bytes(&compile("hero.anim", &old)).expect("old").sprite("hero").expect("hero");
    let new_module = Bundle::from_bytes(&compile("hero.anim", &new)).expect("new").sprite("hero").expect("hero");
    let mut vm = VmTrace::new(&old_module);
    vm.spawn("Walk");
    vm.spawn("Run");
    for t in 0..at + 1 + 40 {
        if t == at {
            assert_eq!(&vm.batch.reload(&new_module, State::default()), report);
        }
        vm.tick();
    }
    for (entity, i) in [(walk, 0), (run, 1)] {
        let (ours, theirs) = (trace(&app, entity), vm.trace(i));
        assert!(ours == theirs, "instance {i}: {}", first_difference(&ours, &theirs));
    }
    assert!(trace(&app, walk).contains("\"events\":[\"stomp\"]"));
    // Walk kept its state through both edits.
    let walk_ticks = app.world().resource::<Animkit>().time_in_state(walk);
    assert_eq!(walk_ticks, Ok(at + 1 + 40));
}

/// The loader takes every language's extension: a `.draw` source loads
/// into a bundle of its drawing module, a broken `.slap` fails with
/// `animc`'s message.
#[test]
fn draw_and_slap_sources_load_too() {
    let (mut app, dir) = app();
    let (drawing, state) = load_source(&mut app, &dir, "art/pen.draw", b"line 0 0 1 1\n".to_vec());
    assert!(matches!(state, LoadState::Loaded), "{state:?}");
    let bundles = app.world().resource::<Assets<AnimkitBundle>>();
    let bundle = bundles.get(&drawing).expect("loaded").bundle();
    assert_eq!(bundle.module_count(), 1);
    assert_eq!(bundle.module(0), Some(("pen", ModuleKind::Drawing)));
    let scene = b"time 3\nbogus 1 2\n";
    let expected = animc_check("s.slap", scene);
    let (_, state) = load_source(&mut app, &dir, "s.slap", scene.to_vec());
    let LoadState::Failed(err) = state else { panic!("loaded: {state:?}") };
    let want = expected.trim_end();
    assert_eq!(loader_message(&err, "s.slap", want.len()), want);
    assert!(want.starts_with("error: unknown directive `bogus`\n --> s.slap:2:1\n"), "{want}");
}
