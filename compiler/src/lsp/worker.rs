//! Checks off the main loop, so that typing in a 10 MB document never
//! blocks hovers, completions or the other documents.
//!
//! The main loop queues a [`Job`] per change; the queue keeps only the
//! newest job per document (a burst of keystrokes while a check runs
//! collapses into one check of the last text). One worker thread takes
//! jobs oldest document first. When that document's previous check was
//! slow (over [`SLOW_CHECK`]) and more than one change came in while it
//! ran (the user is typing faster than it checks), it first waits for the
//! typing to pause (debounce: as long as the last check took, at most
//! [`MAX_DEBOUNCE`]), taking any newer text that arrives meanwhile; a
//! single change after a pause is checked at once. Every job carries the
//! document's generation; the main loop publishes a result only if the
//! document is still at that generation, so a check overtaken by an edit
//! is dropped, never shown. A check already running is not interrupted
//! (the front ends have no cancellation points); it costs worker time
//! only, and the newest text is checked right after it.

use super::diagnostics;
use crate::hash::FxHashMap;
use animkit_vm::engine::program::Language;
use lsp_types::Uri;
use std::collections::VecDeque;
use std::sync::mpsc::Sender;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// A check that took longer than this makes the next one of the same
/// document wait for a pause in the typing.
pub const SLOW_CHECK: Duration = Duration::from_millis(50);
/// The longest wait for a pause.
pub const MAX_DEBOUNCE: Duration = Duration::from_millis(250);

/// One document version to check.
pub struct Job {
    /// The document.
    pub uri: Uri,
    /// Its version, published with the result.
    pub version: i32,
    /// Its generation when queued.
    pub generation: u64,
    /// The text.
    pub text: Arc<String>,
    /// The language.
    pub language: Language,
}

/// A finished check.
pub struct Done {
    /// The document.
    pub uri: Uri,
    /// Its version then.
    pub version: i32,
    /// Its generation then.
    pub generation: u64,
    /// What the check found.
    pub diagnostics: Vec<lsp_types::Diagnostic>,
}

#[derive(Default)]
struct Queue {
    jobs: FxHashMap<String, Job>,
    order: VecDeque<String>,
    stop: bool,
}

/// The handle the main loop queues jobs with; dropping it stops the
/// worker.
pub struct Worker {
    shared: Arc<(Mutex<Queue>, Condvar)>,
}

impl Worker {
    /// Starts the worker thread; results go to `done` wrapped by `wrap`.
    pub fn start<E: Send + 'static>(done: Sender<E>, wrap: fn(Done) -> E) -> Worker {
        let shared = Arc::new((Mutex::new(Queue::default()), Condvar::new()));
        let theirs = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("animc-lsp-check".into())
            .spawn(move || run(&theirs, &done, wrap))
            .map(|_| ())
            .unwrap_or_else(|e| eprintln!("animc lsp: cannot start the check thread: {e}"));
        Worker { shared }
    }

    /// Queues `job`, replacing any older job of the same document.
    pub fn queue(&self, job: Job) {
        let (lock, cv) = &*self.shared;
        let mut q = lock.lock().unwrap_or_else(|p| p.into_inner());
        let key = job.uri.as_str().to_owned();
        if q.jobs.insert(key.clone(), job).is_none() {
            q.order.push_back(key);
        }
        cv.notify_all();
    }

    /// Drops a queued job of `uri` (the document was closed).
    pub fn forget(&self, uri: &Uri) {
        let (lock, _) = &*self.shared;
        let mut q = lock.lock().unwrap_or_else(|p| p.into_inner());
        q.jobs.remove(uri.as_str());
        q.order.retain(|k| k != uri.as_str());
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let (lock, cv) = &*self.shared;
        lock.lock().unwrap_or_else(|p| p.into_inner()).stop = true;
        cv.notify_all();
    }
}

fn run<E>(shared: &(Mutex<Queue>, Condvar), done: &Sender<E>, wrap: fn(Done) -> E) {
    let (lock, cv) = shared;
    // Per document: how long its last check took, and its generation.
    let mut last: FxHashMap<String, (Duration, u64)> = FxHashMap::default();
    loop {
        let mut q = lock.lock().unwrap_or_else(|p| p.into_inner());
        while q.order.is_empty() && !q.stop {
            q = cv.wait(q).unwrap_or_else(|p| p.into_inner());
        }
        if q.stop {
            return;
        }
        let Some(key) = q.order.front().cloned() else { continue };
        let (took, checked) = last.get(&key).copied().unwrap_or_default();
        let burst = q.jobs.get(&key).is_some_and(|j| j.generation > checked + 1);
        if took > SLOW_CHECK && burst {
            // Wait for the typing to pause: every newer text restarts
            // the wait (it replaces the job and notifies).
            let wait = took.min(MAX_DEBOUNCE);
            let mut seen = q.jobs.get(&key).map(|j| j.generation);
            loop {
                let (next, timeout) = cv.wait_timeout(q, wait).unwrap_or_else(|p| p.into_inner());
                q = next;
                if q.stop {
                    return;
                }
                let now = q.jobs.get(&key).map(|j| j.generation);
                if timeout.timed_out() || now.is_none() || now == seen {
                    break;
                }
                seen = now;
            }
        }
        q.order.retain(|k| k != &key);
        let Some(job) = q.jobs.remove(&key) else { continue };
        drop(q);
        let started = Instant::now();
        let diagnostics = diagnostics::check(&job.uri, &job.text, job.language);
        last.insert(key, (started.elapsed(), job.generation));
        let result = Done { uri: job.uri, version: job.version, generation: job.generation, diagnostics };
        if done.send(wrap(result)).is_err() {
            return;
        }
    }
}
