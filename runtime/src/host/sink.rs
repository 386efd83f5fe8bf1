//! [`FrameSink`]: where every host's drawn frames go. One sink serves
//! `-d head` (a [`PngSequence`], `headNNNN.png`), `--gif FILE` (one
//! animated GIF, written when the run ends) or both, or nothing at all
//! ([`FrameSink::discard`]); and it shows the progress on a terminal: a
//! bar when the number of frames is known ([`FrameSink::with_total`]),
//! else the name of the last PNG written; silent when standard error is
//! not a terminal ([`ProgressOut`]). The headless sprite viewer and SLAP
//! scenes run their frames through [`FrameSink::record`] (a
//! [`FrameSource`] draws each); an Animator program hands a frame over at
//! each flush.
//!
//! Hosts differ only in what they tell it: the SLAP host names PNGs by
//! frame number ([`FrameSink::numbered`]) and shows the GIF encoder sample
//! frames first ([`FrameSink::start_gif`]); a frame's time on screen
//! in the GIF is the host's rate ([`Timing::Rate`]: sprites at 50 a
//! second, SLAP at `--fps`) or, for Animator, the waits the program asks
//! for after it ([`Timing::Waits`]).
//!
//! ```
//! use animkit_runtime::host::sink::{FrameSink, Timing};
//! use animkit_runtime::render::RgbaImage;
//! let dir = tempfile::tempdir().unwrap();
//! let head = dir.path().join("frames/f").to_str().unwrap().to_string();
//! let gif = dir.path().join("out.gif").to_str().unwrap().to_string();
//! let mut sink = FrameSink::new(Some(&head), Some(&gif), Timing::Rate(50.0));
//! assert!(sink.wants_frames());
//! for shade in [0, 128] {
//!     sink.frame(&RgbaImage::new(4, 4, [shade, 0, 0, 255]))?;
//! }
//! sink.finish()?;
//! assert!(dir.path().join("frames/f0001.png").is_file());
//! assert!(std::fs::read(&gif).unwrap().starts_with(b"GIF89a"));
//! assert!(!FrameSink::discard().wants_frames());
//! # Ok::<(), animkit_runtime::host::sink::SinkError>(())
//! ```

use super::files::{self, create_parent_dir, frame_path};
use super::gif::{GifWriter, delay_cs};
use super::progress::{Progress, ProgressOut};
use crate::render::RgbaImage;
use std::fmt;
use std::path::Path;

// What the sink could not do, defined in a module below both the sink and
// `crate::Error` (which wraps it), so neither imports the other both ways.
pub use super::sink_error::SinkError;

/// How long each GIF frame shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Timing {
    /// Frames at a fixed rate (frames per second): frame `k` shows for
    /// [`delay_cs`]`(k, fps)`.
    Rate(f64),
    /// A frame shows for the waits reported ([`FrameSink::waited`]) until
    /// the next frame, or one frame at this rate when there were none.
    Waits(f64),
}

/// How the PNGs of `-d head` are named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Naming {
    /// `headNNNN.png`, `NNNN` counting the frames written from 0.
    Sequence,
    /// `headFFFF.png`, `FFFF` the frame's number (`first` for the first
    /// frame written), padded to the digits of `last`, at least 4.
    Numbered { first: u64, last: u64 },
}

/// `-d head`: every frame as a PNG file of its own, written atomically;
/// the first one makes the folder `head` points into.
///
/// ```
/// use animkit_runtime::host::sink::PngSequence;
/// assert_eq!(PngSequence::new("out/f").path(7), "out/f0007.png");
/// // SLAP: named by frame, `--start 98` and the last frame 100.
/// assert_eq!(PngSequence::numbered("s", 98, 100).path(2), "s0100.png");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PngSequence {
    head: String,
    naming: Naming,
}

