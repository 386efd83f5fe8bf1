//! `animvm -H` as a process: streaming from standard input, compiled
//! scripts and bundles, files written, exit statuses.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn animvm() -> Command {
    Command::new(env!("CARGO_BIN_EXE_animvm"))
}

fn run_with_input(args: &[&str], input: &str, dir: &std::path::Path) -> (i32, Vec<u8>, String) {
    let mut child = animvm()
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (out.status.code().unwrap_or(-1), out.stdout, String::from_utf8_lossy(&out.stderr).into())
}

fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    let be = |i: usize| u32::from_be_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    (be(16), be(20))
}

#[test]
fn streams_interactively_line_by_line() {
    let mut child =
        animvm().args(["-H", "-x", "64", "-y", "48"]).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    for word in ["one", "two", "three"] {
        // Each echo must come back before any further input is sent.
        writeln!(stdin, "frame\nline 0 0 1 1\necho {word}").unwrap();
        stdin.flush().unwrap();
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        assert_eq!(line, format!("{word}\n"));
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

#[test]
fn screenshot_to_stdout_like_the_thumbnail_server() {
    let dir = tempfile::tempdir().unwrap();
    let script = "frame\ncolor 1 0 0\nfillrect -1 -1 2 2\nbogus 1 2\nscreenshot \"/dev/stdout\"\n";
    let (status, out, err) = run_with_input(&["-H", "-x", "128", "-y", "96"], script, dir.path());
    assert_eq!(png_size(&out), (128, 96));
    assert_eq!(err, "<stdin>:4:1: error: expected a command, found `bogus`\n");
    assert_eq!(status, 1, "errors in the stream make the exit status 1, after everything ran");
}

/// Issue 17 §4: a command missing arguments is reported at its own line,
/// not at the command after it (or the end of the input), and what follows
/// still runs.
#[test]
fn a_command_cut_short_is_reported_at_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let (status, out, err) = run_with_input(&["-H"], "frame\nline 0 0 1\necho after\nline 0 0 1", dir.path());
    assert_eq!(String::from_utf8(out).unwrap(), "after\n");
    assert_eq!(
        err,
        "<stdin>:2:1: error: `line` takes 4 numbers, x1 y1 x2 y2; found 3\n\
         <stdin>:4:1: error: `line` takes 4 numbers, x1 y1 x2 y2; found 3\n"
    );
    assert_eq!(status, 1);
    // Values as written are the checker's: reported at the argument.
    let (_, _, err) = run_with_input(&["-H"], "frame\n  circle 0 0 1 2.5\nthick 5000\n", dir.path());
    assert_eq!(
        err,
        "<stdin>:2:16: error: expected a whole number, found `2.5`\n<stdin>:3:7: error: thickness 5000 is out of range\n"
    );
}

#[test]
fn dash_d_writes_every_flushed_frame_and_screendump_writes_raw_pixels() {
    let dir = tempfile::tempdir().unwrap();
    let script = "frame\nflush\nframe\ndot 0 0\nflush\nflush\nscreendump raw32.bin\n";
    let (status, out, err) = run_with_input(&["-H", "-x", "10", "-y", "6", "-d", "f"], script, dir.path());
    assert_eq!((status, out.len(), err.as_str()), (0, 0, ""));
    for i in 0..4 {
        let png = std::fs::read(dir.path().join(format!("f{i:04}.png"))).unwrap();
        assert_eq!(png_size(&png), (10, 6));
    }
    assert!(!dir.path().join("f0004.png").exists());
    assert_eq!(std::fs::read(dir.path().join("raw32.bin")).unwrap().len(), 10 * 6 * 4);
    let (_, out, _) = run_with_input(&["-H", "-x", "10", "-y", "6", "-D", "16"], "screendump -\n", dir.path());
    assert_eq!(out.len(), 20 * 6, "RGB565 rows of 20 bytes");
    let (_, out, _) = run_with_input(&["-H", "-x", "10", "-y", "6"], "bg #102030\nframe\nscreendump -\n", dir.path());
    assert_eq!(out.len(), 10 * 6 * 4);
    assert_eq!(&out[..4], &[0x30, 0x20, 0x10, 0xff], "B, G, R, A");
}

#[test]
fn compiled_scripts_and_bundles_behave_like_the_stream() {
    let dir = tempfile::tempdir().unwrap();
    let script = "macro m\n  color blue\n  circle 0 0 0.5 16\nendmacro\nframe\nbg #eee\nframe\ninvoke m\ninvoke 0.5 0 m\necho done\nechopt p 0 0 1 1 .\nscreenshot s.png\n";
    std::fs::write(dir.path().join("scene.draw"), script).unwrap();
    let (s1, streamed, e1) = run_with_input(&["-H", "-x", "80", "-y", "60"], script, dir.path());
    let from_stream = std::fs::read(dir.path().join("s.png")).unwrap();
    let (s2, compiled, e2) = run_with_input(&["-H", "-x", "80", "-y", "60", "scene.draw"], "", dir.path());
    let from_source = std::fs::read(dir.path().join("s.png")).unwrap();
    let animc = Command::new(env!("CARGO_BIN_EXE_animvm")).arg("-h").output().unwrap();
    assert!(animc.status.success());
    let program = animkit_runtime::load::load_program(dir.path().join("scene.draw").to_str().unwrap()).unwrap();
    std::fs::write(dir.path().join("scene.animb"), animkit_vm::engine::codec::encode(&program)).unwrap();
    let (s3, bundled, e3) = run_with_input(&["-H", "-x", "80", "-y", "60", "scene.animb"], "", dir.path());
    let from_bundle = std::fs::read(dir.path().join("s.png")).unwrap();
    assert_eq!((s1, s2, s3), (0, 0, 0));
    assert_eq!((e1.as_str(), e2.as_str(), e3.as_str()), ("", "", ""));
    assert_eq!(String::from_utf8(streamed.clone()).unwrap(), "done\np 40 30 70 0\n");
    assert_eq!(streamed, compiled);
    assert_eq!(streamed, bundled);
    assert_eq!(from_stream, from_source);
    assert_eq!(from_stream, from_bundle);
}

#[test]
fn runtime_errors_in_compiled_scripts_name_the_source_position() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("e.draw"), "echo a\npop\ninvoke nothing\necho b\n").unwrap();
    let (status, out, err) = run_with_input(&["-H", "e.draw"], "", dir.path());
    assert_eq!(String::from_utf8(out).unwrap(), "a\nb\n");
    assert_eq!(
        err,
        "e.draw:2:1: error: pop without a matching push: the matrix stack holds only the root matrix\ne.draw:3:1: error: no macro named `nothing`\n"
    );
    assert_eq!(status, 1);
}

