//! Small value types shared by the renderer's API: points, colours,
//! rectangles, alignments, image ids and statistics.

/// A point in target pixels: origin at the top-left corner of the target,
/// x to the right, y down. Pixel `(i, j)` covers `[i, i+1) x [j, j+1)`, so
/// its centre is `[i as f32 + 0.5, j as f32 + 0.5]`.
///
/// ```
/// let centre_of_pixel_3_4: animkit_player::render::Point = [3.5, 4.5];
/// ```
pub type Point = [f32; 2];

/// A colour as red, green, blue, alpha in `0.0..=1.0` (not premultiplied).
/// Alpha 1 is opaque; drawing blends with standard "source over".
///
/// ```
/// let half_transparent_red: animkit_player::render::Rgba = [1.0, 0.0, 0.0, 0.5];
/// ```
pub type Rgba = [f32; 4];

/// Converts a colour to 8-bit channels (clamped, rounded).
///
/// ```
/// use animkit_player::render::rgba_to_u8;
/// assert_eq!(rgba_to_u8([1.0, 0.5, 0.0, 2.0]), [255, 128, 0, 255]);
/// assert_eq!(rgba_to_u8([f32::NAN, -1.0, 0.501960813, 0.498039216]), [0, 0, 128, 127]);
/// ```
pub fn rgba_to_u8(c: Rgba) -> [u8; 4] {
    // `round()` of a value in 0..=255, without the libm call `f32::round` is
    // on the x86-64 baseline: adding 0.5 in f64 is exact, and the cast
    // truncates (NaN casts to 0).
    c.map(|v| (f64::from(v.clamp(0.0, 1.0) * 255.0) + 0.5) as u8)
}

/// An axis-aligned rectangle of whole pixels, top-left origin: it covers
/// columns `x .. x+w` and rows `y .. y+h`. Used for clipping and sprite
/// regions. Negative or empty sizes are allowed and cover nothing.
///
/// ```
/// use animkit_player::render::PixelRect;
/// let r = PixelRect::new(10, 20, 30, 40);
/// assert!(r.contains(10, 20) && !r.contains(40, 20));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PixelRect {
    /// Left column.
    pub x: i32,
    /// Top row.
    pub y: i32,
    /// Width in pixels.
    pub w: i32,
    /// Height in pixels.
    pub h: i32,
}

impl PixelRect {
    /// A rectangle from its top-left pixel and size.
    ///
    /// ```
    /// let r = animkit_player::render::PixelRect::new(0, 0, 2, 2);
    /// assert_eq!(r.w * r.h, 4);
    /// ```
    pub const fn new(x: i32, y: i32, w: i32, h: i32) -> Self {
        PixelRect { x, y, w, h }
    }

    /// The pixels whose centres lie inside the rectangle spanned by two
    /// corner points (any two opposite corners, in pixel coordinates) —
    /// the same pixels a [`fill_convex`](super::Renderer::fill_convex) of that
    /// rectangle would cover. Non-finite input gives an empty rectangle.
    ///
    /// ```
    /// use animkit_player::render::PixelRect;
    /// assert_eq!(PixelRect::from_corners([20.0, 5.0], [10.0, 15.0]), PixelRect::new(10, 5, 10, 10));
    /// ```
    pub fn from_corners(a: Point, b: Point) -> Self {
        if !(a[0].is_finite() && a[1].is_finite() && b[0].is_finite() && b[1].is_finite()) {
            return PixelRect::new(0, 0, 0, 0);
        }
        let edge = |v: f32| (v as f64 + 0.5).floor().clamp(-1.0e9, 1.0e9) as i32;
        let (x0, x1) = (edge(a[0].min(b[0])), edge(a[0].max(b[0])));
        let (y0, y1) = (edge(a[1].min(b[1])), edge(a[1].max(b[1])));
        PixelRect::new(x0, y0, x1 - x0, y1 - y0)
    }

    /// Whether pixel `(px, py)` is inside.
    ///
    /// ```
    /// assert!(animkit_player::render::PixelRect::new(1, 1, 1, 1).contains(1, 1));
    /// ```
    pub fn contains(&self, px: i32, py: i32) -> bool {
        px >= self.x
            && py >= self.y
            && (px as i64) < self.x as i64 + self.w as i64
            && (py as i64) < self.y as i64 + self.h as i64
    }

    /// The overlap with the `width` x `height` target, as
    /// `(x, y, w, h)` with non-negative sizes.
    pub(crate) fn clamp_to(&self, width: u32, height: u32) -> (i32, i32, i32, i32) {
        let x0 = (self.x as i64).clamp(0, width as i64);
        let y0 = (self.y as i64).clamp(0, height as i64);
        let x1 = (self.x as i64 + self.w.max(0) as i64).clamp(x0, width as i64);
        let y1 = (self.y as i64 + self.h.max(0) as i64).clamp(y0, height as i64);
        (x0 as i32, y0 as i32, (x1 - x0) as i32, (y1 - y0) as i32)
    }
}

