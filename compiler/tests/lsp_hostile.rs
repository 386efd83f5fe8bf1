//! A hostile client: malformed JSON, a huge Content-Length, a message
//! whose length lies, noise between messages, requests before initialize,
//! for unknown files and at impossible positions, edits with bad ranges.
//! Each gets an error; the server never crashes and keeps serving.

use crate::lsp_support;

use lsp_support::{Client, range};
use serde_json::{Value, json};

const ANIM: &str = "file:///w/hero.anim";

/// The server still answers: a hover on a known document.
fn alive(c: &mut Client) {
    let r = c.at("textDocument/hover", ANIM, 0, 1, json!({}));
    assert_eq!(r["result"]["contents"]["value"], "state `Walk`: 1 frame, 5 ticks in all, then `_loop`", "{r}");
}

fn parse_error(c: &mut Client) -> Value {
    c.wait(|v| v["error"]["code"] == -32700 && v["id"].is_null())
}

#[test]
fn requests_before_initialize_are_refused() {
    let mut c = Client::spawn();
    let r = c.request("textDocument/hover", json!({}));
    assert_eq!(r["error"]["code"], -32002, "{r}");
    let r = c.request("initialize", json!({ "capabilities": {} }));
    assert!(r["result"]["capabilities"].is_object());
    let r = c.request("initialize", json!({ "capabilities": {} }));
    assert_eq!(r["error"]["message"], "initialize was already received");
    assert_eq!(c.finish(), 0);
}

#[test]
fn malformed_frames_get_parse_errors_and_the_server_keeps_serving() {
    let mut c = Client::start();
    c.open(ANIM, "Walk: 5, _loop\n");
    alive(&mut c);

    // Not JSON.
    c.raw(b"Content-Length: 9\r\n\r\n{not json");
    let e = parse_error(&mut c);
    assert!(e["error"]["message"].as_str().unwrap().starts_with("not a JSON-RPC message: "), "{e}");
    alive(&mut c);

    // JSON, but not a JSON-RPC message.
    c.raw(b"Content-Length: 7\r\n\r\n[1,2,3]");
    parse_error(&mut c);
    alive(&mut c);

    // A huge Content-Length is refused without being read.
    c.raw(b"Content-Length: 99999999999999999\r\n\r\n{}");
    let e = parse_error(&mut c);
    assert_eq!(e["error"]["message"], "Content-Length 99999999999999999 is over the limit of 67108864 bytes");
    alive(&mut c);
    // Its body was noise before the next header.
    assert_eq!(parse_error(&mut c)["error"]["message"], "skipped 2 bytes that are not a message");
    c.raw(b"Content-Length: banana\r\n\r\n");
    assert_eq!(parse_error(&mut c)["error"]["message"], "bad Content-Length `banana`");
    alive(&mut c);

    // A length that lies short: the body is cut, the rest is noise up to
    // the next header.
    let body = json!({ "jsonrpc": "2.0", "id": 99, "method": "shutdown" }).to_string();
    c.raw(format!("Content-Length: {}\r\n\r\n{body}", body.len() - 10).as_bytes());
    parse_error(&mut c);
    alive(&mut c);
    let e = parse_error(&mut c);
    assert_eq!(e["error"]["message"], "skipped 10 bytes that are not a message");

    // Noise between messages.
    c.raw(b"hello\r\nthere\r\n");
    alive(&mut c);
    assert_eq!(parse_error(&mut c)["error"]["message"], "skipped 14 bytes that are not a message");

    // A length that lies long swallows the next message, not the server.
    c.raw(b"Content-Length: 40\r\n\r\n{\"jsonrpc\":\"2.0\"}");
    c.send(&json!({ "jsonrpc": "2.0", "method": "$/nothing" }));
    parse_error(&mut c);
    alive(&mut c);
    assert_eq!(c.finish(), 0);
}

