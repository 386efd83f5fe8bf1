use animkit_runtime::stream::{Status, Stream};
use animkit_vm::animator::{Canvas, Pen, Point};
struct Null(u64);
impl Canvas for Null {
    fn stroke(&mut self, _p: &Pen, pts: &[Point], _c: bool) {
        self.0 += pts.len() as u64;
    }
    fn fill(&mut self, _p: &Pen, pts: &[Point], _c: bool) {
        self.0 += pts.len() as u64;
    }
}
fn main() {
    let mut src = String::new();
    let n: u32 = std::env::var("N").ok().and_then(|v| v.parse().ok()).unwrap_or(1_000_000);
    for i in 0..n {
        let x = i as f64 * 0.001;
        if i % 10 == 0 {
            src += &format!("fillcircle {x:.6} 0.500000 0.010000 12\n");
        } else {
            src += &format!("line {x:.6} 0.100000 {:.6} 0.200000\n", x + 0.5);
        }
    }
    let t = std::time::Instant::now();
    let mut s = Stream::new(Null(0), "<bench>");
    let mut errs = Vec::new();
    for chunk in src.as_bytes().chunks(65536) {
        s.push(chunk);
        assert_eq!(s.run(&mut errs), Status::NeedInput);
    }
    s.finish();
    s.run(&mut errs);
    let dt = t.elapsed().as_secs_f64();
    println!(
        "{} cmds in {dt:.3}s = {:.2} M cmds/s, {} MB/s, pts {}",
        s.command_count(),
        s.command_count() as f64 / dt / 1e6,
        src.len() as f64 / dt / 1e6,
        s.canvas().0
    );
}
