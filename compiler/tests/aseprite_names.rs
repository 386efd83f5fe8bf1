//! Aseprite import in time linear in the export: repeated tag names become
//! `Idle`, `Idle_2`, `Idle_3`, ... (a warning per rename, its caret on the
//! tag), thousands of tags convert to output linear in their number, and a
//! huge `repeat` is an error before anything is built.

use animkit_compiler::import::aseprite::{AsepriteOptions, convert};

fn export(tags: &[(&str, &str)]) -> String {
    let tags: Vec<String> = tags
        .iter()
        .map(|(name, extra)| {
            format!(r#"{{"name": {}, "from": 0, "to": 1{extra}}}"#, serde_json::to_string(name).unwrap())
        })
        .collect();
    format!(
        r#"{{"frames": [
  {{"frame": {{"x": 0, "y": 0, "w": 8, "h": 8}}, "duration": 100}},
  {{"frame": {{"x": 8, "y": 0, "w": 8, "h": 8}}, "duration": 100}}],
 "meta": {{"image": "hero.png", "frameTags": [{}]}}}}"#,
        tags.join(",\n  ")
    )
}

fn state_names(text: &str) -> Vec<&str> {
    text.lines().skip(1).map(|l| l.split('[').next().unwrap()).collect()
}

#[test]
fn repeated_names_count_up_with_a_warning_each() {
    let json = export(&[("Idle", ""), ("Idle", ""), ("Idle_2", ""), ("Idle", ""), ("run!", ""), ("run_", "")]);
    let out = convert("a.json", &json, &AsepriteOptions::default()).unwrap();
    assert_eq!(state_names(&out.text), ["Idle", "Idle_2", "Idle_2_2", "Idle_3", "run_", "run__2"]);
    let warnings: Vec<(String, &str)> =
        out.warnings.iter().map(|d| (d.message.clone(), &json[d.span.start..d.span.end])).collect();
    assert_eq!(
        warnings,
        [
            (
                "tag `Idle` is named `Idle_2` (state names are letters, digits and `_`, and unique)".to_string(),
                "\"Idle\""
            ),
            (
                "tag `Idle_2` is named `Idle_2_2` (state names are letters, digits and `_`, and unique)".into(),
                "\"Idle_2\""
            ),
            ("tag `Idle` is named `Idle_3` (state names are letters, digits and `_`, and unique)".into(), "\"Idle\""),
            ("tag `run!` is named `run_` (state names are letters, digits and `_`, and unique)".into(), "\"run!\""),
            ("tag `run_` is named `run__2` (state names are letters, digits and `_`, and unique)".into(), "\"run_\""),
        ]
    );
    // Each caret is on its own tag, in order.
    let starts: Vec<usize> = out.warnings.iter().map(|d| d.span.start).collect();
    assert!(starts.windows(2).all(|w| w[0] < w[1]), "{starts:?}");
}

#[test]
fn five_thousand_tags_named_alike_convert_to_output_linear_in_their_number() {
    let n = 5_000;
    let json = export(&vec![("Idle", ""); n]);
    let out = convert("a.json", &json, &AsepriteOptions::default()).unwrap();
    let names = state_names(&out.text);
    let expected: Vec<String> =
        std::iter::once("Idle".to_string()).chain((2..=n).map(|k| format!("Idle_{k}"))).collect();
    assert_eq!(names, expected);
    // The first 100 warnings are held, the others counted.
    assert_eq!((out.warnings.len(), out.more_warnings), (100, n - 1 - 100));
    // The longest line is a short one: no name grows with the count.
    assert!(out.text.lines().all(|l| l.len() < 70), "a line grew");
    assert!(out.text.len() < 60 * n, "{}", out.text.len());
}

