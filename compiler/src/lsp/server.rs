//! The main loop: reads messages on one thread, checks on another
//! ([`super::worker`]), answers everything else here, in order.

use super::document::{Document, Store, language_of};
use super::transport::{FrameReader, Incoming, Sender};
use super::worker::{Done, Job, Worker};
use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::{
    DidChangeTextDocumentParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams, MessageType,
    PublishDiagnosticsParams, ShowMessageParams, Uri,
};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::io::{self, BufRead, Write};
use std::sync::mpsc;

enum Event {
    In(Incoming),
    Checked(Done),
    Eof,
}

/// A failed request: its JSON-RPC error code and message.
pub type Failure = (i32, String);

/// `InvalidParams` with `message`.
pub fn invalid(message: impl Into<String>) -> Failure {
    (ErrorCode::InvalidParams as i32, message.into())
}

/// Serves one client until `exit` or the end of the input; the result is
/// the exit status the protocol asks for (0 after `shutdown`, else 1).
pub fn serve(input: Box<dyn BufRead + Send>, output: Box<dyn Write + Send>) -> io::Result<i32> {
    let out = Sender::new(output);
    let (tx, rx) = mpsc::channel::<Event>();
    let reader_tx = tx.clone();
    std::thread::Builder::new().name("animc-lsp-read".into()).spawn(move || {
        let mut reader = FrameReader::new(input);
        loop {
            match reader.next_incoming() {
                Ok(Some(incoming)) => {
                    if reader_tx.send(Event::In(incoming)).is_err() {
                        return;
                    }
                }
                Ok(None) | Err(_) => {
                    let _ = reader_tx.send(Event::Eof);
                    return;
                }
            }
        }
    })?;
    let worker = Worker::start(tx, Event::Checked);
    let mut server = Server { out, worker, store: Store::default(), initialized: false, shutdown: false };
    for event in rx {
        match event {
            Event::In(Incoming::Malformed(m)) => server.out.send_parse_error(&m)?,
            Event::In(Incoming::Message(Message::Request(r))) => server.request(r)?,
            Event::In(Incoming::Message(Message::Notification(n))) => {
                if n.method == "exit" {
                    return Ok(if server.shutdown { 0 } else { 1 });
                }
                server.notification(n)?
            }
            Event::In(Incoming::Message(Message::Response(_))) => {}
            Event::Checked(done) => server.publish(done)?,
            Event::Eof => break,
        }
    }
    Ok(if server.shutdown { 0 } else { 1 })
}

struct Server {
    out: Sender,
    worker: Worker,
    store: Store,
    initialized: bool,
    shutdown: bool,
}

fn params<P: DeserializeOwned>(v: Value) -> Result<P, Failure> {
    serde_json::from_value(v).map_err(|e| invalid(format!("bad parameters: {e}")))
}

impl Server {
    fn respond(&self, id: RequestId, result: Result<Value, Failure>) -> io::Result<()> {
        let response = match result {
            Ok(v) => Response { id, response_result: Ok(v) },
            Err((code, message)) => Response::new_err(id, code, message),
        };
        self.out.send(&Message::Response(response))
    }

    fn request(&mut self, r: Request) -> io::Result<()> {
        let id = r.id.clone();
        let result = if r.method == "initialize" {
            if self.initialized {
                Err((ErrorCode::InvalidRequest as i32, "initialize was already received".into()))
            } else {
                self.initialized = true;
                Ok(super::capabilities())
            }
        } else if !self.initialized {
            Err((ErrorCode::ServerNotInitialized as i32, format!("`{}` before initialize", r.method)))
        } else if self.shutdown {
            Err((ErrorCode::InvalidRequest as i32, format!("`{}` after shutdown", r.method)))
        } else if r.method == "shutdown" {
            self.shutdown = true;
            Ok(Value::Null)
        } else {
            super::handle(&self.store, &r.method, r.params)
        };
        self.respond(id, result)
    }

