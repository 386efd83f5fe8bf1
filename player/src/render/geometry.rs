//! CPU tessellation: turns strokes, fills, arrows and quads into triangles of
//! [`Vertex`]es appended to the frame's one vertex stream. No GL here.
//!
//! Pixel rules (shared with the shader, which moves every vertex by
//! [`PIXEL_EPS`] right and down so no edge ever passes exactly through a pixel
//! centre): a pixel is covered when its centre, moved `PIXEL_EPS` up and left,
//! lies inside a triangle. So a fill of the rectangle `10..20` covers columns
//! 10 to 19, and a point on a pixel corner belongs to the pixel below-right of it
//! (the pixel `floor(p)`).

use lyon_tessellation::geometry_builder::{BuffersBuilder, VertexBuffers};
use lyon_tessellation::math::point;
use lyon_tessellation::path::Polygon;
use lyon_tessellation::{FillOptions, FillTessellator, FillVertex};

use super::types::{ImageId, PixelRect, Point, Rgba, rgba_to_u8};

/// How far (in pixels) the shader moves all geometry right and down; see the
/// module docs. Larger than llvmpipe's 1/256 px sub-pixel grid.
pub(crate) const PIXEL_EPS: f32 = 1.0 / 64.0;

/// Fragment mode: plain vertex colour.
pub const MODE_SOLID: u32 = 0;
/// Fragment mode: RGBA image texel (unit 0) times vertex colour.
pub const MODE_TEXTURED: u32 = 1;
/// Fragment mode: vertex colour with alpha times the glyph atlas's R (unit 1).
pub const MODE_GLYPH: u32 = 2;
/// Fragment mode: vertex colour where the dash pattern (upper 16 bits of the
/// mode word) has a 1 at bit `round(uv.x) % 16`, else discarded.
pub const MODE_DASHED: u32 = 3;

/// One vertex of the streamed buffer: 24 bytes, no padding.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Vertex {
    /// Position in target pixels (top-left origin).
    pub pos: [f32; 2],
    /// Texture coordinate (textured, glyph) or `[distance, 0]` (dashed).
    pub uv: [f32; 2],
    /// RGBA8, not premultiplied.
    pub color: [u8; 4],
    /// Mode in the low 16 bits, dash pattern in the high 16 bits.
    pub mode: u32,
}

/// Size of [`Vertex`] in bytes.
pub const VERTEX_SIZE: usize = std::mem::size_of::<Vertex>();

/// Views vertices as bytes for upload.
pub(crate) fn as_bytes(v: &[Vertex]) -> &[u8] {
    // SAFETY: Vertex is repr(C), Copy, made of f32/u8/u32 fields with no
    // padding (8 + 8 + 4 + 4 = 24, all 4-aligned), so every byte is initialised.
    unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<u8>(), std::mem::size_of_val(v)) }
}

fn add(a: Point, b: Point) -> Point {
    [a[0] + b[0], a[1] + b[1]]
}
fn sub(a: Point, b: Point) -> Point {
    [a[0] - b[0], a[1] - b[1]]
}
fn mul(a: Point, s: f32) -> Point {
    [a[0] * s, a[1] * s]
}
fn dot(a: Point, b: Point) -> f32 {
    a[0] * b[0] + a[1] * b[1]
}
fn length(a: Point) -> f32 {
    dot(a, a).sqrt()
}

pub(crate) fn finite(points: &[Point]) -> bool {
    points.iter().all(|p| p[0].is_finite() && p[1].is_finite())
}

/// Appends one solid/dashed triangle; `dist` gives the dash distance of a vertex.
#[inline(always)]
fn tri(out: &mut Vec<Vertex>, t: [Point; 3], color: [u8; 4], mode: u32, dist: impl Fn(Point) -> f32) {
    out.extend_from_slice(&t.map(|p| Vertex { pos: p, uv: [dist(p), 0.0], color, mode }));
}

/// Appends a quad `a b c d` (in order around its edge) as two triangles.
#[inline(always)]
fn quad(out: &mut Vec<Vertex>, q: [Point; 4], color: [u8; 4], mode: u32, dist: impl Fn(Point) -> f32) {
    let v = q.map(|p| Vertex { pos: p, uv: [dist(p), 0.0], color, mode });
    out.extend_from_slice(&[v[0], v[1], v[2], v[0], v[2], v[3]]);
}