impl PngSequence {
    /// `headNNNN.png`, `NNNN` counting the frames from 0
    /// ([`frame_path`]).
    pub fn new(head: &str) -> PngSequence {
        PngSequence { head: head.to_string(), naming: Naming::Sequence }
    }

    /// Named by frame number: the first frame written is frame `first`,
    /// the last `last` ([`padded_frame_path`]).
    pub fn numbered(head: &str, first: u64, last: u64) -> PngSequence {
        PngSequence { head: head.to_string(), naming: Naming::Numbered { first, last } }
    }

    /// The file of the `k`-th frame written (0 first).
    pub fn path(&self, k: u64) -> String {
        match self.naming {
            Naming::Sequence => frame_path(&self.head, k),
            Naming::Numbered { first, last } => padded_frame_path(&self.head, first.saturating_add(k), last),
        }
    }

    /// The progress bar's label: `headFFFF.png`.
    fn label(&self) -> String {
        format!("{}FFFF.png", self.head)
    }

    /// Writes the `k`-th frame; returns its file.
    fn write(&self, image: &RgbaImage, k: u64) -> Result<String, SinkError> {
        let path = self.path(k);
        if k == 0 {
            create_parent_dir(&path).map_err(SinkError::Folder)?;
        }
        files::save_png(image, &path).map_err(|e| SinkError::Write { path: path.clone(), reason: e.to_string() })?;
        Ok(path)
    }
}

/// `--gif FILE`: every frame into one animated GIF, written atomically
/// when the run ends ([`FrameSink::finish`]).
struct Gif {
    path: String,
    writer: Option<GifWriter>,
    /// `Timing::Waits`: the frame written last, added when its time on
    /// screen is known (the next frame, or the end).
    pending: Option<RgbaImage>,
    /// Seconds of waits reported since the pending frame.
    waited: f64,
    /// A frame failed: the GIF is abandoned (the error was returned once).
    failed: bool,
}

/// Where a host's frames go: see the [module documentation](self). A
/// [`PngSequence`] (`-d`), a GIF (`--gif`), both, or neither
/// ([`discard`](FrameSink::discard)); and the progress.
pub struct FrameSink {
    png: Option<PngSequence>,
    gif: Option<Gif>,
    timing: Timing,
    /// Frames handed over so far.
    count: u64,
    /// Where the `wrote` line goes (standard error on a terminal, else
    /// nowhere); moved into the bar when there is one.
    progress: ProgressOut,
    /// The bar, when the number of frames is known.
    bar: Option<Progress>,
    /// Whether a "wrote" line is on the terminal (ended at the finish).
    line_shown: bool,
}

impl fmt::Debug for FrameSink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FrameSink")
            .field("png", &self.png)
            .field("gif", &self.gif.as_ref().map(|g| &g.path))
            .field("count", &self.count)
            .finish_non_exhaustive()
    }
}

impl FrameSink {
    /// A sink that keeps nothing (and shows no progress).
    pub fn discard() -> FrameSink {
        FrameSink::new(None, None, Timing::Rate(crate::host::DEFAULT_FPS))
    }

    /// A sink writing each frame as a PNG of `head` (`-d`,
    /// [`PngSequence::new`]) and into the GIF `gif` (`--gif`), either or
    /// both; GIF frames timed by `timing`. Progress goes to standard error
    /// when it is a terminal.
    pub fn new(head: Option<&str>, gif: Option<&str>, timing: Timing) -> FrameSink {
        FrameSink {
            png: head.map(PngSequence::new),
            gif: gif.map(|path| Gif {
                path: path.to_string(),
                writer: None,
                pending: None,
                waited: 0.0,
                failed: false,
            }),
            timing,
            count: 0,
            progress: ProgressOut::stderr(),
            bar: None,
            line_shown: false,
        }
    }

    /// Shows the progress on `out` instead (tests; [`ProgressOut::silent`]
    /// for none).
    pub fn progress_to(mut self, out: ProgressOut) -> FrameSink {
        match self.bar.as_mut() {
            Some(bar) => bar.set_out(out),
            None => self.progress = out,
        }
        self
    }

