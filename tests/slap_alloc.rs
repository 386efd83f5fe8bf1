//! What checking a SLAP scene allocates, counted by the binary's counting
//! allocator (`animkit_test_support::alloc`, on the checking thread):
//! `animkit_compiler::slap::front`
//! (parse and check, the whole front end) allocates a bounded multiple of
//! the source's size, whatever the source. Two bounds, on the bytes
//! allocated in all (every allocation and reallocation, none given back)
//! and on the most held at once:
//!
//! - realistic scenes (the examples repeated, dense commands, tens of
//!   thousands of defines and actors): at most 80 times the size in all,
//!   48 at once (measured at 256 KiB: 25 to 53 in all, 19 to 39 at once);
//! - any input (the hostile lines of `tests/limits.rs`, a line per error):
//!   at most 1024 times in all, 512 at once. Measured: 160 to 325 in all
//!   (80 to 147 at once) for one line of 10^5 to 10^6 tokens (a line's
//!   tokens are kept until it ends, 40 bytes each, in a vector that
//!   doubles, up to `MAX_LINE_TOKENS`: past 65 536 they are not kept); 431 (293) for a file of `x` lines (a diagnostic of about
//!   300 bytes per 2-byte line); 612 (306) for 256 Ki unary minuses (the
//!   LALRPOP parser's stack, which shifts them all before reducing: the
//!   fast line reader gives up at the nesting limit and hands the line
//!   over).
//!
//! Each bound has 64 KiB of slack for small files.

use crate::common;
use animkit_test_support::alloc::measure;

/// Bytes allocated in all and most held at once while checking `text`
/// (what the result holds included).
fn allocations(text: &str) -> (usize, usize) {
    let (result, stats) = measure(|| animkit_compiler::slap::front(text));
    drop(result);
    (stats.bytes, stats.peak)
}

/// At least `n` bytes of `unit` repeated.
fn repeat(unit: &str, n: usize) -> String {
    unit.repeat(n / unit.len().max(1) + 1)
}

/// The size of each case (256 KiB: the multiples hardly depend on it, and
/// a debug build checks them all in a few seconds).
const SIZE: usize = 1 << 18;

fn realistic() -> Vec<(&'static str, String)> {
    let story = std::fs::read_to_string(common::path("examples/story.slap")).expect("examples/story.slap");
    let two = std::fs::read_to_string(common::path("examples/two_actors.slap")).expect("examples/two_actors.slap");
    vec![
        ("the story, repeated", repeat(&story, SIZE)),
        ("the two actors, repeated", repeat(&two, SIZE)),
        ("dense commands", repeat("actor 1 color 1 0 0 # c\ntime +1\nactor 2 position 1 -2 3\n", SIZE)),
        ("defines", (0..SIZE / 12).map(|i| format!("define d{i} {i}\n")).collect()),
        ("actors", (0..SIZE / 16).map(|i| format!("actor {i} size 1\n")).collect()),
        ("arithmetic", repeat("define PI 3.1416\nactor 1 direction -PI/2*(0.5 + 0.25)\ntimep PI*2/3\n", SIZE)),
        ("a small scene", "define red 1 0 0\ntime 1\nactor 1 color red\n".into()),
        ("nothing", String::new()),
    ]
}

fn hostile() -> Vec<(&'static str, String)> {
    vec![
        ("a long name", format!("{}\ntime 1\n", "a".repeat(SIZE))),
        ("a long number", format!("actor 1 size {}\n", "1".repeat(SIZE))),
        ("a long comment", format!("# {}\n", "c".repeat(SIZE))),
        ("spaces", " ".repeat(SIZE)),
        ("blank lines", "\n".repeat(SIZE)),
        ("many values", format!("actor 1 color{}\n", " 1".repeat(SIZE / 2))),
        ("a define of many values", format!("define x{}\n", " 1".repeat(SIZE / 2))),
        ("parenthesised values", format!("actor 1 color{}\n", " (1)".repeat(SIZE / 4))),
        ("operators between spaces", format!("actor 1 size {}\n", "1 -".repeat(SIZE / 3))),
        ("foreign characters", format!("actor 1 size {}\n", ";".repeat(SIZE))),
        ("parentheses", format!("actor 1 size {}1{}\n", "(".repeat(SIZE / 2), ")".repeat(SIZE / 2))),
        ("unmatched parentheses", format!("actor 1 size 1{}\n", ")".repeat(SIZE))),
        ("sums", format!("actor 1 size 1{}\n", "+1".repeat(SIZE / 2))),
        ("unary minuses", format!("actor 1 size {}1\n", "-".repeat(SIZE))),
        ("a line per error", "x\n".repeat(SIZE / 2)),
        ("undefined names", "actor 1 size y\n".repeat(SIZE / 15)),
        ("misspelt keywords", "actor 1 colour 1 1 1\ntiem 5\n".repeat(SIZE / 28)),
        ("numbers too large", "actor 1e400 size 1e400\n".repeat(SIZE / 23)),
    ]
}

#[test]
fn checking_allocates_a_bounded_multiple_of_the_source() {
    let slack = 64 << 10;
    for (realistic, cases, total_bound, peak_bound) in [(true, realistic(), 80, 48), (false, hostile(), 1024, 512)] {
        for (what, text) in cases {
            let (total, peak) = allocations(&text);
            let n = text.len();
            assert!(
                total <= total_bound * n + slack && peak <= peak_bound * n + slack,
                "{what} ({}): checking {n} bytes allocated {total} bytes in all ({:.1} times), {peak} at once ({:.1} times)",
                if realistic { "realistic" } else { "hostile" },
                total as f64 / n.max(1) as f64,
                peak as f64 / n.max(1) as f64,
            );
        }
    }
}
