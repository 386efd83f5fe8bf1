//! Progress lines on standard error, only when it is a terminal: a piped or
//! redirected run (`--json > out.json`, CI) stays silent.

use std::io::{IsTerminal, Write};

/// Writes transient progress lines when stderr is a terminal.
pub struct Progress {
    tty: bool,
}

impl Default for Progress {
    fn default() -> Self {
        Progress::new()
    }
}

impl Progress {
    /// Detects whether stderr is a terminal.
    pub fn new() -> Progress {
        Progress { tty: std::io::stderr().is_terminal() }
    }

    /// Replaces the progress line with `msg`.
    pub fn note(&self, msg: &str) {
        if self.tty {
            let mut e = std::io::stderr().lock();
            let _ = write!(e, "\r\x1b[2K{msg}");
            let _ = e.flush();
        }
    }

    /// Clears the progress line.
    pub fn done(&self) {
        if self.tty {
            let _ = write!(std::io::stderr().lock(), "\r\x1b[2K");
        }
    }
}
