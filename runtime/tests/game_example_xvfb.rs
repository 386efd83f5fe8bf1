//! `runtime/examples/game.rs` under a real X server: the test starts its own
//! `Xvfb` (no window manager: the window sits at 0,0), builds the example
//! (`cargo build --example game`, a no-op when it is up to date) and the
//! precompiled bundle it plays (`animc examples/hero.anim
//! examples/story.slap runtime/examples/hud.draw -o game.animb`, in
//! process), runs it for a fixed number of frames with `--screenshot`, and
//! checks each part of the screenshot:
//!
//! * the game's own sprites: the sheet cell's colour where the game says it
//!   drew each one, the game's clear colour around them;
//! * the SLAP cutscene the [`Player`](animkit_runtime::player::Player) drew
//!   in its viewport: every pixel not covered by the HUD or the foreground
//!   sprite equals `animvm -H` drawing the same frame at the same size
//!   (sky at the top, ground at the bottom, actors between);
//! * the Animator HUD over the cutscene: its background and its bar;
//! * the foreground sprite the game drew after both players without
//!   binding anything again (the players left the game's state alone).
//!
//! A second run is clicked with `xdotool` over the HUD: the example prints
//! the HUD program's `PRESS` line with the area under the pointer. A
//! missing or damaged bundle ends the example with status 1 and its reason
//! before any window opens (no X server needed).
//!
//! Needs `Xvfb` and `xdotool` (Debian: `apt-get install xvfb xdotool
//! libxkbcommon-x11-0`; `.ci/run` installs them); the tests fail, saying
//! so, when they are missing. About 5 s on 2 cores once the example is
//! built.

use animkit_runtime::render::RgbaImage;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const WAIT: Duration = Duration::from_secs(60);

use crate::xvfb;
use xvfb::Xvfb;

/// The example's sheet colours (`SHEET` in examples/game.rs).
const SHEET: [[u8; 3]; 8] = [
    [230, 40, 40],
    [40, 200, 60],
    [250, 200, 30],
    [200, 60, 220],
    [30, 200, 220],
    [250, 130, 20],
    [120, 90, 250],
    [250, 250, 250],
];

/// Xvfb for these tests, away from window_xvfb.rs's displays (1000 +
/// pid % 2000 * 16).
fn start_x() -> Xvfb {
    Xvfb::start(
        40_000 + (std::process::id() % 1000) * 8,
        &["Xvfb", "xdotool"],
        "the game example test needs Xvfb and xdotool",
    )
}

/// `target/<profile>/`: the test binary lives in its `deps/`.
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    exe.parent().and_then(Path::parent).expect("target/<profile>/deps").to_path_buf()
}

/// The example's path, built once per test run unless it is newer than
/// its sources (`cargo test --workspace` builds it before any test runs; a
/// nested `cargo build -p animkit-runtime` would build it again in another
/// feature set, which is not quick).
fn example() -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT.get_or_init(build_example).clone()
}

fn build_example() -> PathBuf {
    let path = profile_dir().join("examples").join("game");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("runtime/ has a parent");
    let sources = [animkit_test_support::fresh::TOOLCHAIN_SOURCES, &["runtime/examples"]].concat();
    if animkit_test_support::fresh::newer_than(&[&path], root, &sources) {
        return path;
    }
    let release = profile_dir().file_name().is_some_and(|n| n == "release");
    let mut cmd = Command::new(env!("CARGO"));
    cmd.args(["build", "-q", "-p", "animkit-runtime", "--example", "game"]);
    if release {
        cmd.arg("--release");
    }
    let status = cmd.status().expect("cargo build --example game");
    assert!(status.success(), "cargo build --example game failed");
    assert!(path.exists(), "{} was not built", path.display());
    path
}

/// The bundle the example plays, written by `animc` into `dir` from the
/// repository's sources: sprite module `hero`, SLAP scene `story`, Animator
/// program `hud`.
pub(crate) fn game_bundle(dir: &Path) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = dir.join("game.animb");
    let args: Vec<String> = ["examples/hero.anim", "examples/story.slap", "runtime/examples/hud.draw"]
        .iter()
        .map(|p| root.join(p).to_string_lossy().into_owned())
        .chain(["-o".to_string(), out.to_string_lossy().into_owned()])
        .collect();
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let status = animkit_compiler::cli::run(&args, &mut std::io::empty(), &mut stdout, &mut stderr);
    assert_eq!(status, 0, "animc: {}", String::from_utf8_lossy(&stderr));
    let bundle = animkit_vm::game::Bundle::open(&out).expect("animc's bundle opens");
    let modules: Vec<_> = (0..bundle.module_count()).filter_map(|i| bundle.module(i)).map(|(n, _)| n).collect();
    assert_eq!(modules, ["hero", "story", "hud"]);
    out
}

