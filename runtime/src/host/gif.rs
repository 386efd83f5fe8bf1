//! Animated GIFs (`animvm -H --gif FILE`): the frames a host draws, encoded
//! through the `gif` crate into memory and written at the end through the
//! atomic writer ([`super::files::write_atomic`]), like every other file
//! `animvm` writes.
//!
//! What keeps them small and clean:
//! - **Only what changed.** Each frame after the first is the smallest
//!   rectangle holding every pixel that differs from the frame before,
//!   drawn over it (disposal "keep"); a frame identical to the one before
//!   only lengthens that one's delay.
//! - **Palettes.** A rectangle of at most 256 colours (Animator drawings,
//!   the sprite viewer) gets its exact palette. Beyond that, colours are
//!   reduced with NeuQuant: over one palette for the whole GIF when the
//!   host can show samples of its frames first
//!   ([`GifWriter::with_palette_of`], SLAP scenes), so that a colour maps
//!   to the same entry in every frame and a changed rectangle never shows
//!   a seam against the pixels around it; else a palette per rectangle.
//! - **Delays** are hundredths of a second ([`delay_cs`]): at 30 frames a
//!   second they run 3, 4, 3, 3, 4, 3...; viewers show delays under 2 as
//!   10, so rates above 50 frames a second play at 50.
//!
//! ```
//! use animkit_runtime::host::gif::GifWriter;
//! use animkit_runtime::render::RgbaImage;
//! let mut gif = GifWriter::new(8, 8)?;
//! let mut img = RgbaImage::new(8, 8, [255, 255, 255, 255]);
//! gif.add(&img, 10)?;
//! img.set_pixel(3, 4, [255, 0, 0, 255]);
//! gif.add(&img, 10)?; // a 1x1 frame at (3, 4)
//! gif.add(&img, 10)?; // nothing changed: the last frame now shows for 20
//! assert_eq!(gif.frames(), (3, 2));
//! let bytes = gif.finish()?;
//! assert!(bytes.starts_with(b"GIF89a"));
//! # Ok::<(), animkit_runtime::host::gif::GifError>(())
//! ```

use crate::render::RgbaImage;
use color_quant::NeuQuant;
use std::borrow::Cow;
use std::collections::HashMap;

/// NeuQuant's sampling factor: 1 is best and slowest, 30 fastest; 10 is
/// the `gif` crate's recommended compromise.
pub const QUANT_SPEED: i32 = 10;

/// The delay of frame `k` (from 0) at `fps` frames a second, in
/// hundredths of a second: the rounded running time, so that delays add
/// up to the true length; at least 2.
///
/// ```
/// use animkit_runtime::host::gif::delay_cs;
/// assert_eq!((0..6).map(|k| delay_cs(k, 30.0)).collect::<Vec<_>>(), [3, 4, 3, 3, 4, 3]);
/// assert_eq!(delay_cs(0, 50.0), 2);
/// assert_eq!(delay_cs(7, 200.0), 2);
/// assert_eq!(delay_cs(0, 0.001), u16::MAX);
/// ```
pub fn delay_cs(k: u64, fps: f64) -> u16 {
    let at = |k: u64| (k as f64 * 100.0 / fps).round();
    let d = at(k + 1) - at(k);
    if d.is_nan() { 2 } else { d.clamp(2.0, f64::from(u16::MAX)) as u16 }
}

/// One palette for every frame, from sample frames.
struct SharedPalette {
    quant: NeuQuant,
    /// Index of each colour met so far (`0xRRGGBB`).
    cache: HashMap<u32, u8>,
}

/// An animated GIF being written, frame by frame, into memory.
pub struct GifWriter {
    encoder: gif::Encoder<Vec<u8>>,
    width: u16,
    height: u16,
    previous: Option<RgbaImage>,
    pending: Option<gif::Frame<'static>>,
    shared: Option<SharedPalette>,
    added: u64,
    written: u64,
}

impl std::fmt::Debug for GifWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GifWriter").field("width", &self.width).field("height", &self.height).finish_non_exhaustive()
    }
}

