//! The web player in a real browser, against `animvm` (see `docs/web.md`).
//!
//! Gated by `ANIMKIT_WEB_TESTS=1` (each test prints a note and passes
//! without it, so `cargo test --workspace` passes on machines without
//! Chromium or the wasm toolchain; `.ci/run` sets it when the toolchain
//! installed). With it, the tests build the page (`web/build.sh`), serve
//! `web/www` on 127.0.0.1 from a small server thread of their own, and run
//! `chromium-headless-shell --dump-dom` on `index.html?checks=...`: the
//! page runs the listed steps and writes their results into the DOM (base64
//! of a JSON text), which the test decodes and compares with what `animvm`
//! prints and draws for the same bundles:
//!
//! * traces: byte for byte with `animvm --trace`;
//! * frames: pixel for pixel with `animvm -H -d` at the same size
//!   (identical for sprites; Animator and SLAP within
//!   `common::frames::TOLERANCE`);
//! * hostile bundles: `animvm`'s error message, and the player draws the
//!   previous bundle's frame again afterwards;
//! * a click on an Animator area: `animvm`'s event lines.

use animkit_runtime::render::RgbaImage;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

const W: u32 = 160;
const H: u32 = 120;

mod common;

use common::frames::{DELTA, TOLERANCE, animvm_frames, diff, unmatched};
use common::{Server, base64_decode, decode_results, dump_dom, enabled, root, target_dir};

/// The players (full and sprite-only), `animvm` and `animc`, built once;
/// the server of web/www and its in-memory files (check lists).
fn page() -> &'static Server {
    static PAGE: OnceLock<Server> = OnceLock::new();
    PAGE.get_or_init(|| {
        common::build(&[]);
        common::build(&["--sprite-only"]);
        let status = Command::new(env!("CARGO"))
            .args(["build", "-q", "--bin", "animvm", "--bin", "animc"])
            .current_dir(root())
            .status()
            .unwrap();
        assert!(status.success(), "building animvm failed");
        Server::start()
    })
}

/// Runs `checks` (a list of `{id, steps}`) in headless Chromium on a
/// `w` x `h` canvas; the page's results.
fn run_page(name: &str, checks: &Value, w: u32, h: u32) -> Value {
    run_page_timed(name, checks, w, h, false)
}

/// [`run_page`]; `real_time`: without the virtual clock (whose
/// `performance.now()` stands still while a script runs), the page held
/// loading until its checks are done (for timings).
fn run_page_timed(name: &str, checks: &Value, w: u32, h: u32, real_time: bool) -> Value {
    let page = page();
    let file = format!("/checks-{name}.json");
    page.extra.lock().unwrap().insert(file.clone(), checks.to_string().into_bytes());
    let hold = if real_time { "&hold=1" } else { "" };
    let url = format!("http://127.0.0.1:{}/index.html?checks={}&w={w}&h={h}{hold}", page.port, &file[1..]);
    let clock = if real_time { "--disable-gpu-vsync" } else { "--virtual-time-budget=120000" };
    decode_results(&dump_dom(&url, clock))
}

fn animvm(args: &[&str], dir: &Path) -> std::process::Output {
    Command::new(target_dir().join("debug/animvm")).args(args).current_dir(dir).output().unwrap()
}

fn example(name: &str) -> PathBuf {
    root().join("web/www/examples").join(name)
}

fn steps<'a>(results: &'a Value, id: &str) -> &'a Vec<Value> {
    let r = results["results"].as_array().unwrap().iter().find(|r| r["id"] == id).unwrap();
    r["steps"].as_array().unwrap()
}

