//! Ticks sprite batches (a profiling target: `valgrind --tool=callgrind
//! --branch-sim=yes` counts instructions and mispredicted branches of
//! `SpriteBatch::tick` repeatably). Argument: walk | staggered | mixed.
use animkit_bench::figures::{sprite_mixed::MIXED, sprites::WALK, sprites_from};
use std::hint::black_box;

fn main() {
    let which = std::env::args().nth(1).unwrap_or_else(|| "walk".into());
    let n = 100_000;
    let (src, name) = if which == "mixed" { (MIXED, "mixed") } else { (WALK, "walk") };
    let s = sprites_from(src, name);
    let mut b = s.batch();
    let states: Vec<String> = (0..s.state_count() as u16).map(|i| s.state_name(i).to_string()).collect();
    for i in 0..n {
        let st = if which == "mixed" { &states[i % states.len()] } else { &states[0] };
        b.spawn(st).unwrap();
    }
    for t in 0..60u32 {
        if which != "walk" {
            for i in (0..n as u32).filter(|i| i.wrapping_mul(2654435761) % 60 == t) {
                let st = b.sprites().state_name(b.state(i)).to_string();
                b.restart_state(i, &st).unwrap();
            }
        }
        b.tick();
        b.drain_events().for_each(|e| {
            black_box(e);
        });
    }
    let mut count = 0usize;
    for _ in 0..100 {
        b.tick();
        count += b.drain_events().count();
    }
    println!("{which}: {} frame changes, {count} events", b.stats().frame_changes);
}