/// What a [`GifWriter`] could not do.
///
/// ```
/// use animkit_runtime::host::gif::{GifError, GifWriter};
/// assert_eq!(GifWriter::new(70_000, 1).unwrap_err(), GifError::Size { pixels: 70_000, side: "wide" });
/// assert_eq!(GifError::Size { pixels: 0, side: "high" }.to_string(), "a GIF cannot be 0 pixels high");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GifError {
    /// A side of the GIF is 0 or above 65535 pixels.
    #[error("a GIF cannot be {pixels} pixels {side}")]
    Size {
        /// The side's length.
        pixels: u32,
        /// `wide` or `high`.
        side: &'static str,
    },
    /// A frame is not the GIF's size.
    #[error("a {}x{} frame cannot go into a {}x{} GIF", frame.0, frame.1, gif.0, gif.1)]
    FrameSize {
        /// The frame's width and height.
        frame: (u32, u32),
        /// The GIF's.
        gif: (u16, u16),
    },
    /// The encoder failed (its message).
    #[error("cannot encode the GIF: {0}")]
    Encode(String),
}

fn gif_err(e: gif::EncodingError) -> GifError {
    GifError::Encode(e.to_string())
}

fn dimension(v: u32, side: &'static str) -> Result<u16, GifError> {
    u16::try_from(v).ok().filter(|&v| v > 0).ok_or(GifError::Size { pixels: v, side })
}

impl GifWriter {
    /// A looping GIF of `width` x `height`, each frame with its own
    /// palette.
    pub fn new(width: u32, height: u32) -> Result<GifWriter, GifError> {
        GifWriter::start(width, height, None)
    }

    /// A looping GIF whose frames share one palette, learnt from `samples`
    /// (a few frames spread over the animation): the palette is exact when
    /// they hold at most 256 colours.
    pub fn with_palette_of(width: u32, height: u32, samples: &[RgbaImage]) -> Result<GifWriter, GifError> {
        let mut pixels = Vec::new();
        for s in samples {
            pixels.extend(s.data.chunks_exact(4).flat_map(|p| [p[0], p[1], p[2], 255]));
        }
        if pixels.is_empty() || exact_palette(&pixels).is_some() {
            return GifWriter::start(width, height, None);
        }
        GifWriter::start(width, height, Some(NeuQuant::new(QUANT_SPEED, 256, &pixels)))
    }

    fn start(width: u32, height: u32, quant: Option<NeuQuant>) -> Result<GifWriter, GifError> {
        let (w, h) = (dimension(width, "wide")?, dimension(height, "high")?);
        let global = quant.as_ref().map(NeuQuant::color_map_rgb).unwrap_or_default();
        let mut encoder = gif::Encoder::new(Vec::new(), w, h, &global).map_err(gif_err)?;
        encoder.set_repeat(gif::Repeat::Infinite).map_err(gif_err)?;
        Ok(GifWriter {
            encoder,
            width: w,
            height: h,
            previous: None,
            pending: None,
            shared: quant.map(|quant| SharedPalette { quant, cache: HashMap::new() }),
            added: 0,
            written: 0,
        })
    }

    /// Frames added, and frames the GIF holds (identical frames merge).
    pub fn frames(&self) -> (u64, u64) {
        (self.added, self.written + u64::from(self.pending.is_some()))
    }

