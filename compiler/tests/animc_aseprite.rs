//! The Aseprite importer over exports written by hand from Aseprite's
//! documented JSON format (`compiler/tests/aseprite/`): both `frames`
//! forms, every direction, repeats, frames shared between tags, user data
//! as events, lossy durations reported per tag, an untagged export, and
//! malformed exports (a clear error, nothing written); then `animc
//! --from-aseprite` and `animc --lang aseprite` as processes.

use animkit_compiler::import::aseprite::{AsepriteOptions, convert};
use animkit_compiler::{Source, compile};
use animkit_vm::engine::sprite::Sprites;
use std::sync::Arc;

fn data(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/aseprite/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

const HERO: &str = "\
# Converted from hero-hash.json (Aseprite export, 20 ms per tick).
Idle[hero]: 5|0, 5|1, _loop
Walk[hero]: 3|2|step, 3|3, 8|4, 6|5, _loop
Back[hero]: 3|3, 3|2, _loop
Breathe[hero]: 5|6, 5|7, 5|8, _pingpong
Sway[hero]: 5|8, 5|7, 5|6, _pingpong
Jump[hero]: 5|9|jump|land, 10|10, 5|9, 10|10, _wait
Hop[hero]: 5|7, 5|8, _wait
die_now[hero]: 10|10|ok, _loop
";

#[test]
fn the_hash_form_converts_tag_by_tag() {
    let out = convert("hero-hash.json", &data("hero-hash.json"), &AsepriteOptions::default()).unwrap();
    assert_eq!(out.text, HERO);
    let messages: Vec<&str> = out.warnings.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "tag `Walk`: frame 4 lasts 150 ms, shown for 8 ticks of 20 ms (160 ms)",
            "tag `Walk`: frame 5 lasts 110 ms, shown for 6 ticks of 20 ms (120 ms)",
            "tag `die now` is named `die_now` (state names are letters, digits and `_`, and unique)",
            "user data `2bad` of tag `die now` is not an event name: dropped",
        ]
    );
    // The carets point at the tag's name in the export.
    let rendered = animkit_compiler::diagnostic::render("hero-hash.json", &data("hero-hash.json"), &out.warnings[..1]);
    assert!(rendered.starts_with("warning: tag `Walk`: frame 4 lasts 150 ms"), "{rendered}");
    assert!(rendered.contains("--> hero-hash.json:23:14\n"), "{rendered}");
    assert_eq!(
        (out.sheet.image.as_str(), out.sheet.category.as_str(), out.sheet.frames.len()),
        ("hero.png", "hero", 11)
    );
    assert_eq!(
        (out.sheet.frames[4].x, out.sheet.frames[4].y, out.sheet.frames[4].w, out.sheet.frames[4].h),
        (0, 24, 16, 24)
    );
}

#[test]
fn the_array_form_and_another_tick_rate() {
    let out = convert("a.json", &data("hero-array.json"), &AsepriteOptions { tick_ms: 50 }).unwrap();
    assert_eq!(
        out.text,
        "# Converted from a.json (Aseprite export, 50 ms per tick).\nIdle[hero]: 2|0, 2|1, _loop\nBlink[hero]: 2|1|blink, 1|2, _pingpong\n"
    );
    assert_eq!(out.warnings.len(), 1, "60 ms at 50 ms per tick");
    assert_eq!(out.sheet.image, "sheets/hero.png");
    let untagged = convert("spin.json", &data("untagged.json"), &AsepriteOptions::default()).unwrap();
    assert_eq!(untagged.text.lines().nth(1), Some("Animation[spin]: 2|0, 2|1, _loop"));
}

