//! `animc lsp` driven as an editor drives it: the process spawned, JSON-RPC
//! over its pipes, exact diagnostics, edits, locations and hover texts for
//! the three languages.

use crate::lsp_support;

use lsp_support::{Client, range};
use serde_json::{Value, json};

const ANIM: &str = "file:///w/hero.anim";
const DRAW: &str = "file:///w/scene.draw";
const SLAP: &str = "file:///w/scene.slap";

#[test]
fn sprite_diagnostics_follow_open_and_incremental_changes() {
    let mut c = Client::start();
    c.open(ANIM, "Walk: 5, 5, Idel\nRun: 3|x, 2, _loop\n");
    assert_eq!(
        c.diagnostics(ANIM, 1),
        json!([{
            "range": range(0, 12, 0, 16),
            "severity": 1,
            "source": "animc",
            "message": "unknown state `Idel`\nno state with this name\nnote: an events-only frame is `_loop`, `_wait`, `_pingpong` or the name of a state",
        }])
    );
    // Idel -> Run, typed as two edits in one change.
    c.change(
        ANIM,
        2,
        json!([{ "range": range(0, 12, 0, 16), "text": "Ru" }, { "range": range(0, 14, 0, 14), "text": "n" }]),
    );
    assert_eq!(c.diagnostics(ANIM, 2), json!([]));
    assert_eq!(c.finish(), 0);
}

#[test]
fn animator_diagnostics_carry_related_notes_and_slap_warnings_are_warnings() {
    let mut c = Client::start();
    c.open(DRAW, "macro m\nline 0 0 1\nendmacro\ninvoke m\n");
    let d = c.diagnostics(DRAW, 1);
    assert_eq!(d.as_array().unwrap().len(), 2, "{d}");
    assert_eq!(
        d[0],
        json!({
            "range": range(0, 0, 0, 7),
            "severity": 1,
            "source": "animc",
            "message": "macro `m` has an empty body\nnothing between here and `endmacro`\nhelp: to make sure a macro exists without changing it, use `macro push NAME` followed by `endmacro`",
            "relatedInformation": [{ "location": { "uri": DRAW, "range": range(2, 0, 2, 8) }, "message": "ends here" }],
        })
    );
    assert_eq!(d[1]["range"], range(1, 0, 1, 10));
    assert_eq!(d[1]["message"], "`line` takes 4 numbers, x1 y1 x2 y2; found 3\nmissing a number");

    c.open(SLAP, "define idle 0\ntime 10\nactor 1 action idle\ntime 5\n");
    let d = c.diagnostics(SLAP, 1);
    assert_eq!(
        d,
        json!([{
            "range": range(3, 5, 3, 6),
            "severity": 2,
            "source": "animc",
            "message": "time 5 is earlier than the current time 10\ngoes back in time\nnote: the timeline is ordered by frame: the commands below run at frame 5, before those of later frames",
            "relatedInformation": [{ "location": { "uri": SLAP, "range": range(1, 0, 1, 7) }, "message": "the time was 10 here" }],
        }])
    );
    // A full-text change (no range) is accepted too.
    c.change(SLAP, 2, json!([{ "text": "actor 1 size zz\n" }]));
    let d = c.diagnostics(SLAP, 2);
    assert_eq!(d[0]["range"], range(0, 13, 0, 15));
    assert_eq!(d[0]["message"], "undefined name `zz`\nnot defined");
    // Closing clears the document's diagnostics.
    c.notify("textDocument/didClose", json!({ "textDocument": { "uri": SLAP } }));
    let cleared = c.wait(|v| v["method"] == "textDocument/publishDiagnostics" && v["params"]["uri"] == SLAP);
    assert_eq!(cleared["params"]["diagnostics"], json!([]));
    assert_eq!(c.finish(), 0);
}

fn format(c: &mut Client, uri: &str) -> Value {
    c.request(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": uri }, "options": { "tabSize": 4, "insertSpaces": true } }),
    )
}

