//! Pixel-exact tests of the renderer, headless (EGL device platform; Mesa
//! llvmpipe on machines without a GPU, no X server needed).
//!
//! Time: each test makes its own GL context (~30 ms warm, ~300 ms on a cold
//! first run) and draws small targets; the whole file takes about 2-4 s on 2
//! idle cores (debug build; 6-10 s when the machine is busy), most of it in
//! the 10 000-line and golden tests.
//!
//! Golden images are in `tests/golden/render/` at the repository root;
//! `BLESS=1 cargo test -p animkit-runtime --test runtime render_pixels::` rewrites them,
//! and a failing comparison leaves `target/golden-diff/NAME.{actual,expected,diff}.png`.

use animkit_runtime::golden;
use animkit_runtime::host::files::save_png;
use animkit_runtime::render::*;

const WHITE: Rgba = [1.0, 1.0, 1.0, 1.0];
const BLACK: Rgba = [0.0, 0.0, 0.0, 1.0];
const RED: Rgba = [1.0, 0.0, 0.0, 1.0];

fn renderer(w: u32, h: u32) -> Renderer {
    let host = HeadlessGl::new(w, h).expect("headless GL (EGL device) must be available");
    let mut r = host.into_renderer().expect("renderer");
    r.clear(WHITE);
    r
}

/// Pixels that are not pure white, sorted by (y, x).
fn painted(img: &RgbaImage) -> Vec<(u32, u32)> {
    let mut v = Vec::new();
    for y in 0..img.height {
        for x in 0..img.width {
            if img.pixel(x, y) != Some([255, 255, 255, 255]) {
                v.push((x, y));
            }
        }
    }
    v
}

/// Bounding box (x0, y0, x1, y1) inclusive of painted pixels.
fn bbox(img: &RgbaImage) -> Option<(u32, u32, u32, u32)> {
    let p = painted(img);
    if p.is_empty() {
        return None;
    }
    let x0 = p.iter().map(|q| q.0).min()?;
    let x1 = p.iter().map(|q| q.0).max()?;
    let y0 = p.iter().map(|q| q.1).min()?;
    let y1 = p.iter().map(|q| q.1).max()?;
    Some((x0, y0, x1, y1))
}

/// Maps a pixel to (major, minor) coordinates of a line.
type AxisKey = fn(&(u32, u32)) -> (u32, u32);

fn is_painted(img: &RgbaImage, x: u32, y: u32) -> bool {
    img.pixel(x, y) != Some([255, 255, 255, 255])
}

#[test]
fn context_reports_desktop_gl_first() {
    let host = HeadlessGl::new(8, 8).unwrap();
    assert_eq!(host.api(), GlApi::DesktopCore33, "{}", host.version_string());
}

#[test]
fn dot_hits_exactly_one_pixel() {
    let mut r = renderer(32, 32);
    r.dot([3.5, 4.5], BLACK); // centre of pixel (3, 4)
    r.dot([10.0, 7.0], BLACK); // corner: the pixel below-right, (10, 7)
    r.dot([20.99, 20.01], BLACK); // anywhere inside pixel (20, 20)
    r.dot([-5.0, 3.0], BLACK); // outside: nothing
    let img = r.read_pixels();
    assert_eq!(painted(&img), vec![(3, 4), (10, 7), (20, 20)]);
    assert_eq!(img.pixel(3, 4), Some([0, 0, 0, 255]));
}

#[test]
fn thin_horizontal_line_covers_both_end_pixels_only() {
    for (a, b) in [([10.0, 5.0], [20.0, 5.0]), ([10.5, 5.5], [20.5, 5.5]), ([20.5, 5.5], [10.5, 5.5])] {
        let mut r = renderer(32, 16);
        r.stroke(&[a, b], false, 1.0, 0xffff, BLACK);
        let img = r.read_pixels();
        let expect: Vec<_> = (10..=20).map(|x| (x, 5)).collect();
        assert_eq!(painted(&img), expect, "{a:?} -> {b:?}");
    }
}

#[test]
fn thin_diagonal_lines_are_one_pixel_per_major_step_and_connected() {
    for (a, b, x_major) in [
        ([10.5, 10.5], [50.5, 30.5], true),
        ([12.5, 8.5], [30.5, 58.5], false),
        ([50.5, 10.5], [10.5, 50.5], true), // exactly 45 degrees
    ] {
        let mut r = renderer(64, 64);
        r.stroke(&[a, b], false, 1.0, 0xffff, BLACK);
        let img = r.read_pixels();
        let p = painted(&img);
        assert!(p.contains(&(a[0] as u32, a[1] as u32)) && p.contains(&(b[0] as u32, b[1] as u32)));
        let (lo, hi, key): (u32, u32, AxisKey) = if x_major {
            (a[0].min(b[0]) as u32, a[0].max(b[0]) as u32, |q| (q.0, q.1))
        } else {
            (a[1].min(b[1]) as u32, a[1].max(b[1]) as u32, |q| (q.1, q.0))
        };
        assert_eq!(p.len() as u32, hi - lo + 1, "{a:?}->{b:?}: one pixel per major step");
        let mut minor: Vec<(u32, u32)> = p.iter().map(key).collect();
        minor.sort();
        for (i, w) in minor.windows(2).enumerate() {
            assert_eq!(w[1].0, w[0].0 + 1, "step {i}");
            assert!(w[1].1.abs_diff(w[0].1) <= 1, "gap at step {i}: {w:?}");
        }
    }
}

#[test]
fn thin_polyline_draws_shared_vertices_once() {
    let mut r = renderer(64, 64);
    let half = [0.0, 0.0, 0.0, 0.5];
    r.stroke(&[[5.5, 5.5], [40.5, 5.5], [40.5, 40.5], [10.5, 30.5]], false, 1.0, 0xffff, half);
    r.stroke(&[[50.5, 50.5], [60.5, 50.5], [60.5, 60.5], [50.5, 60.5]], true, 1.0, 0xffff, half);
    let img = r.read_pixels();
    let p = painted(&img);
    let first = img.pixel(p[0].0, p[0].1).unwrap();
    assert!(first[0].abs_diff(128) <= 2, "{first:?}");
    for &(x, y) in &p {
        assert_eq!(img.pixel(x, y).unwrap(), first, "pixel ({x},{y}) drawn twice?");
    }
    // The closed square: 4 sides of 10 steps = 40 pixels, corners included.
    assert_eq!(p.iter().filter(|q| q.0 >= 50 && q.1 >= 50).count(), 40);
}

