//! `animc` never leaves a partial bundle: killed at random points while it
//! compiles and writes, made to fail in the middle of writing (a file size
//! limit, as a full disk would), or given an output it cannot create. The
//! output path always holds a complete bundle or nothing; temporary files
//! (`.NAME.tmpPID`) are removed on error, and those of killed processes by
//! the next `animc` that writes the same output.

use animkit_compiler::{Options, Source, compile};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn animc() -> Command {
    Command::new(env!("CARGO_BIN_EXE_animc"))
}

/// A source whose bundle is a few megabytes.
fn big_source() -> String {
    let mut s = String::from("macro m\ncolor red\nlines 0 0 1 1 2 0\nendmacro\n");
    for i in 0..25_000 {
        s.push_str(&format!("line {i} 0.5 {} -1.25\ninvoke {i} 1 m\n", i + 1));
    }
    s
}

/// Temporary files of `out` in `dir`.
fn temps(dir: &Path, out: &str) -> Vec<String> {
    let prefix = format!(".{out}.tmp");
    let mut t: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(&prefix))
        .collect();
    t.sort();
    t
}

/// The output is absent or exactly the expected bundle.
fn assert_complete_or_absent(path: &Path, expected: &[u8], when: &str) {
    match std::fs::read(path) {
        Ok(bytes) => {
            assert!(
                bytes == expected,
                "{when}: {} holds {} bytes, not the complete bundle",
                path.display(),
                bytes.len()
            );
        }
        Err(e) => assert_eq!(e.kind(), std::io::ErrorKind::NotFound, "{when}"),
    }
}

#[test]
fn killing_animc_never_leaves_a_partial_bundle() {
    let dir = tempfile::tempdir().unwrap();
    let text = big_source();
    std::fs::write(dir.path().join("big.draw"), &text).unwrap();
    let expected =
        animkit_vm::engine::codec::encode(&compile(&[Source::new("big.draw", text)], &Options::default()).unwrap());
    let out = dir.path().join("out.animb");

    // One whole run, to learn how long it takes.
    let start = Instant::now();
    let status = animc().args(["big.draw", "-o", "out.animb"]).current_dir(dir.path()).status().unwrap();
    let whole = start.elapsed();
    assert!(status.success());
    eprintln!("one run: {whole:?}, {} bytes", expected.len());
    assert_eq!(std::fs::read(&out).unwrap(), expected);
    std::fs::remove_file(&out).unwrap();

    let mut rng = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut killed = Vec::new();
    let mut caught_writing = 0;
    for round in 0..10 {
        let mut child = animc()
            .args(["big.draw", "-o", "out.animb"])
            .current_dir(dir.path())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        if round % 2 == 0 {
            // Anywhere in the run, or just after it.
            let nanos = next() % (whole.as_nanos() as u64 * 5 / 4 + 1);
            std::thread::sleep(Duration::from_nanos(nanos));
        } else {
            // While the bundle is being written: as soon as the temporary
            // file appears, or a little later.
            let mine = dir.path().join(format!(".out.animb.tmp{}", child.id()));
            let deadline = Instant::now() + whole * 3;
            while !mine.exists() && Instant::now() < deadline && child.try_wait().unwrap().is_none() {
                std::hint::spin_loop();
            }
            if child.try_wait().unwrap().is_none() {
                caught_writing += 1;
            }
            std::thread::sleep(Duration::from_micros(next() % 3000));
        }
        let _ = child.kill();
        let status = child.wait().unwrap();
        if !status.success() {
            killed.push(child.id());
        }
        assert_complete_or_absent(&out, &expected, &format!("after kill {round}"));
        // A temporary file can only belong to a killed process.
        for t in temps(dir.path(), "out.animb") {
            let pid: u32 = t.trim_start_matches(".out.animb.tmp").parse().unwrap();
            assert!(killed.contains(&pid), "temporary file {t} of a process that was not killed");
        }
    }
    assert!(caught_writing > 0, "no kill landed while the bundle was being written");
    // The next run that writes cleans up after the killed ones.
    let status = animc().args(["big.draw", "-o", "out.animb"]).current_dir(dir.path()).status().unwrap();
    assert!(status.success());
    assert_eq!(std::fs::read(&out).unwrap(), expected);
    assert_eq!(temps(dir.path(), "out.animb"), Vec::<String>::new());
}

#[test]
fn a_write_error_midway_leaves_nothing_behind() {
    // `ulimit -f` makes writes past 64 KiB fail with EFBIG, as a full disk
    // would fail them (SIGXFSZ ignored, so the write returns an error).
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("big.draw"), big_source()).unwrap();
    let run = |out: &str| {
        Command::new("sh")
            .args([
                "-c",
                "trap '' XFSZ; ulimit -f 128; exec \"$0\" big.draw -o \"$1\"",
                env!("CARGO_BIN_EXE_animc"),
                out,
            ])
            .current_dir(dir.path())
            .output()
            .unwrap()
    };
    let result = run("out.animb");
    assert_eq!(result.status.code(), Some(1));
    let err = String::from_utf8_lossy(&result.stderr);
    assert!(err.starts_with("error: cannot write `out.animb`: File too large"), "{err}");
    assert!(!dir.path().join("out.animb").exists());
    assert_eq!(temps(dir.path(), "out.animb"), Vec::<String>::new());
    // An older bundle stays as it was.
    std::fs::write(dir.path().join("old.animb"), b"older").unwrap();
    assert_eq!(run("old.animb").status.code(), Some(1));
    assert_eq!(std::fs::read(dir.path().join("old.animb")).unwrap(), b"older");
    assert_eq!(temps(dir.path(), "old.animb"), Vec::<String>::new());
}

#[test]
fn an_output_that_cannot_be_created_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("h.anim"), "Idle: 5, _loop\n").unwrap();
    std::fs::write(dir.path().join("file"), "not a directory").unwrap();
    std::fs::create_dir(dir.path().join("dir.animb")).unwrap();
    for (out, why) in
        [("file/h.animb", "Not a directory"), ("missing/h.animb", "No such file or directory"), ("dir.animb", "")]
    {
        let result = animc().args(["h.anim", "-o", out]).current_dir(dir.path()).output().unwrap();
        let err = String::from_utf8_lossy(&result.stderr);
        assert_eq!(result.status.code(), Some(1), "{out}");
        assert!(err.starts_with(&format!("error: cannot write `{out}`: {why}")), "{out}: {err}");
    }
    let mut left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["dir.animb", "file", "h.anim"]);
    assert_eq!(std::fs::read_dir(dir.path().join("dir.animb")).unwrap().count(), 0);
}

#[test]
fn stale_temporary_files_are_removed_only_for_dead_processes() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("h.anim"), "Idle: 5, _loop\n").unwrap();
    // A dead process (pid 2^22 + 1 is above Linux's default pid_max and
    // never runs), this test's own process, and names that merely look
    // similar.
    let mine = format!(".h.animb.tmp{}", std::process::id());
    for name in [".h.animb.tmp4194305", mine.as_str(), ".h.animb.tmpx", ".other.animb.tmp4194305", "h.animb.tmp4194305"]
    {
        std::fs::write(dir.path().join(name), "junk").unwrap();
    }
    assert!(animc().args(["h.anim"]).current_dir(dir.path()).status().unwrap().success());
    let mut left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    let mut expected = vec![mine.clone(), ".h.animb.tmpx".into(), ".other.animb.tmp4194305".into(), "h.anim".into()];
    expected.extend(["h.animb".to_string(), "h.animb.tmp4194305".to_string()]);
    expected.sort();
    assert_eq!(left, expected);
}