/// What the converted source does, tick by tick.
fn frames(src: &str, state: &str, n: usize) -> (Vec<u32>, Vec<(usize, String)>) {
    let program = compile(&[Source::new("hero.anim", src)], &Default::default()).unwrap();
    let s = Sprites::new(Arc::new(animkit_vm::engine::verify::verify(program).unwrap()), "hero").unwrap();
    let mut i = s.instance(state).unwrap();
    let (mut f, mut e) = (Vec::new(), Vec::new());
    for t in 0..n {
        i.tick();
        f.push(i.frame());
        e.extend(i.drain_events().map(|x| (t, s.event_name(x).to_string())));
    }
    (f, e)
}

fn expand(spec: &[(u32, usize)]) -> Vec<u32> {
    spec.iter().flat_map(|&(v, n)| std::iter::repeat_n(v, n)).collect()
}

#[test]
fn the_converted_states_play_as_aseprite_does() {
    // Forward, with the tag's user data on its first frame every cycle.
    let (f, e) = frames(HERO, "Walk", 40);
    assert_eq!(f, expand(&[(2, 3), (3, 3), (4, 8), (5, 6), (2, 3), (3, 3), (4, 8), (5, 6)]));
    assert_eq!(e, [(0, "step".to_string()), (20, "step".to_string())]);
    // Reverse; ping-pong; ping-pong reversed; frames shared between tags.
    assert_eq!(frames(HERO, "Back", 12).0, expand(&[(3, 3), (2, 3), (3, 3), (2, 3)]));
    assert_eq!(frames(HERO, "Breathe", 25).0, expand(&[(6, 5), (7, 5), (8, 5), (7, 5), (6, 5)]));
    assert_eq!(frames(HERO, "Sway", 25).0, expand(&[(8, 5), (7, 5), (6, 5), (7, 5), (8, 5)]));
    // Repeat 2, then it stays on the last frame; repeat 1 of a ping-pong
    // is one direction (Aseprite counts each direction as one repeat).
    let (f, e) = frames(HERO, "Jump", 40);
    assert_eq!(f, expand(&[(9, 5), (10, 10), (9, 5), (10, 20)]));
    assert_eq!(e, [(0, "jump".to_string()), (0, "land".to_string())]);
    assert_eq!(frames(HERO, "Hop", 20).0, expand(&[(7, 5), (8, 15)]));
}

use crate::animc_cli::animc;

#[test]
fn animc_converts_and_compiles_exports() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("hero.json"), data("hero-hash.json")).unwrap();
    let (status, out, err) = animc(&["--from-aseprite", "hero.json", "-o", "hero.anim"], dir.path());
    assert_eq!((status, out.as_str()), (0, ""));
    assert!(
        err.contains("warning: tag `Walk`: frame 4 lasts 150 ms") && err.ends_with("warning: 4 warnings emitted\n"),
        "{err}"
    );
    let text = std::fs::read_to_string(dir.path().join("hero.anim")).unwrap();
    assert_eq!(text, HERO.replace("hero-hash.json", "hero.json"));
    // Read directly as a source: the same module.
    let (status, _, err) = animc(&["--lang", "aseprite", "hero.json", "-o", "direct.animb"], dir.path());
    assert_eq!(status, 0, "{err}");
    let (status, _, err) = animc(&["hero.anim", "-o", "via.animb"], dir.path());
    assert_eq!(status, 0, "{err}");
    let load = |f: &str| animkit_vm::engine::codec::load(&std::fs::read(dir.path().join(f)).unwrap()).unwrap();
    let (a, b) = (Arc::new(load("direct.animb")), Arc::new(load("via.animb")));
    assert_eq!(Sprites::new(a, "hero").unwrap().module_hash(), Sprites::new(b, "hero").unwrap().module_hash());
    // --tick-ms.
    let (status, out, _) = animc(&["--from-aseprite", "hero.json", "--tick-ms", "50", "-o", "-"], dir.path());
    assert_eq!(status, 0);
    assert!(out.contains("Idle[hero]: 2|0, 2|1, _loop\n"), "{out}");
}