#[test]
fn formatting_is_animc_fmt_as_one_edit() {
    let mut c = Client::start();
    let cases = [
        (ANIM, "Walk:5,5|x,  _loop\n"),
        (DRAW, "line   0 0 1 1\n  color red\n"),
        (SLAP, "time   0\nactor 1   size .9  # big\n"),
    ];
    for (uri, text) in cases {
        c.open(uri, text);
        let ext = uri.rsplit('.').next().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(format!("x.{ext}"));
        std::fs::write(&path, text).unwrap();
        let fmt = std::process::Command::new(env!("CARGO_BIN_EXE_animc")).arg("--fmt").arg(&path).output().unwrap();
        let expected = String::from_utf8(fmt.stdout).unwrap();
        assert_ne!(expected, text);
        let lines = text.lines().count() as u32;
        assert_eq!(
            format(&mut c, uri)["result"],
            json!([{ "range": range(0, 0, lines, 0), "newText": expected }]),
            "{uri}"
        );
        // Formatted: no edits.
        c.change(uri, 2, json!([{ "text": expected }]));
        assert_eq!(format(&mut c, uri)["result"], json!([]), "{uri}");
    }
    c.change(ANIM, 3, json!([{ "text": "Walk: 5,,\n" }]));
    let r = format(&mut c, ANIM);
    assert_eq!(r["error"]["code"], -32803, "{r}");
    assert!(r["error"]["message"].as_str().unwrap().starts_with("cannot format: 1 syntax error: 1:"), "{r}");
    assert_eq!(c.finish(), 0);
}

fn loc(uri: &str, l: u32, c0: u32, c1: u32) -> Value {
    json!({ "uri": uri, "range": range(l, c0, l, c1) })
}

#[test]
fn definition_references_and_rename_of_states_aliases_macros_defines_and_actors() {
    let mut c = Client::start();
    c.open(ANIM, "Walk[Hero]: 5, Run\nRun[Hero]: 5, Walk\n");
    let def = c.at("textDocument/definition", ANIM, 0, 16, json!({}));
    assert_eq!(def["result"], loc(ANIM, 1, 0, 3));
    let refs = c.at("textDocument/references", ANIM, 1, 1, json!({ "context": { "includeDeclaration": true } }));
    assert_eq!(refs["result"], json!([loc(ANIM, 0, 15, 18), loc(ANIM, 1, 0, 3)]));
    let refs = c.at("textDocument/references", ANIM, 1, 5, json!({ "context": { "includeDeclaration": false } }));
    assert_eq!(refs["result"], json!([loc(ANIM, 1, 4, 8)]));
    let r = c.at("textDocument/rename", ANIM, 0, 1, json!({ "newName": "Stroll" }));
    let edit = |l: u32, c0: u32, c1: u32, t: &str| json!({ "range": range(l, c0, l, c1), "newText": t });
    assert_eq!(r["result"]["changes"][ANIM], json!([edit(0, 0, 4, "Stroll"), edit(1, 14, 18, "Stroll")]));
    let r = c.at("textDocument/rename", ANIM, 0, 1, json!({ "newName": "Run" }));
    assert_eq!(r["error"]["message"], "there is already a state named `Run`");
    let r = c.at("textDocument/rename", ANIM, 0, 1, json!({ "newName": "9 lives" }));
    assert_eq!(r["error"]["message"], "`9 lives` cannot name a state");

    c.open(DRAW, "macro \"box\"\nrect 0 0 1 1\nendmacro\ninvoke box\ninvoke 1 2 box\nviewport box\n");
    assert_eq!(c.at("textDocument/definition", DRAW, 4, 12, json!({}))["result"], loc(DRAW, 0, 7, 10));
    let r = c.at("textDocument/rename", DRAW, 3, 8, json!({ "newName": "frame1" }));
    assert_eq!(
        r["result"]["changes"][DRAW],
        json!([
            edit(0, 7, 10, "frame1"),
            edit(3, 7, 10, "frame1"),
            edit(4, 11, 14, "frame1"),
            edit(5, 9, 12, "frame1")
        ])
    );

    c.open(
        SLAP,
        "define walk 2\ndefine hero 1\ntime 0\nactor hero action walk\nactor 2 size 1\ntime +5\nactor 2 action walk\n",
    );
    assert_eq!(c.at("textDocument/definition", SLAP, 6, 16, json!({}))["result"], loc(SLAP, 0, 7, 11));
    let refs = c.at("textDocument/references", SLAP, 0, 8, json!({ "context": { "includeDeclaration": false } }));
    assert_eq!(refs["result"], json!([loc(SLAP, 3, 18, 22), loc(SLAP, 6, 15, 19)]));
    let refs = c.at("textDocument/references", SLAP, 6, 6, json!({ "context": { "includeDeclaration": true } }));
    assert_eq!(refs["result"], json!([loc(SLAP, 4, 6, 7), loc(SLAP, 6, 6, 7)]));
    assert_eq!(c.at("textDocument/definition", SLAP, 6, 6, json!({}))["result"], loc(SLAP, 4, 6, 7));
    let r = c.at("textDocument/rename", SLAP, 6, 6, json!({ "newName": "3" }));
    assert_eq!(r["result"]["changes"][SLAP], json!([edit(4, 6, 7, "3"), edit(6, 6, 7, "3")]));
    let r = c.at("textDocument/rename", SLAP, 3, 7, json!({ "newName": "polly" }));
    assert_eq!(r["result"]["changes"][SLAP], json!([edit(1, 7, 11, "polly"), edit(3, 6, 10, "polly")]));
    // Off any name: nothing to go to.
    assert_eq!(c.at("textDocument/definition", SLAP, 2, 1, json!({}))["result"], Value::Null);
    assert_eq!(c.finish(), 0);
}