#[test]
fn each_warning_held_of_the_most_tags_points_at_its_own_tag() {
    let n = 65_535;
    let names: Vec<String> = (0..n).map(|k| format!("t{k}!")).collect();
    let tags: Vec<(&str, &str)> = names.iter().map(|s| (s.as_str(), "")).collect();
    let json = export(&tags);
    let out = convert("a.json", &json, &AsepriteOptions::default()).unwrap();
    assert_eq!((out.warnings.len(), out.more_warnings), (100, n - 100));
    for (k, d) in out.warnings.iter().enumerate() {
        assert_eq!(&json[d.span.start..d.span.end], format!("\"t{k}!\""));
    }
    assert_eq!(state_names(&out.text)[n - 1], format!("t{}_", n - 1));
}

#[test]
fn a_name_inside_user_data_or_frames_is_not_a_tag_name() {
    // `"name"` elsewhere (a frame's file name, a tag's nested data) does not
    // take a tag's caret.
    let json = r#"{"frames": [{"filename": "name", "name": "Idle", "frame": {"x": 0, "y": 0, "w": 8, "h": 8}, "duration": 100}],
 "meta": {"image": "hero.png", "frameTags": [{"from": 0, "to": 0, "x": {"name": "Idle"}, "name": "Idle"}, {"name": "Idle", "from": 0, "to": 0}]}}"#;
    let out = convert("a.json", json, &AsepriteOptions::default()).unwrap();
    assert_eq!(out.warnings.len(), 1);
    let at = json.rfind(r#"{"name": "Idle""#).unwrap() + 9;
    assert_eq!(out.warnings[0].span.start, at);
}

