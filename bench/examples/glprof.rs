//! A GL figure's workload, ours or the raw glow baseline's, repeated, for
//! `valgrind --tool=callgrind`, which counts the instructions of every
//! thread (llvmpipe's rasterizer threads and JIT code included). The
//! difference between the totals of 2 and 1 repetitions is the work of one
//! (set-up, shader compilation and the baseline's triangle recording
//! cancel out), so `ours` and `raw` compare repeatably on a noisy machine:
//!
//! ```sh
//! for n in 1 2; do valgrind --tool=callgrind --callgrind-out-file=/tmp/o$n \
//!     target/release/examples/glprof stream ours 0.1 $n; done
//! ```
//!
//! `glprof stream|frame ours|raw [scale] [repetitions]` (scale: 0.1 = a
//! tenth of the suite's workload, the default; 1 repetition).
use animkit_bench::draw::stream_text;
use animkit_bench::figures::gl::{FrameShapes, SEED, SIZE, canvas, flushed_triangles};
use animkit_bench::rawgl::{RawGl, finish, raw_vertices};
use animkit_runtime::animator::headless::feed_stream;
use animkit_runtime::render::Geometry;
use animkit_runtime::stream::Stream;
use animkit_vm::engine::animator::Canvas;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let what = args.first().map_or("stream", String::as_str);
    let who = args.get(1).map_or("ours", String::as_str);
    let scale: f64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(0.1);
    let reps: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(1);
    let mut c = canvas().expect("headless GL");
    c.frame();
    let (w, h) = SIZE;
    let text = stream_text(SEED, (200_000.0 * scale) as usize, 10_000);
    let shapes = FrameShapes::generate(SEED, (100_000.0 * scale) as usize, (20_000.0 * scale) as usize);
    let raw = RawGl::new(c.renderer.gl()).expect("shader");
    let chunks = if (what, who) == ("stream", "raw") { flushed_triangles(&text) } else { Vec::new() };
    let frame = if (what, who) == ("frame", "raw") {
        let mut g = Geometry::new();
        shapes.draw_into(&mut g);
        raw_vertices(g.vertices())
    } else {
        Vec::new()
    };
    finish(c.renderer.gl());
    let t = std::time::Instant::now();
    for _ in 0..reps {
        match (what, who) {
            ("stream", "ours") => {
                let mut s = Stream::new(c, "<stdin>");
                feed_stream(&mut s, &mut text.as_bytes(), &mut std::io::sink());
                finish(s.canvas().renderer.gl());
                c = s.into_canvas();
            }
            ("stream", _) => {
                for v in &chunks {
                    raw.draw(c.renderer.gl(), w, h, v);
                }
                finish(c.renderer.gl());
            }
            (_, "ours") => {
                let r = &mut c.renderer;
                r.clear([1.0; 4]);
                shapes.draw_into(r);
                r.flush();
                finish(r.gl());
            }
            _ => {
                let gl = c.renderer.gl();
                raw.clear(gl);
                raw.draw(gl, w, h, &frame);
                finish(gl);
            }
        }
    }
    println!("{what} {who} x{reps}: {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
}
