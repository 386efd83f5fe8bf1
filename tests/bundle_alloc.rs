//! Decoding never allocates for what a bundle merely claims: payloads
//! that claim vectors, strings and byte strings of 2^32 to 2^64 elements
//! are rejected with an error, and the largest single allocation made
//! while loading them stays small. The binary's counting allocator
//! (`animkit_test_support::alloc`) counts what the loading thread
//! allocates.

use crate::common;
use animkit_test_support::alloc::measure;
use animkit_vm::engine::codec::{self, LoadError};

/// Loads `bytes` while counting: (result, largest allocation, total bytes).
fn measured_load(
    bytes: &[u8],
) -> (Result<animkit_vm::engine::verify::Verified<animkit_vm::Program>, LoadError>, usize, usize) {
    let (result, stats) = measure(|| codec::load(bytes));
    (result, stats.largest, stats.bytes)
}

/// A bundle around `payload`, with a correct header and checksum.
fn bundle(payload: &[u8]) -> Vec<u8> {
    codec::frame_payload(payload)
}

/// bincode's varint encoding of a length or integer.
fn varint(v: u64) -> Vec<u8> {
    match v {
        0..=250 => vec![v as u8],
        251..=0xffff => [vec![0xfb], (v as u16).to_le_bytes().to_vec()].concat(),
        0x1_0000..=0xffff_ffff => [vec![0xfc], (v as u32).to_le_bytes().to_vec()].concat(),
        _ => [vec![0xfd], v.to_le_bytes().to_vec()].concat(),
    }
}

