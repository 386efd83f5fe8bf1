//! `animvm --trace` as a process.

use std::process::Command;

fn animvm(args: &[&str], dir: &std::path::Path) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_animvm")).args(args).current_dir(dir).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("hero.anim"),
        "Walk: 2|stepSound, 2, _loop\nFall[Jump]: 1|2, _wait|sfxLand\nAttack: 1|swing, Walk\n",
    )
    .unwrap();
    dir
}

#[test]
fn traces_a_source_file_tick_by_tick() {
    let dir = setup();
    let (status, out, err) = animvm(&["--trace", "--state", "Attack", "--ticks", "6", "hero.anim"], dir.path());
    assert_eq!((status, err.as_str()), (0, ""));
    assert_eq!(
        out,
        r#"{"tick":0,"state":"Attack","category":"Attack","frame":0,"events":["swing"]}
{"tick":1,"state":"Walk","category":"Walk","frame":0,"events":["stepSound"]}
{"tick":2,"state":"Walk","category":"Walk","frame":0,"events":[]}
{"tick":3,"state":"Walk","category":"Walk","frame":1,"events":[]}
{"tick":4,"state":"Walk","category":"Walk","frame":1,"events":[]}
{"tick":5,"state":"Walk","category":"Walk","frame":0,"events":["stepSound"]}
"#
    );
}

#[test]
fn traces_a_bundle_and_shows_the_category() {
    let dir = setup();
    let program = animkit_runtime::load::load_program(dir.path().join("hero.anim").to_str().unwrap()).unwrap();
    std::fs::write(dir.path().join("hero.animb"), animkit_vm::engine::codec::encode(&program)).unwrap();
    let (status, out, _) =
        animvm(&["--trace", "--state=Fall", "--ticks", "2", "--module", "hero", "hero.animb"], dir.path());
    assert_eq!(status, 0);
    assert_eq!(
        out,
        "{\"tick\":0,\"state\":\"Fall\",\"category\":\"Jump\",\"frame\":2,\"events\":[]}\n\
         {\"tick\":1,\"state\":\"Fall\",\"category\":\"Jump\",\"frame\":2,\"events\":[\"sfxLand\"]}\n"
    );
}

#[test]
fn clear_errors() {
    let dir = setup();
    let (status, _, err) = animvm(&["--trace", "--state", "Run", "hero.anim"], dir.path());
    assert_eq!(status, 1);
    assert_eq!(
        err,
        "animvm: no state named `Run` (state names are case-sensitive); the states are: Walk, Fall, Attack\n"
    );
    std::fs::write(dir.path().join("broken.animb"), b"ANIMB\0\r\n\x01\x00").unwrap();
    let (status, _, err) = animvm(&["--trace", "broken.animb"], dir.path());
    assert_eq!(status, 1);
    assert_eq!(err, "error: `broken.animb`: truncated bundle: expected 20 bytes, found 10\n");
    let (status, _, err) = animvm(&["--trace", "--module", "nope", "hero.anim"], dir.path());
    assert_eq!(status, 1);
    assert_eq!(err, "animvm: no module named `nope` in the bundle\n");
    let (status, _, err) = animvm(&["-Z"], dir.path());
    assert_eq!(status, 1);
    assert_eq!(err, "animvm: unknown option `-Z`\nTry `animvm -h` for help.\n");
    std::fs::write(dir.path().join("bad.anim"), "Walk: 5\n").unwrap();
    let (status, _, err) = animvm(&["--trace", "bad.anim"], dir.path());
    assert_eq!(status, 1);
    assert!(err.starts_with("error: state `Walk` has no end behaviour\n --> bad.anim:1:7\n"), "{err}");
}

