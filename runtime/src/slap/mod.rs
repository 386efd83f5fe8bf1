//! The SLAP host: a scene's actors drawn as Polly birds on a lit,
//! checkered stage through the scene's camera, headless (`-H`: PNG frames
//! with `-d`, an animated GIF with `--gif`) or in a window at the scene's
//! frame rate; or, with `--trace`, each frame's actors and camera as one
//! JSON line.
//!
//! | module | what |
//! | --- | --- |
//! | [`trace`] | `--trace`: a JSON line per frame |
//! | [`polly`] | Polly's meshes, generated in code, one per moving part at each level of detail |
//! | [`pose`] | an actor's state and pose at a frame to one instance per part |
//! | [`camera`] | the scene camera as a projection; projecting points to pixels; letterboxing |
//! | [`view`] | [`SceneView`](view::SceneView): a frame as one 3D pass, one draw call per part and level of detail in use, actors out of view culled |
//! | [`headless`] | `-H`: frames `--start F` .. for `--frames N`, written by `-d` and `--gif` |
//! | [`window`] | the player window: Space, Left/Right, R, Q |
//!
//! The simulation is the vm crate's ([`animkit_vm::engine::slap::SceneSim`]); this
//! host only observes it. Runtime errors of the scene (values the verifier
//! cannot see, such as a `size 0` in a hand-made bundle; the compiler
//! refuses them in a source) are reported on standard error as their
//! frame is reached, each once, one line each: `FILE:LINE:COL: error:
//! frame F: MESSAGE` (`FILE: error: frame F: ...` when the bundle was
//! stripped of its positions); the scene goes on, and `animvm` exits with
//! status 1.

// Without `desktop` the hosts are left out; the models they share stay.
#![cfg_attr(not(feature = "desktop"), allow(unused_imports, dead_code))]

pub mod headless;
pub mod trace;
#[cfg(feature = "desktop")]
pub mod window;

use crate::Error;
use crate::cli::{Args, HostFlag, Target};
use crate::host::{Host, Io};
use animkit_vm::Program;
use animkit_vm::engine::program::Language;
use animkit_vm::engine::slap::SceneSim;
use animkit_vm::engine::verify::Verified;
use std::io::Write;
use std::sync::Arc;

pub use crate::host::DEFAULT_FPS;
pub use animkit_player::slap::{ErrorLog, MAX_FRAME, camera, log, polly, pose, view};

/// How `animvm` runs a SLAP module: what its command line says, gathered
/// by [`SlapHost::options`]. It has no place for the sprite host's
/// `--state` or `--ticks` (refused by [`check_options`](crate::cli::check_options)
/// naming the option):
///
/// ```compile_fail
/// let o = animkit_runtime::slap::SlapOptions { state: Some("Run".into()), ..Default::default() };
/// ```
///
/// ```
/// let o = animkit_runtime::slap::SlapOptions { start: 5, ..Default::default() };
/// assert_eq!(o.start, 5);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct SlapOptions {
    /// `--trace`: JSON lines, one per frame.
    pub trace: bool,
    /// `--frames N`: frames to trace or draw headless (default: from
    /// `start` to the scene's length, inclusive).
    pub frames: Option<u64>,
    /// `--fps N`: playback speed in frames per second, in a window and in
    /// a GIF; a trace does not depend on it.
    pub fps: f64,
    /// The file the program came from (the window's title).
    pub file: String,
    /// `-H`: no window.
    pub headless: bool,
    /// The picture's size in pixels (`-x`, `-y`); a window keeps its
    /// aspect when resized.
    pub width: u32,
    /// See `width`.
    pub height: u32,
    /// `-d head`: write each frame as `headFFFF.png`, numbered by its frame
    /// in the scene.
    pub dump_head: Option<String>,
    /// `--gif FILE`: write the frames as an animated GIF (headless).
    pub gif: Option<String>,
    /// `--start F`: the first frame traced or drawn (the scene still runs
    /// from frame 0, so frame F looks the same either way); the window
    /// starts there too.
    pub start: u64,
    /// `--watch`: in the player window, build the file again each time it
    /// is saved and start the new scene over at `start` (a failed build
    /// keeps the old one playing). A trace or headless frames are one
    /// fixed run, so they refuse it.
    pub watch: bool,
    /// `--strict`: a source is compiled in spec-only mode (animkit's SLAP
    /// extensions refused), on the fly and at each `--watch` rebuild.
    pub strict: bool,
}

