//! Prints an Animator stream of bouncing balls: what a program that
//! visualises itself sends to `animvm`.
//!
//! ```sh
//! cargo run -q --example balls | cargo run -q --bin animvm -- -H -x 480 -y 360 -d target/demo/balls
//! cargo run -q --example balls -- --live 600 | cargo run -q --bin animvm     # in a window, 50 fps
//! ```
//!
//! Arguments: `[--live] [FRAMES]` (default 60 frames; `--live` paces them
//! with `flushdelay 0.02` instead of `flush`).

use std::io::{BufWriter, Write};

struct Ball {
    x: f64,
    y: f64,
    vx: f64,
    vy: f64,
    r: f64,
    colour: &'static str,
    trail: Vec<(f64, f64)>,
}

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let live = args.iter().any(|a| a == "--live");
    let frames: usize = args.iter().find_map(|a| a.parse().ok()).unwrap_or(60);
    let out = std::io::stdout();
    let mut out = BufWriter::new(out.lock());
    let colours = ["tomato", "gold", "mediumseagreen", "dodgerblue", "orchid", "darkorange"];
    // A deterministic start: no randomness, so the frames are reproducible.
    let mut balls: Vec<Ball> = (0..6)
        .map(|i| {
            let f = i as f64;
            Ball {
                x: 80.0 + 60.0 * f,
                y: 250.0 - 20.0 * (f % 3.0),
                vx: 3.0 + 1.3 * f - 4.0 * (f % 2.0),
                vy: 2.0 * f - 3.0,
                r: 14.0 + 3.0 * (f % 3.0),
                colour: colours[i],
                trail: Vec::new(),
            }
        })
        .collect();
    // The visualised world is 480 x 360 units; viewport maps it to the window.
    writeln!(out, "title \"bouncing balls\"")?;
    writeln!(out, "bg #1d2330")?;
    // The world has the window's proportions: stretch it to the window.
    writeln!(out, "aspect off")?;
    writeln!(out, "macro walls\n  color #56607a\n  thick 3\n  rect 2 2 476 356\nendmacro")?;
    for n in 0..frames {
        writeln!(out, "frame\nident\nviewport 0 0 480 360\ninvoke walls")?;
        for b in &balls {
            if b.trail.len() > 1 {
                write!(out, "color {}\nalpha 0.35\nthick 2\nlines", b.colour)?;
                for (x, y) in &b.trail {
                    write!(out, " {x:.6} {y:.6}")?;
                }
                writeln!(out, "\nalpha 1")?;
            }
        }
        for b in &balls {
            writeln!(out, "color {}\nfillcircle {:.6} {:.6} {:.6} 32", b.colour, b.x, b.y, b.r)?;
            writeln!(out, "color white\nthick 1\ncircle {:.6} {:.6} {:.6} 32", b.x, b.y, b.r)?;
        }
        writeln!(out, "color #c8d0e0\ntext left top 12 348 \"frame {n}\"")?;
        writeln!(out, "{}", if live { "flushdelay 0.02" } else { "flush" })?;
        for b in &mut balls {
            b.trail.push((b.x, b.y));
            if b.trail.len() > 12 {
                b.trail.remove(0);
            }
            b.vy -= 0.6;
            b.x += b.vx;
            b.y += b.vy;
            if b.x - b.r < 4.0 || b.x + b.r > 476.0 {
                b.vx = -b.vx;
                b.x = b.x.clamp(4.0 + b.r, 476.0 - b.r);
            }
            if b.y - b.r < 4.0 {
                b.vy = -b.vy * 0.92;
                b.y = 4.0 + b.r;
            }
        }
    }
    out.flush()
}
