//! What the sprite front end allocates, counted by the binary's counting
//! allocator (`animkit_test_support::alloc`, on the checking thread). A well-formed file is read and
//! checked in one pass into the compact IR (`sprite::flat`): no tree, no
//! string per name or number, so the number of allocations does not grow
//! with the number of frames or states (vectors reserved once, a few maps
//! and strings that double), and the most held at once is the IR: 16
//! bytes a frame, 40 a state, 4 an event.
//!
//! The tree path this replaced allocated a `String` per number and name
//! and a `Vec` per frame with events (about 3 allocations a frame), and
//! held 136 bytes a frame of tree plus 56 of IR at once (64 bytes per
//! byte of `1, ` frames): both bounds below fail on it.

use animkit_compiler::Source;
use animkit_compiler::driver::check_source;
use animkit_test_support::alloc::measure;

/// Allocations (and reallocations) made, and the most bytes held at once,
/// while the sprite front end checks `text` (`check_source`: the IR is
/// built, then dropped).
fn allocations(text: &str) -> (usize, usize) {
    let source = Source::new("big.anim", text);
    let (result, stats) = measure(|| check_source(&source));
    assert!(matches!(&result, Ok(d) if d.is_empty()), "{text:.80}: {:?}", result.map(|d| d.len()));
    (stats.allocations, stats.peak)
}

/// The shapes, with `n` frames or states.
fn shapes(n: usize) -> Vec<(&'static str, String)> {
    let mut one_state = String::from("A: ");
    one_state.push_str(&"1, ".repeat(n));
    one_state.push_str("_loop\n");
    let states: String = (0..n.min(60_000)).map(|i| format!("S{i}: 1|2|ev, _loop\n")).collect();
    // States as `examples/hero.anim` writes them, `n / 5` of them.
    let heroes: String = (0..n / 25)
        .map(|i| {
            format!(
                "# hero {i}\nIdle{i}: 15, 15, 15, 15, _pingpong\nWalk{i}: 6|step, 6, 6|step, 6, _loop\n\
                 Jump{i}: 3|0|jumpSound, 3|1, 4|2, Fall{i}\nFall{i}[Jump{i}]: 4|3, 4|4, _wait\n\
                 Attack{i}: 3|swingStart, 3|swing, 2|hitFrame, 4|recover, 0|attackDone, Idle{i}\n"
            )
        })
        .collect();
    let events: String =
        (0..n / 4).map(|i| format!("E{i}[Cat]: 3|0|a{i}|b, 0|c, 2|5, 7|d|e, _pingpong|turn\n")).collect();
    vec![
        ("one state of `1, ` frames", one_state),
        ("states `Si: 1|2|ev, _loop`", states),
        ("hero-like states", heroes),
        ("events", events),
    ]
}

#[test]
fn allocations_do_not_grow_with_the_frames() {
    // The IR's vectors are reserved once; the names' map and string, and
    // the table of which name is which state, double as they grow.
    // Measured: 12 for one state at both sizes, 53-57 for the others at
    // 10^4 and 66-74 at 10^5.
    for n in [10_000, 100_000] {
        for (what, text) in shapes(n) {
            let (count, _) = allocations(&text);
            eprintln!("{what}, n = {n}: {count} allocations");
            assert!(count <= 100, "{what}, n = {n}: {count} allocations for {} bytes", text.len());
        }
    }
}

#[test]
fn the_front_end_holds_under_eight_bytes_per_source_byte() {
    // The target for a whole compile (8 bytes a byte), held by the
    // front end on its own. Measured at 10^5 frames or states: 5.33 for
    // one state of `1, ` frames (16 bytes a 3-byte frame), 7.54 for
    // `Si: 1|2|ev, _loop` states (the state, its frame, its name in the
    // file's map of names), 3.82 for hero-like states, 4.42 for frames with
    // events.
    for (what, text) in shapes(100_000) {
        let (_, peak) = allocations(&text);
        let n = text.len();
        eprintln!("{what}: {:.2} bytes at once per source byte", peak as f64 / n as f64);
        assert!(
            peak <= 8 * n + (64 << 10),
            "{what}: {peak} bytes at once for {n} ({:.2} a byte)",
            peak as f64 / n as f64
        );
    }
}

#[test]
fn the_tree_path_breaks_both_bounds() {
    // The bounds above can fail: the tree path (`compile_by_tree`, what
    // the front end did before the one-pass check, lowering included)
    // breaks both on the same shapes.
    for (what, text) in shapes(100_000).into_iter().take(2) {
        let source = Source::new("big.anim", text.as_str());
        let (result, stats) = measure(|| animkit_compiler::sprite::compile_by_tree(&source, &Default::default()));
        assert!(result.is_ok(), "{what}");
        drop(result);
        let (count, peak) = (stats.allocations, stats.peak);
        let n = text.len();
        eprintln!(
            "tree path, {what}: {count} allocations, {:.1} bytes at once per source byte",
            peak as f64 / n as f64
        );
        assert!(count > 100_000 && peak > 8 * n + (64 << 10), "{what}: {count} allocations, {peak} bytes at once");
    }
}
