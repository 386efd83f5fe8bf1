//! A game's loop over a bundle, headless: a fixed 50 Hz update drives one
//! animation and a crowd of 100 in one batch of a sprite module, drains
//! their events into reused buffers, and steps a SLAP cutscene whose
//! actors the game would draw itself. Prints what a game would act on,
//! once a second.
//!
//! `cargo run -p animkit-vm --example game_loop [BUNDLE.animb [SPRITE] [SCENE]]`
//! plays any bundle: the sprite module and scene named, or else the
//! bundle's first of each (a bundle may have only one kind); the
//! animations start in the module's first state. Without a bundle it plays
//! the documentation's (sprite module `hero`, scene `intro`). Errors are
//! printed in words (`game_loop: ...`) with exit status 1.

use animkit_vm::game::{Bundle, Event, InstanceEvent, ModuleKind, Speed, State};
use std::io::Write;

/// The module of `kind` named `name`, or the bundle's first of that kind.
fn pick<'a>(bundle: &'a Bundle, kind: ModuleKind, name: Option<&'a str>) -> Option<&'a str> {
    name.or_else(|| (0..bundle.module_count()).filter_map(|i| bundle.module(i)).find(|m| m.1 == kind).map(|m| m.0))
}

/// Runs two seconds of the game on `bundle` (the sprite module `sprite`
/// and the scene `scene`, or the first of each), writing its log to `out`.
pub fn run(
    bundle: &Bundle,
    sprite: Option<&str>,
    scene: Option<&str>,
    out: &mut dyn Write,
) -> Result<(), Box<dyn std::error::Error>> {
    let sprite = pick(bundle, ModuleKind::Sprite, sprite);
    let scene = pick(bundle, ModuleKind::Scene, scene);
    if sprite.is_none() && scene.is_none() {
        return Err("the bundle has no sprite module and no SLAP scene to play".into());
    }
    let hero = sprite.map(|name| bundle.sprite(name)).transpose()?;
    let mut scene = scene.map(|name| bundle.scene(name)).transpose()?;
    let first = State::default(); // the module's first state
    let mut player = hero.as_ref().map(|h| h.spawn(first));
    let mut crowd = hero.as_ref().map(|h| h.batch());
    if let Some(crowd) = &mut crowd {
        for i in 0..100 {
            crowd.spawn_at(first, i % 4);
        }
        // Half the crowd plays at 3/2 speed.
        for i in (0..100).step_by(2) {
            crowd.set_speed(i, Speed::ratio(3, 2).ok_or("speed")?);
        }
    }
    let (mut events, mut crowd_events) = ([Event::default(); 16], [InstanceEvent::default(); 512]);
    let (mut fired, mut crowd_fired) = (0, 0);
    for tick in 1..=100u32 {
        if let (Some(player), Some(crowd)) = (&mut player, &mut crowd) {
            player.tick();
            crowd.tick();
            fired += player.drain_events(&mut events);
            crowd_fired += crowd.drain_events(&mut crowd_events);
        }
        // The cutscene runs at 25 frames a second.
        if let Some(scene) = &mut scene {
            if tick % 2 == 0 && !scene.is_finished() {
                scene.step();
            }
        }
        if tick % 50 == 0 {
            write!(out, "t={}s", tick / 50)?;
            if let (Some(hero), Some(player)) = (&hero, &player) {
                write!(
                    out,
                    " {} {} frame {} events {fired} crowd events {crowd_fired}",
                    hero.name(),
                    hero.state_name(player.state()),
                    player.frame()
                )?;
            }
            if let Some(scene) = &scene {
                write!(out, " scene frame {} camera {:?}", scene.frame(), scene.camera().position)?;
            }
            writeln!(out)?;
            for a in scene.iter().flat_map(|s| s.actors()) {
                writeln!(out, "  actor {} at {:?} {:?}", a.id, a.position, a.action)?;
            }
        }
    }
    Ok(())
}

#[allow(dead_code)]
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first() {
        Some(path) => Bundle::open(path).map_err(|e| -> Box<dyn std::error::Error> { e.into() }).and_then(|bundle| {
            run(
                &bundle,
                args.get(1).map(String::as_str),
                args.get(2).map(String::as_str),
                &mut std::io::stdout().lock(),
            )
        }),
        None => Bundle::from_bytes(&animkit_vm::game::doc_bundle())
            .map_err(|e| -> Box<dyn std::error::Error> { e.into() })
            .and_then(|bundle| run(&bundle, None, None, &mut std::io::stdout().lock())),
    };
    if let Err(e) = result {
        eprintln!("game_loop: {e}");
        std::process::exit(1);
    }
}
