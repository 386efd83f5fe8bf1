//! Loading allocates per record, never per instruction: decoding writes
//! each function's code, constants and debug positions into vectors of
//! their final length, the tables it needs on the way (segment starts,
//! state entries, prediction windows) and the verifier's tables are reused
//! from module to module, so a bundle of the same modules with ten times
//! the frames costs the same number of allocations. The binary's counting
//! allocator (`animkit_test_support::alloc`) counts the allocation calls
//! of the loading thread.

use crate::common;
use animkit_compiler::{Options, Source, compile};
use animkit_test_support::alloc::measure;
use animkit_vm::engine::codec;

/// `modules` sprite files of four states, each state `frames` frames long
/// (with events every third frame), in one directory, plus the Animator
/// and SLAP examples; compiled with debug positions.
fn bundle(modules: usize, frames: usize) -> (Vec<u8>, animkit_vm::Program) {
    let mut sources = Vec::new();
    for m in 0..modules {
        let mut text = String::new();
        for (s, end) in ["Idle", "Walk", "Run", "Hit"].iter().zip(["_loop", "_pingpong", "_loop", "Idle"]) {
            text.push_str(&format!("{s}{m}: "));
            for f in 0..frames {
                let ev = if f % 3 == 0 { "|step" } else { "" };
                text.push_str(&format!("{}{ev}, ", 2 + (f + m) % 5));
            }
            text.push_str(end);
            text.push('\n');
        }
        // The last state's `Idle` must name a state of this module.
        let text = text.replace(", Idle\n", &format!(", Idle{m}\n"));
        sources.push(Source::new(format!("sprites/m{m}.anim"), text));
    }
    for example in ["examples/spinner.draw", "examples/buttons.draw", "examples/story.slap"] {
        let text = std::fs::read_to_string(common::path(example)).expect("example exists");
        sources.push(Source::new(example, text));
    }
    let program = compile(&sources, &Options::default()).expect("compiles");
    (codec::encode(&program), program)
}

/// Allocation calls made by `codec::load(bytes)`, and its result.
fn counted_load(bytes: &[u8]) -> (usize, animkit_vm::engine::verify::Verified<animkit_vm::Program>) {
    let (result, stats) = measure(|| codec::load(bytes));
    (stats.allocations, result.expect("loads"))
}

fn instructions(p: &animkit_vm::Program) -> usize {
    p.modules.iter().flat_map(|m| &m.functions).map(|f| f.code.len()).sum()
}

#[test]
fn load_allocates_per_record_not_per_instruction() {
    let (short, short_program) = bundle(200, 4);
    let (long, long_program) = bundle(200, 40);
    let (short_calls, loaded) = counted_load(&short);
    assert_eq!(*loaded, short_program);
    let (long_calls, loaded) = counted_load(&long);
    assert_eq!(*loaded, long_program);
    let (short_insns, long_insns) = (instructions(&short_program), instructions(&long_program));
    assert!(long_insns > 8 * short_insns, "{short_insns} and {long_insns} instructions");
    let records = |p: &animkit_vm::Program| {
        p.strings.len() + p.modules.len() + p.modules.iter().map(|m| m.functions.len()).sum::<usize>()
    };
    eprintln!(
        "short: {short_insns} instructions, {} records, {short_calls} allocations; long: {long_insns} instructions, {} records, {long_calls} allocations",
        records(&short_program),
        records(&long_program)
    );
    // The same modules, strings and functions, ten times the code and debug
    // positions: the same allocations but for the doubling growth of the
    // two reused buffers whose length follows the longest function (the
    // decoded sprite code and the progress check's marks: 2 more here).
    // The verifier's successor table, one entry per instruction, was a
    // third such buffer: the long bundle then took 9 allocations more than
    // the short one (2 358 and 2 367, BENCHMARKS.md), which this bound
    // rejects; the sprite fast path no longer builds it.
    assert_eq!(records(&short_program), records(&long_program));
    assert!(
        long_calls <= short_calls + 4,
        "{short_calls} allocations for the short bundle, {long_calls} for the long one"
    );
    // And a few per record: each function's code, constants and positions,
    // each module's states, functions and source path, each string.
    assert!(
        long_calls <= 4 * records(&long_program) + 64,
        "{long_calls} allocations for {} records",
        records(&long_program)
    );
}
