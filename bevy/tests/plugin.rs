//! The plugin's controls and failures in a `MinimalPlugins` app: states
//! set by name (and the error for an unknown one), sprites that cannot
//! start, a corrupted or missing bundle (an asset load error, no panic,
//! `AnimkitFailed` on its entities), hot reload through the asset server
//! (the rule: `AnimationBatch::reload`'s, with the configured fallback),
//! and events as messages.

use crate::common;

use animkit_bevy::{
    Animkit, AnimkitError, AnimkitFailed, AnimkitFrame, AnimkitPlugin, AnimkitReloaded, AnimkitSprite, ReloadFallback,
};
use animkit_vm::game::{Bundle, State};
use bevy::asset::{AssetServer, LoadState};
use bevy::ecs::message::Messages;
use bevy::prelude::*;
use common::{
    VmTrace, animvm_trace, app, app_with, compile, first_difference, hero_source, load, run_ticks, settle, trace,
};
use std::path::Path;

#[test]
fn a_state_set_by_name_takes_effect_at_the_next_tick() {
    let bytes = compile("hero.anim", &hero_source());
    let (mut app, dir) = app();
    let (hero, _) = load(&mut app, &dir, "hero.animb", bytes.clone());
    let e = app.world_mut().spawn(AnimkitSprite::new(hero, "hero", "Walk")).id();
    run_ticks(&mut app, 10);
    app.world_mut().resource_mut::<Animkit>().set_state(e, "Attack").expect("Attack is a state");
    // The state reads as asked at once; the entity shows it from the next tick.
    assert_eq!(app.world().resource::<Animkit>().state_name(e), Ok("Attack"));
    let walk = Bundle::from_bytes(&bytes).expect("a bundle").sprite("hero").expect("hero").state("Walk").expect("Walk");
    assert_eq!(app.world().get::<AnimkitFrame>(e), Some(&AnimkitFrame { index: 1, state: walk }));
    run_ticks(&mut app, 30);
    // The same through the vm's game API.
    let module = Bundle::from_bytes(&bytes).expect("a bundle").sprite("hero").expect("hero");
    let mut vm = VmTrace::new(&module);
    vm.spawn("Walk");
    for t in 0..40 {
        if t == 10 {
            let attack = module.state("Attack").expect("Attack");
            vm.batch.set_state(0, attack);
        }
        vm.tick();
    }
    let (ours, theirs) = (trace(&app, e), vm.trace(0));
    assert!(ours == theirs, "{}", first_difference(&ours, &theirs));
    let lines: Vec<&str> = ours.lines().collect();
    assert_eq!(
        lines[10],
        "{\"tick\":10,\"state\":\"Attack\",\"category\":\"Attack\",\"frame\":0,\"events\":[\"swingStart\"]}"
    );
    // Attack ends in Idle (3 + 3 + 2 + 4 ticks, then `0|attackDone`); the
    // time in state counts from the game's last change (tick 10).
    assert_eq!(
        lines[22],
        "{\"tick\":22,\"state\":\"Idle\",\"category\":\"Idle\",\"frame\":0,\"events\":[\"attackDone\"]}"
    );
    let animkit = app.world().resource::<Animkit>();
    assert_eq!((animkit.state_name(e), animkit.time_in_state(e)), (Ok("Idle"), Ok(30)));
    // Setting the current state again changes nothing; restart does.
    app.world_mut().resource_mut::<Animkit>().set_state(e, "Idle").expect("Idle");
    run_ticks(&mut app, 1);
    assert_eq!(app.world().resource::<Animkit>().time_in_state(e), Ok(31));
    app.world_mut().resource_mut::<Animkit>().restart(e, "Idle").expect("Idle");
    run_ticks(&mut app, 1);
    assert_eq!(app.world().resource::<Animkit>().time_in_state(e), Ok(1));
}

