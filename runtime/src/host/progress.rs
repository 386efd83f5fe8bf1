//! A progress bar on standard error, for runs that write many frames
//! (`--gif`, `-d` with SLAP scenes): drawn only when standard error is a
//! terminal, so a piped or redirected run stays silent; redrawn at most
//! every 50 ms, so it costs nothing next to a frame.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// How often the bar is redrawn at most.
const REDRAW: Duration = Duration::from_millis(50);
/// Characters of the bar itself.
const BAR: usize = 24;

/// Where progress is drawn: standard error when it is a terminal, else
/// nowhere (a piped or redirected run stays silent); tests give a writer
/// of their own.
pub struct ProgressOut(Option<Box<dyn Write>>);

impl ProgressOut {
    /// Standard error if it is a terminal, else [`silent`](Self::silent).
    pub fn stderr() -> ProgressOut {
        ProgressOut::terminal_if(std::io::stderr().is_terminal())
    }

    /// Standard error if `terminal`, else silent.
    pub fn terminal_if(terminal: bool) -> ProgressOut {
        ProgressOut(terminal.then(|| Box::new(std::io::stderr()) as Box<dyn Write>))
    }

    /// Nothing is drawn.
    pub fn silent() -> ProgressOut {
        ProgressOut(None)
    }

    /// Drawn on `out`, as on a terminal.
    pub fn to(out: Box<dyn Write>) -> ProgressOut {
        ProgressOut(Some(out))
    }

    /// Whether anything is drawn.
    pub fn shown(&self) -> bool {
        self.0.is_some()
    }

    /// Writes `text` and flushes it (when shown).
    pub fn write(&mut self, text: &str) {
        if let Some(out) = self.0.as_mut() {
            let _ = out.write_all(text.as_bytes());
            let _ = out.flush();
        }
    }
}

impl std::fmt::Debug for ProgressOut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.shown() { "ProgressOut(shown)" } else { "ProgressOut(silent)" })
    }
}

/// A progress bar that may be switched off.
///
/// ```
/// use animkit_runtime::host::progress::{Progress, ProgressOut};
/// use std::sync::{Arc, Mutex};
/// #[derive(Clone, Default)]
/// struct Shared(Arc<Mutex<Vec<u8>>>);
/// impl std::io::Write for Shared {
///     fn write(&mut self, b: &[u8]) -> std::io::Result<usize> { self.0.lock().unwrap().write(b) }
///     fn flush(&mut self) -> std::io::Result<()> { Ok(()) }
/// }
/// let out = Shared::default();
/// let mut bar = Progress::with_out("f.gif", 2, ProgressOut::to(Box::new(out.clone())));
/// bar.update(2);
/// bar.finish();
/// let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
/// assert_eq!(text, "\ranimvm: f.gif [########################] 2/2 frames\n");
/// ```
#[derive(Debug)]
pub struct Progress {
    label: String,
    total: u64,
    out: ProgressOut,
    last: Option<Instant>,
    shown: bool,
}

impl Progress {
    /// A bar for `total` steps named `label`, shown when standard error is
    /// a terminal.
    pub fn new(label: impl Into<String>, total: u64) -> Progress {
        Progress::with_out(label, total, ProgressOut::stderr())
    }

    /// A bar shown on standard error only if `enabled`.
    pub fn with_terminal(label: impl Into<String>, total: u64, enabled: bool) -> Progress {
        Progress::with_out(label, total, ProgressOut::terminal_if(enabled))
    }

    /// A bar drawn on `out`.
    pub fn with_out(label: impl Into<String>, total: u64, out: ProgressOut) -> Progress {
        Progress { label: label.into(), total, out, last: None, shown: false }
    }

    /// Draws the bar on `out` from now on.
    pub fn set_out(&mut self, out: ProgressOut) {
        self.out = out;
    }

    /// `done` of the steps are done: redraws the bar if it is due (and
    /// always for the last step).
    pub fn update(&mut self, done: u64) {
        if !self.out.shown() {
            return;
        }
        let now = Instant::now();
        if done < self.total && self.last.is_some_and(|t| now - t < REDRAW) {
            return;
        }
        self.last = Some(now);
        self.shown = true;
        self.out.write(&format!("\r{}", bar(&self.label, done, self.total)));
    }

    /// Ends the bar's line, if it was drawn.
    pub fn finish(&mut self) {
        if self.shown {
            self.out.write("\n");
            self.shown = false;
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// The bar's text for `done` of `total` steps.
///
/// ```
/// use animkit_runtime::host::progress::bar;
/// assert_eq!(bar("out.gif", 6, 24), "animvm: out.gif [######------------------] 6/24 frames");
/// assert_eq!(bar("f", 9, 0), "animvm: f [########################] 9/0 frames");
/// ```
pub fn bar(label: &str, done: u64, total: u64) -> String {
    let filled = if total == 0 { BAR } else { (done.min(total) as u128 * BAR as u128 / total as u128) as usize };
    format!("animvm: {label} [{}{}] {done}/{total} frames", "#".repeat(filled), "-".repeat(BAR - filled))
}