fn hover(c: &mut Client, uri: &str, l: u32, ch: u32) -> Value {
    c.at("textDocument/hover", uri, l, ch, json!({}))["result"]["contents"]["value"].clone()
}

#[test]
fn hover_tells_frames_signatures_values_and_actions() {
    let mut c = Client::start();
    c.open(ANIM, "Walk: 5, 5|2|step, 3, Run\nRun: 1, _loop\n");
    assert_eq!(hover(&mut c, ANIM, 0, 2), "state `Walk`: 3 frames, 13 ticks in all, then `Run`");
    assert_eq!(hover(&mut c, ANIM, 0, 23), "state `Run`: 1 frame, 1 tick in all, then `_loop`");
    c.open(DRAW, "line 0 0 1 1\ninvoke 1 2 m\n");
    assert_eq!(hover(&mut c, DRAW, 0, 1), "```animator\nline N N N N\n```\n`line` takes 4 numbers, x1 y1 x2 y2");
    let inv = hover(&mut c, DRAW, 1, 2);
    assert!(
        inv.as_str()
            .unwrap()
            .starts_with("```animator\ninvoke N N <a macro name>\ninvoke <a macro name>\n```\n`invoke` takes "),
        "{inv}"
    );
    c.open(SLAP, "define red 1 0 0 # warm\ndefine run 10\ntime 0\nactor 1 color red\nactor 1 action run\nactor 1 action swagger\n");
    assert_eq!(hover(&mut c, SLAP, 3, 15), "```slap\ndefine red 1 0 0\n```");
    assert_eq!(
        hover(&mut c, SLAP, 4, 16),
        "```slap\ndefine run 10\n```\naction `sprint` (10): speed 0.125 per frame, a cycle of 14 frames"
    );
    assert_eq!(hover(&mut c, SLAP, 5, 17), "action `swagger` (2): speed 0.03125 per frame, a cycle of 32 frames");
    assert_eq!(
        hover(&mut c, SLAP, 2, 1),
        "```slap\ntime T | time +T\n```\nthe frame the following commands happen at (absolute, or after the last)"
    );
    assert_eq!(c.finish(), 0);
}