#[test]
fn an_unknown_state_is_an_error_and_changes_nothing() {
    let bytes = compile("hero.anim", &hero_source());
    let (mut app, dir) = app();
    let (hero, _) = load(&mut app, &dir, "hero.animb", bytes);
    let e = app.world_mut().spawn(AnimkitSprite::new(hero, "hero", "Run")).id();
    run_ticks(&mut app, 3);
    let err = app.world_mut().resource_mut::<Animkit>().set_state(e, "Rnu").unwrap_err();
    assert!(matches!(&err, AnimkitError::State(u) if u.nearest == ["Run"]));
    assert_eq!(err.to_string(), "no state named `Rnu` in sprite module `hero`; did you mean `Run`?");
    run_ticks(&mut app, 1);
    let animkit = app.world().resource::<Animkit>();
    assert_eq!((animkit.state_name(e), animkit.time_in_state(e)), (Ok("Run"), Ok(4)));
    // An entity that plays nothing.
    let other = app.world_mut().spawn_empty().id();
    let err = app.world_mut().resource_mut::<Animkit>().set_state(other, "Run").unwrap_err();
    assert_eq!(err, AnimkitError::NotPlaying(other));
    assert_eq!(err.to_string(), format!("entity {other} plays no animkit sprite (yet)"));
}

/// Issue 42 part 3 through the plugin: a 16 MiB state name is refused at
/// once, with no "did you mean" search and a message that quotes 32
/// characters of it, and the entity plays on.
#[test]
fn a_16_mib_state_name_is_refused_with_a_short_message() {
    let bytes = compile("hero.anim", &hero_source());
    let (mut app, dir) = app();
    let (hero, _) = load(&mut app, &dir, "hero.animb", bytes);
    let e = app.world_mut().spawn(AnimkitSprite::new(hero, "hero", "Run")).id();
    run_ticks(&mut app, 3);
    let name = "W".repeat(16 << 20);
    let err = app.world_mut().resource_mut::<Animkit>().set_state(e, &name).unwrap_err();
    assert!(matches!(&err, AnimkitError::State(u) if u.nearest.is_empty()));
    assert_eq!(
        err.to_string(),
        format!("no state named `{}…` (16777216 bytes) in sprite module `hero`", "W".repeat(32))
    );
    run_ticks(&mut app, 1);
    let animkit = app.world().resource::<Animkit>();
    assert_eq!((animkit.state_name(e), animkit.time_in_state(e)), (Ok("Run"), Ok(4)));
}

#[test]
fn a_sprite_whose_module_or_state_is_missing_fails_to_start() {
    let bytes = compile("hero.anim", &hero_source());
    let (mut app, dir) = app();
    let (hero, _) = load(&mut app, &dir, "hero.animb", bytes);
    let bad_state = app.world_mut().spawn(AnimkitSprite::new(hero.clone(), "hero", "Fly")).id();
    let bad_module = app.world_mut().spawn(AnimkitSprite::new(hero.clone(), "hera", "Walk")).id();
    let good = app.world_mut().spawn(AnimkitSprite::new(hero, "hero", "Walk")).id();
    run_ticks(&mut app, 2);
    let failed = |e: Entity| app.world().get::<AnimkitFailed>(e).map(|f| f.0.to_string());
    assert_eq!(failed(bad_state).as_deref(), Some("no state named `Fly` in sprite module `hero`"));
    assert_eq!(failed(bad_module).as_deref(), Some("no module named `hera` in the bundle; did you mean `hero`?"));
    assert_eq!(failed(good), None);
    let animkit = app.world().resource::<Animkit>();
    assert_eq!(animkit.len(), 1);
    assert_eq!(animkit.frame(bad_state), Err(AnimkitError::NotPlaying(bad_state)));
    assert_eq!(app.world().get::<AnimkitFrame>(bad_state), Some(&AnimkitFrame::default()));
}

/// A load error's message: its first line (Bevy's error type adds a
/// backtrace on the next lines when `RUST_BACKTRACE` is set).
fn message(err: &impl std::fmt::Display) -> String {
    err.to_string().lines().next().unwrap_or_default().to_string()
}