/// Appends an axis-aligned textured (or glyph) rectangle: `dst` is
/// `[x0, y0, x1, y1]` in pixels, `uv` is `[u0, v0, u1, v1]` for its top-left
/// and bottom-right corners.
pub(crate) fn textured_rect(out: &mut Vec<Vertex>, dst: [f32; 4], uv: [f32; 4], color: [u8; 4], mode: u32) {
    let [x0, y0, x1, y1] = dst;
    let [u0, v0, u1, v1] = uv;
    let v = |x, y, u, w| Vertex { pos: [x, y], uv: [u, w], color, mode };
    out.extend_from_slice(&[
        v(x0, y0, u0, v0),
        v(x1, y0, u1, v0),
        v(x1, y1, u1, v1),
        v(x0, y0, u0, v0),
        v(x1, y1, u1, v1),
        v(x0, y1, u0, v1),
    ]);
}

/// Exactly the pixel containing `p` (`floor(p)`).
pub(crate) fn dot_px(out: &mut Vec<Vertex>, p: Point, color: [u8; 4]) {
    if !finite(&[p]) {
        return;
    }
    let (x, y) = (p[0].floor(), p[1].floor());
    quad(out, [[x, y], [x + 1.0, y], [x + 1.0, y + 1.0], [x, y + 1.0]], color, MODE_SOLID, |_| 0.0);
}

/// The mode word for a dash pattern.
fn dash_mode(dash: u16) -> u32 {
    if dash == 0xffff { MODE_SOLID } else { MODE_DASHED | (u32::from(dash) << 16) }
}

/// Pixel-step length of a segment: the distance along its major axis, which
/// is the number of pixels a thin line advances (what a rasterizer's stipple
/// counter counts).
fn steps(d: Point) -> f32 {
    d[0].abs().max(d[1].abs())
}

/// Buffers reused from one primitive to the next, so that tessellating a
/// stroke or a polygon allocates nothing once they have grown.
#[derive(Default)]
pub(crate) struct Scratch {
    points: Vec<Point>,
    segs: Vec<Seg>,
    lyon_points: Vec<lyon_tessellation::math::Point>,
    lyon_out: VertexBuffers<Point, u32>,
    /// A polygon's triangles before they are known to be any (see
    /// `Geometry::polygon`).
    pub(crate) polygon: Vec<Vertex>,
}

/// Appends a polyline. See [`Renderer::stroke`](super::Renderer::stroke) for
/// the contract.
pub(crate) fn stroke(
    out: &mut Vec<Vertex>,
    scratch: &mut Scratch,
    points: &[Point],
    closed: bool,
    thick: f32,
    dash: u16,
    color: [u8; 4],
) {
    if dash == 0 || points.is_empty() || !finite(points) {
        return;
    }
    let thick = if thick.is_finite() { thick } else { 1.0 };
    let mode = dash_mode(dash);
    // The common case, one open thin segment (`line`): no copy.
    if let [a, b] = *points {
        if !closed && thick <= 1.0 && length(sub(b, a)) > 1e-4 {
            thin_segment(out, a, b, mode, color);
            return;
        }
    }
    let p = &mut scratch.points;
    p.clear();
    for &q in points {
        if p.last().is_none_or(|&l| length(sub(q, l)) > 1e-4) {
            p.push(q);
        }
    }
    if closed && p.len() > 2 && length(sub(p[0], p[p.len() - 1])) <= 1e-4 {
        p.pop();
    }
    let closed = closed && p.len() > 2;
    if p.len() == 1 {
        if thick > 1.0 {
            let h = thick / 2.0;
            let c = p[0];
            quad(
                out,
                [[c[0] - h, c[1] - h], [c[0] + h, c[1] - h], [c[0] + h, c[1] + h], [c[0] - h, c[1] + h]],
                color,
                MODE_SOLID,
                |_| 0.0,
            );
        } else if dash & 1 != 0 {
            dot_px(out, p[0], color);
        }
        return;
    }
    if thick > 1.0 {
        thick_polyline(out, &mut scratch.segs, p, closed, thick / 2.0, mode, color);
    } else {
        thin_polyline(out, p, closed, mode, color);
    }
}

