//! `animc` on SLAP sources, as a process: a bundle next to the input,
//! `--check`, warnings (printed rustc-style, exit 0), errors (exit 1, no
//! output), `--emit asm`, `--strip`, `--no-fold`, standard input with
//! `--lang slap`, `--fmt` and `--fmt --write`.

use animkit_vm::engine::program::Program;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

fn animc(args: &[&str], dir: &Path) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_animc")).args(args).current_dir(dir).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

const SCENE: &str = "define PI 3.1416\ndefine swagger 2\nactor 1 size .9\ntime +500\nactor 1 direction PI/4\nactor 1 action swagger\ntime +1000\n";

fn load(path: &Path) -> animkit_vm::engine::verify::Verified<Program> {
    animkit_vm::engine::codec::load(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn compiles_a_scene_next_to_the_input() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("walk.slap"), SCENE).unwrap();
    let (status, out, err) = animc(&["walk.slap"], dir.path());
    assert_eq!((status, out.as_str(), err.as_str()), (0, "", ""));
    let program = load(&dir.path().join("walk.animb"));
    assert_eq!(program.modules[0].language, animkit_vm::engine::program::Language::Slap);
    assert_eq!(program.modules[0].source.as_deref(), Some("walk.slap"));
    let scene = animkit_vm::engine::slap::SceneSim::new(std::sync::Arc::new(program), "walk").unwrap();
    assert_eq!(scene.length(), 1500);
}

#[test]
fn warnings_are_printed_and_exit_0() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("back.slap"), "time 500\nactor 1 size 1\ntime 10\nactor 1 size 2\n").unwrap();
    let expected = "warning: time 10 is earlier than the current time 500\n --> back.slap:3:6\n  |\n1 | time 500\n  | -------- the time was 500 here\n2 | actor 1 size 1\n3 | time 10\n  |      ^^ goes back in time\n  |\n  = note: the timeline is ordered by frame: the commands below run at frame 10, before those of later frames\n\nwarning: 1 warning emitted\n";
    for args in [&["--check", "back.slap"][..], &["back.slap"][..]] {
        let (status, out, err) = animc(args, dir.path());
        assert_eq!((status, out.as_str(), err.as_str()), (0, "", expected), "{args:?}");
    }
    assert!(dir.path().join("back.animb").exists());
}

#[test]
fn errors_exit_1_and_leave_no_output() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.slap"), "actor 1 colour 1 0 0\nactor mommy size 1\n").unwrap();
    let (status, _, err) = animc(&["bad.slap"], dir.path());
    assert_eq!(status, 1);
    assert!(err.starts_with("error: unknown actor attribute `colour`\n --> bad.slap:1:9\n"), "{err}");
    assert!(err.contains("error: undefined name `mommy`\n --> bad.slap:2:7\n"), "{err}");
    assert!(err.ends_with("error: could not compile due to 2 previous errors\n"), "{err}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn asm_strip_and_no_fold() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("walk.slap"), SCENE).unwrap();
    let (status, asm, _) = animc(&["--emit", "asm", "walk.slap"], dir.path());
    assert_eq!(status, 0);
    assert!(asm.contains("module \"walk\" (slap): 1 function, 0 states, from walk.slap\n"), "{asm}");
    assert!(
        asm.contains("     5  LOADK       1 3         ; 5:1  0.7854\n     6  DIRECTION   R0..R1      ; 5:1\n"),
        "{asm}"
    );
    let (_, asm, _) = animc(&["--emit", "asm", "--no-fold", "walk.slap"], dir.path());
    assert!(asm.contains("LOADK       1 3         ; 5:1  3.1416\n"), "{asm}");
    assert!(asm.contains("DIV         1 1 2       ; 5:1\n"), "{asm}");
    for (args, out) in [
        (&["walk.slap", "-o", "a.animb"][..], "a.animb"),
        (&["walk.slap", "--strip", "-o", "b.animb"][..], "b.animb"),
        (&["walk.slap", "--no-fold", "-o", "c.animb"][..], "c.animb"),
    ] {
        assert_eq!(animc(args, dir.path()).0, 0, "{args:?}");
        let p = load(&dir.path().join(out));
        let f = &p.modules[0].functions[0];
        assert_eq!(f.lines.is_empty(), out == "b.animb", "{out}");
        assert_eq!(p.modules[0].source.is_none(), out == "b.animb", "{out}");
        assert_eq!(f.code.iter().any(|w| w.op() == Some(animkit_vm::engine::isa::Op::Div)), out == "c.animb", "{out}");
    }
}

#[test]
fn reads_standard_input_with_lang_slap() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_animc"))
        .args(["--lang", "slap", "-", "-o", "s.animb"])
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(SCENE.as_bytes()).unwrap();
    assert!(child.wait().unwrap().success());
    let program = load(&dir.path().join("s.animb"));
    assert!(animkit_vm::engine::slap::SceneSim::new(std::sync::Arc::new(program), "stdin").is_ok());
}

#[test]
fn fmt_and_fmt_write() {
    let dir = tempfile::tempdir().unwrap();
    let messy = "# scene\n  actor   1  size   .9   # big\n\n\ntime  +( 2+3 )*2\n";
    let canonical = "# scene\nactor 1 size .9 # big\n\ntime +(2 + 3)*2\n";
    std::fs::write(dir.path().join("m.slap"), messy).unwrap();
    let (status, out, err) = animc(&["--fmt", "m.slap"], dir.path());
    assert_eq!((status, out.as_str(), err.as_str()), (0, canonical, ""));
    assert_eq!(std::fs::read_to_string(dir.path().join("m.slap")).unwrap(), messy);
    assert_eq!(animc(&["--fmt", "--write", "m.slap"], dir.path()).0, 0);
    assert_eq!(std::fs::read_to_string(dir.path().join("m.slap")).unwrap(), canonical);
    // A syntax error stops formatting; a checker error does not.
    std::fs::write(dir.path().join("e.slap"), "actor 1 size (1\n").unwrap();
    let (status, _, err) = animc(&["--fmt", "e.slap"], dir.path());
    assert_eq!(status, 1);
    assert!(err.contains("e.slap:1:14"), "{err}");
    std::fs::write(dir.path().join("u.slap"), "actor mommy size 1\n").unwrap();
    assert_eq!(animc(&["--fmt", "u.slap"], dir.path()), (0, "actor mommy size 1\n".into(), String::new()));
}
