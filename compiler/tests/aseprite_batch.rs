//! Aseprite exports as Aseprite's CLI writes them (issue 42 §4): each
//! file's tags counted from that file's first frame. One file; several
//! files in one sheet (default names, names with `{tag}`, a
//! `--filename-format` with `{tagframe}`); `--split-tags`; `--ignore-empty`.
//! The frames' names are followed and each moved range is a warning; a
//! range nothing places is an error naming the tag, its range and the
//! behaviour. Fixtures in `compiler/tests/aseprite/` (`batch-*`,
//! `split-tags.json`, `ignore-empty.json`), each with the command that
//! writes it in `docs/aseprite.md`.

use animkit_compiler::import::aseprite::{AsepriteOptions, convert};
use animkit_compiler::{Source, compile};
use animkit_vm::engine::sprite::Sprites;
use std::sync::Arc;

fn data(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/aseprite/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

const BATCH: &str = "Aseprite's batch export counts each file's tags from that file's first frame";
const IN_FILE: &str = "Aseprite counts a tag's frames as in its file, before `--split-tags` lists them tag by tag or \
                       `--ignore-empty` drops the empty ones";

/// The converted text and the warnings' messages.
fn convert_file(name: &str) -> (String, Vec<String>) {
    let out = convert(name, &data(name), &AsepriteOptions::default()).unwrap();
    (out.text, out.warnings.into_iter().map(|w| w.message).collect())
}

fn moved(tag: &str, from: usize, to: usize, at: &str, why: &str) -> String {
    format!(
        "tag `{tag}` spans frames {from} to {to} in the export, but its frames' names put it at frames {at}: \
         following the names ({why})"
    )
}

/// The frames state `state` of the converted `src` shows over `n` ticks.
fn played(src: &str, category: &str, state: &str, n: usize) -> Vec<u32> {
    let program = compile(&[Source::new("sheet.anim", src)], &Default::default()).unwrap();
    let s = Sprites::new(Arc::new(animkit_vm::engine::verify::verify(program).unwrap()), category).unwrap();
    let mut i = s.instance(state).unwrap();
    (0..n)
        .map(|_| {
            i.tick();
            i.frame()
        })
        .collect()
}

#[test]
fn one_file_imports_as_written() {
    let (text, warnings) = convert_file("batch-one-file.json");
    assert_eq!(
        text,
        "# Converted from batch-one-file.json (Aseprite export, 20 ms per tick).\n\
         Idle[hero]: 5|0, 5|1, _loop\n\
         Walk[hero]: 5|2, 5|3, _pingpong\n"
    );
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn several_files_import_with_each_tags_own_frames() {
    // Default names (`{title} {frame}.{extension}`), tags named like their
    // files: `Walk` is 0 to 3 of `walk`, frames 2 to 5 of the sheet.
    let (text, warnings) = convert_file("batch-two-files.json");
    assert_eq!(
        text,
        "# Converted from batch-two-files.json (Aseprite export, 20 ms per tick).\n\
         Idle[sheet]: 5|0, 5|1, _loop\n\
         Walk[sheet]: 5|2, 5|3, 5|4, 5|5, _pingpong\n"
    );
    assert_eq!(warnings, [moved("Walk", 0, 3, "2 to 5", BATCH)]);
    assert_eq!(played(&text, "sheet", "Walk", 30), [[2; 5], [3; 5], [4; 5], [5; 5], [4; 5], [3; 5]].concat());
    // Names with ` #{tag}`: two files with a `Walk` each, the second's
    // counted from 0 in its own file.
    let (text, warnings) = convert_file("batch-tag-names.json");
    assert_eq!(
        text,
        "# Converted from batch-tag-names.json (Aseprite export, 20 ms per tick).\n\
         Idle[sheet]: 5|0, 5|1, _loop\n\
         Walk[sheet]: 5|2, 5|3, _loop\n\
         Hop[sheet]: 5|4, 5|5, 5|6, _loop\n\
         Walk_2[sheet]: 5|8, 5|7, _loop\n"
    );
    assert_eq!(
        warnings,
        [
            moved("Hop", 0, 2, "4 to 6", BATCH),
            "tag `Walk` is named `Walk_2` (state names are letters, digits and `_`, and unique)".to_string(),
            moved("Walk", 3, 4, "7 to 8", BATCH),
        ]
    );
    // `--filename-format '{title}_{tag}:{tagframe}'`: the tag's name is a
    // part of its frames' names.
    let (text, warnings) = convert_file("batch-tagframe.json");
    assert_eq!(
        text,
        "# Converted from batch-tagframe.json (Aseprite export, 20 ms per tick).\n\
         Idle[sheet]: 5|0, 5|1, _loop\n\
         Walk[sheet]: 5|2, 5|3, 5|4, 5|5, _loop\n"
    );
    assert_eq!(warnings, [moved("Walk", 0, 3, "2 to 5", BATCH)]);
    // Both files' tags named `Walk`: told apart by what precedes the name
    // (the title).
    let json = data("batch-tagframe.json").replace("idle_Idle", "idle_Walk").replace("\"Idle\"", "\"Walk\"");
    let out = convert("w.json", &json, &AsepriteOptions::default()).unwrap();
    assert_eq!(
        out.text,
        "# Converted from w.json (Aseprite export, 20 ms per tick).\n\
         Walk[sheet]: 5|0, 5|1, _loop\n\
         Walk_2[sheet]: 5|2, 5|3, 5|4, 5|5, _loop\n"
    );
    assert_eq!(out.warnings.len(), 2);
    assert_eq!(out.warnings[1].message, moved("Walk", 0, 3, "2 to 5", BATCH));
}

#[test]
fn split_tags_follow_each_tags_own_copy() {
    // `--split-tags` lists `Step` (2 to 3, inside `Walk`) again after
    // `Walk`, then `Jump`; the ranges stay as in the file.
    let (text, warnings) = convert_file("split-tags.json");
    assert_eq!(
        text,
        "# Converted from split-tags.json (Aseprite export, 20 ms per tick).\n\
         Walk[hero]: 5|0, 5|1, 5|2, 5|3, _loop\n\
         Step[hero]: 5|4, 5|5, _loop\n\
         Jump[hero]: 5|6, 5|7, _loop\n"
    );
    assert_eq!(warnings, [moved("Step", 2, 3, "4 to 5", IN_FILE), moved("Jump", 4, 5, "6 to 7", IN_FILE)]);
}

#[test]
fn ignored_empty_frames_shift_the_ranges() {
    // Frame 2 of `hero` was empty and dropped: the sheet holds frames 0,
    // 1, 3, 4 and 5 of the file.
    let (text, warnings) = convert_file("ignore-empty.json");
    assert_eq!(
        text,
        "# Converted from ignore-empty.json (Aseprite export, 20 ms per tick).\n\
         Idle[hero]: 5|0, 5|1, _loop\n\
         Blink[hero]: 5|1, 5|2, _loop\n\
         Walk[hero]: 5|2, 5|3, 5|4, _loop\n"
    );
    assert_eq!(warnings, [moved("Blink", 1, 3, "1 to 2", IN_FILE), moved("Walk", 3, 5, "2 to 4", IN_FILE)]);
}

#[test]
fn ranges_nothing_places_are_refused() {
    let err = |name: &str, json: &str| convert(name, json, &AsepriteOptions::default()).map(|_| ()).unwrap_err();
    // Several files, default names, a tag named like none of them.
    assert_eq!(
        err("u.json", &data("batch-untraceable.json")),
        format!(
            "u.json: error: tag `Step` spans frames 1 to 2, but the sheet holds the frames of 2 files (`idle`, \
             `walk`, by the frames' names) and nothing says which file's frames the tag counts: {BATCH}; export \
             with `--filename-format '{{title}} #{{tag}} {{frame}}.{{extension}}'`, or one file per sheet"
        )
    );
    // The tag's last frame was empty and dropped: nothing says where it
    // ends.
    let json = data("ignore-empty.json").replace("\"hero 5.aseprite\"", "\"hero 6.aseprite\"");
    assert_eq!(
        err("e.json", &json),
        format!(
            "e.json: error: tag `Walk` spans frames 3 to 5 of `hero`, but the export has no frame 5 of `hero` (by \
             the frames' names), so the range cannot be placed ({BATCH}; `--ignore-empty` drops empty frames \
             without moving the tags)"
        )
    );
    // Tags listed against the order of their files.
    let json = data("batch-two-files.json").replace("\"Idle\"", "\"Tmp\"").replace("\"Walk\"", "\"Idle\"");
    let json = json.replace("\"Tmp\"", "\"Walk\"");
    assert_eq!(
        err("o.json", &json),
        format!(
            "o.json: error: tag `Idle` spans frames 0 to 3, and its frames' names place it in `idle`, but it is \
             listed after the tags of `walk`, a later file: {BATCH}, and lists them file by file, so the names and \
             the list disagree"
        )
    );
    // Two tags named alike whose frames' names run together (`--filename-format
    // '{tag}-{tagframe}'`, no title): neither can be told from the other.
    let json = data("batch-tagframe.json").replace("idle_Idle:", "Walk-").replace("walk_Walk:", "Walk-");
    let json = json.replace("\"Idle\"", "\"Walk\"");
    assert_eq!(
        err("t.json", &json),
        format!(
            "t.json: error: tag `Walk` spans frames 0 to 1, but the frames named after it are 0 to 5: {BATCH}, and \
             the names do not say which of them this tag counts"
        )
    );
    // Names without the title or the tag (`--filename-format '{frame}'`)
    // that repeat: several files, and nothing carries the tag.
    let json = data("batch-tagframe.json").replace("idle_Idle:", "").replace("walk_Walk:", "");
    assert_eq!(
        err("f.json", &json),
        format!(
            "f.json: error: tag `Idle` spans frames 0 to 1, but no frame's name carries it and the names repeat \
             (`0`, as when several files or split tags share one sheet): {BATCH}; export with `--filename-format \
             '{{title}} #{{tag}} {{frame}}.{{extension}}'`, or one file per sheet"
        )
    );
    // One file, a range past its frames.
    assert_eq!(
        err("r.json", &data("malformed-range.json")),
        format!("r.json: error: tag `Run` spans frames 0 to 3, but the export has frames 0 to 0 ({BATCH})")
    );
}

/// The names searched for tags are bounded: a name past 1 024 bytes
/// carries no tag, and names full of separators are searched a few parts
/// from each.
#[test]
fn long_names_are_searched_within_bounds() {
    let export = |names: &[String], tags: &str| {
        let frames: Vec<String> = names
            .iter()
            .map(|n| format!(r#"{{"filename":"{n}","frame":{{"x":0,"y":0,"w":8,"h":8}},"duration":100}}"#))
            .collect();
        format!(r#"{{"frames":[{}],"meta":{{"image":"a.png","frameTags":[{tags}]}}}}"#, frames.join(","))
    };
    // 1 024 bytes: `Walk` is a part of both names, as written is 0 to 0,
    // the names say 0 to 1.
    let walk = r#"{"name":"Walk","from":0,"to":0}"#;
    let names = [format!("Walk-{}", "x".repeat(1019)), format!("Walk-{}", "y".repeat(1019))];
    let out = convert("a.json", &export(&names, walk), &AsepriteOptions::default()).unwrap();
    assert_eq!(out.text.lines().nth(1), Some("Walk[a]: 5|0, 5|1, _loop"));
    assert_eq!(out.warnings[0].message, moved("Walk", 0, 0, "0 to 1", IN_FILE));
    // 1 025 bytes: not searched, the tag as written.
    let names = [format!("Walk-{}", "x".repeat(1020)), format!("Walk-{}", "y".repeat(1020))];
    let out = convert("a.json", &export(&names, walk), &AsepriteOptions::default()).unwrap();
    assert_eq!(out.text.lines().nth(1), Some("Walk[a]: 5|0, _loop"));
    assert!(out.warnings.is_empty());
    // 2 000 names of 1 000 bytes, a separator every other byte, and 2 000
    // tags: one run of frames named `W`, which none of them can be told in.
    let names = vec!["W-".repeat(500); 2000];
    let tags = vec![r#"{"name":"W","from":0,"to":0}"#; 2000].join(",");
    let err = convert("a.json", &export(&names, &tags), &AsepriteOptions::default()).map(|_| ()).unwrap_err();
    assert_eq!(
        err,
        format!(
            "a.json: error: tag `W` spans frames 0 to 0, but the frames named after it are 0 to 1999: {BATCH}, and \
             the names do not say which of them this tag counts"
        )
    );
}

/// Files of one frame each are named `{title}.{extension}`: the names
/// still tell the files apart.
#[test]
fn one_frame_files_are_told_apart() {
    let json = data("batch-two-files.json")
        .replace("\"idle 0.aseprite\"", "\"idle.aseprite\"")
        .replace("\"idle 1.aseprite\"", "\"rest.aseprite\"")
        .replace("\"Walk\", \"from\": 0, \"to\": 3", "\"Rest\", \"from\": 0, \"to\": 0");
    let json = json.replace("\"Idle\", \"from\": 0, \"to\": 1", "\"Idle\", \"from\": 0, \"to\": 0");
    let out = convert("o.json", &json, &AsepriteOptions::default()).unwrap();
    assert_eq!(out.text.lines().skip(1).collect::<Vec<_>>(), ["Idle[sheet]: 5|0, _loop", "Rest[sheet]: 5|1, _loop"]);
    let messages: Vec<&str> = out.warnings.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(messages, [moved("Rest", 0, 0, "1", BATCH).as_str(), "tag `Rest` ping-pongs over one frame: it loops"]);
}

/// Frame numbers and ranges at the ends of `usize` are placed without
/// overflow.
#[test]
fn the_largest_numbers_are_placed_without_overflow() {
    let max = usize::MAX;
    let frame = |n: &str, x: u32| format!(r#""{n}": {{"frame":{{"x":{x},"y":0,"w":8,"h":8}},"duration":100}}"#);
    let json = format!(
        r#"{{"frames":{{{},{},{},{}}},"meta":{{"image":"a.png","frameTags":[{{"name":"B","from":{max},"to":{max}}}]}}}}"#,
        frame("a 0.aseprite", 0),
        frame("a 1.aseprite", 8),
        frame("b 0.aseprite", 16),
        frame(&format!("b {max}.aseprite"), 24)
    );
    let out = convert("a.json", &json, &AsepriteOptions::default()).unwrap();
    assert_eq!(out.text.lines().nth(1), Some("B[a]: 5|3, _loop"));
    assert_eq!(out.warnings[0].message, moved("B", max, max, "3", &format!("{BATCH}; {IN_FILE}")));
    // A range from the largest number to 0 is refused as backwards.
    let json = json.replace(&format!(r#""to":{max}"#), r#""to":0"#);
    let err = convert("a.json", &json, &AsepriteOptions::default()).map(|_| ()).unwrap_err();
    assert_eq!(
        err,
        format!("a.json: error: tag `B` spans frames {max} to 0, but the export has frames 0 to 3 ({BATCH})")
    );
}

use crate::animc_cli::animc;

#[test]
fn animc_warns_follows_and_refuses() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("sheet.json"), data("batch-two-files.json")).unwrap();
    let (status, out, err) = animc(&["--from-aseprite", "sheet.json", "-o", "-"], dir.path());
    assert_eq!(status, 0, "{err}");
    assert_eq!(
        out,
        "# Converted from sheet.json (Aseprite export, 20 ms per tick).\n\
         Idle[sheet]: 5|0, 5|1, _loop\n\
         Walk[sheet]: 5|2, 5|3, 5|4, 5|5, _pingpong\n"
    );
    assert_eq!(
        err,
        format!(
            "warning: {}\n  --> sheet.json:66:14\n   |\n66 |    {{ \"name\": \"Walk\", \"from\": 0, \"to\": 3, \
             \"direction\": \"pingpong\", \"color\": \"#000000ff\" }}\n   |              ^^^^^^ in this tag\n\n\
             warning: 1 warning emitted\n",
            moved("Walk", 0, 3, "2 to 5", BATCH)
        )
    );
    let (status, _, err) = animc(&["--lang", "aseprite", "sheet.json", "-o", "sheet.animb"], dir.path());
    assert_eq!(status, 0, "{err}");
    assert!(err.ends_with("warning: 1 warning emitted\n"), "{err}");
    std::fs::write(dir.path().join("u.json"), data("batch-untraceable.json")).unwrap();
    let runs: [&[&str]; 2] =
        [&["--from-aseprite", "u.json", "-o", "u.anim"], &["--lang", "aseprite", "u.json", "-o", "u.animb"]];
    for args in runs {
        let (status, out, err) = animc(args, dir.path());
        assert_eq!((status, out.as_str()), (1, ""));
        assert!(err.starts_with("u.json: error: tag `Step` spans frames 1 to 2, but the sheet holds"), "{err}");
        assert!(err.ends_with("or one file per sheet\n"), "{err}");
    }
    assert!(!dir.path().join("u.anim").exists() && !dir.path().join("u.animb").exists());
}

/// Custom names (`{title}_{tag}:{tagframe}`) over one file with an empty
/// frame of `Walk` dropped: the tag is shorter than written, and the
/// warning says the range counts the file's own frames.
#[test]
fn custom_names_over_dropped_frames_follow_the_names() {
    let json = data("batch-tagframe.json").replace("idle_", "hero_").replace("walk_", "hero_");
    let json = json.replace("\"Walk\", \"from\": 0, \"to\": 3", "\"Walk\", \"from\": 2, \"to\": 6");
    let out = convert("c.json", &json, &AsepriteOptions::default()).unwrap();
    assert_eq!(out.text.lines().nth(2), Some("Walk[sheet]: 5|2, 5|3, 5|4, 5|5, _loop"));
    let messages: Vec<&str> = out.warnings.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(messages, [moved("Walk", 2, 6, "2 to 5", IN_FILE)]);
}
