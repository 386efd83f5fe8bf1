//! The npm-style package that `web/build.sh` makes, and its game-facing
//! `SpriteBatch`, in a real browser against `animvm` (see `docs/web.md`,
//! "Games").
//!
//! Gated by `ANIMKIT_WEB_TESTS=1` as `browser.rs` is (each test prints a
//! note and passes without it). With it, the tests build both packages
//! (`web/build.sh`, `--sprite-only`) and:
//!
//! * check each `package.json` and type-check the TypeScript game example
//!   (`web/examples/ts-game`) against the full package's declarations with
//!   `tsc --noEmit` (TypeScript from the npm registry, in `web/.tools/`,
//!   where `.ci/run` installs it: skipped with a note when it is not
//!   there), and show that a type error fails the check;
//! * run `batch_checks.html` in `chromium-headless-shell --dump-dom`: the
//!   full build's `SpriteBatch` (the sprite-only build has none) plays every state of `examples/hero.anim`'s
//!   bundle for 200 ticks, one tick a call and in steps of several ticks,
//!   and its frames and events, written as `animvm --trace` lines, are
//!   `animvm --trace`'s byte for byte;
//! * run `scene_checks.html` the same way: the full build's `SlapScene`
//!   plays `examples/story.slap`'s bundle frame by frame, and the lines
//!   it writes from `actors()` and `camera()` are `animvm --trace`'s byte
//!   for byte; seeking gives the same lines, the pose columns are the
//!   game API's;
//! * run `gl_checks.html`: a page with its own WebGL2 drawing and GL state
//!   has `GamePlayer` draw hero.anim, then story.slap, into sub-viewports
//!   of its context; its pixels outside them are its own, inside them the
//!   normal `Player`'s frame, and its GL state is what it was.

mod common;

use common::{Server, dump_dom, enabled, parse_results, results_text, root, target_dir};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

const TICKS: u64 = 200;
/// `batch_checks.html`'s steps of `tick(n)`, cycled.
const STEPS: [u64; 11] = [1, 7, 13, 50, 3, 2, 24, 11, 40, 5, 60];

/// Both packages and the examples' bundles, built once; `animvm` too.
fn built() {
    static BUILT: OnceLock<()> = OnceLock::new();
    BUILT.get_or_init(|| {
        common::build(&[]);
        common::build(&["--sprite-only"]);
        let status = Command::new(env!("CARGO")).args(["build", "-q", "--bin", "animvm"]).current_dir(root()).status();
        assert!(status.unwrap().success(), "building animvm failed");
    });
}

fn tsc() -> Option<PathBuf> {
    let tsc =
        std::env::var_os("TSC").map(PathBuf::from).unwrap_or_else(|| root().join("web/.tools/node_modules/.bin/tsc"));
    tsc.exists().then_some(tsc)
}

/// `tsc --noEmit -p DIR`'s exit status and output.
fn type_check(tsc: &Path, dir: &Path) -> (bool, String) {
    let out = Command::new(tsc).args(["--noEmit", "-p"]).arg(dir).output().expect("running tsc");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.success(), text)
}