#[test]
fn thick_lines_have_the_right_width() {
    let mut r = renderer(64, 64);
    r.stroke(&[[5.0, 10.0], [40.0, 10.0]], false, 3.0, 0xffff, BLACK);
    r.stroke(&[[5.0, 20.0], [40.0, 20.0]], false, 2.0, 0xffff, BLACK);
    r.stroke(&[[50.5, 5.5], [50.5, 40.5]], false, 5.0, 0xffff, BLACK);
    let img = r.read_pixels();
    let column = |x: u32, y0: u32, y1: u32| (y0..y1).filter(|&y| is_painted(&img, x, y)).collect::<Vec<_>>();
    assert_eq!(column(20, 0, 16), vec![9, 10, 11]);
    assert_eq!(column(20, 16, 30), vec![19, 20]);
    let row: Vec<u32> = (44..60).filter(|&x| is_painted(&img, x, 20)).collect();
    assert_eq!(row, vec![48, 49, 50, 51, 52]);
    // Ends extend half a pixel, like the thin line's end pixels: columns 5..=40.
    let ends: Vec<u32> = (0..48).filter(|&x| is_painted(&img, x, 10)).collect();
    assert_eq!(ends, (5..=40).collect::<Vec<_>>());
}

#[test]
fn thick_rectangle_corners_have_no_gaps_and_no_overlap() {
    let mut r = renderer(80, 80);
    let half = [0.0, 0.0, 1.0, 0.5];
    r.stroke(&[[20.0, 20.0], [60.0, 20.0], [60.0, 60.0], [20.0, 60.0]], true, 5.0, 0xffff, half);
    let img = r.read_pixels();
    // Outer corners are square: the 5x5 block around each corner is full.
    for (cx, cy) in [(20, 20), (60, 20), (60, 60), (20, 60)] {
        for y in cy - 2..=cy + 2 {
            for x in cx - 2..=cx + 2 {
                assert!(is_painted(&img, x, y), "gap at ({x},{y})");
            }
        }
    }
    // One uniform shade: no pixel blended twice.
    let p = painted(&img);
    let c = img.pixel(p[0].0, p[0].1).unwrap();
    assert!(p.iter().all(|&(x, y)| img.pixel(x, y) == Some(c)));
    // 5 px wide sides: 4 * (45*5) - 4 * 25 corner blocks counted twice.
    assert_eq!(p.len(), 4 * 45 * 5 - 4 * 25);
}

#[test]
fn thick_circle_has_no_holes() {
    let mut r = renderer(100, 100);
    let pts: Vec<Point> = (0..24)
        .map(|i| {
            let a = i as f32 / 24.0 * std::f32::consts::TAU;
            [50.0 + 35.0 * a.cos(), 50.0 + 35.0 * a.sin()]
        })
        .collect();
    r.stroke(&pts, true, 4.0, 0xffff, BLACK);
    let img = r.read_pixels();
    for i in 0..720 {
        let a = i as f32 / 720.0 * std::f32::consts::TAU;
        // the chord sags at most 35 * (1 - cos(7.5 deg)) = 0.3 px inside the circle
        let (x, y) = (50.0 + 34.8 * a.cos(), 50.0 + 34.8 * a.sin());
        assert!(is_painted(&img, x as u32, y as u32), "hole at angle {i}/720");
    }
}

#[test]
fn dash_0x00ff_is_8_on_8_off_lsb_first_and_carries_across_segments() {
    let mut r = renderer(80, 64);
    r.stroke(&[[0.5, 5.5], [70.5, 5.5]], false, 1.0, 0x00ff, BLACK);
    r.stroke(&[[0.0, 8.0], [70.0, 8.0]], false, 1.0, 0x00ff, BLACK); // corner coordinates too
    r.stroke(&[[0.5, 12.5], [70.5, 12.5]], false, 1.0, 0x0001, BLACK); // LSB = first pixel
    r.stroke(&[[0.5, 20.5], [12.5, 20.5], [12.5, 60.5]], false, 1.0, 0x00ff, BLACK);
    let img = r.read_pixels();
    for x in 0..=70 {
        let on = x % 16 < 8;
        assert_eq!(is_painted(&img, x, 5), on, "x={x}");
        assert_eq!(is_painted(&img, x, 8), on, "x={x} (corner coordinates)");
        assert_eq!(is_painted(&img, x, 12), x % 16 == 0, "x={x} (0x0001)");
    }
    // Second segment starts at step 12 (its first pixel is (12, 20)).
    for x in 0..12 {
        assert_eq!(is_painted(&img, x, 20), x % 16 < 8, "x={x}");
    }
    for y in 20..=60 {
        let step = 12 + (y - 20);
        assert_eq!(is_painted(&img, 12, y), step % 16 < 8, "y={y} step={step}");
    }
}

#[test]
fn thick_dashes_follow_the_same_steps() {
    let mut r = renderer(80, 20);
    r.stroke(&[[0.5, 10.0], [70.5, 10.0]], false, 4.0, 0x00ff, BLACK);
    let img = r.read_pixels();
    for x in 0..=70 {
        assert_eq!(is_painted(&img, x, 9), x % 16 < 8, "x={x}");
    }
}