#[test]
fn a_corrupted_bundle_is_an_asset_load_error() {
    let mut bytes = compile("hero.anim", &hero_source());
    let (mut app, dir) = app();
    let (junk, state) = load(&mut app, &dir, "junk.animb", b"GIF89a".to_vec());
    let LoadState::Failed(err) = state else { panic!("loaded: {state:?}") };
    assert_eq!(
        message(&err),
        "Failed to load asset 'junk.animb' with asset loader 'animkit_bevy::AnimkitBundleLoader': \
         junk.animb: not an animkit bundle (the file does not start with the ANIMB magic bytes)"
    );
    // A flipped byte in the body: the checksum catches it.
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    let (bad, state) = load(&mut app, &dir, "flipped.animb", bytes);
    let LoadState::Failed(err) = state else { panic!("loaded: {state:?}") };
    // (The two checksums depend on the compiler's output: masked.)
    let text = message(&err);
    let (head, tail) = text.split_once("(header says 0x").expect("the checksums");
    assert_eq!(
        head,
        "Failed to load asset 'flipped.animb' with asset loader 'animkit_bevy::AnimkitBundleLoader': \
         flipped.animb: corrupted bundle: checksum mismatch "
    );
    assert!(tail.contains(", contents give 0x") && tail.ends_with(')'), "{tail}");
    // An entity of a failed bundle gets `AnimkitFailed` with the asset
    // server's error at the next tick, plays nothing, and nothing panics.
    let e = app.world_mut().spawn(AnimkitSprite::new(bad, "hero", "Walk")).id();
    let j = app.world_mut().spawn(AnimkitSprite::new(junk, "hero", "Walk")).id();
    run_ticks(&mut app, 1);
    let failed = |e: Entity| app.world().get::<AnimkitFailed>(e).map(|f| f.0.clone());
    assert_eq!(failed(e), Some(AnimkitError::Load(err.to_string())));
    let Some(AnimkitError::Load(junk_message)) = failed(j) else { panic!("{:?}", failed(j)) };
    assert_eq!(
        message(&junk_message),
        "Failed to load asset 'junk.animb' with asset loader 'animkit_bevy::AnimkitBundleLoader': \
         junk.animb: not an animkit bundle (the file does not start with the ANIMB magic bytes)"
    );
    run_ticks(&mut app, 5);
    assert_eq!(app.world().resource::<Animkit>().frame(e), Err(AnimkitError::NotPlaying(e)));
    assert_eq!(app.world().resource::<Animkit>().len(), 0);
}

#[test]
fn an_entity_waiting_for_a_missing_file_fails_when_the_load_does() {
    let (mut app, _dir) = app();
    let missing = app.world().resource::<AssetServer>().load("missing.animb");
    let e = app.world_mut().spawn(AnimkitSprite::new(missing.clone(), "hero", "Walk")).id();
    let state = settle(&mut app, &missing);
    let LoadState::Failed(err) = state else { panic!("loaded: {state:?}") };
    run_ticks(&mut app, 1);
    let failed = app.world().get::<AnimkitFailed>(e).map(|f| f.0.clone());
    assert_eq!(failed, Some(AnimkitError::Load(err.to_string())));
    assert_eq!(message(&err), "Path not found: missing.animb");
}

/// `hero.anim` edited: Walk's third frame fires `stomp` and lasts 9
/// ticks, Run is gone.
pub(crate) fn edited_hero() -> String {
    let text = hero_source().replace("Walk: 6|step, 6, 6|step, 6, _loop", "Walk: 6|step, 6, 9|stomp, 6, _loop");
    let text = text.replace("Run: 4|step, 4, 4|step, 4, 4|step, 4, _loop|dust\n", "");
    assert!(text.contains("9|stomp") && !text.contains("Run:"), "the edit applies");
    text
}

/// The tick in which the plugin moved its sprites onto the new
/// program (counted from the first of `entity`'s trace).
fn reloaded_at(app: &mut App, messages: &mut Vec<AnimkitReloaded>) {
    let mut m = app.world_mut().resource_mut::<Messages<AnimkitReloaded>>();
    messages.extend(m.drain());
}

