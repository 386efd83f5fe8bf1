//! Guard rail, no timing: once a stream is warmed up, a simple command
//! (fixed-arity drawing, pen and transformation commands with numbers:
//! `line`, `fillcircle`, `color r g b`, `push`, `flush`, ...) allocates
//! nothing on its way through the reader, the lowering, the VM and the
//! tessellation into vertices. Commands that carry text or point lists
//! (`echo`, `color red`, `lines`) own them in the AST and allocate them.
//!
//! Counted with `animkit_test_support::alloc` (the test binary's global
//! allocator): only the allocations of the measuring thread.

use animkit_runtime::animator::CpuCanvas;
use animkit_runtime::stream::{Status, Stream};
use animkit_test_support::alloc::measure;
use std::fmt::Write;

/// Allocations made by `f` on this thread.
fn allocations(f: impl FnOnce()) -> u64 {
    measure(f).1.allocations as u64
}

/// `n` simple commands of every kind the guard covers, a `flush` every 500.
fn simple_commands(n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        let x = (i % 200) as f64 / 100.0 - 1.0;
        let _ = match i % 16 {
            0 => writeln!(s, "color {:.6} 0.250000 {:.6}", (x + 1.0) / 2.0, 1.0 - (x + 1.0) / 2.0),
            1 => writeln!(s, "fillcircle {x:.6} 0.500000 0.020000 12"),
            2 => writeln!(s, "thick {}", 1 + i % 3),
            3 => writeln!(s, "rect {x:.6} -0.5 0.1 0.2"),
            4 => writeln!(s, "fillrect {x:.6} -0.5 - {:.6} -0.3", x + 0.1),
            5 => writeln!(s, "dot {x:.6} 0.1"),
            6 => writeln!(s, "arrow {x:.6} 0.1 0.3 0.4"),
            7 => writeln!(s, "push\nshift {x:.6} 0.1\nrotate 30\nscale 2\nline 0 0 0.1 0.1\npop"),
            8 => writeln!(s, "dash 0x0f0f\ncircle {x:.6} 0.2 0.1 24\ndash 0xffff"),
            9 => writeln!(s, "alpha 0.5\nbg 0.1 0.2 0.3\nfillcircle {x:.6} -0.2 0.03 16\nalpha 1"),
            _ => writeln!(s, "line {x:.6} 0.100000 {:.6} 0.200000", x + 0.05),
        };
        if i % 500 == 499 {
            s.push_str("flush\n");
        }
    }
    s
}

/// Pushes `text` in 4 KiB pieces, running what is complete after each.
fn feed(s: &mut Stream<CpuCanvas>, text: &[u8]) {
    for piece in text.chunks(4096) {
        s.push(piece);
        assert_eq!(s.run(&mut std::io::sink()), Status::NeedInput);
    }
}

#[test]
fn a_streamed_simple_command_allocates_nothing_once_warm() {
    let text = simple_commands(20_000);
    let (warm, measured) = text.as_bytes().split_at(text.len() / 2);
    let mut s = Stream::new(CpuCanvas::new(640, 480), "<stdin>");
    feed(&mut s, warm);
    let before = s.command_count();
    let n = allocations(|| feed(&mut s, measured));
    let commands = s.command_count() - before;
    assert!(commands > 10_000, "{commands}");
    assert_eq!(s.error_count(), 0);
    assert_eq!(n, 0, "{n} allocations for {commands} simple commands");
    // The allocator does count: a command with a string allocates it.
    assert!(allocations(|| feed(&mut s, b"title hello\n")) > 0);
}