/// One-pixel lines: each segment is a parallelogram one pixel tall (x-major)
/// or wide (y-major), so exactly one pixel per column (row) is covered, like
/// Bresenham. Each segment covers its start pixel; only the last segment of
/// an open polyline also covers its end pixel, so joints are drawn once.
fn thin_polyline(out: &mut Vec<Vertex>, p: &[Point], closed: bool, mode: u32, color: [u8; 4]) {
    let n = p.len();
    let nseg = if closed { n } else { n - 1 };
    out.reserve(6 * nseg);
    let mut cum = 0.0f32;
    for i in 0..nseg {
        let a = p[i];
        let b = p[if i + 1 == n { 0 } else { i + 1 }];
        let d = sub(b, a);
        let len = steps(d);
        let include_end = !closed && i == nseg - 1;
        let x_major = d[0].abs() >= d[1].abs();
        // k: the step along the line per pixel of the major axis.
        let k = mul(d, 1.0 / len);
        let e: Point = if x_major { [d[0].signum(), 0.0] } else { [0.0, d[1].signum()] };
        let o: Point = if x_major { [0.0, 0.5] } else { [0.5, 0.0] };
        let start = sub(a, mul(k, 0.5));
        let end = if include_end { add(b, mul(k, 0.5)) } else { sub(b, mul(k, 0.5)) };
        let q = [sub(start, o), add(start, o), add(end, o), sub(end, o)];
        if mode == MODE_SOLID {
            quad(out, q, color, mode, |_| 0.0);
        } else {
            let c0 = cum;
            quad(out, q, color, mode, |v| c0 + dot(sub(v, a), e));
        }
        cum += len;
    }
}

/// [`thin_polyline`] of the open polyline `[a, b]`: the same vertices,
/// computed the same way, without the loop.
#[inline]
fn thin_segment(out: &mut Vec<Vertex>, a: Point, b: Point, mode: u32, color: [u8; 4]) {
    let d = sub(b, a);
    let len = steps(d);
    let x_major = d[0].abs() >= d[1].abs();
    let k = mul(d, 1.0 / len);
    let o: Point = if x_major { [0.0, 0.5] } else { [0.5, 0.0] };
    let start = sub(a, mul(k, 0.5));
    let end = add(b, mul(k, 0.5));
    let q = [sub(start, o), add(start, o), add(end, o), sub(end, o)];
    if mode == MODE_SOLID {
        quad(out, q, color, mode, |_| 0.0);
    } else {
        let e: Point = if x_major { [d[0].signum(), 0.0] } else { [0.0, d[1].signum()] };
        quad(out, q, color, mode, |v| 0.0 + dot(sub(v, a), e));
    }
}

#[derive(Clone, Copy)]
struct Seg {
    a: Point,
    u: Point,
    n: Point,
    len: f32,
    /// steps / euclidean length
    k: f32,
    cum: f32,
    start: [Point; 2],
    end: [Point; 2],
}

