//! The peak heap of compiling a SLAP source, counted by the binary's
//! thread-local counting allocator (`animkit_test_support::alloc`: the
//! compile runs on the test's own thread, so the tests beside it are not
//! counted): the worst shapes of source cost at most 8 bytes per source
//! byte, the source itself included, plus a constant, through parsing,
//! checking, lowering and encoding the bundle.
//!
//! What keeps it there: each line is parsed, checked and dropped before
//! the next is read (`slap::each_line`, `check::check_timeline`), a line
//! holds at most `MAX_LINE_TOKENS` tokens, and the checked scene is a
//! `Timeline` of 16 bytes a command and 8 a value. Before, the whole
//! file's tree was built first: 41 bytes per byte for lines of `actor N
//! color 1 1 1`, 98 for one line of arguments.

use animkit_compiler::{Options, Source, compile_jobs};
use animkit_test_support::alloc::{is_counting, measure};

/// The most bytes held at once while `text` is compiled and its bundle
/// encoded, the source included; and whether it compiled.
fn peak_of(text: String) -> (usize, bool) {
    assert!(is_counting(), "the binary's global allocator is animkit_test_support::alloc::Counting");
    let source = Source::new("big.slap", text);
    let held = source.text.capacity();
    // `jobs` = 1: the compile runs on this thread, where `measure` counts.
    let (ok, stats) = measure(|| {
        let compiled = compile_jobs(std::slice::from_ref(&source), &Options::default(), 1);
        let ok = compiled.is_ok();
        if let Ok(program) = compiled {
            std::hint::black_box(animkit_vm::engine::codec::encode(&program));
        }
        drop(source);
        ok
    });
    (stats.peak + held, ok)
}

#[test]
fn worst_shapes_compile_in_8_bytes_per_source_byte_and_a_constant() {
    let bytes = 4 << 20;
    // One line's tokens and tree at the token limit, the tables of an
    // empty compile.
    let constant = 8 << 20;
    let mut actors = String::new();
    let mut i = 0u32;
    while actors.len() < bytes {
        actors.push_str(&format!("actor {} color 1 1 1\n", i % (1 << 20)));
        i += 1;
    }
    let args = |head: &str| format!("{head}{}\n", " 1".repeat(bytes / 2));
    let shapes = [
        ("`actor N color 1 1 1` lines", actors, true),
        ("`time +1` and `actor 1 size 2` lines", "time +1\nactor 1 size 2\n".repeat(bytes / 22), true),
        ("one line of arguments", args("actor 1 color"), false),
        ("`define x 1 1 ...`", args("define x"), false),
    ];
    for (name, text, compiles) in shapes {
        let len = text.len();
        let (peak, ok) = peak_of(text);
        assert_eq!(ok, compiles, "{name}");
        let per_byte = peak as f64 / len as f64;
        assert!(
            peak <= 8 * len + constant,
            "{name}: {peak} bytes at most at once for {len} bytes of source ({per_byte:.2} per byte)"
        );
    }
}
