//! `bevy_sprite_ns_per_entity_tick_1e5`: 10^5 animated sprite entities in
//! a headless Bevy app (`MinimalPlugins`, `AssetPlugin`, one animation tick
//! per `App::update`), the cost of one `App::update` per entity, for the
//! animkit plugin and for `bevy_spritesheet_animation` (7.0.0, the
//! version for Bevy 0.19) in the same process, rounds alternating.
//!
//! ```text
//! cargo run --release -p animkit-bevy --features bench --example bevy_bench
//! ```
//!
//! Both play a four-frame walk at 100 ms a frame into each entity's
//! `Sprite::texture_atlas` index: animkit `Walk: 5|step, 5, 5, 5, _loop`
//! at the plugin's 50 ticks a second (an event per cycle, entities spread over
//! the cycle by phase), the peer a four-index animation at
//! `AnimationDuration::PerFrame(100)`. `animkit_frame_only` is the plugin
//! on entities without a `Sprite` (its `AnimkitFrame` component only);
//! `vm_batch` the same walk in a bare `AnimationBatch`, no Bevy.

use animkit_bevy::{AnimkitBundle, AnimkitPlugin, AnimkitSprite};
use bevy::asset::AssetPlugin;
use bevy::image::TextureAtlas;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_spritesheet_animation::prelude::*;
use std::hint::black_box;
use std::time::{Duration, Instant};

const ENTITIES: usize = 100_000;
const UPDATES: u32 = 50;
const ROUNDS: usize = 11;
const TICK: Duration = Duration::from_millis(20);
const WALK: &str = "Walk: 5|step, 5, 5, 5, _loop\n";

fn headless() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, AssetPlugin::default()))
        .insert_resource(TimeUpdateStrategy::ManualDuration(TICK))
        .insert_resource(Time::<Fixed>::from_duration(TICK));
    app
}

fn walk_bundle() -> Result<animkit_vm::game::Bundle, String> {
    let sources = [animkit_compiler::Source::new("walk.anim".to_string(), WALK)];
    let program = animkit_compiler::compile(&sources, &Default::default()).map_err(|e| e.to_string())?;
    animkit_vm::game::Bundle::from_bytes(&animkit_vm::engine::codec::encode(&program)).map_err(|e| e.to_string())
}

fn atlas_sprite() -> Sprite {
    Sprite::from_atlas_image(Handle::default(), TextureAtlas { layout: Handle::default(), index: 0 })
}

fn animkit_app(bundle: &animkit_vm::game::Bundle, with_sprite: bool) -> App {
    let mut app = headless();
    app.add_plugins(AnimkitPlugin::default());
    let handle = app.world_mut().resource_mut::<Assets<AnimkitBundle>>().add(AnimkitBundle::new(bundle.clone()));
    for i in 0..ENTITIES {
        let sprite = AnimkitSprite::new(handle.clone(), "walk", "Walk").with_phase((i % 20) as u32);
        if with_sprite {
            app.world_mut().spawn((sprite, atlas_sprite()));
        } else {
            app.world_mut().spawn(sprite);
        }
    }
    app
}

fn peer_app() -> App {
    let mut app = headless();
    app.add_plugins(SpritesheetAnimationPlugin);
    let animation = Spritesheet::new(&Handle::default(), 4, 1)
        .create_animation()
        .add_indices([0, 1, 2, 3])
        .set_duration(AnimationDuration::PerFrame(100))
        .build();
    let animation = app.world_mut().resource_mut::<Assets<Animation>>().add(animation);
    for _ in 0..ENTITIES {
        app.world_mut().spawn((atlas_sprite(), SpritesheetAnimation::new(animation.clone())));
    }
    app
}

/// Nanoseconds per entity and update over one round.
fn round(app: &mut App) -> f64 {
    let start = Instant::now();
    for _ in 0..UPDATES {
        app.update();
    }
    start.elapsed().as_nanos() as f64 / (UPDATES as f64 * ENTITIES as f64)
}

fn vm_round(batch: &mut animkit_vm::game::AnimationBatch) -> f64 {
    let mut events = [animkit_vm::game::InstanceEvent::default(); 4096];
    let start = Instant::now();
    for _ in 0..UPDATES {
        batch.tick();
        while batch.drain_events(&mut events) == events.len() {}
        black_box(batch.frames());
    }
    start.elapsed().as_nanos() as f64 / (UPDATES as f64 * ENTITIES as f64)
}

fn atlas_index(app: &mut App) -> Vec<usize> {
    let mut q = app.world_mut().query::<&Sprite>();
    q.iter(app.world()).filter_map(|s| s.texture_atlas.as_ref().map(|a| a.index)).take(5).collect()
}

fn main() -> Result<(), String> {
    let bundle = walk_bundle()?;
    let mut ours = animkit_app(&bundle, true);
    let mut frame_only = animkit_app(&bundle, false);
    let mut peer = peer_app();
    let module = bundle.sprite("walk").map_err(|e| e.to_string())?;
    let walk = module.state("Walk").map_err(|e| e.to_string())?;
    let mut batch = module.batch();
    for i in 0..ENTITIES {
        batch.spawn_at(walk, (i % 20) as u32);
    }
    // Warm up (the first update starts the clock, spawns settle).
    for app in [&mut ours, &mut frame_only, &mut peer] {
        for _ in 0..10 {
            app.update();
        }
    }
    let (mut best_ours, mut best_frame, mut best_peer, mut best_vm) = (f64::MAX, f64::MAX, f64::MAX, f64::MAX);
    for r in 0..ROUNDS {
        if r % 2 == 0 {
            best_ours = best_ours.min(round(&mut ours));
            best_peer = best_peer.min(round(&mut peer));
        } else {
            best_peer = best_peer.min(round(&mut peer));
            best_ours = best_ours.min(round(&mut ours));
        }
        best_frame = best_frame.min(round(&mut frame_only));
        best_vm = best_vm.min(vm_round(&mut batch));
    }
    // Both animate: the atlas indices move.
    let (a, p) = (atlas_index(&mut ours), atlas_index(&mut peer));
    eprintln!("atlas indices after the run: animkit {a:?}, bevy_spritesheet_animation {p:?}");
    println!(
        "bevy_sprite_ns_per_entity_tick_1e5      {best_ours:9.2} ns  animkit plugin, Sprite atlas index written, per entity and fixed update"
    );
    println!(
        "bevy_spritesheet_animation_ns_1e5       {best_peer:9.2} ns  bevy_spritesheet_animation 7.0.0, same walk, same run"
    );
    println!("bevy_sprite_speedup_1e5                 {:9.1} x", best_peer / best_ours);
    println!(
        "bevy_sprite_ns_per_entity_tick_1e5_frame_only {best_frame:6.2} ns  animkit plugin, AnimkitFrame only (no Sprite)"
    );
    println!(
        "vm_batch_ns_per_tick_1e5                {best_vm:9.2} ns  the same walk in a bare AnimationBatch, no Bevy"
    );
    Ok(())
}