/// Thick lines: a rectangle per segment (half width `h`), with mitred joins
/// sharing their edge when possible (no overlap, so alpha stays even), and a
/// butt end plus an outer mitre/bevel wedge otherwise (never a gap). Open ends
/// are extended half a pixel, like thin lines' end pixels.
fn thick_polyline(
    out: &mut Vec<Vertex>,
    segs: &mut Vec<Seg>,
    p: &[Point],
    closed: bool,
    h: f32,
    mode: u32,
    color: [u8; 4],
) {
    let n = p.len();
    let nseg = if closed { n } else { n - 1 };
    segs.clear();
    let mut cum = 0.0;
    for i in 0..nseg {
        let a = p[i];
        let b = p[if i + 1 == n { 0 } else { i + 1 }];
        let d = sub(b, a);
        let len = length(d);
        let u = mul(d, 1.0 / len);
        let nrm = [-u[1], u[0]];
        segs.push(Seg {
            a,
            u,
            n: nrm,
            len,
            k: steps(d) / len,
            cum,
            start: [add(a, mul(nrm, h)), sub(a, mul(nrm, h))],
            end: [add(b, mul(nrm, h)), sub(b, mul(nrm, h))],
        });
        cum += steps(d);
    }
    if !closed {
        let s = &mut segs[0];
        let a = sub(s.a, mul(s.u, 0.5));
        s.start = [add(a, mul(s.n, h)), sub(a, mul(s.n, h))];
        let s = &mut segs[nseg - 1];
        let b = add(add(s.a, mul(s.u, s.len)), mul(s.u, 0.5));
        s.end = [add(b, mul(s.n, h)), sub(b, mul(s.n, h))];
    }
    let joins = if closed { 0..nseg } else { 1..nseg };
    for j in joins {
        let ia = (j + nseg - 1) % nseg;
        let (sa, sb) = (&segs[ia], &segs[j]);
        let pj = sb.a;
        let sum = add(sa.n, sb.n);
        let sl = length(sum);
        if sl < 1e-4 {
            continue; // a full turn back: the rectangles overlap, nothing to fill
        }
        let m = mul(sum, 1.0 / sl);
        let cos_half = dot(m, sa.n).clamp(1e-6, 1.0);
        let miter = h / cos_half;
        let tan_half = (1.0 - cos_half * cos_half).max(0.0).sqrt() / cos_half;
        let outer_ok = cos_half >= 0.25;
        let inner_ok = h * tan_half <= 0.5 * sa.len.min(sb.len);
        if outer_ok && inner_ok {
            let c = [add(pj, mul(m, miter)), sub(pj, mul(m, miter))];
            segs[ia].end = c;
            segs[j].start = c;
        } else {
            let s = if dot(sb.u, sa.n) > 0.0 { -1.0 } else { 1.0 };
            let oa = add(pj, mul(sa.n, h * s));
            let ob = add(pj, mul(sb.n, h * s));
            let dj = sb.cum;
            if outer_ok {
                let om = add(pj, mul(m, miter * s));
                quad(out, [pj, oa, om, ob], color, mode, |_| dj);
            } else {
                tri(out, [pj, oa, ob], color, mode, |_| dj);
            }
        }
    }
    out.reserve(6 * segs.len());
    for s in segs.iter() {
        let (a, u, k, c0) = (s.a, s.u, s.k, s.cum);
        let q = [s.start[0], s.end[0], s.end[1], s.start[1]];
        if mode == MODE_SOLID {
            quad(out, q, color, mode, |_| 0.0);
        } else {
            quad(out, q, color, mode, |v| c0 + k * dot(sub(v, a), u));
        }
    }
}

/// Head length of an arrow of line thickness `thick`:
/// `6 + 4 * max(thick, 1)` pixels; its base is as wide as it is long.
///
/// ```
/// assert_eq!(animkit_player::render::arrow_head_length(1.0), 10.0);
/// assert_eq!(animkit_player::render::arrow_head_length(3.0), 18.0);
/// ```
pub fn arrow_head_length(thick: f32) -> f32 {
    let t = if thick.is_finite() { thick.max(1.0) } else { 1.0 };
    6.0 + 4.0 * t
}

/// Appends an arrow: the shaft (stroked, dashed) from `p0` to the head's base,
/// and a solid triangular head with its tip at `p1` (extended half a pixel).
pub(crate) fn arrow(
    out: &mut Vec<Vertex>,
    scratch: &mut Scratch,
    p0: Point,
    p1: Point,
    thick: f32,
    dash: u16,
    color: [u8; 4],
) {
    if !finite(&[p0, p1]) {
        return;
    }
    let d = sub(p1, p0);
    let len = length(d);
    if len < 1e-4 {
        stroke(out, scratch, &[p0], false, thick, dash, color);
        return;
    }
    let u = mul(d, 1.0 / len);
    let nrm = [-u[1], u[0]];
    let head = arrow_head_length(thick).min(len);
    let base = sub(p1, mul(u, head));
    if head < len {
        stroke(out, scratch, &[p0, base], false, thick, dash, color);
    }
    let w = head / 2.0;
    // The tip reaches half a pixel past p1, as line ends do, so the pixel
    // containing p1 is drawn.
    let tip = add(p1, mul(u, 0.5));
    fill_convex(out, &[tip, add(base, mul(nrm, w)), sub(base, mul(nrm, w))], color);
}

/// Appends a convex polygon as a triangle fan from its first point.
pub(crate) fn fill_convex(out: &mut Vec<Vertex>, points: &[Point], color: [u8; 4]) {
    if points.len() < 3 || !finite(points) {
        return;
    }
    out.reserve(3 * (points.len() - 2));
    let v = |p: Point| Vertex { pos: p, uv: [0.0, 0.0], color, mode: MODE_SOLID };
    let first = v(points[0]);
    for w in points[1..].windows(2) {
        out.extend_from_slice(&[first, v(w[0]), v(w[1])]);
    }
}

