//! JSON-RPC framing over byte streams (`Content-Length: N`, a blank line,
//! N bytes of JSON), hardened against a hostile client.
//!
//! `lsp_server::Connection::stdio` ends the connection on the first
//! malformed message and allocates whatever `Content-Length` claims, so
//! the server reads frames itself and hands `lsp_server::Message`s on:
//!
//! - a body that is not a JSON-RPC message is reported ([`Incoming::Malformed`])
//!   and skipped; reading goes on with the next header;
//! - a `Content-Length` over [`MAX_CONTENT_LENGTH`] is refused without
//!   reading it, and the reader looks for the next header;
//! - bytes that are not a header (the tail of a message whose length
//!   lied, noise) are skipped up to the next `Content-Length:`, so a lying
//!   length costs that message (and, if it claimed too much, the one it
//!   swallowed), never the connection;
//! - header lines are kept to [`MAX_HEADER_LINE`] bytes, bodies grow only
//!   as bytes arrive: memory is bounded by the limits, not by the claims.

use lsp_server::Message;
use std::io::{self, BufRead, Read, Write};
use std::sync::{Arc, Mutex};

/// The largest body accepted: a 10 MB document sent whole, JSON-escaped,
/// fits with room to spare.
pub const MAX_CONTENT_LENGTH: usize = 64 << 20;

/// Header lines longer than this keep only their last bytes (enough to
/// find a `Content-Length:` at their end).
pub const MAX_HEADER_LINE: usize = 4096;

/// What the reader got.
#[derive(Debug)]
pub enum Incoming {
    /// A well-formed message.
    Message(Message),
    /// Something that is not one; the text says what.
    Malformed(String),
}

/// Reads frames from `r`.
pub struct FrameReader<R> {
    r: R,
    /// What comes after a reported problem (the message found behind
    /// skipped bytes).
    pending: Option<Incoming>,
}

const HEADER: &[u8] = b"content-length:";

impl<R: BufRead> FrameReader<R> {
    /// A reader over `r`.
    pub fn new(r: R) -> FrameReader<R> {
        FrameReader { r, pending: None }
    }

    /// The next message or problem; `None` at the end of the input.
    pub fn next_incoming(&mut self) -> io::Result<Option<Incoming>> {
        if let Some(p) = self.pending.take() {
            return Ok(Some(p));
        }
        let mut length: Option<usize> = None;
        let mut skipped = 0usize;
        loop {
            let Some(line) = self.read_line()? else {
                if skipped > 0 {
                    return Ok(Some(Incoming::Malformed(format!("skipped {skipped} bytes that are not a message"))));
                }
                return Ok(None);
            };
            let trimmed = trim_eol(&line);
            if trimmed.is_empty() {
                match length {
                    Some(n) => {
                        let body = self.read_body(n)?;
                        let result = match serde_json::from_slice::<Message>(&body) {
                            Ok(m) => Incoming::Message(m),
                            Err(e) if body.len() < n => {
                                Incoming::Malformed(format!("message cut short: {} of {n} bytes ({e})", body.len()))
                            }
                            Err(e) => Incoming::Malformed(format!("not a JSON-RPC message: {e}")),
                        };
                        if skipped > 0 {
                            self.pending = Some(result);
                            return Ok(Some(Incoming::Malformed(format!(
                                "skipped {skipped} bytes that are not a message"
                            ))));
                        }
                        return Ok(Some(result));
                    }
                    None => continue,
                }
            }
            let lower = trimmed.to_ascii_lowercase();
            if let Some(at) = find(&lower, HEADER) {
                skipped += at;
                let value = std::str::from_utf8(&trimmed[at + HEADER.len()..]).unwrap_or("").trim();
                match value.parse::<u64>() {
                    Ok(n) if n as u128 <= MAX_CONTENT_LENGTH as u128 => length = Some(n as usize),
                    Ok(n) => {
                        return Ok(Some(Incoming::Malformed(format!(
                            "Content-Length {n} is over the limit of {MAX_CONTENT_LENGTH} bytes"
                        ))));
                    }
                    Err(_) => {
                        return Ok(Some(Incoming::Malformed(format!(
                            "bad Content-Length `{}`",
                            value.chars().take(40).collect::<String>()
                        ))));
                    }
                }
            } else if length.is_some() && trimmed.contains(&b':') {
                // Another header (Content-Type): nothing to do with it.
            } else {
                skipped += line.len();
                length = None;
            }
        }
    }

    /// One line (up to and with its `\n`), or `None` at the end of the
    /// input; an overlong line keeps its last [`MAX_HEADER_LINE`] bytes.
    fn read_line(&mut self) -> io::Result<Option<Vec<u8>>> {
        let mut line = Vec::new();
        let mut any = false;
        loop {
            let buf = match self.r.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                return Ok(any.then_some(line));
            }
            any = true;
            let (take, done) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (buf.len(), false),
            };
            line.extend_from_slice(&buf[..take]);
            self.r.consume(take);
            if line.len() > MAX_HEADER_LINE {
                line.drain(..line.len() - MAX_HEADER_LINE);
            }
            if done {
                return Ok(Some(line));
            }
        }
    }

    /// Up to `n` bytes: fewer only at the end of the input.
    fn read_body(&mut self, n: usize) -> io::Result<Vec<u8>> {
        let mut body = Vec::with_capacity(n.min(1 << 20));
        (&mut self.r).take(n as u64).read_to_end(&mut body)?;
        Ok(body)
    }
}

fn trim_eol(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The sending half: framed messages to one writer, shared by the threads
/// that answer.
#[derive(Clone)]
pub struct Sender {
    w: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Sender {
    /// Frames written to `w`.
    pub fn new(w: Box<dyn Write + Send>) -> Sender {
        Sender { w: Arc::new(Mutex::new(w)) }
    }

    /// Writes one message and flushes.
    pub fn send(&self, m: &Message) -> io::Result<()> {
        let mut w = self.w.lock().unwrap_or_else(|p| p.into_inner());
        m.write(&mut *w)?;
        w.flush()
    }

    /// A JSON-RPC error without a request id (`"id": null`), for input
    /// whose id could not be read.
    pub fn send_parse_error(&self, message: &str) -> io::Result<()> {
        let body = serde_json::json!({
            "jsonrpc": "2.0",
            "id": null,
            "error": { "code": lsp_server::ErrorCode::ParseError as i32, "message": message },
        })
        .to_string();
        let mut w = self.w.lock().unwrap_or_else(|p| p.into_inner());
        write!(w, "Content-Length: {}\r\n\r\n{body}", body.len())?;
        w.flush()
    }
}