#[test]
fn the_package_and_the_typescript_game_type_check() {
    if !enabled("the_package_and_the_typescript_game_type_check") {
        return;
    }
    built();
    let version = std::fs::read_to_string(root().join("Cargo.toml"))
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("version = \"").map(|v| v.trim_end_matches('"').to_string()))
        .unwrap();
    for (dir, name) in [("pkg", "animkit-web"), ("pkg-sprite", "animkit-web-sprite")] {
        let pkg = root().join("web/www").join(dir);
        let json: Value = serde_json::from_slice(&std::fs::read(pkg.join("package.json")).unwrap()).unwrap();
        assert_eq!((json["name"].as_str(), json["version"].as_str()), (Some(name), Some(version.as_str())));
        assert_eq!(
            (&json["module"], &json["types"], &json["type"]),
            (&"animkit_web.js".into(), &"animkit_web.d.ts".into(), &"module".into())
        );
        let mut files: Vec<String> = std::fs::read_dir(&pkg)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|f| f != "package.json")
            .collect();
        files.sort();
        assert_eq!(json["files"], serde_json::json!(files), "{dir}: `files` lists the package");
        assert!(files.contains(&"animkit_web_bg.wasm".to_string()));
        let dts = std::fs::read_to_string(pkg.join("animkit_web.d.ts")).unwrap();
        assert!(dts.contains("export class Player"), "{dir}");
        if dir == "pkg-sprite" {
            // SpriteBatch is in the full build only (docs/web.md, "Games").
            assert!(!dts.contains("SpriteBatch") && !dts.contains("SlapScene"), "{dir}");
            continue;
        }
        assert!(dts.contains("export class SpriteBatch"), "{dir}");
        assert!(dts.contains("export interface BatchEvent"), "{dir}");
        assert!(dts.contains("spawn(state: string | number, phase?: number | null): number;"), "{dir}:\n{dts}");
        assert!(dts.contains("frames(): Uint32Array;"), "{dir}");
        assert!(dts.contains("export class SlapScene"), "{dir}");
        assert!(dts.contains("actors(): Float64Array;"), "{dir}");
    }
    let Some(tsc) = tsc() else {
        eprintln!(
            "note: tsc not found (web/.tools/node_modules/.bin/tsc, or $TSC; .ci/run installs it with npm): the type check is skipped"
        );
        return;
    };
    let example = root().join("web/examples/ts-game");
    let (ok, text) = type_check(&tsc, &example);
    assert!(ok, "tsc --noEmit on web/examples/ts-game:\n{text}");
    // The same example with type errors, beside a tsconfig that extends
    // the example's and maps `animkit-web` to the package by its path.
    let dir = tempfile::tempdir().unwrap();
    let game = std::fs::read_to_string(example.join("game.ts")).unwrap();
    let config = serde_json::json!({
        "extends": example.join("tsconfig.json"),
        "compilerOptions": {"paths": {"animkit-web": [root().join("web/www/pkg")]}},
        "files": ["game.ts"],
    });
    std::fs::write(dir.path().join("tsconfig.json"), config.to_string()).unwrap();
    std::fs::write(dir.path().join("game.ts"), &game).unwrap();
    let (ok, text) = type_check(&tsc, dir.path());
    assert!(ok, "the copy type-checks as it is:\n{text}");
    // The check can fail: a state that is neither a name nor an index, and
    // frames taken for bytes.
    let bad = game
        .replace("heroes.spawn(i % 2 === 0 ? walk : \"Jump\", i * 3)", "heroes.spawn(i % 2 === 0 ? walk : true, i * 3)")
        .replace("const frames: Uint32Array = heroes.frames()", "const frames: Uint8Array = heroes.frames()");
    assert_ne!(bad, game);
    std::fs::write(dir.path().join("game.ts"), bad).unwrap();
    let (ok, text) = type_check(&tsc, dir.path());
    assert!(!ok, "{text}");
    let errors: Vec<&str> = text.lines().filter(|l| l.contains("error TS")).collect();
    assert_eq!(errors.len(), 2, "{text}");
    assert!(
        errors[0].contains(
            "error TS2345: Argument of type 'number | true' is not assignable to parameter of type 'string | number'."
        ),
        "{text}"
    );
    assert!(errors[1].contains("error TS2322:") && errors[1].contains("Uint32Array"), "{text}");
}

/// Serves web/www, and `batch_checks.html`, `scene_checks.html` and
/// `gl_checks.html` from this folder; its port.
fn server() -> u16 {
    static PORT: OnceLock<u16> = OnceLock::new();
    *PORT.get_or_init(|| {
        let server = Server::start();
        let pages: [(&str, &[u8]); 3] = [
            ("/batch_checks.html", include_bytes!("batch_checks.html")),
            ("/scene_checks.html", include_bytes!("scene_checks.html")),
            ("/gl_checks.html", include_bytes!("gl_checks.html")),
        ];
        let mut files = server.extra.lock().expect("the server's files");
        for (path, page) in pages {
            files.insert(path.to_string(), page.to_vec());
        }
        server.port
    })
}