impl Default for SlapOptions {
    fn default() -> SlapOptions {
        SlapOptions {
            trace: false,
            frames: None,
            fps: DEFAULT_FPS,
            file: String::new(),
            headless: false,
            width: 640,
            height: 480,
            dump_head: None,
            gif: None,
            start: 0,
            watch: false,
            strict: false,
        }
    }
}

/// The SLAP host (see the [module documentation](self)).
pub struct SlapHost;

impl Host for SlapHost {
    const LANGUAGE: Language = Language::Slap;
    /// Last: a bundle with Animator or sprite modules runs those.
    const PREFERENCE: u8 = 2;
    const TRACES: bool = true;
    const WORD: &'static str = "SLAP";
    const TARGET: Target = Target::Slap;
    type Options = SlapOptions;

    /// ```
    /// use animkit_runtime::{cli::parse, host::Host, slap::SlapHost};
    /// let o = SlapHost::options(&parse(&["--trace".into(), "--frames".into(), "5".into(), "--fps".into(), "60".into()]).unwrap()).unwrap();
    /// assert_eq!((o.trace, o.frames, o.fps), (true, Some(5), 60.0));
    /// let args = ["-H", "--gif", "s.gif", "--start", "30", "s.slap"].map(String::from);
    /// let o = SlapHost::options(&parse(&args).unwrap()).unwrap();
    /// assert_eq!((o.headless, o.gif.as_deref(), o.start, o.file.as_str()), (true, Some("s.gif"), 30, "s.slap"));
    /// ```
    fn options(args: &Args) -> Result<SlapOptions, Error> {
        let mut o = SlapOptions {
            trace: args.trace,
            frames: None,
            fps: args.fps,
            file: args.file.clone().unwrap_or_default(),
            headless: args.headless,
            width: args.width,
            height: args.height,
            dump_head: args.dump_head.clone(),
            gif: args.gif.clone(),
            start: 0,
            watch: args.watch,
            strict: args.strict,
        };
        for flag in &args.host_flags {
            match flag {
                HostFlag::Frames(n) => o.frames = Some(*n),
                HostFlag::Start(f) => o.start = *f,
                // The sprite host's: refused before (`cli::check_options`).
                HostFlag::State(_) | HostFlag::Ticks(_) => {}
            }
        }
        Ok(o)
    }

    #[cfg(feature = "desktop")]
    fn run(options: &SlapOptions, program: Verified<Program>, module: usize, io: Io<'_>) -> Result<usize, Error> {
        run(options, program, module, io.stdout, io.stderr)
    }

    fn trace(
        options: &SlapOptions,
        program: Verified<Program>,
        module: usize,
        stdout: &mut dyn Write,
        stderr: &mut dyn Write,
    ) -> Result<(), Error> {
        trace_module(options, program, module, stdout, stderr).map(|_| ())
    }
}

/// Refuses a `--start` / `--frames` range that goes past [`MAX_FRAME`].
///
/// ```
/// use animkit_runtime::slap::{SlapOptions, check_frames};
/// let o = SlapOptions { start: u64::MAX, frames: Some(3), ..SlapOptions::default() };
/// assert_eq!(
///     check_frames(&o, 100).unwrap_err().report(),
///     "animvm: --start 18446744073709551615 --frames 3 ends at frame 18446744073709551617, \
///      past the last frame animvm plays (4294967295)\n"
/// );
/// assert!(check_frames(&SlapOptions { start: 5, frames: Some(3), ..SlapOptions::default() }, 100).is_ok());
/// ```
pub fn check_frames(options: &SlapOptions, length: u64) -> Result<(), Error> {
    let (first, count) = headless::frame_range(options, length);
    let last = u128::from(first) + u128::from(count.max(1)) - 1;
    if last <= u128::from(MAX_FRAME) {
        return Ok(());
    }
    let frames = options.frames.map(|n| format!(" --frames {n}")).unwrap_or_default();
    Err(Error::Usage(format!(
        "--start {first}{frames} ends at frame {last}, past the last frame animvm plays ({MAX_FRAME})"
    )))
}

