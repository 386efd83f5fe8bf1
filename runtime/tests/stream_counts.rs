//! Guard rails, no timing, no GL: what a stream of commands costs in
//! batches (draw calls) and vertices, counted on the CPU canvas (the
//! renderer's own geometry, without the upload).

use animkit_runtime::animator::CpuCanvas;
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
