//! [`FrameOut`]: where a [`GlCanvas`](super::GlCanvas) hands its flushed
//! frames and the files its program writes. A game's canvas keeps none ([`NoFrames`], the default);
//! `animvm`'s hosts write them as `-d` PNG frames and `--gif` (the
//! runtime's `FrameSink`), which this crate does not carry.

use crate::render::{RenderError, RgbaImage};
use animkit_vm::engine::animator::HostError;
use std::path::Path;

/// What the canvas calls at each flush, wait and end of a run.
///
/// ```
/// use animkit_player::animator::{FrameOut, NoFrames};
/// use animkit_player::render::RgbaImage;
/// let mut out = NoFrames;
/// assert!(!out.wants_frames());
/// assert_eq!(out.frame(&RgbaImage::new(1, 1, [0, 0, 0, 255])), Ok(()));
/// assert_eq!(out.frames_written(), 0);
/// ```
pub trait FrameOut {
    /// True if [`frame`](Self::frame) wants each flushed frame (the canvas
    /// reads the pixels back only then).
    fn wants_frames(&self) -> bool;
    /// A flushed frame. An error is the program's host error (one line),
    /// usually [`HostError::Frames`].
    fn frame(&mut self, image: &RgbaImage) -> Result<(), HostError>;
    /// A wait of `seconds` the program asked for after the last frame.
    fn waited(&mut self, _seconds: f64) {}
    /// The program has ended: write what is pending (a GIF).
    fn finish(&mut self) -> Result<(), HostError> {
        Ok(())
    }
    /// Ends a progress line on the terminal, if one was started.
    fn end_progress(&mut self) {}
    /// Writes a file the program asked for (`screenshot`, `screendump` to
    /// a file): by default [`files::write_atomic`](crate::files::write_atomic).
    fn write_file(&mut self, path: &Path, bytes: &[u8]) -> Result<(), RenderError> {
        crate::files::write_atomic(path, bytes)
    }
    /// PNG frames written so far (`-d`).
    fn frames_written(&self) -> u64 {
        0
    }
}

/// Keeps no frames: a game's canvas.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoFrames;

impl FrameOut for NoFrames {
    fn wants_frames(&self) -> bool {
        false
    }

    fn frame(&mut self, _image: &RgbaImage) -> Result<(), HostError> {
        Ok(())
    }
}
