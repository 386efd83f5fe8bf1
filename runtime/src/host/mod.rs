//! What every language's host shares, whatever it runs: the [`Host`]
//! trait each language's host implements (its options, built from the
//! command line, and its run), a window with its OpenGL context
//! ([`gl_window`]), the one window event loop ([`window_loop`]: the
//! [`WindowApp`](window_loop::WindowApp) trait each windowed host
//! implements), a fixed-rate [`ticker`], file watching for `--watch`
//! ([`watch`]), where drawn frames go ([`sink`]: `-d` PNGs, `--gif` and the
//! terminal progress, one [`FrameSink`](sink::FrameSink) for every host),
//! the files `animvm` writes ([`files`]: the renderer produces bytes, the
//! host writes them), animated GIFs ([`gif`]) and a terminal [`progress`]
//! bar. The hosts themselves live with their language: `animator/`,
//! `sprite/` and `slap/`. See `docs/window.md`.

pub mod files;
pub mod gif;
#[cfg(feature = "desktop")]
pub mod gl_window;
pub mod progress;
pub mod sink;
pub mod ticker;
#[cfg(feature = "desktop")]
pub mod watch;
#[cfg(feature = "desktop")]
pub mod window_loop;

use crate::Error;
use crate::cli::Args;
use animkit_vm::Program;
use animkit_vm::program::Language;
use animkit_vm::verify::Verified;
use std::io::{Read, Write};
use std::time::Duration;

/// How often a host waiting for something else (a script's `sleep`, the
/// next frame of a scene) looks at the file under `--watch`.
pub const POLL: Duration = Duration::from_millis(20);

/// Frames per second of a SLAP scene in a window and in a GIF, and of an
/// Animator GIF frame the program asked no wait for, when `--fps` does not
/// say (the rate the original SLAP engine's scripts count in: `define sec
/// 30`).
pub const DEFAULT_FPS: f64 = 30.0;

/// The streams a host runs with.
pub struct Io<'a> {
    /// Standard input (Animator streams read it).
    pub stdin: &'a mut dyn Read,
    /// Standard output (traces, `echo`, event lines).
    pub stdout: &'a mut dyn Write,
    /// Standard error (diagnostics, runtime errors, progress).
    pub stderr: &'a mut dyn Write,
}

/// One language's host: how `animvm` runs that language's modules. Each
/// host's options are a struct of its own, built from the command line by
/// [`options`](Host::options), which takes the host's own one-language
/// options and refuses another host's ([`Error::ForeignOption`]), so no
/// host sees an option it has no meaning for.
///
/// ```
/// use animkit_runtime::cli::parse;
/// use animkit_runtime::host::Host;
/// use animkit_runtime::slap::SlapHost;
/// use animkit_runtime::sprite::SpriteHost;
/// let args = parse(&["--trace", "--state", "Run", "scene.slap"].map(String::from)).unwrap();
/// assert_eq!(
///     SlapHost::options(&args).unwrap_err().report(),
///     "animvm: --state is for sprite modules, and scene.slap runs a SLAP scene (its options: --frames, --start)\n"
/// );
/// assert_eq!(SpriteHost::options(&args).unwrap().state.as_deref(), Some("Run"));
/// ```
pub trait Host {
    /// The language whose modules it runs.
    const LANGUAGE: Language;
    /// Where the language comes in the order `animvm` prefers when no
    /// `--module` is given (lower first).
    const PREFERENCE: u8;
    /// Whether `--trace` traces its modules.
    const TRACES: bool;
    /// Its options.
    type Options;

    /// Its options on the command line `args`.
    fn options(args: &Args) -> Result<Self::Options, Error>;

    /// Runs module `module` of `program` (a module of
    /// [`LANGUAGE`](Host::LANGUAGE)) as `options` say; returns the number
    /// of errors reported along the way (the exit status is 1 when there
    /// were any).
    fn run(options: &Self::Options, program: Verified<Program>, module: usize, io: Io<'_>) -> Result<usize, Error>;
}
