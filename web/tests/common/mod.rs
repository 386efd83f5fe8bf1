//! Helpers for driving a page of `web/www` in headless Chromium, shared by
//! `browser.rs`, `package.rs` and `playground.rs`: the gate, a std-only
//! file server with in-memory extras (and the benchmark's `/hold` and
//! `/done`), one `chromium-headless-shell --dump-dom` run whose page writes
//! its results into `<pre id="results" data-done="1">` (base64 of a JSON
//! text, or the JSON text itself); and in `frames` the comparison of the
//! page's frames with `animvm -H -d`'s.

// Each test binary uses its own part of these.
#![allow(dead_code)]

pub mod frames;

use serde_json::Value;
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Condvar, Mutex};

/// Whether the browser tests run (`ANIMKIT_WEB_TESTS=1`); a note if not.
pub fn enabled(test: &str) -> bool {
    if std::env::var("ANIMKIT_WEB_TESTS").as_deref() == Ok("1") {
        return true;
    }
    eprintln!("note: {test} skipped: set ANIMKIT_WEB_TESTS=1 to run the web pages in headless Chromium");
    false
}

/// The repository's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("web/ is in the repository").to_path_buf()
}

/// The cargo target directory.
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| root().join("target"))
}

/// Runs `bash web/build.sh ARGS` at the root; panics if it fails.
pub fn build(args: &[&str]) {
    let status = Command::new("bash")
        .arg(root().join("web/build.sh"))
        .args(args)
        .current_dir(root())
        .status()
        .expect("bash runs");
    assert!(status.success(), "web/build.sh {args:?} failed");
}

/// A server of `web/www` on 127.0.0.1 (plus in-memory files).
pub struct Server {
    pub port: u16,
    pub extra: Arc<Mutex<HashMap<String, Vec<u8>>>>,
}

impl Server {
    /// Starts serving on a free port, from threads of its own.
    pub fn start() -> Server {
        let extra = Arc::new(Mutex::new(HashMap::new()));
        let listener = TcpListener::bind("127.0.0.1:0").expect("a local port");
        let port = listener.local_addr().expect("its address").port();
        let files = extra.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let files = files.clone();
                std::thread::spawn(move || serve(stream, &files));
            }
        });
        Server { port, extra }
    }
}

/// `GET /hold` waits until the page has posted `/done` (benchmarks: the
/// page's load event waits for the image, `--dump-dom` for the load).
static HOLD: (Mutex<bool>, Condvar) = (Mutex::new(false), Condvar::new());

const EMPTY_200: &[u8] = b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
const NOT_FOUND: &[u8] = b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";

/// One HTTP/1.1 exchange with `Connection: close`: GET a file of web/www
/// (or an in-memory one; `/` is `/index.html`), then close.
fn serve(mut stream: TcpStream, extra: &Mutex<HashMap<String, Vec<u8>>>) {
    let Ok(read) = stream.try_clone() else { return };
    let mut reader = BufReader::new(read);
    let mut request = String::new();
    if reader.read_line(&mut request).is_err() {
        return;
    }
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).map_or(true, |n| n == 0) || header == "\r\n" {
            break;
        }
    }
    let path = request.split_whitespace().nth(1).unwrap_or("/").split('?').next().unwrap_or("/").to_string();
    let path = if path == "/" { "/index.html".to_string() } else { path };
    if path == "/done" {
        *HOLD.0.lock().expect("the hold flag") = true;
        HOLD.1.notify_all();
        let _ = stream.write_all(EMPTY_200);
        return;
    }
    if path == "/hold" {
        let mut done = HOLD.0.lock().expect("the hold flag");
        while !*done {
            done = HOLD.1.wait(done).expect("the hold flag");
        }
        *done = false;
        let _ = stream.write_all(NOT_FOUND);
        return;
    }
    let body = extra.lock().map(|files| files.get(&path).cloned()).ok().flatten().or_else(|| {
        (!path.contains("..") && path.len() > 1)
            .then(|| std::fs::read(root().join("web/www").join(&path[1..])).ok())
            .flatten()
    });
    let kind = match path.rsplit('.').next() {
        Some("html") => "text/html",
        Some("js") => "text/javascript",
        Some("wasm") => "application/wasm",
        Some("json") => "application/json",
        _ => "application/octet-stream",
    };
    let response = match body {
        Some(b) => {
            let mut r = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                b.len()
            )
            .into_bytes();
            r.extend_from_slice(&b);
            r
        }
        None => NOT_FOUND.to_vec(),
    };
    let _ = stream.write_all(&response);
}

/// Opens `url` in headless Chromium (SwiftShader's WebGL2, a virtual clock
/// of 120 s) and decodes the results the page wrote (base64 of JSON).
pub fn run_chromium(url: &str) -> Value {
    decode_results(&dump_dom(url, "--virtual-time-budget=120000"))
}

/// `chromium-headless-shell --dump-dom URL` with SwiftShader's WebGL2 and
/// `clock` (`--virtual-time-budget=MS`, or a flag for real time): the DOM.
pub fn dump_dom(url: &str, clock: &str) -> String {
    let out = Command::new(std::env::var("CHROMIUM").unwrap_or_else(|_| "chromium-headless-shell".into()))
        .args(["--headless", "--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader", clock])
        .args(["--dump-dom", url])
        .output()
        .expect("chromium-headless-shell runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The text of `<pre id="results" data-done="1">` in `dom`; panics with
/// the DOM when the page wrote none or did not finish.
pub fn results_text(dom: &str) -> &str {
    let start = dom.find("id=\"results\"").unwrap_or_else(|| panic!("no results in the page:\n{dom}"));
    let tag_end = start + dom[start..].find('>').expect("the tag ends");
    assert!(dom[start..tag_end].contains("data-done=\"1\""), "the page did not finish:\n{dom}");
    let end = tag_end + dom[tag_end..].find("</pre>").expect("the results end");
    &dom[tag_end + 1..end]
}

/// The results JSON, `text` as the page wrote it, checked for an
/// exception the page caught.
pub fn parse_results(text: &str) -> Value {
    let v: Value = serde_json::from_str(text).expect("JSON");
    assert!(v.get("exception").is_none(), "the page threw: {v}");
    v
}

/// [`results_text`] as base64 of a JSON text, parsed by [`parse_results`].
pub fn decode_results(dom: &str) -> Value {
    parse_results(&String::from_utf8(base64_decode(results_text(dom).trim())).expect("UTF-8"))
}

/// Standard base64 (with or without padding).
pub fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let bytes: Vec<u8> = text.bytes().filter(|&c| c != b'=').collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let v: Vec<u32> = chunk.iter().map(|&c| u32::from(value(c))).collect();
        let n = v.iter().enumerate().fold(0u32, |acc, (i, &x)| acc | (x << (18 - 6 * i)));
        out.extend_from_slice(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}
