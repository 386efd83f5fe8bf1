//! The LÖVE example (`lua/love/main.lua`) run for real: `xvfb-run -a love
//! capi/lua/love` with `ANIMKIT_LOVE_CHECK=DIR` plays its crowd of 24 heroes
//! (Walk, spawned at phases 0, 3, 6 ...) one tick a frame, presses key 7
//! (Attack, restarted at phases 0, 2, 4 ...) after 60 ticks, and after 120
//! writes what `love.draw` drew (`frames.trace`: each hero's state, category,
//! frame and events a tick in `animvm --trace`'s line format) and a
//! screenshot (`screen.png`). The lines equal `animvm --trace`'s for the
//! same animation ticks, byte for byte but the tick number (the game's
//! tick); in the screenshot each hero's cell shows the colour of the
//! placeholder sheet's column of the frame it drew, and the gaps between
//! them the background. Skipped, with a note, where `love` (Debian's
//! `love`, LÖVE 11.4) or `xvfb-run` is missing (.ci/run installs them).

use crate::common;
use crate::csharp::{WALK_START, available};

use common::{bundle, capi_dir, cdylib_dir, first_difference, run, run_ok, tool};
use std::path::Path;
use std::process::Command;

/// main.lua's CHECK_TICKS, CHECK_KEY_AT and COUNT.
const TICKS: usize = 120;
const KEY_AT: usize = 60;
const HEROES: usize = 24;
/// The phases main.lua gives hero `i`: at spawn (Walk) and at key 7
/// (Attack).
const fn walk_phase(i: usize) -> usize {
    3 * i
}
const fn attack_phase(i: usize) -> usize {
    2 * i
}

/// `animvm --trace --state STATE --ticks TICKS BUNDLE`, its lines (each
/// with its `\n`).
fn animvm_lines(hero: &Path, state: &str, ticks: usize) -> Vec<String> {
    let out = run_ok(
        Command::new(tool("animvm")).args(["--trace", "--state", state, "--ticks", &ticks.to_string()]).arg(hero),
    );
    let text = String::from_utf8(out).expect("animvm writes UTF-8");
    let lines: Vec<String> = text.split_inclusive('\n').map(String::from).collect();
    assert_eq!(lines.len(), ticks, "animvm --trace --state {state}: one line a tick");
    lines
}

/// `line` (animvm's, for tick `from`) as the line of game tick `to`.
fn renumbered(line: &str, from: usize, to: usize) -> String {
    let rest = line
        .strip_prefix(&format!("{{\"tick\":{from},"))
        .unwrap_or_else(|| panic!("animvm's line for tick {from} starts otherwise: {line}"));
    format!("{{\"tick\":{to},{rest}")
}

/// What main.lua must draw: hero `i`'s 120 lines, then hero `i + 1`'s. Hero
/// `i` shows Walk's tick `walk_phase(i) + t` at game tick `t < 60`, then
/// Attack's tick `attack_phase(i) + t - 60`.
fn expected_trace(hero: &Path) -> Vec<String> {
    let walk = animvm_lines(hero, "Walk", walk_phase(HEROES - 1) + KEY_AT);
    let attack = animvm_lines(hero, "Attack", attack_phase(HEROES - 1) + TICKS - KEY_AT);
    let mut lines = Vec::new();
    for i in 0..HEROES {
        for t in 0..TICKS {
            lines.push(if t < KEY_AT {
                renumbered(&walk[walk_phase(i) + t], walk_phase(i) + t, t)
            } else {
                renumbered(&attack[attack_phase(i) + t - KEY_AT], attack_phase(i) + t - KEY_AT, t)
            });
        }
    }
    lines
}

/// The frame of a trace line (`"frame":N`).
fn frame_of(line: &str) -> u32 {
    let v: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: {e}"));
    v["frame"].as_u64().and_then(|f| u32::try_from(f).ok()).unwrap_or_else(|| panic!("no frame in {line}"))
}

/// A screenshot, as RGBA8.
struct Shot {
    width: usize,
    height: usize,
    rgba: Vec<u8>,
}