#[test]
fn unknown_files_bad_positions_and_bad_edits_get_errors() {
    let mut c = Client::start();
    c.open(ANIM, "Walk: 5, _loop\n");
    assert_eq!(c.diagnostics(ANIM, 1), json!([]));

    let r = c.at("textDocument/hover", "file:///w/nope.anim", 0, 0, json!({}));
    assert_eq!(
        r["error"],
        json!({ "code": -32602, "message": "unknown document `file:///w/nope.anim`: open it first" })
    );
    let r = c.at("textDocument/definition", ANIM, 7, 0, json!({}));
    assert_eq!(r["error"]["message"], format!("position 7:0 is past the end of `{ANIM}`"));
    // A character past the end of its line means the line's end.
    let r = c.at("textDocument/completion", ANIM, 0, 500, json!({}));
    assert!(r["result"].is_array(), "{r}");
    let r = c.request("textDocument/hover", json!({ "textDocument": 5 }));
    assert_eq!(r["error"]["code"], -32602, "{r}");
    assert!(r["error"]["message"].as_str().unwrap().starts_with("bad parameters: "), "{r}");
    let r = c.request("textDocument/frobnicate", json!({}));
    assert_eq!(r["error"], json!({ "code": -32601, "message": "unknown method `textDocument/frobnicate`" }));
    let r = c.at("textDocument/rename", ANIM, 0, 6, json!({ "newName": "x" }));
    assert_eq!(r["error"]["message"], "no state, alias, macro, define or actor here to rename");

    // A change outside the text is refused whole and said so.
    c.change(
        ANIM,
        2,
        json!([{ "range": range(0, 0, 0, 1), "text": "X" }, { "range": range(9, 0, 9, 1), "text": "!" }]),
    );
    let m = c.wait(|v| v["method"] == "window/showMessage");
    assert_eq!(
        m["params"],
        json!({ "type": 1, "message": "textDocument/didChange: change 1: start past the last line (range 9:0-9:1, document has 2 lines)" })
    );
    c.change(ANIM, 2, json!([{ "range": range(0, 4, 0, 2), "text": "" }]));
    let m = c.wait(|v| v["method"] == "window/showMessage");
    assert!(m["params"]["message"].as_str().unwrap().contains("end before start"), "{m}");
    c.change("file:///w/nope.anim", 2, json!([{ "text": "" }]));
    let m = c.wait(|v| v["method"] == "window/showMessage");
    assert!(m["params"]["message"].as_str().unwrap().contains("unknown document"), "{m}");
    c.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": "file:///w/x.txt", "languageId": "text", "version": 1, "text": "" } }),
    );
    let m = c.wait(|v| v["method"] == "window/showMessage");
    assert!(m["params"]["message"].as_str().unwrap().contains("not a .anim, .draw or .slap document"), "{m}");
    // The document is as it was.
    alive(&mut c);
    assert_eq!(c.finish(), 0);
}

#[test]
fn a_closed_input_ends_the_server_and_exit_without_shutdown_is_status_1() {
    let mut c = Client::start();
    c.notify("exit", Value::Null);
    assert_eq!(c.wait_exit(), 1);
    let mut c = Client::start();
    c.raw(b"Content-Length: 5\r\n\r\n{");
    c.close_input();
    assert_eq!(c.wait_exit(), 1);
}

