//! `animvm -H` drawing SLAP bundles (hand-assembled with `SceneAsm`,
//! written as `.animb`; traces are `animvm_slap.rs`'s, pictures of the
//! examples `tests/slap_golden.rs`'s): `-d` frames numbered by the scene's
//! frame, `--frames`,
//! `--start` giving the same picture as running from 0, `--gif` (a looping
//! GIF of the frames, written atomically, silent when piped), runtime
//! errors printed once with their frame and position, and the options'
//! errors. About 3 s.

use animkit_runtime::render::RgbaImage;
use animkit_vm::engine::codec;
use animkit_vm::engine::isa::Op;
use animkit_vm::engine::slap::SceneAsm;
use std::path::Path;
use std::process::Command;

fn animvm(args: &[&str], dir: &Path) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_animvm"))
        .args(args)
        .current_dir(dir)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// Two actors, one walking; the scene is 40 frames long.
fn walk_bundle(dir: &Path) {
    let mut asm = SceneAsm::new();
    asm.op(Op::Position2, &[1.0, -1.0, 0.0]).op(Op::ActorColor, &[1.0, 1.0, 0.0, 0.0]);
    asm.op(Op::Direction, &[1.0, 1.5]).op(Op::Action, &[1.0, 2.0]);
    asm.op(Op::Position2, &[2.0, 1.5, -1.0]).op(Op::Action, &[2.0, 8.0]);
    asm.at(40);
    std::fs::write(dir.join("walk.animb"), codec::encode(&asm.finish("walk").unwrap())).unwrap();
}

fn files(dir: &Path) -> Vec<String> {
    let mut f: Vec<String> =
        std::fs::read_dir(dir).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    f.sort();
    f
}

#[test]
fn frames_are_written_numbered_by_the_scene_and_start_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    walk_bundle(dir.path());
    let ok = (0, String::new(), String::new());
    assert_eq!(
        animvm(&["-H", "-x", "160", "-y", "120", "-d", "all/f", "--frames", "13", "walk.animb"], dir.path()),
        ok
    );
    assert_eq!(files(&dir.path().join("all")).len(), 13);
    assert_eq!(
        animvm(
            &["-H", "-x", "160", "-y", "120", "-d", "late/f", "--start", "10", "--frames", "3", "walk.animb"],
            dir.path()
        ),
        ok
    );
    assert_eq!(files(&dir.path().join("late")), ["f0010.png", "f0011.png", "f0012.png"]);
    for f in ["f0010.png", "f0012.png"] {
        let a = RgbaImage::load_png(dir.path().join("all").join(f)).unwrap();
        let b = RgbaImage::load_png(dir.path().join("late").join(f)).unwrap();
        assert_eq!((a.width, a.height), (160, 120));
        assert!(a.data == b.data, "{f} differs between a run from 0 and one from --start 10");
    }
    // The walker moves: frame 0 and frame 12 differ.
    let first = RgbaImage::load_png(dir.path().join("all/f0000.png")).unwrap();
    let last = RgbaImage::load_png(dir.path().join("all/f0012.png")).unwrap();
    assert!(first.data != last.data);
    // Without --frames, the frames run to the scene's length (40), inclusive.
    assert_eq!(animvm(&["-H", "-x", "32", "-y", "24", "-d", "whole/f", "walk.animb"], dir.path()), ok);
    assert_eq!(files(&dir.path().join("whole")).last().map(String::as_str), Some("f0040.png"));
}

