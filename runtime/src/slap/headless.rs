//! `animvm -H scene.slap`: the scene's frames drawn without a window.
//! `--start F` (default 0) is the first frame drawn, `--frames N` how many
//! (default: up to the scene's length, inclusive); `-d head` writes each as
//! `headFFFF.png` (`FFFF` the frame's number in the scene, so `--start`
//! does not renumber them, padded with zeros to the width of the last
//! frame written, at least 4, so that the names sort in frame order), `--gif FILE` all of them as one looping GIF at
//! `--fps`. Every file is written atomically; a progress bar shows on a
//! terminal. The scene runs from frame 0 whatever the start (seeking runs
//! only its time points), so frame F is the same picture either way.

// Without `desktop` the hosts are left out; the models they share stay.
#![cfg_attr(not(feature = "desktop"), allow(unused_imports, dead_code))]

use super::{ErrorLog, SlapOptions};
use crate::Error;
#[cfg(feature = "desktop")]
use crate::host::sink::{FrameSink, FrameSource, Timing};
#[cfg(feature = "desktop")]
use crate::player::Player;
#[cfg(feature = "desktop")]
use crate::render::{HeadlessGl, RgbaImage};
use animkit_vm::engine::slap::SceneSim;
use std::io::{IsTerminal, Write};

/// Frames sampled to learn a GIF's shared palette.
const PALETTE_SAMPLES: u64 = 8;

/// The frames drawn: the first and how many, for a scene of `length`.
///
/// ```
/// use animkit_runtime::slap::{SlapOptions, headless::frame_range};
/// let o = SlapOptions::default();
/// assert_eq!(frame_range(&o, 1500), (0, 1501)); // the whole scene
/// let o = SlapOptions { start: 100, frames: Some(3), ..o };
/// assert_eq!(frame_range(&o, 1500), (100, 3));
/// let o = SlapOptions { frames: None, start: 2000, ..o };
/// assert_eq!(frame_range(&o, 1500), (2000, 1)); // past the end: one frame
/// ```
pub fn frame_range(options: &SlapOptions, length: u64) -> (u64, u64) {
    let first = options.start;
    let count = options.frames.unwrap_or_else(|| length.saturating_sub(first).saturating_add(1));
    (first, count)
}

/// A run without `--frames` that draws at least this many frames says so
/// first on a terminal.
pub const HUGE_RUN: u64 = 10_000;

/// What a huge run says once its first frame is drawn, `per_frame` being
/// how long that took.
///
/// ```
/// use animkit_runtime::slap::headless::huge_notice;
/// use std::time::Duration;
/// assert_eq!(
///     huge_notice(0, 100_001, Duration::from_millis(20)),
///     "animvm: drawing 100001 frames (0 to 100000), about 33 min at the first frame's pace; --frames N draws fewer\n"
/// );
/// ```
pub fn huge_notice(first: u64, count: u64, per_frame: std::time::Duration) -> String {
    let secs = per_frame.as_secs_f64() * count as f64;
    let about = if secs < 120.0 {
        format!("{} s", secs.round())
    } else if secs < 7200.0 {
        format!("{} min", (secs / 60.0).round())
    } else {
        format!("{} h", (secs / 3600.0).round())
    };
    let last = first.saturating_add(count.saturating_sub(1));
    format!(
        "animvm: drawing {count} frames ({first} to {last}), about {about} at the first frame's pace; --frames N draws fewer\n"
    )
}

pub use crate::host::sink::padded_frame_path;

/// Draws the frames `options` ask for and writes them; returns the number
/// of runtime errors reported.
#[cfg(feature = "desktop")]
pub fn run(options: &SlapOptions, scene: SceneSim, stderr: &mut dyn Write) -> Result<usize, Error> {
    let (w, h) = (options.width, options.height);
    // The scene is drawn by the embedding Player over this headless
    // context, as a game would draw it into its own (`crate::player`).
    let host = HeadlessGl::new(w, h).map_err(|e| Error::Display(format!("cannot start headless OpenGL: {e}")))?;
    let mut player = Player::with_scene(host.share_gl(), scene, w, h).map_err(Error::Draw)?;
    let (first, count) = frame_range(options, player.scene().map_or(0, SceneSim::length));
    let last = first.saturating_add(count.saturating_sub(1));
    let mut sink = FrameSink::new(options.dump_head.as_deref(), options.gif.as_deref(), Timing::Rate(options.fps))
        .numbered(first, last)
        .with_total(count);
    if sink.wants_palette() {
        let mut samples = Vec::new();
        for k in 0..PALETTE_SAMPLES.min(count) {
            player.seek_unchecked(first + k * count / PALETTE_SAMPLES.min(count));
            samples.push(player.read_pixels().map_err(Error::Draw)?);
        }
        player.restart();
        sink.start_gif(w, h, &samples)?;
    }
    player.seek_unchecked(first);
    let huge = options.frames.is_none() && count >= HUGE_RUN && std::io::stderr().is_terminal();
    let mut frames = Frames {
        player,
        errors: ErrorLog::default(),
        stderr,
        huge: huge.then_some((first, count, std::time::Instant::now())),
    };
    sink.record(count, &mut frames)?;
    let Frames { player, mut errors, stderr, .. } = frames;
    if let Some(scene) = player.scene() {
        errors.finish(scene, stderr);
    }
    Ok(errors.count())
}

/// The scene's frames from the first drawn, for [`FrameSink::record`].
#[cfg(feature = "desktop")]
struct Frames<'a> {
    player: Player,
    errors: ErrorLog,
    stderr: &'a mut dyn Write,
    /// A huge run: its first frame, its count and when it started, for
    /// [`huge_notice`] after the first frame.
    huge: Option<(u64, u64, std::time::Instant)>,
}

#[cfg(feature = "desktop")]
impl FrameSource for Frames<'_> {
    fn draw(&mut self, k: u64) -> Result<(), Error> {
        if k > 0 {
            self.player.step();
        }
        if let Some(scene) = self.player.scene() {
            self.errors.report(scene, self.stderr);
        }
        self.player.render().map_err(Error::Draw)?;
        if let Some((first, count, started)) = self.huge.take() {
            let _ = write!(self.stderr, "{}", huge_notice(first, count, started.elapsed()));
        }
        Ok(())
    }

    fn pixels(&mut self) -> Result<RgbaImage, Error> {
        self.player.read_pixels().map_err(Error::Draw)
    }
}
