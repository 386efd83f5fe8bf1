//! `animc` as a process: exit statuses, output files, stdin, asm.

use std::io::Write;
use std::process::{Command, Stdio};

/// `animc ARGS` in `dir`: its exit status, standard output and standard
/// error (the other files of this binary use it too).
pub(crate) fn animc(args: &[&str], dir: &std::path::Path) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_animc")).args(args).current_dir(dir).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn compiles_next_to_the_input_by_default() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("hero.anim"), "Idle: 5, 5, _loop\n").unwrap();
    let (status, out, err) = animc(&["hero.anim"], dir.path());
    assert_eq!((status, out.as_str(), err.as_str()), (0, "", ""));
    let bytes = std::fs::read(dir.path().join("hero.animb")).unwrap();
    assert!(animkit_vm::engine::codec::load(&bytes).is_ok());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2, "no temporary file left");
}

#[test]
fn errors_exit_1_and_leave_no_output() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.anim"), "Fire: 5, 5\nIdle: 5, Idel\n").unwrap();
    let (status, _, err) = animc(&["bad.anim", "-o", "out.animb"], dir.path());
    assert_eq!(status, 1);
    assert!(err.contains("error: state `Fire` has no end behaviour\n --> bad.anim:1:10\n"), "{err}");
    assert!(err.contains(" --> bad.anim:2:10\n"), "{err}");
    assert!(err.ends_with("error: could not compile due to 2 previous errors\n"), "{err}");
    assert!(!dir.path().join("out.animb").exists());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn a_failed_compile_keeps_an_older_bundle_intact() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("h.anim"), "Idle: 5, _loop\n").unwrap();
    assert_eq!(animc(&["h.anim"], dir.path()).0, 0);
    let before = std::fs::read(dir.path().join("h.animb")).unwrap();
    std::fs::write(dir.path().join("h.anim"), "Idle: 5\n").unwrap();
    assert_eq!(animc(&["h.anim"], dir.path()).0, 1);
    assert_eq!(std::fs::read(dir.path().join("h.animb")).unwrap(), before);
}

#[test]
fn reads_standard_input_with_lang() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_animc"))
        .args(["--lang", "sprite", "-", "-o", "-"])
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"Walk: 5, 5, _loop\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let p = animkit_vm::engine::codec::load(&out.stdout).unwrap();
    assert_eq!(p.string(p.modules[0].name), "stdin");
    let (status, _, err) = animc(&["-"], dir.path());
    assert_eq!(status, 1);
    assert!(err.contains("needs --lang"), "{err}");
}

#[test]
fn emit_asm_prints_a_disassembly() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("b.anim"), "Breathe: 5, 5, 5, _pingpong|turn\n").unwrap();
    let (status, out, _) = animc(&["--emit", "asm", "b.anim"], dir.path());
    assert_eq!(status, 0);
    let expected = "\
module \"b\" (sprite): 1 function, 1 state, from b.anim
  state 0 Breathe [Breathe] at 0

function 0 \"states\" (0 registers, 0 constants, 12 instructions)
  ; state 0 Breathe
     0  SPRITE      0           ; 1:10
     1  WAIT        5           ; 1:10
     2  SPRITE      1           ; 1:13
     3  WAIT        5           ; 1:13
     4  SPRITE      2           ; 1:16
     5  WAIT        5           ; 1:16
     6  EVENT       1           ; 1:19  \"turn\"
     7  SPRITE      1           ; 1:13
     8  WAIT        5           ; 1:13
     9  SPRITE      0           ; 1:10
    10  WAIT        5           ; 1:10
    11  JMP         -10         ; 1:19  to 2

";
    assert_eq!(out, expected);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "asm to stdout writes no file");
}

#[test]
fn check_writes_nothing_and_usage_errors_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("ok.anim"), "A: 1, _wait\n").unwrap();
    assert_eq!(animc(&["--check", "ok.anim"], dir.path()).0, 0);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    let (status, _, err) = animc(&["--frobnicate", "ok.anim"], dir.path());
    assert_eq!(status, 1);
    assert!(err.starts_with("error: unknown option `--frobnicate`\n\nusage: animc"), "{err}");
    let (status, _, err) = animc(&["missing.anim"], dir.path());
    assert_eq!(status, 1);
    assert!(err.starts_with("error: cannot read `missing.anim`"), "{err}");
    let (status, _, err) = animc(&["notes.txt"], dir.path());
    assert_eq!(status, 1, "{err}");
    std::fs::write(dir.path().join("notes.txt"), "A: 1, _wait\n").unwrap();
    let (status, _, err) = animc(&["notes.txt"], dir.path());
    assert_eq!(status, 1);
    assert!(err.contains("use --lang"), "{err}");
    assert_eq!(animc(&["--lang", "sprite", "--check", "notes.txt"], dir.path()).0, 0);
    let (status, out, _) = animc(&["--help"], dir.path());
    assert_eq!(status, 0);
    assert!(out.starts_with("usage: animc"));
}

/// Issue 41 §7: an option that does not apply to the mode or to the
/// inputs' language is refused (`OPTIONS` in `compiler/src/cli.rs`),
/// naming the mode or the language, status 1, nothing written.
#[test]
fn options_that_do_not_apply_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("h.anim"), "Idle: 5, _loop\n").unwrap();
    std::fs::write(d.join("s.slap"), "actor 1 size 1\ntime 2\n").unwrap();
    std::fs::write(d.join("m.draw"), "echo hi\n").unwrap();
    let cases: [(&[&str], &str); 8] = [
        (
            &["--tick-ms", "50", "h.anim"],
            "--tick-ms only goes with Aseprite exports (--from-aseprite or --lang aseprite), and `h.anim` is a sprite source",
        ),
        (
            &["--tick-ms", "50", "s.slap"],
            "--tick-ms only goes with Aseprite exports (--from-aseprite or --lang aseprite), and `s.slap` is a SLAP source",
        ),
        (&["--strict", "h.anim"], "--strict only goes with SLAP sources, and `h.anim` is a sprite source"),
        (
            &["--strict", "--check", "m.draw"],
            "--strict only goes with SLAP sources, and `m.draw` is an Animator source",
        ),
        (&["--fmt", "-o", "out.anim", "h.anim"], "-o only goes with a build or --from-aseprite, not with --fmt"),
        (&["--fmt", "--emit", "asm", "h.anim"], "--emit only goes with a build, not with --fmt"),
        (&["--write", "h.anim"], "--write only goes with --fmt"),
        (&["--check", "--strip", "h.anim"], "--strip only goes with a build, not with --check"),
    ];
    for (args, message) in cases {
        let (status, out, err) = animc(args, d);
        let expected = format!("error: {message}\n\n{}", animkit_compiler::cli::usage());
        assert_eq!((status, out.as_str(), err.as_str()), (1, "", expected.as_str()), "{args:?}");
    }
    // Nothing was written: no bundle, no `-o` file.
    let mut names: Vec<String> =
        std::fs::read_dir(d).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    assert_eq!(names, ["h.anim", "m.draw", "s.slap"]);
    // Where they apply they still work.
    assert_eq!(animc(&["--strict", "--check", "h.anim", "s.slap"], d).0, 0);
    assert_eq!(animc(&["--fmt", "h.anim"], d), (0, "Idle: 5, _loop\n".into(), String::new()));
    assert_eq!(animc(&["--emit", "asm", "-o", "h.asm", "h.anim"], d).0, 0);
}
