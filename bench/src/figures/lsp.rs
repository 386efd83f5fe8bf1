//! The language server (`animc lsp`, spawned as an editor spawns it, JSON-RPC
//! over its pipes):
//!
//! - `lsp_diagnostics_ms_1mb_{sprite,animator,slap}`: a one-character
//!   change to an open 1 MB document, from writing the `didChange` to
//!   reading its `publishDiagnostics` (best of the rounds);
//!   `lsp_diagnostics_ms_1mb` is the slowest of the three languages;
//! - `lsp_rss_mb_10_files_1mb`: the server's resident memory (`VmRSS`)
//!   with ten 1 MB documents open and checked (four sprite, three
//!   Animator, three SLAP).
//!
//! `animc` is looked for beside this executable and built with cargo when
//! missing.

use super::Group;
use crate::{Context, Report};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Instant;

/// The group.
pub struct Lsp;

/// A document of `bytes` of each language, every line checked.
pub fn documents(bytes: usize) -> [(&'static str, String); 3] {
    let fill = |head: &str, line: &dyn Fn(usize) -> String| {
        let mut s = String::from(head);
        let mut i = 0;
        while s.len() < bytes {
            s.push_str(&line(i));
            i += 1;
        }
        s
    };
    [
        ("anim", fill("Idle: 5, _loop\n", &|i| format!("S{i}: 5, 4|2|step, 3, 2|hit, Idle\n"))),
        ("draw", fill("", &|i| format!("line 0 0 {} 1\ncolor red\nframe\n", i % 100))),
        ("slap", fill("define hop 11\ntime 0\n", &|i| format!("time +1\nactor {} action hop\n", i % 64 + 1))),
    ]
}

fn find_animc() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let dir = exe.parent()?;
    let candidates = [dir.join("animc"), dir.parent()?.join("animc")];
    if let Some(p) = candidates.iter().find(|p| p.is_file()) {
        return Some(p.clone());
    }
    eprintln!("animkit-bench: building animc for the lsp figures");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args(["build", "-q", "-p", "animkit-compiler", "--bin", "animc"]);
    if !cfg!(debug_assertions) {
        cmd.arg("--release");
    }
    cmd.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    cmd.status().ok().filter(|s| s.success())?;
    candidates.into_iter().find(|p| p.is_file())
}

struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Server {
    fn start(animc: &PathBuf) -> Server {
        let mut child = Command::new(animc)
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("animc lsp starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut s = Server { child, stdin, stdout };
        s.send(&json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": { "capabilities": {} } }));
        s.read_until(|v| v["id"] == 1);
        s.send(&json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }));
        s
    }

    fn send(&mut self, v: &Value) {
        let body = v.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write");
        self.stdin.flush().expect("flush");
    }

    fn read(&mut self) -> Value {
        let mut length = 0;
        loop {
            let mut line = String::new();
            assert!(self.stdout.read_line(&mut line).expect("read") > 0, "animc lsp ended");
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(n) = line.strip_prefix("Content-Length: ") {
                length = n.parse().expect("length");
            }
        }
        let mut body = vec![0; length];
        self.stdout.read_exact(&mut body).expect("body");
        serde_json::from_slice(&body).expect("json")
    }

    fn read_until(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        loop {
            let v = self.read();
            if pred(&v) {
                return v;
            }
        }
    }

    fn diagnostics(&mut self, uri: &str, version: i64) -> Value {
        let v = self.read_until(|v| {
            v["method"] == "textDocument/publishDiagnostics"
                && v["params"]["uri"] == uri
                && v["params"]["version"] == version
        });
        v["params"]["diagnostics"].clone()
    }

    fn open(&mut self, uri: &str, text: &str) {
        let doc = json!({ "uri": uri, "languageId": "", "version": 1, "text": text });
        self.send(&json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": { "textDocument": doc } }));
    }

    fn rss_mb(&self) -> f64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap_or_default();
        let kb = status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok());
        kb.map_or(f64::NAN, |kb| kb / 1024.0)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Group for Lsp {
    fn name(&self) -> &'static str {
        "lsp"
    }

    fn what(&self) -> &'static str {
        "animc lsp: a change to a 1 MB document to its diagnostics; memory with ten open"
    }

    fn run(&self, cx: &mut Context, report: &mut Report) {
        let Some(animc) = find_animc() else {
            eprintln!("animkit-bench: no animc, lsp figures skipped");
            return;
        };
        // 1 MB; 64 kB with `--quick` (the figures keep their names).
        let bytes = if cx.opts.quick { 64 << 10 } else { 1 << 20 };
        let rounds = cx.rounds().max(5);
        let mut worst: f64 = 0.0;
        for (ext, text) in documents(bytes) {
            let mut s = Server::start(&animc);
            let uri = format!("file:///bench/doc.{ext}");
            s.open(&uri, &text);
            let first = s.diagnostics(&uri, 1);
            assert_eq!(first, json!([]), "the {ext} document checks clean");
            let mut best = f64::INFINITY;
            for v in 2..2 + rounds as i64 {
                // Retype the first character of the document.
                let c = &text[..1];
                let change = json!({ "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 0, "character": 1 } }, "text": c });
                let params = json!({ "textDocument": { "uri": uri, "version": v }, "contentChanges": [change] });
                let t = Instant::now();
                s.send(&json!({ "jsonrpc": "2.0", "method": "textDocument/didChange", "params": params }));
                s.diagnostics(&uri, v);
                best = best.min(t.elapsed().as_secs_f64() * 1e3);
            }
            let name = match ext {
                "anim" => "sprite",
                "draw" => "animator",
                _ => "slap",
            };
            report.add(
                format!("lsp_diagnostics_ms_1mb_{name}"),
                best,
                "ms",
                format!("animc lsp: one-character change to a 1 MB .{ext} document, to its publishDiagnostics"),
            );
            worst = worst.max(best);
        }
        report.add(
            "lsp_diagnostics_ms_1mb",
            worst,
            "ms",
            "animc lsp: the slowest language of the three above (target: 50)",
        );

        let mut s = Server::start(&animc);
        let docs = documents(bytes);
        let exts = ["anim", "anim", "anim", "anim", "draw", "draw", "draw", "slap", "slap", "slap"];
        for (i, ext) in exts.iter().enumerate() {
            let text = &docs.iter().find(|d| d.0 == *ext).expect("document").1;
            let uri = format!("file:///bench/doc{i}.{ext}");
            s.open(&uri, text);
            s.diagnostics(&uri, 1);
        }
        report.add(
            "lsp_rss_mb_10_files_1mb",
            s.rss_mb(),
            "MB",
            "animc lsp: resident memory with ten 1 MB documents open and checked",
        );
    }
}
