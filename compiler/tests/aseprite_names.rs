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
    assert_eq!(out.warnings.len(), n - 1);
    // The longest line is a short one: no name grows with the count.
    assert!(out.text.lines().all(|l| l.len() < 70), "a line grew");
    assert!(out.text.len() < 60 * n, "{}", out.text.len());
}

#[test]
fn each_warning_of_seventy_thousand_tags_points_at_its_own_tag() {
    let n = 70_000;
    let names: Vec<String> = (0..n).map(|k| format!("t{k}!")).collect();
    let tags: Vec<(&str, &str)> = names.iter().map(|s| (s.as_str(), "")).collect();
    let json = export(&tags);
    let out = convert("a.json", &json, &AsepriteOptions::default()).unwrap();
    assert_eq!(out.warnings.len(), n);
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