#[test]
fn fills_cover_pixel_centres_even_odd() {
    let mut r = renderer(120, 64);
    // Exact rectangle: columns 10..=19, rows 10..=19.
    r.fill_convex(&[[10.0, 10.0], [20.0, 10.0], [20.0, 20.0], [10.0, 20.0]], BLACK);
    // Concave "U".
    r.fill_polygon(
        &[
            [30.0, 10.0],
            [70.0, 10.0],
            [70.0, 50.0],
            [60.0, 50.0],
            [60.0, 20.0],
            [40.0, 20.0],
            [40.0, 50.0],
            [30.0, 50.0],
        ],
        BLACK,
    );
    // Five-pointed star in one stroke, centre (95, 32).
    let star: Vec<Point> = (0..5)
        .map(|i| {
            let a = (i * 2) as f32 / 5.0 * std::f32::consts::TAU - std::f32::consts::FRAC_PI_2;
            [95.0 + 25.0 * a.cos(), 32.0 + 25.0 * a.sin()]
        })
        .collect();
    r.fill_polygon(&star, BLACK);
    let img = r.read_pixels();
    let rect: Vec<_> = painted(&img).into_iter().filter(|q| q.0 < 25).collect();
    let expect: Vec<_> = (10..20).flat_map(|y| (10..20).map(move |x| (x, y))).collect();
    assert_eq!(rect, expect);
    assert!(is_painted(&img, 35, 45) && is_painted(&img, 65, 45) && is_painted(&img, 50, 15));
    assert!(!is_painted(&img, 50, 35), "inside the U's notch");
    assert!(!is_painted(&img, 95, 32), "even-odd: the star's centre stays empty");
    assert!(is_painted(&img, 95, 12), "top arm");
    assert!(is_painted(&img, 95 - 15, 28) && is_painted(&img, 95 + 15, 28), "side arms");
}

#[test]
fn alpha_blends_source_over() {
    let mut r = renderer(16, 16);
    r.fill_convex(&[[0.0, 0.0], [8.0, 0.0], [8.0, 8.0], [0.0, 8.0]], [0.0, 0.0, 0.0, 0.5]);
    r.clear([0.0, 0.0, 1.0, 1.0]);
    r.fill_convex(&[[0.0, 0.0], [8.0, 0.0], [8.0, 8.0], [0.0, 8.0]], [1.0, 0.0, 0.0, 0.25]);
    r.fill_convex(&[[8.0, 8.0], [16.0, 8.0], [16.0, 16.0], [8.0, 16.0]], [1.0, 1.0, 1.0, 0.5]);
    r.fill_convex(&[[8.0, 8.0], [16.0, 8.0], [16.0, 16.0], [8.0, 16.0]], [0.0, 0.0, 0.0, 0.5]);
    let img = r.read_pixels();
    let near = |a: [u8; 4], b: [u8; 4]| a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 2);
    let p = img.pixel(3, 3).unwrap();
    assert!(near(p, [64, 0, 191, 255]), "{p:?}");
    let q = img.pixel(12, 12).unwrap();
    assert!(near(q, [64, 64, 128, 255]), "{q:?}");
    assert_eq!(img.pixel(12, 3), Some([0, 0, 255, 255]));
}

#[test]
fn clip_restricts_drawing_and_splits_batches() {
    let mut r = renderer(40, 40);
    r.set_clip(Some(PixelRect::new(10, 5, 8, 6)));
    r.fill_convex(&[[0.0, 0.0], [40.0, 0.0], [40.0, 40.0], [0.0, 40.0]], BLACK);
    r.set_clip(Some(PixelRect::new(30, 30, 100, 100)));
    r.stroke(&[[0.0, 35.0], [40.0, 35.0]], false, 1.0, 0xffff, BLACK);
    r.set_clip(None);
    r.dot([0.5, 39.5], BLACK);
    let img = r.read_pixels();
    assert_eq!(r.stats().draw_calls, 3);
    let mut expect: Vec<_> = (5..11).flat_map(|y| (10..18).map(move |x| (x, y))).collect();
    expect.extend((30..40).map(|x| (x, 35)));
    expect.push((0, 39));
    expect.sort_by_key(|q| (q.1, q.0));
    assert_eq!(painted(&img), expect);
}

#[test]
fn clear_ignores_clip_and_drops_pending_drawing() {
    let mut r = renderer(8, 8);
    r.dot([1.0, 1.0], BLACK);
    r.set_clip(Some(PixelRect::new(0, 0, 2, 2)));
    r.clear(RED);
    let img = r.read_pixels();
    assert!(img.data.chunks_exact(4).all(|p| p == [255, 0, 0, 255]));
}

#[test]
fn arrow_has_shaft_and_proportionate_head() {
    let mut r = renderer(100, 40);
    r.arrow([10.5, 20.5], [80.5, 20.5], 1.0, 0xffff, BLACK);
    let img = r.read_pixels();
    let head = arrow_head_length(1.0);
    assert_eq!(head, 10.0);
    // tip pixel and the shaft's start
    assert!(is_painted(&img, 80, 20) && is_painted(&img, 10, 20));
    assert!(!is_painted(&img, 82, 20));
    // the base, 10 px before the tip, is 10 px wide (rows 16..=24 around 20.5)
    let base: Vec<u32> = (0..40).filter(|&y| is_painted(&img, 71, y)).collect();
    assert!(base.len() >= 9 && base.len() <= 11, "{base:?}");
    // only the shaft beyond the head
    let shaft: Vec<u32> = (0..40).filter(|&y| is_painted(&img, 40, y)).collect();
    assert_eq!(shaft, vec![20]);
    assert_eq!(arrow_head_length(3.0), 18.0);
}

#[test]
fn text_lands_inside_its_box_for_every_alignment() {
    let p = [100.0, 60.0];
    let s = "Ag|\nxyz_";
    for ha in [HAlign::Left, HAlign::Center, HAlign::Right] {
        for va in [VAlign::Bottom, VAlign::Center, VAlign::Top] {
            let mut r = renderer(200, 120);
            let (w, h) = r.text_size(s);
            assert_eq!((w, h), (32, 34));
            let b = r.text_box(p, ha, va, s);
            let ex = match ha {
                HAlign::Left => 100,
                HAlign::Center => 100 - 16,
                HAlign::Right => 100 - 32,
            };
            let ey = match va {
                VAlign::Top => 60,
                VAlign::Center => 60 - 17,
                VAlign::Bottom => 60 - 34,
            };
            assert_eq!(b, PixelRect::new(ex, ey, 32, 34), "{ha:?} {va:?}");
            r.text(p, ha, va, s, BLACK);
            let img = r.read_pixels();
            let (x0, y0, x1, y1) = bbox(&img).expect("text drew something");
            assert!(x0 as i32 >= b.x && y0 as i32 >= b.y, "{ha:?} {va:?}: ink {x0},{y0} box {b:?}");
            assert!((x1 as i32) < b.x + b.w + 1 && (y1 as i32) < b.y + b.h, "{ha:?} {va:?}: ink {x1},{y1} box {b:?}");
            // The ink fills most of the box: both lines drawn.
            assert!((x1 - x0) as i32 >= b.w - 4 && (y1 - y0) as i32 >= b.h - 8, "{ha:?} {va:?}");
        }
    }
}

