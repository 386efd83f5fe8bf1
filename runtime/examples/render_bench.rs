//! Times CPU tessellation + one flush for 100 000 primitives, headless:
//! `cargo run --release -p animkit-runtime --example render_bench`.
use std::time::Instant;

use animkit_runtime::render::*;

fn main() -> Result<(), RenderError> {
    let mut r = HeadlessGl::new(1024, 768)?.into_renderer()?;
    for (name, thick, dash) in [("thin solid", 1.0, 0xffff), ("thick dashed", 3.0, 0x0f0f)] {
        r.clear([1.0; 4]);
        let t = Instant::now();
        for i in 0..100_000u32 {
            let x = (i % 1000) as f32;
            let y = (i / 1000) as f32 * 7.0;
            r.stroke(&[[x, y], [x + 20.0, y + 5.0], [x + 30.0, y]], false, thick, dash, [0.0, 0.0, 0.0, 0.5]);
        }
        let queued = t.elapsed();
        r.flush();
        let _ = r.read_pixels();
        println!(
            "100k {name} polylines: queue {queued:?}, total incl. flush+readback {:?}, {:?}",
            t.elapsed(),
            r.stats()
        );
    }
    Ok(())
}