    /// The run hands over `total` frames: the progress is a bar
    /// (labelled with the GIF, else `headFFFF.png`).
    pub fn with_total(mut self, total: u64) -> FrameSink {
        let label = match (&self.gif, &self.png) {
            (Some(g), _) => g.path.clone(),
            (None, Some(png)) => png.label(),
            (None, None) => return self,
        };
        let out = std::mem::replace(&mut self.progress, ProgressOut::silent());
        self.bar = Some(Progress::with_out(label, total, out));
        self
    }

    /// PNGs named by frame number: the first frame handed over is frame
    /// `first`, the last `last` ([`PngSequence::numbered`]).
    pub fn numbered(mut self, first: u64, last: u64) -> FrameSink {
        if let Some(png) = self.png.as_mut() {
            png.naming = Naming::Numbered { first, last };
        }
        self
    }

    /// The PNG sequence of `-d`, if any.
    pub fn png_sequence(&self) -> Option<&PngSequence> {
        self.png.as_ref()
    }

    /// Whether frames are kept at all (if not, a host need not read its
    /// pixels back).
    pub fn wants_frames(&self) -> bool {
        self.png.is_some() || self.gif.as_ref().is_some_and(|g| !g.failed)
    }

    /// Whether there is a GIF to learn a palette for (see
    /// [`start_gif`](Self::start_gif)).
    pub fn wants_palette(&self) -> bool {
        self.gif.as_ref().is_some_and(|g| g.writer.is_none())
    }

    /// Starts the GIF now, for frames of `width` x `height`, with one
    /// palette for all its frames learnt from `samples` (frames spread
    /// over the run), so that a colour maps to the same entry in every
    /// frame ([`GifWriter::with_palette_of`]); without samples each changed
    /// rectangle gets its own palette. A GIF started this way is written
    /// even if no frame follows; without this call it starts at the first
    /// frame.
    pub fn start_gif(&mut self, width: u32, height: u32, samples: &[RgbaImage]) -> Result<(), SinkError> {
        let Some(g) = self.gif.as_mut() else { return Ok(()) };
        let writer = GifWriter::with_palette_of(width, height, samples)
            .map_err(|reason| SinkError::Gif { path: g.path.clone(), reason })?;
        g.writer = Some(writer);
        Ok(())
    }

    /// Frames handed over so far.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// A wait of `seconds` the program asked for since the last frame
    /// ([`Timing::Waits`]: counted, not measured).
    pub fn waited(&mut self, seconds: f64) {
        if let Some(g) = self.gif.as_mut() {
            if seconds.is_finite() && seconds > 0.0 {
                g.waited += seconds;
            }
        }
    }

    /// Hands over the next frame: added to the GIF, then written as a PNG.
    /// The first error of the GIF is returned once and abandons it; a PNG
    /// that cannot be written is an error each time.
    pub fn frame(&mut self, image: &RgbaImage) -> Result<(), SinkError> {
        let k = self.count;
        self.count += 1;
        let gif = self.add_gif_frame(image, k);
        if let Some(png) = self.png.as_ref() {
            let path = png.write(image, k)?;
            if self.bar.is_none() && self.progress.shown() {
                self.progress.write(&format!("\ranimvm: wrote {path}"));
                self.line_shown = true;
            }
        }
        if let Some(bar) = self.bar.as_mut() {
            bar.update(k + 1);
        }
        gif
    }

    fn add_gif_frame(&mut self, image: &RgbaImage, k: u64) -> Result<(), SinkError> {
        let timing = self.timing;
        let Some(g) = self.gif.as_mut() else { return Ok(()) };
        if g.failed {
            return Ok(());
        }
        let result = g.add(image, k, timing);
        if result.is_err() {
            g.failed = true;
        }
        result
    }

