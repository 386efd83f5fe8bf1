//! The sprite host: `animvm --trace` prints a sprite instance's states,
//! frames and events tick by tick ([`trace`]); otherwise a sprite module
//! plays in the viewer ([`view`]: each frame's cell of its sprite sheet,
//! and an overlay), headless for `--ticks` frames (written by `-d`, or as
//! one GIF by `--gif`) or in a window
//! ([`window`], an app of the shared window loop) at 50 ticks per second.
//! With `--watch`, [`reload`] moves the running instance onto each new
//! build of the file.

// Without `desktop` the hosts are left out; the models they share stay.
#![cfg_attr(not(feature = "desktop"), allow(unused_imports, dead_code))]

#[cfg(feature = "desktop")]
pub mod reload;
pub mod trace;
pub mod view;
pub mod view_error;
#[cfg(feature = "desktop")]
pub mod window;

use crate::Error;
use crate::cli::{Args, HostFlag, Target};
use crate::host::sink::{FrameSink, FrameSource, Timing};
#[cfg(feature = "desktop")]
use crate::host::window_loop::check_display;
use crate::host::{Host, Io};
#[cfg(feature = "desktop")]
use crate::render::{HeadlessGl, RgbaImage};
use animkit_vm::engine::program::{Language, Program};
use animkit_vm::engine::sprite::{SpriteInstance, Sprites};
use animkit_vm::engine::verify::Verified;
use std::io::Write;
use std::sync::Arc;
use view::{SheetSpec, SpriteView, TICKS_PER_SECOND};

/// How `animvm` runs a sprite module: what its command line says,
/// gathered by [`SpriteHost::options`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpriteOptions {
    /// The file the program came from (for messages).
    pub file: String,
    /// `--module`: which sprite module (default: the only one).
    pub module: Option<String>,
    /// `--state`: the state to start in (default: the first).
    pub state: Option<String>,
    /// `--ticks`: ticks to trace, or frames to draw headless and write
    /// (default [`DEFAULT_TICKS`]).
    pub ticks: u64,
    /// `--trace`: JSON lines instead of pictures.
    pub trace: bool,
    /// The viewer without a window (`-H`).
    pub headless: bool,
    /// Viewer size in pixels (`-x`, `-y`).
    pub width: u32,
    /// See `width`.
    pub height: u32,
    /// `-d head`: write the first `ticks` frames as `headNNNN.png`.
    pub dump_head: Option<String>,
    /// `--gif FILE` (headless): the `ticks` frames as an animated GIF at
    /// the viewer's 50 ticks a second.
    pub gif: Option<String>,
    /// `--sheet Category=sheet.png:COLSxROWS`, repeatable.
    pub sheets: Vec<String>,
    /// `--watch`: reload the file when it is saved (headless and traces
    /// then run at 50 ticks per second).
    pub watch: bool,
}

/// Ticks traced or drawn when `--ticks` does not say.
pub const DEFAULT_TICKS: u64 = 100;

/// The most ticks [`Host::trace`] traces (about 93 hours at 50 ticks a
/// second): a trace with no process to stop (the web player's) ends there.
pub const MAX_TRACE_TICKS: u64 = 1 << 24;

/// The sprite host (see the [module documentation](self)).
pub struct SpriteHost;

impl Host for SpriteHost {
    const LANGUAGE: Language = Language::Sprite;
    /// After Animator: a bundle with a `.draw` module runs that.
    const PREFERENCE: u8 = 1;
    const TRACES: bool = true;
    /// `--trace` on a program with no traced module of another language
    /// comes here, which says what is missing.
    const TRACE_FALLBACK: bool = true;
    const WORD: &'static str = "sprite";
    const TARGET: Target = Target::Sprite;
    type Options = SpriteOptions;

    /// ```
    /// use animkit_runtime::{cli::parse, host::Host, sprite::SpriteHost};
    /// let o = SpriteHost::options(&parse(&["--trace".into(), "--ticks".into(), "5".into(), "hero.anim".into()]).unwrap()).unwrap();
    /// assert_eq!((o.trace, o.ticks, o.file.as_str()), (true, 5, "hero.anim"));
    /// ```
    fn options(args: &Args) -> Result<SpriteOptions, Error> {
        let mut o = SpriteOptions {
            file: args.file.clone().unwrap_or_default(),
            module: args.module.clone(),
            state: None,
            ticks: DEFAULT_TICKS,
            trace: args.trace,
            headless: args.headless,
            width: args.width,
            height: args.height,
            dump_head: args.dump_head.clone(),
            gif: args.gif.clone(),
            sheets: args.sheets.clone(),
            watch: args.watch,
        };
        for flag in &args.host_flags {
            match flag {
                HostFlag::State(s) => o.state = Some(s.clone()),
                HostFlag::Ticks(n) => o.ticks = *n,
                // The SLAP host's: refused before (`cli::check_options`).
                HostFlag::Frames(_) | HostFlag::Start(_) => {}
            }
        }
        Ok(o)
    }

