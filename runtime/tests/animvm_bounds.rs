//! `animvm` says so instead of succeeding silently: a frame range past the
//! last frame it plays, a closed standard output (a trace; and, issue 41
//! case 8, `echo` lines, `screendump -` and `-h` to a standard output that
//! is closed, full or a broken pipe), options of another language, a
//! `resize` beyond the canvas's limit.

use std::io::Write;
use std::process::{Command, Output, Stdio};

const ANIMVM: &str = env!("CARGO_BIN_EXE_animvm");

fn dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("animvm-bounds-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run_in(d: &std::path::Path, args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(ANIMVM)
        .args(args)
        .current_dir(d)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A run refused before it reads its input may be gone already.
    if let Err(e) = child.stdin.take().unwrap().write_all(stdin.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

const SCENE: &str = "time 0\nactor 1 size 2\ntime 10\n";

#[test]
fn a_start_past_the_last_frame_is_refused() {
    let d = dir("start");
    std::fs::write(d.join("s.slap"), SCENE).unwrap();
    let expected = "animvm: --start 18446744073709551615 --frames 3 ends at frame 18446744073709551617, \
                    past the last frame animvm plays (4294967295)\n";
    let o = run_in(&d, &["--trace", "--start", "18446744073709551615", "--frames", "3", "s.slap"], "");
    assert_eq!((o.status.code(), text(&o.stdout), text(&o.stderr)), (Some(1), String::new(), expected.to_string()));
    let o = run_in(&d, &["-H", "-d", "f", "--start", "18446744073709551615", "--frames", "3", "s.slap"], "");
    assert_eq!((o.status.code(), text(&o.stderr)), (Some(1), expected.to_string()));
    assert_eq!(std::fs::read_dir(&d).unwrap().count(), 1, "no frame written");
    // The last frame itself is fine: three lines, three frame numbers.
    let o = run_in(&d, &["--trace", "--start", "4294967293", "--frames", "3", "s.slap"], "");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let frames: Vec<String> = text(&o.stdout).lines().map(|l| l.split(',').next().unwrap().to_string()).collect();
    assert_eq!(frames, ["{\"frame\":4294967293", "{\"frame\":4294967294", "{\"frame\":4294967295"]);
    let o = run_in(&d, &["--trace", "--start", "4294967294", "--frames", "3", "s.slap"], "");
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn a_closed_standard_output_is_an_error() {
    let d = dir("closed");
    std::fs::write(d.join("s.slap"), SCENE).unwrap();
    let o = Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" --trace s.slap >&-")
        .arg(ANIMVM)
        .current_dir(&d)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(text(&o.stderr), "animvm: cannot write the trace: standard output is closed (Bad file descriptor)\n");
    // To /dev/null is not closed: it succeeds.
    let o = Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" --trace s.slap >/dev/null")
        .arg(ANIMVM)
        .current_dir(&d)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
}

/// `animvm args` with `stdin`, its standard output `out`: `closed` (the
/// descriptor closed, `>&-`), `full` (`/dev/full`: ENOSPC), `broken` (a
/// pipe whose reader is gone: EPIPE) or `open` (a pipe read to the end).
fn run_to(d: &std::path::Path, args: &[&str], stdin: &str, out: &str) -> Output {
    let mut command = match out {
        "closed" => {
            let mut c = Command::new("sh");
            c.arg("-c").arg("exec \"$0\" \"$@\" >&-").arg(ANIMVM).args(args);
            c
        }
        _ => {
            let mut c = Command::new(ANIMVM);
            c.args(args);
            c
        }
    };
    match out {
        "full" => command.stdout(std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap()),
        "broken" => {
            // A socket pair with one end gone (`std::io::pipe` is newer
            // than the MSRV): writes fail with EPIPE, as to a pipe.
            let (reader, writer) = std::os::unix::net::UnixStream::pair().unwrap();
            drop(reader);
            command.stdout(std::os::fd::OwnedFd::from(writer))
        }
        _ => command.stdout(Stdio::piped()),
    };
    let mut child = command.current_dir(d).stdin(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

/// What each way standard output can fail says (issue 41, case 8).
const LOST: [(&str, &str); 3] = [
    ("closed", "standard output is closed (Bad file descriptor)"),
    ("full", "No space left on device (os error 28)"),
    ("broken", "Broken pipe (os error 32)"),
];

#[test]
fn echo_to_a_failed_standard_output_is_an_error() {
    let d = dir("echo");
    std::fs::write(d.join("s.draw"), "echo \"hello\"\necho \"two\"\n").unwrap();
    let stream = "echo hello\necho two\n";
    for (out, why) in LOST {
        let expected = format!("animvm: cannot write to standard output: {why}\n");
        let o = run_to(&d, &["-H"], stream, out);
        assert_eq!((o.status.code(), text(&o.stderr)), (Some(1), expected.clone()), "a stream, stdout {out}");
        let o = run_to(&d, &["-H", "s.draw"], "", out);
        assert_eq!((o.status.code(), text(&o.stderr)), (Some(1), expected), "a script, stdout {out}");
    }
    // Standard output open: the lines, status 0.
    for o in [run_to(&d, &["-H"], stream, "open"), run_to(&d, &["-H", "s.draw"], "", "open")] {
        assert_eq!(
            (o.status.code(), text(&o.stdout), text(&o.stderr)),
            (Some(0), "hello\ntwo\n".into(), String::new())
        );
    }
}

#[test]
fn a_screendump_to_a_failed_standard_output_is_an_error() {
    let d = dir("screendump");
    let stream = "frame\nscreendump -\n";
    for (out, why) in LOST {
        let o = run_to(&d, &["-H"], stream, out);
        assert_eq!(
            (o.status.code(), text(&o.stderr)),
            (Some(1), format!("<stdin>:2:1: error: screendump: {why}\n")),
            "stdout {out}"
        );
    }
    let o = run_to(&d, &["-H"], stream, "open");
    assert_eq!((o.status.code(), text(&o.stderr)), (Some(0), String::new()));
    assert_eq!(o.stdout.len(), 640 * 480 * 4, "one 640x480 dump, 4 bytes a pixel");
}

#[test]
fn help_to_a_failed_standard_output_is_an_error() {
    let d = dir("help");
    for (out, why) in LOST {
        let o = run_to(&d, &["-h"], "", out);
        assert_eq!(
            (o.status.code(), text(&o.stderr)),
            (Some(1), format!("animvm: cannot write to standard output: {why}\n")),
            "stdout {out}"
        );
    }
    let o = run_to(&d, &["-h"], "", "open");
    assert_eq!(
        (o.status.code(), text(&o.stdout), text(&o.stderr)),
        (Some(0), animkit_runtime::cli::usage(), String::new())
    );
}

#[test]
fn options_of_another_language_are_refused() {
    let d = dir("lang");
    std::fs::write(d.join("s.slap"), SCENE).unwrap();
    std::fs::write(d.join("h.anim"), "Idle: 5, _loop\n").unwrap();
    let o = run_in(&d, &["--trace", "--start", "3", "h.anim"], "");
    assert_eq!(
        (o.status.code(), text(&o.stderr)),
        (
            Some(1),
            "animvm: --start is for SLAP scenes, and h.anim runs a sprite module (its options: --state, --ticks, --sheet)\n"
                .into()
        )
    );
    let o = run_in(&d, &["--trace", "--frames", "3", "h.anim"], "");
    assert!(text(&o.stderr).starts_with("animvm: --frames is for SLAP scenes"), "{}", text(&o.stderr));
    let o = run_in(&d, &["-H", "--ticks", "3", "s.slap"], "");
    assert_eq!(
        (o.status.code(), text(&o.stderr)),
        (
            Some(1),
            "animvm: --ticks is for sprite modules, and s.slap runs a SLAP scene (its options: --frames, --start, --strict)\n"
                .into()
        )
    );
    let o = run_in(&d, &["--trace", "--state", "Idle", "s.slap"], "");
    assert!(text(&o.stderr).starts_with("animvm: --state is for sprite modules"), "{}", text(&o.stderr));
    // Issue 41 §7: every option that does not apply to what runs, from
    // the one table (`OPTIONS` in runtime/src/cli.rs), naming the
    // language; nothing runs (no `echo`, no trace).
    std::fs::write(d.join("m.draw"), "echo hi\n").unwrap();
    let animator = "(its options: -D, -k, -e, -a, -q, -C, -R, -F)";
    let slap = "(its options: --frames, --start, --strict)";
    let cases: [(&[&str], String); 10] = [
        (
            &["--trace", "--sheet", "W=w.png:2x1", "s.slap"],
            format!("--sheet is for sprite modules, and s.slap runs a SLAP scene {slap}"),
        ),
        (
            &["-H", "--state", "Idle", "m.draw"],
            format!("--state is for sprite modules, and m.draw runs an Animator program {animator}"),
        ),
        (
            &["-H", "--frames", "3", "m.draw"],
            format!("--frames is for SLAP scenes, and m.draw runs an Animator program {animator}"),
        ),
        (
            &["-H", "--start", "3", "m.draw"],
            format!("--start is for SLAP scenes, and m.draw runs an Animator program {animator}"),
        ),
        (
            &["-H", "--ticks", "3", "m.draw"],
            format!("--ticks is for sprite modules, and m.draw runs an Animator program {animator}"),
        ),
        (
            &["-H", "--frames", "3"],
            format!("--frames is for SLAP scenes, and standard input runs Animator commands {animator}"),
        ),
        (
            &["-H", "--start", "3"],
            format!("--start is for SLAP scenes, and standard input runs Animator commands {animator}"),
        ),
        (
            &["-H", "--ticks", "3"],
            format!("--ticks is for sprite modules, and standard input runs Animator commands {animator}"),
        ),
        (&["-H", "-e", "s.slap"], format!("-e is for Animator programs, and s.slap runs a SLAP scene {slap}")),
        (
            &["--strict", "-H", "m.draw"],
            format!("--strict is for SLAP scenes, and m.draw runs an Animator program {animator}"),
        ),
    ];
    for (args, message) in cases {
        let o = run_in(&d, args, "echo hi\n");
        assert_eq!(
            (o.status.code(), text(&o.stdout), text(&o.stderr)),
            (Some(1), String::new(), format!("animvm: {message}\n")),
            "{args:?}"
        );
    }
    // Options that shape what is drawn, with a trace (which draws
    // nothing); --strict on a bundle (compiled already). Nothing runs.
    for (args, option) in [
        (&["--trace", "-x", "64", "h.anim"][..], "-x"),
        (&["--trace", "-y", "64", "s.slap"], "-y"),
        (&["--trace", "-d", "f", "h.anim"], "-d"),
        (&["--trace", "--gif", "a.gif", "s.slap"], "--gif"),
        (&["--trace", "--fps", "10", "s.slap"], "--fps"),
    ] {
        let o = run_in(&d, args, "");
        assert_eq!(
            (o.status.code(), text(&o.stdout), text(&o.stderr)),
            (
                Some(1),
                String::new(),
                format!("animvm: {option} shapes what is drawn, and --trace draws nothing: leave one of them out\n")
            ),
            "{args:?}"
        );
    }
    let scene = animkit_compiler::Source::new("s.slap", SCENE);
    let program = animkit_compiler::compile(&[scene], &animkit_compiler::Options::default()).unwrap();
    std::fs::write(d.join("s.animb"), animkit_vm::engine::codec::encode(&program)).unwrap();
    let o = run_in(&d, &["--strict", "--trace", "s.animb"], "");
    assert_eq!(
        (o.status.code(), text(&o.stdout), text(&o.stderr)),
        (
            Some(1),
            String::new(),
            "error: --strict is for SLAP sources, and `s.animb` is a bundle, compiled already \
             (build it with `animc --strict` to check it in spec-only mode)\n"
                .into()
        )
    );
    // Each language's own options still work.
    assert_eq!(run_in(&d, &["--trace", "--ticks", "3", "h.anim"], "").status.code(), Some(0));
    assert_eq!(run_in(&d, &["--strict", "--trace", "s.slap"], "").status.code(), Some(0));
    assert_eq!(run_in(&d, &["--trace", "--frames", "2", "s.slap"], "").status.code(), Some(0));
    for args in [&["-H", "-e", "-k", "m.draw"][..], &["-H", "-D", "16", "-a"]] {
        let o = run_in(&d, args, "echo hi\n");
        assert_eq!(
            (o.status.code(), text(&o.stdout), text(&o.stderr)),
            (Some(0), "hi\n".into(), String::new()),
            "{args:?}"
        );
    }
}

#[test]
fn a_resize_beyond_the_canvas_limit_says_so() {
    let d = dir("resize");
    let o = run_in(&d, &["-H", "-x", "64", "-y", "64"], "resize 16384 16384\nresize 100 9000\nresize 80 60\n");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(
        text(&o.stderr),
        "animvm: resize 16384 16384: a canvas is 1 to 8192 pixels a side; it is made 8192x8192\n\
         animvm: resize 100 9000: a canvas is 1 to 8192 pixels a side; it is made 100x8192\n"
    );
}

#[test]
fn messages_about_bad_files_are_true() {
    let d = dir("files");
    std::fs::write(d.join("short.animb"), "ANIM").unwrap();
    let o = run_in(&d, &["-H", "short.animb"], "");
    assert_eq!(
        (o.status.code(), text(&o.stderr)),
        (Some(1), "error: `short.animb` is not an animkit bundle: it is 4 bytes long, shorter than the 8-byte bundle header\n".into())
    );
    std::fs::write(d.join("text.animb"), "hello, world").unwrap();
    let o = run_in(&d, &["-H", "text.animb"], "");
    assert_eq!(
        text(&o.stderr),
        "error: `text.animb` is not an animkit bundle: it does not start with the bundle header\n"
    );
    // An export whose image is a device: refused at once (not read for
    // ever), and not called a --sheet, which was never given.
    std::fs::write(
        d.join("z.json"),
        r#"{"frames": [{"frame": {"x": 0, "y": 0, "w": 8, "h": 8}, "duration": 100}], "meta": {"image": "/dev/zero"}}"#,
    )
    .unwrap();
    let o = run_in(&d, &["-H", "--ticks", "2", "z.json"], "");
    assert_eq!(
        (o.status.code(), text(&o.stderr)),
        (Some(1), "animvm: the export's image `/dev/zero` (`meta.image`): /dev/zero: not a regular file\n".into())
    );
}

#[test]
fn a_cr_only_scene_plays_its_lines() {
    let d = dir("cr");
    std::fs::write(d.join("s.slap"), "# old Mac\rtime 0\ractor 1 size 2\rtime 1\r").unwrap();
    let o = run_in(&d, &["--trace", "s.slap"], "");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(out.lines().all(|l| l.contains("\"size\":2.0")), "{out}");
    std::fs::write(d.join("b.slap"), "time 0\ractor 1 size 2\ractor 1 bogus 2\r").unwrap();
    let o = run_in(&d, &["--trace", "b.slap"], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("--> b.slap:3:9"), "{}", text(&o.stderr));
}