#[test]
fn hot_reload_moves_each_entity_onto_the_new_program() {
    let old = compile("hero.anim", &hero_source());
    let new = compile("hero.anim", &edited_hero());
    let (mut app, dir) = app();
    let (hero, _) = load(&mut app, &dir, "hero.animb", old.clone());
    let walk = app.world_mut().spawn(AnimkitSprite::new(hero.clone(), "hero", "Walk")).id();
    let run = app.world_mut().spawn(AnimkitSprite::new(hero.clone(), "hero", "Run")).id();
    run_ticks(&mut app, 8);
    // Save the new build over the file and ask the asset server to reload
    // it (a file watcher does this when the game enables one).
    dir.insert_asset(Path::new("hero.animb"), new.clone());
    app.world().resource::<AssetServer>().reload("hero.animb");
    let mut reloads = Vec::new();
    let mut waited = 0;
    while reloads.is_empty() {
        run_ticks(&mut app, 1);
        reloaded_at(&mut app, &mut reloads);
        waited += 1;
        assert!(waited < 100, "no reload in 100 ticks");
    }
    // The reload happened at the start of tick `at` (from 0).
    let at = 8 + waited - 1;
    run_ticks(&mut app, 40);
    assert_eq!(reloads.len(), 1);
    assert_eq!(reloads[0].bundle, hero.id());
    assert_eq!(reloads[0].module, "hero");
    let report = reloads[0].result.as_ref().expect("hero is in the new bundle");
    assert_eq!(
        (report.vanished.clone(), report.fallback.as_str(), report.fell_back),
        (vec!["Run".to_string()], "Idle", 1)
    );
    // The rule, through the vm's game API: same state by name, same frame
    // position and ticks into it; a vanished state restarts in the first.
    let old_module = Bundle::from_bytes(&old).expect("old").sprite("hero").expect("hero");
    let new_module = Bundle::from_bytes(&new).expect("new").sprite("hero").expect("hero");
    let mut vm = VmTrace::new(&old_module);
    vm.spawn("Walk");
    vm.spawn("Run");
    for t in 0..at + 1 + 40 {
        if t == at {
            let r = vm.batch.reload(&new_module, State::default());
            assert_eq!(&r, report);
        }
        vm.tick();
    }
    for (entity, i) in [(walk, 0), (run, 1)] {
        let (ours, theirs) = (trace(&app, entity), vm.trace(i));
        assert!(ours == theirs, "instance {i}: {}", first_difference(&ours, &theirs));
    }
    // The edit shows: Walk fires `stomp` now, Run became Idle.
    let walk_trace = trace(&app, walk);
    assert!(walk_trace.contains("\"events\":[\"stomp\"]"), "{walk_trace}");
    assert_eq!(app.world().resource::<Animkit>().state_name(run), Ok("Idle"));
    // Run's entity restarted at the reload (41 ticks ago); Walk's did not.
    let animkit = app.world().resource::<Animkit>();
    assert_eq!((animkit.time_in_state(run), animkit.time_in_state(walk)), (Ok(41), Ok(8 + waited + 40)));
    // A new entity plays the new program from its start, as animvm does.
    let late = app.world_mut().spawn(AnimkitSprite::new(hero, "hero", "Walk")).id();
    run_ticks(&mut app, 40);
    let (ours, theirs) = (trace(&app, late), animvm_trace(&new, "Walk", 40));
    assert!(ours == theirs, "late Walk: {}", first_difference(&ours, &theirs));
}