/// An Aseprite export traced directly: converted at 20 ms per tick, its
/// losses printed as `animc --lang aseprite` prints them.
#[test]
fn traces_an_aseprite_export_and_prints_its_warnings() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("hero.json"),
        r#"{"frames": [{"frame": {"x": 0, "y": 0, "w": 8, "h": 8}, "duration": 30},
                      {"frame": {"x": 8, "y": 0, "w": 8, "h": 8}, "duration": 40}],
           "meta": {"image": "hero.png", "frameTags": [{"name": "Run", "from": 0, "to": 1, "direction": "reverse"}]}}"#,
    )
    .unwrap();
    let (status, out, err) = animvm(&["--trace", "--ticks", "4", "hero.json"], dir.path());
    assert_eq!(status, 0, "{err}");
    let frames: Vec<&str> = out.lines().map(|l| &l[l.find("\"frame\":").unwrap()..][8..9]).collect();
    assert_eq!(frames, ["1", "1", "0", "0"]);
    assert!(err.starts_with("warning: tag `Run`: frame 0 lasts 30 ms, shown for 2 ticks of 20 ms (40 ms)\n"), "{err}");
    assert!(err.contains(" --> hero.json:3:65\n"), "{err}");
    assert!(err.ends_with("warning: 1 warning emitted\n"), "{err}");
}

/// Issue 41 §9: tags that overlap into more frames than an export may
/// convert to (10 000 tags over the same 10 000 frames asked for 1.6 GB
/// and aborted) are refused before anything is built, with the limit.
#[test]
fn an_export_whose_tags_overlap_past_the_limit_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let frame = r#"{"frame":{"x":0,"y":0,"w":8,"h":8},"duration":100}"#;
    let tags: Vec<String> = (0..10_000).map(|k| format!(r#"{{"name":"T{k}","from":0,"to":9999}}"#)).collect();
    let json = format!(
        r#"{{"frames":[{}],"meta":{{"image":"hero.png","frameTags":[{}]}}}}"#,
        vec![frame; 10_000].join(","),
        tags.join(",")
    );
    std::fs::write(dir.path().join("o.json"), json).unwrap();
    let (status, out, err) = animvm(&["--trace", "--ticks", "4", "o.json"], dir.path());
    assert_eq!((status, out.as_str()), (1, ""), "{err}");
    assert_eq!(
        err,
        "o.json: error: the tags make 100000000 frames in all (each tag's frames times its repeats; tags that \
         overlap each make their own), more than the 1000000 one export may convert to\n"
    );
}

fn aseprite_fixture(name: &str) -> String {
    std::fs::read_to_string(format!("{}/../compiler/tests/aseprite/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// Issue 42 §4: a batch export of two files in one sheet, `walk`'s tag
/// counted from 0 in its own file, plays `walk`'s frames (2 to 5 of the
/// sheet) with the warning; one whose tag nothing places is refused.
#[test]
fn traces_a_batch_export_at_each_tags_own_frames() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("sheet.json"), aseprite_fixture("batch-two-files.json")).unwrap();
    let (status, out, err) = animvm(&["--trace", "--ticks", "12", "--state", "Walk", "sheet.json"], dir.path());
    assert_eq!(status, 0, "{err}");
    let frames: Vec<&str> = out.lines().map(|l| &l[l.find("\"frame\":").unwrap()..][8..9]).collect();
    assert_eq!(frames, ["2", "2", "2", "2", "2", "3", "3", "3", "3", "3", "4", "4"]);
    assert!(
        err.starts_with(
            "warning: tag `Walk` spans frames 0 to 3 in the export, but its frames' names put it at frames 2 to 5: \
             following the names (Aseprite's batch export counts each file's tags from that file's first frame)\n"
        ),
        "{err}"
    );
    assert!(err.ends_with("warning: 1 warning emitted\n"), "{err}");
    std::fs::write(dir.path().join("u.json"), aseprite_fixture("batch-untraceable.json")).unwrap();
    let (status, out, err) = animvm(&["--trace", "--ticks", "4", "u.json"], dir.path());
    assert_eq!((status, out.as_str()), (1, ""), "{err}");
    assert!(
        err.starts_with("u.json: error: tag `Step` spans frames 1 to 2, but the sheet holds the frames of 2 files"),
        "{err}"
    );
}