#[test]
fn traces_match_animvm_byte_for_byte() {
    if !enabled("traces_match_animvm_byte_for_byte") {
        return;
    }
    let cases = [
        ("hero.animb", "--ticks 60"),
        ("hero.animb", "--ticks 40 --state Attack"),
        ("hero.animb", "--ticks 30 --state Jump"),
        ("circle.animb", ""),
        ("story.animb", "--frames 40"),
        ("two_actors.animb", "--start 10 --frames 20"),
    ];
    let checks: Vec<Value> = cases
        .iter()
        .enumerate()
        .map(|(i, (file, args))| {
            json!({"id": i.to_string(), "steps": [{"load": format!("examples/{file}")}, {"trace": args}]})
        })
        .collect();
    let mut checks = checks;
    let sprite_only = [(60, None), (40, Some("Attack"))];
    for (i, (ticks, state)) in sprite_only.iter().enumerate() {
        checks.push(json!({"id": format!("sprite-only-{i}"), "steps": [
            {"spriteOnly": "examples/hero.animb", "ticks": ticks, "state": state}
        ]}));
    }
    let results = run_page("traces", &json!(checks), W, H);
    // The sprite-only player's trace is the full player's, animvm's.
    for (i, (ticks, state)) in sprite_only.iter().enumerate() {
        let s = steps(&results, &format!("sprite-only-{i}"));
        let mut argv = vec!["--trace".to_string(), "--ticks".into(), ticks.to_string()];
        if let Some(st) = state {
            argv.extend(["--state".to_string(), st.to_string()]);
        }
        argv.push(example("hero.animb").to_str().unwrap().to_string());
        let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
        let native = animvm(&argv, &root());
        assert_eq!(s[0]["text"].as_str(), Some(String::from_utf8(native.stdout).unwrap().as_str()), "sprite-only {i}");
    }
    for (i, (file, args)) in cases.iter().enumerate() {
        let s = steps(&results, &i.to_string());
        assert_eq!(s[0]["error"], Value::Null, "{file}: {s:?}");
        let mut argv = vec!["--trace"];
        argv.extend(args.split_whitespace());
        let path = example(file);
        argv.push(path.to_str().unwrap());
        let native = animvm(&argv, &root());
        assert!(native.status.success(), "{:?}", native);
        let expected = String::from_utf8(native.stdout).unwrap();
        assert!(!expected.is_empty());
        assert_eq!(s[1]["text"].as_str(), Some(expected.as_str()), "{file} {args}: the web trace differs");
    }
}

/// The frames of `cases` (file, frames) in the page and in `animvm -H`.
fn frames_of(cases: &[(&str, &[u64])]) -> Vec<(String, u64, RgbaImage, Vec<u8>)> {
    let checks: Vec<Value> = cases
        .iter()
        .map(|(file, frames)| {
            let mut s = vec![json!({"load": format!("examples/{file}")})];
            for f in frames.iter() {
                s.push(json!({"frame": f}));
                s.push(json!({"pixels": true}));
            }
            json!({"id": file, "steps": s})
        })
        .collect();
    let results = run_page("frames", &json!(checks), W, H);
    let dir = tempfile::tempdir().unwrap();
    let mut out = Vec::new();
    for (file, frames) in cases {
        let s = steps(&results, file);
        assert_eq!(s[0]["error"], Value::Null, "{file}: {s:?}");
        let language = if file.contains("hero") {
            "sprite"
        } else if ["circle", "story", "two_actors"].iter().any(|n| file.starts_with(n)) {
            "slap"
        } else {
            "animator"
        };
        let natives =
            animvm_frames(&target_dir().join("debug/animvm"), &example(file), language, frames, (W, H), dir.path());
        for ((k, f), native) in frames.iter().enumerate().zip(natives) {
            let frame = &s[1 + 2 * k];
            assert_eq!(frame["error"], Value::Null, "{file} frame {f}: {frame}");
            let px = &s[2 + 2 * k];
            assert_eq!((px["width"].as_u64(), px["height"].as_u64()), (Some(W.into()), Some(H.into())));
            let web = base64_decode(px["pixels"].as_str().unwrap());
            common::frames::dump(&format!("{}-{f}", file.trim_end_matches(".animb")), &native, &web);
            out.push((file.to_string(), *f, native, web));
        }
    }
    out
}

#[test]
fn sprite_frames_are_identical_to_animvm() {
    if !enabled("sprite_frames_are_identical_to_animvm") {
        return;
    }
    let frames = frames_of(&[("hero.animb", &[0, 7, 30, 59])]);
    for (file, f, native, web) in &frames {
        // The sprite's cell and overlay are the same pixels; only the
        // blended edges of glyphs may round 1 apart (116 pixels of the
        // "Idle #0" text at 160x120, measured).
        let (n, max) = diff(native, web);
        assert!(max <= 1 && n * 100 <= (W * H) as usize, "{file} frame {f}: {n} pixels differ, by at most {max}");
        assert_eq!(unmatched(&native.data, web, W, H), 0, "{file} frame {f}");
    }
    // The comparison can fail: frame 0 (Idle) against frame 59.
    assert!(diff(&frames[0].2, &frames[3].3).1 > 1);
}

