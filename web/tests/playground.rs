//! The playground page (`web/www/playground.html`, docs/web.md "The
//! playground") in headless Chromium, against `animc` and `animvm`.
//!
//! Gated by `ANIMKIT_WEB_TESTS=1` as `browser.rs` is. With it, the tests
//! build the page (`web/build.sh --playground`), serve `web/www` and run
//! `playground.html?checks=...`: the page opens an example or a link, takes
//! typed texts (its textarea's value and an `input` event; it compiles after
//! its debounce) and writes what it shows (the list under the editor, the
//! marked gutter lines, the compile time, the link) and the player's traces
//! into the DOM. What is checked:
//!
//! * an example plays as `animvm --trace` traces its source, byte for byte;
//! * an error lists `animc`'s diagnostics (line, column, message) and marks
//!   their lines, the last good build playing on; the fixed text plays (its
//!   own trace); "format" gives `animc --fmt`'s text;
//! * a link with the fragment the page wrote reproduces the text and its
//!   build;
//! * 10^6 lines give `animc`'s bounded list (100 errors and the count of the
//!   others), and the page answers afterwards, with the compile time shown.

mod common;

use common::{Server, enabled, root, run_chromium, target_dir};
use serde_json::{Value, json};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

/// The page built once, and its server.
fn server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| {
        common::build(&["--playground"]);
        let status = Command::new(env!("CARGO"))
            .args(["build", "-q", "--bin", "animvm", "--bin", "animc"])
            .current_dir(root())
            .status()
            .expect("cargo runs");
        assert!(status.success(), "building animvm and animc failed");
        Server::start()
    })
}

/// Runs the check list `checks` on `playground.html` (with `fragment`
/// after `#`, if any) at 160x120; the page's results.
fn run_playground(name: &str, checks: &Value, fragment: &str) -> Value {
    let server = server();
    let file = format!("/checks-playground-{name}.json");
    server.extra.lock().expect("the server's files").insert(file.clone(), checks.to_string().into_bytes());
    let url = format!("http://127.0.0.1:{}/playground.html?checks={}&w=160&h=120{fragment}", server.port, &file[1..]);
    run_chromium(&url)
}

fn steps(results: &Value) -> &Vec<Value> {
    results["results"][0]["steps"].as_array().expect("the steps' results")
}

fn tool(name: &str, args: &[&str], dir: &Path, stdin: Option<&str>) -> Output {
    let mut child = Command::new(target_dir().join("debug").join(name))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tool runs");
    let mut input = child.stdin.take().expect("its stdin");
    if let Some(text) = stdin {
        std::io::Write::write_all(&mut input, text.as_bytes()).expect("written");
    }
    drop(input);
    child.wait_with_output().expect("it ends")
}

