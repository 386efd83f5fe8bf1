//! `animc` never writes its output over one of its inputs (issue 41, case
//! 6): `animc x.anim -o x.anim` used to replace the source with the
//! bundle. Each form is refused with its message and exit status 1, before
//! anything is read, the input's bytes unchanged: the same name, another
//! spelling, a symbolic link, a hard link, a default output that is the
//! input, `--emit asm -o`, and `--from-aseprite -o` naming the export or
//! its sheet image. A different output still works.

use std::path::Path;
use std::process::{Command, Output};

const SOURCE: &str = "Idle: 5, _loop\n";

fn animc(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_animc")).args(args).current_dir(dir).output().unwrap()
}

fn refused(output: &str, input: &str) -> String {
    format!(
        "error: the output `{output}` is the input `{input}` (the same file): writing it would replace the source; \
         name another output with -o\n"
    )
}

/// `animc args` exits 1 with exactly `expected` on stderr, nothing on
/// stdout, and leaves the directory's files as they were.
fn assert_refused(dir: &Path, args: &[&str], expected: &str) {
    let before = snapshot(dir);
    let o = animc(dir, args);
    assert_eq!(
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned()
        ),
        (Some(1), String::new(), expected.to_string()),
        "animc {args:?}"
    );
    assert_eq!(snapshot(dir), before, "animc {args:?} changed the files");
}

/// Every entry of `dir`: its name, and its bytes (a file) or where it
/// points (a symbolic link).
fn snapshot(dir: &Path) -> Vec<(String, bool, Vec<u8>)> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| {
            let link = e.file_type().unwrap().is_symlink();
            let bytes = if link {
                std::fs::read_link(e.path()).unwrap().into_os_string().into_encoded_bytes()
            } else {
                std::fs::read(e.path()).unwrap()
            };
            (e.file_name().to_string_lossy().into_owned(), link, bytes)
        })
        .collect();
    v.sort();
    v
}

#[test]
fn an_output_that_is_an_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("x.anim"), SOURCE).unwrap();
    std::fs::write(d.join("y.anim"), "Run: 3, _loop\n").unwrap();
    assert_refused(d, &["x.anim", "-o", "x.anim"], &refused("x.anim", "x.anim"));
    assert_refused(d, &["x.anim", "-o", "./x.anim"], &refused("./x.anim", "x.anim"));
    // Any of the inputs, not only the first.
    assert_refused(d, &["x.anim", "y.anim", "-o", "y.anim"], &refused("y.anim", "y.anim"));
    assert_refused(d, &["--emit", "asm", "x.anim", "-o", "x.anim"], &refused("x.anim", "x.anim"));
    // Before anything is read: an input with errors is not even compiled.
    std::fs::write(d.join("bad.anim"), "Idle: oops\n").unwrap();
    assert_refused(d, &["bad.anim", "-o", "bad.anim"], &refused("bad.anim", "bad.anim"));
    // The default output (the input with the extension .animb) too.
    std::fs::write(d.join("z.animb"), SOURCE).unwrap();
    assert_refused(d, &["--lang", "sprite", "z.animb"], &refused("z.animb", "z.animb"));
    assert_eq!(std::fs::read(d.join("x.anim")).unwrap(), SOURCE.as_bytes());
}

#[test]
fn an_output_linked_to_an_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("x.anim"), SOURCE).unwrap();
    std::os::unix::fs::symlink("x.anim", d.join("soft.animb")).unwrap();
    std::fs::hard_link(d.join("x.anim"), d.join("hard.animb")).unwrap();
    assert_refused(d, &["x.anim", "-o", "soft.animb"], &refused("soft.animb", "x.anim"));
    assert_refused(d, &["x.anim", "-o", "hard.animb"], &refused("hard.animb", "x.anim"));
    // The input named through the link, the output by its own name.
    assert_refused(d, &["soft.animb", "--lang", "sprite", "-o", "x.anim"], &refused("x.anim", "soft.animb"));
    // Through a linked directory.
    std::os::unix::fs::symlink(".", d.join("here")).unwrap();
    assert_refused(d, &["x.anim", "-o", "here/x.anim"], &refused("here/x.anim", "x.anim"));
    assert!(std::fs::symlink_metadata(d.join("soft.animb")).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read(d.join("x.anim")).unwrap(), SOURCE.as_bytes());
}

#[test]
fn a_different_output_still_works() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("x.anim"), SOURCE).unwrap();
    let o = animc(d, &["x.anim", "-o", "x.animb"]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let bundle = std::fs::read(d.join("x.animb")).unwrap();
    assert_eq!(&bundle[..4], b"ANIM", "a bundle");
    // Written again over the earlier bundle (an output, not an input).
    let o = animc(d, &["x.anim"]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read(d.join("x.animb")).unwrap(), bundle);
    // A copy of the input is another file.
    std::fs::copy(d.join("x.anim"), d.join("copy.anim")).unwrap();
    let o = animc(d, &["x.anim", "-o", "copy.anim"]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read(d.join("copy.anim")).unwrap(), bundle);
    assert_eq!(std::fs::read(d.join("x.anim")).unwrap(), SOURCE.as_bytes());
    // `--fmt --write` rewrites its inputs in place, as it is meant to.
    std::fs::write(d.join("f.anim"), "Idle:5,_loop\n").unwrap();
    let o = animc(d, &["--fmt", "--write", "f.anim"]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert_ne!(std::fs::read_to_string(d.join("f.anim")).unwrap(), "Idle:5,_loop\n");
}

#[test]
fn from_aseprite_never_writes_over_the_export_or_its_image() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let json = std::fs::read(format!("{}/tests/aseprite/hero-hash.json", env!("CARGO_MANIFEST_DIR"))).unwrap();
    std::fs::write(d.join("hero.json"), &json).unwrap();
    assert_refused(d, &["--from-aseprite", "hero.json", "-o", "hero.json"], &refused("hero.json", "hero.json"));
    std::os::unix::fs::symlink("hero.json", d.join("sheet.anim")).unwrap();
    assert_refused(d, &["--from-aseprite", "hero.json", "-o", "sheet.anim"], &refused("sheet.anim", "hero.json"));
    // The sheet image the export names (`hero.png`, beside it).
    std::fs::write(d.join("hero.png"), b"\x89PNG image").unwrap();
    let before = snapshot(d);
    let o = animc(d, &["--from-aseprite", "hero.json", "-o", "hero.png"]);
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.ends_with(
            "error: the output `hero.png` is the sheet image `hero.png` of `hero.json` (the same file): writing it \
             would replace the image; name another output with -o\n"
        ),
        "{stderr}"
    );
    assert_eq!(snapshot(d), before);
    // Another output is written.
    let o = animc(d, &["--from-aseprite", "hero.json", "-o", "hero.anim"]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(std::fs::read_to_string(d.join("hero.anim")).unwrap().starts_with("# Converted from hero.json"));
    assert_eq!(std::fs::read(d.join("hero.json")).unwrap(), json);
}
