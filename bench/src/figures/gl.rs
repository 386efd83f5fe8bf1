//! Animator on OpenGL, against a raw glow baseline in the same process and
//! context ([`RawGl`]: one buffer of 12-byte vertices, one draw call, a
//! two-line shader, the same blending).
//!
//! - **Stream end to end**: a visualiser's stream (simple commands, a
//!   `flush` every 10 000) through what `animvm -H -x 640 -y 480` runs for
//!   its standard input ([`feed_stream`] over a [`GlCanvas`] made by
//!   [`headless_canvas`]): reading, lowering, the VM, tessellation, the
//!   upload and draw at each flush, and a `glFinish` at the end. The
//!   baseline draws the same triangles (recorded from the renderer's CPU
//!   geometry), one upload and one draw call per flush, then `glFinish`.
//! - **Frame**: 100 000 thick lines (3 px, 5 to 40 px long) and 20 000
//!   filled circles (16 vertices, radius 3 to 8 px) at 640x480, through the
//!   renderer's API (clear, one `stroke` or `fill_convex` per primitive,
//!   flush, `glFinish`); the baseline clears, uploads the same triangles and
//!   draws them in one call, then `glFinish`.
//!
//! - **Polygon**: one `poly` of 100 000 random points over the 640x480
//!   target (its outline crosses itself about 10^9 times), through the
//!   renderer's API (clear, `fill_polygon`, flush, `glFinish`): the
//!   stencil-then-cover fill, linear in the points plus the fan's pixels.
//!   No baseline: exact triangulation, the previous way, took 30 s for
//!   5 000 such points.
//!
//! On a machine without a GPU the GL is Mesa's llvmpipe, which rasterizes a
//! few million small triangles a second: judge these by the ratios.

use super::Group;
use crate::corpus::Rng;
use crate::draw::stream_text;
use crate::rawgl::{RawGl, RawVertex, finish, raw_vertices};
use crate::timing::{best_interleaved, best_rotating};
use crate::{Context, Report};
use animkit_runtime::animator::headless::{feed_stream, headless_canvas};
use animkit_runtime::animator::{CpuCanvas, GlCanvas};
use animkit_runtime::render::{Geometry, Point, Rgba};
use animkit_runtime::stream::Stream;
use animkit_vm::engine::animator::Canvas;
use std::cell::RefCell;
use std::rc::Rc;
use std::time::Instant;

/// The group.
pub struct Gl;

/// Seed of the streamed commands.
pub const SEED: u64 = 0x57ea_3000_0000_0002;
/// Width and height of the target.
pub const SIZE: (u32, u32) = (640, 480);

/// The figures this group reports (`null` when there is no GL).
pub const KEYS: [&str; 9] = [
    "stream_cmds_per_s",
    "stream_raw_gl_cmds_per_s",
    "stream_vs_raw_gl",
    "stream_draw_calls_per_flush",
    "frame_ms_100k_lines",
    "frame_raw_gl_ms_100k_lines",
    "frame_vs_raw_gl",
    "frame_draw_calls",
    "poly_1e5_random_ms",
];

/// A headless canvas as `animvm -H -x 640 -y 480` makes it.
pub fn canvas() -> Result<GlCanvas, String> {
    let args = ["-H", "-x", "640", "-y", "480"].map(String::from);
    let args = animkit_runtime::cli::parse(&args).map_err(|e| e.to_string())?;
    headless_canvas(
        &<animkit_runtime::animator::AnimatorHost as animkit_runtime::host::Host>::options(&args)
            .map_err(|e| e.to_string())?,
    )
    .map_err(|e| e.report())
}

/// The triangles of each flush of `text`, from the renderer's CPU geometry.
pub fn flushed_triangles(text: &str) -> Vec<Vec<RawVertex>> {
    let chunks = Rc::new(RefCell::new(Vec::new()));
    let mut cpu = CpuCanvas::new(SIZE.0, SIZE.1);
    let sink = chunks.clone();
    cpu.on_flush(move |g| sink.borrow_mut().push(raw_vertices(g.vertices())));
    let mut s = Stream::new(cpu, "<stdin>");
    feed_stream(&mut s, &mut text.as_bytes(), &mut std::io::sink());
    drop(s);
    Rc::try_unwrap(chunks).map(RefCell::into_inner).unwrap_or_default()
}