/// Tessellates any polygon (concave, self-intersecting, with repeated points)
/// with the even-odd rule and appends its triangles' corners (3 per
/// triangle), each made a vertex by `vertex`. Appends nothing if the input
/// is degenerate, non-finite or lyon fails.
pub(crate) fn tessellate_even_odd(
    tess: &mut FillTessellator,
    scratch: &mut Scratch,
    points: &[Point],
    out: &mut Vec<Vertex>,
    vertex: impl Fn(Point) -> Vertex,
) {
    if points.len() < 3 || !finite(points) {
        return;
    }
    let pts = &mut scratch.lyon_points;
    pts.clear();
    pts.extend(points.iter().map(|p| point(p[0], p[1])));
    let geom = &mut scratch.lyon_out;
    geom.vertices.clear();
    geom.indices.clear();
    let ok = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        tess.tessellate_polygon(
            Polygon { points: pts, closed: true },
            &FillOptions::even_odd(),
            &mut BuffersBuilder::new(geom, |v: FillVertex| v.position().to_array()),
        )
        .is_ok()
    }));
    match ok {
        Ok(true) => {}
        Ok(false) => return,
        Err(_) => {
            // A panic leaves the tessellator in an unknown state: start afresh.
            *tess = FillTessellator::new();
            return;
        }
    }
    out.extend(geom.indices.iter().filter_map(|&i| geom.vertices.get(i as usize).map(|&p| vertex(p))));
}

/// A run of queued vertices drawn with one draw call: it breaks only when
/// the image texture or the clip rectangle changes, and around the two
/// draws of a stencil fill (see [`super::fill`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Batch {
    pub start: usize,
    pub image: Option<ImageId>,
    pub clip: Option<PixelRect>,
    /// The modes of its vertices: bit `1 << m` for mode `m` (a superset is
    /// fine). The renderer picks the cheapest shader that draws them all.
    pub modes: u8,
    /// How its vertices are drawn.
    pub kind: BatchKind,
}

/// How a batch's vertices are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BatchKind {
    /// Triangles (3 vertices each), blended into the picture.
    Triangles,
    /// A polygon's points as one triangle fan into the stencil buffer
    /// only: each pixel's stencil bit 0 is inverted once per fan triangle
    /// covering it, so it ends up 1 where the polygon's outline winds an
    /// odd number of times around it (even-odd). No colour is written.
    StencilFan,
    /// Triangles covering a stencil fan, blended where its stencil bit is
    /// 1, which they reset to 0 (so the stencil is all zero again after).
    Cover,
}

/// The mode bit of solid geometry.
pub(crate) const SOLID_BIT: u8 = 1 << MODE_SOLID;

/// The mode bits a stroke with dash pattern `dash` may produce.
fn stroke_bits(dash: u16) -> u8 {
    if dash == 0xffff { SOLID_BIT } else { SOLID_BIT | 1 << MODE_DASHED }
}

/// The CPU half of the [`Renderer`](super::Renderer): primitives tessellated
/// into one vertex stream in draw order, split into batches at texture and
/// clip changes. It needs no GL context, so it can run (and be measured, and
/// tested) on its own; a `Renderer` owns one and uploads its vertices at
/// each flush.
///
/// The drawing methods take the same arguments, and append exactly the same
/// triangles, as the `Renderer` methods of the same name.
///
/// ```
/// use animkit_player::render::Geometry;
/// let mut g = Geometry::new();
/// g.stroke(&[[0.0, 0.0], [10.0, 0.0]], false, 1.0, 0xffff, [0.0, 0.0, 0.0, 1.0]);
/// g.fill_convex(&[[0.0, 0.0], [4.0, 0.0], [4.0, 4.0], [0.0, 4.0]], [1.0, 0.0, 0.0, 1.0]);
/// assert_eq!((g.vertex_count(), g.batch_count()), (12, 1));
/// g.clear();
/// assert_eq!(g.vertex_count(), 0);
/// ```
#[derive(Default)]
pub struct Geometry {
    pub(crate) vertices: Vec<Vertex>,
    pub(crate) batches: Vec<Batch>,
    clip: Option<PixelRect>,
    pub(crate) tess: FillTessellator,
    pub(crate) scratch: Scratch,
}

