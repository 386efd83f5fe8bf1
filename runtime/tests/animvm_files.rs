//! `animvm` never leaves a truncated PNG behind: `screenshot` and `-d`
//! frames that cannot be written (a parent that is a file, a missing
//! directory, a file size limit that fails the write midway, as a full
//! disk would) are reported as errors at the command, the stream goes on,
//! and the target path holds nothing or its previous complete file. No
//! temporary file is left.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Runs `animvm -H ARGS` in `dir` with `input` on standard input, under a
/// file size limit of `limit_kb` KiB when given (`ulimit -f`, SIGXFSZ
/// ignored, so that writes past it fail with EFBIG).
fn animvm(dir: &Path, args: &[&str], input: &str, limit_kb: Option<u32>) -> Output {
    let exe = env!("CARGO_BIN_EXE_animvm");
    let mut cmd = match limit_kb {
        Some(kb) => {
            let mut c = Command::new("sh");
            // POSIX `ulimit -f` counts 512-byte blocks.
            let script = format!("trap '' XFSZ; ulimit -f {}; exec \"$0\" \"$@\"", kb * 2);
            c.args(["-c", &script, exe]);
            c
        }
        None => Command::new(exe),
    };
    let mut child = cmd
        .arg("-H")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

/// A frame that compresses badly: a few thousand dots of varied colours.
fn noisy_frame() -> String {
    let mut s = String::from("frame\n");
    let mut x = 12345u32;
    for _ in 0..3000 {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        let (r, g, b) = ((x >> 8) % 256, (x >> 16) % 256, (x >> 24) % 256);
        let (px, py) = ((x % 2000) as f64 / 1000.0 - 1.0, ((x >> 11) % 2000) as f64 / 1000.0 - 1.0);
        s.push_str(&format!("color {} {} {}\ndot {px} {py}\n", r as f64 / 255.0, g as f64 / 255.0, b as f64 / 255.0));
    }
    s
}

fn files(dir: &Path) -> Vec<String> {
    let mut f: Vec<String> =
        std::fs::read_dir(dir).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    f.sort();
    f
}

fn is_complete_png(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\x89PNG\r\n\x1a\n") && bytes.ends_with(b"IEND\xae\x42\x60\x82")
}

#[test]
fn screenshots_that_cannot_be_written_are_errors_and_leave_nothing() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("file"), "not a directory").unwrap();
    let input = "frame\nscreenshot file/a.png\nscreenshot missing/b.png\necho \"still running\"\n";
    let out = animvm(dir.path(), &["-x", "32", "-y", "32"], input, None);
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].starts_with("<stdin>:2:1: error: cannot write screenshot `file/a.png`: file/a.png: Not a directory"),
        "{err}"
    );
    assert!(
        lines[1]
            .starts_with("<stdin>:3:1: error: cannot write screenshot `missing/b.png`: missing/b.png: No such file"),
        "{err}"
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "still running\n");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(files(dir.path()), ["file"]);
}

#[test]
fn a_screenshot_failing_midway_leaves_no_truncated_png() {
    let dir = tempfile::tempdir().unwrap();
    // A complete screenshot from an earlier run.
    let input = format!("{}screenshot shot.png\n", noisy_frame());
    let out = animvm(dir.path(), &["-x", "256", "-y", "256"], &input, None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let before = std::fs::read(dir.path().join("shot.png")).unwrap();
    assert!(is_complete_png(&before) && before.len() > 8 << 10, "{} bytes", before.len());
    // The same again with files limited to 4 KiB: the write fails midway.
    let input = format!("{}screenshot shot.png\nscreenshot new.png\necho after\n", noisy_frame());
    let out = animvm(dir.path(), &["-x", "256", "-y", "256"], &input, Some(4));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(":1: error: cannot write screenshot `shot.png`: "), "{err}");
    assert!(err.contains(":1: error: cannot write screenshot `new.png`: "), "{err}");
    assert!(err.contains("File too large"), "{err}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "after\n");
    assert_eq!(std::fs::read(dir.path().join("shot.png")).unwrap(), before, "the earlier screenshot is intact");
    assert_eq!(files(dir.path()), ["shot.png"]);
}

#[test]
fn frames_that_cannot_be_written_are_errors_and_leave_nothing() {
    // `-d` under a file size limit: every flush reports the failure, no
    // frame file and no temporary file is left.
    let dir = tempfile::tempdir().unwrap();
    let input = format!("{}flush\nflush\necho after\n", noisy_frame());
    let out = animvm(dir.path(), &["-x", "256", "-y", "256", "-d", "frames/f"], &input, Some(4));
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().filter(|l| l.contains("error:")).collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(lines[0].contains(": error: cannot write `frames/f0000.png`: "), "{err}");
    assert!(lines[0].contains("File too large"), "{err}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "after\n");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(files(&dir.path().join("frames")), Vec::<String>::new());
    // A `-d` head under a file.
    std::fs::write(dir.path().join("file"), "x").unwrap();
    let out = animvm(dir.path(), &["-x", "16", "-y", "16", "-d", "file/f"], "frame\nflush\necho after\n", None);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("<stdin>:2:1: error: cannot write `file/f0000.png`: file/f0000.png: Not a directory"),
        "{err}"
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "after\n");
    assert_eq!(files(dir.path()), ["file", "frames"]);
}