fn animvm() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_animvm"))
}

/// Runs the game on `x` with `args`, returning its standard output lines;
fn run_game(x: &Xvfb, args: &[&str]) -> Vec<String> {
    let mut child = Command::new(example())
        .args(args)
        .env("DISPLAY", &x.display)
        .env_remove("WAYLAND_DISPLAY")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the game example");
    let start = Instant::now();
    loop {
        if let Ok(Some(_)) = child.try_wait() {
            break;
        }
        if start.elapsed() > WAIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the game example did not finish in {WAIT:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("game output");
    assert!(out.status.success(), "game failed: {}", String::from_utf8_lossy(&out.stderr));
    BufReader::new(&out.stdout[..]).lines().map(|l| l.unwrap()).collect()
}

fn rgb(img: &RgbaImage, x: u32, y: u32) -> [u8; 3] {
    let p = img.pixel(x, y).unwrap_or_else(|| panic!("({x}, {y}) is outside the screenshot"));
    [p[0], p[1], p[2]]
}

fn numbers(line: &str) -> Vec<u32> {
    line.split(|c: char| !c.is_ascii_digit()).filter(|s| !s.is_empty()).map(|s| s.parse().unwrap()).collect()
}

#[test]
fn game_draws_sprites_a_cutscene_and_a_hud() {
    // The window has a depth buffer: the Player draws the cutscene straight
    // into it.
    game_draws(true);
}

#[test]
fn game_without_depth_gets_the_cutscene_copied() {
    game_draws(false);
}

/// Pixels of the cutscene in the game's window that differ from
/// `animvm -H`'s frame are allowed only when `direct` (the 3D pass drawn
/// into the window's own framebuffer, with its own depth buffer, rather
/// than into the renderer's framebuffer object), at most one in a
/// thousand, and each only within 2 (of 255) per channel of a pixel of
/// the 3x3 neighbourhood in animvm's frame: measured, 3 of the 96 000
/// pixels, each within 1 of animvm's colour. The copied picture is the
/// offscreen one, pixel for pixel.
fn game_draws(direct: bool) {
    let x = start_x();
    let dir = tempfile::tempdir().unwrap();
    let shot = dir.path().join("shot.png");
    let trace = dir.path().join("sprite.trace");
    let bundle = game_bundle(dir.path());
    let mut args = vec![
        bundle.to_str().unwrap(),
        "--frames",
        "40",
        "--screenshot",
        shot.to_str().unwrap(),
        "--sprite-trace",
        trace.to_str().unwrap(),
    ];
    if !direct {
        args.push("--copy");
    }
    let lines = run_game(&x, &args);
    let draws = if direct { "cutscene direct draws 40" } else { "cutscene direct draws 0" };
    assert!(lines.iter().any(|l| l == draws), "{draws}: {lines:?}");
    let img = RgbaImage::load_png(&shot).expect("the screenshot");
    assert_eq!((img.width, img.height), (640, 360));

    // The game's clear colour, away from everything.
    let background = [31, 31, 36];
    assert_eq!(rgb(&img, 5, 5), background);
    assert_eq!(rgb(&img, 630, 350), background);

    // The sprites: `sprite I at X Y size S cell C`.
    let sprites: Vec<Vec<u32>> = lines.iter().filter(|l| l.starts_with("sprite ")).map(|l| numbers(l)).collect();
    assert_eq!(sprites.len(), 5, "{lines:?}");

    // The game's sprites play the bundle as `animvm --trace` does: the
    // foreground one (`Run` from its start) frame for frame and event for
    // event over the 40 ticks, byte for byte; the four phased ones (sprite
    // `i` spawned `i * 5` ticks into `Walk` or `Run`) at the frame the trace
    // shows `i * 5` ticks later.
    let animvm_trace = |state: &str, ticks: u32| {
        let hero = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/hero.anim");
        let out = Command::new(animvm())
            .args(["--trace", "--state", state, "--ticks", &ticks.to_string(), hero])
            .output()
            .expect("animvm --trace");
        assert!(out.status.success(), "animvm: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).expect("UTF-8")
    };
    assert_eq!(std::fs::read_to_string(&trace).expect("the sprite trace"), animvm_trace("Run", 40));
    for s in &sprites[..4] {
        let i = s[0];
        let state = if i % 2 == 0 { "Walk" } else { "Run" };
        let full = animvm_trace(state, 40 + i * 5);
        let last = full.lines().last().expect("a trace line");
        let frame = last.split("\"frame\":").nth(1).and_then(|r| r.split(',').next()).expect("a frame");
        let frame: u32 = frame.parse().expect("a number");
        assert_eq!(s[4], frame % SHEET.len() as u32, "sprite {i}'s cell: animvm's {last}");
    }
    for s in &sprites {
        let [_, sx, sy, size, cell] = s[..] else { panic!("{s:?}") };
        let colour = SHEET[cell as usize];
        for (px, py) in [(sx, sy), (sx + size - 1, sy), (sx + size / 2, sy + size / 2), (sx, sy + size - 1)] {
            assert_eq!(rgb(&img, px, py), colour, "sprite {s:?} at ({px}, {py})");
        }
        if s[0] < 4 {
            assert_eq!(rgb(&img, sx - 1, sy + size / 2), background, "left of sprite {s:?}");
            assert_eq!(rgb(&img, sx + size, sy + size / 2), background, "right of sprite {s:?}");
        }
    }
    // Walk and Run cells differ over time: not every sprite shows one cell.
    assert!(sprites.iter().any(|s| s[4] != sprites[0][4]), "{sprites:?}");

    // The cutscene: `cutscene frame F at [X, Y, W, H]`.
    let cut = lines.iter().find(|l| l.starts_with("cutscene frame ")).expect("cutscene line");
    let [frame, cx, cy, cw, ch] = numbers(cut)[..] else { panic!("{cut}") };
    assert_eq!(frame, 24, "40 frames of 1/50 s are 24 SLAP frames at 30 a second");
    let hud = lines.iter().find(|l| l.starts_with("hud frames ")).expect("hud line");
    let [hud_frames, hx, hy, hw, hh] = numbers(hud)[..] else { panic!("{hud}") };
    assert_eq!(hud_frames, 1);

    let frames = dir.path().join("f");
    let story = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/story.slap");
    let out = Command::new(animvm())
        .args(["-H", "-x", &cw.to_string(), "-y", &ch.to_string(), "--start", &frame.to_string()])
        .args(["--frames", "1", "-d", frames.to_str().unwrap(), story])
        .output()
        .expect("animvm");
    assert!(out.status.success(), "animvm: {}", String::from_utf8_lossy(&out.stderr));
    let png = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().starts_with('f'))
        .expect("animvm's frame");
    let expected = RgbaImage::load_png(&png).unwrap();
    let fg = &sprites[4];
    let covered = |px: u32, py: u32| {
        let in_hud = (hx..hx + hw).contains(&px) && (hy..hy + hh).contains(&py);
        let in_fg = (fg[1]..fg[1] + fg[3]).contains(&px) && (fg[2]..fg[2] + fg[3]).contains(&py);
        in_hud || in_fg
    };
    let (mut compared, mut edges) = (0, 0);
    for py in cy..cy + ch {
        for px in cx..cx + cw {
            if covered(px, py) {
                continue;
            }
            let (got, (ex, ey)) = (rgb(&img, px, py), (px - cx, py - cy));
            compared += 1;
            if got == rgb(&expected, ex, ey) {
                continue;
            }
            assert!(direct, "cutscene pixel ({px}, {py}): {got:?}, animvm {:?}", rgb(&expected, ex, ey));
            let near = (ex.saturating_sub(1)..=(ex + 1).min(cw - 1))
                .flat_map(|nx| (ey.saturating_sub(1)..=(ey + 1).min(ch - 1)).map(move |ny| (nx, ny)))
                .any(|(nx, ny)| rgb(&expected, nx, ny).iter().zip(got).all(|(a, b)| a.abs_diff(b) <= 2));
            assert!(near, "cutscene pixel ({px}, {py}): {got:?} is within 2 of no neighbour of animvm's ({ex}, {ey})");
            edges += 1;
        }
    }
    assert!(compared > cw * ch * 8 / 10, "{compared}");
    assert!(edges * 1000 < compared, "{edges} of {compared} pixels differ");
    // Sky above, ground below, something else (the actors) between.
    let sky = rgb(&img, cx + cw / 2, cy + ch / 10);
    assert!(sky[2] > sky[0] && sky[2] > sky[1], "sky {sky:?}");
    let ground = rgb(&img, cx + cw - 10, cy + ch - 5);
    assert_ne!(ground, sky);
    assert_eq!(rgb(&img, cx - 1, cy + ch / 2), background, "left of the cutscene");
    assert_eq!(rgb(&img, cx + cw, cy + ch / 2), background, "right of the cutscene");
    let mut colours = std::collections::HashSet::new();
    for py in cy..cy + ch {
        for px in cx..cx + cw {
            colours.insert(rgb(&img, px, py));
        }
    }
    assert!(colours.len() > 50, "the actors and the shaded ground: {} colours", colours.len());

    // The HUD over the cutscene: its background (#203060) and bar (#ffd000).
    assert_eq!(rgb(&img, hx + 1, hy + 1), [0x20, 0x30, 0x60]);
    assert_eq!(rgb(&img, hx + hw - 2, hy + hh - 2), [0x20, 0x30, 0x60]);
    assert_eq!(rgb(&img, hx + hw / 4, hy + hh / 2), [0xff, 0xd0, 0x00]);
    // Its right part covers the cutscene's sky.
    assert_eq!(rgb(&img, hx + hw - 2, cy + 1), [0x20, 0x30, 0x60]);
}

#[test]
fn a_click_over_the_hud_reaches_its_area() {
    let x = start_x();
    // The example built first: the clicker below waits for the window,
    // and a build that outlasted its wait (the first build of a
    // `cargo test --workspace` run, in another feature set) once made it
    // click before the game had started.
    example();
    // Once the window is up, move the pointer into the HUD and click; the
    // game runs paced frames at 50 a second meanwhile, until the release.
    let display = x.display.clone();
    let clicker = std::thread::spawn(move || {
        let xdotool = |args: &[&str]| {
            Command::new("xdotool").args(args).env("DISPLAY", &display).output().map(|o| o.stdout).unwrap_or_default()
        };
        // `--onlyvisible`: the window mapped, not only created (a click
        // sent before it is mapped goes to the root window and is lost,
        // as it was once on a loaded machine: the game saw a motion but
        // no press).
        let visible = || !xdotool(&["search", "--onlyvisible", "--name", "animkit game"]).is_empty();
        let start = Instant::now();
        while !visible() && start.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(50));
        }
        std::thread::sleep(Duration::from_millis(300));
        xdotool(&["mousemove", "200", "40"]);
        std::thread::sleep(Duration::from_millis(200));
        xdotool(&["click", "1"]);
        // The game ends at the release; should the click still have been
        // lost (the window mapped but not yet taking input), click once
        // more after 10 s. One press and one release are asserted either
        // way.
        let clicked = Instant::now();
        while visible() && clicked.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(100));
        }
        if visible() {
            xdotool(&["mousemove", "200", "40"]);
            std::thread::sleep(Duration::from_millis(200));
            xdotool(&["click", "1"]);
        }
    });
    // At most 30 s of paced frames, ended by the click's RELEASE: a loaded
    // machine may take seconds to map the window.
    let dir = tempfile::tempdir().unwrap();
    let bundle = game_bundle(dir.path());
    let lines = run_game(&x, &[bundle.to_str().unwrap(), "--frames", "1500", "--paced", "--until-release"]);
    clicker.join().unwrap();
    let press: Vec<&String> = lines.iter().filter(|l| l.starts_with("hud: PRESS 1 ")).collect();
    assert_eq!(press.len(), 1, "{lines:?}");
    assert!(press[0].ends_with(" hud"), "{press:?}");
    let release = lines.iter().filter(|l| l.starts_with("hud: RELEASE 1 ") && l.ends_with(" hud")).count();
    assert_eq!(release, 1, "{lines:?}");
}

