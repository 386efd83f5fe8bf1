//! What a headless SLAP frame allocates per visible actor: a counting
//! allocator records the heap allocated (in all, and the most held at
//! once above what was held before) by one `SceneView::draw_scene` of the
//! `slap_gl` stage of N actors, every one in view, after a warm-up frame.
//! `cargo run --release -p animkit-bench --example slapframemem`.

use animkit_bench::figures::slap_gl::{SIZE, stage};
use animkit_bench::heap::{Counting, LIVE, PEAK, TOTAL};
use animkit_runtime::render::HeadlessGl;
use animkit_runtime::slap::view::SceneView;
use std::sync::atomic::Ordering::Relaxed;

#[global_allocator]
static A: Counting = Counting;

fn main() {
    let mut r = HeadlessGl::new(SIZE.0, SIZE.1).and_then(|h| h.into_renderer()).expect("GL");
    let mut view = SceneView::new(&mut r).expect("meshes");
    println!("{:>7} {:>14} {:>14} {:>16}", "actors", "allocated", "peak held", "held / actor");
    let mut rows = Vec::new();
    for n in [100usize, 400, 1000, 4000] {
        let mut crowd = stage(n, 40);
        crowd.seek(45);
        let before = LIVE.load(Relaxed);
        view.draw_scene(&mut r, &crowd).expect("draws");
        let first = LIVE.load(Relaxed) - before;
        crowd.step();
        let (base, total) = (LIVE.load(Relaxed), TOTAL.load(Relaxed));
        PEAK.store(base, Relaxed);
        view.draw_scene(&mut r, &crowd).expect("draws");
        let peak = PEAK.load(Relaxed) - base;
        let all = TOTAL.load(Relaxed) - total;
        println!("{n:>7} {all:>14} {peak:>14} {:>16.0}   (the first frame kept {first} bytes)", peak as f64 / n as f64);
        rows.push((n, all, peak));
    }
    let (a, b) = (rows[0], rows[3]);
    println!(
        "per extra visible actor: {:.0} bytes allocated, {:.0} held",
        (b.1 - a.1) as f64 / (b.0 - a.0) as f64,
        (b.2 as f64 - a.2 as f64) / (b.0 - a.0) as f64
    );
}
