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
//!   others), and the page answers afterwards, with the compile time shown;
//! * each error is underlined in the text (the highlight layer behind the
//!   textarea) at `animc`'s span, the layer holding the textarea's text,
//!   font and scroll;
//! * an example of each language draws `animvm -H`'s frames (within the
//!   tolerance `browser.rs` holds the player to);
//! * hostile texts (deep nesting, huge numbers) give `animc`'s messages
//!   and the page answers afterwards.
//!
//! `playground_bench` (ignored) times keystroke to new frame for each
//! example in real time (BENCHMARKS.md, "The playground").

mod common;

use common::frames::{DELTA, animvm_frames, diff, unmatched, within_tolerance};
use common::{Server, base64_decode, decode_results, dump_dom, enabled, root, run_chromium, target_dir};
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

/// [`run_playground`] in real time (`?hold=1`, no virtual clock) at the
/// page's own canvas size (480x360), for timings.
fn run_playground_real_time(name: &str, checks: &Value) -> Value {
    let server = server();
    let file = format!("/checks-playground-{name}.json");
    server.extra.lock().expect("the server's files").insert(file.clone(), checks.to_string().into_bytes());
    let url = format!("http://127.0.0.1:{}/playground.html?checks={}&hold=1", server.port, &file[1..]);
    decode_results(&dump_dom(&url, "--disable-gpu-vsync"))
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

/// `animc NAME` on `text` saved as `NAME`: the span of each message that
/// has a place in the text and a caret line, as `animc` prints it: its
/// severity, its `-->` line and column and the column one past its carets
/// (the first caret line's, which is the span's first line).
fn animc_spans(name: &str, text: &str) -> Vec<(String, u32, u32, u32)> {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(dir.path().join(name), text).expect("written");
    let out = tool("animc", &[name, "-o", "out.animb"], dir.path(), None);
    let stderr = String::from_utf8(out.stderr).expect("UTF-8");
    // (severity, line and column, caret count)
    let mut list: Vec<(String, Option<(u32, u32)>, Option<u32>)> = Vec::new();
    for line in stderr.lines() {
        if let Some(severity) = ["error", "warning"].into_iter().find(|s| line.starts_with(&format!("{s}: "))) {
            list.push((severity.to_string(), None, None));
            continue;
        }
        let Some(last) = list.last_mut() else { continue };
        let body = line.trim_start();
        if let Some(place) = body.strip_prefix(&format!("--> {name}:"))
            && last.1.is_none()
        {
            let (l, c) = place.split_once(':').expect("LINE:COLUMN");
            last.1 = Some((l.parse().expect("a line"), c.parse().expect("a column")));
        } else if let Some(marks) = body.strip_prefix("| ")
            && last.2.is_none()
        {
            let run = marks.trim_start_matches(' ');
            let carets = run.len() - run.trim_start_matches('^').len();
            if carets > 0 {
                last.2 = Some(carets as u32);
            }
        }
    }
    list.into_iter()
        .filter_map(|(severity, at, carets)| {
            let (line, column) = at?;
            Some((severity, line, column, column + carets?))
        })
        .collect()
}

/// What the page's highlight layer should underline for `animc`'s spans
/// in `text`: each span's text (columns count characters), severity, line,
/// column, end line and end column, as the page reports them.
fn expected_underlines(name: &str, text: &str) -> Vec<Value> {
    let lines: Vec<&str> = text.split('\n').collect();
    animc_spans(name, text)
        .into_iter()
        .map(|(severity, line, column, end)| {
            let chars: Vec<char> = lines[line as usize - 1].chars().collect();
            let span: String = chars[column as usize - 1..end as usize - 1].iter().collect();
            json!({"text": span, "severity": severity, "line": line, "column": column,
                   "endLine": line, "endColumn": end, "eol": false})
        })
        .collect()
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

#[test]
fn errors_are_underlined_at_animc_s_spans() {
    if !enabled("errors_are_underlined_at_animc_s_spans") {
        return;
    }
    let good = hero();
    // Two unknown states: on line 6, and on line 16 (where animc gives two
    // messages for the one span); non-ASCII characters in a comment before
    // them.
    let broken = good
        .replace("Walk: 6|step, 6, 6|step, 6, _loop", "Walk: 6|step, 6, 6|step, 6, Sprint")
        .replace("Hurt: 2|0|hurtSound", "Hurt: 2|0|hurtSound, Limp")
        .replace("# Jumping: take off", "# Jumping (é ✓): take off");
    // Lines long and many enough for the textarea to scroll both ways.
    let long = format!("{broken}# {}\n{}", "wide ".repeat(80), "# more\n".repeat(100));
    let results = run_playground(
        "underline",
        &json!([{"id": "underline", "steps": [
            {"type": long},
            {"layer": true},
            {"scroll": [700, 150]},
            {"edit": "X", "at": 0, "painted": true},
            {"type": good},
        ]}]),
        "",
    );
    let s = steps(&results);
    let mut expected = expected_underlines("hero.anim", &long);
    // The three messages of the list underlined at animc's line, column
    // and end: the two of line 16 have the same span, underlined once.
    assert_eq!(strings(&s[0]["diagnostics"]).len(), 3, "{}", s[0]["diagnostics"]);
    assert_eq!(expected.len(), 3, "{expected:?}");
    expected.dedup();
    assert_eq!(expected.len(), 2, "{expected:?}");
    assert_eq!(s[0]["underlined"], json!(expected));
    assert_eq!(s[0]["underlined"][0]["text"], "Sprint");
    assert_eq!(s[0]["mirrored"], true);
    // The layer lies under the textarea: the same origin and the style
    // that places characters.
    assert_eq!(s[1]["styleDiffers"], json!([]), "{}", s[1]);
    let origin = s[1]["origin"].as_array().expect("the boxes' corners");
    assert_eq!((&origin[0], &origin[1]), (&origin[2], &origin[3]), "{}", s[1]);
    // Scrolled with it, both ways.
    assert_eq!(s[2]["scroll"], json!([700, 150, 700, 150]), "{}", s[2]);
    // On input the layer follows the text before the next frame is painted
    // (before the debounced compile: the marks stay at their places).
    assert_eq!(s[3]["mirrored"], true);
    assert!(s[3]["text"].as_str().is_some_and(|t| t.starts_with("X# hero.anim")), "{}", s[3]["text"]);
    // The fix clears them.
    assert_eq!((&s[4]["ok"], &s[4]["underlined"], &s[4]["mirrored"]), (&json!(true), &json!([]), &json!(true)));
}

#[test]
fn each_language_s_example_draws_animvm_s_frames() {
    if !enabled("each_language_s_example_draws_animvm_s_frames") {
        return;
    }
    const W: u32 = 160;
    const H: u32 = 120;
    // (example, language, frames): one of each language.
    let cases: [(&str, &str, &[u64]); 3] = [
        ("hero.anim", "sprite", &[0, 7, 30, 59]),
        ("story.slap", "slap", &[0, 30, 90]),
        ("spinner.draw", "animator", &[0, 5, 35]),
    ];
    let mut s = Vec::new();
    for (file, _, frames) in cases {
        s.push(json!({"example": file}));
        for f in frames {
            s.push(json!({"frame": f}));
            s.push(json!({"pixels": true}));
        }
    }
    let results = run_playground("frames", &json!([{"id": "frames", "steps": s}]), "");
    let s = steps(&results);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let animvm = target_dir().join("debug/animvm");
    let mut at = 0;
    let mut report = String::new();
    let mut drawn = Vec::new();
    for (file, language, frames) in cases {
        assert_eq!((&s[at]["ok"], &s[at]["diagnostics"]), (&json!(true), &json!([])), "{file}: {}", s[at]);
        // animvm compiles the example's source itself.
        let natives = animvm_frames(&animvm, &root().join("examples").join(file), language, frames, (W, H), dir.path());
        for (k, (f, native)) in frames.iter().zip(natives).enumerate() {
            let (frame, px) = (&s[at + 1 + 2 * k], &s[at + 2 + 2 * k]);
            assert_eq!((&frame["error"], &frame["frame"]), (&Value::Null, &json!(f)), "{file} frame {f}: {frame}");
            assert_eq!((px["width"].as_u64(), px["height"].as_u64()), (Some(W.into()), Some(H.into())));
            let web = base64_decode(px["pixels"].as_str().expect("the pixels"));
            common::frames::dump(&format!("playground-{file}-{f}"), &native, &web);
            let (n, max) = diff(&native, &web);
            let (bad, ok) = within_tolerance(&native.data, &web, W, H);
            report.push_str(&format!(
                "{file} frame {f}: {n} pixels differ, by at most {max}; {bad} match nothing within {DELTA}\n"
            ));
            if language == "sprite" {
                // As browser.rs holds the player: the same cell and
                // overlay, glyph edges rounded at most 1 apart.
                assert!(max <= 1 && n * 100 <= (W * H) as usize && bad == 0, "{report}");
            } else {
                assert!(ok, "{report}");
            }
            drawn.push((file, *f, native, web));
        }
        at += 1 + 2 * frames.len();
    }
    eprintln!("{report}");
    // The comparison can fail: hero frames 0 and 59, story 0 and 90, spinner 0 and 5.
    for (a, b) in [(0, 3), (4, 6), (7, 8)] {
        let bad = unmatched(&drawn[a].2.data, &drawn[b].3, W, H);
        assert!(
            !within_tolerance(&drawn[a].2.data, &drawn[b].3, W, H).1,
            "{} {} vs {}: {bad}",
            drawn[a].0,
            drawn[a].1,
            drawn[b].1
        );
    }
}

#[test]
fn hostile_texts_give_animc_s_messages_and_the_page_answers() {
    if !enabled("hostile_texts_give_animc_s_messages_and_the_page_answers") {
        return;
    }
    // As web/src/compile_tests.rs holds `compile` to animc natively: deep
    // nesting and numbers of 10^6 digits, one of each language; after each
    // a good text of the same language compiles and plays.
    let cases = [
        ("deep.slap", "slap", format!("time 0\nactor 1 size {}1{}\n", "(".repeat(100_000), ")".repeat(100_000))),
        ("huge.draw", "animator", format!("line 0 0 {} 1\n", "9".repeat(1_000_000))),
        ("huge.anim", "sprite", format!("Walk: {}, _loop\n", "9".repeat(1_000_000))),
    ];
    let good = ["time 0\nactor 1 size 2\ntime 10\n", "echo fine\nflush\n", "Idle: 5, _loop\n"];
    let mut s = Vec::new();
    for ((name, language, text), fixed) in cases.iter().zip(good) {
        s.push(json!({"type": text, "language": language, "name": name}));
        s.push(json!({"type": fixed}));
        s.push(json!({"output": true}));
    }
    s.push(json!({"trace": "--ticks 3"}));
    let results = run_playground("hostile-texts", &json!([{"id": "hostile", "steps": s}]), "");
    let s = steps(&results);
    for (i, (name, _, text)) in cases.iter().enumerate() {
        let (bad, next) = (&s[3 * i], &s[3 * i + 1]);
        // animc's messages, lines and columns, and each underlined at its span.
        let expected = animc_diagnostics(name, text);
        assert!(!expected.is_empty() && expected.len() <= 101, "{name}: {expected:?}");
        assert_eq!(strings(&bad["diagnostics"]), expected, "{name}");
        assert_eq!(bad["ok"], false, "{name}");
        assert!(bad["time"].as_str().is_some_and(|t| t.starts_with("compiled in ")), "{name}: {}", bad["time"]);
        let underlined: Vec<(u64, u64)> = bad["underlined"]
            .as_array()
            .expect("the underlined spans")
            .iter()
            .map(|u| (u["line"].as_u64().expect("a line"), u["column"].as_u64().expect("a column")))
            .collect();
        let spans: Vec<(u64, u64)> =
            animc_spans(name, text).iter().map(|(_, l, c, _)| (u64::from(*l), u64::from(*c))).collect();
        assert!(!spans.is_empty(), "{name}: animc marks no span");
        assert_eq!(underlined, spans, "{name}");
        // The page answers: the next text compiles and plays.
        assert_eq!((&next["ok"], &next["diagnostics"]), (&json!(true), &json!([])), "after {name}: {next}");
    }
    // The Animator text ran (its echo), and the last, a sprite, traces as animvm's.
    assert_eq!(strings(&s[5]["lines"]), ["fine"]);
    assert_eq!(s[9]["text"].as_str(), Some(animvm_trace("huge.anim", good[2], "--ticks 3").as_str()));
}

/// The median of `v`.
fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 }
}