/// `n` random points over the target: a polygon crossing itself
/// everywhere.
pub fn random_polygon(seed: u64, n: usize) -> Vec<Point> {
    let mut rng = Rng::new(seed);
    let (w, h) = (SIZE.0 as f32, SIZE.1 as f32);
    let mut u = || (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
    (0..n).map(|_| [u() * w, u() * h]).collect()
}

/// The frame figure's shapes: lines (pairs of points), circles (16-gons)
/// and their colours.
pub struct FrameShapes {
    /// Thick lines.
    pub lines: Vec<([Point; 2], Rgba)>,
    /// Filled circles.
    pub circles: Vec<(Vec<Point>, Rgba)>,
    /// Line thickness in pixels.
    pub thick: f32,
}

impl FrameShapes {
    /// `lines` thick lines and `circles` filled circles over the target.
    pub fn generate(seed: u64, lines: usize, circles: usize) -> FrameShapes {
        let mut rng = Rng::new(seed);
        let mut u = |lo: f32, hi: f32| lo + (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * (hi - lo);
        let (w, h) = (SIZE.0 as f32, SIZE.1 as f32);
        let color = |u: &mut dyn FnMut(f32, f32) -> f32| [u(0.0, 0.8), u(0.0, 0.8), u(0.0, 0.8), 1.0];
        let lines = (0..lines)
            .map(|_| {
                let a = [u(0.0, w), u(0.0, h)];
                let (len, angle) = (u(5.0, 40.0), u(0.0, std::f32::consts::TAU));
                ([a, [a[0] + len * angle.cos(), a[1] + len * angle.sin()]], color(&mut u))
            })
            .collect();
        let circles = (0..circles)
            .map(|_| {
                let (c, r) = ([u(0.0, w), u(0.0, h)], u(3.0, 8.0));
                let pts = (0..16)
                    .map(|i| {
                        let (s, k) = (i as f32 * std::f32::consts::TAU / 16.0).sin_cos();
                        [c[0] + r * k, c[1] + r * s]
                    })
                    .collect();
                (pts, color(&mut u))
            })
            .collect();
        FrameShapes { lines, circles, thick: 3.0 }
    }

    /// Draws the shapes into a renderer or a CPU geometry (both have the same
    /// drawing methods).
    pub fn draw_into(&self, g: &mut dyn Draw) {
        for (l, c) in &self.lines {
            g.stroke(l, self.thick, *c);
        }
        for (p, c) in &self.circles {
            g.fill_convex(p, *c);
        }
    }
}

/// What [`FrameShapes::draw_into`] calls.
pub trait Draw {
    /// An open polyline.
    fn stroke(&mut self, points: &[Point], thick: f32, rgba: Rgba);
    /// A convex fill.
    fn fill_convex(&mut self, points: &[Point], rgba: Rgba);
}

impl Draw for Geometry {
    fn stroke(&mut self, points: &[Point], thick: f32, rgba: Rgba) {
        Geometry::stroke(self, points, false, thick, 0xffff, rgba);
    }
    fn fill_convex(&mut self, points: &[Point], rgba: Rgba) {
        Geometry::fill_convex(self, points, rgba);
    }
}

impl Draw for animkit_runtime::render::Renderer {
    fn stroke(&mut self, points: &[Point], thick: f32, rgba: Rgba) {
        animkit_runtime::render::Renderer::stroke(self, points, false, thick, 0xffff, rgba);
    }
    fn fill_convex(&mut self, points: &[Point], rgba: Rgba) {
        animkit_runtime::render::Renderer::fill_convex(self, points, rgba);
    }
}

impl Group for Gl {
    fn name(&self) -> &'static str {
        "gl"
    }

    fn what(&self) -> &'static str {
        "Animator end to end and a 100k-line frame on GL, against raw glow"
    }

    fn run(&self, cx: &mut Context, report: &mut Report) {
        let canvas = match canvas() {
            Ok(c) => c,
            Err(e) => {
                eprintln!("animkit-bench: no GL, skipping the gl figures: {}", e.trim());
                for k in KEYS {
                    report.add(k, f64::NAN, "", "no GL on this machine");
                }
                return;
            }
        };
        let quick = cx.opts.quick;
        let rounds = if quick { 1 } else { 7 };
        let raw = RawGl::new(canvas.renderer.gl()).expect("the baseline's shader builds");
        let slot = RefCell::new(Some(canvas));
        let (w, h) = SIZE;

        // Stream, end to end.
        let n = if quick { 20_000 } else { 200_000 };
        let text = stream_text(SEED, n, 10_000);
        let chunks = flushed_triangles(&text);
        let mut stats = (0, 0);
        let mut ours_round = || {
            let mut c = slot.borrow_mut().take().expect("the canvas is back");
            c.frame();
            finish(c.renderer.gl());
            let before = c.renderer.total_stats();
            let t = Instant::now();
            let mut s = Stream::new(c, "<stdin>");
            feed_stream(&mut s, &mut text.as_bytes(), &mut std::io::sink());
            finish(s.canvas().renderer.gl());
            let dt = t.elapsed().as_secs_f64();
            assert_eq!(s.error_count(), 0);
            let c = s.into_canvas();
            let after = c.renderer.total_stats();
            stats = (after.draw_calls - before.draw_calls, after.flushes - before.flushes);
            *slot.borrow_mut() = Some(c);
            dt
        };
        // The baseline both ways: draws back to back, and with a glFlush
        // after each (which lets a software GL start rasterizing while the
        // next batch is prepared, as the renderer does); the faster counts.
        let raw_round = |flush_each: bool| {
            let mut guard = slot.borrow_mut();
            let c = guard.as_mut().expect("the canvas is back");
            c.frame();
            let gl = c.renderer.gl();
            finish(gl);
            let t = Instant::now();
            for v in &chunks {
                raw.draw(gl, w, h, v);
                if flush_each {
                    crate::rawgl::flush(gl);
                }
            }
            finish(gl);
            t.elapsed().as_secs_f64()
        };
        let (mut raw_plain, mut raw_flushing) = (|| raw_round(false), || raw_round(true));
        let best = best_rotating(rounds, &mut [&mut ours_round, &mut raw_plain, &mut raw_flushing]);
        let (ours, base) = (best[0], best[1].min(best[2]));
        assert_eq!(stats.1 as usize, chunks.len(), "one GL flush per flush command");
        report.add(
            "stream_cmds_per_s",
            n as f64 / ours,
            "cmd/s",
            format!("end to end, animvm -H 640x480: {n} commands, a flush every 10 000, glFinish at the end"),
        );
        report.add(
            "stream_raw_gl_cmds_per_s",
            n as f64 / base,
            "cmd/s",
            "raw glow drawing the same triangles, one upload + draw per flush (with or without glFlush, the faster)",
        );
        report.add("stream_vs_raw_gl", ours / base, "x", "our time / raw glow's (1.0 = as fast as raw GL)");
        report.add(
            "stream_draw_calls_per_flush",
            stats.0 as f64 / stats.1.max(1) as f64,
            "calls",
            "glDrawArrays per flush of 10 000 commands",
        );

        // A frame of 100 000 thick lines and 20 000 filled circles.
        let (nl, nc) = if quick { (10_000, 2_000) } else { (100_000, 20_000) };
        let shapes = FrameShapes::generate(SEED, nl, nc);
        let mut g = Geometry::new();
        shapes.draw_into(&mut g);
        let frame = raw_vertices(g.vertices());
        drop(g);
        let mut frame_calls = 0;
        let (ours, base) = best_interleaved(
            rounds,
            || {
                let mut guard = slot.borrow_mut();
                let r = &mut guard.as_mut().expect("the canvas is back").renderer;
                finish(r.gl());
                let t = Instant::now();
                r.clear([1.0; 4]);
                shapes.draw_into(r);
                r.flush();
                finish(r.gl());
                let dt = t.elapsed().as_secs_f64();
                assert_eq!(r.stats().vertices as usize, frame.len(), "the same triangles");
                frame_calls = r.stats().draw_calls;
                dt
            },
            || {
                let mut guard = slot.borrow_mut();
                let r = &mut guard.as_mut().expect("the canvas is back").renderer;
                r.clear([1.0; 4]);
                let gl = r.gl();
                finish(gl);
                let t = Instant::now();
                raw.clear(gl);
                raw.draw(gl, w, h, &frame);
                finish(gl);
                t.elapsed().as_secs_f64()
            },
        );
        report.add(
            "frame_ms_100k_lines",
            ours * 1e3,
            "ms",
            format!("{nl} thick lines (3 px) + {nc} filled circles, 640x480: clear, draw, flush, glFinish"),
        );
        report.add("frame_raw_gl_ms_100k_lines", base * 1e3, "ms", "raw glow: clear, the same triangles in one draw");
        report.add("frame_vs_raw_gl", ours / base, "x", "our time / raw glow's (1.0 = as fast as raw GL)");
        report.add("frame_draw_calls", frame_calls as f64, "calls", "glDrawArrays for the frame");

        // One polygon of 100 000 random points.
        let n = if quick { 10_000 } else { 100_000 };
        let polygon = random_polygon(SEED, n);
        let mut poly_calls = 0;
        let ours = crate::timing::best(rounds.min(3), || {
            let mut guard = slot.borrow_mut();
            let r = &mut guard.as_mut().expect("the canvas is back").renderer;
            finish(r.gl());
            let t = Instant::now();
            r.clear([1.0; 4]);
            r.fill_polygon(&polygon, [0.2, 0.3, 0.6, 1.0]);
            r.flush();
            finish(r.gl());
            let dt = t.elapsed().as_secs_f64();
            poly_calls = r.stats().draw_calls;
            dt
        });
        // A fan of n + 2 vertices in draws of at most `MAX_DRAW_VERTICES`, then
        // the cover.
        let fans = (n + 2).div_ceil(animkit_runtime::render::MAX_DRAW_VERTICES) as u64;
        assert_eq!(poly_calls, fans + 1, "stencil fans under the draw cap and a cover");
        report.add(
            "poly_1e5_random_ms",
            ours * 1e3,
            "ms",
            format!(
                "one poly of {n} random points, 640x480: clear, fill ({fans} stencil fan(s) under the draw cap + cover, {} draw calls), glFinish",
                fans + 1
            ),
        );
        let guard = slot.borrow();
        if let Some(c) = guard.as_ref() {
            raw.delete(c.renderer.gl());
        }
    }
}