#[test]
fn blit_places_the_top_left_pixel() {
    let mut r = renderer(64, 64);
    let mut src = RgbaImage::new(3, 2, [0, 0, 255, 255]);
    src.set_pixel(0, 0, [255, 0, 0, 255]);
    src.set_pixel(2, 1, [0, 255, 0, 255]);
    let img = r.add_image(&src).unwrap();
    r.blit(img, [10.0, 20.0], HAlign::Left, VAlign::Top).unwrap();
    r.blit(img, [50.0, 50.0], HAlign::Right, VAlign::Bottom).unwrap();
    r.blit(img, [30.5, 40.0], HAlign::Center, VAlign::Center).unwrap(); // 29..32 x 39..41
    let out = r.read_pixels();
    assert_eq!(out.pixel(10, 20), Some([255, 0, 0, 255]));
    assert_eq!(out.pixel(12, 21), Some([0, 255, 0, 255]));
    assert_eq!(out.pixel(11, 20), Some([0, 0, 255, 255]));
    assert_eq!(out.pixel(47, 48), Some([255, 0, 0, 255]));
    assert_eq!(out.pixel(49, 49), Some([0, 255, 0, 255]));
    assert_eq!(out.pixel(29, 39), Some([255, 0, 0, 255]));
    assert_eq!(out.pixel(31, 40), Some([0, 255, 0, 255]));
    assert_eq!(painted(&out).len(), 18);
}

#[test]
fn blit_region_picks_a_sprite() {
    let mut r = renderer(32, 32);
    let mut sheet = RgbaImage::new(4, 2, [0, 0, 0, 255]);
    sheet.set_pixel(2, 0, [255, 0, 0, 255]);
    sheet.set_pixel(3, 1, [0, 255, 0, 255]);
    let id = r.add_image(&sheet).unwrap();
    r.blit_region(id, PixelRect::new(2, 0, 2, 2), [4.0, 4.0, 4.0, 4.0]).unwrap();
    let out = r.read_pixels();
    assert_eq!(out.pixel(4, 4), Some([255, 0, 0, 255]));
    assert_eq!(out.pixel(5, 5), Some([255, 0, 0, 255]));
    assert_eq!(out.pixel(7, 7), Some([0, 255, 0, 255]));
    assert_eq!(out.pixel(6, 4), Some([0, 0, 0, 255]));
    assert_eq!(painted(&out).len(), 16);
}

#[test]
fn image_polygon_maps_corners_and_repeats() {
    let mut r = renderer(64, 64);
    // 2x2 texture: top row red, green; bottom row blue, yellow.
    let mut t = RgbaImage::new(2, 2, [0; 4]);
    t.set_pixel(0, 0, [255, 0, 0, 255]);
    t.set_pixel(1, 0, [0, 255, 0, 255]);
    t.set_pixel(0, 1, [0, 0, 255, 255]);
    t.set_pixel(1, 1, [255, 255, 0, 255]);
    let id = r.add_image(&t).unwrap();
    // Lower-left corner at (10, 50); one repeat is 20 px right and 20 px up.
    r.image_polygon(
        id,
        [10.0, 50.0],
        [20.0, 0.0],
        [0.0, -20.0],
        &[[10.0, 10.0], [50.0, 10.0], [50.0, 50.0], [10.0, 50.0]],
    )
    .unwrap();
    let out = r.read_pixels();
    let (red, green, blue, yellow) = ([255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 0, 255]);
    assert_eq!(out.pixel(10, 49), Some(blue), "lower-left corner at the anchor");
    assert_eq!(out.pixel(29, 49), Some(yellow));
    assert_eq!(out.pixel(10, 30), Some(red));
    assert_eq!(out.pixel(29, 30), Some(green));
    assert_eq!(out.pixel(19, 40), Some(blue));
    assert_eq!(out.pixel(20, 40), Some(yellow));
    // Repeats right and up.
    assert_eq!(out.pixel(30, 49), Some(blue));
    assert_eq!(out.pixel(49, 10), Some(green));
    assert_eq!(out.pixel(10, 29), Some(blue));
    assert!(!is_painted(&out, 9, 30) && !is_painted(&out, 50, 30) && !is_painted(&out, 30, 9));
    // A rotated map: u points down, v points right (90 degrees clockwise).
    r.clear(WHITE);
    r.image_polygon(id, [0.0, 0.0], [0.0, 20.0], [20.0, 0.0], &[[0.0, 0.0], [20.0, 0.0], [20.0, 20.0], [0.0, 20.0]])
        .unwrap();
    let out = r.read_pixels();
    // texture x runs down the left edge, texture "up" runs right.
    assert_eq!(out.pixel(2, 2), Some(blue));
    assert_eq!(out.pixel(2, 17), Some(yellow));
    assert_eq!(out.pixel(17, 2), Some(red));
    assert_eq!(out.pixel(17, 17), Some(green));
}

#[test]
fn set_pixels_row_zero_is_the_top_row() {
    let mut r = renderer(16, 16);
    let id = r.create_image(4, 4, WHITE).unwrap();
    let red = Some([255, 0, 0, 255]);
    r.blit(id, [0.0, 0.0], HAlign::Left, VAlign::Top).unwrap(); // queued before the change
    r.set_pixels(id, -1, 0, &[red, red, None, red, red, red]).unwrap();
    r.set_pixels(id, 0, 9, &[red]).unwrap(); // out of range: ignored
    r.set_pixels(id, 0, 3, &[None, Some([0, 0, 255, 255])]).unwrap();
    r.blit(id, [8.0, 0.0], HAlign::Left, VAlign::Top).unwrap();
    let out = r.read_pixels();
    assert!(painted(&out).iter().all(|q| q.0 >= 8), "earlier blit saw the old pixels");
    let row0: Vec<_> = (8..12).map(|x| out.pixel(x, 0).unwrap()).collect();
    assert_eq!(row0, vec![[255, 0, 0, 255], [255, 255, 255, 255], [255, 0, 0, 255], [255, 0, 0, 255]]);
    assert_eq!(out.pixel(9, 3), Some([0, 0, 255, 255]));
    assert_eq!(out.pixel(8, 3), Some([255, 255, 255, 255]));
    assert_eq!(painted(&out).len(), 4);
    assert!(matches!(r.set_pixels(ImageId::clone(&id), 0, 0, &[]), Ok(())));
    assert!(r.delete_image(id));
    assert!(matches!(r.set_pixels(id, 0, 0, &[red]), Err(RenderError::UnknownImage(_))));
    assert!(matches!(r.blit(id, [0.0, 0.0], HAlign::Left, VAlign::Top), Err(RenderError::UnknownImage(_))));
}

