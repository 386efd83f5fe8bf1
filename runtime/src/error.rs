//! [`Error`]: what stops `animvm` before its program has run to the end,
//! the one error type at the host boundary ([`Host`](crate::host::Host),
//! the window loop, the frame sink). Its messages name no program and end
//! with no newline: `run::main` prints each as `animvm: MESSAGE`
//! ([`Error::report`]; [`Error::Load`], the compiler's or the loader's
//! rendered diagnostics, as they are), so a host returns what went wrong
//! and the command line decides how it is shown.
//!
//! Errors met while a program runs and that do not stop it (a runtime
//! error of the program, a save under `--watch` that does not build) are
//! reported on standard error as they happen and counted instead (see
//! [`report`](crate::report)); a `--watch` build the host cannot use is an
//! [`Error`] too, reported by
//! [`ProgramWatch::refused`](crate::host::watch::ProgramWatch::refused).

use crate::host::sink_error::SinkError;
use crate::player::PlayerError;

/// Why `animvm` stopped.
///
/// ```
/// use animkit_runtime::Error;
/// let e = Error::Usage("--gif writes frames headless: add -H".into());
/// assert_eq!(e.to_string(), "--gif writes frames headless: add -H");
/// assert_eq!(e.report(), "animvm: --gif writes frames headless: add -H\n");
/// let e = Error::Load("error: `x.anim`: no such file\n".into());
/// assert_eq!(e.report(), "error: `x.anim`: no such file\n");
/// let e = Error::Trace("Bad file descriptor (os error 9)".into());
/// assert_eq!(e.report(), "animvm: cannot write the trace: Bad file descriptor (os error 9)\n");
/// let e = Error::from(animkit_runtime::player::PlayerError::Draw("out of memory".into()));
/// assert_eq!(e.report(), "animvm: cannot draw the scene: out of memory\n");
/// ```
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Error {
    /// The options do not fit each other or the file: `--gif` without
    /// `-H`, `--watch` on standard input, a `--start` past the last frame.
    #[error("{0}")]
    Usage(String),
    /// An option that does not apply to what the file runs (the table
    /// [`OPTIONS`](crate::cli::OPTIONS)): `option` is for `owner`, and
    /// `file` runs `runs`, whose own options are `ours`.
    #[error("{option} is for {owner}, and {file} runs {runs} (its options: {ours})")]
    ForeignOption {
        /// The option given (`--state`).
        option: &'static str,
        /// Whose it is (`sprite modules`).
        owner: String,
        /// The file run.
        file: String,
        /// What the file runs (`a SLAP scene`).
        runs: &'static str,
        /// The options only what it runs takes (`--frames, --start,
        /// --strict`).
        ours: String,
    },
    /// The file could not be loaded: the loader's or the compiler's
    /// diagnostics, rendered (shown as they are, without `animvm: `).
    #[error("{}", .0.trim_end())]
    Load(String),
    /// The program has no module to run as asked, or the module cannot be
    /// run (no entry function, no such state, a new build without it).
    #[error("{0}")]
    Module(String),
    /// No display, window, OpenGL context or event loop could be had.
    #[error("{0}")]
    Display(String),
    /// A file `animvm` writes: `-d` frames, a GIF.
    #[error(transparent)]
    Output(#[from] SinkError),
    /// The trace could not be written to standard output (why).
    #[error("cannot write the trace: {0}")]
    Trace(String),
    /// Drawing failed: the embedding [`Player`](crate::player::Player)'s
    /// reason (the SLAP hosts draw through it), shown as it is.
    #[error(transparent)]
    Draw(#[from] PlayerError),
    /// Anything else a host refuses to go on with.
    #[error("{0}")]
    Host(String),
}

impl Error {
    /// How `animvm` shows the error on standard error: one line, after
    /// `animvm: ` (a [`Load`](Error::Load) as its diagnostics are).
    pub fn report(&self) -> String {
        match self {
            Error::Load(text) => text.clone(),
            e => format!("animvm: {e}\n"),
        }
    }
}
