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

/// A progress bar that may be switched off.
#[derive(Debug)]
pub struct Progress {
    label: String,
    total: u64,
    enabled: bool,
    last: Option<Instant>,
    shown: bool,
}

impl Progress {
    /// A bar for `total` steps named `label`, shown when standard error is
    /// a terminal.
    pub fn new(label: impl Into<String>, total: u64) -> Progress {
        Progress::with_terminal(label, total, std::io::stderr().is_terminal())
    }

    /// A bar shown only if `enabled`.
    pub fn with_terminal(label: impl Into<String>, total: u64, enabled: bool) -> Progress {
        Progress { label: label.into(), total, enabled, last: None, shown: false }
    }

    /// `done` of the steps are done: redraws the bar if it is due (and
    /// always for the last step).
    pub fn update(&mut self, done: u64) {
        if !self.enabled {
            return;
        }
        let now = Instant::now();
        if done < self.total && self.last.is_some_and(|t| now - t < REDRAW) {
            return;
        }
        self.last = Some(now);
        self.shown = true;
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r{}", bar(&self.label, done, self.total));
        let _ = err.flush();
    }

    /// Ends the bar's line, if it was drawn.
    pub fn finish(&mut self) {
        if self.shown {
            eprintln!();
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