#[test]
fn gif_is_one_looping_file_of_the_frames() {
    let dir = tempfile::tempdir().unwrap();
    walk_bundle(dir.path());
    let (status, out, err) =
        animvm(&["-H", "-x", "160", "-y", "120", "--gif", "walk.gif", "--frames", "20", "walk.animb"], dir.path());
    // Piped: no progress bar.
    assert_eq!((status, out.as_str(), err.as_str()), (0, "", ""));
    assert_eq!(files(dir.path()), ["walk.animb", "walk.gif"], "no temporary file is left");
    let bytes = std::fs::read(dir.path().join("walk.gif")).unwrap();
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(bytes.as_slice()).unwrap();
    assert_eq!((decoder.width(), decoder.height()), (160, 120));
    let mut delays = Vec::new();
    let mut first = None;
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        delays.push(frame.delay);
        if first.is_none() {
            first = Some((frame.width, frame.height, frame.buffer.to_vec()));
        }
    }
    // 20 frames at 30 a second: 2/3 of a second, in hundredths.
    assert_eq!(delays.iter().map(|&d| u32::from(d)).sum::<u32>(), 67, "{delays:?}");
    assert!(delays.len() > 10, "the walker changes most frames: {delays:?}");
    // The first frame is the whole picture, and its top is the sky.
    let (w, h, pixels) = first.unwrap();
    assert_eq!((w, h), (160, 120));
    let top = &pixels[..4];
    let sky = animkit_runtime::render::scene3d::SKY.map(|c| (c * 255.0).round() as i32);
    assert!((0..3).all(|i| (i32::from(top[i]) - sky[i]).abs() <= 4), "{top:?} {sky:?}");
    // --fps sets the delays.
    let (status, _, _) = animvm(
        &["-H", "-x", "40", "-y", "30", "--gif", "slow.gif", "--fps", "10", "--frames", "5", "walk.animb"],
        dir.path(),
    );
    assert_eq!(status, 0);
    let bytes = std::fs::read(dir.path().join("slow.gif")).unwrap();
    let mut decoder = gif::DecodeOptions::new().read_info(bytes.as_slice()).unwrap();
    let mut total = 0u32;
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        total += u32::from(frame.delay);
    }
    assert_eq!(total, 50);
}

#[test]
fn runtime_errors_are_reported_once_with_frame_and_position() {
    let dir = tempfile::tempdir().unwrap();
    let mut asm = SceneAsm::new();
    asm.op(Op::Action, &[1.0, 2.0]);
    asm.at(3).line(7, 1).op(Op::Size, &[1.0, 0.0]).line(8, 1).op(Op::Action, &[1.0, 12.0]);
    std::fs::write(dir.path().join("bad.animb"), codec::encode(&asm.finish("bad").unwrap())).unwrap();
    let (status, out, err) = animvm(&["-H", "-x", "32", "-y", "24", "--frames", "6", "bad.animb"], dir.path());
    assert_eq!((status, out.as_str()), (1, ""));
    assert_eq!(
        err,
        "bad.slap:7:1: error: frame 3: `actor 1 size 0`: the size must be a finite number above 0\n\
         bad.slap:8:1: error: frame 3: `actor 1 action 12`: the action must be one of the twelve, a whole number in 0..=11\n"
    );
    // Frames before the error: none reported, exit 0.
    assert_eq!(animvm(&["-H", "-x", "32", "-y", "24", "--frames", "3", "bad.animb"], dir.path()).0, 0);
}

#[test]
fn option_errors() {
    let dir = tempfile::tempdir().unwrap();
    walk_bundle(dir.path());
    let (status, _, err) = animvm(&["--gif", "x.gif", "walk.animb"], dir.path());
    assert_eq!((status, err.as_str()), (1, "animvm: --gif writes frames headless: add -H\n"));
    let (status, _, err) = animvm(&["-H", "--fps", "0", "walk.animb"], dir.path());
    assert_eq!(status, 1);
    assert!(err.starts_with("animvm: option --fps needs a number of frames per second above 0, got `0`\n"), "{err}");
    let (status, _, err) = animvm(&["-H", "--start", "-3", "walk.animb"], dir.path());
    assert_eq!(status, 1);
    assert!(err.contains("option --start needs a whole number, got `-3`"), "{err}");
    let (status, _, err) = animvm(&["-H", "-d", "walk.animb/f", "--frames", "1", "walk.animb"], dir.path());
    assert_eq!(status, 1);
    assert!(err.starts_with("animvm: "), "{err}");
}

/// `--watch` is the player window's: a trace or headless frames are one
/// fixed run, so they refuse it with a clear error.
#[test]
fn watch_is_refused_for_traces_and_headless_frames() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("s.slap"), "actor 1 size 2\ntime 3\n").unwrap();
    for args in [&["--watch", "--trace", "s.slap"][..], &["--watch", "-H", "s.slap"][..]] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_animvm"))
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            "animvm: --watch plays a SLAP scene in a window (it starts over on each save); a trace or headless frames are one fixed run: leave out --trace and -H\n"
        );
    }
}

#[test]
fn frame_names_are_padded_to_the_last_frame_written() {
    let dir = tempfile::tempdir().unwrap();
    walk_bundle(dir.path());
    let ok = (0, String::new(), String::new());
    let args = ["-H", "-x", "16", "-y", "12", "-d", "wide/f", "--start", "9998", "--frames", "3", "walk.animb"];
    assert_eq!(animvm(&args, dir.path()), ok);
    // Frames 9998 to 10000: five digits for all three, so they sort.
    assert_eq!(files(&dir.path().join("wide")), ["f09998.png", "f09999.png", "f10000.png"]);
}
