//! The front half of an Animator stream once, for `valgrind --tool=callgrind`:
//! the `stream_cmds_per_s_cpu` workload (N commands, default 100 000)
//! through `feed_stream` over a `CpuCanvas` (a second argument `full`: with
//! every chunk verified in full, the verifier's shape cache off; `reference`:
//! the hand-written reference instead, collected with
//! `--toggle-collect='animkit_bench::figures::stream::reference*'`).
//! Instructions per command:
//!
//! ```sh
//! valgrind --tool=callgrind --collect-atstart=no --toggle-collect='animkit_runtime::animator::headless::feed_stream*' \
//!     target/release/examples/streamprof 100000
//! ```
use animkit_bench::draw::stream_text;
use animkit_bench::figures::stream::{SEED, ours_with, reference};

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let text = stream_text(SEED, n, 10_000);
    let mode = std::env::args().nth(2).unwrap_or_default();
    let (dt, commands, vertices) =
        if mode == "reference" { reference(&text) } else { ours_with(&text, mode != "full") };
    println!("{commands} commands, {vertices} vertices, {:.2} M commands/s", commands as f64 / dt / 1e6);
}
