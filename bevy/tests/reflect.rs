//! The public components are reflected and registered by the plugin: an
//! editor or inspector reads them, and a state written through reflection
//! is a request like any other write.

use crate::common;

use animkit_bevy::{Animkit, AnimkitFailed, AnimkitFrame, AnimkitSettings, AnimkitSprite, ReloadFallback};
use bevy::ecs::reflect::ReflectComponent;
use bevy::prelude::*;
use bevy::reflect::GetPath;
use common::{app, compile, hero_source, load, run_ticks};
use std::any::TypeId;

#[test]
fn the_components_are_registered_and_read_and_written_through_reflection() {
    let bytes = compile("hero.anim", &hero_source());
    let (mut app, dir) = app();
    let (hero, _) = load(&mut app, &dir, "hero.animb", bytes);
    let e = app.world_mut().spawn(AnimkitSprite::new(hero, "hero", "Walk").with_phase(6)).id();
    run_ticks(&mut app, 1);
    let registry = app.world().resource::<AppTypeRegistry>().clone();
    let registry = registry.read();
    for (id, name) in [
        (TypeId::of::<AnimkitSprite>(), "animkit_bevy::AnimkitSprite"),
        (TypeId::of::<AnimkitFrame>(), "animkit_bevy::AnimkitFrame"),
        (TypeId::of::<AnimkitFailed>(), "animkit_bevy::AnimkitFailed"),
        (TypeId::of::<AnimkitSettings>(), "animkit_bevy::AnimkitSettings"),
        (TypeId::of::<ReloadFallback>(), "animkit_bevy::ReloadFallback"),
    ] {
        let registration = registry.get(id).unwrap_or_else(|| panic!("{name} is registered"));
        assert_eq!(registration.type_info().type_path(), name);
    }
    let sprite = registry.get_type_data::<ReflectComponent>(TypeId::of::<AnimkitSprite>()).expect("a component");
    let frame = registry.get_type_data::<ReflectComponent>(TypeId::of::<AnimkitFrame>()).expect("a component");
    let entity = app.world().entity(e);
    let s = sprite.reflect(entity).expect("the entity's sprite");
    assert_eq!(s.path::<String>("state").map(String::as_str), Ok("Walk"));
    assert_eq!(s.path::<String>("module").map(String::as_str), Ok("hero"));
    assert_eq!(s.path::<u32>("phase"), Ok(&6));
    // Walk's second frame from tick 6 on: phase 6, one tick.
    let f = frame.reflect(entity).expect("the entity's frame");
    assert_eq!(f.path::<u32>("index"), Ok(&1));
    // A write through reflection requests the state.
    let mut entity = app.world_mut().entity_mut(e);
    let mut s = sprite.reflect_mut(&mut entity).expect("the entity's sprite");
    *s.path_mut::<String>("state").expect("a state field") = "Jump".to_string();
    drop(registry);
    run_ticks(&mut app, 1);
    assert_eq!(app.world().resource::<Animkit>().state_name(e), Ok("Jump"));
}
