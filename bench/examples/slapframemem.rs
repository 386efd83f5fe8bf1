//! What a headless SLAP frame allocates per visible actor: a counting
//! allocator records the heap allocated (in all, and the most held at
//! once above what was held before) by one `SceneView::draw_scene` of the
//! `slap_gl` stage of N actors, every one in view, after a warm-up frame.
//! `cargo run --release -p animkit-bench --example slapframemem`.

use animkit_bench::figures::slap_gl::{SIZE, stage};
use animkit_runtime::render::HeadlessGl;
use animkit_runtime::slap::view::SceneView;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering::Relaxed};

struct Counting;
static LIVE: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);
static TOTAL: AtomicUsize = AtomicUsize::new(0);

fn grew(by: isize) {
    if by > 0 {
        TOTAL.fetch_add(by as usize, Relaxed);
    }
    let now = LIVE.fetch_add(by, Relaxed) + by;
    PEAK.fetch_max(now, Relaxed);
}

// SAFETY: every call is forwarded unchanged to the system allocator.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size() as isize);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        grew(-(layout.size() as isize));
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        grew(new_size as isize - layout.size() as isize);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

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
