//! The `slap_gl` group's 1 000-actor stage drawn at each level of detail
//! forced, and chosen per actor: best frame time of `ROUNDS` rounds each
//! (interleaved), triangles and draw calls; and the stage without its
//! actors (the frame's fixed cost). `cargo run --release -p animkit-bench
//! --example crowdprof [ROUNDS [auto]]`.
use animkit_bench::figures::slap_gl::{SIZE, stage};
use animkit_bench::rawgl::finish;
use animkit_runtime::render::HeadlessGl;
use animkit_runtime::slap::polly::LEVELS;
use animkit_runtime::slap::view::{Detail, SceneView};
use std::time::Instant;

fn main() {
    let rounds: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(15);
    let mut r = HeadlessGl::new(SIZE.0, SIZE.1).and_then(|h| h.into_renderer()).expect("GL");
    let mut view = SceneView::new(&mut r).expect("meshes");
    let mut crowd = stage(1_000, 40);
    crowd.seek(45);
    let mut details: Vec<(String, Detail)> = vec![("auto".into(), Detail::Auto)];
    // `crowdprof N auto`: only the chosen levels (a profiling target).
    if std::env::args().nth(2).as_deref() != Some("auto") {
        details.extend((0..LEVELS).map(|l| (format!("level {l}"), Detail::Level(l))));
        // Right after a frame at full detail: what llvmpipe leaves of a
        // large frame (its bins) is paid by the next one.
        details.push(("auto after level 0".into(), Detail::Auto));
    }
    let mut best = vec![f64::INFINITY; details.len() + 1];
    let mut stats = vec![(0, 0); details.len() + 1];
    for _ in 0..rounds {
        for (k, (name, d)) in details.iter().enumerate() {
            if name == "auto after level 0" {
                view.set_detail(Detail::Level(0));
                crowd.step();
                view.draw_scene(&mut r, &crowd).expect("draws");
            }
            view.set_detail(*d);
            finish(r.gl());
            let t = Instant::now();
            crowd.step();
            view.draw_scene(&mut r, &crowd).expect("draws");
            finish(r.gl());
            best[k] = best[k].min(t.elapsed().as_secs_f64());
            stats[k] = (r.stats_3d().triangles, r.stats_3d().draw_calls);
        }
        // No actors: sky, ground, nothing else.
        finish(r.gl());
        let t = Instant::now();
        view.draw(&mut r, std::iter::empty(), &crowd.camera()).expect("draws");
        finish(r.gl());
        let k = details.len();
        best[k] = best[k].min(t.elapsed().as_secs_f64());
        stats[k] = (r.stats_3d().triangles, r.stats_3d().draw_calls);
    }
    for (k, name) in details.iter().map(|d| d.0.as_str()).chain(["no actors"]).enumerate() {
        println!("{name:10} {:8.3} ms {:8} triangles {:3} draw calls", best[k] * 1e3, stats[k].0, stats[k].1);
    }
}
