//! A game's loop over a bundle, headless: a fixed 50 Hz update drives a
//! hero animation and a crowd of 100 in one batch, drains their events
//! into reused buffers, and steps a SLAP cutscene whose actors the game
//! would draw itself. Prints what a game would act on, once a second.
//!
//! `cargo run -p animkit-vm --example game_loop [BUNDLE.animb]` (without a
//! bundle it uses the documentation's: sprite module `hero`, scene `intro`).

use animkit_vm::game::{Bundle, Event, InstanceEvent, Speed};
use std::io::Write;

/// Runs two seconds of the game on `bundle`, writing its log to `out`.
pub fn run(bundle: &Bundle, out: &mut dyn Write) -> Result<(), Box<dyn std::error::Error>> {
    let hero = bundle.sprite("hero")?;
    let walk = hero.state("Walk")?;
    let mut player = hero.spawn(walk);
    let mut crowd = hero.batch();
    for i in 0..100 {
        crowd.spawn_at(walk, i % 4);
    }
    // Half the crowd walks at 3/2 speed.
    for i in (0..100).step_by(2) {
        crowd.set_speed(i, Speed::ratio(3, 2).ok_or("speed")?);
    }
    let mut scene = bundle.scene("intro")?;
    let (mut events, mut crowd_events) = ([Event::default(); 16], [InstanceEvent::default(); 512]);
    let (mut steps, mut crowd_steps) = (0, 0);
    for tick in 1..=100u32 {
        player.tick();
        crowd.tick();
        let n = player.drain_events(&mut events);
        steps += events[..n].iter().filter(|e| hero.event_name(**e) == "step").count();
        crowd_steps += crowd.drain_events(&mut crowd_events);
        // The cutscene runs at 25 frames a second.
        if tick % 2 == 0 && !scene.is_finished() {
            scene.step();
        }
        if tick % 50 == 0 {
            let cam = scene.camera();
            writeln!(
                out,
                "t={}s hero {} frame {} steps {steps} crowd steps {crowd_steps} scene frame {} camera {:?}",
                tick / 50,
                hero.state_name(player.state()),
                player.frame(),
                scene.frame(),
                cam.position
            )?;
            for a in scene.actors() {
                writeln!(out, "  actor {} at {:?} {:?}", a.id, a.position, a.action)?;
            }
        }
    }
    Ok(())
}

#[allow(dead_code)]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let bundle = match std::env::args().nth(1) {
        Some(path) => Bundle::open(path)?,
        None => Bundle::from_bytes(&animkit_vm::game::doc_bundle())?,
    };
    run(&bundle, &mut std::io::stdout().lock())
}