/// `animvm --trace ARGS NAME` on `text` saved as `NAME`: its output.
fn animvm_trace(name: &str, text: &str, args: &str) -> String {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(dir.path().join(name), text).expect("written");
    let mut argv = vec!["--trace"];
    argv.extend(args.split_whitespace());
    argv.push(name);
    let out = tool("animvm", &argv, dir.path(), None);
    assert!(out.status.success(), "animvm {argv:?}: {out:?}");
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// `animc NAME` on `text` saved as `NAME`: its messages as the page lists
/// them (`LINE:COLUMN: error: MESSAGE`, without a place when it has none),
/// without the closing count.
fn animc_diagnostics(name: &str, text: &str) -> Vec<String> {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(dir.path().join(name), text).expect("written");
    let out = tool("animc", &[name, "-o", "out.animb"], dir.path(), None);
    assert!(!out.status.success(), "animc compiled it");
    let stderr = String::from_utf8(out.stderr).expect("UTF-8");
    let mut list: Vec<(String, Option<String>)> = Vec::new();
    for line in stderr.lines() {
        if let Some(m) = line
            .strip_prefix("error: ")
            .map(|m| ("error", m))
            .or(line.strip_prefix("warning: ").map(|m| ("warning", m)))
        {
            list.push((format!("{}: {}", m.0, m.1), None));
        } else if let (Some(place), Some(last)) = (line.trim_start().strip_prefix("--> "), list.last_mut())
            && last.1.is_none()
        {
            let prefix = format!("{name}:");
            last.1 = Some(place.strip_prefix(&prefix).expect("a place in the text").to_string());
        }
    }
    list.retain(|(m, at)| at.is_some() || !m.starts_with("error: could not compile due to "));
    list.into_iter().map(|(m, at)| at.map_or(m.clone(), |at| format!("{at}: {m}"))).collect()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().expect("an array").iter().map(|s| s.as_str().expect("a string").to_string()).collect()
}

fn hero() -> String {
    std::fs::read_to_string(root().join("examples/hero.anim")).expect("examples/hero.anim")
}

#[test]
fn an_example_plays_as_animvm_traces_it() {
    if !enabled("an_example_plays_as_animvm_traces_it") {
        return;
    }
    let cases = [
        ("hero.anim", "--ticks 60"),
        ("hero.anim", "--ticks 40 --state Attack"),
        ("two_actors.slap", "--start 10 --frames 20"),
        // Its `sin`, `cos` and `atan2` are folded at compile time, by the
        // `libm` crate on every target (with std's, glibc natively and
        // Rust's port on wasm32 rounded some last bits apart).
        ("circle.slap", "--frames 40"),
    ];
    let mut s = Vec::new();
    for (file, args) in cases {
        s.push(json!({"example": file}));
        s.push(json!({"trace": args}));
    }
    let results = run_playground("examples", &json!([{"id": "examples", "steps": s}]), "");
    // Without a link the page opens hero.anim.
    assert_eq!(results["start"]["name"], "hero.anim");
    assert_eq!(results["start"]["text"].as_str(), Some(hero().as_str()));
    let s = steps(&results);
    for (i, (file, args)) in cases.iter().enumerate() {
        let shown = &s[2 * i];
        assert_eq!(shown["ok"], true, "{file}: {shown}");
        assert_eq!(strings(&shown["diagnostics"]), Vec::<String>::new(), "{file}");
        assert!(shown["time"].as_str().is_some_and(|t| t.starts_with("compiled in ") && t.ends_with(" ms")), "{shown}");
        let text = std::fs::read_to_string(root().join("examples").join(file)).expect("the example");
        assert_eq!(s[2 * i + 1]["text"].as_str(), Some(animvm_trace(file, &text, args).as_str()), "{file} {args}");
    }
}

#[test]
fn an_error_lists_animc_s_diagnostics_and_the_fix_plays_again() {
    if !enabled("an_error_lists_animc_s_diagnostics_and_the_fix_plays_again") {
        return;
    }
    let good = hero();
    let broken = good
        .replace("Walk: 6|step, 6, 6|step, 6, _loop", "Walk: 6|step, 6, 6|step, 6, Sprint")
        .replace("Hurt: 2|0|hurtSound", "Hurt: 2|0|hurtSound, Limp");
    let fixed = good.replace("Idle: 15, 15, 15, 15, _pingpong", "Idle: 9, 9, _loop");
    let messy = "Idle:15,15,  _loop\nWalk:  6|step,6,_loop\n";
    let results = run_playground(
        "errors",
        &json!([{"id": "errors", "steps": [
            {"type": broken},
            {"trace": "--ticks 60"},
            {"type": fixed},
            {"trace": "--ticks 60"},
            {"type": messy},
            {"format": true},
        ]}]),
        "",
    );
    let s = steps(&results);
    // The list is animc's, and the gutter marks its lines.
    let expected = animc_diagnostics("hero.anim", &broken);
    // Two on line 16 (one mark), one on line 6.
    assert_eq!(expected.len(), 3, "{expected:?}");
    assert_eq!(strings(&s[0]["diagnostics"]), expected);
    assert!(expected[0].starts_with("6:29: error: unknown state `Sprint`"), "{expected:?}");
    assert_eq!(s[0]["marked"], json!([6, 16]));
    assert_eq!(s[0]["ok"], false);
    assert_eq!(s[0]["stale"], "errors: the last good build plays on");
    // The last good build (the example) plays on.
    assert_eq!(s[1]["text"].as_str(), Some(animvm_trace("hero.anim", &good, "--ticks 60").as_str()));
    // The fix compiles, clears the list and plays: its own trace.
    assert_eq!(
        (s[2]["ok"].clone(), s[2]["diagnostics"].clone(), s[2]["marked"].clone()),
        (json!(true), json!([]), json!([]))
    );
    let fixed_trace = animvm_trace("hero.anim", &fixed, "--ticks 60");
    assert_ne!(fixed_trace, animvm_trace("hero.anim", &good, "--ticks 60"));
    assert_eq!(s[3]["text"].as_str(), Some(fixed_trace.as_str()));
    // "format" writes animc --fmt's text into the editor.
    let formatted = tool("animc", &["--fmt", "--lang", "sprite", "-"], &root(), Some(messy));
    assert!(formatted.status.success());
    assert_eq!(s[5]["text"].as_str(), Some(String::from_utf8(formatted.stdout).expect("UTF-8").as_str()));
    assert_ne!(s[5]["text"].as_str(), Some(messy));
}

#[test]
fn a_link_reproduces_the_text() {
    if !enabled("a_link_reproduces_the_text") {
        return;
    }
    let text = std::fs::read_to_string(root().join("examples/story.slap")).expect("examples/story.slap").replacen(
        '\n',
        "\n# a comment in the link: é ✓\n",
        1,
    );
    let first = run_playground(
        "link-write",
        &json!([{"id": "write", "steps": [{"type": text, "language": "slap", "name": "mine.slap"}]}]),
        "",
    );
    let hash = steps(&first)[0]["hash"].as_str().expect("the fragment").to_string();
    assert!(hash.starts_with("#lang=slap&name=mine.slap&src="), "{hash}");
    let second = run_playground("link-read", &json!([{"id": "read", "steps": [{"trace": "--frames 30"}]}]), &hash);
    let start = &second["start"];
    assert_eq!(start["text"].as_str(), Some(text.as_str()));
    assert_eq!((start["language"].as_str(), start["name"].as_str()), (Some("slap"), Some("mine.slap")));
    assert_eq!(start["ok"], true, "{start}");
    assert_eq!(steps(&second)[0]["text"].as_str(), Some(animvm_trace("mine.slap", &text, "--frames 30").as_str()));
}

#[test]
fn a_million_lines_give_animc_s_bounded_error_and_the_page_answers() {
    if !enabled("a_million_lines_give_animc_s_bounded_error_and_the_page_answers") {
        return;
    }
    let results = run_playground(
        "hostile",
        &json!([{"id": "hostile", "steps": [
            {"type": "Walk 5\n", "repeat": 1_000_000, "language": "sprite", "name": "big.anim"},
            {"type": "Idle: 5, _loop\n"},
            {"trace": "--ticks 3"},
        ]}]),
        "",
    );
    let s = steps(&results);
    let expected = animc_diagnostics("big.anim", &"Walk 5\n".repeat(1_000_000));
    assert_eq!(expected.len(), 101);
    assert_eq!(expected[100], "error: 999900 more errors not shown (at most 100 are printed)");
    assert_eq!(strings(&s[0]["diagnostics"]), expected);
    assert_eq!(s[0]["textLength"], 7_000_000);
    assert!(s[0]["time"].as_str().is_some_and(|t| t.starts_with("compiled in ")), "{}", s[0]["time"]);
    // Too long for the link: the page says so rather than writing it.
    assert!(s[0]["stale"].as_str().is_some_and(|t| t.ends_with("(the text is too long to keep in the link)")));
    // The page answers: the next text compiles and plays.
    assert_eq!(s[1]["ok"], true, "{}", s[1]);
    assert_eq!(s[2]["text"].as_str(), Some(animvm_trace("big.anim", "Idle: 5, _loop\n", "--ticks 3").as_str()));
}

#[test]
fn the_scrubber_and_the_command_box_drive_the_player() {
    if !enabled("the_scrubber_and_the_command_box_drive_the_player") {
        return;
    }
    let commands = "echo hello\necho again\n";
    let results = run_playground(
        "controls",
        &json!([{"id": "controls", "steps": [
            {"example": "story.slap"},
            {"scrub": 30},
            {"frame": 30},
            {"pixels": true},
            {"frame": 0},
            {"pixels": true},
            {"example": "spinner.draw"},
            {"output": true},
            {"command": commands},
            {"example": "hero.anim"},
        ]}]),
        "",
    );
    let s = steps(&results);
    // Each language shows its own controls.
    assert_eq!(s[0]["controls"], json!(["scrubRow"]));
    assert_eq!(s[6]["controls"], json!(["commandRow"]));
    assert_eq!(s[9]["controls"], json!(["stateLabel"]));
    // The scrubber shows frame 30: the very pixels of renderFrame(30), not
    // frame 0's.
    assert_eq!(s[1]["frame"], 30);
    assert_eq!(s[1]["pixels"], s[3]["pixels"]);
    assert_ne!(s[1]["pixels"], s[5]["pixels"]);
    // The command box streams as animvm's standard input does.
    let native = tool("animvm", &["-H", "-x", "160", "-y", "120"], &root(), Some(commands));
    assert!(native.status.success(), "{native:?}");
    let expected: Vec<String> = String::from_utf8(native.stdout).expect("UTF-8").lines().map(String::from).collect();
    assert_eq!(expected, ["hello", "again"]);
    assert_eq!(strings(&s[8]["lines"]), expected);
}
