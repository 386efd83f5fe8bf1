//! Guard rails, no timing, no GL: what a stream of commands costs in
//! batches (draw calls) and vertices, counted on the CPU canvas (the
//! renderer's own geometry, without the upload).

use animkit_runtime::animator::CpuCanvas;
use animkit_runtime::render::MAX_DRAW_VERTICES;
use animkit_runtime::stream::{Status, Stream};
use std::fmt::Write;

fn run(text: &str) -> Stream<CpuCanvas> {
    let mut s = Stream::new(CpuCanvas::new(640, 480), "<stdin>");
    s.push(text.as_bytes());
    s.finish();
    let mut errors = Vec::new();
    assert_eq!(s.run(&mut errors), Status::Done);
    assert!(errors.is_empty(), "{}", String::from_utf8_lossy(&errors));
    s
}

#[test]
fn a_hundred_thousand_primitives_flush_as_one_batch() {
    let mut text = String::new();
    for i in 0..100_000 {
        let x = (i % 1000) as f64 / 500.0 - 1.0;
        let _ = match i % 5 {
            0 => writeln!(text, "fillcircle {x:.6} 0.5 0.01 12"),
            1 => writeln!(text, "color {:.6} 0 0\nthick {}", (i % 7) as f64 / 7.0, i % 4),
            2 => writeln!(text, "dash 0x0f0f\nline {x:.6} 0.1 0 0.2\ndash 0xffff"),
            3 => writeln!(text, "push\nrotate 45\nfillrect {x:.6} 0 0.1 0.1\npop"),
            _ => writeln!(text, "line {x:.6} 0.1 {:.6} 0.2", x + 0.1),
        };
    }
    text.push_str("flush\n");
    let s = run(&text);
    let c = s.canvas();
    assert_eq!((c.flushes(), c.flushed_batches()), (1, 1));
    // 20 000 each of 12-gons (30 vertices), dashed lines, rectangles and
    // lines (6 each).
    assert_eq!(c.flushed_vertices(), 20_000 * (30 + 6 + 6 + 6));
}

#[test]
fn batches_break_only_at_clip_changes() {
    let mut text = String::new();
    for i in 0..1000 {
        if i % 100 == 0 {
            let _ = writeln!(text, "clip -1 -1 {} 1", 1.0 + (i / 100) as f64 * 0.01);
        }
        let _ = writeln!(text, "line 0 0 0.5 0.{i:03}\nfillcircle 0 0 0.1 8");
    }
    text.push_str("flush\n");
    let s = run(&text);
    assert_eq!(s.canvas().flushed_batches(), 10);
}

#[test]
fn each_simple_command_makes_the_triangles_it_needs() {
    // Thin line: one quad. Filled n-gon: n - 2 triangles. Thin rectangle:
    // four one-pixel quads. Dot: one quad. Thick open polyline of k points:
    // k - 1 quads (mitred joins share edges).
    for (cmd, vertices) in [
        ("line -0.5 0 0.5 0.3", 6),
        ("fillcircle 0 0 0.5 12", 30),
        ("fillcircle 0 0 0.5 64", 186),
        ("rect -0.5 -0.5 1 1", 24),
        ("fillrect -0.5 -0.5 1 1", 6),
        ("dot 0 0", 6),
        ("thick 3\nlines 0 0 0.5 0 0.5 0.5 0 0.6", 18),
        ("circle 0 0 0.5 16", 96),
    ] {
        let s = run(&format!("{cmd}\nflush\n"));
        assert_eq!(s.canvas().flushed_vertices(), vertices, "{cmd}");
    }
}

/// `poly` of `n` points drawn by `point(i)`.
fn poly(n: usize, point: impl Fn(usize) -> (f64, f64)) -> String {
    let mut text = String::with_capacity(n * 20);
    text.push_str("poly");
    for i in 0..n {
        let (x, y) = point(i);
        let _ = write!(text, " {x:.5} {y:.5}");
    }
    text.push('\n');
    text
}

