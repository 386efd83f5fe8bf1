//! Polygon fills in time linear in their points plus the pixels they
//! cover, with the **even-odd** rule (a pixel is inside when a ray from
//! its centre crosses the outline an odd number of times), the rule of the
//! original's software renderer: SDL_gfx's `filledPolygon` collects each
//! scanline's edge crossings, sorts them and fills between pairs.
//!
//! Exact triangulation of a self-intersecting polygon is quadratic by
//! nature (every crossing of two edges is a vertex of the result: 5 000
//! random points took 30 s), so a polygon takes one of three paths:
//!
//! 1. **Convex** (checked in linear time: the outline turns one way and
//!    goes once around): a triangle fan, `3 (n - 2)` vertices in the
//!    current batch.
//! 2. **At most [`EXACT_MAX_POINTS`] points**, any shape: triangulated
//!    exactly (lyon's fill tessellator, even-odd), also in the current
//!    batch: bounded work (at most ~0.1 ms), and no break in the batch for
//!    the many small polygons a frame may hold.
//! 3. **Anything larger: stencil, then cover.** The points go as they are
//!    into one triangle fan (around the middle of their bounding box, the
//!    first point again at the end) drawn into the stencil buffer with
//!    `INVERT` on bit 0 (no colour), so a pixel's bit ends up set when an
//!    odd number of fan triangles cover it, which is exactly when it is
//!    inside by the even-odd rule; then one quad over the bounding box is
//!    drawn where the bit is set, blended once per pixel, and resets the
//!    bit. `n + 8` vertices and two draw calls (two batches of their own,
//!    [`BatchKind::StencilFan`] and [`BatchKind::Cover`]), whatever the
//!    shape; an outline of more than `MAX_DRAW_VERTICES - 2` points is
//!    several fans around the one apex (one draw call each, so no draw
//!    exceeds the cap of `render/draws.rs`). The GPU's work is the fan's area: the polygon's own for an
//!    outline that is star-shaped around the middle, more for wild ones,
//!    never more than the points times the bounding box.
//!
//! The three give the same pixels (the coverage rule of
//! [`super::geometry`] holds for all: a pixel centre nudged 1/64 px is
//! inside or not; shared fan edges count once). `imgpoly` fills the same
//! way with a textured cover; Animator's `area` hit test is the same
//! even-odd rule on the same points (`animator::areas::contains`), and
//! `viewport NAME` measures the points themselves, whatever the rule.

use super::draws::MAX_DRAW_VERTICES;
use super::geometry::{BatchKind, Geometry, MODE_SOLID, SOLID_BIT, Vertex, finite, tessellate_even_odd};
use super::types::{ImageId, Point};

/// Polygons of at most this many points that are not convex are
/// triangulated exactly; larger ones are filled through the stencil.
///
/// ```
/// assert_eq!(animkit_player::render::EXACT_MAX_POINTS, 32);
/// ```
pub const EXACT_MAX_POINTS: usize = 32;

/// Twice the area (px²) under which a turn of an outline counts as
/// straight in [`is_convex`].
pub const STRAIGHT: f32 = 0.05;

/// A direction's x or y smaller than this (px) counts as 0 in
/// [`is_convex`].
const FLAT: f32 = 1.0 / 64.0;

/// The farthest a cover quad reaches (pixels): beyond any target
/// (16 384 at most), and small enough that the rasterizer's fixed point
/// holds it.
const COVER_LIMIT: f32 = (1 << 20) as f32;

