//! [`RgbaImage`]: a CPU-side RGBA8 picture (what `read_pixels` returns), its
//! PNG codec and the raw `screendump` byte layouts. Bytes only: writing
//! them to files is the host's (`host::files`).

use std::path::Path;

use super::error::{RenderError, check_size};

/// The largest PNG file read (bytes): a sheet or image bigger than this is
/// refused before it is read.
pub const MAX_PNG_BYTES: u64 = 256 << 20;

/// An RGBA8 image, rows from the top row down, 4 bytes (R, G, B, A) a pixel,
/// no row padding: pixel `(x, y)` starts at byte `4 * (y * width + x)`.
///
/// ```
/// use animkit_player::render::RgbaImage;
/// let img = RgbaImage::new(2, 1, [255, 0, 0, 255]);
/// assert_eq!(img.pixel(1, 0), Some([255, 0, 0, 255]));
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct RgbaImage {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height * 4` bytes, top row first.
    pub data: Vec<u8>,
}

impl std::fmt::Debug for RgbaImage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RgbaImage({}x{})", self.width, self.height)
    }
}

impl RgbaImage {
    /// An image filled with one colour.
    ///
    /// ```
    /// let img = animkit_player::render::RgbaImage::new(3, 2, [0, 0, 0, 255]);
    /// assert_eq!(img.data.len(), 24);
    /// ```
    pub fn new(width: u32, height: u32, fill: [u8; 4]) -> Self {
        let n = width as usize * height as usize;
        let mut data = Vec::with_capacity(n * 4);
        for _ in 0..n {
            data.extend_from_slice(&fill);
        }
        RgbaImage { width, height, data }
    }

    /// The pixel at column `x`, row `y` (row 0 = top), or `None` outside.
    ///
    /// ```
    /// let img = animkit_player::render::RgbaImage::new(1, 1, [1, 2, 3, 4]);
    /// assert_eq!(img.pixel(0, 0), Some([1, 2, 3, 4]));
    /// assert_eq!(img.pixel(1, 0), None);
    /// ```
    pub fn pixel(&self, x: u32, y: u32) -> Option<[u8; 4]> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let i = 4 * (y as usize * self.width as usize + x as usize);
        self.data.get(i..i + 4).map(|s| [s[0], s[1], s[2], s[3]])
    }

    /// Sets the pixel at `(x, y)`; out-of-range coordinates are ignored.
    ///
    /// ```
    /// let mut img = animkit_player::render::RgbaImage::new(1, 1, [0; 4]);
    /// img.set_pixel(0, 0, [9, 9, 9, 9]);
    /// assert_eq!(img.pixel(0, 0), Some([9; 4]));
    /// ```
    pub fn set_pixel(&mut self, x: u32, y: u32, rgba: [u8; 4]) {
        if x < self.width && y < self.height {
            let i = 4 * (y as usize * self.width as usize + x as usize);
            self.data[i..i + 4].copy_from_slice(&rgba);
        }
    }

    /// Decodes a PNG of any colour type and bit depth into RGBA8 (grey,
    /// palette and RGB get alpha 255; 16-bit channels are reduced to 8).
    /// Images with a side above [`MAX_IMAGE_SIZE`](super::MAX_IMAGE_SIZE) are
    /// refused before their pixels are allocated.
    ///
    /// ```
    /// use animkit_player::render::RgbaImage;
    /// let png = RgbaImage::new(2, 2, [10, 20, 30, 255]).encode_png()?;
    /// assert_eq!(RgbaImage::decode_png(&png)?.pixel(1, 1), Some([10, 20, 30, 255]));
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn decode_png(bytes: &[u8]) -> Result<RgbaImage, RenderError> {
        let png_err = |e: png::DecodingError| RenderError::Png(e.to_string());
        let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        decoder.set_transformations(png::Transformations::normalize_to_color8());
        // Enough for an 8192x8192 RGBA16 image; the size check below is the real cap.
        decoder.set_limits(png::Limits { bytes: 8192 * 8192 * 8 + (1 << 20) });
        let mut reader = decoder.read_info().map_err(png_err)?;
        let (w, h) = (reader.info().width, reader.info().height);
        check_size(w.into(), h.into())?;
        let size = reader.output_buffer_size().ok_or_else(|| RenderError::Png("image too large".into()))?;
        let mut buf = vec![0u8; size];
        let info = reader.next_frame(&mut buf).map_err(png_err)?;
        buf.truncate(info.buffer_size());
        let (w, h) = (info.width, info.height);
        let n = w as usize * h as usize;
        let data = match info.color_type {
            png::ColorType::Rgba => buf,
            png::ColorType::Rgb => buf.chunks_exact(3).flat_map(|c| [c[0], c[1], c[2], 255]).collect(),
            png::ColorType::Grayscale => buf.iter().flat_map(|&g| [g, g, g, 255]).collect(),
            png::ColorType::GrayscaleAlpha => buf.chunks_exact(2).flat_map(|c| [c[0], c[0], c[0], c[1]]).collect(),
            png::ColorType::Indexed => {
                return Err(RenderError::Png("palette was not expanded".into()));
            }
        };
        if data.len() != n * 4 || info.bit_depth != png::BitDepth::Eight {
            return Err(RenderError::Png(format!(
                "unexpected decoded layout {:?} {:?}",
                info.color_type, info.bit_depth
            )));
        }
        Ok(RgbaImage { width: w, height: h, data })
    }

    /// Reads and decodes a PNG file (see [`decode_png`](Self::decode_png)).
    ///
    /// ```no_run
    /// let img = animkit_player::render::RgbaImage::load_png("sprite.png")?;
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn load_png(path: impl AsRef<Path>) -> Result<RgbaImage, RenderError> {
        let path = path.as_ref();
        let io = |source| RenderError::Io { path: path.to_path_buf(), source };
        let file = std::fs::File::open(path).map_err(io)?;
        // Only a regular file of bounded size: `/dev/zero` or a FIFO would
        // be read for ever.
        let meta = file.metadata().map_err(io)?;
        if !meta.is_file() {
            return Err(io(std::io::Error::other("not a regular file")));
        }
        if meta.len() > MAX_PNG_BYTES {
            return Err(io(std::io::Error::other(format!(
                "{} bytes, more than a PNG may have ({MAX_PNG_BYTES})",
                meta.len()
            ))));
        }
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::Read::take(file, MAX_PNG_BYTES), &mut bytes).map_err(io)?;
        RgbaImage::decode_png(&bytes).map_err(|e| match e {
            RenderError::Png(m) => RenderError::Png(format!("{}: {m}", path.display())),
            other => other,
        })
    }

    /// Encodes as an 8-bit RGBA PNG.
    ///
    /// ```
    /// let png = animkit_player::render::RgbaImage::new(1, 1, [0; 4]).encode_png()?;
    /// assert_eq!(&png[1..4], b"PNG");
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn encode_png(&self) -> Result<Vec<u8>, RenderError> {
        let png_err = |e: png::EncodingError| RenderError::Png(e.to_string());
        check_size(self.width.into(), self.height.into())?;
        if self.data.len() != self.width as usize * self.height as usize * 4 {
            return Err(RenderError::Png("pixel buffer has the wrong length".into()));
        }
        let mut out = Vec::new();
        {
            let mut enc = png::Encoder::new(&mut out, self.width, self.height);
            enc.set_color(png::ColorType::Rgba);
            enc.set_depth(png::BitDepth::Eight);
            enc.set_compression(png::Compression::Fast);
            let mut writer = enc.write_header().map_err(png_err)?;
            writer.write_image_data(&self.data).map_err(png_err)?;
            writer.finish().map_err(png_err)?;
        }
        Ok(out)
    }

    /// The raw frame-buffer bytes Animator's `screendump` writes, in the layout
    /// of an SDL software surface of depth `bpp`:
    ///
    /// * rows from top to bottom; each row padded with zero bytes to a multiple
    ///   of 4 bytes (SDL's surface pitch), so only 15/16/24 bpp with some widths
    ///   have padding;
    /// * `32`: 4 bytes a pixel B, G, R, A — the little-endian 32-bit word
    ///   `0xAARRGGBB`;
    /// * `24`: 3 bytes a pixel B, G, R (little-endian `0xRRGGBB`);
    /// * `16`: little-endian 16-bit RGB565 `rrrrrggg gggbbbbb` (top bits of each channel);
    /// * `15`: little-endian 16-bit XRGB1555 with the X bit 0.
    ///
    /// Any other depth is [`RenderError::UnsupportedBpp`].
    ///
    /// ```
    /// use animkit_player::render::RgbaImage;
    /// let img = RgbaImage::new(1, 1, [0x11, 0x22, 0x33, 0xff]);
    /// assert_eq!(img.to_raw(32)?, vec![0x33, 0x22, 0x11, 0xff]);
    /// assert_eq!(img.to_raw(24)?, vec![0x33, 0x22, 0x11, 0]); // padded to 4
    /// assert_eq!(img.to_raw(16)?, 0x1106u16.to_le_bytes().iter().chain(&[0, 0]).copied().collect::<Vec<_>>());
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn to_raw(&self, bpp: u32) -> Result<Vec<u8>, RenderError> {
        let bytes_pp = match bpp {
            32 => 4,
            24 => 3,
            15 | 16 => 2,
            other => return Err(RenderError::UnsupportedBpp(other)),
        };
        let w = self.width as usize;
        let pitch = (w * bytes_pp + 3) & !3;
        let mut out = Vec::with_capacity(pitch * self.height as usize);
        for row in self.data.chunks_exact((w * 4).max(1)).take(self.height as usize) {
            let start = out.len();
            for px in row.chunks_exact(4) {
                let (r, g, b, a) = (px[0], px[1], px[2], px[3]);
                match bpp {
                    32 => out.extend_from_slice(&[b, g, r, a]),
                    24 => out.extend_from_slice(&[b, g, r]),
                    16 => {
                        let v = (u16::from(r >> 3) << 11) | (u16::from(g >> 2) << 5) | u16::from(b >> 3);
                        out.extend_from_slice(&v.to_le_bytes());
                    }
                    _ => {
                        let v = (u16::from(r >> 3) << 10) | (u16::from(g >> 3) << 5) | u16::from(b >> 3);
                        out.extend_from_slice(&v.to_le_bytes());
                    }
                }
            }
            out.resize(start + pitch, 0);
        }
        Ok(out)
    }

    /// Flips the rows in place (top row becomes bottom row).
    pub(crate) fn flip_rows(&mut self) {
        let stride = self.width as usize * 4;
        let h = self.height as usize;
        if stride == 0 {
            return;
        }
        for y in 0..h / 2 {
            let (top, bottom) = self.data.split_at_mut((h - 1 - y) * stride);
            top[y * stride..(y + 1) * stride].swap_with_slice(&mut bottom[..stride]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(
        w: u32,
        h: u32,
        color: png::ColorType,
        depth: png::BitDepth,
        data: &[u8],
        palette: Option<&[u8]>,
    ) -> Vec<u8> {
        let mut out = Vec::new();
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(color);
        enc.set_depth(depth);
        if let Some(p) = palette {
            enc.set_palette(p.to_vec());
        }
        let mut wr = enc.write_header().unwrap();
        wr.write_image_data(data).unwrap();
        wr.finish().unwrap();
        out
    }

    #[test]
    fn decodes_every_colour_type_to_rgba8() {
        use png::{BitDepth as D, ColorType as C};
        let g = encode(2, 1, C::Grayscale, D::Eight, &[0, 200], None);
        assert_eq!(RgbaImage::decode_png(&g).unwrap().data, [0, 0, 0, 255, 200, 200, 200, 255]);
        let ga = encode(1, 1, C::GrayscaleAlpha, D::Eight, &[7, 9], None);
        assert_eq!(RgbaImage::decode_png(&ga).unwrap().data, [7, 7, 7, 9]);
        let rgb16 = encode(1, 1, C::Rgb, D::Sixteen, &[0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc], None);
        assert_eq!(RgbaImage::decode_png(&rgb16).unwrap().data, [0x12, 0x56, 0x9a, 255]);
        let idx = encode(2, 1, C::Indexed, D::Eight, &[1, 0], Some(&[1, 2, 3, 4, 5, 6]));
        assert_eq!(RgbaImage::decode_png(&idx).unwrap().data, [4, 5, 6, 255, 1, 2, 3, 255]);
        let g1 = encode(3, 1, C::Grayscale, D::One, &[0b1010_0000], None);
        assert_eq!(RgbaImage::decode_png(&g1).unwrap().pixel(0, 0), Some([255, 255, 255, 255]));
    }

    #[test]
    fn refuses_huge_and_truncated_pngs() {
        let big = encode(8193, 1, png::ColorType::Grayscale, png::BitDepth::One, &[0; 1025], None);
        assert!(matches!(RgbaImage::decode_png(&big), Err(RenderError::BadSize { .. })));
        let ok = RgbaImage::new(4, 4, [1, 2, 3, 4]).encode_png().unwrap();
        assert!(matches!(RgbaImage::decode_png(&ok[..ok.len() - 20]), Err(RenderError::Png(_))));
        assert!(matches!(RgbaImage::decode_png(&[]), Err(RenderError::Png(_))));
    }

    #[test]
    fn flip_rows_and_raw_layouts() {
        let mut img = RgbaImage::new(1, 3, [0; 4]);
        img.set_pixel(0, 0, [1; 4]);
        img.set_pixel(0, 2, [3; 4]);
        img.flip_rows();
        assert_eq!(img.pixel(0, 0), Some([3; 4]));
        assert_eq!(img.pixel(0, 2), Some([1; 4]));
        let px = RgbaImage::new(1, 1, [0xff, 0x80, 0x08, 0xff]);
        assert_eq!(px.to_raw(15).unwrap()[..2], ((31u16 << 10) | (16 << 5) | 1).to_le_bytes());
        assert!(matches!(px.to_raw(8), Err(RenderError::UnsupportedBpp(8))));
        assert_eq!(RgbaImage::new(5, 2, [0; 4]).to_raw(24).unwrap().len(), 2 * 16);
    }
}
