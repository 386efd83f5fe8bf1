//! [`CanvasFrames`]: `animvm`'s [`FrameOut`] for the Animator canvas: `-d`
//! PNG frames and `--gif` through the [`FrameSink`], and the files a
//! program writes through `animc`'s atomic writer ([`files::write_atomic`]).

use super::{CanvasOptions, FrameOut, GlCanvas};
use crate::host::files;
use crate::host::sink::{FrameSink, SinkError, Timing};
use crate::render::{RenderError, Renderer, RgbaImage};
use animkit_vm::engine::animator::HostError;
use std::io::Write;
use std::path::Path;

/// `-d` and `--gif` as `options` say (see the [module documentation](self)).
#[derive(Debug)]
pub struct CanvasFrames {
    sink: FrameSink,
    /// `-d` was given (frames written are counted only then).
    pngs: bool,
}

impl CanvasFrames {
    /// The frames `options.dump_head` and `options.gif` ask for, a GIF
    /// frame lasting the program's waits (one frame at `options.fps`
    /// without).
    pub fn new(options: &CanvasOptions) -> CanvasFrames {
        let sink = FrameSink::new(options.dump_head.as_deref(), options.gif.as_deref(), Timing::Waits(options.fps));
        CanvasFrames { sink, pngs: options.dump_head.is_some() }
    }
}

/// A canvas over `renderer` for `animvm`'s hosts: [`GlCanvas`] with
/// [`CanvasFrames`].
pub fn gl_canvas(renderer: Renderer, options: CanvasOptions, out: Box<dyn Write>) -> GlCanvas {
    let frames = CanvasFrames::new(&options);
    GlCanvas::with_frame_out(renderer, options, out, Box::new(frames))
}

/// A sink's error as a host error of the program: a GIF's names it.
fn sink_message(e: SinkError) -> HostError {
    HostError::Frames(match e {
        SinkError::Gif { path, reason } => format!("--gif `{path}`: {reason}"),
        e => e.to_string(),
    })
}

impl FrameOut for CanvasFrames {
    fn wants_frames(&self) -> bool {
        self.sink.wants_frames()
    }

    fn frame(&mut self, image: &RgbaImage) -> Result<(), HostError> {
        self.sink.frame(image).map_err(sink_message)
    }

    fn waited(&mut self, seconds: f64) {
        self.sink.waited(seconds);
    }

    fn finish(&mut self) -> Result<(), HostError> {
        self.sink.finish().map_err(sink_message)
    }

    fn end_progress(&mut self) {
        self.sink.end_progress();
    }

    fn write_file(&mut self, path: &Path, bytes: &[u8]) -> Result<(), RenderError> {
        files::write_atomic(path, bytes)
    }

    fn frames_written(&self) -> u64 {
        if self.pngs { self.sink.count() } else { 0 }
    }
}