#[test]
fn malformed_exports_are_clear_errors_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    for (file, message) in [
        (
            "malformed-range.json",
            "error: tag `Run` spans frames 0 to 3, but the export has frames 0 to 0 (Aseprite's batch export counts each \
             file's tags from that file's first frame)\n",
        ),
        (
            "malformed-syntax.json",
            "malformed-syntax.json:2:73: error: not an Aseprite JSON export: expected `,` or `}`\n",
        ),
    ] {
        std::fs::write(dir.path().join(file), data(file)).unwrap();
        let (status, _, err) = animc(&["--from-aseprite", file, "-o", "out.anim"], dir.path());
        assert_eq!(status, 1);
        assert!(err.starts_with(file) && err.ends_with(message), "{err}");
        let (status, _, _) = animc(&["--lang", "aseprite", file, "-o", "out.animb"], dir.path());
        assert_eq!(status, 1);
        assert!(!dir.path().join("out.anim").exists() && !dir.path().join("out.animb").exists());
    }
    let (status, _, err) = animc(&["--from-aseprite", "hero.json", "extra.json"], dir.path());
    assert_eq!(status, 1);
    assert!(err.starts_with("error: --from-aseprite converts one export: give no other input"), "{err}");
}

/// A ping-pong's repeat counts directions, as Aseprite plays it: 1 is
/// there, 2 there and back, 3 there, back and there again; reversed
/// ping-pongs start from the end.
#[test]
fn ping_pong_repeats_count_each_direction() {
    let json = |direction: &str, repeat: u32| {
        format!(
            r#"{{"frames": [{{"frame": {{"x": 0, "y": 0, "w": 8, "h": 8}}, "duration": 20}},
                           {{"frame": {{"x": 8, "y": 0, "w": 8, "h": 8}}, "duration": 20}},
                           {{"frame": {{"x": 16, "y": 0, "w": 8, "h": 8}}, "duration": 20}}],
               "meta": {{"image": "hero.png", "frameTags": [
                 {{"name": "P", "from": 0, "to": 2, "direction": "{direction}", "repeat": "{repeat}"}}]}}}}"#
        )
    };
    let state = |direction: &str, repeat: u32| {
        let out = convert("hero.json", &json(direction, repeat), &AsepriteOptions::default()).unwrap();
        out.text.lines().nth(1).unwrap().to_string()
    };
    assert_eq!(state("pingpong", 1), "P[hero]: 1|0, 1|1, 1|2, _wait");
    assert_eq!(state("pingpong", 2), "P[hero]: 1|0, 1|1, 1|2, 1|1, 1|0, _wait");
    assert_eq!(state("pingpong", 3), "P[hero]: 1|0, 1|1, 1|2, 1|1, 1|0, 1|1, 1|2, _wait");
    assert_eq!(state("pingpong_reverse", 2), "P[hero]: 1|2, 1|1, 1|0, 1|1, 1|2, _wait");
    assert_eq!(state("reverse", 2), "P[hero]: 1|2, 1|1, 1|0, 1|2, 1|1, 1|0, _wait");
    let src = convert("hero.json", &json("pingpong", 3), &AsepriteOptions::default()).unwrap().text;
    assert_eq!(frames(&src, "P", 9).0, [0, 1, 2, 1, 0, 1, 2, 2, 2]);
}

#[test]
fn rotated_and_trimmed_frames_are_reported_per_tag() {
    let json = r#"{"frames": [{"frame": {"x": 0, "y": 0, "w": 8, "h": 8}, "duration": 20, "rotated": true},
                              {"frame": {"x": 8, "y": 0, "w": 6, "h": 8}, "duration": 20, "trimmed": true}],
                  "meta": {"image": "hero.png", "frameTags": [
                    {"name": "A", "from": 0, "to": 0}, {"name": "B", "from": 1, "to": 1}]}}"#;
    let out = convert("hero.json", json, &AsepriteOptions::default()).unwrap();
    let messages: Vec<&str> = out.warnings.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "tag `A` has frames packed rotated: the viewer draws them as packed",
            "tag `B` has trimmed frames: the viewer draws each without its offset in `sourceSize`",
        ]
    );
}