#[test]
fn quit_sleep_and_end_of_input() {
    let dir = tempfile::tempdir().unwrap();
    let (status, out, _) = run_with_input(&["-H"], "echo a\nquit\necho b\n", dir.path());
    assert_eq!((status, String::from_utf8(out).unwrap().as_str()), (0, "a\n"));
    let start = Instant::now();
    let (status, out, _) = run_with_input(&["-H"], "echo a\nsleep 0.3\necho b\n", dir.path());
    assert!(start.elapsed() >= Duration::from_millis(300));
    assert_eq!((status, String::from_utf8(out).unwrap().as_str()), (0, "a\nb\n"));
    // Events on: flushdelay reports FLUSHDELAY with the time to advance by.
    let (_, out, _) = run_with_input(&["-H", "-e"], "flushdelay 0.01\nflushdelay 0.01\n", dir.path());
    let out = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines.iter().all(|l| l.starts_with("FLUSHDELAY 0.0")), "{out}");
}

#[test]
fn usage_and_bad_flags() {
    let out = animvm().arg("-h").output().unwrap();
    assert!(out.status.success());
    let usage = String::from_utf8(out.stdout).unwrap();
    for flag in ["-x N", "-y N", "-D bpp", "-k", "-e", "-a", "-d head", "-q", "-C", "-R", "-H", "-F N", "--trace"] {
        assert!(usage.contains(flag), "usage lacks {flag}");
    }
    let out = animvm().args(["-H", "-x"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8(out.stderr).unwrap(), "animvm: option -x needs a value\nTry `animvm -h` for help.\n");
    let mut child = animvm().args(["-H", "-x", "abc"]).stderr(Stdio::piped()).spawn().unwrap();
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(1));
    assert_eq!(err, "animvm: option -x needs a whole number, got `abc`\nTry `animvm -h` for help.\n");
}