    /// Ends the progress line, if one is shown (the sink goes on).
    pub fn end_progress(&mut self) {
        if let Some(bar) = self.bar.as_mut() {
            bar.finish();
        }
        if self.line_shown {
            self.progress.write("\n");
            self.line_shown = false;
        }
    }

    /// Ends the run: the progress line, then the GIF (its last frame
    /// added, written atomically). Does nothing more without `--gif`, when
    /// no frame was handed over, or when the GIF was abandoned.
    pub fn finish(&mut self) -> Result<(), SinkError> {
        self.end_progress();
        let timing = self.timing;
        let Some(mut g) = self.gif.take() else { return Ok(()) };
        if g.failed {
            return Ok(());
        }
        let Some(writer) = g.writer.take() else { return Ok(()) };
        let path = g.path.clone();
        let gif_err = |reason| SinkError::Gif { path: path.clone(), reason };
        let mut writer = writer;
        if let (Some(last), Timing::Waits(fps)) = (g.pending.take(), timing) {
            writer.add(&last, waits_cs(g.waited, fps)).map_err(gif_err)?;
        }
        let bytes = writer.finish().map_err(gif_err)?;
        files::write_atomic(Path::new(&path), &bytes)
            .map_err(|e| SinkError::Write { path: path.clone(), reason: e.to_string() })
    }

    /// Runs a headless host's frames: `count` of them, each drawn by
    /// `source` and handed over (its pixels read back only when a frame is
    /// kept), then [`finish`](Self::finish). The sprite viewer's `--ticks`
    /// and a SLAP scene's `--start`/`--frames` both run here; an Animator
    /// program hands its frames over at each flush instead.
    pub fn record<S: FrameSource + ?Sized>(&mut self, count: u64, source: &mut S) -> Result<(), crate::Error> {
        for k in 0..count {
            source.draw(k)?;
            if self.wants_frames() {
                let image = source.pixels()?;
                self.frame(&image)?;
            }
        }
        self.finish()?;
        Ok(())
    }
}

/// What a headless host draws, frame after frame, for
/// [`FrameSink::record`].
pub trait FrameSource {
    /// Draws the `k`-th frame of the run (0 first).
    fn draw(&mut self, k: u64) -> Result<(), crate::Error>;
    /// The pixels of the frame drawn last.
    fn pixels(&mut self) -> Result<RgbaImage, crate::Error>;
}

impl Gif {
    fn add(&mut self, image: &RgbaImage, k: u64, timing: Timing) -> Result<(), SinkError> {
        let err = |reason| SinkError::Gif { path: self.path.clone(), reason };
        if self.writer.is_none() {
            self.writer = Some(GifWriter::new(image.width, image.height).map_err(err)?);
        }
        let Some(writer) = self.writer.as_mut() else { return Ok(()) };
        let added = match timing {
            Timing::Rate(fps) => writer.add(image, delay_cs(k, fps)),
            Timing::Waits(fps) => {
                let previous = self.pending.replace(image.clone());
                let waited = std::mem::take(&mut self.waited);
                match previous {
                    Some(last) => writer.add(&last, waits_cs(waited, fps)),
                    None => Ok(()),
                }
            }
        };
        added.map_err(|reason| SinkError::Gif { path: self.path.clone(), reason })
    }
}

/// A GIF delay in hundredths of a second for `waited` seconds of waits,
/// or one frame at `fps` when there were none; 2 to `u16::MAX`.
///
/// ```
/// use animkit_runtime::host::sink::waits_cs;
/// assert_eq!(waits_cs(0.5, 30.0), 50);
/// assert_eq!(waits_cs(0.0, 30.0), 3);
/// assert_eq!(waits_cs(0.0, 1000.0), 2);
/// ```
pub fn waits_cs(waited: f64, fps: f64) -> u16 {
    let seconds = if waited > 0.0 { waited } else { 1.0 / fps };
    let cs = (seconds * 100.0).round();
    if cs.is_nan() { 2 } else { cs.clamp(2.0, f64::from(u16::MAX)) as u16 }
}