#[test]
fn animator_and_slap_frames_match_animvm_within_the_tolerance() {
    if !enabled("animator_and_slap_frames_match_animvm_within_the_tolerance") {
        return;
    }
    let cases: [(&str, &[u64]); 5] = [
        ("spinner.animb", &[0, 5, 35]),
        ("buttons.animb", &[0]),
        ("circle.animb", &[0, 15, 60]),
        ("story.animb", &[0, 30, 90]),
        ("two_actors.animb", &[0, 20]),
    ];
    let frames = frames_of(&cases);
    let mut report = String::new();
    for (file, f, native, web) in &frames {
        let (n, max) = diff(native, web);
        let bad = unmatched(&native.data, web, W, H);
        report.push_str(&format!(
            "{file} frame {f}: {n} pixels differ, by at most {max}; {bad} match nothing within {DELTA} in their 3x3 neighbourhood\n"
        ));
        assert!(bad as f64 <= TOLERANCE * f64::from(W * H), "{file} frame {f}\n{report}");
    }
    eprintln!("{report}");
    // The comparison can fail: spinner frames 0 and 5, story frames 0 and 90.
    for (a, b) in [(0, 1), (9, 11)] {
        let bad = unmatched(&frames[a].2.data, &frames[b].3, W, H);
        assert!(bad as f64 > TOLERANCE * f64::from(W * H), "{} {} vs {}: {bad}", frames[a].0, frames[a].1, frames[b].1);
    }
}

#[test]
fn sprite_frames_from_a_sheet_are_identical_to_animvm() {
    if !enabled("sprite_frames_from_a_sheet_are_identical_to_animvm") {
        return;
    }
    // A 4x2 sheet of 16x16 cells, each its own colour and diagonal.
    let mut sheet = RgbaImage::new(64, 32, [0, 0, 0, 255]);
    for y in 0..32u32 {
        for x in 0..64u32 {
            let cell = (y / 16) * 4 + x / 16;
            let on = (x % 16) == (y % 16);
            let c = if on {
                [255, 255, 255, 255]
            } else {
                [(cell * 30) as u8, (255 - cell * 25) as u8, (cell * 60 % 256) as u8, 255]
            };
            sheet.set_pixel(x, y, c);
        }
    }
    let png = sheet.encode_png().unwrap();
    page().extra.lock().unwrap().insert("/walk.png".into(), png.clone());
    let frames = [0u64, 5, 6, 13, 23];
    let mut s = vec![
        json!({"load": "examples/hero.animb"}),
        json!({"sheet": ["Walk", "walk.png", 4, 2]}),
        json!({"setState": "Walk"}),
    ];
    for f in frames {
        s.push(json!({"frame": f}));
        s.push(json!({"pixels": true}));
    }
    let results = run_page("sheet", &json!([{"id": "sheet", "steps": s}]), W, H);
    let s = steps(&results, "sheet");
    assert_eq!((&s[1]["error"], &s[2]["error"]), (&Value::Null, &Value::Null), "{s:?}");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("walk.png"), &png).unwrap();
    let path = example("hero.animb");
    let (w, h) = (W.to_string(), H.to_string());
    let native = animvm(
        &[
            "-H",
            "-x",
            &w,
            "-y",
            &h,
            "--ticks",
            "24",
            "--state",
            "Walk",
            "--sheet",
            "Walk=walk.png:4x2",
            "-d",
            "f",
            path.to_str().unwrap(),
        ],
        dir.path(),
    );
    assert!(native.status.success(), "{native:?}");
    for (k, f) in frames.iter().enumerate() {
        let web = base64_decode(s[4 + 2 * k]["pixels"].as_str().unwrap());
        let native = RgbaImage::decode_png(&std::fs::read(dir.path().join(format!("f{f:04}.png"))).unwrap()).unwrap();
        // Only the overlay's glyph edges may round 1 apart (234 pixels at
        // frame 0, measured: the state line and "events: step").
        let (n, max) = diff(&native, &web);
        assert!(max <= 1, "frame {f}: {n} pixels differ, by at most {max}");
        // The cell itself (the middle of the picture, below the overlay
        // text) is exactly animvm's.
        for y in 30..90 {
            for x in 40..120 {
                let i = ((y * W + x) * 4) as usize;
                assert_eq!(native.data[i..i + 4], web[i..i + 4], "frame {f}: pixel ({x}, {y})");
            }
        }
    }
}