#[test]
fn resize_keeps_or_clears_contents() {
    let mut r = renderer(20, 10);
    r.clear([0.0, 0.0, 1.0, 1.0]);
    r.dot([1.0, 1.0], RED);
    r.dot([19.0, 9.0], RED);
    r.resize(30, 15, true).unwrap();
    let img = r.read_pixels();
    assert_eq!((img.width, img.height), (30, 15));
    assert_eq!(img.pixel(1, 1), Some([255, 0, 0, 255]));
    assert_eq!(img.pixel(19, 9), Some([255, 0, 0, 255]));
    assert_eq!(img.pixel(25, 12), Some([0, 0, 255, 255]));
    r.resize(10, 5, true).unwrap();
    let img = r.read_pixels();
    assert_eq!(img.pixel(1, 1), Some([255, 0, 0, 255]));
    r.resize(12, 6, false).unwrap();
    let img = r.read_pixels();
    assert!(img.data.chunks_exact(4).all(|p| p == [0, 0, 255, 255]));
    // drawing after a resize uses the new size
    r.dot([11.5, 5.5], RED);
    assert_eq!(r.read_pixels().pixel(11, 5), Some([255, 0, 0, 255]));
    assert!(matches!(r.resize(0, 5, false), Err(RenderError::BadSize { .. })));
    assert!(matches!(r.resize(9000, 5, false), Err(RenderError::BadSize { .. })));
}

#[test]
fn ten_thousand_lines_take_one_draw_call() {
    let mut r = renderer(256, 256);
    for i in 0..10_000 {
        let y = (i % 256) as f32 + 0.5;
        let x = (i / 256) as f32;
        r.stroke(&[[x, y], [x + 100.0, y + 30.0]], false, 1.0, 0xffff, BLACK);
    }
    r.flush();
    let s = r.stats();
    assert_eq!(s.draw_calls, 1);
    assert_eq!(s.vertices, 60_000);
    eprintln!("10 000 thin lines: {s:?}");
    for i in 0..10_000 {
        let y = (i % 256) as f32;
        r.stroke(&[[0.0, y], [50.0, y], [50.0, y + 9.0]], false, 3.0, 0x0f0f, [0.5, 0.0, 0.0, 0.5]);
    }
    r.flush();
    // One batch, in as few calls as the cap on a draw allows.
    let s = r.stats();
    assert_eq!(s.draw_calls, s.vertices.div_ceil(MAX_DRAW_VERTICES as u64));
    assert!(s.largest_draw <= MAX_DRAW_VERTICES as u64);
    eprintln!("10 000 thick dashed polylines: {:?}", r.stats());
}

#[test]
fn a_hundred_thousand_mixed_primitives_take_one_batch() {
    // Solid, dashed, thick, filled, dotted, arrowed and text geometry all
    // share one batch: one upload, one draw call, however many primitives.
    let mut r = renderer(64, 64);
    for i in 0..100_000u32 {
        let (x, y) = ((i % 61) as f32, (i / 61 % 61) as f32);
        match i % 7 {
            0 => r.stroke(&[[x, y], [x + 3.0, y + 1.0]], false, 1.0, 0xffff, BLACK),
            1 => r.stroke(&[[x, y], [x + 3.0, y], [x + 3.0, y + 2.0]], false, 2.0, 0x0f0f, RED),
            2 => r.fill_convex(&[[x, y], [x + 2.0, y], [x + 2.0, y + 2.0]], BLACK),
            3 => r.fill_polygon(&[[x, y], [x + 3.0, y], [x, y + 3.0], [x + 3.0, y + 3.0]], RED),
            4 => r.dot([x, y], BLACK),
            5 => r.arrow([x, y], [x + 2.0, y + 2.0], 1.0, 0xffff, BLACK),
            _ if i % 1000 == 6 => r.text([x, y], HAlign::Left, VAlign::Top, "a", BLACK),
            _ => r.stroke(&[[x, y], [x, y + 2.0]], true, 1.0, 0xffff, RED),
        }
    }
    r.flush();
    let s = r.stats();
    // One batch, drawn in as few calls as the cap on a draw allows.
    assert_eq!(s.draw_calls, s.vertices.div_ceil(MAX_DRAW_VERTICES as u64), "{s:?}");
    assert!(s.vertices > 600_000, "{s:?}");
}

#[test]
fn solid_batches_draw_what_the_general_shader_draws() {
    // A batch of solid geometry only is drawn with the solid-only shader; a
    // glyph in the batch makes it the general one. The pixels are the same.
    let scene = |r: &mut Renderer| {
        for i in 0..40 {
            let f = i as f32;
            r.stroke(&[[2.0, f * 1.5], [60.0, f * 1.7 + 3.0]], false, 1.0 + (i % 3) as f32, 0xffff, BLACK);
            r.fill_convex(&[[f, 40.0], [f + 9.0, 44.0], [f + 3.0, 60.0]], [0.2, 0.4, 0.9, 0.5]);
        }
    };
    let mut r = renderer(64, 64);
    scene(&mut r);
    let solid = r.read_pixels();
    r.clear(WHITE);
    scene(&mut r);
    r.text([70.0, 70.0], HAlign::Left, VAlign::Top, "x", BLACK); // off target
    let general = r.read_pixels();
    assert_eq!(r.stats().draw_calls, 1);
    assert!(solid == general, "the solid shader and the general one disagree");
}

