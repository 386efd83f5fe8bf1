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
pub mod sink_error;
pub mod ticker;
#[cfg(feature = "desktop")]
pub mod watch;
#[cfg(feature = "desktop")]
pub mod window_loop;

use crate::Error;
use crate::cli::{Args, Target};
use animkit_vm::Program;
use animkit_vm::engine::program::Language;
use animkit_vm::engine::verify::Verified;
use std::io::{Read, Write};
use std::time::Duration;

/// How often a host waiting for something else (a script's `sleep`, the
/// next frame of a scene) looks at the file under `--watch`.
pub const POLL: Duration = Duration::from_millis(20);

/// Frames per second of a SLAP scene when `--fps` does not say (see
/// [`animkit_player::slap::DEFAULT_FPS`]).
pub use animkit_player::slap::DEFAULT_FPS;

/// Whether descriptor 1 was closed when the process started
/// ([`mark_stdout_closed`]).
static STDOUT_CLOSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Says that descriptor 1 was closed when the process started: the Rust
/// runtime then opens `/dev/null` on it, and writes to
/// `std::io::stdout()` would succeed having written nothing. The `animvm`
/// binary checks before `main` and calls this; [`process_stdout`] then
/// fails every write.
pub fn mark_stdout_closed() {
    STDOUT_CLOSED.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// The process's standard output for what writes to it besides
/// [`Io::stdout`] (an Animator canvas's `echo`, event lines and
/// `screendump -`): `std::io::stdout()`, or [`ClosedStdout`] after
/// [`mark_stdout_closed`].
pub fn process_stdout() -> Box<dyn Write> {
    if STDOUT_CLOSED.load(std::sync::atomic::Ordering::Relaxed) {
        Box::new(ClosedStdout)
    } else {
        Box::new(std::io::stdout())
    }
}

/// Standard output when descriptor 1 was closed at the start: every write
/// fails with `standard output is closed (Bad file descriptor)` (Rust's own
/// `Stdout` reports success for writes to a closed descriptor).
///
/// ```
/// use std::io::Write;
/// let e = animkit_runtime::host::ClosedStdout.write_all(b"x").unwrap_err();
/// assert_eq!(e.to_string(), "standard output is closed (Bad file descriptor)");
/// ```
pub struct ClosedStdout;

impl Write for ClosedStdout {
    fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
        Err(std::io::Error::other("standard output is closed (Bad file descriptor)"))
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

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
/// [`options`](Host::options), which takes the host's own options; an
/// option of another host never reaches it: `animvm` refuses every option
/// that does not apply to what the file runs first, from one table
/// ([`check_options`](crate::cli::check_options), [`Error::ForeignOption`]).
///
/// ```
/// use animkit_runtime::cli::parse;
/// use animkit_runtime::host::Host;
/// use animkit_runtime::sprite::SpriteHost;
/// let args = parse(&["--trace", "--state", "Run", "hero.anim"].map(String::from)).unwrap();
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
    /// Whether it is where `--trace` goes when no module of another
    /// traced language is picked (it picks its own module and says what
    /// is missing), and what `animvm` runs then: one host only (`run.rs`
    /// checks it when the crate compiles). The sprite host.
    const TRACE_FALLBACK: bool = false;
    /// How a message names the language (`sprite`, `SLAP`, `Animator`).
    const WORD: &'static str;
    /// What a module of its language read from a file runs, for the
    /// options table ([`check_options`](crate::cli::check_options)).
    const TARGET: Target;
    /// Its options.
    type Options;

    /// Its options on the command line `args`.
    fn options(args: &Args) -> Result<Self::Options, Error>;

    /// Runs module `module` of `program` (a module of
    /// [`LANGUAGE`](Host::LANGUAGE)) as `options` say; returns the number
    /// of errors reported along the way (the exit status is 1 when there
    /// were any).
    #[cfg(feature = "desktop")]
    fn run(options: &Self::Options, program: Verified<Program>, module: usize, io: Io<'_>) -> Result<usize, Error>;

    /// `--trace`'s text for module `module` of `program` (a module of
    /// [`LANGUAGE`](Host::LANGUAGE)), one fixed run with no window, no
    /// file watching and no clock: what the web player's `trace` prints
    /// (`animvm` itself traces through [`run`](Host::run), which also
    /// watches). Runtime errors go to `stderr`. Only called for a host
    /// that [`TRACES`](Host::TRACES); the default refuses.
    fn trace(
        options: &Self::Options,
        program: Verified<Program>,
        module: usize,
        stdout: &mut dyn Write,
        stderr: &mut dyn Write,
    ) -> Result<(), Error> {
        let _ = (options, program, module, stdout, stderr);
        Err(Error::Usage(format!("{} modules are not traced", Self::LANGUAGE.name())))
    }
}

#[cfg(all(test, feature = "desktop"))]
mod tests {
    use super::Host;
    use crate::cli::parse;
    use crate::slap::{SlapHost, SlapOptions};
    use crate::sprite::SpriteHost;

    /// Every one-language option, as given on the command line.
    const FLAGS: [[&str; 2]; 4] = [["--state", "Run"], ["--ticks", "5"], ["--frames", "3"], ["--start", "7"]];

    fn args(flag: [&str; 2], file: &str) -> crate::cli::Args {
        parse(&[flag[0], flag[1], file].map(String::from)).unwrap()
    }

    #[test]
    fn each_host_takes_its_own_options() {
        let slap = |flag: [&str; 2]| SlapHost::options(&args(flag, "s.slap")).unwrap();
        let sprite = |flag: [&str; 2]| SpriteHost::options(&args(flag, "hero.anim")).unwrap();
        let [state, ticks, frames, start] = FLAGS;
        assert_eq!((slap(frames).frames, slap(frames).start), (Some(3), 0));
        assert_eq!((slap(start).frames, slap(start).start), (None, 7));
        assert_eq!((sprite(state).state, sprite(state).ticks), (Some("Run".into()), 100));
        assert_eq!((sprite(ticks).state, sprite(ticks).ticks), (None, 5));
        // Another host's are refused before any host sees them.
        use crate::cli::{Target, check_options};
        for (flag, target) in [(state, Target::Slap), (frames, Target::Sprite), (ticks, Target::Script)] {
            assert!(check_options(&args(flag, "f"), target, "f").is_err(), "{flag:?}");
        }
    }

    #[test]
    fn a_slap_options_struct_has_no_state_to_carry() {
        // Every field of SlapOptions, named: a `state` (or `ticks`) field
        // added to it breaks this pattern, so a SLAP host cannot be given
        // the sprite host's start state by construction.
        let SlapOptions { trace, frames, fps, file, headless, width, height, dump_head, gif, start, watch, strict } =
            SlapHost::options(&args(["--start", "4"], "s.slap")).unwrap();
        assert_eq!((trace, frames, fps, file.as_str(), headless), (false, None, 30.0, "s.slap", false));
        assert_eq!((width, height, dump_head, gif, start, watch, strict), (640, 480, None, None, 4, false, false));
    }
}