impl std::fmt::Debug for Geometry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Geometry")
            .field("vertices", &self.vertices.len())
            .field("batches", &self.batches.len())
            .field("clip", &self.clip)
            .finish_non_exhaustive()
    }
}

impl Geometry {
    /// Nothing queued, no clip.
    pub fn new() -> Geometry {
        Geometry::default()
    }

    /// Vertices queued (3 per triangle).
    pub fn vertex_count(&self) -> usize {
        self.vertices.len()
    }

    /// Batches queued: the draw calls a flush of them would issue (empty
    /// batches aside).
    pub fn batch_count(&self) -> usize {
        self.batches.iter().enumerate().filter(|&(i, b)| self.batch_end(i) > b.start).count()
    }

    /// The queued vertices, in draw order.
    pub fn vertices(&self) -> &[Vertex] {
        &self.vertices
    }

    /// The queued vertices as the bytes uploaded to the vertex buffer.
    pub fn vertex_bytes(&self) -> &[u8] {
        as_bytes(&self.vertices)
    }

    /// Drops everything queued (keeping the buffers' memory and the clip).
    pub fn clear(&mut self) {
        self.vertices.clear();
        self.batches.clear();
    }

    /// End (exclusive) of batch `i`'s vertices.
    pub(crate) fn batch_end(&self, i: usize) -> usize {
        self.batches.get(i + 1).map_or(self.vertices.len(), |n| n.start)
    }

    /// Restricts later drawing to `clip` (`None`: everything).
    pub fn set_clip(&mut self, clip: Option<PixelRect>) {
        self.clip = clip;
    }

    /// The current clip rectangle.
    pub fn clip(&self) -> Option<PixelRect> {
        self.clip
    }

    /// Starts or continues a batch compatible with `image` and the clip.
    #[inline]
    pub(crate) fn batch_for(&mut self, image: Option<ImageId>, modes: u8) {
        let clip = self.clip;
        let start = self.vertices.len();
        match self.batches.last_mut() {
            Some(b) if b.start == start && b.kind == BatchKind::Triangles => {
                // Empty batch: retarget it.
                b.image = image;
                b.clip = clip;
                b.modes = modes;
            }
            Some(b)
                if b.kind == BatchKind::Triangles
                    && b.clip == clip
                    && (image.is_none() || b.image.is_none() || b.image == image) =>
            {
                if image.is_some() {
                    b.image = image;
                }
                b.modes |= modes;
            }
            _ => self.batches.push(Batch { start, image, clip, modes, kind: BatchKind::Triangles }),
        }
    }

    /// Starts a batch of its own of `kind` (never merged with another).
    pub(crate) fn push_batch(&mut self, kind: BatchKind, image: Option<ImageId>, modes: u8) {
        let (start, clip) = (self.vertices.len(), self.clip);
        match self.batches.last_mut() {
            // An empty batch: retarget it.
            Some(b) if b.start == start => *b = Batch { start, image, clip, modes, kind },
            _ => self.batches.push(Batch { start, image, clip, modes, kind }),
        }
    }

    /// The mode bits of batch `i` (see [`Batch::modes`]).
    pub(crate) fn batch_modes(&self, i: usize) -> u8 {
        self.batches.get(i).map_or(0, |b| b.modes)
    }

    /// See [`Renderer::dot`](super::Renderer::dot).
    pub fn dot(&mut self, p: Point, rgba: Rgba) {
        self.batch_for(None, SOLID_BIT);
        dot_px(&mut self.vertices, p, rgba_to_u8(rgba));
    }

    /// See [`Renderer::stroke`](super::Renderer::stroke).
    pub fn stroke(&mut self, points: &[Point], closed: bool, thick: f32, dash: u16, rgba: Rgba) {
        self.batch_for(None, stroke_bits(dash));
        stroke(&mut self.vertices, &mut self.scratch, points, closed, thick, dash, rgba_to_u8(rgba));
    }

    /// See [`Renderer::arrow`](super::Renderer::arrow).
    pub fn arrow(&mut self, p0: Point, p1: Point, thick: f32, dash: u16, rgba: Rgba) {
        self.batch_for(None, stroke_bits(dash));
        arrow(&mut self.vertices, &mut self.scratch, p0, p1, thick, dash, rgba_to_u8(rgba));
    }

