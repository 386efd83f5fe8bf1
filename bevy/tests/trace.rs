//! A Bevy app (`MinimalPlugins`, the plugin, a bundle loaded through the
//! asset server) plays `examples/hero.anim`: after N animation ticks each
//! entity's `AnimkitFrame`s and `AnimkitEvent`s, written as trace lines,
//! equal `animvm --trace`'s byte for byte.

use crate::common;

use animkit_bevy::{Animkit, AnimkitFrame, AnimkitSprite};
use bevy::asset::LoadState;
use common::{animvm_trace, app, compile, first_difference, hero_source, load, run_ticks, trace};

/// Every state of `examples/hero.anim`: transitions, `_wait`, ping-pong,
/// zero-tick frames, events at a loop's end.
const STATES: [&str; 9] = ["Idle", "Walk", "Run", "Jump", "Fall", "Land", "Attack", "Hurt", "Death"];

#[test]
fn every_state_of_hero_plays_as_animvm_traces_it() {
    let bytes = compile("hero.anim", &hero_source());
    let (mut app, dir) = app();
    let (hero, state) = load(&mut app, &dir, "hero.animb", bytes.clone());
    assert!(matches!(state, LoadState::Loaded), "{state:?}");
    // One entity per state, all in one shared batch.
    let entities: Vec<_> =
        STATES.iter().map(|s| app.world_mut().spawn(AnimkitSprite::new(hero.clone(), "hero", *s)).id()).collect();
    run_ticks(&mut app, 7);
    // The first lines, written out: the comparison compares something.
    assert_eq!(
        trace(&app, entities[1]),
        "{\"tick\":0,\"state\":\"Walk\",\"category\":\"Walk\",\"frame\":0,\"events\":[\"step\"]}\n\
         {\"tick\":1,\"state\":\"Walk\",\"category\":\"Walk\",\"frame\":0,\"events\":[]}\n\
         {\"tick\":2,\"state\":\"Walk\",\"category\":\"Walk\",\"frame\":0,\"events\":[]}\n\
         {\"tick\":3,\"state\":\"Walk\",\"category\":\"Walk\",\"frame\":0,\"events\":[]}\n\
         {\"tick\":4,\"state\":\"Walk\",\"category\":\"Walk\",\"frame\":0,\"events\":[]}\n\
         {\"tick\":5,\"state\":\"Walk\",\"category\":\"Walk\",\"frame\":0,\"events\":[]}\n\
         {\"tick\":6,\"state\":\"Walk\",\"category\":\"Walk\",\"frame\":1,\"events\":[]}\n"
    );
    run_ticks(&mut app, 123);
    for (state, entity) in STATES.iter().zip(&entities) {
        let ours = trace(&app, *entity);
        let theirs = animvm_trace(&bytes, state, 130);
        assert_eq!(theirs.lines().count(), 130);
        assert!(ours == theirs, "state {state}: {}", first_difference(&ours, &theirs));
        // The component holds the last line's frame.
        let frame = app.world().get::<AnimkitFrame>(*entity).expect("a frame").index;
        let last = theirs.lines().last().expect("a line");
        assert!(last.contains(&format!("\"frame\":{frame},")), "{last} vs frame {frame}");
    }
    assert_eq!(app.world().resource::<Animkit>().len(), 9);
}

#[test]
fn a_despawned_entitys_instance_is_reused_from_the_start() {
    let bytes = compile("hero.anim", &hero_source());
    let (mut app, dir) = app();
    let (hero, _) = load(&mut app, &dir, "hero.animb", bytes.clone());
    let walk = app.world_mut().spawn(AnimkitSprite::new(hero.clone(), "hero", "Walk")).id();
    let idle = app.world_mut().spawn(AnimkitSprite::new(hero.clone(), "hero", "Idle")).id();
    run_ticks(&mut app, 17);
    app.world_mut().despawn(walk);
    assert_eq!(app.world().resource::<Animkit>().len(), 1);
    run_ticks(&mut app, 5);
    // The new entity takes the paused instance over; it plays from tick 0.
    let run = app.world_mut().spawn(AnimkitSprite::new(hero.clone(), "hero", "Run")).id();
    run_ticks(&mut app, 50);
    let ours = trace(&app, run);
    let theirs = animvm_trace(&bytes, "Run", 50);
    assert!(ours == theirs, "Run after a despawn: {}", first_difference(&ours, &theirs));
    let ours = trace(&app, idle);
    let theirs = animvm_trace(&bytes, "Idle", 72);
    assert!(ours == theirs, "Idle beside them: {}", first_difference(&ours, &theirs));
    // The despawned entity fired its two steps (ticks 0 and 12) and
    // nothing after it went.
    let traces = app.world().resource::<common::Traces>();
    assert_eq!(traces.lines[&walk].len(), 17);
    assert_eq!(traces.events.iter().filter(|e| e.entity == walk).count(), 2);
    assert_eq!(app.world().resource::<Animkit>().len(), 2);
}
