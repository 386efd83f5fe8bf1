//! [`Error`]: what stops `animvm` before its program has run to the end.
//! Its messages name no program: `run::main` prints each as
//! `animvm: MESSAGE` (and [`Error::Load`], the compiler's or the loader's
//! rendered diagnostics, as they are), so a host returns what went wrong
//! and the command line decides how it is shown.
//!
//! Errors met while a program runs and that do not stop it (a runtime
//! error of the program, a save under `--watch` that does not build) are
//! reported on standard error as they happen and counted instead (see
//! [`report`](crate::report)).

use crate::host::sink::SinkError;
use std::fmt;

/// Why `animvm` stopped.
///
/// ```
/// use animkit_runtime::Error;
/// let e = Error::Usage("--gif writes frames headless: add -H".into());
/// assert_eq!(e.to_string(), "--gif writes frames headless: add -H");
/// assert_eq!(e.report(), "animvm: --gif writes frames headless: add -H\n");
/// let e = Error::Load("error: `x.anim`: no such file\n".into());
/// assert_eq!(e.report(), "error: `x.anim`: no such file\n");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Error {
    /// The options do not fit each other or the file: `--gif` without
    /// `-H`, `--watch` on standard input, a `--start` past the last frame.
    Usage(String),
    /// An option of another language's host: `option` is for `owner`,
    /// and `file` runs `runs`, whose options are `ours`.
    ForeignOption {
        /// The option given (`--state`).
        option: &'static str,
        /// Whose it is (`sprite modules`).
        owner: &'static str,
        /// The file run.
        file: String,
        /// What the file runs (`a SLAP scene`).
        runs: &'static str,
        /// The options of what it runs (`--frames, --start`).
        ours: &'static str,
    },
    /// The file could not be loaded: the loader's or the compiler's
    /// diagnostics, rendered (shown as they are, without `animvm: `).
    Load(String),
    /// The program has no module to run as asked.
    Module(String),
    /// No window or OpenGL context could be had.
    Display(String),
    /// A file `animvm` writes: `-d` frames, a GIF, the trace.
    Output(SinkError),
    /// Anything else a host refuses to go on with.
    Host(String),
    /// A message already worded for standard error, `animvm: ` and the
    /// line end included (the window loop's and the SLAP and Animator
    /// hosts' own errors).
    Reported(String),
}

impl Error {
    /// How `animvm` shows the error on standard error: one line, after
    /// `animvm: ` (a [`Load`](Error::Load) as its diagnostics are).
    pub fn report(&self) -> String {
        match self {
            Error::Load(text) | Error::Reported(text) => text.clone(),
            e => format!("animvm: {e}\n"),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::ForeignOption { option, owner, file, runs, ours } => {
                write!(f, "{option} is for {owner}, and {file} runs {runs} (its options: {ours})")
            }
            Error::Load(text) => f.write_str(text.trim_end()),
            Error::Reported(text) => f.write_str(text.trim_start_matches("animvm: ").trim_end()),
            Error::Output(e) => e.fmt(f),
            Error::Usage(m) | Error::Module(m) | Error::Display(m) | Error::Host(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for Error {}

impl From<String> for Error {
    fn from(text: String) -> Error {
        Error::Reported(text)
    }
}

impl From<SinkError> for Error {
    fn from(e: SinkError) -> Error {
        Error::Output(e)
    }
}

/// The error as standard error shows it ([`Error::report`]), for the
/// hosts whose own errors are still worded in full.
impl From<Error> for String {
    fn from(e: Error) -> String {
        e.report()
    }
}
