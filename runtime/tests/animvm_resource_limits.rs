//! `animvm` under an address-space limit on big inputs of every kind, in
//! each language, as `compiler/tests/animc_resource_limits.rs` does for
//! `animc`: files over the source and bundle limits (sparse 1 GiB files),
//! a device that never ends, a bundle whose header lies about its length,
//! 16 MiB of NULs as a file and on standard input, and a few megabytes of
//! each language's costliest valid shape traced and drawn headless. Each
//! run ends with a clean error or a success, never a signal; its peak
//! resident memory is under the bound `docs/limits.md` documents (the
//! compile's bound for the language plus `RUN` for the run itself), and it
//! writes no file it was not asked for.

use std::path::Path;

use animkit_test_support::limited::{Run, files, run_limited, serial, sparse, write_shape};

const ANIMVM: &str = env!("CARGO_BIN_EXE_animvm");

/// The compile's documented peak per source byte (as in `docs/limits.md`).
const PER_BYTE: [(&str, u64); 3] = [("anim", 80), ("draw", 8), ("slap", 8)];
/// What a run may add to its compile: the binary, llvmpipe and its
/// threads, the canvas, and a frame's buffers.
const RUN: u64 = 256 << 20;
const BASE: u64 = 64 << 20;

fn bound(ext: &str, bytes: u64) -> u64 {
    PER_BYTE.iter().find(|(e, _)| *e == ext).map_or(0, |(_, f)| f * bytes) + BASE + RUN
}

/// `animvm ARGS` in `dir`, its input file `name` (or `stdin`), under twice
/// its bound of address space and 1 GiB more (llvmpipe reserves address
/// space for its threads and code); checks the rules common to every run.
fn animvm(dir: &Path, name: &str, args: &[&str], stdin: Option<&Path>) -> Run {
    let ext = name.rsplit('.').next().unwrap_or("");
    let bytes =
        std::fs::metadata(dir.join(name)).map_or(0, |m| m.len()).min(animkit_vm::engine::limits::MAX_SOURCE_BYTES);
    let before = files(dir);
    let run = run_limited(ANIMVM, dir, args, stdin, 2 * bound(ext, bytes) + (1 << 30));
    let what = format!("animvm {}", args.join(" "));
    assert_eq!(run.signal, 0, "{what}: killed by signal {}\n{}", run.signal, run.stderr);
    assert!(matches!(run.code, Some(0 | 1)), "{what}: exit {:?}\n{}", run.code, run.stderr);
    assert!(!run.stderr.contains("panicked") && !run.stderr.contains("memory allocation"), "{what}: {}", run.stderr);
    assert!(
        run.peak <= bound(ext, bytes),
        "{what}: peak {} bytes, over the documented {} for {bytes} bytes of input (the test process held {} when it forked)",
        run.peak,
        bound(ext, bytes),
        run.parent
    );
    assert_eq!(files(dir), before, "{what}: files written");
    run
}

#[test]
fn files_over_the_limits_are_refused_before_they_are_read() {
    let _one = serial();
    let dir = tempfile::tempdir().unwrap();
    for ext in ["anim", "draw", "slap", "animb"] {
        let name = format!("big.{ext}");
        sparse(&dir.path().join(&name), 1 << 30);
        for args in [&["--trace", name.as_str()][..], &["-H", "-x", "32", "-y", "32", name.as_str()]] {
            let run = animvm(dir.path(), &name, args, None);
            assert_eq!(run.code, Some(1));
            assert_eq!(
                run.stderr,
                format!(
                    "error: `{name}` is 1073741824 bytes, more than the 67108864 bytes (64 MiB) a source may have\n"
                )
            );
            assert!(run.peak < 64 << 20, "{name}: read anyway: {}", run.peak);
        }
        std::fs::remove_file(dir.path().join(&name)).unwrap();
    }
    // A file that starts as a bundle does is held to the bundle's limit.
    let name = "big2.animb";
    std::fs::write(dir.path().join(name), animkit_vm::engine::codec::MAGIC).unwrap();
    std::fs::OpenOptions::new().write(true).open(dir.path().join(name)).unwrap().set_len(1 << 30).unwrap();
    let run = animvm(dir.path(), name, &["--trace", name], None);
    assert_eq!(run.code, Some(1));
    let limit = animkit_vm::engine::codec::HEADER_LEN + animkit_vm::engine::codec::MAX_PAYLOAD;
    assert_eq!(
        run.stderr,
        format!("error: `{name}` is 1073741824 bytes, more than the {limit} bytes a bundle may have\n")
    );
    assert!(run.peak < 64 << 20, "read anyway: {}", run.peak);
}

#[test]
fn a_device_that_never_ends_is_read_to_the_limit_only() {
    let _one = serial();
    let dir = tempfile::tempdir().unwrap();
    let run = animvm(dir.path(), "", &["--trace", "/dev/zero"], None);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert_eq!(run.stderr, "error: `/dev/zero` has more than the 67108864 bytes (64 MiB) a source may have\n");
}

