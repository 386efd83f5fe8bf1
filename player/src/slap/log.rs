//! What the hosts and the [`Player`](crate::player::Player) share about a
//! SLAP scene's frames: the last frame played ([`MAX_FRAME`]), the default
//! rate ([`DEFAULT_FPS`]) and the one-line reports of its runtime errors
//! ([`ErrorLog`]).

use animkit_vm::engine::slap::SceneSim;
use std::io::Write;

/// Frames per second of a SLAP scene in a window and in a GIF, and of an
/// Animator GIF frame the program asked no wait for, when `--fps` does not
/// say (the rate the original SLAP engine's scripts count in: `define sec
/// 30`).
pub const DEFAULT_FPS: f64 = 30.0;

/// The last frame `animvm` traces, draws or shows: `--start` and
/// `--frames` must stay within it (about 4.5 years at 30 frames a second),
/// so that no frame number ever saturates.
pub const MAX_FRAME: u64 = u32::MAX as u64;

/// The file runtime errors are reported against: the module's source path
/// if the bundle kept it, else its name with the `.slap` extension.
pub fn source_file(scene: &SceneSim) -> String {
    let program = scene.program();
    program
        .modules
        .iter()
        .find(|m| program.string(m.name) == scene.name())
        .and_then(|m| m.source.clone())
        .unwrap_or_else(|| format!("{}.slap", scene.name()))
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
    /// current frame, as the trace does: `FILE:LINE:COL: error: frame F:
    /// MESSAGE`.
    pub fn report(&mut self, scene: &SceneSim, stderr: &mut dyn Write) {
        let now = scene.frame();
        if self.printed_through.is_some_and(|p| p >= now) {
            return;
        }
        for e in scene.errors() {
            if self.printed_through.is_none_or(|p| e.frame > p) && e.frame <= now {
                let file = source_file(scene);
                crate::report::error_line(
                    stderr,
                    &file,
                    e.error.position,
                    &format!("frame {}: {}", e.frame, e.error.message),
                );
                self.reported += 1;
            }
        }
        self.printed_through = Some(now);
    }

    /// At the end of a run: says how many errors the scene only counted
    /// (it keeps the first
    /// [`MAX_KEPT_ERRORS`](animkit_vm::engine::slap::scene::MAX_KEPT_ERRORS)).
    pub fn finish(&mut self, scene: &SceneSim, stderr: &mut dyn Write) {
        let hidden = scene.error_count().saturating_sub(scene.errors().len() as u64);
        if hidden > 0 {
            let file = source_file(scene);
            let _ = writeln!(stderr, "{file}: error: {hidden} more runtime errors were not kept");
            self.reported += hidden;
        }
    }

    /// How many errors were reported.
    pub fn count(&self) -> usize {
        self.reported as usize
    }
}
