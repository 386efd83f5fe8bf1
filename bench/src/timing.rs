//! Interleaved timing: ours and the reference in the same round, order
//! alternating, best round kept.

use std::time::Instant;

/// Times `f` once, in seconds.
pub fn time<R>(f: impl FnOnce() -> R) -> f64 {
    let t = Instant::now();
    std::hint::black_box(f());
    t.elapsed().as_secs_f64()
}

/// Runs `rounds` rounds of `a` then `b` (`b` then `a` on odd rounds); each
/// closure returns its own elapsed seconds. Returns the best (minimum) of
/// each.
pub fn best_interleaved(rounds: usize, mut a: impl FnMut() -> f64, mut b: impl FnMut() -> f64) -> (f64, f64) {
    let (mut ba, mut bb) = (f64::INFINITY, f64::INFINITY);
    for r in 0..rounds.max(1) {
        if r % 2 == 0 {
            ba = ba.min(a());
            bb = bb.min(b());
        } else {
            bb = bb.min(b());
            ba = ba.min(a());
        }
    }
    (ba, bb)
}

/// Best of `rounds` runs of `f` (which returns its elapsed seconds).
pub fn best(rounds: usize, mut f: impl FnMut() -> f64) -> f64 {
    (0..rounds.max(1)).map(|_| f()).fold(f64::INFINITY, f64::min)
}

/// Runs `rounds` rounds of every closure in `fs` (each returns its own
/// elapsed seconds), starting each round with the next closure in turn so
/// that every order is used. Returns the best (minimum) of each.
pub fn best_rotating(rounds: usize, fs: &mut [&mut dyn FnMut() -> f64]) -> Vec<f64> {
    let n = fs.len();
    let mut best = vec![f64::INFINITY; n];
    for r in 0..rounds.max(1) {
        for k in 0..n {
            let i = (r + k) % n;
            best[i] = best[i].min(fs[i]());
        }
    }
    best
}