#[test]
fn a_huge_repeat_is_an_error_before_it_is_built() {
    let json = export(&[("Idle", r#", "repeat": "18446744073709551615""#)]);
    let err = convert("a.json", &json, &AsepriteOptions::default()).map(|_| ()).unwrap_err();
    assert_eq!(err, "a.json: error: tag `Idle`: repeat 18446744073709551615 makes more than 100000 frames");
    let json = export(&[("Idle", r#", "repeat": "100000", "direction": "pingpong""#)]);
    let err = convert("a.json", &json, &AsepriteOptions::default()).map(|_| ()).unwrap_err();
    assert_eq!(err, "a.json: error: tag `Idle`: repeat 100000 makes more than 100000 frames");
}

/// An export of `frames` frames of 100 ms and the given tags (name, from,
/// to, repeat), written compactly.
fn export_of(frames: usize, tags: impl Iterator<Item = (String, usize, usize, u64)>) -> String {
    let frame = r#"{"frame":{"x":0,"y":0,"w":8,"h":8},"duration":100}"#;
    let frames = vec![frame; frames].join(",");
    let tags: Vec<String> = tags
        .map(|(name, from, to, repeat)| format!(r#"{{"name":"{name}","from":{from},"to":{to},"repeat":"{repeat}"}}"#))
        .collect();
    format!(r#"{{"frames":[{frames}],"meta":{{"image":"hero.png","frameTags":[{}]}}}}"#, tags.join(","))
}

#[test]
fn overlapping_tags_past_the_total_are_refused_before_they_are_built() {
    // Issue 41 §9: 10 000 tags each over all 10 000 frames (under 1 MB of
    // JSON) asked for 1.6 GB; now refused after counting.
    let json = export_of(10_000, (0..10_000).map(|k| (format!("T{k}"), 0, 9_999, 0)));
    assert!(json.len() < 1_000_000, "{}", json.len());
    let err = convert("a.json", &json, &AsepriteOptions::default()).map(|_| ()).unwrap_err();
    assert_eq!(
        err,
        "a.json: error: the tags make 100000000 frames in all (each tag's frames times its repeats; tags that \
         overlap each make their own), more than the 1000000 one export may convert to"
    );
    // At the limit exactly it converts: 10 tags of 100 frames repeated
    // 1 000 times; one frame more is refused.
    let at = |extra: bool| {
        let tags = (0..10).map(|k| (format!("T{k}"), 0, 99, 1_000)).chain(extra.then(|| ("X".to_string(), 0, 0, 0)));
        convert("a.json", &export_of(100, tags), &AsepriteOptions::default())
    };
    let out = at(false).unwrap();
    assert_eq!(out.text.matches('|').count(), 1_000_000);
    assert_eq!(
        at(true).map(|_| ()).unwrap_err(),
        "a.json: error: the tags make 1000001 frames in all (each tag's frames times its repeats; tags that \
         overlap each make their own), more than the 1000000 one export may convert to"
    );
}

#[test]
fn more_tags_than_states_are_refused() {
    let many = |n: usize| export_of(1, (0..n).map(|k| (format!("T{k}"), 0, 0, 0)));
    let err = convert("a.json", &many(65_536), &AsepriteOptions::default()).map(|_| ()).unwrap_err();
    assert_eq!(
        err,
        "a.json: error: too many states: at most 65535 fit in one sprite file, and the export has 65536 tags (a state each)"
    );
    assert!(convert("a.json", &many(65_535), &AsepriteOptions::default()).is_ok());
}

use crate::animc_cli::animc;

#[test]
fn animc_prints_a_hundred_warnings_then_their_count_and_refuses_what_cannot_compile() {
    // 65 535 tags all named `A` (issue 41 §9: 100 000 took 79 s and wrote
    // 25 MB of warnings): renamed in linear time, 100 warnings shown.
    let dir = tempfile::tempdir().unwrap();
    let n = 65_535;
    std::fs::write(dir.path().join("a.json"), export_of(1, (0..n).map(|_| ("A".to_string(), 0, 0, 0)))).unwrap();
    let (status, out, err) = animc(&["--from-aseprite", "a.json", "-o", "-"], dir.path());
    assert_eq!(status, 0, "{err}");
    assert_eq!(out.lines().count(), n + 1);
    assert!(out.ends_with(&format!("\nA_{n}[hero]: 5|0, _loop\n")), "{}", &out[out.len() - 100..]);
    assert_eq!(err.matches("warning: tag `A` is named").count(), 100);
    assert!(err.len() < 100 * 400, "{}", err.len());
    assert!(
        err.ends_with("warning: 65534 warnings emitted, the first 100 shown (65434 more not shown)\n"),
        "{}",
        &err[err.len() - 200..]
    );
    // Compiled directly: the same, and a bundle.
    let (status, _, err) = animc(&["--lang", "aseprite", "a.json", "-o", "a.animb"], dir.path());
    assert_eq!(status, 0, "{err}");
    assert!(err.ends_with("(65434 more not shown)\n"), "{}", &err[err.len() - 200..]);
    // 70 000 tags: more states than a sprite file may have; nothing is
    // written (before: a `.anim` that could not compile).
    std::fs::write(dir.path().join("b.json"), export_of(1, (0..70_000).map(|k| (format!("T{k}"), 0, 0, 0)))).unwrap();
    for args in [&["--from-aseprite", "b.json"][..], &["--lang", "aseprite", "b.json"]] {
        let (status, out, err) = animc(args, dir.path());
        assert_eq!(
            (status, out.as_str(), err.as_str()),
            (
                1,
                "",
                "b.json: error: too many states: at most 65535 fit in one sprite file, and the export has 70000 tags (a state each)\n"
            )
        );
    }
    assert!(!dir.path().join("b.anim").exists() && !dir.path().join("b.animb").exists());
    // The overlapping export, through animc.
    std::fs::write(dir.path().join("c.json"), export_of(10_000, (0..10_000).map(|k| (format!("T{k}"), 0, 9_999, 0))))
        .unwrap();
    let (status, _, err) = animc(&["--lang", "aseprite", "c.json", "--check"], dir.path());
    assert_eq!(status, 1);
    assert!(err.starts_with("c.json: error: the tags make 100000000 frames in all"), "{err}");
}