impl Shot {
    fn read(path: &Path) -> Shot {
        let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut reader = png::Decoder::new(std::io::BufReader::new(file)).read_info().expect("a PNG");
        let mut rgba = vec![0; reader.output_buffer_size().expect("a size")];
        let info = reader.next_frame(&mut rgba).expect("the PNG's pixels");
        assert_eq!(info.bit_depth, png::BitDepth::Eight);
        rgba.truncate(info.buffer_size());
        // LÖVE 11.4 writes the screenshot as RGB (opaque).
        if info.color_type == png::ColorType::Rgb {
            rgba = rgba.chunks_exact(3).flat_map(|p| [p[0], p[1], p[2], 255]).collect();
        }
        assert_eq!(rgba.len(), info.width as usize * info.height as usize * 4, "{:?}", info.color_type);
        Shot { width: info.width as usize, height: info.height as usize, rgba }
    }

    fn pixel(&self, x: usize, y: usize) -> [u8; 4] {
        let at = (y * self.width + x) * 4;
        [self.rgba[at], self.rgba[at + 1], self.rgba[at + 2], self.rgba[at + 3]]
    }
}

/// The colour main.lua's placeholder sheet fills cell `column` with:
/// `setColor(0.3 + 0.04 * c, 0.5, 0.9 - 0.04 * c)` in 8 bits, which LÖVE
/// 11.4 on llvmpipe truncates (0.5 is 127, 0.78 is 198: measured).
fn cell_colour(column: u32) -> [u8; 4] {
    let c = f64::from(column);
    let byte = |v: f64| (v * 255.0) as u8;
    [byte(0.3 + 0.04 * c), byte(0.5), byte(0.9 - 0.04 * c), 255]
}

#[test]
fn the_love_example_draws_the_frames_animvm_traces() {
    if !available("love", "--version", "love") || !available("xvfb-run", "--help", "xvfb") {
        return;
    }
    let dir = tempfile::tempdir().expect("a temp dir");
    let hero = bundle(dir.path(), "hero.anim");
    let check = dir.path().join("check");
    std::fs::create_dir(&check).expect("the check dir");
    // xvfb-run's own server (a free display, 800x600 like LÖVE's default
    // window); `timeout` ends a LÖVE that never quits, and xvfb-run then
    // its server.
    let out = run(Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 800x600x24 -nolisten tcp", "timeout", "-k", "5", "120", "love"])
        .arg(capi_dir().join("lua").join("love"))
        .env("ANIMKIT_LIB", cdylib_dir().join("libanimkit.so"))
        .env("ANIMKIT_BUNDLE", &hero)
        .env("ANIMKIT_LOVE_CHECK", &check)
        .env("XDG_DATA_HOME", dir.path()) // LÖVE's save folder
        .env("ALSOFT_DRIVERS", "null") // no sound card here
        .env_remove("WAYLAND_DISPLAY"));
    assert!(
        out.status.success(),
        "love failed ({}):\n{}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );

    let ours = std::fs::read(check.join("frames.trace")).expect("main.lua wrote frames.trace");
    let expected = expected_trace(&hero);
    assert_eq!(expected[..13].concat(), WALK_START, "hero 0 starts as animvm's Walk");
    let theirs = expected.concat();
    assert!(ours == theirs.as_bytes(), "{}", first_difference(&ours, theirs.as_bytes()));

    // The screenshot: hero i at (20 + (i % 8) * 64, 20 + (i / 8) * 72), its
    // cell (48x48, a rounded rectangle from 4 to 44 with the sheet's
    // category and column printed at the top left) in the colour of the
    // column of its last frame.
    let shot = Shot::read(&check.join("screen.png"));
    assert_eq!((shot.width, shot.height), (800, 600));
    let background = [0, 0, 0, 255];
    let mut columns = Vec::new();
    for i in 0..HEROES {
        let column = frame_of(&expected[i * TICKS + TICKS - 1]) % 16;
        columns.push(column);
        let (x, y) = (20 + (i % 8) * 64, 20 + (i / 8) * 72);
        for (dx, dy) in [(40, 30), (24, 40), (8, 40), (40, 8)] {
            assert_eq!(shot.pixel(x + dx, y + dy), cell_colour(column), "hero {i}'s cell at +{dx},+{dy}");
        }
        for (dx, dy) in [(1, 1), (46, 46), (56, 24), (24, 60)] {
            assert_eq!(shot.pixel(x + dx, y + dy), background, "outside hero {i}'s cell at +{dx},+{dy}");
        }
    }
    columns.sort_unstable();
    columns.dedup();
    assert!(columns.len() >= 2, "the heroes drew different frames: {columns:?}");
}