/// The check page `page`'s results for the bundle at `bundle` (under web/www):
/// the page writes its JSON as text, HTML-escaped.
fn run_checks(page: &str, bundle: &str) -> Value {
    let url = format!("http://127.0.0.1:{}/{page}?bundle={bundle}", server());
    let dom = dump_dom(&url, "--virtual-time-budget=60000");
    parse_results(&results_text(&dom).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&"))
}

/// `animvm --trace`'s lines for state `state` of the bundle.
fn animvm_trace(bundle: &Path, state: &str) -> String {
    let out = Command::new(target_dir().join("debug/animvm"))
        .args(["--trace", "--ticks", &TICKS.to_string(), "--state", state])
        .arg(bundle)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// What `batch_checks.html` writes for steps of several ticks, from
/// animvm's lines: each tick's events (`{"tick":T,"events":[...]}`) and
/// the whole line at each step's end.
fn in_steps(trace: &str) -> String {
    let mut ends = Vec::new();
    let (mut t, mut k) = (0, 0);
    while t < TICKS {
        t += STEPS[k % STEPS.len()].min(TICKS - t);
        ends.push(t - 1);
        k += 1;
    }
    let mut out = String::new();
    for line in trace.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let tick = v["tick"].as_u64().unwrap();
        if ends.contains(&tick) {
            out.push_str(line);
            out.push('\n');
        } else if v["events"].as_array().is_some_and(|e| !e.is_empty()) {
            out.push_str(&format!("{{\"tick\":{tick},\"events\":{}}}\n", v["events"]));
        }
    }
    out
}

#[test]
fn batch_frames_and_events_are_animvm_s_trace_for_every_state() {
    if !enabled("batch_frames_and_events_are_animvm_s_trace_for_every_state") {
        return;
    }
    built();
    let results = run_checks("batch_checks.html", "examples/hero.animb");
    let bundle = root().join("web/www/examples/hero.animb");
    let bytes = std::fs::read(&bundle).unwrap();
    {
        let pkg = "pkg";
        let r = &results[pkg];
        let names: Vec<&str> = r["names"].as_array().unwrap().iter().map(|n| n.as_str().unwrap()).collect();
        assert_eq!(names, ["Idle", "Walk", "Run", "Jump", "Fall", "Land", "Attack", "Hurt", "Death"], "{pkg}");
        let mut events = 0;
        for (i, name) in names.iter().enumerate() {
            let trace = animvm_trace(&bundle, name);
            assert_eq!(trace.lines().count() as u64, TICKS);
            events += trace.matches("\"events\":[\"").count();
            assert_eq!(r["ones"][i].as_str(), Some(trace.as_str()), "{pkg}: state {name}, one tick a call");
            assert_eq!(r["many"][i].as_str(), Some(in_steps(&trace).as_str()), "{pkg}: state {name}, in steps");
        }
        assert!(events > 50, "{events} ticks with events: the comparison sees events");
        assert_eq!(r["dropped"], 0);
        assert_eq!(r["views"], serde_json::json!(["Uint32Array", "Uint16Array", "Uint32Array"]), "{pkg}");
        // Walk 7 ticks in: frame 1; Run a tick after the switch: frame 0;
        // Walk restarted by index, 7 ticks later: frame 1.
        assert_eq!(r["switched"], serde_json::json!([[1], "Run", [0], "Walk", [1], 15, 1]), "{pkg}");
        // Each bad call throws an Error with the native batch's message.
        let native = animkit_web::game_batch::GameBatch::load(&bytes[..10], None).err().unwrap();
        let e = &r["errors"];
        assert_eq!(e[0].as_str(), Some(native.as_str()), "{pkg}");
        assert_eq!(e[1], "no module named `hera` in the bundle; did you mean `hero`?");
        assert_eq!(e[2], "no state named `Wlak` in sprite module `hero`; did you mean `Walk`?", "{pkg}: {e}");
        assert_eq!(e[3], "no state 99 in module `hero` (it has 9)");
        let not_a_state = "a state is a name (string) or an index (a whole number from 0)";
        assert_eq!((&e[4], &e[5]), (&not_a_state.into(), &not_a_state.into()));
        assert_eq!(e[6], "no animation 5 in the batch (it has 1)");
        assert_eq!(e[7], "no animation 1 in the batch (it has 1)");
    }
}

/// `examples/story.slap` through `SlapScene`: every frame's actors and
/// camera, written as `animvm --trace` lines, are animvm's byte for byte.
#[test]
fn slap_scene_actors_are_animvm_s_trace() {
    if !enabled("slap_scene_actors_are_animvm_s_trace") {
        return;
    }
    built();
    let r = run_checks("scene_checks.html", "examples/story.animb");
    let bundle = root().join("web/www/examples/story.animb");
    let out = Command::new(target_dir().join("debug/animvm")).arg("--trace").arg(&bundle).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let theirs = String::from_utf8(out.stdout).unwrap();
    let ours = r["trace"].as_str().unwrap();
    assert_eq!(theirs.lines().count(), 1201, "story.slap is 1200 frames long");
    if let Some((i, (a, b))) = ours.lines().zip(theirs.lines()).enumerate().find(|(_, (a, b))| a != b) {
        panic!("frame {i} differs:\n page: {a}\nanimvm: {b}");
    }
    assert!(ours == theirs, "{} lines against animvm's {}", ours.lines().count(), theirs.lines().count());
    // Positions move and exponents appear: the comparison sees real numbers.
    assert!(theirs.contains("e-1"), "some coordinate is written in d.ddde-X form");
    assert_eq!((&r["name"], &r["length"], &r["stride"]), (&"story".into(), &1200.into(), &21.into()));
    let fields: Vec<&str> = animkit_web::game_scene::POSE_FIELDS.to_vec();
    assert_eq!(r["fields"], serde_json::json!(fields));
    // seek(45, 3, 90, 0, 1200) writes those frames' lines.
    let lines: Vec<&str> = theirs.lines().collect();
    for (i, f) in [45, 3, 90, 0, 1200].into_iter().enumerate() {
        assert_eq!(r["seeks"][i].as_str(), Some(format!("{}\n", lines[f]).as_str()), "seek({f})");
    }
    // The first actor's pose columns at those frames are the game API's.
    let bytes = std::fs::read(&bundle).unwrap();
    let mut native = animkit_web::game_scene::GameScene::load(&bytes, None).unwrap();
    for (i, f) in [45, 3, 90, 0, 1200].into_iter().enumerate() {
        native.seek(f);
        let row = &native.actors()[10..21];
        let got: Vec<f64> = r["poses"][i].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
        assert_eq!(got, row, "pose at frame {f}");
    }
    assert!(r["poses"].as_array().unwrap().iter().any(|p| p.as_array().unwrap().iter().any(|x| x != 0.0)));
    assert_eq!(r["view"], "Float64Array");
    assert_eq!((&r["errorCount"], &r["finished"]), (&0.into(), &true.into()));
    let native = animkit_web::game_scene::GameScene::load(&bytes[..10], None).err().unwrap();
    let e = &r["errors"];
    assert_eq!(e[0].as_str(), Some(native.as_str()));
    assert!(e[1].as_str().unwrap().starts_with("no module named `nope`"), "{e}");
    let not_a_frame = "a frame count is a whole number from 0";
    assert_eq!((&e[2], &e[3], &e[4]), (&not_a_frame.into(), &not_a_frame.into(), &not_a_frame.into()));
}

/// `GamePlayer` in a game's own WebGL2 context: the game's pixels outside
/// the viewport and its GL state are kept, the viewport shows what the
/// normal `Player` draws.
#[test]
fn the_player_draws_into_a_game_s_context_and_keeps_its_state() {
    if !enabled("the_player_draws_into_a_game_s_context_and_keeps_its_state") {
        return;
    }
    built();
    let r = run_checks("gl_checks.html", "none");
    let before = &r["stateBefore"];
    // The game's state as it set it: objects by its names.
    assert_eq!(before["CURRENT_PROGRAM"], "program", "{before}");
    assert_eq!((&before["VERTEX_ARRAY_BINDING"], &before["ARRAY_BUFFER_BINDING"]), (&"vao".into(), &"buffer".into()));
    assert_eq!(before["TEXTURE_BINDING_2D 3"], "texture3");
    assert_eq!(
        (&before["BLEND"], &before["CULL_FACE"], &before["UNPACK_FLIP_Y_WEBGL"]),
        (&true.into(), &true.into(), &true.into())
    );
    assert_eq!(before["error"], 0);
    for key in ["afterLoad", "afterDraw", "afterStory", "afterErrors"] {
        assert_eq!(&r[key], before, "{key}: the game's GL state changed");
    }
    assert_eq!(r["glError"], 0);
    assert_eq!(r["language"], "slap");
    // hero.anim frame 7 at (40, 30) 80x60; story.slap after 1 s of play
    // (30 frames) at (8, 4) 96x72.
    assert_eq!(r["hero"], serde_json::json!({"outside": 0, "inside": 0, "insideMax": 0}), "{r}");
    assert_eq!(r["heroOwn"], 0);
    assert_eq!(r["storyFrame"], 30);
    assert_eq!(r["story"], serde_json::json!({"outside": 0, "inside": 0, "insideMax": 0}), "{r}");
    assert_eq!(r["viewport"], serde_json::json!([8, 4, 96, 72]));
    // The game's triangle drawn again with its state covers the player's
    // picture at (10, 10) with its own colour.
    let redrawn = &r["redrawn"];
    assert_eq!(redrawn[0], redrawn[1], "{redrawn}");
    assert_ne!(redrawn[2], redrawn[1], "{redrawn}: the player drew there");
    let e = &r["errors"];
    assert!(e[0].as_str().unwrap().starts_with("error: `bad.animb`: "), "{e}");
    assert_eq!(e[1], "a frame is a whole number from 0");
}