/// Horizontal alignment of a text or image box relative to its anchor point.
///
/// `Left`: the anchor is on the box's left edge; `Center`: in the middle;
/// `Right`: on the right edge.
///
/// ```
/// let a = animkit_player::render::HAlign::default();
/// assert_eq!(a, animkit_player::render::HAlign::Center);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum HAlign {
    /// Anchor on the left edge (the box extends to the right).
    Left,
    /// Anchor in the middle.
    #[default]
    Center,
    /// Anchor on the right edge (the box extends to the left).
    Right,
}

/// Vertical alignment of a text or image box relative to its anchor point.
///
/// `Bottom`: the anchor is on the box's bottom edge (the box lies above it);
/// `Center`: in the middle; `Top`: on the top edge (the box hangs below it).
///
/// ```
/// let a = animkit_player::render::VAlign::default();
/// assert_eq!(a, animkit_player::render::VAlign::Center);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum VAlign {
    /// Anchor on the bottom edge (the box extends upwards).
    Bottom,
    /// Anchor in the middle.
    #[default]
    Center,
    /// Anchor on the top edge (the box extends downwards).
    Top,
}

/// Offsets a box of size `w` x `h` so that its anchor sits at `p`; returns the
/// top-left corner.
pub(crate) fn aligned_top_left(p: Point, w: f32, h: f32, ha: HAlign, va: VAlign) -> Point {
    let x = match ha {
        HAlign::Left => p[0],
        HAlign::Center => p[0] - w / 2.0,
        HAlign::Right => p[0] - w,
    };
    let y = match va {
        VAlign::Top => p[1],
        VAlign::Center => p[1] - h / 2.0,
        VAlign::Bottom => p[1] - h,
    };
    [x, y]
}

/// Names an image owned by a [`Renderer`](super::Renderer). Ids are never
/// reused within one renderer, so a stale id is reported as
/// [`RenderError::UnknownImage`](super::RenderError::UnknownImage).
///
/// ```no_run
/// # use animkit_player::render::*;
/// # let mut r = HeadlessGl::new(64, 64)?.into_renderer()?;
/// let id: ImageId = r.create_image(8, 8, [1.0, 1.0, 1.0, 1.0])?;
/// # Ok::<(), RenderError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ImageId(pub(crate) u32);

/// What the last [`flush`](super::Renderer::flush) submitted (or the totals
/// since the renderer was made, from `total_stats`).
///
/// ```no_run
/// # use animkit_player::render::*;
/// # let mut r = HeadlessGl::new(64, 64)?.into_renderer()?;
/// r.stroke(&[[0.0, 0.0], [10.0, 10.0]], false, 1.0, 0xffff, [0.0, 0.0, 0.0, 1.0]);
/// r.flush();
/// assert_eq!(r.stats().draw_calls, 1);
/// # Ok::<(), RenderError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RenderStats {
    /// `glDrawArrays` calls issued.
    pub draw_calls: u64,
    /// Vertices submitted (triangles x 3).
    pub vertices: u64,
    /// Flushes that submitted at least one vertex.
    pub flushes: u64,
    /// Vertex uploads (`glBufferData`), each of at most
    /// [`MAX_UPLOAD_BYTES`](super::MAX_UPLOAD_BYTES).
    pub uploads: u64,
    /// Vertices of the largest draw call, at most
    /// [`MAX_DRAW_VERTICES`](super::MAX_DRAW_VERTICES) (in the totals: of
    /// any flush).
    pub largest_draw: u64,
    /// `glFinish` calls inside a flush, one after every
    /// [`DRIVER_FLUSH_VERTICES`](super::DRIVER_FLUSH_VERTICES)
    /// vertices drawn (the flush's own last `glFlush` not counted).
    pub driver_flushes: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_rounding_is_round() {
        let old = |v: f32| if v.is_nan() { 0 } else { (v.clamp(0.0, 1.0) * 255.0).round() as u8 };
        // Every f32 from 0 to 1 with its low 8 mantissa bits as they come,
        // and the neighbours of every x.5 / 255.
        let mut values: Vec<f32> = (0..(1u32 << 22)).map(|k| f32::from_bits(k << 8 | (k & 0xff))).collect();
        for k in 0..=255 {
            let half = (k as f32 + 0.5) / 255.0;
            let mut v = half;
            for _ in 0..4 {
                v = f32::from_bits(v.to_bits() - 1);
                values.push(v);
            }
            values.extend([half, f32::from_bits(half.to_bits() + 1), f32::from_bits(half.to_bits() + 2)]);
        }
        values.extend([-0.0, -1.0, 1.0, 2.0, f32::INFINITY, f32::NEG_INFINITY, f32::NAN]);
        for v in values {
            assert_eq!(rgba_to_u8([v; 4])[0], old(v), "{v:e}");
        }
    }
}
