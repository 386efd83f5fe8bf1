//! Deterministic Animator workloads.
//!
//! - [`stream_text`]: what a visualiser pipes into `animvm`: simple drawing
//!   commands (`line` and `fillcircle` with `%f` numbers, a `color` now and
//!   then) and a `flush` every so many commands. The streaming figures use
//!   it.
//! - [`DrawCorpus`]: Animator *scripts* as a visualiser or a person writes
//!   them to files: comments, a title and background, macros for markers and
//!   axes, then frames of plots (line charts as runs of `line`, scatter
//!   plots of `fillcircle`, graphs with `arrow`s, bar charts of `fillrect`,
//!   particle swarms of `dot`s and `fillcircle`s), `invoke X Y marker`,
//!   labels with `text`, `flush`. Numbers are printed as C's `%f` prints
//!   them. The compile and bundle figures use it.
//!
//! Every generated text reads and compiles without errors (tests check it).

use crate::corpus::Rng;
use std::fmt::Write;

/// Seed of the Animator corpus the suite measures.
pub const SEED: u64 = 0xd8a3_11e5_c0ff_ee00;

/// A uniform number in `lo..hi`.
fn uniform(rng: &mut Rng, lo: f64, hi: f64) -> f64 {
    lo + (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * (hi - lo)
}

/// `commands` simple drawing commands for 640x480 (root x in -4/3..4/3):
/// 49 in 50 are drawing commands, nine `line`s (up to about 24 pixels long)
/// to one `fillcircle ... 12` (radius 2.4 to 7 pixels), and every 50th is a
/// `color r g b`; after every `flush_every` commands comes a `flush` (not
/// counted). All numbers `%f`.
pub fn stream_text(seed: u64, commands: usize, flush_every: usize) -> String {
    let mut rng = Rng::new(seed);
    let mut s = String::with_capacity(commands * 44);
    for i in 0..commands {
        if i % 50 == 0 {
            let _ = writeln!(
                s,
                "color {:.6} {:.6} {:.6}",
                uniform(&mut rng, 0.0, 0.8),
                uniform(&mut rng, 0.0, 0.8),
                uniform(&mut rng, 0.0, 0.8)
            );
        } else {
            let (x, y) = (uniform(&mut rng, -1.3, 1.3), uniform(&mut rng, -0.98, 0.98));
            if i % 10 == 5 {
                let r = uniform(&mut rng, 0.01, 0.03);
                let _ = writeln!(s, "fillcircle {x:.6} {y:.6} {r:.6} 12");
            } else {
                let (dx, dy) = (uniform(&mut rng, -0.1, 0.1), uniform(&mut rng, -0.1, 0.1));
                let _ = writeln!(s, "line {x:.6} {y:.6} {:.6} {:.6}", x + dx, y + dy);
            }
        }
        if (i + 1) % flush_every == 0 {
            s.push_str("flush\n");
        }
    }
    s
}

/// Animator script files: `(path, text)`.
#[derive(Clone, Debug)]
pub struct DrawCorpus {
    /// The files, in generation order.
    pub files: Vec<(String, String)>,
}

impl DrawCorpus {
    /// Files from `seed` until their total reaches `min_bytes`.
    pub fn generate(seed: u64, min_bytes: usize) -> DrawCorpus {
        let mut rng = Rng::new(seed);
        let mut files = Vec::new();
        let mut total = 0;
        while total < min_bytes {
            let n = files.len();
            let kind = rng.pick(PLOTS);
            let name = format!("{kind}{n:05}");
            let text = script(&mut rng, &name, kind);
            total += text.len();
            files.push((format!("corpus/{name}.draw"), text));
        }
        DrawCorpus { files }
    }

    /// Total source bytes.
    pub fn bytes(&self) -> usize {
        self.files.iter().map(|(_, t)| t.len()).sum()
    }

    /// All sources concatenated (what `gzip -9` of the corpus compresses).
    pub fn concatenated(&self) -> Vec<u8> {
        self.files.iter().flat_map(|(_, t)| t.bytes()).collect()
    }
}

const PLOTS: &[&str] = &["chart", "scatter", "graph", "bars", "swarm"];
const COLORS: &[&str] = &["black", "red", "blue", "darkgreen", "orange", "gray", "#1f77b4", "#ff7f0e", "#2ca02c"];

/// `%f` of a value.
struct F(f64);

impl std::fmt::Display for F {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:.6}", self.0)
    }
}