/// Issue 41 §5: a document over the server's size limit (16 MiB) is
/// refused (60 MB aborted the server at 1.8 GB): said in a message, its
/// diagnostics cleared, every request on it an error, and the other
/// documents served as before; an edit past the limit refuses it too, and
/// opening it again smaller serves it.
#[test]
fn a_document_over_the_size_limit_is_refused_and_the_others_are_served() {
    const BIG: &str = "file:///w/big.anim";
    let refusal = |bytes: usize| {
        format!(
            "`{BIG}` is {bytes} bytes, more than the 16777216 bytes (16 MiB) animc lsp serves: it is not checked, \
             and requests on it are refused (`animc --check` takes files up to 64 MiB)"
        )
    };
    let mut c = Client::start();
    c.open(ANIM, "Walk: 5, _loop\n");
    assert_eq!(c.diagnostics(ANIM, 1), json!([]));
    let line = "A: 1|2|ev, 2, _loop\n";
    let text = line.repeat((16 << 20) / line.len() + 1);
    assert_eq!(text.len(), 16_777_220);
    c.open(BIG, &text);
    let m = c.wait(|v| v["method"] == "window/showMessage");
    assert_eq!(m["params"], json!({ "type": 1, "message": format!("textDocument/didOpen: {}", refusal(text.len())) }));
    let d = c.wait(|v| v["method"] == "textDocument/publishDiagnostics" && v["params"]["uri"] == BIG);
    assert_eq!(d["params"]["diagnostics"], json!([]));
    for method in ["textDocument/hover", "textDocument/completion", "textDocument/definition"] {
        let r = c.at(method, BIG, 5, 0, json!({}));
        assert_eq!(r["error"], json!({ "code": -32602, "message": refusal(text.len()) }), "{method}");
    }
    let r = c.request(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": BIG }, "options": { "tabSize": 4, "insertSpaces": true } }),
    );
    assert_eq!(r["error"]["message"], refusal(text.len()));
    c.change(BIG, 2, json!([{ "text": "B: 1, _loop\n" }]));
    let m = c.wait(|v| v["method"] == "window/showMessage");
    assert_eq!(m["params"]["message"], format!("textDocument/didChange: {}", refusal(text.len())));
    // The other document: hover and fresh diagnostics.
    alive(&mut c);
    c.change(ANIM, 2, json!([{ "text": "Walk: 5, Run\n" }]));
    let d = c.diagnostics(ANIM, 2);
    assert_eq!(
        d[0]["message"],
        "unknown state `Run`\nno state with this name\nnote: an events-only frame is `_loop`, `_wait`, `_pingpong` or the name of a state",
        "{d}"
    );

    // Opened again under the limit: served; an edit past it: refused.
    c.open(BIG, "B: 1, _loop\n");
    assert_eq!(c.diagnostics(BIG, 1), json!([]));
    let r = c.at("textDocument/hover", BIG, 0, 0, json!({}));
    assert_eq!(r["result"]["contents"]["value"], "state `B`: 1 frame, 1 tick in all, then `_loop`", "{r}");
    c.change(BIG, 2, json!([{ "range": range(1, 0, 1, 0), "text": text }]));
    let m = c.wait(|v| v["method"] == "window/showMessage");
    assert_eq!(m["params"]["message"], format!("textDocument/didChange: {}", refusal(text.len() + 12)));
    let r = c.at("textDocument/hover", BIG, 0, 0, json!({}));
    assert_eq!(r["error"]["message"], refusal(text.len() + 12));
    c.notify("textDocument/didClose", json!({ "textDocument": { "uri": BIG } }));
    let r = c.at("textDocument/hover", BIG, 0, 0, json!({}));
    assert_eq!(r["error"]["message"], format!("unknown document `{BIG}`: open it first"));
    let r = c.at("textDocument/hover", ANIM, 0, 1, json!({}));
    assert_eq!(r["result"]["contents"]["value"], "state `Walk`: 1 frame, 5 ticks in all, then `Run`", "{r}");
    assert_eq!(c.finish(), 0);
}

/// A document of many errors publishes 100 of them and one counting the
/// rest (before: every one, 150 MB of JSON for 8 MB of duplicate states);
/// hover on a large valid document reads it without a tree.
#[test]
fn many_errors_publish_a_bounded_list_and_hover_reads_a_large_document() {
    let mut c = Client::start();
    let text = "A: 1|2|ev, 2, _loop\n".repeat(50_000);
    c.open(ANIM, &text);
    let d = c.diagnostics(ANIM, 1);
    let d = d.as_array().unwrap();
    assert_eq!(d.len(), 101);
    assert_eq!(d[0]["message"], "state `A` is defined twice\ndefined again here", "{}", d[0]);
    assert_eq!(
        d[100],
        json!({
            "range": range(101, 0, 101, 0),
            "severity": 3,
            "source": "animc",
            "message": "49899 more diagnostics not shown (the first 100 are; `animc --check` lists them)"
        })
    );
    let r = c.at("textDocument/hover", ANIM, 40_000, 0, json!({}));
    assert_eq!(r["result"]["contents"]["value"], "state `A`: 2 frames, 3 ticks in all, then `_loop`", "{r}");
    // An alias names 20 of its states and counts the others.
    let text: String = (0..1000).map(|k| format!("S{k}[Hero]: 1, _loop\n")).collect();
    c.change(ANIM, 2, json!([{ "text": text }]));
    assert_eq!(c.diagnostics(ANIM, 2), json!([]));
    let r = c.at("textDocument/hover", ANIM, 3, 4, json!({}));
    let listed: Vec<String> = (0..20).map(|k| format!("`S{k}`")).collect();
    assert_eq!(
        r["result"]["contents"]["value"],
        format!("alias `Hero`: the sprite category of {} and 980 more", listed.join(", ")),
        "{r}"
    );
    assert_eq!(c.finish(), 0);
}