/// `n` points scattered over the root square (a deterministic generator):
/// an outline crossing itself about n^2 / 10 times.
fn random_points(n: usize) -> impl Fn(usize) -> (f64, f64) {
    let _ = n;
    |i| {
        let h = |k: u64| {
            let mut z = (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(k);
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            (z ^ (z >> 31)) as f64 / u64::MAX as f64
        };
        (h(1) * 2.0 - 1.0, h(2) * 2.0 - 1.0)
    }
}

#[test]
fn a_million_point_random_polygon_is_drawn_in_linear_work() {
    // Exact triangulation meant a vertex per crossing: 5 000 such points
    // took 30 s and 470 MB. Now: the points as stencil fans (each at most
    // MAX_DRAW_VERTICES long, the first point again at the end, each next
    // fan its apex and the last one's end again), and a cover.
    let n = 1_000_000;
    let s = run(&(poly(n, random_points(n)) + "flush\n"));
    let c = s.canvas();
    let fans = n.div_ceil(MAX_DRAW_VERTICES - 2) as u64;
    assert_eq!(fans, 16);
    assert_eq!((c.flushes(), c.flushed_batches(), c.flushed_vertices()), (1, fans + 1, n as u64 + 2 * fans + 6));
}

#[test]
fn a_hundred_thousand_point_star_is_drawn_in_linear_work() {
    let n = 100_000;
    let star = poly(n, |i| {
        let a = i as f64 * std::f64::consts::TAU / n as f64;
        let r = if i % 2 == 0 { 0.9 } else { 0.3 };
        (r * a.cos(), r * a.sin())
    });
    // Lines before and after: the fill's two draw calls are its own.
    let s = run(&format!("line 0 0 1 1\n{star}line 0 0 1 1\nflush\n"));
    let c = s.canvas();
    // Two fans: 100 001 outline points do not fit one.
    assert_eq!((c.flushed_batches(), c.flushed_vertices()), (5, 6 + n as u64 + 10 + 6));
}

#[test]
fn small_and_convex_polygons_stay_in_the_batch() {
    let mut text = String::new();
    for i in 0..1000 {
        // Pentagrams (self-intersecting, 5 points: triangulated exactly).
        let _ = writeln!(text, "push\nshift 0.{i:03} 0\npoly 0 0.1 0.06 -0.08 -0.1 0.03 0.1 0.03 -0.06 -0.08\npop");
    }
    // A convex polygon of 1000 points: a fan, however many points.
    text.push_str(&poly(1000, |i| {
        let a = i as f64 * std::f64::consts::TAU / 1000.0;
        (0.5 * a.cos(), 0.5 * a.sin())
    }));
    text.push_str("flush\n");
    let s = run(&text);
    let c = s.canvas();
    assert_eq!(c.flushed_batches(), 1);
    // A pentagram is its five points and five inner crossings: 5 triangles
    // at the points and 3 inside the pentagon around the empty centre...
    // whatever lyon makes of it, the fan of the 1000-gon is 998 triangles.
    let pentagrams = (c.flushed_vertices() - 3 * 998) / 1000;
    assert!(c.flushed_vertices() == 1000 * pentagrams + 3 * 998 && pentagrams <= 30, "{}", c.flushed_vertices());
}

/// The verifier's work per command: 10 000 commands of five shapes are
/// verified in full five times (the first of each shape), the rest by
/// their constants' values alone; a macro installed changes the module
/// (its function count), so each shape is verified in full once more after
/// it, and `invoke` is one more shape. With the shape cache off, every
/// command is verified in full.
#[test]
fn each_command_shape_is_verified_in_full_once() {
    let mut text = String::new();
    let mut entries = 0u64;
    for half in 0..2 {
        if half == 1 {
            text.push_str("macro m\nline 0 0 0.1 0.1\nendmacro\n");
        }
        for i in 0..5000 {
            let x = (i % 1000) as f64 / 500.0 - 1.0;
            let _ = match i % 4 {
                0 => writeln!(text, "line {x:.6} 0.1 {:.6} 0.2", x + 0.1),
                1 => writeln!(text, "fillcircle {x:.6} 0.5 0.01 {}", 3 + i % 60),
                2 => writeln!(text, "color {:.6} 0 1", (i % 7) as f64 / 7.0),
                _ => writeln!(text, "echo \"e{i}\""),
            };
            entries += 1;
            if i % 1000 == 999 {
                text.push_str("flush\n");
                entries += 1;
            }
            if half == 1 && i % 100 == 0 {
                text.push_str("invoke 0 0 m\n");
                entries += 1;
            }
        }
    }
    let s = run(&text);
    let checks = s.entry_checks();
    assert_eq!((checks.full, checks.values), (11, entries - 11));

    let mut s = Stream::new(CpuCanvas::new(640, 480), "<stdin>");
    s.set_shape_cache(false);
    s.push(text.as_bytes());
    s.finish();
    assert_eq!(s.run(&mut Vec::new()), Status::Done);
    assert_eq!(s.entry_checks(), animkit_vm::engine::verify::EntryChecks { full: entries, values: 0 });
}
