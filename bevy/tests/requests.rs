//! States requested through the component: a change of `AnimkitSprite`
//! after the entity started switches it at the next tick, as
//! `Animkit::set_state` does; an unknown name keeps it playing and puts
//! `AnimkitFailed` on it until a known one is requested.

use crate::common;

use animkit_bevy::{Animkit, AnimkitError, AnimkitFailed, AnimkitSprite};
use animkit_vm::game::Bundle;
use bevy::prelude::*;
use common::{VmTrace, app, compile, first_difference, hero_source, load, run_ticks, trace};

fn request(app: &mut App, e: Entity, state: &str) {
    let mut sprite = app.world_mut().get_mut::<AnimkitSprite>(e).expect("a sprite");
    sprite.state = state.to_string();
}

fn failed(app: &App, e: Entity) -> Option<String> {
    app.world().get::<AnimkitFailed>(e).map(|f| f.0.to_string())
}

#[test]
fn a_state_requested_through_the_component_takes_effect_at_the_next_tick() {
    let bytes = compile("hero.anim", &hero_source());
    let (mut app, dir) = app();
    let (hero, _) = load(&mut app, &dir, "hero.animb", bytes.clone());
    let e = app.world_mut().spawn(AnimkitSprite::new(hero, "hero", "Walk")).id();
    run_ticks(&mut app, 10);
    request(&mut app, e, "Attack");
    // Nothing changes before the next tick.
    assert_eq!(app.world().resource::<Animkit>().state_name(e), Ok("Walk"));
    run_ticks(&mut app, 30);
    // The same through the vm's game API: set_state before tick 10.
    let module = Bundle::from_bytes(&bytes).expect("a bundle").sprite("hero").expect("hero");
    let mut vm = VmTrace::new(&module);
    vm.spawn("Walk");
    for t in 0..40 {
        if t == 10 {
            vm.batch.set_state(0, module.state("Attack").expect("Attack"));
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
    // Attack ended in Idle (tick 22) by itself; the component still says
    // Attack, and writing it again asks for it again.
    assert_eq!(app.world().resource::<Animkit>().state_name(e), Ok("Idle"));
    request(&mut app, e, "Attack");
    run_ticks(&mut app, 1);
    let animkit = app.world().resource::<Animkit>();
    assert_eq!((animkit.state_name(e), animkit.time_in_state(e)), (Ok("Attack"), Ok(1)));
    // A write that leaves the entity in its state restarts nothing.
    request(&mut app, e, "Attack");
    run_ticks(&mut app, 1);
    assert_eq!(app.world().resource::<Animkit>().time_in_state(e), Ok(2));
    assert_eq!(failed(&app, e), None);
}

#[test]
fn an_unknown_requested_state_keeps_the_entity_playing_and_fails_until_fixed() {
    let bytes = compile("hero.anim", &hero_source());
    let (mut app, dir) = app();
    let (hero, _) = load(&mut app, &dir, "hero.animb", bytes);
    let e = app.world_mut().spawn(AnimkitSprite::new(hero, "hero", "Run")).id();
    run_ticks(&mut app, 3);
    request(&mut app, e, "Wlak");
    run_ticks(&mut app, 2);
    assert_eq!(failed(&app, e).as_deref(), Some("no state named `Wlak` in sprite module `hero`; did you mean `Walk`?"));
    assert!(
        matches!(&app.world().get::<AnimkitFailed>(e).expect("failed").0, AnimkitError::State(u) if u.nearest == ["Walk"])
    );
    // It plays on in Run.
    let animkit = app.world().resource::<Animkit>();
    assert_eq!((animkit.state_name(e), animkit.time_in_state(e)), (Ok("Run"), Ok(5)));
    // A known state clears the failure and switches.
    request(&mut app, e, "Walk");
    run_ticks(&mut app, 1);
    assert_eq!(failed(&app, e), None);
    let animkit = app.world().resource::<Animkit>();
    assert_eq!((animkit.state_name(e), animkit.time_in_state(e)), (Ok("Walk"), Ok(1)));
}