#[test]
fn a_bundle_that_lies_about_its_length_is_refused_without_allocating_it() {
    let _one = serial();
    let dir = tempfile::tempdir().unwrap();
    let source = animkit_compiler::Source::new("h.anim", "Idle: 5, _loop\n");
    let good = animkit_compiler::compile(&[source], &Default::default()).unwrap();
    let bytes = animkit_vm::engine::codec::encode(&good);
    let len_at = animkit_vm::engine::codec::HEADER_LEN - 8;
    let cases: [(&str, u32, &str); 2] = [
        ("huge.animb", u32::MAX, "exceeds the limit of 268435456 bytes"),
        ("short.animb", 200 << 20, "truncated bundle"),
    ];
    for (name, claim, error) in cases {
        let mut b = bytes.clone();
        b[len_at..len_at + 4].copy_from_slice(&claim.to_le_bytes());
        std::fs::write(dir.path().join(name), &b).unwrap();
        let run = animvm(dir.path(), name, &["--trace", name], None);
        assert_eq!(run.code, Some(1), "{name}: {}", run.stderr);
        assert!(run.stderr.contains(error), "{name}: {}", run.stderr);
        assert!(run.peak < 64 << 20, "{name}: allocated the claim: {}", run.peak);
    }
}

#[test]
fn sixteen_mib_of_nuls_is_one_error_in_bounded_memory() {
    let _one = serial();
    let dir = tempfile::tempdir().unwrap();
    for ext in ["anim", "draw", "slap"] {
        let name = format!("nuls.{ext}");
        std::fs::write(dir.path().join(&name), vec![0u8; 16 << 20]).unwrap();
        let run = animvm(dir.path(), &name, &["-H", "-x", "32", "-y", "32", name.as_str()], None);
        assert_eq!(run.code, Some(1), "{name}");
        let errors: Vec<&str> = run.stderr.lines().filter(|l| l.starts_with("error")).collect();
        assert_eq!(errors.len(), 2, "{name}: one error and its count\n{}", run.stderr);
        assert_eq!(errors[1], format!("error: could not compile `{name}` due to 1 error"), "{name}");
        std::fs::remove_file(dir.path().join(&name)).unwrap();
    }
    // On standard input, as a stream: the one bad command is reported and
    // the stream ends with the input.
    std::fs::write(dir.path().join("nuls.draw"), vec![0u8; 16 << 20]).unwrap();
    let input = dir.path().join("nuls.draw");
    let run = animvm(dir.path(), "nuls.draw", &["-H", "-x", "32", "-y", "32"], Some(&input));
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert_eq!(run.stderr, "<stdin>:1:1: error: word longer than 4194304 bytes\n");
}

#[test]
fn the_costliest_valid_shapes_run_within_the_bound() {
    let _one = serial();
    let dir = tempfile::tempdir().unwrap();
    let n = 2 << 20;
    let shapes = [
        ("frames.anim", format!("A: {}_loop\n", "1, ".repeat(n / 3)), &["--trace", "--ticks", "3"][..]),
        ("lines.draw", "line 0 0 1 1\n".repeat(n / 13), &["-H", "-x", "64", "-y", "64"][..]),
        (
            "actors.slap",
            (0..n / 20).map(|i| format!("actor {i} color 1 1 1\n")).collect(),
            &["--trace", "--frames", "2"],
        ),
        // Drawn: every actor stands in the view, so none is culled.
        (
            "crowd.slap",
            (0..n / 80).map(|i| format!("actor {i} color 1 1 1\n")).collect(),
            &["-H", "-x", "64", "-y", "64", "--frames", "1"],
        ),
    ];
    for (name, text, flags) in shapes {
        std::fs::write(dir.path().join(name), text).unwrap();
        let mut args = flags.to_vec();
        args.push(name);
        let run = animvm(dir.path(), name, &args, None);
        assert_eq!(run.code, Some(0), "{name}: {}", run.stderr);
        std::fs::remove_file(dir.path().join(name)).unwrap();
    }
}

/// Issue 41 case 10 through `animvm`: one 57 MB line of 19 million frames
/// (every one past sprite index 16 777 215 an error), which asked for
/// 2.28 GB in one allocation, is checked as it is read, within the
/// compile's bound.
#[test]
fn one_line_of_19_million_frames_at_the_source_limit() {
    let _one = serial();
    let dir = tempfile::tempdir().unwrap();
    let name = "frames.anim";
    let len = write_shape(&dir.path().join(name), 57_000_000, "A: ", |_| "1, ".into(), "_loop\n");
    let errors = (len - "A: _loop\n".len()) / 3 - (1 << 24);
    let run = animvm(dir.path(), name, &["--trace", "--ticks", "3", name], None);
    assert_eq!(run.code, Some(1));
    let lines: Vec<&str> = run.stderr.lines().filter(|l| l.starts_with("error")).collect();
    assert_eq!(lines.first(), Some(&"error: automatic frame index 16777216 is too large"));
    assert_eq!(lines.last(), Some(&format!("error: could not compile `frames.anim` due to {errors} errors").as_str()));
}

/// Issue 41 case 11 through `animvm`: one `lines` command of 3.9 MB of
/// points (975 000), drawn headless, within 8 bytes per source byte and
/// 64 MiB over the run's (158.6 MB for its compile alone before).
#[test]
fn one_lines_command_of_a_million_points() {
    let _one = serial();
    let dir = tempfile::tempdir().unwrap();
    let name = "points.draw";
    write_shape(&dir.path().join(name), 3_900_006, "lines", |_| " 1 2".into(), "\n");
    let run = animvm(dir.path(), name, &["-H", "-x", "64", "-y", "64", name], None);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
}