    /// Adds `image` (the GIF's size), shown for `delay` hundredths of a
    /// second.
    pub fn add(&mut self, image: &RgbaImage, delay: u16) -> Result<(), GifError> {
        if (image.width, image.height) != (u32::from(self.width), u32::from(self.height)) {
            return Err(GifError::FrameSize { frame: (image.width, image.height), gif: (self.width, self.height) });
        }
        self.added += 1;
        let rect = match &self.previous {
            None => Some((0, 0, u32::from(self.width), u32::from(self.height))),
            Some(prev) => changed_rect(prev, image),
        };
        let Some((x, y, w, h)) = rect else {
            if let Some(p) = self.pending.as_mut() {
                p.delay = p.delay.saturating_add(delay);
            }
            return Ok(());
        };
        let mut rgba = Vec::with_capacity(w as usize * h as usize * 4);
        for row in y..y + h {
            let start = (row as usize * image.width as usize + x as usize) * 4;
            rgba.extend(
                image.data[start..start + w as usize * 4].chunks_exact(4).flat_map(|p| [p[0], p[1], p[2], 255]),
            );
        }
        let (indices, palette) = match (&mut self.shared, exact_palette(&rgba)) {
            (_, Some((indices, palette))) => (indices, Some(palette)),
            (Some(shared), None) => (shared.indices(&rgba), None),
            (None, None) => {
                let quant = NeuQuant::new(QUANT_SPEED, 256, &rgba);
                (rgba.chunks_exact(4).map(|p| quant.index_of(p) as u8).collect(), Some(quant.color_map_rgb()))
            }
        };
        let frame = gif::Frame {
            delay,
            dispose: gif::DisposalMethod::Keep,
            left: x as u16,
            top: y as u16,
            width: w as u16,
            height: h as u16,
            palette,
            buffer: Cow::Owned(indices),
            ..gif::Frame::default()
        };
        self.write_pending()?;
        self.pending = Some(frame);
        self.previous = Some(image.clone());
        Ok(())
    }

    fn write_pending(&mut self) -> Result<(), GifError> {
        if let Some(frame) = self.pending.take() {
            self.encoder.write_frame(&frame).map_err(gif_err)?;
            self.written += 1;
        }
        Ok(())
    }

    /// The GIF's bytes (write them with [`super::files::write_atomic`]).
    pub fn finish(mut self) -> Result<Vec<u8>, GifError> {
        self.write_pending()?;
        self.encoder.into_inner().map_err(gif_err)
    }
}

impl SharedPalette {
    fn indices(&mut self, rgba: &[u8]) -> Vec<u8> {
        let quant = &self.quant;
        rgba.chunks_exact(4)
            .map(|p| {
                let key = u32::from(p[0]) << 16 | u32::from(p[1]) << 8 | u32::from(p[2]);
                *self.cache.entry(key).or_insert_with(|| quant.index_of(p) as u8)
            })
            .collect()
    }
}

/// The indices and RGB palette of `rgba` when it holds at most 256
/// colours.
fn exact_palette(rgba: &[u8]) -> Option<(Vec<u8>, Vec<u8>)> {
    let mut index: HashMap<u32, u8> = HashMap::new();
    let mut palette = Vec::new();
    let mut indices = Vec::with_capacity(rgba.len() / 4);
    let mut last = None;
    for p in rgba.chunks_exact(4) {
        let key = u32::from(p[0]) << 16 | u32::from(p[1]) << 8 | u32::from(p[2]);
        // Runs of one colour are the common case: skip the lookup.
        if let Some((k, i)) = last {
            if k == key {
                indices.push(i);
                continue;
            }
        }
        let next = index.len();
        let i = match index.get(&key) {
            Some(&i) => i,
            None if next < 256 => {
                index.insert(key, next as u8);
                palette.extend([p[0], p[1], p[2]]);
                next as u8
            }
            None => return None,
        };
        last = Some((key, i));
        indices.push(i);
    }
    Some((indices, palette))
}