    /// See [`Renderer::fill_convex`](super::Renderer::fill_convex).
    pub fn fill_convex(&mut self, points: &[Point], rgba: Rgba) {
        self.batch_for(None, SOLID_BIT);
        fill_convex(&mut self.vertices, points, rgba_to_u8(rgba));
    }

    /// See [`Renderer::fill_polygon`](super::Renderer::fill_polygon).
    pub fn fill_polygon(&mut self, points: &[Point], rgba: Rgba) {
        let color = rgba_to_u8(rgba);
        self.polygon(points, None, SOLID_BIT, |pos| Vertex { pos, uv: [0.0, 0.0], color, mode: MODE_SOLID });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tris(t: &mut FillTessellator, points: &[Point]) -> Vec<Point> {
        let mut out = Vec::new();
        tessellate_even_odd(t, &mut Scratch::default(), points, &mut out, |pos| Vertex {
            pos,
            uv: [0.0; 2],
            color: [0; 4],
            mode: 0,
        });
        out.into_iter().map(|v| v.pos).collect()
    }

    #[test]
    fn vertex_is_24_bytes() {
        assert_eq!(VERTEX_SIZE, 24);
    }

    #[test]
    fn thin_line_is_two_triangles_and_dash_zero_draws_nothing() {
        let (mut v, mut s) = (Vec::new(), Scratch::default());
        stroke(&mut v, &mut s, &[[0.0, 0.0], [10.0, 0.0]], false, 1.0, 0xffff, [0; 4]);
        assert_eq!(v.len(), 6);
        v.clear();
        stroke(&mut v, &mut s, &[[0.0, 0.0], [10.0, 0.0]], false, 1.0, 0, [0; 4]);
        assert!(v.is_empty());
    }

    #[test]
    fn a_segment_is_a_one_segment_polyline() {
        let mut x = 0.37f32;
        let mut next = || {
            x = (x * 97.13).fract();
            x * 300.0 - 100.0
        };
        for _ in 0..2000 {
            let (a, b) = ([next(), next()], [next(), next()]);
            for mode in [MODE_SOLID, dash_mode(0x0f0f)] {
                let (mut one, mut poly) = (Vec::new(), Vec::new());
                thin_segment(&mut one, a, b, mode, [1, 2, 3, 4]);
                thin_polyline(&mut poly, &[a, b], false, mode, [1, 2, 3, 4]);
                assert_eq!(one, poly, "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn bad_input_is_ignored() {
        let (mut v, mut s) = (Vec::new(), Scratch::default());
        stroke(&mut v, &mut s, &[[f32::NAN, 0.0], [10.0, 0.0]], false, 3.0, 0xffff, [0; 4]);
        fill_convex(&mut v, &[[0.0, 0.0], [1.0, f32::INFINITY], [2.0, 0.0]], [0; 4]);
        arrow(&mut v, &mut s, [0.0, 0.0], [f32::NAN, 1.0], 1.0, 0xffff, [0; 4]);
        assert!(v.is_empty());
        let mut t = FillTessellator::new();
        assert!(tris(&mut t, &[[0.0, 0.0], [1.0, 1.0]]).is_empty());
        assert!(tris(&mut t, &[[1e30, 0.0], [-1e30, 1e30], [0.0, -1e30]]).len() % 3 == 0);
    }

    #[test]
    fn even_odd_star_leaves_centre_out() {
        let mut t = FillTessellator::new();
        let star: Vec<Point> = (0..5)
            .map(|i| {
                let a = (i * 2) as f32 * std::f32::consts::TAU / 5.0;
                [a.cos() * 10.0, a.sin() * 10.0]
            })
            .collect();
        let tris = tris(&mut t, &star);
        assert!(!tris.is_empty());
        // The centre (0,0) is inside no triangle.
        let inside = tris.chunks_exact(3).any(|t| {
            let s = |a: Point, b: Point| (b[0] - a[0]) * (0.0 - a[1]) - (b[1] - a[1]) * (0.0 - a[0]);
            let (d0, d1, d2) = (s(t[0], t[1]), s(t[1], t[2]), s(t[2], t[0]));
            (d0 > 1e-3 && d1 > 1e-3 && d2 > 1e-3) || (d0 < -1e-3 && d1 < -1e-3 && d2 < -1e-3)
        });
        assert!(!inside);
    }
}