#[test]
fn textures_break_batches_only_when_they_change() {
    let mut r = renderer(64, 64);
    let a = r.create_image(2, 2, RED).unwrap();
    let b = r.create_image(2, 2, BLACK).unwrap();
    // Same image with solid, dashed and text geometry in between: one call.
    for i in 0..50 {
        let y = i as f32;
        r.blit(a, [1.0, y], HAlign::Left, VAlign::Top).unwrap();
        r.stroke(&[[0.0, y], [60.0, y]], false, 1.0, 0x0f0f, BLACK);
        r.text([30.0, y], HAlign::Center, VAlign::Center, "x", BLACK);
        r.fill_polygon(&[[0.0, 0.0], [5.0, 0.0], [0.0, 5.0]], BLACK);
    }
    r.flush();
    assert_eq!(r.stats().draw_calls, 1);
    // Alternating images: one call per change, however much solid drawing.
    for i in 0..50 {
        r.blit(a, [1.0, i as f32], HAlign::Left, VAlign::Top).unwrap();
        r.stroke(&[[0.0, 0.0], [60.0, 1.0]], false, 1.0, 0xffff, BLACK);
        r.blit(b, [1.0, i as f32], HAlign::Left, VAlign::Top).unwrap();
    }
    r.flush();
    assert_eq!(r.stats().draw_calls, 100);
    eprintln!("alternating textures: {:?}", r.stats());
}

#[test]
fn raw_dumps_have_the_documented_layout() {
    let mut r = renderer(3, 2);
    r.clear([0x11 as f32 / 255.0, 0x22 as f32 / 255.0, 0x33 as f32 / 255.0, 1.0]);
    r.dot([0.0, 0.0], [1.0, 0.0, 0.0, 1.0]); // top-left pixel red
    let d = r.raw_dump();
    assert_eq!(d.len(), 3 * 2 * 4);
    assert_eq!(&d[0..8], &[0x00, 0x00, 0xff, 0xff, 0x33, 0x22, 0x11, 0xff]);
    let d24 = r.raw_dump_bpp(24).unwrap();
    assert_eq!(d24.len(), 2 * 12); // 9 bytes + 3 padding a row
    assert_eq!(&d24[0..6], &[0x00, 0x00, 0xff, 0x33, 0x22, 0x11]);
    let d16 = r.raw_dump_bpp(16).unwrap();
    assert_eq!(d16.len(), 2 * 8);
    assert_eq!(&d16[0..2], &0xf800u16.to_le_bytes());
    assert!(matches!(r.raw_dump_bpp(8), Err(RenderError::UnsupportedBpp(8))));
}

#[test]
fn png_output_is_atomic_and_errors_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let mut r = renderer(16, 8);
    r.dot([3.0, 2.0], RED);
    let path = dir.path().join("shot.png");
    save_png(&r.read_pixels(), &path).unwrap();
    let back = RgbaImage::load_png(&path).unwrap();
    assert_eq!(back, r.read_pixels());
    // loading it as an image works too
    let id = r.load_png(&path).unwrap();
    assert_eq!(r.image_size(id), Some((16, 8)));
    // A directory that does not exist: an error, and nothing left behind.
    let bad = dir.path().join("missing").join("x.png");
    assert!(matches!(save_png(&r.read_pixels(), &bad), Err(RenderError::Io { .. })));
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, vec![std::ffi::OsString::from("shot.png")]);
    // Bad inputs never panic.
    assert!(matches!(r.load_png(dir.path().join("nope.png")), Err(RenderError::Io { .. })));
    assert!(matches!(r.load_png_bytes(b"\x89PNG\r\n\x1a\nrubbish"), Err(RenderError::Png(_))));
    assert!(matches!(r.create_image(8193, 1, WHITE), Err(RenderError::BadSize { .. })));
    assert!(matches!(r.create_image(0, 1, WHITE), Err(RenderError::BadSize { .. })));
    let big = RgbaImage::new(9000, 1, [0; 4]).encode_png();
    assert!(matches!(big, Err(RenderError::BadSize { .. })));
    // NaN and infinite coordinates draw nothing.
    r.clear(WHITE);
    r.stroke(&[[f32::NAN, 1.0], [5.0, 5.0]], false, 3.0, 0xffff, BLACK);
    r.fill_polygon(&[[0.0, 0.0], [f32::INFINITY, 0.0], [3.0, 3.0]], BLACK);
    r.text([f32::NAN, 0.0], HAlign::Left, VAlign::Top, "x", BLACK);
    r.arrow([0.0, 0.0], [f32::NAN, 0.0], 1.0, 0xffff, BLACK);
    assert!(painted(&r.read_pixels()).is_empty());
}

#[test]
fn gles_context_draws_the_same_pixels() {
    let draw = |r: &mut Renderer| {
        r.clear(WHITE);
        r.stroke(&[[5.5, 5.5], [50.5, 20.5], [20.5, 40.5]], true, 1.0, 0x0f0f, BLACK);
        r.stroke(&[[5.0, 50.0], [60.0, 50.0]], false, 4.0, 0xffff, RED);
        r.text([32.0, 30.0], HAlign::Center, VAlign::Center, "GLES", BLACK);
        r.read_pixels()
    };
    let gles = HeadlessGl::with_apis(64, 64, &[GlApi::Gles30]).unwrap();
    assert_eq!(gles.api(), GlApi::Gles30);
    let mut r = gles.into_renderer().unwrap();
    let a = draw(&mut r);
    drop(r);
    let b = draw(&mut renderer(64, 64));
    assert!(golden::compare(&a, &b, 0).matches());
}

fn star(cx: f32, cy: f32, r: f32) -> Vec<Point> {
    (0..5)
        .map(|i| {
            let a = (i * 2) as f32 / 5.0 * std::f32::consts::TAU - std::f32::consts::FRAC_PI_2;
            [cx + r * a.cos(), cy + r * a.sin()]
        })
        .collect()
}