/// Whether `points` outline a convex polygon, simple and wound once: every
/// turn goes the same way (straight ones and repeated points aside) and the
/// edges' directions change the sign of x at most twice and of y at most
/// twice (a pentagram turns one way too, but twice around). Linear time.
///
/// Coordinates are pixels, and the test allows for their rounding (points
/// on a circle, mapped through a matrix, wobble): a turn whose triangle is
/// smaller than [`STRAIGHT`] / 2 px² counts as straight, and a direction's
/// x or y below 1/64 px as zero. A fan over such a turn misses or doubles
/// at most that sliver. A polygon of no area is not convex.
///
/// ```
/// use animkit_player::render::is_convex;
/// assert!(is_convex(&[[0.0, 0.0], [4.0, 0.0], [4.0, 4.0], [0.0, 4.0]]));
/// assert!(!is_convex(&[[0.0, 0.0], [4.0, 0.0], [1.0, 1.0], [0.0, 4.0]]));
/// let star: Vec<[f32; 2]> = (0..5).map(|i| {
///     let a = (i * 2) as f32 * std::f32::consts::TAU / 5.0;
///     [a.cos(), a.sin()]
/// }).collect();
/// assert!(!is_convex(&star));
/// ```
pub fn is_convex(points: &[Point]) -> bool {
    let n = points.len();
    let edge = |i: usize| {
        let (a, b) = (points[i % n], points[(i + 1) % n]);
        [b[0] - a[0], b[1] - a[1]]
    };
    // The way the outline turns: the sign of its area (shoelace, relative
    // to the first point so that far-away coordinates keep their digits).
    let o = points.first().copied().unwrap_or([0.0, 0.0]);
    let area: f64 = (0..n)
        .map(|i| {
            let (a, b) = (points[i], points[(i + 1) % n]);
            let (a, b) = ([a[0] - o[0], a[1] - o[1]], [b[0] - o[0], b[1] - o[1]]);
            f64::from(a[0]) * f64::from(b[1]) - f64::from(a[1]) * f64::from(b[0])
        })
        .sum();
    let Some(start) = (0..n).find(|&i| edge(i) != [0.0, 0.0]) else { return false };
    if area == 0.0 || !area.is_finite() {
        return false;
    }
    let sign = area.signum() as f32;
    let mut prev = edge(start);
    // The last direction with a non-flat x (y), and how often it flipped.
    let (mut last, mut flips) = (prev, [0u32; 2]);
    // Every edge after the first, then the first again: each vertex's turn
    // and each change of direction (round the end too) is seen once.
    for i in start + 1..=start + n {
        let d = edge(i);
        if d == [0.0, 0.0] {
            continue;
        }
        if (prev[0] * d[1] - prev[1] * d[0]) * sign < -STRAIGHT {
            return false;
        }
        for k in 0..2 {
            if d[k].abs() > FLAT {
                if last[k].abs() > FLAT && (d[k] > 0.0) != (last[k] > 0.0) {
                    flips[k] += 1;
                }
                last[k] = d[k];
            }
        }
        prev = d;
    }
    flips[0] <= 2 && flips[1] <= 2
}

impl Geometry {
    /// Fills the polygon `points` (even-odd; see the [module docs](self))
    /// with vertices made by `vertex`, in a batch for `image` and `modes`.
    pub(crate) fn polygon(
        &mut self,
        points: &[Point],
        image: Option<ImageId>,
        modes: u8,
        vertex: impl Fn(Point) -> Vertex,
    ) {
        if points.len() < 3 || !finite(points) {
            return;
        }
        if is_convex(points) {
            self.batch_for(image, modes);
            let first = vertex(points[0]);
            self.vertices.reserve(3 * (points.len() - 2));
            for w in points[1..].windows(2) {
                self.vertices.extend_from_slice(&[first, vertex(w[0]), vertex(w[1])]);
            }
            return;
        }
        if points.len() <= EXACT_MAX_POINTS {
            let mut triangles = std::mem::take(&mut self.scratch.polygon);
            triangles.clear();
            tessellate_even_odd(&mut self.tess, &mut self.scratch, points, &mut triangles, vertex);
            if !triangles.is_empty() {
                // The batch starts only if there is something to draw.
                self.batch_for(image, modes);
                self.vertices.extend_from_slice(&triangles);
            }
            self.scratch.polygon = triangles;
            return;
        }
        let (mut lo, mut hi) = ([f32::INFINITY; 2], [f32::NEG_INFINITY; 2]);
        for p in points {
            for k in 0..2 {
                lo[k] = lo[k].min(p[k]);
                hi[k] = hi[k].max(p[k]);
            }
        }
        let fan = |pos| Vertex { pos, uv: [0.0, 0.0], color: [0; 4], mode: MODE_SOLID };
        // The fan's apex is the middle of the bounding box, not the first
        // point: any apex gives the same parity, and this one makes the
        // triangles smaller (a star-shaped outline is covered once; 10^5
        // random points rasterize 1.7 times faster than from a corner).
        // The outline closed (the first point again at the end), as fans of
        // at most MAX_DRAW_VERTICES vertices around the same apex, each
        // starting at the point the last one ended on: the same triangles,
        // so the same stencil bits, in draws of bounded size.
        let apex = fan([(lo[0] + hi[0]) / 2.0, (lo[1] + hi[1]) / 2.0]);
        let ring = |i: usize| fan(points[i % points.len()]);
        let ring_len = points.len() + 1;
        let per_fan = MAX_DRAW_VERTICES - 1;
        let mut i = 0;
        while i + 1 < ring_len {
            let end = (i + per_fan).min(ring_len);
            self.push_batch(BatchKind::StencilFan, None, SOLID_BIT);
            self.vertices.reserve(end - i + 1);
            self.vertices.push(apex);
            self.vertices.extend((i..end).map(ring));
            i = end - 1;
        }
        // One pixel of margin, so that rounding never leaves a set bit
        // outside the cover.
        let lo = lo.map(|v| (v - 1.0).clamp(-COVER_LIMIT, COVER_LIMIT));
        let hi = hi.map(|v| (v + 1.0).clamp(-COVER_LIMIT, COVER_LIMIT));
        self.push_batch(BatchKind::Cover, image, modes);
        let c = [[lo[0], lo[1]], [hi[0], lo[1]], [hi[0], hi[1]], [lo[0], hi[1]]].map(&vertex);
        self.vertices.extend_from_slice(&[c[0], c[1], c[2], c[0], c[2], c[3]]);
    }
}