/// Keystroke to new frame for each example, printed (BENCHMARKS.md, "The
/// playground"): the page in real time (no virtual clock), 21 keystrokes
/// per example typed through the textarea's own input path, each timed
/// from its `input` event to the first animation frame after the rebuild
/// it set off (the 250 ms debounce, the compile, the load and its frame 0);
/// the medians, and of the compile and load alone. Run with
/// `ANIMKIT_WEB_TESTS=1 cargo test -p animkit-web --test playground
/// playground_bench -- --ignored --nocapture` (the page's wasm is
/// `web/build.sh --playground`'s whatever this process's profile).
#[test]
#[ignore]
fn playground_bench() {
    if !enabled("playground_bench") {
        return;
    }
    const N: usize = 21;
    // The page built (sources/ and its list written).
    let _ = server();
    let list: Vec<String> = serde_json::from_str(
        &std::fs::read_to_string(root().join("web/www/sources/index.json")).expect("sources/index.json"),
    )
    .expect("a list of names");
    let mut s = Vec::new();
    for file in &list {
        s.push(json!({"example": file}));
        s.push(json!({"keystrokes": N}));
    }
    let results = run_playground_real_time("bench", &json!([{"id": "bench", "steps": s}]));
    let s = steps(&results);
    eprintln!("playground keystroke to new frame, median of {N} (480x360 canvas; debounce 250 ms included)");
    for (i, file) in list.iter().enumerate() {
        let r = &s[2 * i + 1];
        assert_eq!(r["error"], Value::Null, "{file}: {r}");
        let get = |key: &str| -> Vec<f64> {
            r[key].as_array().expect("times").iter().map(|t| t.as_f64().expect("a time")).collect()
        };
        let (total, compile, load) = (get("total"), get("compileMs"), get("loadMs"));
        assert_eq!(total.len(), N);
        eprintln!(
            "playground_keystroke_ms {file} {:.1} (compile {:.2}, load and frame 0 {:.2}; min {:.1}, max {:.1})",
            median(&total),
            median(&compile),
            median(&load),
            total.iter().copied().fold(f64::INFINITY, f64::min),
            total.iter().copied().fold(0.0, f64::max),
        );
    }
}
