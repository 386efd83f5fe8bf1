//! A quick measurement of the front half of an Animator stream: N simple
//! commands (9 `line`s, then a `fillcircle ... 12`, over and over; a `flush`
//! every 10 000) through the streaming reader, lowering, the VM and
//! tessellation into vertices that are then discarded (`CpuCanvas`), or,
//! with `CANVAS=null`, a canvas that only counts points.
//!
//! `N=1000000 cargo run --release -p animkit-runtime --example stream_perf`;
//! under `valgrind --tool=callgrind` use a smaller N.
use animkit_runtime::animator::CpuCanvas;
use animkit_runtime::stream::{Status, Stream};
use animkit_vm::engine::animator::{Canvas, Pen, Point};

struct Null(u64);
impl Canvas for Null {
    fn stroke(&mut self, _p: &Pen, pts: &[Point], _c: bool) {
        self.0 += pts.len() as u64;
    }
    fn fill(&mut self, _p: &Pen, pts: &[Point], _c: bool) {
        self.0 += pts.len() as u64;
    }
}

fn run<C: Canvas>(canvas: C, src: &str) -> (u64, f64) {
    let t = std::time::Instant::now();
    let mut s = Stream::new(canvas, "<bench>");
    let mut errs = Vec::new();
    for chunk in src.as_bytes().chunks(65536) {
        s.push(chunk);
        assert_eq!(s.run(&mut errs), Status::NeedInput);
    }
    s.finish();
    s.run(&mut errs);
    assert!(errs.is_empty());
    (s.command_count(), t.elapsed().as_secs_f64())
}

fn main() {
    let mut src = String::new();
    let n: u32 = std::env::var("N").ok().and_then(|v| v.parse().ok()).unwrap_or(1_000_000);
    for i in 0..n {
        let x = (i % 1000) as f64 * 0.001;
        if i % 10 == 9 {
            src += &format!("fillcircle {x:.6} 0.500000 0.010000 12\n");
        } else {
            src += &format!("line {x:.6} 0.100000 {:.6} 0.200000\n", x + 0.5);
        }
        if i % 10_000 == 9_999 {
            src += "flush\n";
        }
    }
    let (cmds, dt) = match std::env::var("CANVAS").as_deref() {
        Ok("null") => run(Null(0), &src),
        _ => run(CpuCanvas::new(640, 480), &src),
    };
    println!(
        "{cmds} cmds in {dt:.3}s = {:.2} M cmds/s, {:.1} MB/s",
        cmds as f64 / dt / 1e6,
        src.len() as f64 / dt / 1e6
    );
}
