//! The plugin's own clock: the animations tick at
//! `AnimkitPlugin::ticks_per_second` of virtual time, whatever rate the
//! game's `Time<Fixed>` (its physics) runs at.

use crate::common;

use animkit_bevy::{Animkit, AnimkitPlugin, AnimkitSettings};
use bevy::prelude::*;
use common::{Traces, animvm_trace, app, app_with, compile, first_difference, hero_source, load, run_ticks, trace};

/// Runs of the game's `FixedUpdate`.
#[derive(Resource, Default)]
struct FixedRuns(u64);

fn count_fixed(mut runs: ResMut<FixedRuns>) {
    runs.0 += 1;
}

/// `n` frames of one `TICK` (20 ms) of virtual time each: the ticks and
/// the fixed updates they ran.
fn frames(app: &mut App, n: u32) -> (u64, u64) {
    let (ticks, fixed) = (app.world().resource::<Traces>().ticks, app.world().resource::<FixedRuns>().0);
    for _ in 0..n {
        app.update();
    }
    (app.world().resource::<Traces>().ticks - ticks, app.world().resource::<FixedRuns>().0 - fixed)
}

#[test]
fn the_games_fixed_rate_does_not_change_the_animation_rate() {
    let bytes = compile("hero.anim", &hero_source());
    let (mut app, dir) = app();
    // The game's physics at 10 Hz: 50 frames of 20 ms are 10 fixed
    // updates, and 50 ticks of the plugin's 50 a second.
    app.insert_resource(Time::<Fixed>::from_hz(10.0))
        .init_resource::<FixedRuns>()
        .add_systems(FixedUpdate, count_fixed);
    let (hero, _) = load(&mut app, &dir, "hero.animb", bytes.clone());
    let e = app.world_mut().spawn(animkit_bevy::AnimkitSprite::new(hero, "hero", "Walk")).id();
    assert_eq!(frames(&mut app, 50), (50, 10));
    let (ours, theirs) = (trace(&app, e), animvm_trace(&bytes, "Walk", 50));
    assert!(ours == theirs, "{}", first_difference(&ours, &theirs));
    assert_eq!(app.world().resource::<Animkit>().time_in_state(e), Ok(50));
}

#[test]
fn the_plugin_ticks_at_its_own_rate() {
    let bytes = compile("hero.anim", &hero_source());
    let (mut app, dir) = app_with(AnimkitPlugin { ticks_per_second: 25, ..Default::default() });
    // The game's fixed rate is the old coupling's 50 Hz: one fixed update
    // a frame, and still one tick every other frame.
    app.insert_resource(Time::<Fixed>::from_hz(50.0))
        .init_resource::<FixedRuns>()
        .add_systems(FixedUpdate, count_fixed);
    let (hero, _) = load(&mut app, &dir, "hero.animb", bytes.clone());
    let e = app.world_mut().spawn(animkit_bevy::AnimkitSprite::new(hero, "hero", "Run")).id();
    assert_eq!(frames(&mut app, 60), (30, 60));
    let (ours, theirs) = (trace(&app, e), animvm_trace(&bytes, "Run", 30));
    assert!(ours == theirs, "{}", first_difference(&ours, &theirs));
    // The rate changes at run time through the settings: 0 pauses.
    app.world_mut().resource_mut::<AnimkitSettings>().ticks_per_second = 0;
    assert_eq!(frames(&mut app, 10), (0, 10));
    app.world_mut().resource_mut::<AnimkitSettings>().ticks_per_second = 50;
    run_ticks(&mut app, 10);
    let (ours, theirs) = (trace(&app, e), animvm_trace(&bytes, "Run", 40));
    assert!(ours == theirs, "{}", first_difference(&ours, &theirs));
}
