//! The embedded font and its glyph atlas (CPU side): rasterizes glyphs with
//! fontdue on first use, packs them into shelves of an R8 atlas, and lays
//! out text into glyph quads. The renderer uploads what this module packs.

use std::collections::HashMap;

use super::types::Point;

/// The embedded font: DejaVu Sans Mono (Bitstream Vera licence, see
/// `player/assets/DejaVuSansMono-LICENSE.txt`), shipped inside the binary.
pub(crate) static FONT_BYTES: &[u8] = include_bytes!("../../assets/DejaVuSansMono.ttf");

/// The fixed text size: glyphs are rasterized at 14 pixels per em. With
/// DejaVu Sans Mono that gives 8-pixel-wide character cells and 17-pixel
/// lines (13 above the baseline, 4 below).
///
/// ```
/// assert_eq!(animkit_player::render::FONT_PX, 14.0);
/// ```
pub const FONT_PX: f32 = 14.0;

/// Edge of the square glyph atlas texture, in texels.
pub(crate) const ATLAS_SIZE: u32 = 1024;

#[derive(Debug, Clone, Copy)]
struct Slot {
    /// Atlas texel rectangle (x, y, w, h); w or h 0 for blank glyphs.
    rect: [u32; 4],
    xmin: i32,
    ymin: i32,
}

/// One glyph to draw: `dst` = `[x0, y0, x1, y1]` in pixels, `uv` =
/// `[u0, v0, u1, v1]` in the atlas.
#[derive(Debug, Clone, Copy)]
pub(crate) struct GlyphQuad {
    pub dst: [f32; 4],
    pub uv: [f32; 4],
}

/// A rectangle of the atlas to (re)upload: x, y, w, h and R8 bytes.
pub(crate) type Upload = (u32, u32, u32, u32, Vec<u8>);

/// The atlas ran out of room; flush, [`GlyphAtlas::reset`] and lay out again.
#[derive(Debug)]
pub(crate) struct AtlasFull;

/// Cell advance, ascent and descent of the embedded font at [`FONT_PX`],
/// rounded as the layout uses them (a test checks them against the font):
/// measuring text needs no font, so the font is parsed only when the first
/// glyph is drawn (parsing it takes a third of `animvm`'s start-up).
const ADVANCE: i32 = 8;
const ASCENT: i32 = 13;
const DESCENT: i32 = 4;

/// The embedded font, parsed.
fn parse_font() -> Result<fontdue::Font, String> {
    fontdue::Font::from_bytes(FONT_BYTES, fontdue::FontSettings::default()).map_err(|e| format!("embedded font: {e}"))
}

pub(crate) struct GlyphAtlas {
    /// Parsed on first use; `Err` if the embedded font cannot be read (then
    /// glyphs are blank).
    font: Option<Result<fontdue::Font, String>>,
    /// Edge of the atlas in texels.
    size: u32,
    /// Packed glyphs by glyph index (characters missing from the font share
    /// the .notdef box).
    slots: HashMap<u16, Slot>,
    shelf_x: u32,
    shelf_y: u32,
    shelf_h: u32,
    uploads: Vec<Upload>,
    /// Cell advance (rounded), ascent and descent (both positive, rounded up).
    advance: i32,
    ascent: i32,
    descent: i32,
}

impl GlyphAtlas {
    pub(crate) fn new() -> Result<Self, String> {
        Self::with_size(ATLAS_SIZE)
    }

    pub(crate) fn with_size(size: u32) -> Result<Self, String> {
        Ok(GlyphAtlas {
            font: None,
            size,
            slots: HashMap::new(),
            shelf_x: 0,
            shelf_y: 0,
            shelf_h: 0,
            uploads: Vec::new(),
            advance: ADVANCE,
            ascent: ASCENT,
            descent: DESCENT,
        })
    }

    /// Forgets every packed glyph (the caller must have drawn what used them).
    pub(crate) fn reset(&mut self) {
        self.slots.clear();
        self.shelf_x = 0;
        self.shelf_y = 0;
        self.shelf_h = 0;
        self.uploads.clear();
    }

    /// Rectangles packed since the last call, to upload into the texture.
    pub(crate) fn take_uploads(&mut self) -> Vec<Upload> {
        std::mem::take(&mut self.uploads)
    }

    pub(crate) fn line_height(&self) -> i32 {
        self.ascent + self.descent
    }

    fn slot(&mut self, c: char) -> Result<Slot, AtlasFull> {
        let Ok(font) = self.font.get_or_insert_with(parse_font) else {
            return Ok(Slot { rect: [0; 4], xmin: 0, ymin: 0 });
        };
        let index = font.lookup_glyph_index(c);
        if let Some(s) = self.slots.get(&index) {
            return Ok(*s);
        }
        let (m, bitmap) = font.rasterize_indexed(index, FONT_PX);
        let (w, h) = (m.width as u32, m.height as u32);
        let mut rect = [0, 0, 0, 0];
        if w > 0 && h > 0 {
            if w + 1 > self.size || h + 1 > self.size {
                return Err(AtlasFull);
            }
            if self.shelf_x + w + 1 > self.size {
                self.shelf_y += self.shelf_h;
                self.shelf_x = 0;
                self.shelf_h = 0;
            }
            if self.shelf_y + h + 1 > self.size {
                return Err(AtlasFull);
            }
            rect = [self.shelf_x, self.shelf_y, w, h];
            self.shelf_x += w + 1;
            self.shelf_h = self.shelf_h.max(h + 1);
            self.uploads.push((rect[0], rect[1], w, h, bitmap));
        }
        let s = Slot { rect, xmin: m.xmin, ymin: m.ymin };
        self.slots.insert(index, s);
        Ok(s)
    }

