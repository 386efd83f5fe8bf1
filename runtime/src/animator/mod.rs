//! The Animator host: everything that runs Animator programs against real
//! pixels. A [`stream`] reads commands as they arrive (standard input) and
//! runs each at once; a [`script`] runs a compiled module; both drive the
//! same canvas: [`gl_canvas`] over the glow renderer, or [`cpu_canvas`],
//! the same front half with no GL (tessellation only). [`view`] maps root
//! coordinates to pixels, [`areas`] hit-tests named areas, [`events`]
//! formats event lines. [`headless`] runs a program with no window (`-H`);
//! [`window`] runs it in one, as an app of the shared window loop, with
//! input in SDL 1.2's terms ([`keys`]) and `defcursor` cursors
//! ([`cursor`]). See `docs/window.md`.
//!
//! ```
//! use animkit_runtime::animator::{CpuCanvas, stream::{Status, Stream}};
//! let mut s = Stream::new(CpuCanvas::new(64, 64), "<stdin>");
//! s.push(b"line 0 0 1 1\nflush\n");
//! s.finish();
//! assert_eq!(s.run(&mut std::io::sink()), Status::Done);
//! assert_eq!(s.canvas().flushes(), 1);
//! ```

// Without `desktop` the hosts are left out; the models they share stay.
#![cfg_attr(not(feature = "desktop"), allow(unused_imports, dead_code))]

pub mod canvas_frames;
pub mod cpu_canvas;
#[cfg(feature = "desktop")]
pub mod headless;
#[cfg(feature = "desktop")]
pub mod keys;
pub mod stream;
#[cfg(feature = "desktop")]
pub mod window;

pub mod script;
pub use animkit_player::animator::{
    FrameOut, NoFrames, areas, cursor, events, frame_out, gl_canvas, pen, sdl_keys, view,
};
pub use cpu_canvas::CpuCanvas;
pub use gl_canvas::{CanvasOptions, GlCanvas, WindowHooks};

use crate::Error;
use crate::cli::{Args, Target};
#[cfg(feature = "desktop")]
use crate::host::window_loop::check_display;
use crate::host::{Host, Io};
use animkit_vm::Program;
use animkit_vm::engine::program::Language;
use animkit_vm::engine::verify::Verified;
use std::io::{Read, Write};

/// How `animvm` runs an Animator program: what its command line says,
/// gathered by [`AnimatorHost::options`].
#[derive(Clone, Debug, PartialEq)]
pub struct AnimatorOptions {
    /// Frame width in pixels (`-x`).
    pub width: u32,
    /// Frame height in pixels (`-y`).
    pub height: u32,
    /// What shapes the canvas (`-a -C -R -D -F -d -e`).
    pub canvas: CanvasOptions,
    /// No window (`-H`).
    pub headless: bool,
    /// In a window: keep it (and its events) alive after the input ends
    /// (not `-k`).
    pub keepalive: bool,
    /// In a window: the Q key quits (`-q`).
    pub quit_on_q: bool,
    /// In a window: the user may resize it (not `-C`; `-R` allows it again).
    pub resizable: bool,
    /// `--watch`: the file a script came from; each save that builds
    /// starts the script over on the same canvas.
    pub watch: Option<String>,
}

impl Default for AnimatorOptions {
    fn default() -> AnimatorOptions {
        AnimatorOptions {
            width: 640,
            height: 480,
            canvas: CanvasOptions::default(),
            headless: false,
            keepalive: true,
            quit_on_q: false,
            resizable: true,
            watch: None,
        }
    }
}

/// The Animator host (see the [module documentation](self)). It takes
/// none of the sprite or SLAP hosts' options (`--state`, `--ticks`,
/// `--frames`, `--start`, `--sheet`, `--strict`, `--trace`): `animvm`
/// refuses them on an Animator script or stream
/// ([`check_options`](crate::cli::check_options)).
pub struct AnimatorHost;

impl Host for AnimatorHost {
    const LANGUAGE: Language = Language::Animator;
    /// First: a bundle with a `.draw` module runs it.
    const PREFERENCE: u8 = 0;
    const TRACES: bool = false;
    const WORD: &'static str = "Animator";
    const TARGET: Target = Target::Script;
    type Options = AnimatorOptions;

    /// ```
    /// use animkit_runtime::{animator::AnimatorHost, cli::parse, host::Host};
    /// let options = |args: &[&str]| {
    ///     let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    ///     AnimatorHost::options(&parse(&args).unwrap()).unwrap()
    /// };
    /// let o = options(&["-e", "-x", "320"]);
    /// assert_eq!((o.width, o.canvas.events, o.keepalive, o.resizable), (320, true, true, true));
    /// // -C: frames are not cleared, so the picture could not be redrawn at
    /// // another size; -R keeps the frame and allows resizing (the picture
    /// // stays anchored at the top-left corner).
    /// assert!(!options(&["-C"]).resizable);
    /// assert!(options(&["-R"]).resizable);
    /// ```
    fn options(args: &Args) -> Result<AnimatorOptions, Error> {
        Ok(AnimatorOptions {
            width: args.width,
            height: args.height,
            canvas: CanvasOptions {
                aspect: args.aspect,
                no_clear: args.no_clear,
                depth: args.depth,
                dump_fd: args.dump_fd,
                dump_head: args.dump_head.clone(),
                events: args.events,
                gif: args.gif.clone(),
                fps: args.fps,
                suspend_waits: false,
            },
            headless: args.headless,
            keepalive: args.keepalive,
            quit_on_q: args.quit_on_q,
            resizable: !args.no_clear || args.resizable_no_clear,
            watch: args.file.clone().filter(|_| args.watch),
        })
    }

    #[cfg(feature = "desktop")]
    fn run(options: &AnimatorOptions, program: Verified<Program>, module: usize, io: Io<'_>) -> Result<usize, Error> {
        run(options, AnimatorInput::Script(program, module), io.stdin, io.stderr)
    }
}

/// What an Animator host runs.
pub enum AnimatorInput {
    /// Animator commands from standard input (in a window, read on a
    /// thread of its own; the `stdin` given to [`run`] is not used).
    Stdin,
    /// Module `index` of a compiled program (an Animator module with an
    /// entry function).
    Script(Verified<Program>, usize),
}

/// Runs `source` headless or in a window, as `options` say; returns the
/// number of errors reported along the way (the exit status is 1 when
/// there were any).
#[cfg(feature = "desktop")]
pub fn run(
    options: &AnimatorOptions,
    source: AnimatorInput,
    stdin: &mut dyn Read,
    stderr: &mut dyn Write,
) -> Result<usize, Error> {
    if options.headless {
        return headless::run(options, source, stdin, stderr);
    }
    if options.canvas.gif.is_some() {
        return Err(Error::Usage("--gif writes frames headless: add -H".into()));
    }
    check_display()?;
    window::run(options, source, stderr)
}