/// Runs module `index` of `program`, a SLAP module, as `options` say: with
/// `--trace`, the trace to `stdout`; else drawn headless or in a window.
/// The scene's runtime errors go to `stderr`; returns how many there were.
///
/// ```
/// use animkit_compiler::{compile, Source};
/// use animkit_runtime::slap::{run, SlapOptions};
/// let program = compile(&[Source::new("s.slap", "actor 1 size 2\ntime 1\n")], &Default::default()).unwrap();
/// let program = animkit_vm::engine::verify::verify(program).unwrap();
/// let options = SlapOptions { trace: true, ..SlapOptions::default() };
/// let (mut out, mut err) = (Vec::new(), Vec::new());
/// assert_eq!(run(&options, program, 0, &mut out, &mut err), Ok(0));
/// assert_eq!(String::from_utf8(out).unwrap().lines().count(), 2); // frames 0 and 1
/// ```
#[cfg(feature = "desktop")]
pub fn run(
    options: &SlapOptions,
    program: Verified<Program>,
    index: usize,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<usize, Error> {
    if options.watch && (options.trace || options.headless) {
        return Err(Error::Usage(
            "--watch plays a SLAP scene in a window (it starts over on each save); \
             a trace or headless frames are one fixed run: leave out --trace and -H"
                .into(),
        ));
    }
    if !options.trace && !options.headless {
        if options.gif.is_some() {
            return Err(Error::Usage("--gif writes frames headless: add -H".into()));
        }
        crate::host::window_loop::check_display()?;
    }
    if options.trace {
        return trace_module(options, program, index, stdout, stderr);
    }
    let name = program.modules.get(index).map(|m| program.string(m.name).to_string()).unwrap_or_default();
    let scene = SceneSim::with_index(Arc::new(program), index).map_err(|e| Error::Module(e.to_string()))?;
    check_frames(options, scene.length())?;
    if options.headless { headless::run(options, scene, stderr) } else { window::run(options, scene, &name, stderr) }
}

/// `--trace` of module `index` of `program`: the frames `--start` and
/// `--frames` choose, one JSON line each, to `stdout` (`animvm --trace`
/// and the web player's trace, through [`Host::trace`]); returns the
/// number of runtime errors reported on `stderr`.
pub fn trace_module(
    options: &SlapOptions,
    program: Verified<Program>,
    index: usize,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<usize, Error> {
    let mut scene = SceneSim::with_index(Arc::new(program), index).map_err(|e| Error::Module(e.to_string()))?;
    check_frames(options, scene.length())?;
    let (first, count) = headless::frame_range(options, scene.length());
    scene.seek(first);
    trace::run(scene, Some(count), stdout, stderr)
}

/// The scene of a new build of the file (`--watch`): its SLAP module named
/// `name`, or else its only SLAP module; an error says why there is none.
///
/// ```
/// use animkit_compiler::{compile, Source};
/// use animkit_runtime::slap::scene_of;
/// use animkit_vm::engine::verify::verify;
/// let program = compile(&[Source::new("s.slap", "actor 1 size 2\ntime 4\n")], &Default::default()).unwrap();
/// assert_eq!(scene_of(verify(program).unwrap(), "s").map(|s| s.length()).ok(), Some(4));
/// let sprites = compile(&[Source::new("s.anim", "Idle: 5, _loop\n")], &Default::default()).unwrap();
/// let sprites = verify(sprites).unwrap();
/// assert_eq!(scene_of(sprites, "s").unwrap_err().to_string(), "the new build has no SLAP scene");
/// ```
pub fn scene_of(program: Verified<Program>, name: &str) -> Result<SceneSim, Error> {
    let slap: Vec<usize> = (0..program.modules.len())
        .filter(|&i| program.modules[i].language == animkit_vm::engine::program::Language::Slap)
        .collect();
    let named = slap.iter().copied().find(|&i| program.string(program.modules[i].name) == name);
    let index = match (named, slap.as_slice()) {
        (Some(i), _) | (None, &[i]) => i,
        (None, []) => return Err(Error::Module("the new build has no SLAP scene".into())),
        (None, _) => {
            return Err(Error::Module(format!("the new build has no SLAP scene `{name}` (and several others)")));
        }
    };
    SceneSim::with_index(Arc::new(program), index).map_err(|e| Error::Module(e.to_string()))
}