    /// Advance of one character in pixels (`\t` goes to the next multiple of
    /// 8 cells, other control characters take no room).
    fn advance_of(&self, c: char, pen: i32) -> i32 {
        match c {
            '\t' => {
                let tab = 8 * self.advance;
                (pen / tab + 1) * tab - pen
            }
            c if c.is_control() => 0,
            _ => self.advance,
        }
    }

    /// Size of the text's box in pixels: the widest line's advance sum by
    /// `lines * line_height`. Empty text is 0 x 0.
    pub(crate) fn measure(&self, s: &str) -> (i32, i32) {
        if s.is_empty() {
            return (0, 0);
        }
        let mut w = 0;
        let mut lines = 0;
        for line in s.split('\n') {
            lines += 1;
            let mut pen = 0;
            for c in line.chars() {
                pen += self.advance_of(c, pen);
            }
            w = w.max(pen);
        }
        (w, lines * self.line_height())
    }

    /// Lays out `s` with its box's top-left corner at `top_left` (whole pixels).
    pub(crate) fn layout(&mut self, top_left: [i32; 2], s: &str) -> Result<Vec<GlyphQuad>, AtlasFull> {
        let mut quads = Vec::new();
        let inv = 1.0 / self.size as f32;
        for (i, line) in s.split('\n').enumerate() {
            let baseline = top_left[1] + self.ascent + i as i32 * self.line_height();
            let mut pen = 0;
            for c in line.chars() {
                let adv = self.advance_of(c, pen);
                if !c.is_control() {
                    let slot = self.slot(c)?;
                    let [ax, ay, w, h] = slot.rect;
                    if w > 0 && h > 0 {
                        let x0 = (top_left[0] + pen + slot.xmin) as f32;
                        let y0 = (baseline - slot.ymin - h as i32) as f32;
                        quads.push(GlyphQuad {
                            dst: [x0, y0, x0 + w as f32, y0 + h as f32],
                            uv: [ax as f32 * inv, ay as f32 * inv, (ax + w) as f32 * inv, (ay + h) as f32 * inv],
                        });
                    }
                }
                pen += adv;
            }
        }
        Ok(quads)
    }
}

/// The whole-pixel top-left corner of a `w` x `h` box aligned at `p`.
pub(crate) fn box_origin(p: Point, w: i32, h: i32, ha: super::HAlign, va: super::VAlign) -> [i32; 2] {
    let tl = super::types::aligned_top_left(p, w as f32, h as f32, ha, va);
    let r = |v: f32| (v as f64 + 0.5).floor().clamp(-1.0e9, 1.0e9) as i32;
    [r(tl[0]), r(tl[1])]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_metrics_are_the_fonts() {
        let font = parse_font().unwrap();
        let lm = font.horizontal_line_metrics(FONT_PX).unwrap();
        assert_eq!(font.metrics(' ', FONT_PX).advance_width.round().max(1.0) as i32, ADVANCE);
        assert_eq!(lm.ascent.ceil() as i32, ASCENT);
        assert_eq!((-lm.descent).ceil() as i32, DESCENT);
    }

    #[test]
    fn metrics_are_as_documented() {
        let a = GlyphAtlas::new().unwrap();
        assert_eq!(a.advance, 8);
        assert_eq!((a.ascent, a.descent), (13, 4));
        assert_eq!(a.measure("ab\nabcd"), (32, 34));
        assert_eq!(a.measure(""), (0, 0));
    }

    #[test]
    fn a_full_atlas_is_reported_and_reset_makes_room() {
        let mut a = GlyphAtlas::with_size(64).unwrap();
        let s: String = ('!'..='~').collect();
        assert!(a.layout([0, 0], &s).is_err());
        a.reset();
        assert!(a.take_uploads().is_empty());
        let q = a.layout([0, 0], "abc").unwrap();
        assert_eq!(q.len(), 3);
        assert_eq!(a.take_uploads().len(), 3);
        // cached: no new uploads the second time
        a.layout([5, 5], "cab").unwrap();
        assert!(a.take_uploads().is_empty());
        // characters the font lacks share one glyph
        a.layout([0, 0], "\u{10FFFD}\u{10FFFC}").unwrap();
        assert!(a.take_uploads().len() <= 1);
    }

    #[test]
    fn glyph_ink_stays_inside_the_box() {
        let mut a = GlyphAtlas::new().unwrap();
        let s = "Hello, World! gjpqy|[]_^`\"'@";
        let (w, h) = a.measure(s);
        for q in a.layout([0, 0], s).unwrap() {
            assert!(q.dst[0] >= 0.0 && q.dst[1] >= 0.0, "{q:?}");
            assert!(q.dst[2] <= w as f32 + 1.0 && q.dst[3] <= h as f32, "{q:?}");
        }
    }
}
