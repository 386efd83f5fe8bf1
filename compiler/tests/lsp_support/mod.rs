//! An editor's side of the exchange: `animc lsp` spawned as a process,
//! JSON-RPC with Content-Length framing over its pipes.
#![allow(dead_code)]

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

pub struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Value>,
    next_id: i64,
    /// Messages read while waiting for another one.
    pub backlog: Vec<Value>,
}

fn read_frame(r: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Content-Length: ") {
            length = v.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    r.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

/// Long enough for a debug build to check a 10 MB document several times.
pub const TIMEOUT: Duration = Duration::from_secs(120);

impl Client {
    /// Spawns `animc lsp` and initializes it.
    pub fn start() -> Client {
        let mut c = Client::spawn();
        let caps = c.request("initialize", json!({ "capabilities": {} }));
        assert_eq!(caps["result"]["capabilities"]["textDocumentSync"]["change"], 2, "{caps}");
        c.notify("initialized", json!({}));
        c
    }

    /// Spawns `animc lsp` without initializing it.
    pub fn spawn() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_animc"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn animc lsp");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            while let Some(v) = read_frame(&mut r) {
                if tx.send(v).is_err() {
                    return;
                }
            }
        });
        let stdin = child.stdin.take();
        Client { child, stdin, rx, next_id: 0, backlog: Vec::new() }
    }

    /// Writes raw bytes to the server.
    pub fn raw(&mut self, bytes: &[u8]) {
        let w = self.stdin.as_mut().unwrap();
        w.write_all(bytes).unwrap();
        w.flush().unwrap();
    }

    pub fn send(&mut self, v: &Value) {
        let body = v.to_string();
        self.raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// Sends a request and waits for its response.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        self.wait(|v| v["id"] == id && v.get("method").is_none())
    }

    /// The next message that `pred` accepts (others go to the backlog).
    pub fn wait(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.backlog.iter().position(&pred) {
            return self.backlog.remove(i);
        }
        loop {
            let v = self.rx.recv_timeout(TIMEOUT).expect("the server did not answer in time");
            if pred(&v) {
                return v;
            }
            self.backlog.push(v);
        }
    }

    pub fn open(&mut self, uri: &str, text: &str) {
        let lang = uri.rsplit('.').next().unwrap();
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": lang, "version": 1, "text": text } }),
        );
    }

    pub fn change(&mut self, uri: &str, version: i64, changes: Value) {
        self.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": changes }),
        );
    }

    /// The diagnostics published for `uri` at `version`.
    pub fn diagnostics(&mut self, uri: &str, version: i64) -> Value {
        let d = self.wait(|v| {
            v["method"] == "textDocument/publishDiagnostics"
                && v["params"]["uri"] == uri
                && v["params"]["version"] == version
        });
        d["params"]["diagnostics"].clone()
    }

    /// A request at a position of `uri`.
    pub fn at(&mut self, method: &str, uri: &str, line: u32, character: u32, extra: Value) -> Value {
        let mut params =
            json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } });
        if let (Some(p), Some(e)) = (params.as_object_mut(), extra.as_object()) {
            p.extend(e.clone());
        }
        self.request(method, params)
    }

    /// Closes the server's input.
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// Waits for the server to end; its exit status.
    pub fn wait_exit(&mut self) -> i32 {
        self.child.wait().unwrap().code().unwrap_or(-1)
    }

    /// shutdown, exit; the exit status.
    pub fn finish(mut self) -> i32 {
        let r = self.request("shutdown", Value::Null);
        assert_eq!(r["result"], Value::Null, "{r}");
        self.notify("exit", Value::Null);
        self.stdin = None;
        self.child.wait().unwrap().code().unwrap_or(-1)
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn range(l0: u32, c0: u32, l1: u32, c1: u32) -> Value {
    json!({ "start": { "line": l0, "character": c0 }, "end": { "line": l1, "character": c1 } })
}