fn color(s: &mut String, rng: &mut Rng) {
    if rng.chance(0.5) {
        let _ = writeln!(s, "color {}", rng.pick(COLORS));
    } else {
        let (r, g, b) = (uniform(rng, 0.0, 1.0), uniform(rng, 0.0, 1.0), uniform(rng, 0.0, 1.0));
        let _ = writeln!(s, "color {} {} {}", F(r), F(g), F(b));
    }
}

/// One script: a header, macros, then frames of one kind of plot.
pub fn script(rng: &mut Rng, name: &str, kind: &str) -> String {
    let mut s = String::with_capacity(64 * 1024);
    let frames = rng.range(1, 3);
    let _ = writeln!(s, "! {name}.draw: {kind} plot, {frames} frames, written by viz 0.3");
    let _ = writeln!(s, "! cargo run -q --bin animvm -- -H -d out/{name} {name}.draw\n");
    let _ = writeln!(s, "title \"{kind} {name}\"");
    let _ = writeln!(s, "bg {}", if rng.chance(0.5) { "white" } else { "#f4f1e8" });
    // Macros: axes with ticks, and markers.
    s.push_str(
        "macro axes\n  color 0.2 0.2 0.2\n  thick 1\n  line -1.25 -0.9 1.25 -0.9\n  line -1.2 -0.95 -1.2 0.95\n",
    );
    for i in 0..=10 {
        let x = -1.2 + i as f64 * 0.24;
        let _ = writeln!(s, "  line {} -0.92 {} -0.88", F(x), F(x));
    }
    s.push_str("endmacro\n");
    s.push_str("macro cross\n  push\n  scale 0.015\n  line -1 -1 1 1\n  line -1 1 1 -1\n  pop\nendmacro\n");
    s.push_str("macro ring\n  thick 2\n  circle 0 0 0.02 16\n  thick 1\nendmacro\n");
    for f in 0..frames {
        s.push_str("\nframe\ninvoke axes\n");
        let _ = writeln!(s, "text left top -1.2 0.98 \"{name} t = {}\"", F(f as f64 * 0.04));
        match kind {
            "chart" => {
                for _series in 0..rng.range(2, 5) {
                    color(&mut s, rng);
                    if rng.chance(0.3) {
                        s.push_str("thick 2\n");
                    }
                    let (mut x, mut y) = (-1.2, uniform(rng, -0.8, 0.8));
                    for _ in 0..rng.range(60, 250) {
                        let (nx, ny) = (x + 0.006, (y + uniform(rng, -0.03, 0.03)).clamp(-0.88, 0.95));
                        let _ = writeln!(s, "line {} {} {} {}", F(x), F(y), F(nx), F(ny));
                        (x, y) = (nx, ny);
                    }
                    s.push_str("thick 1\n");
                }
            }
            "scatter" => {
                for _ in 0..rng.range(2, 4) {
                    color(&mut s, rng);
                    let (cx, cy) = (uniform(rng, -0.8, 0.8), uniform(rng, -0.5, 0.5));
                    for _ in 0..rng.range(60, 250) {
                        let (x, y) = (cx + uniform(rng, -0.4, 0.4), cy + uniform(rng, -0.4, 0.4));
                        match rng.range(0, 9) {
                            0 => {
                                let _ = writeln!(s, "invoke {} {} cross", F(x), F(y));
                            }
                            1 => {
                                let _ = writeln!(s, "invoke {} {} ring", F(x), F(y));
                            }
                            _ => {
                                let _ = writeln!(s, "fillcircle {} {} {} 12", F(x), F(y), F(uniform(rng, 0.005, 0.02)));
                            }
                        }
                    }
                }
            }
            "graph" => {
                let n = rng.range(40, 120) as usize;
                let nodes: Vec<(f64, f64)> =
                    (0..n).map(|_| (uniform(rng, -1.1, 1.1), uniform(rng, -0.8, 0.9))).collect();
                s.push_str("color gray\n");
                for i in 0..n * 3 {
                    let (a, b) = (nodes[i % n], nodes[(rng.next_u64() % n as u64) as usize]);
                    let op = if rng.chance(0.3) { "arrow" } else { "line" };
                    let _ = writeln!(s, "{op} {} {} {} {}", F(a.0), F(a.1), F(b.0), F(b.1));
                }
                color(&mut s, rng);
                for (i, (x, y)) in nodes.iter().enumerate() {
                    let _ = writeln!(s, "fillcircle {} {} 0.025000 16", F(*x), F(*y));
                    if i % 10 == 0 {
                        let _ = writeln!(s, "text {} {} n{i}", F(*x), F(*y + 0.05));
                    }
                }
            }
            "bars" => {
                let n = rng.range(20, 60);
                let w = 2.3 / n as f64;
                for i in 0..n {
                    if i % 5 == 0 {
                        color(&mut s, rng);
                    }
                    let x = -1.18 + i as f64 * w;
                    let h = uniform(rng, 0.05, 1.7);
                    let _ = writeln!(s, "fillrect {} -0.9 {} {}", F(x), F(w * 0.8), F(h));
                    let _ = writeln!(s, "rect {} -0.9 {} {}", F(x), F(w * 0.8), F(h));
                }
                for _ in 0..rng.range(100, 300) {
                    let _ = writeln!(s, "dot {} {}", F(uniform(rng, -1.2, 1.2)), F(uniform(rng, -0.9, 0.9)));
                }
            }
            _ => {
                for _ in 0..rng.range(3, 6) {
                    color(&mut s, rng);
                    if rng.chance(0.5) {
                        let _ = writeln!(s, "alpha {}", F(uniform(rng, 0.3, 1.0)));
                    }
                    for _ in 0..rng.range(100, 300) {
                        let (x, y) = (uniform(rng, -1.3, 1.3), uniform(rng, -0.95, 0.95));
                        if rng.chance(0.4) {
                            let _ = writeln!(s, "dot {} {}", F(x), F(y));
                        } else if rng.chance(0.5) {
                            let _ = writeln!(s, "fillcircle {} {} {} 8", F(x), F(y), F(uniform(rng, 0.003, 0.01)));
                        } else {
                            let (dx, dy) = (uniform(rng, -0.03, 0.03), uniform(rng, -0.03, 0.03));
                            let _ = writeln!(s, "line {} {} {} {}", F(x), F(y), F(x + dx), F(y + dy));
                        }
                    }
                }
                s.push_str("alpha 1\n");
            }
        }
        s.push_str("flush\n");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stream_text_reads_without_errors() {
        let t = stream_text(1, 2_000, 500);
        let (commands, errors) = animkit_grammar::animator::parse(&t);
        assert!(errors.is_empty(), "{:?}", errors.first());
        assert_eq!(commands.len(), 2_000 + 4);
        assert_eq!(t, stream_text(1, 2_000, 500));
    }

    #[test]
    fn every_script_compiles_and_generation_is_deterministic() {
        let c = DrawCorpus::generate(SEED, 400_000);
        assert_eq!(c.files, DrawCorpus::generate(SEED, 400_000).files);
        for kind in PLOTS {
            assert!(c.files.iter().any(|(p, _)| p.contains(kind)), "{kind}");
        }
        let sources: Vec<_> =
            c.files.iter().map(|(p, t)| animkit_compiler::Source::new(p.clone(), t.clone())).collect();
        let program =
            animkit_compiler::compile_jobs(&sources, &Default::default(), 2).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(program.modules.len(), c.files.len());
    }
}
