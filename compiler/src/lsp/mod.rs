//! `animc lsp`: a language server over standard input and output for the
//! three languages (`.anim`, `.draw`, `.slap`), built on the compiler
//! itself: the front ends' checks give the diagnostics, their formatters
//! the formatting, their parsers the names for navigation, hover and
//! completion. There is no second parser.
//!
//! - [`transport`]: framing, hardened against malformed input;
//! - [`server`]: the main loop (requests answered in order);
//! - [`worker`]: checks on their own thread, newest text only, stale
//!   results dropped (the design is described there);
//! - [`document`]: open documents, incremental edits, UTF-16 positions;
//! - [`diagnostics`], [`format`], [`symbols`] (names and their uses),
//!   [`navigate`] (definition, references, rename), [`hover`],
//!   [`complete`].
//!
//! ```
//! use std::io::Cursor;
//! let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#;
//! let exit = r#"{"jsonrpc":"2.0","method":"exit"}"#;
//! let input = format!("Content-Length: {}\r\n\r\n{init}Content-Length: {}\r\n\r\n{exit}", init.len(), exit.len());
//! let out = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
//! struct W(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);
//! impl std::io::Write for W {
//!     fn write(&mut self, b: &[u8]) -> std::io::Result<usize> { self.0.lock().unwrap().write(b) }
//!     fn flush(&mut self) -> std::io::Result<()> { Ok(()) }
//! }
//! let status = animkit_compiler::lsp::serve(Box::new(Cursor::new(input)), Box::new(W(out.clone()))).unwrap();
//! assert_eq!(status, 1); // exit without shutdown
//! assert!(String::from_utf8(out.lock().unwrap().clone()).unwrap().contains("\"documentFormattingProvider\":true"));
//! ```

pub mod complete;
pub mod diagnostics;
pub mod document;
pub mod format;
pub mod hover;
pub mod navigate;
pub mod occurrence;
pub mod server;
pub mod site;
pub mod symbols;
pub mod transport;
pub mod worker;

pub use server::serve;

use document::{Document, Store};
use lsp_types::{Position, TextDocumentIdentifier, Uri};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use server::{Failure, invalid, unknown};

/// What the server can do, for `initialize`.
pub fn capabilities() -> Value {
    json!({
        "capabilities": {
            "positionEncoding": "utf-16",
            "textDocumentSync": { "openClose": true, "change": 2 },
            "documentFormattingProvider": true,
            "definitionProvider": true,
            "referencesProvider": true,
            "renameProvider": { "prepareProvider": false },
            "hoverProvider": true,
            "completionProvider": { "triggerCharacters": [",", " ", "|"] },
        },
        "serverInfo": { "name": "animc", "version": env!("CARGO_PKG_VERSION") },
    })
}

fn params<P: DeserializeOwned>(v: Value) -> Result<P, Failure> {
    serde_json::from_value(v).map_err(|e| invalid(format!("bad parameters: {e}")))
}

/// The largest document the server serves (16 MiB): it checks the whole
/// text again on every change and parses it for every hover, completion
/// and navigation, so a larger one would make each keystroke cost seconds
/// and its memory (the compiler's bound per source byte, times the copies
/// in flight) grow with it. A larger document is refused (`window/showMessage`
/// names its size and this limit), its text dropped, and every request on
/// it answered with that error until it is opened again smaller; the other
/// documents are served as before. The compiler's own source limit is 64
/// MiB (`animc --check` takes what the server refuses).
pub const MAX_DOCUMENT_BYTES: usize = 16 << 20;

/// The error for a document over [`MAX_DOCUMENT_BYTES`].
pub fn too_large(uri: &Uri, bytes: usize) -> Failure {
    invalid(format!(
        "`{}` is {bytes} bytes, more than the {MAX_DOCUMENT_BYTES} bytes (16 MiB) animc lsp serves: it is not \
         checked, and requests on it are refused (`animc --check` takes files up to 64 MiB)",
        uri.as_str()
    ))
}

fn doc<'a>(store: &'a Store, id: &TextDocumentIdentifier) -> Result<&'a Document, Failure> {
    if let Some(bytes) = store.refused(&id.uri) {
        return Err(too_large(&id.uri, bytes));
    }
    store.get(&id.uri).ok_or_else(|| unknown(&id.uri))
}

/// The byte offset of `pos` in `doc`, or an error for a position past its
/// last line.
fn offset(doc: &Document, uri: &Uri, pos: Position) -> Result<usize, Failure> {
    doc.lines.offset(&doc.text, pos).ok_or_else(|| {
        invalid(format!("position {}:{} is past the end of `{}`", pos.line, pos.character, uri.as_str()))
    })
}

fn to_value(v: impl serde::Serialize) -> Result<Value, Failure> {
    serde_json::to_value(v).map_err(|e| (lsp_server::ErrorCode::InternalError as i32, e.to_string()))
}

/// Answers one request (other than `initialize` and `shutdown`).
pub fn handle(store: &Store, method: &str, p: Value) -> Result<Value, Failure> {
    use lsp_types::*;
    match method {
        "textDocument/formatting" => {
            let p: DocumentFormattingParams = params(p)?;
            to_value(format::format(doc(store, &p.text_document)?)?)
        }
        "textDocument/definition" => {
            let p: GotoDefinitionParams = params(p)?;
            let at = &p.text_document_position_params;
            let d = doc(store, &at.text_document)?;
            to_value(navigate::definition(d, &at.text_document.uri, offset(d, &at.text_document.uri, at.position)?))
        }
        "textDocument/references" => {
            let p: ReferenceParams = params(p)?;
            let at = &p.text_document_position;
            let d = doc(store, &at.text_document)?;
            let o = offset(d, &at.text_document.uri, at.position)?;
            to_value(navigate::references(d, &at.text_document.uri, o, p.context.include_declaration))
        }
        "textDocument/rename" => {
            let p: RenameParams = params(p)?;
            let at = &p.text_document_position;
            let d = doc(store, &at.text_document)?;
            let o = offset(d, &at.text_document.uri, at.position)?;
            to_value(navigate::rename(d, &at.text_document.uri, o, &p.new_name)?)
        }
        "textDocument/hover" => {
            let p: HoverParams = params(p)?;
            let at = &p.text_document_position_params;
            let d = doc(store, &at.text_document)?;
            to_value(hover::hover(d, offset(d, &at.text_document.uri, at.position)?))
        }
        "textDocument/completion" => {
            let p: CompletionParams = params(p)?;
            let at = &p.text_document_position;
            let d = doc(store, &at.text_document)?;
            to_value(complete::complete(d, offset(d, &at.text_document.uri, at.position)?))
        }
        _ => Err((lsp_server::ErrorCode::MethodNotFound as i32, format!("unknown method `{method}`"))),
    }
}

/// `animc lsp`: serves on standard input and output; the exit status.
/// It takes no options (`--stdio`, which some clients add, is accepted).
pub fn serve_stdio(args: &[String]) -> i32 {
    if let Some(other) = args.iter().find(|a| a.as_str() != "--stdio") {
        eprintln!("error: animc lsp: unknown option `{other}` (it serves on standard input and output)");
        return 2;
    }
    let input = Box::new(std::io::BufReader::with_capacity(1 << 16, std::io::stdin()));
    match serve(input, Box::new(std::io::stdout())) {
        Ok(status) => status,
        Err(e) => {
            eprintln!("error: animc lsp: {e}");
            1
        }
    }
}