#[test]
fn golden_primitives() {
    let mut r = renderer(320, 240);
    r.clear([0.95, 0.95, 0.9, 1.0]);
    r.dot([5.5, 5.5], BLACK);
    r.stroke(&[[10.0, 10.0], [100.0, 10.0]], false, 1.0, 0xffff, BLACK);
    r.stroke(&[[10.0, 20.0], [100.0, 40.0]], false, 1.0, 0xffff, RED);
    r.stroke(&[[10.0, 50.0], [100.0, 50.0], [100.0, 90.0]], false, 1.0, 0x00ff, BLACK);
    r.stroke(&[[120.0, 10.0], [200.0, 10.0], [200.0, 60.0], [120.0, 60.0]], true, 6.0, 0xffff, [0.0, 0.5, 0.0, 0.5]);
    let circle: Vec<Point> = (0..32)
        .map(|i| {
            let a = i as f32 / 32.0 * std::f32::consts::TAU;
            [260.0 + 40.0 * a.cos(), 50.0 + 40.0 * a.sin()]
        })
        .collect();
    r.stroke(&circle, true, 4.0, 0x3fff, [0.0, 0.0, 1.0, 1.0]);
    r.fill_convex(
        &circle.iter().map(|p| [p[0] * 0.5 + 130.0, p[1] * 0.5 + 25.0]).collect::<Vec<_>>(),
        [1.0, 0.5, 0.0, 0.6],
    );
    r.arrow([10.0, 120.0], [100.0, 100.0], 1.0, 0xffff, BLACK);
    r.arrow([10.0, 140.0], [100.0, 140.0], 3.0, 0x0f0f, BLACK);
    r.fill_polygon(&star(160.0, 135.0, 40.0), [0.8, 0.2, 0.2, 1.0]);
    r.set_clip(Some(PixelRect::new(220, 100, 60, 60)));
    r.fill_polygon(&star(250.0, 135.0, 45.0), [0.2, 0.2, 0.8, 0.7]);
    r.set_clip(None);
    r.text([5.0, 235.0], HAlign::Left, VAlign::Bottom, "dots, lines, dashes,\narrows & polygons", BLACK);
    golden::assert_golden(&golden::golden_dir("render"), "primitives", &r.read_pixels(), 2);
}

#[test]
fn golden_text_alignment() {
    let mut r = renderer(240, 120);
    let marks = [[40.0, 30.0], [120.0, 60.0], [200.0, 90.0]];
    let aligns = [(HAlign::Left, VAlign::Top), (HAlign::Center, VAlign::Center), (HAlign::Right, VAlign::Bottom)];
    for (p, (ha, va)) in marks.iter().zip(aligns) {
        let b = r.text_box(*p, ha, va, "Align\nme");
        let (x0, y0, x1, y1) = (b.x as f32, b.y as f32, (b.x + b.w) as f32, (b.y + b.h) as f32);
        r.fill_convex(&[[x0, y0], [x1, y0], [x1, y1], [x0, y1]], [0.85, 0.9, 1.0, 1.0]);
        r.text(*p, ha, va, "Align\nme", BLACK);
        r.stroke(&[[p[0] - 4.0, p[1]], [p[0] + 4.0, p[1]]], false, 1.0, 0xffff, RED);
        r.stroke(&[[p[0], p[1] - 4.0], [p[0], p[1] + 4.0]], false, 1.0, 0xffff, RED);
    }
    r.text([120.0, 118.0], HAlign::Center, VAlign::Bottom, "0123456789 ~!@#$%^&*()", [0.0, 0.4, 0.0, 1.0]);
    golden::assert_golden(&golden::golden_dir("render"), "text_alignment", &r.read_pixels(), 2);
}

#[test]
fn golden_images() {
    let mut r = renderer(160, 120);
    let mut checker = RgbaImage::new(8, 8, [0; 4]);
    for y in 0..8 {
        for x in 0..8 {
            let c = if (x + y) % 2 == 0 { [40, 40, 160, 255] } else { [230, 230, 90, 255] };
            checker.set_pixel(x, y, c);
        }
    }
    checker.set_pixel(0, 0, [255, 0, 0, 255]);
    let id = r.add_image(&checker).unwrap();
    let translucent = r.create_image(16, 16, [0.0, 0.6, 0.0, 0.5]).unwrap();
    r.blit(id, [10.0, 10.0], HAlign::Left, VAlign::Top).unwrap();
    r.blit_region(id, PixelRect::new(0, 0, 4, 4), [30.0, 10.0, 16.0, 16.0]).unwrap();
    r.image_polygon(id, [60.0, 60.0], [24.0, 8.0], [-8.0, -24.0], &star(100.0, 50.0, 45.0)).unwrap();
    r.blit(translucent, [20.0, 40.0], HAlign::Center, VAlign::Center).unwrap();
    r.set_pixels(id, 2, 3, &[Some([0, 0, 0, 255]); 4]).unwrap();
    r.blit(id, [150.0, 110.0], HAlign::Right, VAlign::Bottom).unwrap();
    golden::assert_golden(&golden::golden_dir("render"), "images", &r.read_pixels(), 2);
}

#[test]
fn blit_to_default_framebuffer_is_harmless_without_a_window() {
    // A surfaceless context has no default framebuffer: the blit does nothing,
    // and the renderer's own target and state are unaffected.
    let mut r = renderer(16, 16);
    r.dot([2.0, 2.0], BLACK);
    r.blit_to_default_framebuffer(16, 16);
    r.dot([5.0, 5.0], BLACK);
    assert_eq!(painted(&r.read_pixels()), vec![(2, 2), (5, 5)]);
}

