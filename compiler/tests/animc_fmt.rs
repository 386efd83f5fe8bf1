//! `animc --fmt` on Animator files, as a process: every example and golden
//! script formats to a fixed point, keeps every comment, and means the same
//! commands; `--fmt --write` rewrites in place; syntax errors stop it.

use animkit_grammar::animator::parse;
use std::path::{Path, PathBuf};
use std::process::Command;

fn animc(args: &[&str], dir: &Path) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_animc")).args(args).current_dir(dir).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// Every `.draw` file of `examples/` and `tests/golden/animator/`.
fn scripts() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for dir in ["examples", "tests/golden/animator"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "draw") {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 3, "{files:?}");
    files
}

fn commands(text: &str) -> Vec<String> {
    let (cmds, errors) = parse(text);
    assert!(errors.is_empty(), "{errors:?}");
    cmds.iter().map(|c| format!("{:?}", c.without_spans())).collect()
}

#[test]
fn every_script_formats_to_a_fixed_point_and_keeps_its_comments() {
    let dir = tempfile::tempdir().unwrap();
    for path in scripts() {
        let src = std::fs::read_to_string(&path).unwrap();
        let (status, once, err) = animc(&["--fmt", path.to_str().unwrap()], dir.path());
        assert_eq!((status, err.as_str()), (0, ""), "{}", path.display());
        // The same commands, bit for bit.
        assert_eq!(commands(&once), commands(&src), "{}", path.display());
        // Every comment, once, in order.
        let comments = |t: &str| -> Vec<String> {
            t.lines().filter_map(|l| l.find('!').map(|i| l[i..].trim_end().to_string())).collect()
        };
        assert_eq!(comments(&once), comments(&src), "{}", path.display());
        // Idempotent.
        let copy = dir.path().join("once.draw");
        std::fs::write(&copy, &once).unwrap();
        let (status, twice, _) = animc(&["--fmt", "once.draw"], dir.path());
        assert_eq!(status, 0);
        assert_eq!(twice, once, "{} is not a fixed point", path.display());
    }
}

#[test]
fn fmt_write_rewrites_in_place_and_leaves_formatted_files_alone() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.draw");
    std::fs::write(
        &file,
        "! demo\nframe\ncolor   1 0 0 ! red\n\n\n\nmacro m\nrect 0 0 - 1.000000 1\nendmacro\ninvoke 2 2 m\nflush",
    )
    .unwrap();
    let (status, out, err) = animc(&["--fmt", "--write", "s.draw"], dir.path());
    assert_eq!((status, out.as_str(), err.as_str()), (0, "", ""));
    let want = "! demo\nframe\ncolor 1 0 0 ! red\n\nmacro m\n  rect 0 0 - 1 1\nendmacro\ninvoke 2 2 m\nflush\n";
    assert_eq!(std::fs::read_to_string(&file).unwrap(), want);
    let before = std::fs::metadata(&file).unwrap().modified().unwrap();
    assert_eq!(animc(&["--fmt", "--write", "s.draw"], dir.path()).0, 0);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), want);
    assert_eq!(std::fs::metadata(&file).unwrap().modified().unwrap(), before, "an unchanged file is not rewritten");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "no temporary file left");
}

#[test]
fn fmt_reports_syntax_errors_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.draw");
    let src = "frame\nlien 0 0 1 1\n";
    std::fs::write(&file, src).unwrap();
    let (status, out, err) = animc(&["--fmt", "--write", "bad.draw"], dir.path());
    assert_eq!((status, out.as_str()), (1, ""));
    assert!(
        err.contains("error: expected a command, found `lien` (did you mean `line`?)\n --> bad.draw:2:1\n"),
        "{err}"
    );
    assert!(err.ends_with("error: could not format due to 1 previous error\n"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), src);
}

#[test]
fn fmt_reads_standard_input_with_lang() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_animc"))
        .args(["--fmt", "--lang", "animator", "-"])
        .current_dir(dir.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"text  left top 0 0 \"frame\"").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "text left top 0 0 \"frame\"\n");
}