    fn notification(&mut self, n: Notification) -> io::Result<()> {
        if !self.initialized {
            return Ok(());
        }
        let result = match n.method.as_str() {
            "textDocument/didOpen" => params(n.params).and_then(|p| self.open(p)),
            "textDocument/didChange" => params(n.params).and_then(|p| self.change(p)),
            "textDocument/didClose" => params(n.params).and_then(|p| self.close(p)),
            _ => Ok(()),
        };
        match result {
            Ok(()) => Ok(()),
            Err((_, message)) => self.show_error(format!("{}: {message}", n.method)),
        }
    }

    fn show_error(&self, message: String) -> io::Result<()> {
        let params = ShowMessageParams { typ: MessageType::ERROR, message };
        self.out.send(&Message::Notification(Notification::new("window/showMessage".into(), params)))
    }

    fn open(&mut self, p: DidOpenTextDocumentParams) -> Result<(), Failure> {
        let d = p.text_document;
        let language = language_of(&d.uri, &d.language_id).ok_or_else(|| {
            invalid(format!(
                "`{}`: not a .anim, .draw or .slap document (language `{}`)",
                d.uri.as_str(),
                d.language_id
            ))
        })?;
        if d.text.len() > super::MAX_DOCUMENT_BYTES {
            return self.refuse(d.uri, d.text.len());
        }
        self.store.open(&d.uri, Document::new(d.text, d.version, language));
        self.queue(&d.uri);
        Ok(())
    }

    fn change(&mut self, p: DidChangeTextDocumentParams) -> Result<(), Failure> {
        let uri = p.text_document.uri;
        if let Some(bytes) = self.store.refused(&uri) {
            return Err(super::too_large(&uri, bytes));
        }
        let doc = self.store.get_mut(&uri).ok_or_else(|| unknown(&uri))?;
        doc.apply(p.text_document.version, p.content_changes).map_err(|e| invalid(e.0))?;
        let bytes = doc.text.len();
        if bytes > super::MAX_DOCUMENT_BYTES {
            return self.refuse(uri, bytes);
        }
        self.queue(&uri);
        Ok(())
    }

    /// A document over [`super::MAX_DOCUMENT_BYTES`]: its text dropped,
    /// its check forgotten and its diagnostics cleared; the error says so.
    fn refuse(&mut self, uri: Uri, bytes: usize) -> Result<(), Failure> {
        self.store.refuse(&uri, bytes);
        self.worker.forget(&uri);
        let error = super::too_large(&uri, bytes);
        self.clear_diagnostics(uri)?;
        Err(error)
    }

    fn close(&mut self, p: DidCloseTextDocumentParams) -> Result<(), Failure> {
        let uri = p.text_document.uri;
        if !self.store.close(&uri) {
            return Err(unknown(&uri));
        }
        self.worker.forget(&uri);
        self.clear_diagnostics(uri)
    }

    fn clear_diagnostics(&self, uri: Uri) -> Result<(), Failure> {
        let params = PublishDiagnosticsParams { uri, diagnostics: Vec::new(), version: None };
        let n = Notification::new("textDocument/publishDiagnostics".into(), params);
        self.out.send(&Message::Notification(n)).map_err(|e| (ErrorCode::InternalError as i32, e.to_string()))
    }

    fn queue(&self, uri: &Uri) {
        if let Some(doc) = self.store.get(uri) {
            self.worker.queue(Job {
                uri: uri.clone(),
                version: doc.version,
                generation: doc.generation,
                text: doc.text.clone(),
                language: doc.language,
            });
        }
    }

    fn publish(&self, done: Done) -> io::Result<()> {
        // A result for a text that has changed since is dropped: the
        // newer text's check is queued already.
        match self.store.get(&done.uri) {
            Some(doc) if doc.generation == done.generation => {}
            _ => return Ok(()),
        }
        let params =
            PublishDiagnosticsParams { uri: done.uri, diagnostics: done.diagnostics, version: Some(done.version) };
        self.out.send(&Message::Notification(Notification::new("textDocument/publishDiagnostics".into(), params)))
    }
}

/// The error for a request about a document that is not open.
pub fn unknown(uri: &Uri) -> Failure {
    invalid(format!("unknown document `{}`: open it first", uri.as_str()))
}
