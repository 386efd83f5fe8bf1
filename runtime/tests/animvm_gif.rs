//! `animvm -H --gif FILE` for Animator streams and scripts and for the
//! sprite viewer (SLAP's is in `animvm_slap.rs`): one looping GIF of the
//! frames, each Animator frame showing for the waits its program asked for
//! after it (counted, not measured), the viewer's at 50 ticks a second;
//! written atomically, silent when piped, refused without `-H`. About 2 s.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

fn animvm(dir: &Path, args: &[&str], input: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_animvm"))
        .args(args)
        .current_dir(dir)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// A GIF frame's rectangle and delay: (left, top, width, height, delay).
type FrameRect = (u16, u16, u16, u16, u16);

/// Each frame's rectangle and delay, and the first frame's first pixel
/// (RGBA).
fn frames(path: &Path) -> (Vec<FrameRect>, [u8; 4]) {
    let bytes = std::fs::read(path).unwrap();
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut d = options.read_info(bytes.as_slice()).unwrap();
    let mut out = Vec::new();
    let mut first = None;
    while let Some(f) = d.read_next_frame().unwrap() {
        first.get_or_insert([f.buffer[0], f.buffer[1], f.buffer[2], f.buffer[3]]);
        out.push((f.left, f.top, f.width, f.height, f.delay));
    }
    (out, first.unwrap_or_default())
}

#[test]
fn an_animator_stream_records_each_flush_with_the_waits_after_it() {
    let dir = tempfile::tempdir().unwrap();
    // Three frames: red (then a 0.3 s sleep), red with a dot (no wait: one
    // frame at 30 fps), blue (flushdelay 0.5: shows for its period).
    let input = "bg red\nframe\nflush\nsleep 0.3\ncolor white\ndot 0 0\nflush\nbg blue\nframe\nflushdelay 0.5\n";
    let (status, out, err) = animvm(dir.path(), &["-H", "-x", "40", "-y", "30", "--gif", "s.gif"], input);
    assert_eq!((status, out.as_str(), err.as_str()), (0, "", ""));
    let (frames, first) = frames(&dir.path().join("s.gif"));
    assert_eq!(first, [255, 0, 0, 255]);
    // The dot's frame is one pixel at the centre.
    assert_eq!(frames, [(0, 0, 40, 30, 30), (20, 15, 1, 1, 3), (0, 0, 40, 30, 50)]);
    let names: Vec<String> =
        std::fs::read_dir(dir.path()).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into()).collect();
    assert_eq!(names, ["s.gif"], "no temporary file is left");
}

#[test]
fn a_script_and_the_sprite_viewer_record_gifs_too() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("s.draw"), "bg green\nframe\nflush\nbg black\nframe\nflush\n").unwrap();
    let (status, _, err) = animvm(dir.path(), &["-H", "-x", "16", "-y", "16", "--gif", "d.gif", "s.draw"], "");
    assert_eq!((status, err.as_str()), (0, ""));
    let (f, first) = frames(&dir.path().join("d.gif"));
    assert_eq!((f.len(), first), (2, [0, 128, 0, 255])); // CSS green
    std::fs::write(dir.path().join("hero.anim"), "Walk: 2, 2, _loop\n").unwrap();
    let args = ["-H", "-x", "64", "-y", "48", "--ticks", "10", "--gif", "v.gif", "hero.anim"];
    let (status, _, err) = animvm(dir.path(), &args, "");
    assert_eq!((status, err.as_str()), (0, ""));
    let (f, _) = frames(&dir.path().join("v.gif"));
    // 10 ticks at 50 a second: 20 hundredths. A 64 px picture shows only
    // the start of the overlay (not the tick count), so the picture changes
    // with the sprite's frame, every 2 ticks: 5 frames of 4 hundredths.
    assert_eq!(f.iter().map(|x| x.4).collect::<Vec<_>>(), [4, 4, 4, 4, 4]);
}

#[test]
fn gif_needs_headless_mode() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("hero.anim"), "Walk: 2, 2, _loop\n").unwrap();
    for args in [&["--gif", "x.gif"][..], &["--gif", "x.gif", "hero.anim"]] {
        let (status, _, err) = animvm(dir.path(), args, "");
        assert_eq!((status, err.as_str()), (1, "animvm: --gif writes frames headless: add -H\n"), "{args:?}");
    }
}
