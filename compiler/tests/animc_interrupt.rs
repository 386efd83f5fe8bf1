//! A compile or `--fmt --write` killed with `SIGTERM` or `SIGINT` while it
//! writes leaves no `.NAME.tmpPID` file behind (and the target is either
//! the old file or the complete new one); a stale temporary file of a dead
//! process is removed by the next run to the same target.

use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> =
        std::fs::read_dir(dir).unwrap().flatten().map(|e| e.file_name().into_string().unwrap()).collect();
    v.sort();
    v
}

/// Runs `animc args` in `dir` and sends `signal` the moment its temporary
/// file for `target` appears; whether the signal ended it.
fn interrupt_while_writing(dir: &Path, args: &[&str], target: &str, signal: &str) -> bool {
    let mut child = Command::new(env!("CARGO_BIN_EXE_animc"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let tmp = dir.join(format!(".{target}.tmp{}", child.id()));
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if tmp.exists() {
            Command::new("kill").args([signal, &child.id().to_string()]).status().unwrap();
            break;
        }
        if child.try_wait().unwrap().is_some() || Instant::now() > deadline {
            break;
        }
    }
    let status = child.wait().unwrap();
    status.signal().is_some()
}

fn check_no_litter(dir: &Path, expected: &[&str]) {
    assert_eq!(names(dir), expected, "a temporary file was left behind");
}

#[test]
fn an_interrupted_write_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let source = "line  0 0 1 1\n".repeat(400_000);
    let formatted = "line 0 0 1 1\n".repeat(400_000);
    // The bundle an uninterrupted compile writes.
    let whole = tempfile::tempdir().unwrap();
    std::fs::write(whole.path().join("big.draw"), &source).unwrap();
    let done = Command::new(env!("CARGO_BIN_EXE_animc")).arg("big.draw").current_dir(whole.path()).status().unwrap();
    assert!(done.success());
    let complete = std::fs::read(whole.path().join("big.animb")).unwrap();
    let (mut compiles, mut formats) = (0, 0);
    for round in 0..40 {
        let signal = if round % 2 == 0 { "-TERM" } else { "-INT" };
        std::fs::write(dir.path().join("big.draw"), &source).unwrap();
        let _ = std::fs::remove_file(dir.path().join("big.animb"));
        if compiles < 2 && interrupt_while_writing(dir.path(), &["big.draw"], "big.animb", signal) {
            compiles += 1;
            // The signal may land after the rename: then the bundle is the
            // complete one.
            match std::fs::read(dir.path().join("big.animb")) {
                Ok(bytes) => {
                    assert!(bytes == complete, "an interrupted compile left a bundle that is not the complete one");
                    check_no_litter(dir.path(), &["big.animb", "big.draw"]);
                }
                Err(_) => check_no_litter(dir.path(), &["big.draw"]),
            }
        }
        if formats < 2 && interrupt_while_writing(dir.path(), &["--fmt", "--write", "big.draw"], "big.draw", signal) {
            formats += 1;
            // The source is the old text or (the signal after the rename)
            // the new one, whole.
            let text = std::fs::read_to_string(dir.path().join("big.draw")).unwrap();
            assert!(text == source || text == formatted, "an interrupted --fmt --write left a partial source");
        }
        let left = names(dir.path());
        assert!(left.iter().all(|n| !n.contains(".tmp")), "{left:?}");
        if formats == 2 && compiles == 2 {
            break;
        }
    }
    // A run the signal missed finished its write: the file is whole.
    if let Ok(text) = std::fs::read_to_string(dir.path().join("big.draw")) {
        assert!(text == source || text == formatted);
    }
    assert!(compiles > 0 && formats > 0, "no run was interrupted while writing ({compiles}, {formats})");
}

#[test]
fn the_next_run_removes_a_dead_process_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("hero.anim"), "Idle: 5,  _loop\n").unwrap();
    // Above Linux's largest process id: no process has it.
    for stale in [".hero.animb.tmp4194305", ".hero.anim.tmp4194305-2", ".other.animb.tmp4194305"] {
        std::fs::write(dir.path().join(stale), b"partial").unwrap();
    }
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_animc")).args(args).current_dir(dir.path()).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    };
    run(&["hero.anim"]);
    check_no_litter(dir.path(), &[".hero.anim.tmp4194305-2", ".other.animb.tmp4194305", "hero.anim", "hero.animb"]);
    run(&["--fmt", "--write", "hero.anim"]);
    check_no_litter(dir.path(), &[".other.animb.tmp4194305", "hero.anim", "hero.animb"]);
    assert_eq!(std::fs::read_to_string(dir.path().join("hero.anim")).unwrap(), "Idle: 5, _loop\n");
}