/// The bytes of a real bundle, spoiled three ways.
fn hostile(bundle: &[u8]) -> [(&'static str, Vec<u8>); 3] {
    let mut corrupted = bundle.to_vec();
    let mid = corrupted.len() / 2;
    corrupted[mid] ^= 0x5a;
    let truncated = bundle[..bundle.len() / 2].to_vec();
    let mut huge = bundle.to_vec();
    huge[12..16].copy_from_slice(&0xffff_fff0u32.to_le_bytes());
    [("corrupted.animb", corrupted), ("truncated.animb", truncated), ("huge.animb", huge)]
}

fn base64(bytes: &[u8]) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::new();
    for c in bytes.chunks(3) {
        let n =
            (u32::from(c[0]) << 16) | (u32::from(*c.get(1).unwrap_or(&0)) << 8) | u32::from(*c.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= c.len() {
                s.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

#[test]
fn hostile_bundles_give_animvm_s_message_and_the_player_goes_on() {
    if !enabled("hostile_bundles_give_animvm_s_message_and_the_player_goes_on") {
        return;
    }
    let _ = page();
    let good = std::fs::read(example("spinner.animb")).unwrap();
    let cases = hostile(&good);
    let mut s = vec![json!({"load": "examples/spinner.animb"}), json!({"frame": 3}), json!({"pixels": true})];
    for (name, bytes) in &cases {
        s.push(json!({"loadBase64": base64(bytes), "name": name}));
        s.push(json!({"frame": 3}));
        s.push(json!({"pixels": true}));
    }
    s.push(json!({"load": "examples/hero.animb"}));
    s.push(json!({"trace": "--ticks 3"}));
    // Sources dropped on the page: compiled there, their errors animvm's.
    let bad_source = "actor 1 size 2\ntime 1\nactor 1 colour 1 0 0\n";
    let good_source = std::fs::read_to_string(root().join("examples/hero.anim")).unwrap();
    let sources = [
        json!({"loadBase64": base64(bad_source.as_bytes()), "name": "bad.slap"}),
        json!({"loadBase64": base64(good_source.as_bytes()), "name": "hero.anim"}),
        json!({"trace": "--ticks 50 --state Run"}),
        // Another language's option: refused by animvm's table, in its words.
        json!({"trace": "--ticks 5 --frames 3"}),
    ];
    let results = run_page("hostile", &json!([{"id": "h", "steps": s}, {"id": "src", "steps": sources}]), W, H);
    let src = steps(&results, "src");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.slap"), bad_source).unwrap();
    std::fs::write(dir.path().join("hero.anim"), &good_source).unwrap();
    let native = animvm(&["--trace", "bad.slap"], dir.path());
    let message = String::from_utf8(native.stderr).unwrap();
    assert!(message.contains("bad.slap:3:"), "{message}");
    assert_eq!(src[0]["error"].as_str(), Some(message.as_str()));
    assert_eq!(src[1]["error"], Value::Null);
    let native = animvm(&["--trace", "--ticks", "50", "--state", "Run", "hero.anim"], dir.path());
    assert_eq!(src[2]["text"].as_str(), Some(String::from_utf8(native.stdout).unwrap().as_str()));
    let native = animvm(&["--trace", "--ticks", "5", "--frames", "3", "hero.anim"], dir.path());
    let message = String::from_utf8(native.stderr).unwrap();
    assert_eq!(
        message,
        "animvm: --frames is for SLAP scenes, and hero.anim runs a sprite module (its options: --state, --ticks, --sheet)\n"
    );
    let words = message.trim_start_matches("animvm: ").trim_end();
    assert_eq!(src[3]["error"].as_str(), Some(format!("trace: {words}").as_str()));
    let s = steps(&results, "h");
    let before = s[2]["pixels"].as_str().unwrap();
    for (k, (name, bytes)) in cases.iter().enumerate() {
        std::fs::write(dir.path().join(name), bytes).unwrap();
        let native = animvm(&["--trace", name], dir.path());
        assert_eq!(native.status.code(), Some(1), "{name}");
        let message = String::from_utf8(native.stderr).unwrap();
        assert!(message.starts_with(&format!("error: `{name}`: ")), "{name}: {message}");
        assert_eq!(s[3 + 3 * k]["error"].as_str(), Some(message.as_str()), "{name}");
        assert_eq!(s[4 + 3 * k]["error"], Value::Null, "{name}: renderFrame after the bad load");
        assert_eq!(s[5 + 3 * k]["pixels"].as_str(), Some(before), "{name}: the player shows the good bundle");
    }
    let n = s.len();
    assert_eq!(s[n - 2]["error"], Value::Null);
    assert_eq!(s[n - 1]["text"].as_str().unwrap().lines().count(), 3);
}

/// The stream of `runtime/tests/window_xvfb.rs`'s pointer test, whose
/// lines `animvm` prints in a real X window for the same moves and clicks.
const AREAS: &str = "scale 0.5\nevents on\narea box -2 0 0 0 0 2 -2 2\narea all -10 -10 10 -10 10 10 -10 10\n";

#[test]
fn a_click_on_an_animator_area_prints_animvm_s_event_lines() {
    if !enabled("a_click_on_an_animator_area_prints_animvm_s_event_lines") {
        return;
    }
    let checks = json!([
        {"id": "stream", "steps": [
            {"feed": format!("{AREAS}echo ready\n")}, {"output": true},
            {"click": [200, 120, 1]}, {"click": [200, 120, 3]}, {"output": true},
        ]},
        {"id": "buttons", "steps": [
            {"load": "examples/buttons.animb"}, {"output": true},
            {"click": [320, 240, 1]}, {"output": true},
        ]},
    ]);
    let results = run_page("click", &checks, 640, 480);
    let s = steps(&results, "stream");
    assert_eq!(s[1]["lines"], json!(["ready"]));
    // animvm, 640x480 (window_xvfb.rs: pixel (200, 120) is event (-1, 1)).
    assert_eq!(
        s[4]["lines"],
        json!([
            "MOTION 0 -1 1 box all",
            "PRESS 1 -1 1 box all",
            "RELEASE 1 -1 1 box all",
            "PRESS 3 -1 1 box all",
            "RELEASE 3 -1 1 box all"
        ])
    );
    // buttons.draw: the centre of the window is inside button 5 (and is
    // where the pointer starts, so there is no MOTION first, as in
    // animvm's window).
    let s = steps(&results, "buttons");
    assert_eq!(s[0]["error"], Value::Null);
    assert_eq!(s[3]["lines"], json!(["PRESS 1 0 0 b5", "RELEASE 1 0 0 b5"]));
    // What animvm prints for the same point (a `warp` there, headless):
    // the same coordinates and area.
    let dir = tempfile::tempdir().unwrap();
    let draw = std::fs::read_to_string(root().join("examples/buttons.draw")).unwrap();
    std::fs::write(dir.path().join("b.draw"), format!("{draw}warp 0 0\n")).unwrap();
    let native = animvm(&["-H", "b.draw"], dir.path());
    assert_eq!(String::from_utf8(native.stdout).unwrap(), "MOTION 0 0 0 b5\n");
}

#[test]
fn keys_print_animvm_s_key_lines() {
    if !enabled("keys_print_animvm_s_key_lines") {
        return;
    }
    // The DOM events of `runtime/tests/window_xvfb.rs`'s `xdotool key a
    // shift+b Return F1 Left ctrl+a KP_Enter Escape space Page_Up`
    // (xdotool releases Shift before B), and the lines that test asserts
    // animvm's window prints for them.
    let press = |code: &str, key: &str| [json!(["down", code, key]), json!(["up", code, key])];
    let mut keys = Vec::new();
    keys.extend(press("KeyA", "a"));
    keys.extend([json!(["down", "ShiftLeft", "Shift"]), json!(["down", "KeyB", "B"])]);
    keys.extend([json!(["up", "ShiftLeft", "Shift"]), json!(["up", "KeyB", "b"])]);
    for (code, key) in [("Enter", "Enter"), ("F1", "F1"), ("ArrowLeft", "ArrowLeft")] {
        keys.extend(press(code, key));
    }
    keys.extend([json!(["down", "ControlLeft", "Control"]), json!(["down", "KeyA", "a"])]);
    keys.extend([json!(["up", "ControlLeft", "Control"]), json!(["up", "KeyA", "a"])]);
    for (code, key) in [("NumpadEnter", "Enter"), ("Escape", "Escape"), ("Space", " "), ("PageUp", "PageUp")] {
        keys.extend(press(code, key));
    }
    let checks = json!([{"id": "keys", "steps": [
        {"feed": "events on\necho ready\n"}, {"output": true}, {"keys": keys}, {"output": true},
    ]}]);
    let results = run_page("keys", &checks, W, H);
    let s = steps(&results, "keys");
    assert_eq!(s[1]["lines"], json!(["ready"]));
    assert_eq!(
        s[3]["lines"],
        json!([
            "KEYDOWN 0 97 a",
            "KEYUP 0 a",
            "KEYDOWN 0 0 left shift",
            "KEYDOWN 1 66 b",
            "KEYUP 0 left shift",
            "KEYUP 0 b",
            "KEYDOWN 0 13 return",
            "KEYUP 0 return",
            "KEYDOWN 0 0 f1",
            "KEYUP 0 f1",
            "KEYDOWN 0 0 left",
            "KEYUP 0 left",
            "KEYDOWN 0 0 left ctrl",
            "KEYDOWN 64 1 a",
            "KEYUP 0 left ctrl",
            "KEYUP 0 a",
            "KEYDOWN 0 13 enter",
            "KEYUP 0 enter",
            "KEYDOWN 0 27 escape",
            "KEYUP 0 escape",
            "KEYDOWN 0 32 space",
            "KEYUP 0 space",
            "KEYDOWN 0 0 page up",
            "KEYUP 0 page up",
        ])
    );
}

#[test]
fn playback_follows_page_time_speed_seek_and_states() {
    if !enabled("playback_follows_page_time_speed_seek_and_states") {
        return;
    }
    let checks = json!([
        {"id": "sprite", "steps": [
            {"load": "examples/hero.animb"},
            {"play": 200}, {"play": 100, "speed": 2}, {"seek": 5},
            {"setState": "Attack"}, {"setState": "Atack"},
        ]},
        {"id": "slap", "steps": [{"load": "examples/story.animb"}, {"play": 1000, "speed": 1}, {"seek": 90}]},
        {"id": "draw", "steps": [{"load": "examples/spinner.animb"}, {"play": 100}, {"seek": 3}]},
    ]);
    let results = run_page("play", &checks, W, H);
    let s = steps(&results, "sprite");
    // 50 ticks a second: 200 ms is 10 ticks, 100 ms at speed 2 another 10.
    assert_eq!([&s[1]["frame"], &s[2]["frame"], &s[3]["frame"]], [&json!(10), &json!(20), &json!(5)]);
    assert_eq!(s[4]["state"], "Attack");
    assert_eq!(s[4]["states"][0], "Idle");
    assert_eq!(s[5]["error"], "no state named `Atack` (state names are case-sensitive)");
    let s = steps(&results, "slap");
    // 30 frames a second.
    assert_eq!([&s[1]["frame"], &s[2]["frame"]], [&json!(30), &json!(90)]);
    let s = steps(&results, "draw");
    // No waits in spinner.draw: playing runs it to its last frame.
    assert_eq!([&s[1]["frame"], &s[2]["frame"]], [&json!(35), &json!(3)]);
}

#[test]
fn base64_round_trips() {
    for n in 0..10 {
        let bytes: Vec<u8> = (0..n).map(|i| (i * 37 + 5) as u8).collect();
        assert_eq!(base64_decode(&base64(&bytes)), bytes);
    }
    assert_eq!(base64(b"Man"), "TWFu");
    assert_eq!(base64(b"Ma"), "TWE=");
}

/// A SLAP scene of 20 actors walking in a 5 x 4 grid for 120 frames.
fn crowd() -> String {
    let mut s = String::from("time 0\n");
    for i in 0..20 {
        let (x, z) = ((i % 5) as f64 * 1.5 - 3.0, (i / 5) as f64 * 1.5 - 2.0);
        s.push_str(&format!(
            "actor {} position {x} {z}\nactor {} action 2\nactor {} direction {}\n",
            i + 1,
            i + 1,
            i + 1,
            i
        ));
    }
    s.push_str("time 120\n");
    s
}

/// `web_frame_ms_20_actors`, `web_vs_native_frame`,
/// `web_sprite_ns_per_tick_1e5`, `web_load_ms`, printed, and then all in
/// one line `web_bench_json {...}` (what `animkit-bench`'s `web` group
/// reads). Run with `ANIMKIT_WEB_TESTS=1 cargo test --release -p
/// animkit-web --test browser web_bench -- --ignored --nocapture` (the
/// native side times this test process and `target/release/animvm`).
/// With `ANIMKIT_WEB_SIMD=1` it also builds the sprite-only player with
/// wasm SIMD128 (`web/build.sh --sprite-only --simd`) and times the two
/// builds' loops alternately, twice each (`web_sprite_simd_ns_per_tick_1e5`).
#[test]
#[ignore]
fn web_bench() {
    if !enabled("web_bench") {
        return;
    }
    let _ = page();
    let simd = std::env::var("ANIMKIT_WEB_SIMD").as_deref() == Ok("1");
    if simd {
        common::build(&["--sprite-only", "--simd"]);
    }
    let status = Command::new(env!("CARGO"))
        .args(["build", "-q", "--release", "--bin", "animvm"])
        .current_dir(root())
        .status()
        .unwrap();
    assert!(status.success());
    let scene = crowd();
    let checks = json!([
        {"id": "load", "steps": [{"load": "examples/story.animb"}, {"now": true}]},
        {"id": "slap", "steps": [
            {"loadBase64": base64(scene.as_bytes()), "name": "crowd.slap"},
            {"time": [0, 120], "sync": true},
            {"time": [0, 120], "sync": false},
        ]},
    ]);
    let ticks = |pkg: &str| json!({"spriteTicks": "examples/hero.animb", "n": 100000, "repeat": 20, "state": "Walk", "pkg": pkg});
    let sprite_steps = if simd {
        json!([ticks("pkg-sprite"), ticks("pkg-sprite-simd"), ticks("pkg-sprite"), ticks("pkg-sprite-simd")])
    } else {
        json!([ticks("pkg-sprite")])
    };
    let mut checks = checks;
    checks.as_array_mut().unwrap().push(json!({"id": "sprite", "steps": sprite_steps}));
    let results = run_page_timed("bench", &checks, 640, 480, true);
    let load_ms = steps(&results, "load")[1]["ms"].as_f64().unwrap();
    let s = steps(&results, "slap");
    assert_eq!(s[0]["error"], Value::Null, "{s:?}");
    let (web_sync, web_async) = (s[1]["ms"].as_f64().unwrap(), s[2]["ms"].as_f64().unwrap());
    let s = steps(&results, "sprite");
    // Best of the plain build's steps (every other one with SIMD), and of
    // the SIMD build's; the same events from each.
    let best = |first: usize| {
        s.iter()
            .skip(first)
            .step_by(2)
            .map(|t| t["ns"].as_f64().unwrap_or_else(|| panic!("{t}")))
            .fold(f64::INFINITY, f64::min)
    };
    let web_ns = if simd { best(0) } else { s[0]["ns"].as_f64().unwrap_or_else(|| panic!("{s:?}")) };
    let simd_ns = simd.then(|| best(1));
    for t in s {
        assert_eq!(t["events"], s[0]["events"], "the builds fired different events");
    }

    // Native: animvm -H drawing 121 frames minus 1 frame (start-up), best of 3.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("crowd.slap"), &scene).unwrap();
    let animvm = target_dir().join("release/animvm");
    let time = |frames: &str, dump: bool| {
        (0..3)
            .map(|_| {
                let t = std::time::Instant::now();
                let mut args = vec!["-H", "-x", "640", "-y", "480", "--frames", frames];
                if dump {
                    args.extend(["-d", "f"]);
                }
                args.push("crowd.slap");
                let o = Command::new(&animvm).args(&args).current_dir(dir.path()).output().unwrap();
                assert!(o.status.success(), "{o:?}");
                t.elapsed().as_secs_f64() * 1e3
            })
            .fold(f64::INFINITY, f64::min)
    };
    let native = (time("121", false) - time("1", false)) / 120.0;
    let native_dump = (time("121", true) - time("1", true)) / 120.0;
    // Native sprite ticks, the same loop as the page's (best of 5 runs of
    // 20 x 10^5 ticks).
    let program = animkit_compiler::compile(
        &[animkit_compiler::Source::new(
            "hero.anim",
            std::fs::read_to_string(root().join("examples/hero.anim")).unwrap(),
        )],
        &Default::default(),
    )
    .unwrap();
    let mut p = animkit_web::sprite_only::SpritePlayer::load(&animkit_vm::engine::codec::encode(&program)).unwrap();
    p.set_state("Walk").unwrap();
    let native_ns = (0..5)
        .map(|_| {
            let t = std::time::Instant::now();
            for _ in 0..20 {
                std::hint::black_box(p.run_ticks(100_000));
            }
            t.elapsed().as_secs_f64() * 1e9 / 2e6
        })
        .fold(f64::INFINITY, f64::min);
    // The same loop like for like: built natively with the page's own
    // profile (`web-sprite`: opt-level 3, fat LTO, one codegen unit), so
    // that wasm and native differ in the target alone. The test process
    // above is the `release` profile (no LTO, 16 codegen units), whose
    // loop calls across crates.
    let status = Command::new(env!("CARGO"))
        .args(["build", "-q", "--profile", "web-sprite", "-p", "animkit-web", "--no-default-features"])
        .args(["--example", "sprite_ticks"])
        .current_dir(root())
        .status()
        .unwrap();
    assert!(status.success(), "building the sprite_ticks example failed");
    let bundle = dir.path().join("hero.animb");
    std::fs::write(&bundle, animkit_vm::engine::codec::encode(&program)).unwrap();
    let o = Command::new(target_dir().join("web-sprite/examples/sprite_ticks"))
        .args([bundle.to_str().unwrap(), "Walk"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{o:?}");
    let out = String::from_utf8_lossy(&o.stdout);
    let (lto_ns, lto_events) = out.trim().split_once(' ').unwrap();
    let lto_ns: f64 = lto_ns.parse().unwrap();
    assert_eq!(lto_events, s[0]["events"].to_string(), "the native loop fired other events than the page's");
    eprintln!("web_load_ms {load_ms:.1} (navigation start to story.slap's first frame, page and wasm served locally)");
    eprintln!("web_frame_ms_20_actors {web_sync:.2} (640x480, with a readPixels each frame; {web_async:.2} without)");
    eprintln!(
        "web_vs_native_frame {:.2} (native animvm -H: {native:.2} ms a frame without read-back, {native_dump:.2} with -d PNGs)",
        web_async / native
    );
    eprintln!(
        "web_sprite_ns_per_tick_1e5 {web_ns:.2} ns wasm; native like for like (profile web-sprite) {lto_ns:.2} ns, ratio {:.2}; native release profile (this test) {native_ns:.2} ns, ratio {:.2}",
        web_ns / lto_ns,
        web_ns / native_ns
    );
    let mut figures = json!({
        "web_load_ms": load_ms,
        "web_frame_ms_20_actors": web_sync,
        "web_frame_ms_20_actors_no_readback": web_async,
        "web_vs_native_frame": web_async / native,
        "web_sprite_ns_per_tick_1e5": web_ns,
        "web_sprite_native_ns_per_tick_1e5": lto_ns,
        "web_sprite_vs_native_1e5": web_ns / lto_ns,
    });
    if let Some(simd_ns) = simd_ns {
        eprintln!(
            "web_sprite_simd_ns_per_tick_1e5 {simd_ns:.2} ns wasm with SIMD128, ratio {:.2} to native like for like; {:.3}x the plain build",
            simd_ns / lto_ns,
            simd_ns / web_ns
        );
        figures["web_sprite_simd_ns_per_tick_1e5"] = json!(simd_ns);
        figures["web_sprite_simd_vs_native_1e5"] = json!(simd_ns / lto_ns);
    }
    eprintln!("web_bench_json {figures}");
}