#[test]
fn set_background_goes_under_what_was_drawn() {
    let rect = |x0: f32, x1: f32| [[x0, 0.0], [x1, 0.0], [x1, 4.0], [x0, 4.0]];
    let mut r = renderer(12, 4);
    // Before any drawing: exactly a clear.
    r.clear_to_background([1.0, 1.0, 1.0]);
    r.set_background([0.0, 1.0, 0.0]);
    assert_eq!(r.read_pixels().pixel(0, 0), Some([0, 255, 0, 255]));
    // After drawing, flushed or still queued: opaque drawing keeps its
    // colour, uncovered pixels take the new one, half-transparent drawing
    // is what drawing it on the new background gives (within rounding).
    r.fill_convex(&rect(0.0, 4.0), RED);
    r.flush();
    r.fill_convex(&rect(4.0, 8.0), [0.0, 0.0, 1.0, 0.5]);
    r.set_background([0.2, 0.4, 0.6]);
    let img = r.read_pixels();
    assert_eq!(img.pixel(1, 1), Some([255, 0, 0, 255]));
    assert_eq!(img.pixel(10, 1), Some([51, 102, 153, 255]));
    let [red, green, blue, alpha] = img.pixel(5, 1).unwrap();
    assert!(
        red.abs_diff(26) <= 1 && green.abs_diff(51) <= 1 && blue.abs_diff(204) <= 1 && alpha == 255,
        "{red} {green} {blue}"
    );
    // Drawing after it lies on top; the dumps are opaque too.
    r.dot([11.0, 0.0], BLACK);
    let img = r.read_pixels();
    assert_eq!(img.pixel(11, 0), Some([0, 0, 0, 255]));
    assert!(r.raw_dump().chunks_exact(4).all(|p| p[3] == 255));
    // A resize keeping the picture fills new area with the background.
    r.resize(14, 4, true).unwrap();
    assert_eq!(r.read_pixels().pixel(13, 0), Some([51, 102, 153, 255]));
    // After a plain clear the cleared colour counts as drawing.
    r.clear(WHITE);
    r.set_background([0.0, 0.0, 0.0]);
    assert_eq!(r.read_pixels().pixel(0, 0), Some([255, 255, 255, 255]));
}

/// `n` deterministic points scattered over `w` x `h`, on the 1/256 px grid
/// (llvmpipe's sub-pixel precision, so its snapping moves nothing).
fn scattered(n: usize, w: f32, h: f32, seed: u64) -> Vec<Point> {
    let mut z = seed;
    let mut next = || {
        z = z.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (z >> 40) as f32 / (1u64 << 24) as f32
    };
    (0..n).map(|_| [(next() * w * 256.0).floor() / 256.0, (next() * h * 256.0).floor() / 256.0]).collect()
}

/// The even-odd rule at each pixel centre (nudged 1/64 px up-left, as
/// the renderer's coverage rule says), computed on the CPU.
fn even_odd_reference(points: &[Point], w: u32, h: u32) -> Vec<(u32, u32)> {
    let mut inside = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let (px, py) = (f64::from(x) + 0.5 - 1.0 / 64.0, f64::from(y) + 0.5 - 1.0 / 64.0);
            let mut odd = false;
            for i in 0..points.len() {
                let (a, b) = (points[i], points[(i + 1) % points.len()]);
                let (ax, ay, bx, by) = (f64::from(a[0]), f64::from(a[1]), f64::from(b[0]), f64::from(b[1]));
                if (ay > py) != (by > py) && px < ax + (py - ay) / (by - ay) * (bx - ax) {
                    odd = !odd;
                }
            }
            if odd {
                inside.push((x, y));
            }
        }
    }
    inside
}

#[test]
fn large_polygons_fill_even_odd_through_the_stencil_fans_and_a_cover() {
    let (w, h) = (64, 48);
    let mut r = renderer(w, h);
    // 10^5 random points: the points as two fans (no draw over
    // MAX_DRAW_VERTICES), and a cover.
    r.fill_polygon(&scattered(100_000, w as f32, h as f32, 1), BLACK);
    r.flush();
    assert_eq!((r.stats().draw_calls, r.stats().vertices), (3, 100_010));
    // Pixel for pixel the even-odd rule, polygon after polygon (the
    // stencil is left clean), with drawing before and after in the frame.
    for seed in 2..5 {
        let points = scattered(1500, w as f32, h as f32, seed);
        r.clear(WHITE);
        r.dot([0.0, 0.0], RED);
        r.fill_polygon(&points, BLACK);
        r.dot([1.0, 0.0], RED);
        let img = r.read_pixels();
        assert_eq!(r.stats().draw_calls, 4);
        let black: Vec<_> =
            painted(&img).into_iter().filter(|&(x, y)| img.pixel(x, y) == Some([0, 0, 0, 255])).collect();
        let mut expected = even_odd_reference(&points, w, h);
        expected.retain(|&(x, y)| y > 0 || x > 1);
        assert_eq!(black, expected, "seed {seed}");
    }
}

#[test]
fn exact_and_stencil_fills_draw_the_same_pixels() {
    // A pentagram and a polygon with a hole-like overlap, as 5 / 8 points
    // (triangulated exactly) and with every edge cut into 8 (the stencil
    // path), drawn opaque and half-transparent.
    let star: Vec<Point> = (0..5)
        .map(|i| {
            let a = (i * 2) as f32 / 5.0 * std::f32::consts::TAU - std::f32::consts::FRAC_PI_2;
            [40.0 + 30.0 * a.cos(), 32.0 + 30.0 * a.sin()]
        })
        .collect();
    let overlap = vec![
        [75.0, 5.0],
        [125.0, 5.0],
        [125.0, 60.0],
        [75.0, 60.0],
        [85.0, 15.0],
        [115.0, 15.0],
        [115.0, 45.0],
        [85.0, 45.0],
    ];
    let cut = |p: &[Point]| -> Vec<Point> {
        (0..p.len())
            .flat_map(|i| {
                let (a, b) = (p[i], p[(i + 1) % p.len()]);
                (0..8).map(move |k| {
                    let t = k as f32 / 8.0;
                    [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t]
                })
            })
            .collect()
    };
    let draw = |shapes: [&[Point]; 2]| {
        let mut r = renderer(200, 64);
        r.fill_polygon(shapes[0], BLACK);
        r.fill_polygon(shapes[1], [0.1, 0.3, 0.9, 0.5]);
        let id = r.create_image(2, 2, RED).unwrap();
        r.image_polygon(
            id,
            [0.0, 0.0],
            [4.0, 0.0],
            [0.0, 4.0],
            &shapes[0].iter().map(|p| [p[0] + 125.0, p[1]]).collect::<Vec<_>>(),
        )
        .unwrap();
        r.read_pixels()
    };
    let (star_cut, overlap_cut) = (cut(&star), cut(&overlap));
    assert!(star_cut.len() > EXACT_MAX_POINTS && !is_convex(&star_cut));
    let exact = draw([&star, &overlap]);
    let stencil = draw([&star_cut, &overlap_cut]);
    assert!(!is_painted(&exact, 40, 33) && !is_painted(&exact, 100, 30), "even-odd: centre and hole empty");
    assert_eq!(exact, stencil);
}
