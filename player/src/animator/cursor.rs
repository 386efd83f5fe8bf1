//! `defcursor` bitmaps as an RGBA cursor image.
//!
//! Data and mask are 32x32 one-bit bitmaps, 4 bytes per row, rows top to
//! bottom, the most significant bit leftmost. The spec's table:
//!
//! | data | mask | pixel |
//! | --- | --- | --- |
//! | 0 | 0 | transparent |
//! | 1 | 0 | black ("inverted on some systems"; black here) |
//! | 0 | 1 | white |
//! | 1 | 1 | black |

/// Cursor width and height in pixels.
pub const SIZE: u32 = 32;

/// A cursor image: 32x32 RGBA pixels (not premultiplied), top row first,
/// and the hot spot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CursorImage {
    /// `SIZE * SIZE * 4` bytes.
    pub rgba: Vec<u8>,
    /// Hot spot column and row (0-based from the top-left corner, clamped
    /// to the image).
    pub hot: (u16, u16),
}

impl CursorImage {
    /// Builds the image from `defcursor`'s bitmaps.
    ///
    /// ```
    /// use animkit_player::animator::cursor::CursorImage;
    /// let mut data = [0u8; 128];
    /// let mut mask = [0u8; 128];
    /// data[0] = 0b1100_0000; // pixels (0,0) and (1,0)
    /// mask[0] = 0b1010_0000; // pixels (0,0) and (2,0)
    /// let c = CursorImage::from_bitmaps(&data, &mask, (3, 40));
    /// assert_eq!(c.pixel(0, 0), [0, 0, 0, 255]); // 1/1 black
    /// assert_eq!(c.pixel(1, 0), [0, 0, 0, 255]); // 1/0 black
    /// assert_eq!(c.pixel(2, 0), [255, 255, 255, 255]); // 0/1 white
    /// assert_eq!(c.pixel(3, 0), [0, 0, 0, 0]); // 0/0 transparent
    /// assert_eq!(c.hot, (3, 31));
    /// ```
    pub fn from_bitmaps(data: &[u8; 128], mask: &[u8; 128], hot: (u32, u32)) -> CursorImage {
        let mut rgba = Vec::with_capacity((SIZE * SIZE * 4) as usize);
        for y in 0..SIZE as usize {
            for x in 0..SIZE as usize {
                let byte = y * 4 + x / 8;
                let bit = 0x80 >> (x % 8);
                let d = data[byte] & bit != 0;
                let m = mask[byte] & bit != 0;
                rgba.extend_from_slice(match (d, m) {
                    (false, false) => &[0, 0, 0, 0],
                    (false, true) => &[255, 255, 255, 255],
                    (true, _) => &[0, 0, 0, 255],
                });
            }
        }
        let clamp = |v: u32| v.min(SIZE - 1) as u16;
        CursorImage { rgba, hot: (clamp(hot.0), clamp(hot.1)) }
    }

    /// The RGBA value of pixel `(x, y)`.
    pub fn pixel(&self, x: u32, y: u32) -> [u8; 4] {
        let i = ((y * SIZE + x) * 4) as usize;
        [self.rgba[i], self.rgba[i + 1], self.rgba[i + 2], self.rgba[i + 3]]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_run_top_to_bottom_msb_first() {
        let mut data = [0u8; 128];
        let mask = [0xffu8; 128];
        data[4 * 31 + 3] = 0x01; // last pixel of the last row
        data[4 * 5 + 1] = 0x80; // row 5, column 8
        let c = CursorImage::from_bitmaps(&data, &mask, (16, 15));
        assert_eq!(c.rgba.len(), 32 * 32 * 4);
        assert_eq!(c.pixel(31, 31), [0, 0, 0, 255]);
        assert_eq!(c.pixel(8, 5), [0, 0, 0, 255]);
        assert_eq!(c.pixel(7, 5), [255, 255, 255, 255]);
        assert_eq!(c.pixel(9, 5), [255, 255, 255, 255]);
        assert_eq!(c.hot, (16, 15));
        let black = c.rgba.chunks(4).filter(|p| p == &[0, 0, 0, 255]).count();
        assert_eq!(black, 2);
    }

    #[test]
    fn empty_mask_and_data_is_invisible() {
        let c = CursorImage::from_bitmaps(&[0; 128], &[0; 128], (0, 0));
        assert!(c.rgba.chunks(4).all(|p| p[3] == 0));
    }
}
