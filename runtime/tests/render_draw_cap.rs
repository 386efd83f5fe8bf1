//! No batch reaches the driver in one piece larger than the documented cap
//! (`render/draws.rs`): a million-vertex stroke, a huge convex fill and a
//! stencil fill of a huge polygon become draws of at most
//! `MAX_DRAW_VERTICES` vertices from uploads of at most `MAX_UPLOAD_BYTES`,
//! covering every queued vertex once, and draw the same pixels.

use animkit_runtime::render::*;

const WHITE: Rgba = [1.0, 1.0, 1.0, 1.0];
const BLACK: Rgba = [0.0, 0.0, 0.0, 1.0];

fn scattered(n: usize, w: f32, h: f32, seed: u64) -> Vec<Point> {
    let mut z = seed;
    let mut next = || {
        z = z.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (z >> 40) as f32 / (1u64 << 24) as f32
    };
    (0..n).map(|_| [next() * w, next() * h]).collect()
}

/// Checks the draws of `g` against the cap and returns them.
fn checked_draws(g: &Geometry) -> Vec<Draw> {
    let draws: Vec<Draw> = g.draws().collect();
    let mut window = 0..0;
    let mut next = 0;
    for d in &draws {
        if let Some(w) = &d.upload {
            assert!(w.len() * VERTEX_SIZE <= MAX_UPLOAD_BYTES, "upload {w:?}");
            window = w.clone();
        }
        assert!(d.vertices.len() <= MAX_DRAW_VERTICES, "draw {d:?}");
        assert!(d.vertices.start >= window.start && d.vertices.end <= window.end, "{d:?} outside {window:?}");
        // In order, every vertex drawn once.
        assert_eq!(d.vertices.start, next, "{d:?}");
        next = d.vertices.end;
    }
    assert_eq!(next, g.vertex_count());
    draws
}

#[test]
fn a_thick_polyline_of_200_000_points_is_drawn_in_bounded_pieces() {
    let mut g = Geometry::new();
    g.stroke(&scattered(200_000, 640.0, 480.0, 7), false, 1024.0, 0xffff, BLACK);
    let n = g.vertex_count();
    assert!(n > 1_200_000, "{n}");
    let draws = checked_draws(&g);
    // One batch: as few draws as the cap allows, each whole triangles.
    assert_eq!(draws.len(), n.div_ceil(MAX_DRAW_VERTICES));
    assert!(draws.iter().all(|d| d.vertices.len() % 3 == 0 && d.batch == 0));
    assert_eq!(draws.iter().filter(|d| d.upload.is_some()).count(), draws.len());
}

#[test]
fn a_convex_fill_of_300_000_points_is_drawn_in_bounded_pieces() {
    let mut g = Geometry::new();
    let circle: Vec<Point> = (0..300_000)
        .map(|i| {
            let a = i as f32 * std::f32::consts::TAU / 300_000.0;
            [65536.0 * a.cos(), 65536.0 * a.sin()]
        })
        .collect();
    g.fill_convex(&circle, BLACK);
    assert_eq!(g.vertex_count(), 3 * 299_998);
    let draws = checked_draws(&g);
    assert_eq!(draws.len(), (3 * 299_998usize).div_ceil(MAX_DRAW_VERTICES));
}

#[test]
fn many_small_batches_share_uploads() {
    // 2 000 batches (the clip changes each time) of 6 vertices: one draw
    // each, but one upload per 65 535 vertices, not per batch.
    let mut g = Geometry::new();
    for i in 0..2_000 {
        g.set_clip(Some(PixelRect::new(i % 7, 0, 10, 10)));
        g.dot([1.0, 1.0], BLACK);
    }
    let draws = checked_draws(&g);
    assert_eq!(draws.len(), 2_000);
    assert_eq!(draws.iter().filter(|d| d.upload.is_some()).count(), 1);
}

#[test]
fn a_polygon_of_150_000_points_is_three_stencil_fans_round_one_apex() {
    let mut g = Geometry::new();
    let points = scattered(150_000, 640.0, 480.0, 3);
    g.fill_polygon(&points, BLACK);
    let draws = checked_draws(&g);
    // Three fans and the cover.
    assert_eq!(draws.len(), 4);
    let v = g.vertices();
    let fans = &draws[..3];
    let apex = v[0].pos;
    let mut triangles = 0;
    let mut ring = Vec::new();
    for (k, d) in fans.iter().enumerate() {
        let f = &v[d.vertices.clone()];
        assert_eq!(f[0].pos, apex, "fan {k} turns round the same apex");
        triangles += f.len() - 2;
        // Each fan starts where the last ended.
        if k > 0 {
            assert_eq!(Some(&f[1].pos), ring.last());
            ring.pop();
        }
        ring.extend(f[1..].iter().map(|x| x.pos));
    }
    // The closed outline, each of its edges once.
    assert_eq!(triangles, points.len());
    assert_eq!(ring.len(), points.len() + 1);
    assert_eq!(&ring[..points.len()], &points[..]);
    assert_eq!(ring[points.len()], points[0]);
    assert_eq!(g.vertex_count(), points.len() + 2 * 3 + 6);
}