fn labels(r: &Value) -> Vec<String> {
    r["result"].as_array().unwrap().iter().map(|i| i["label"].as_str().unwrap().to_owned()).collect()
}

#[test]
fn completion_offers_states_commands_flags_defines_and_actions() {
    let mut c = Client::start();
    c.open(ANIM, "Walk: 5, \nRun: 1, _loop\n");
    let r = c.at("textDocument/completion", ANIM, 0, 9, json!({}));
    assert_eq!(labels(&r), ["Walk", "Run", "_loop", "_wait", "_pingpong"]);
    assert!(labels(&c.at("textDocument/completion", ANIM, 0, 8, json!({}))).contains(&"Run".to_owned()));

    c.open(DRAW, "macro m\nline 0 0 1 1\nendmacro\n\ninvoke \nkeepalive \n");
    let r = c.at("textDocument/completion", DRAW, 3, 0, json!({}));
    let all = labels(&r);
    assert_eq!(all.len(), 53);
    assert!(all.contains(&"fillcircle".to_owned()) && all.contains(&"endmacro".to_owned()));
    let line = r["result"].as_array().unwrap().iter().find(|i| i["label"] == "line").unwrap().clone();
    assert_eq!(line["detail"], "line N N N N");
    assert_eq!(labels(&c.at("textDocument/completion", DRAW, 4, 7, json!({}))), ["m"]);
    assert_eq!(labels(&c.at("textDocument/completion", DRAW, 5, 10, json!({}))), ["on", "off"]);

    c.open(SLAP, "define big 2\n\nactor 1 \nactor 1 action \nactor 1 size b\n");
    assert_eq!(
        labels(&c.at("textDocument/completion", SLAP, 1, 0, json!({}))),
        ["define", "time", "timep", "actor", "camera"]
    );
    assert_eq!(
        labels(&c.at("textDocument/completion", SLAP, 2, 8, json!({}))),
        ["action", "direction", "position", "color", "size"]
    );
    let actions = labels(&c.at("textDocument/completion", SLAP, 3, 15, json!({})));
    assert_eq!(
        actions,
        [
            "idle",
            "scamper",
            "swagger",
            "broadjump",
            "prowl",
            "lumber",
            "dejected",
            "no",
            "yes",
            "hotfeet",
            "sprint",
            "hop",
            "big"
        ]
    );
    assert_eq!(labels(&c.at("textDocument/completion", SLAP, 4, 14, json!({}))), ["big"]);
    assert_eq!(c.finish(), 0);
}

#[test]
fn slap_includes_are_read_beside_the_document_and_their_errors_shown_on_the_include_line() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().to_str().unwrap().to_owned();
    std::fs::write(dir.path().join("lib.slap"), "define red 1 0 0\nactor 1 size zz\n").unwrap();
    let main = &format!("file://{base}/main.slap");
    let mut c = Client::start();
    // A define from the included file is known; an error inside it is
    // shown on the document's `include` line, pointing into the file.
    c.open(main, "include <polly>\ninclude \"lib.slap\"\nactor 1 color red\n");
    let d = c.diagnostics(main, 1);
    assert_eq!(
        d,
        json!([{
            "range": range(1, 0, 1, 18),
            "severity": 1,
            "source": "animc",
            "message": format!("undefined name `zz`\nnot defined\nnote: in `{base}/lib.slap`, included from {base}/main.slap:2:1"),
            "relatedInformation": [{
                "location": { "uri": format!("file://{base}/lib.slap"), "range": range(1, 13, 1, 15) },
                "message": "not defined",
            }],
        }])
    );
    // Without the include, `red` is unknown in the document itself.
    c.change(main, 2, json!([{ "text": "actor 1 color red\n" }]));
    let d = c.diagnostics(main, 2);
    assert_eq!(d[0]["range"], range(0, 14, 0, 17));
    assert_eq!(c.finish(), 0);
}