/// The smallest rectangle `(x, y, w, h)` holding every pixel where `a`
/// and `b` (of one size) differ, or `None` if they are the same.
fn changed_rect(a: &RgbaImage, b: &RgbaImage) -> Option<(u32, u32, u32, u32)> {
    let w = a.width as usize;
    let row = |y: usize| a.data[y * w * 4..(y + 1) * w * 4] != b.data[y * w * 4..(y + 1) * w * 4];
    let rows = a.height as usize;
    let top = (0..rows).find(|&y| row(y))?;
    let bottom = (top..rows).rev().find(|&y| row(y))?;
    let differs = |x: usize| {
        (top..=bottom)
            .any(|y| a.data[(y * w + x) * 4..(y * w + x) * 4 + 3] != b.data[(y * w + x) * 4..(y * w + x) * 4 + 3])
    };
    let left = (0..w).find(|&x| differs(x))?;
    let right = (left..w).rev().find(|&x| differs(x))?;
    Some((left as u32, top as u32, (right - left + 1) as u32, (bottom - top + 1) as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changed_rect_is_the_bounding_box_of_the_differences() {
        let a = RgbaImage::new(10, 8, [0, 0, 0, 255]);
        let mut b = a.clone();
        assert_eq!(changed_rect(&a, &b), None);
        b.set_pixel(2, 5, [1, 0, 0, 255]);
        b.set_pixel(7, 3, [0, 0, 9, 255]);
        assert_eq!(changed_rect(&a, &b), Some((2, 3, 6, 3)));
        // Alpha alone is not a change a GIF can show.
        let mut c = a.clone();
        c.set_pixel(1, 1, [0, 0, 0, 0]);
        assert_eq!(changed_rect(&a, &c).map(|r| r.2), None);
    }

    #[test]
    fn exact_palettes_up_to_256_colours() {
        let px: Vec<u8> = (0..256u32).flat_map(|i| [i as u8, 0, 0, 255]).collect();
        let (indices, palette) = exact_palette(&px).unwrap();
        assert_eq!((indices.len(), palette.len()), (256, 768));
        assert_eq!(indices[200], 200);
        let mut more = px.clone();
        more.extend([0, 1, 0, 255]);
        assert!(exact_palette(&more).is_none());
    }

    fn decode(bytes: &[u8]) -> Vec<(u16, u16, u16, u16, u16)> {
        let mut opts = gif::DecodeOptions::new();
        opts.set_color_output(gif::ColorOutput::Indexed);
        let mut d = opts.read_info(bytes).unwrap();
        let mut frames = Vec::new();
        while let Some(f) = d.read_next_frame().unwrap() {
            frames.push((f.left, f.top, f.width, f.height, f.delay));
        }
        frames
    }

    #[test]
    fn frames_are_the_changed_rectangles_and_repeats_merge() {
        let mut gif = GifWriter::new(16, 12).unwrap();
        let mut img = RgbaImage::new(16, 12, [10, 20, 30, 255]);
        gif.add(&img, 3).unwrap();
        gif.add(&img, 4).unwrap();
        img.set_pixel(5, 6, [200, 0, 0, 255]);
        img.set_pixel(9, 7, [200, 0, 0, 255]);
        gif.add(&img, 3).unwrap();
        assert_eq!(gif.frames(), (3, 2));
        let frames = decode(&gif.finish().unwrap());
        assert_eq!(frames, [(0, 0, 16, 12, 7), (5, 6, 5, 2, 3)]);
        let wide = GifWriter::new(0, 4).unwrap_err();
        assert_eq!(wide, GifError::Size { pixels: 0, side: "wide" });
        assert_eq!(wide.to_string(), "a GIF cannot be 0 pixels wide");
        let mut small = GifWriter::new(2, 2).unwrap();
        let frame = small.add(&img, 3).unwrap_err();
        assert_eq!(frame, GifError::FrameSize { frame: (16, 12), gif: (2, 2) });
        assert_eq!(frame.to_string(), "a 16x12 frame cannot go into a 2x2 GIF");
        assert_eq!(GifError::Encode("full".into()).to_string(), "cannot encode the GIF: full");
    }

    #[test]
    fn a_shared_palette_maps_a_colour_to_one_entry_in_every_frame() {
        // A gradient of more than 256 colours.
        let mut img = RgbaImage::new(64, 64, [0; 4]);
        for y in 0..64 {
            for x in 0..64 {
                img.set_pixel(x, y, [(x * 4) as u8, (y * 4) as u8, 128, 255]);
            }
        }
        let mut gif = GifWriter::with_palette_of(64, 64, std::slice::from_ref(&img)).unwrap();
        assert!(gif.shared.is_some());
        let colour = &img.data[0..4];
        let first = gif.shared.as_mut().unwrap().indices(colour);
        gif.add(&img, 3).unwrap();
        let mut next = img.clone();
        next.set_pixel(10, 10, [255, 255, 255, 255]);
        gif.add(&next, 3).unwrap();
        assert_eq!(gif.shared.as_mut().unwrap().indices(colour), first);
        let frames = decode(&gif.finish().unwrap());
        assert_eq!(frames[1], (10, 10, 1, 1, 3));
    }
}