#[test]
fn split_batches_draw_the_same_pixels() {
    let host = HeadlessGl::new(64, 48).expect("headless GL (EGL device) must be available");
    let mut r = host.into_renderer().expect("renderer");
    // A square traced nine times round in 72 000 points: not convex, so a
    // stencil fill in two fans; by the even-odd rule it is the square.
    let lap = 8_000;
    let square: Vec<Point> = (0..9 * lap)
        .map(|i| {
            let t = (i % lap) as f32 / lap as f32 * 4.0;
            let (side, f) = (t.floor() as u32, t.fract() * 40.0);
            match side {
                0 => [10.0 + f, 5.0],
                1 => [50.0, 5.0 + f],
                2 => [50.0 - f, 45.0],
                _ => [10.0, 45.0 - f],
            }
        })
        .collect();
    assert!(!is_convex(&square));
    r.clear(WHITE);
    r.fill_polygon(&square, BLACK);
    let stencil = r.read_pixels();
    let s = r.stats();
    assert_eq!((s.draw_calls, s.largest_draw), (3, MAX_DRAW_VERTICES as u64), "{s:?}");
    r.clear(WHITE);
    r.fill_convex(&[[10.0, 5.0], [50.0, 5.0], [50.0, 45.0], [10.0, 45.0]], BLACK);
    assert!(stencil == r.read_pixels(), "the split stencil fill is not the square");
    // A stroke of 30 000 segments: 180 000 vertices in three draws, each
    // from its own upload.
    let zigzag: Vec<Point> =
        (0..30_001).map(|i| [(i % 60) as f32 + 2.0, if i % 2 == 0 { 4.0 } else { 40.0 }]).collect();
    r.stroke(&zigzag, false, 1.0, 0xffff, [0.0, 0.0, 0.0, 0.02]);
    r.flush();
    let s = r.stats();
    assert_eq!((s.vertices, s.draw_calls, s.uploads), (180_000, 3, 3), "{s:?}");
    assert_eq!(s.largest_draw, MAX_DRAW_VERTICES as u64);
}

/// A flush of millions of vertices hands them to the driver in pieces: a
/// `glFinish` after every `DRIVER_FLUSH_VERTICES` drawn, so a driver that
/// bins a whole command stream before it rasterizes (llvmpipe) never holds
/// more than that at once. 3 000 circles of 65 536 vertices (issue 21) held
/// 2.4 GB in llvmpipe's bins without it; `docs/limits.md` has the figures.
/// A flush under the bound pays nothing.
#[test]
fn a_huge_flush_reaches_the_driver_in_bounded_pieces() {
    let host = HeadlessGl::new(32, 32).expect("headless GL (EGL device) must be available");
    let mut r = host.into_renderer().expect("a renderer");
    r.clear(WHITE);
    r.fill_convex(&scattered(1000, 32.0, 32.0, 7)[..3], BLACK);
    r.flush();
    assert_eq!(r.stats().driver_flushes, 0, "{:?}", r.stats());
    // A thick polyline of 200 000 points: 6 vertices a segment.
    let points = scattered(200_000, 32.0, 32.0, 11);
    r.stroke(&points, false, 3.0, 0xffff, BLACK);
    r.flush();
    let s = r.stats();
    let v = s.vertices as usize;
    assert!(v > 2 * DRIVER_FLUSH_VERTICES, "{s:?}");
    // One after each piece of at least DRIVER_FLUSH_VERTICES, the last
    // piece closed by the flush's own glFlush; draws are whole, so a piece
    // may pass the bound by at most one draw.
    let pieces = s.driver_flushes as usize + 1;
    assert!(pieces >= v.div_ceil(DRIVER_FLUSH_VERTICES + MAX_DRAW_VERTICES), "{s:?}");
    assert!(pieces <= v.div_ceil(DRIVER_FLUSH_VERTICES), "{s:?}");
    assert_eq!(r.total_stats().driver_flushes, s.driver_flushes);
}