    /// Runs the sprite module `--module` names, or the program's only one
    /// (`module` is not used: with several sprite modules and no
    /// `--module`, the host asks for one).
    #[cfg(feature = "desktop")]
    fn run(options: &SpriteOptions, program: Verified<Program>, _module: usize, io: Io<'_>) -> Result<usize, Error> {
        run(options, program, io.stdout, io.stderr)
    }

    /// Traces module `module` (the one the caller picked), at most
    /// [`MAX_TRACE_TICKS`] ticks.
    fn trace(
        options: &SpriteOptions,
        program: Verified<Program>,
        module: usize,
        stdout: &mut dyn Write,
        _stderr: &mut dyn Write,
    ) -> Result<(), Error> {
        let name = program.modules.get(module).map(|m| program.string(m.name).to_string()).unwrap_or_default();
        let sprites = Sprites::new(Arc::new(program), &name).map_err(|e| Error::Module(e.to_string()))?;
        let mut inst = start_instance(&sprites, options.state.as_deref())?;
        for t in 0..options.ticks.min(MAX_TRACE_TICKS) {
            inst.tick();
            trace::write_line(stdout, t, &mut inst).map_err(trace_error)?;
        }
        Ok(())
    }
}

/// Runs a sprite module of `program` as `options` say: a trace to
/// `stdout`, or the viewer; returns the number of errors reported (0).
#[cfg(feature = "desktop")]
pub fn run(
    options: &SpriteOptions,
    program: Verified<Program>,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<usize, Error> {
    let windowed = !options.trace && !options.headless;
    if windowed {
        if options.gif.is_some() {
            return Err(Error::Usage("--gif writes frames headless: add -H".into()));
        }
        check_display()?;
    }
    let program = Arc::new(program);
    let sprites = pick_module(options, &program)?;
    if options.trace {
        return run_trace(options, sprites, stdout, stderr).map(|()| 0);
    }
    let state = options.state.clone().unwrap_or_else(|| sprites.state_name(0).to_string());
    let mut sheets = options
        .sheets
        .iter()
        .map(|s| SheetSpec::parse(s))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| Error::Usage(e.to_string()))?;
    if crate::load::is_aseprite(&options.file) {
        // The export brings its sheet; a --sheet for its category wins.
        let json = animkit_compiler::files::read_source(&options.file)
            .and_then(|b| String::from_utf8(b).map_err(|_| format!("error: `{}` is not UTF-8 text\n", options.file)))
            .map_err(Error::Load)?;
        let sheet = SheetSpec::from_aseprite(&options.file, &json).map_err(|e| Error::Host(e.to_string()))?;
        if !sheets.iter().any(|s| s.category == sheet.category) {
            sheets.push(sheet);
        }
    }
    if options.headless {
        return run_headless(options, sprites, &state, &sheets, stderr);
    }
    window::run(options, sprites, &state, sheets, stderr)
}

/// The sprite module `--module` names, or the only one.
#[cfg(feature = "desktop")]
fn pick_module(options: &SpriteOptions, program: &Arc<Verified<Program>>) -> Result<Sprites, Error> {
    let file = &options.file;
    let sprite_modules: Vec<&str> =
        program.modules.iter().filter(|m| m.language == Language::Sprite).map(|m| program.string(m.name)).collect();
    let name = match (&options.module, sprite_modules.as_slice()) {
        (Some(m), _) => m.clone(),
        (None, [one]) => one.to_string(),
        (None, []) => return Err(Error::Module(format!("`{file}` has no sprite module to run"))),
        (None, many) => {
            return Err(Error::Module(format!(
                "`{file}` has several sprite modules ({}); choose one with --module",
                many.join(", ")
            )));
        }
    };
    Sprites::new(program.clone(), &name).map_err(|e| Error::Module(e.to_string()))
}