#[test]
fn screendump_goes_to_the_descriptor_named_by_dash_f() {
    let dir = tempfile::tempdir().unwrap();
    let exe = env!("CARGO_BIN_EXE_animvm");
    let status = Command::new("sh")
        .arg("-c")
        .arg(format!("printf 'echo hello\\nscreendump -\\n' | '{exe}' -H -x 4 -y 2 -F 3 3>fd3.raw >stdout.txt"))
        .current_dir(dir.path())
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(std::fs::read(dir.path().join("fd3.raw")).unwrap().len(), 4 * 2 * 4);
    assert_eq!(std::fs::read_to_string(dir.path().join("stdout.txt")).unwrap(), "hello\n");
}

#[test]
fn bg_inside_a_frame_colours_that_frame_streamed_compiled_and_bundled() {
    // What thumbnail clients send: `frame`, then `bg`, then the drawing;
    // then a `bg` after drawing and a flush, as a second thumbnail would.
    let dir = tempfile::tempdir().unwrap();
    let script = "frame\nbg #336699\ncolor white\nfillrect -0.5 -0.5 1 1\nscreenshot a.png\nalpha 0.5\ncolor red\n\
                  fillrect -1 -1 0.2 0.2\nflush\nbg #102030\nscreendump b.raw\nframe\nscreenshot c.png\n";
    std::fs::write(dir.path().join("thumb.draw"), script).unwrap();
    let program = animkit_runtime::load::load_program(dir.path().join("thumb.draw").to_str().unwrap()).unwrap();
    std::fs::write(dir.path().join("thumb.animb"), animkit_vm::engine::codec::encode(&program)).unwrap();
    let mut runs = Vec::new();
    for (file, input) in [(None, script), (Some("thumb.draw"), ""), (Some("thumb.animb"), "")] {
        let mut args = vec!["-H", "-x", "8", "-y", "8", "-d", "f"];
        args.extend(file);
        let (status, out, err) = run_with_input(&args, input, dir.path());
        assert_eq!((status, out.len(), err.as_str()), (0, 0, ""), "{file:?}");
        let read = |name: &str| std::fs::read(dir.path().join(name)).unwrap();
        runs.push([read("a.png"), read("b.raw"), read("c.png"), read("f0002.png")]);
    }
    assert_eq!(runs[0], runs[1], "compiled == streamed");
    assert_eq!(runs[0], runs[2], "bundled == streamed");
    let png = |bytes: &[u8]| animkit_runtime::render::RgbaImage::decode_png(bytes).unwrap();
    let a = png(&runs[0][0]);
    assert_eq!((a.pixel(0, 0), a.pixel(4, 4)), (Some([0x33, 0x66, 0x99, 255]), Some([255; 4])));
    // b.raw: B, G, R, A at 32 bpp; the new background under the white
    // square, and under the half-transparent red corner (rows top down:
    // the corner is the bottom-left pixel), every pixel opaque.
    let raw = &runs[0][1];
    let px = |x: usize, y: usize| &raw[4 * (y * 8 + x)..4 * (y * 8 + x) + 4];
    assert_eq!(px(0, 0), [0x30, 0x20, 0x10, 255]);
    assert_eq!(px(4, 4), [255, 255, 255, 255]);
    // Red at alpha 0.5 over #102030 is (135.5, 16, 24): within one step of
    // rounding (the background was #336699 when the red was blended).
    let near = |p: &[u8], q: [u8; 4]| p.iter().zip(q).all(|(&a, b)| a.abs_diff(b) <= 1);
    assert!(near(px(0, 7), [24, 16, 136, 255]), "{:?}", px(0, 7));
    // The next frame clears to the last bg; the -d frame of the flush
    // after `bg` (f0002: a.png's flush, the flush, screendump's) shows it.
    assert_eq!(png(&runs[0][2]).pixel(4, 4), Some([0x10, 0x20, 0x30, 255]));
    assert_eq!(png(&runs[0][3]).pixel(0, 0), Some([0x10, 0x20, 0x30, 255]));
}
