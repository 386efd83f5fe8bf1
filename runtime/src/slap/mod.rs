//! The SLAP host: `animvm --trace` plays a SLAP scene frame by frame and
//! prints each frame's actors and camera as one JSON line ([`trace`]).
//! Drawing scenes in 3D (headless and in a window, as an app of the shared
//! window loop) is the next step; until then a SLAP module without
//! `--trace` is refused with a clear error rather than handed to another
//! language's host.
//!
//! Runtime errors of the scene (values the verifier cannot see, such as a
//! `size 0`) are reported on standard error as they happen, one line each:
//! `FILE:LINE:COL: error: frame F: MESSAGE` (`FILE: error: frame F: ...`
//! when the bundle was stripped of its positions); the scene goes on, and
//! `animvm` exits with status 1.

pub mod trace;

use animkit_vm::Program;
use animkit_vm::slap::Scene;
use std::io::Write;
use std::sync::Arc;

/// Playback speed of a scene when `--fps` does not say: frames per second.
pub const DEFAULT_FPS: f64 = 30.0;

/// How `animvm` runs a SLAP module: what its command line says, gathered
/// by `run::slap_options`.
#[derive(Clone, Debug, PartialEq)]
pub struct SlapOptions {
    /// `--trace`: JSON lines, one per frame.
    pub trace: bool,
    /// `--frames N`: frames to trace (default: the scene's length + 1,
    /// frames 0 to the length).
    pub frames: Option<u64>,
    /// `--fps N`: playback speed in frames per second; a trace does not
    /// depend on it.
    pub fps: f64,
}

impl Default for SlapOptions {
    fn default() -> SlapOptions {
        SlapOptions { trace: false, frames: None, fps: DEFAULT_FPS }
    }
}

/// Runs module `index` of `program`, a SLAP module, as `options` say:
/// with `--trace`, the trace to `stdout` and the scene's runtime errors to
/// `stderr`; returns how many runtime errors there were.
///
/// ```
/// use animkit_compiler::{compile, Source};
/// use animkit_runtime::slap::{run, SlapOptions};
/// let program = compile(&[Source::new("s.slap", "actor 1 size 2\ntime 1\n")], &Default::default()).unwrap();
/// let options = SlapOptions { trace: true, ..SlapOptions::default() };
/// let (mut out, mut err) = (Vec::new(), Vec::new());
/// assert_eq!(run(&options, program, 0, &mut out, &mut err), Ok(0));
/// assert_eq!(String::from_utf8(out).unwrap().lines().count(), 2); // frames 0 and 1
/// ```
pub fn run(
    options: &SlapOptions,
    program: Program,
    index: usize,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<usize, String> {
    if !options.trace {
        return Err("animvm: drawing SLAP scenes is not implemented yet; \
             `animvm --trace FILE` prints each frame's actors and camera\n"
            .into());
    }
    let scene = Scene::with_index(Arc::new(program), index).map_err(|e| format!("animvm: {e}\n"))?;
    trace::run(scene, options.frames, stdout, stderr)
}
