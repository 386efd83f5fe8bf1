//! The mapping between Animator's root coordinates and window pixels.
//!
//! Root coordinates span -1..1 from the left edge to the right and from the
//! bottom edge to the top. With `aspect on` (the default) the *shorter*
//! window side spans -1..1 and the longer one extends further, so shapes
//! keep their proportions: a 640x480 window shows x in -4/3..4/3 and y in
//! -1..1. With `aspect off` (`-a`) both axes span -1..1 and shapes stretch.
//! Pixels have their origin at the top-left corner, y down.

use animkit_vm::engine::animator::Point;

/// Window size and aspect rule.
///
/// ```
/// use animkit_player::animator::view::View;
/// let v = View { width: 640, height: 480, aspect: true };
/// assert_eq!(v.to_pixel([0.0, 0.0]), [320.0, 240.0]);
/// assert_eq!(v.to_pixel([-1.0, 1.0]), [80.0, 0.0]);
/// assert_eq!(v.root_bounds(), [-4.0 / 3.0, -1.0, 4.0 / 3.0, 1.0]);
/// let s = View { aspect: false, ..v };
/// assert_eq!(s.to_pixel([-1.0, 1.0]), [0.0, 0.0]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `aspect on`.
    pub aspect: bool,
}

impl View {
    /// Pixels per root unit, horizontally and vertically.
    pub fn scale(&self) -> (f64, f64) {
        let (w, h) = (self.width as f64, self.height as f64);
        if self.aspect {
            let s = w.min(h) / 2.0;
            (s, s)
        } else {
            (w / 2.0, h / 2.0)
        }
    }

    /// Root coordinates to pixels (top-left origin, y down).
    #[inline]
    pub fn to_pixel(&self, p: Point) -> Point {
        let (sx, sy) = self.scale();
        [self.width as f64 / 2.0 + p[0] * sx, self.height as f64 / 2.0 - p[1] * sy]
    }

    /// Root coordinates to the renderer's pixel coordinates (`f32`).
    #[inline]
    pub fn to_pixel_f32(&self, p: Point) -> [f32; 2] {
        let q = self.to_pixel(p);
        [q[0] as f32, q[1] as f32]
    }

    /// Maps `points` to the renderer's pixel coordinates into `out`
    /// (cleared first; reused from call to call, so nothing is allocated
    /// once it has grown).
    ///
    /// ```
    /// use animkit_player::animator::view::View;
    /// let v = View { width: 640, height: 480, aspect: true };
    /// let mut out = Vec::new();
    /// v.pixels_into(&[[0.0, 0.0], [-1.0, 1.0]], &mut out);
    /// assert_eq!(out, [[320.0, 240.0], [80.0, 0.0]]);
    /// ```
    #[inline]
    pub fn pixels_into(&self, points: &[Point], out: &mut Vec<[f32; 2]>) {
        let (sx, sy) = self.scale();
        let (cx, cy) = (self.width as f64 / 2.0, self.height as f64 / 2.0);
        out.clear();
        out.extend(points.iter().map(|p| [(cx + p[0] * sx) as f32, (cy - p[1] * sy) as f32]));
    }

    /// A root-coordinate vector to a pixel vector.
    pub fn vector_to_pixel(&self, v: Point) -> Point {
        let (sx, sy) = self.scale();
        [v[0] * sx, -v[1] * sy]
    }

    /// Pixels to root coordinates.
    ///
    /// ```
    /// use animkit_player::animator::view::View;
    /// let v = View { width: 200, height: 100, aspect: true };
    /// assert_eq!(v.to_root([100.0, 50.0]), [0.0, 0.0]);
    /// assert_eq!(v.to_root([0.0, 0.0]), [-2.0, 1.0]);
    /// ```
    pub fn to_root(&self, p: Point) -> Point {
        let (sx, sy) = self.scale();
        [(p[0] - self.width as f64 / 2.0) / sx, (self.height as f64 / 2.0 - p[1]) / sy]
    }

    /// The window's edges in root coordinates: `[left, bottom, right, top]`.
    pub fn root_bounds(&self) -> [f64; 4] {
        let a = self.to_root([0.0, self.height as f64]);
        let b = self.to_root([self.width as f64, 0.0]);
        [a[0], a[1], b[0], b[1]]
    }
}
