//! The SLAP host: a scene's actors drawn as Polly birds on a lit,
//! checkered stage through the scene's camera, headless (`-H`: PNG frames
//! with `-d`, an animated GIF with `--gif`) or in a window at the scene's
//! frame rate.
//!
//! | module | what |
//! | --- | --- |
//! | [`polly`] | Polly's meshes, generated in code, one per moving part |
//! | [`pose`] | an actor's state and pose at a frame to one instance per part |
//! | [`camera`] | the scene camera as a projection; projecting points to pixels; letterboxing |
//! | [`view`] | [`SceneView`](view::SceneView): a frame as one 3D pass, one draw call per part |
//! | [`headless`] | `-H`: frames `--start F` .. for `--frames N`, written by `-d` and `--gif` |
//! | [`window`] | the player window: Space, Left/Right, R, Q |
//!
//! The simulation is the vm crate's ([`animkit_vm::slap::Scene`]); this
//! host only observes it. Runtime errors of the scene (a command the
//! domain refused) are printed to standard error as their frame is
//! reached, each once, and make the exit status 1.

pub mod camera;
pub mod headless;
pub mod polly;
pub mod pose;
pub mod view;
pub mod window;

use animkit_vm::Program;
use animkit_vm::slap::Scene;
use std::io::Write;
use std::sync::Arc;

/// Frames a second when `--fps` is not given: the rate the original
/// engine's scripts count in (`define sec 30`).
pub const DEFAULT_FPS: u32 = 30;

/// How `animvm` runs a SLAP module: what its command line says, gathered
/// by `run::slap_options`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlapOptions {
    /// The file the program came from (for messages).
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
    /// `--frames N`: how many frames to draw headless (default: from the
    /// start to the scene's length, inclusive).
    pub frames: Option<u64>,
    /// `--start F`: the first frame drawn (the scene still runs from frame
    /// 0, so frame F looks the same either way); the window starts there
    /// too.
    pub start: u64,
    /// `--fps N`: frames a second in a window and in a GIF.
    pub fps: u32,
}

impl Default for SlapOptions {
    fn default() -> SlapOptions {
        SlapOptions {
            file: String::new(),
            headless: false,
            width: 640,
            height: 480,
            dump_head: None,
            gif: None,
            frames: None,
            start: 0,
            fps: DEFAULT_FPS,
        }
    }
}

/// Runs module `index` of `program`, a SLAP module, as `options` say;
/// returns the number of runtime errors the scene reported (on `stderr`).
///
/// ```no_run
/// use animkit_runtime::slap::{SlapOptions, run};
/// # let program = animkit_vm::Program::default();
/// let options = SlapOptions { headless: true, gif: Some("story.gif".into()), ..SlapOptions::default() };
/// let errors = run(&options, program, 0, &mut std::io::stderr())?;
/// # Ok::<(), String>(())
/// ```
pub fn run(options: &SlapOptions, program: Program, index: usize, stderr: &mut dyn Write) -> Result<usize, String> {
    if !options.headless {
        if options.gif.is_some() {
            return Err("animvm: --gif writes frames headless: add -H\n".into());
        }
        crate::host::window_loop::check_display()?;
    }
    let scene = Scene::with_index(Arc::new(program), index).map_err(|e| format!("animvm: {e}\n"))?;
    if options.headless { headless::run(options, scene, stderr) } else { window::run(options, scene, stderr) }
}

/// Prints a scene's runtime errors as the frames they happened at are
/// reached, each once, even when the scene restarts (a restart, or a step
/// back, runs the same frames again).
#[derive(Debug, Default)]
pub struct ErrorLog {
    /// Errors at frames up to this one have been printed.
    printed_through: Option<u64>,
    /// Errors reported so far.
    reported: u64,
}

impl ErrorLog {
    /// Prints the errors of `scene` at frames not printed yet, up to its
    /// current frame, as `animvm: FILE: frame F: LINE:COL: ...`.
    pub fn report(&mut self, file: &str, scene: &Scene, stderr: &mut dyn Write) {
        let now = scene.frame();
        if self.printed_through.is_some_and(|p| p >= now) {
            return;
        }
        for e in scene.errors() {
            if self.printed_through.is_none_or(|p| e.frame > p) && e.frame <= now {
                let _ = writeln!(stderr, "animvm: {file}: {e}");
                self.reported += 1;
            }
        }
        self.printed_through = Some(now);
    }

    /// At the end of a run: says how many errors the scene only counted
    /// (it keeps the first
    /// [`MAX_KEPT_ERRORS`](animkit_vm::slap::scene::MAX_KEPT_ERRORS)).
    pub fn finish(&mut self, file: &str, scene: &Scene, stderr: &mut dyn Write) {
        let hidden = scene.error_count().saturating_sub(scene.errors().len() as u64);
        if hidden > 0 {
            let _ = writeln!(stderr, "animvm: {file}: {hidden} more runtime errors not shown");
            self.reported += hidden;
        }
    }

    /// How many errors were reported.
    pub fn count(&self) -> usize {
        self.reported as usize
    }
}