/// The file of frame `f` for a `-d head` prefix, when `last` is the last
/// frame written: padded to the digits of `last`, at least 4, so that the
/// names sort in frame order.
///
/// ```
/// use animkit_runtime::host::sink::padded_frame_path;
/// assert_eq!(padded_frame_path("s", 7, 1500), "s0007.png");
/// assert_eq!(padded_frame_path("s", 99_999, 100_000), "s099999.png");
/// assert_eq!(padded_frame_path("s", 100_000, 100_000), "s100000.png");
/// ```
pub fn padded_frame_path(head: &str, f: u64, last: u64) -> String {
    let width = last.to_string().len().max(4);
    format!("{head}{f:0width$}.png")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// A writer the test keeps a handle on.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Shared {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Shared {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> =
            std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        names.sort();
        names
    }

    fn gif_delays(path: &str) -> Vec<u16> {
        let mut opts = gif::DecodeOptions::new();
        opts.set_color_output(gif::ColorOutput::Indexed);
        let mut decoder = opts.read_info(std::fs::File::open(path).unwrap()).unwrap();
        let mut delays = Vec::new();
        while let Some(frame) = decoder.read_next_frame().unwrap() {
            delays.push(frame.delay);
        }
        delays
    }

    /// Draws `n` frames of a different shade each.
    struct Shades(u8);

    impl FrameSource for Shades {
        fn draw(&mut self, k: u64) -> Result<(), crate::Error> {
            self.0 = (k * 40) as u8;
            Ok(())
        }
        fn pixels(&mut self) -> Result<RgbaImage, crate::Error> {
            Ok(RgbaImage::new(2, 2, [self.0, 0, 0, 255]))
        }
    }

    #[test]
    fn numbered_frames_are_named_by_frame_and_waits_time_the_gif() {
        let dir = tempfile::tempdir().unwrap();
        let head = dir.path().join("s").to_str().unwrap().to_string();
        let mut sink = FrameSink::new(Some(&head), None, Timing::Rate(30.0)).numbered(98, 100);
        for _ in 0..3 {
            sink.frame(&RgbaImage::new(2, 2, [0, 0, 0, 255])).unwrap();
        }
        sink.finish().unwrap();
        assert_eq!(names(dir.path()), ["s0098.png", "s0099.png", "s0100.png"]);

        let gif = dir.path().join("w.gif").to_str().unwrap().to_string();
        let mut sink = FrameSink::new(None, Some(&gif), Timing::Waits(30.0));
        sink.frame(&RgbaImage::new(2, 2, [0, 0, 0, 255])).unwrap();
        sink.waited(0.25);
        sink.frame(&RgbaImage::new(2, 2, [255, 0, 0, 255])).unwrap();
        sink.finish().unwrap();
        assert_eq!(gif_delays(&gif), [25, 3]);
    }

    #[test]
    fn a_png_sequence_and_a_gif_get_every_recorded_frame() {
        let dir = tempfile::tempdir().unwrap();
        let head = dir.path().join("frames/f").to_str().unwrap().to_string();
        let gif = dir.path().join("all.gif").to_str().unwrap().to_string();
        let mut sink = FrameSink::new(Some(&head), Some(&gif), Timing::Rate(50.0)).progress_to(ProgressOut::silent());
        sink.record(5, &mut Shades(0)).unwrap();
        assert_eq!(sink.count(), 5);
        assert_eq!(
            names(&dir.path().join("frames")),
            ["f0000.png", "f0001.png", "f0002.png", "f0003.png", "f0004.png"]
        );
        // 50 a second in hundredths: 2 each.
        assert_eq!(gif_delays(&gif), [2, 2, 2, 2, 2]);
        let third = RgbaImage::decode_png(&std::fs::read(dir.path().join("frames/f0002.png")).unwrap()).unwrap();
        assert_eq!(third.pixel(1, 1), Some([80, 0, 0, 255]));
    }

    #[test]
    fn a_discarding_sink_reads_no_pixels_and_writes_nothing() {
        struct NoPixels(u64);
        impl FrameSource for NoPixels {
            fn draw(&mut self, _: u64) -> Result<(), crate::Error> {
                self.0 += 1;
                Ok(())
            }
            fn pixels(&mut self) -> Result<RgbaImage, crate::Error> {
                Err(crate::Error::Draw(crate::player::PlayerError::Draw("pixels read".into())))
            }
        }
        let out = Shared::default();
        let mut sink = FrameSink::discard().progress_to(ProgressOut::to(Box::new(out.clone()))).with_total(7);
        let mut source = NoPixels(0);
        sink.record(7, &mut source).unwrap();
        assert_eq!((source.0, sink.count(), sink.wants_frames()), (7, 0, false));
        assert_eq!(out.text(), "");
    }

    #[test]
    fn progress_is_silent_when_not_on_a_terminal() {
        let dir = tempfile::tempdir().unwrap();
        let head = dir.path().join("f").to_str().unwrap().to_string();
        let gif = dir.path().join("g.gif").to_str().unwrap().to_string();
        // As `animvm` runs piped: `ProgressOut::terminal_if(false)`.
        for sink in [
            FrameSink::new(Some(&head), None, Timing::Rate(50.0)),
            FrameSink::new(Some(&head), Some(&gif), Timing::Rate(50.0)).with_total(3),
        ] {
            let mut sink = sink.progress_to(ProgressOut::terminal_if(false));
            assert!(
                !sink.progress.shown()
                    && sink.bar.as_ref().is_none_or(|b| format!("{b:?}").contains("ProgressOut(silent)"))
            );
            sink.record(3, &mut Shades(0)).unwrap();
        }
        assert_eq!(names(dir.path()), ["f0000.png", "f0001.png", "f0002.png", "g.gif"]);
    }

    #[test]
    fn progress_on_a_terminal_is_a_bar_or_the_last_file_written() {
        let dir = tempfile::tempdir().unwrap();
        let head = dir.path().join("f").to_str().unwrap().to_string();
        let out = Shared::default();
        let mut sink =
            FrameSink::new(Some(&head), None, Timing::Rate(50.0)).progress_to(ProgressOut::to(Box::new(out.clone())));
        sink.record(2, &mut Shades(0)).unwrap();
        assert_eq!(out.text(), format!("\ranimvm: wrote {head}0000.png\ranimvm: wrote {head}0001.png\n"));

        let out = Shared::default();
        let mut sink = FrameSink::new(Some(&head), None, Timing::Rate(50.0))
            .with_total(2)
            .progress_to(ProgressOut::to(Box::new(out.clone())));
        sink.record(2, &mut Shades(0)).unwrap();
        // The first frame draws the bar; the last always does.
        assert_eq!(
            out.text(),
            format!(
                "\ranimvm: {head}FFFF.png [############------------] 1/2 frames\
                 \ranimvm: {head}FFFF.png [########################] 2/2 frames\n"
            )
        );
    }

    #[test]
    fn an_unwritable_frame_is_an_error_naming_the_file() {
        let mut sink = FrameSink::new(Some("/proc/no/such/dir/f"), None, Timing::Rate(50.0));
        let e = sink.frame(&RgbaImage::new(2, 2, [0, 0, 0, 255])).unwrap_err();
        assert!(e.to_string().starts_with("cannot create `/proc/no/such/dir`"), "{e}");
        let e = FrameSink::new(Some("/proc/f"), None, Timing::Rate(50.0))
            .progress_to(ProgressOut::silent())
            .record(3, &mut Shades(0))
            .unwrap_err();
        assert!(e.report().starts_with("animvm: cannot write `/proc/f0000.png`: "), "{e:?}");
    }
}