/// Pieces of a `BundleBody` payload (see `vm/src/codec.rs`).
fn payload(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

const HUGE: [u64; 5] = [1 << 32, 1 << 40, (1 << 40) + 7, u64::MAX / 2, u64::MAX];

#[test]
fn claimed_lengths_are_not_allocated() {
    let empty_module_list: &[u8] = &varint(0);
    let mut cases: Vec<(String, Vec<u8>)> = Vec::new();
    for n in HUGE {
        // The string table's length.
        cases.push((format!("{n} strings"), payload(&[&varint(n)])));
        // One string's length.
        cases.push((format!("a string of {n} bytes"), payload(&[&varint(1), &varint(n), b"abc"])));
        // The constant pool's length.
        cases.push((format!("a pool of {n} bytes"), payload(&[&varint(0), &varint(n), &[0, 0]])));
        // The module list's length.
        cases.push((format!("{n} modules"), payload(&[&varint(0), &varint(0), &varint(n)])));
        // A module's function list, code and debug lines.
        let module_head = [varint(0), vec![2]].concat();
        cases.push((
            format!("{n} functions"),
            payload(&[&varint(1), &varint(1), b"m", &varint(0), &varint(1), &module_head, &varint(n)]),
        ));
        let function_head = [varint(0), vec![1]].concat();
        cases.push((
            format!("{n} bytes of code"),
            payload(&[
                &varint(1),
                &varint(1),
                b"m",
                &varint(0),
                &varint(1),
                &module_head,
                &varint(1),
                &function_head,
                &varint(n),
            ]),
        ));
        cases.push((
            format!("{n} states"),
            payload(&[&varint(1), &varint(1), b"m", &varint(0), &varint(1), &module_head, &varint(0), &varint(n)]),
        ));
        // A source path's length.
        cases.push((
            format!("a source path of {n} bytes"),
            payload(&[
                &varint(0),
                &varint(0),
                &varint(1),
                &module_head,
                &varint(0),
                &varint(0),
                &[0, 1, 0],
                &varint(n),
            ]),
        ));
    }
    let _ = empty_module_list;
    for (what, p) in cases {
        let (result, largest, total) = measured_load(&bundle(&p));
        match result {
            Err(LoadError::Malformed(m)) => assert!(
                m.starts_with("the payload ends in the middle of a field")
                    || m.starts_with("a length in the payload claims"),
                "{what}: {m}"
            ),
            other => panic!("{what}: expected a malformed-bundle error, got {other:?}"),
        }
        assert!(largest <= 1 << 20, "{what}: an allocation of {largest} bytes");
        assert!(total <= 4 << 20, "{what}: {total} bytes allocated in all");
    }
}

/// Claimed lengths up to the payload limit, where only the bytes present
/// can tell that a claim lies: 1 MiB to 256 MiB.
const LIES: [u64; 7] = [1 << 20, (1 << 20) + 1, (3 << 20) + 5, 64 << 20, 200 << 20, (256 << 20) - 1, 256 << 20];

/// A payload with a lie at each length and count field the format has,
/// each as `(what, payload)`: the string table's count and a string's
/// length, the constant pool, the module list, a module's functions, a
/// function's code and debug lines, a module's states and its source path.
fn lying_payloads(n: u64) -> Vec<(String, Vec<u8>)> {
    // Module `m` (string 0), Animator (language byte 2).
    let strings: &[u8] = &[varint(1), varint(1), b"m".to_vec()].concat();
    let no_consts: &[u8] = &varint(0);
    let module_head: &[u8] = &[varint(0), vec![2]].concat();
    // Function `m`, one register; then its empty code, constants 0..+0.
    let function_head: &[u8] = &[varint(0), vec![1]].concat();
    let empty_code_and_consts: &[u8] = &[varint(0), varint(0), varint(0)].concat();
    let one = &varint(1)[..];
    let none = &varint(0)[..];
    let lie = &varint(n)[..];
    vec![
        (format!("{n} strings"), payload(&[lie, b"ab"])),
        (format!("a string of {n} bytes"), payload(&[one, lie, b"abcd"])),
        (format!("a pool of {n} bytes"), payload(&[strings, lie, &[0, 1]])),
        (format!("{n} modules"), payload(&[strings, no_consts, lie, module_head])),
        (format!("{n} functions"), payload(&[strings, no_consts, one, module_head, lie, function_head])),
        (
            format!("{n} bytes of code"),
            payload(&[strings, no_consts, one, module_head, one, function_head, lie, &[0x11]]),
        ),
        (
            format!("{n} bytes of debug lines"),
            payload(&[strings, no_consts, one, module_head, one, function_head, empty_code_and_consts, lie, &[0]]),
        ),
        (format!("{n} bytes of states"), payload(&[strings, no_consts, one, module_head, none, lie, &[2]])),
        (
            // No functions, no states, no entry, a source written out.
            format!("a source path of {n} bytes"),
            payload(&[strings, no_consts, one, module_head, none, none, none, one, none, lie, b"m.draw"]),
        ),
    ]
}

/// Lists whose count lies but which hold 1 000 real elements first: 1 000
/// empty strings, 1 000 functions without code.
fn lying_lists(n: u64) -> Vec<(String, Vec<u8>)> {
    let strings: &[u8] = &[varint(1), varint(1), b"m".to_vec()].concat();
    let empty_function: &[u8] = &[varint(0), vec![1], varint(0), varint(0), varint(0), varint(0)].concat();
    vec![
        (format!("{n} strings, 1 000 of them there"), payload(&[&varint(n), &[0; 1000]])),
        (
            format!("{n} functions, 1 000 of them there"),
            payload(&[
                strings,
                &varint(0),
                &varint(1),
                &[varint(0), vec![2]].concat(),
                &varint(n),
                &empty_function.repeat(1000),
            ]),
        ),
    ]
}

#[test]
fn lengths_the_payload_cannot_hold_are_never_allocated() {
    let expected =
        "malformed bundle: the payload ends in the middle of a field (a length or count claims more than there is)";
    let mut failures = Vec::new();
    // Decoding allocates in proportion to the bytes there are, not to what
    // they claim: for a bare lie, nothing but the error message (about 150
    // bytes for these 30); a list, memory for the elements it holds as they
    // decode (16 bytes for an empty string of one byte, growing by
    // doubling).
    let cases = LIES.iter().flat_map(|&n| {
        let bare = lying_payloads(n).into_iter().map(|(what, p)| (what, p, 16));
        bare.chain(lying_lists(n).into_iter().map(|(what, p)| (what, p, 64)))
    });
    for (what, p, factor) in cases {
        let bytes = bundle(&p);
        let (result, largest, total) = measured_load(&bytes);
        match result {
            Err(e) if e.to_string() == expected => {}
            other => failures.push(format!("{what}: {other:?}")),
        }
        if total > factor * bytes.len() {
            failures.push(format!(
                "{what}: a {}-byte bundle made allocations of {total} bytes, the largest {largest}",
                bytes.len()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn constants_are_decoded_once_whatever_the_functions_claim() {
    // A pool of 50 000 constants (2 bytes each) and 2 000 functions that
    // all claim the whole pool: before the ranges had to tile the pool,
    // this 120 KB payload decoded into 2000 * 50 000 constants (1.6 GB).
    let n_consts = 50_000u64;
    let mut pool = Vec::new();
    for _ in 0..n_consts {
        pool.extend_from_slice(&[0x00, 0x01]);
    }
    let mut functions = varint(2000);
    for _ in 0..2000 {
        functions.extend(varint(1)); // name
        functions.push(0); // nregs
        functions.extend(varint(4));
        functions.extend_from_slice(&[0x11, 0, 0, 0]); // HALT
        functions.extend(varint(0)); // const_start
        functions.extend(varint(n_consts)); // const_len
        functions.extend(varint(0)); // lines
    }
    let p = payload(&[
        &varint(2),
        &varint(1),
        b"m",
        &varint(4),
        b"main",
        &varint(pool.len() as u64),
        &pool,
        &varint(1),
        &varint(0),
        &[2],
        &functions,
        &varint(1),
        &[0],
        &[1],
        &varint(0),
        &[0],
    ]);
    let (result, largest, total) = measured_load(&bundle(&p));
    let e = result.unwrap_err();
    assert_eq!(
        e.to_string(),
        "malformed bundle: module 0 function 1: constants start at 0, not at 50000 where the previous function's constants end"
    );
    assert!(largest < 4 << 20 && total < 16 << 20, "largest {largest}, total {total}");
}

#[test]
fn a_real_bundle_costs_a_small_multiple_of_its_size() {
    let text = std::fs::read_to_string(common::path("examples/spinner.draw")).unwrap();
    let program = animkit_compiler::compile(
        &[animkit_compiler::Source::new("spinner.draw", text)],
        &animkit_compiler::Options::default(),
    )
    .unwrap();
    let bytes = codec::encode(&program);
    let (result, largest, total) = measured_load(&bytes);
    assert_eq!(*result.unwrap(), program);
    assert!(total < 40 * bytes.len() + (64 << 10), "{} bytes loaded with {total} bytes of allocations", bytes.len());
    assert!(largest < 16 * bytes.len() + (16 << 10), "largest allocation {largest}");
}