/// The `--watch` reloader, if asked for.
#[cfg(feature = "desktop")]
fn reloader(options: &SpriteOptions) -> Result<Option<reload::Reloader>, Error> {
    options.watch.then(|| reload::Reloader::new(&options.file)).transpose()
}

/// With `--watch`, waits for tick `t` of a run at 50 ticks per second, so
/// that edits made while it runs land at a known time.
#[cfg(feature = "desktop")]
fn pace(options: &SpriteOptions, start: std::time::Instant, t: u64) {
    if options.watch {
        let due = start + std::time::Duration::from_millis(t * 1000 / view::TICKS_PER_SECOND as u64);
        std::thread::sleep(due.saturating_duration_since(std::time::Instant::now()));
    }
}

/// `--trace`: one JSON line per tick.
#[cfg(feature = "desktop")]
fn run_trace(
    options: &SpriteOptions,
    sprites: Sprites,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<(), Error> {
    let mut sprites = sprites;
    let mut inst = start_instance(&sprites, options.state.as_deref())?;
    let mut watch = reloader(options)?;
    let mut out = std::io::BufWriter::new(stdout);
    let start = std::time::Instant::now();
    for t in 0..options.ticks {
        pace(options, start, t);
        if let Some(new) = watch.as_mut().and_then(|w| w.poll(&sprites, stderr)) {
            reload::reload_instance(&mut inst, &new, &options.file, stderr);
            sprites = new;
        }
        inst.tick();
        trace::write_line(&mut out, t, &mut inst).map_err(trace_error)?;
        if options.watch {
            out.flush().map_err(trace_error)?;
        }
    }
    out.flush().map_err(trace_error)
}

/// An instance of `sprites` in `state` (default: the first state); an
/// unknown state's error lists the states.
fn start_instance(sprites: &Sprites, state: Option<&str>) -> Result<SpriteInstance, Error> {
    let state = state.unwrap_or_else(|| sprites.state_name(0));
    sprites.instance(state).map_err(|e| {
        let names: Vec<&str> = (0..sprites.state_count()).map(|i| sprites.state_name(i as u16)).collect();
        Error::Module(format!("{e}; the states are: {}", names.join(", ")))
    })
}

/// The trace could not be written to standard output.
fn trace_error(e: std::io::Error) -> Error {
    Error::Trace(e.to_string())
}

/// The viewer, headless: `--ticks` frames, written by `-d` and `--gif`.
#[cfg(feature = "desktop")]
fn run_headless(
    options: &SpriteOptions,
    sprites: Sprites,
    state: &str,
    sheets: &[SheetSpec],
    stderr: &mut dyn Write,
) -> Result<usize, Error> {
    let mut renderer = HeadlessGl::new(options.width, options.height)
        .and_then(|gl| gl.into_renderer())
        .map_err(|e| Error::Display(format!("cannot start headless OpenGL: {e}")))?;
    let view = SpriteView::new(sprites, state, sheets, &mut renderer).map_err(|e| Error::Host(e.to_string()))?;
    let mut sink =
        FrameSink::new(options.dump_head.as_deref(), options.gif.as_deref(), Timing::Rate(f64::from(TICKS_PER_SECOND)))
            .with_total(options.ticks);
    sink.start_gif(options.width, options.height, &[])?;
    let watch = reloader(options)?;
    let mut ticks = Ticks { options, view, renderer, watch, stderr, start: std::time::Instant::now() };
    sink.record(options.ticks, &mut ticks)?;
    Ok(0)
}

/// The viewer's ticks, headless, for [`FrameSink::record`].
#[cfg(feature = "desktop")]
struct Ticks<'a> {
    options: &'a SpriteOptions,
    view: SpriteView,
    renderer: crate::render::Renderer,
    watch: Option<reload::Reloader>,
    stderr: &'a mut dyn Write,
    start: std::time::Instant,
}

#[cfg(feature = "desktop")]
impl FrameSource for Ticks<'_> {
    fn draw(&mut self, t: u64) -> Result<(), Error> {
        pace(self.options, self.start, t);
        if let Some(new) = self.watch.as_mut().and_then(|w| w.poll(self.view.sprites(), self.stderr)) {
            self.view.reload(&new, &self.options.file, self.stderr);
        }
        self.view.tick();
        self.view.draw(&mut self.renderer);
        Ok(())
    }

    fn pixels(&mut self) -> Result<RgbaImage, Error> {
        Ok(self.renderer.read_pixels())
    }
}