/// Runs the example with `args` and no display: its exit status and
/// standard error.
fn run_without_display(args: &[&str], cwd: &Path) -> (Option<i32>, String) {
    let out = Command::new(example())
        .args(args)
        .current_dir(cwd)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .stdin(Stdio::null())
        .output()
        .expect("run the game example");
    assert!(out.stdout.is_empty(), "{}", String::from_utf8_lossy(&out.stdout));
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn a_missing_or_damaged_bundle_is_refused_before_any_window() {
    let dir = tempfile::tempdir().unwrap();
    // No argument: ./game.animb, which is not there; the message says how
    // to build it.
    let (code, err) = run_without_display(&[], dir.path());
    assert_eq!(code, Some(1), "{err}");
    assert!(err.starts_with("game: cannot read game.animb: "), "{err}");
    assert!(
        err.ends_with(
            " (build it with `cargo run -q --bin animc -- examples/hero.anim examples/story.slap \
             runtime/examples/hud.draw -o game.animb`)\n"
        ),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    // A file that is not a bundle.
    std::fs::write(dir.path().join("shot.png"), b"\x89PNG\r\n\x1a\n").unwrap();
    let (code, err) = run_without_display(&["shot.png"], dir.path());
    assert_eq!(code, Some(1), "{err}");
    let expected = animkit_vm::game::OpenError::NotABundle.to_string();
    assert_eq!(err, format!("game: {expected}\n"));
    // Two bundles.
    let (code, err) = run_without_display(&["a.animb", "b.animb"], dir.path());
    assert_eq!((code, err.as_str()), (Some(2), "game: one bundle only: `a.animb` and `b.animb`\n"));
    // An unknown option names the usage.
    let (code, err) = run_without_display(&["--fram", "4"], dir.path());
    assert_eq!(code, Some(2), "{err}");
    assert!(err.starts_with("game: unknown option `--fram` (usage: game [BUNDLE.animb] [OPTIONS]; options: "), "{err}");
}