#[test]
fn hot_reload_falls_back_to_the_configured_state() {
    let old = compile("hero.anim", &hero_source());
    let new = compile("hero.anim", &edited_hero());
    let plugin = AnimkitPlugin { reload_fallback: ReloadFallback::State("Walk".to_string()), ..Default::default() };
    let (mut app, dir) = app_with(plugin);
    let (hero, _) = load(&mut app, &dir, "hero.animb", old.clone());
    let jump = app.world_mut().spawn(AnimkitSprite::new(hero.clone(), "hero", "Jump")).id();
    let run = app.world_mut().spawn(AnimkitSprite::new(hero.clone(), "hero", "Run")).id();
    run_ticks(&mut app, 5);
    dir.insert_asset(Path::new("hero.animb"), new.clone());
    app.world().resource::<AssetServer>().reload("hero.animb");
    let mut reloads = Vec::new();
    let mut waited = 0;
    while reloads.is_empty() {
        run_ticks(&mut app, 1);
        reloaded_at(&mut app, &mut reloads);
        waited += 1;
        assert!(waited < 100, "no reload in 100 ticks");
    }
    let at = 5 + waited - 1;
    run_ticks(&mut app, 30);
    let report = reloads[0].result.as_ref().expect("hero is in the new bundle");
    assert_eq!(
        (report.vanished.clone(), report.fallback.as_str(), report.fell_back),
        (vec!["Run".to_string()], "Walk", 1)
    );
    // Run fell back to Walk at the reload; Jump, still in the new bundle,
    // kept its state (and whatever it moved on to) tick for tick.
    let old_module = Bundle::from_bytes(&old).expect("old").sprite("hero").expect("hero");
    let new_module = Bundle::from_bytes(&new).expect("new").sprite("hero").expect("hero");
    let mut vm = VmTrace::new(&old_module);
    vm.spawn("Jump");
    vm.spawn("Run");
    for t in 0..at + 1 + 30 {
        if t == at {
            let r = vm.batch.reload(&new_module, new_module.state("Walk").expect("Walk"));
            assert_eq!(&r, report);
        }
        vm.tick();
    }
    for (entity, i) in [(jump, 0), (run, 1)] {
        let (ours, theirs) = (trace(&app, entity), vm.trace(i));
        assert!(ours == theirs, "instance {i}: {}", first_difference(&ours, &theirs));
    }
    let animkit = app.world().resource::<Animkit>();
    assert_eq!((animkit.state_name(run), animkit.time_in_state(run)), (Ok("Walk"), Ok(31)));
}

#[test]
fn a_corrupted_reload_keeps_the_old_program_playing() {
    let old = compile("hero.anim", &hero_source());
    let (mut app, dir) = app();
    let (hero, _) = load(&mut app, &dir, "hero.animb", old.clone());
    let walk = app.world_mut().spawn(AnimkitSprite::new(hero.clone(), "hero", "Walk")).id();
    run_ticks(&mut app, 8);
    dir.insert_asset(Path::new("hero.animb"), b"ANIMB".to_vec());
    app.world().resource::<AssetServer>().reload("hero.animb");
    let state = settle(&mut app, &hero);
    assert!(matches!(state, LoadState::Failed(_)), "{state:?}");
    let done = app.world().resource::<common::Traces>().lines[&walk].len() as u64;
    run_ticks(&mut app, 60 - done);
    let (ours, theirs) = (trace(&app, walk), animvm_trace(&old, "Walk", 60));
    assert!(ours == theirs, "{}", first_difference(&ours, &theirs));
    let mut reloads = Vec::new();
    reloaded_at(&mut app, &mut reloads);
    assert!(reloads.is_empty());
}

/// Feature `atlas` (always on in the tests): the frame index lands in `Sprite::texture_atlas`.
#[cfg(feature = "atlas")]
#[test]
fn the_frame_index_is_written_into_the_texture_atlas() {
    use bevy::image::TextureAtlas;
    let bytes = compile("hero.anim", &hero_source());
    let (mut app, dir) = app();
    let (hero, _) = load(&mut app, &dir, "hero.animb", bytes.clone());
    let atlas = TextureAtlas { layout: Handle::default(), index: 7 };
    let e = app
        .world_mut()
        .spawn((AnimkitSprite::new(hero, "hero", "Run"), Sprite::from_atlas_image(Handle::default(), atlas)))
        .id();
    let mut seen = Vec::new();
    for _ in 0..30 {
        run_ticks(&mut app, 1);
        let sprite = app.world().get::<Sprite>(e).expect("a sprite");
        seen.push(sprite.texture_atlas.as_ref().expect("an atlas").index as u32);
    }
    let theirs: Vec<u32> = animvm_trace(&bytes, "Run", 30)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON")["frame"].as_u64().expect("a frame") as u32)
        .collect();
    assert_eq!(seen, theirs);
    assert_eq!(&seen[..9], [0, 0, 0, 0, 1, 1, 1, 1, 2]);
}
