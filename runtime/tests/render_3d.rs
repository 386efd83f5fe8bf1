//! The renderer's 3D path (`render::scene3d`), headless on llvmpipe: what a
//! pass clears, depth order, back-face culling, instancing (one draw call
//! per batch, whatever the instances), shadows blended without writing
//! depth, the ground's checker, ordering with 2D drawing, the viewport, and
//! the GLES context drawing the same pixels. About 2 s.

use animkit_runtime::render::scene3d::*;
use animkit_runtime::render::*;

const W: u32 = 160;
const H: u32 = 120;

fn renderer() -> Renderer {
    HeadlessGl::new(W, H).expect("headless GL (EGL device) must be available").into_renderer().expect("renderer")
}

/// A camera at the origin looking along -z, the whole target.
fn view() -> View3d {
    let proj = Mat4::perspective(60f32.to_radians(), W as f32 / H as f32, 0.1, 100.0);
    View3d {
        fog: Fog { color: SKY, start: 1000.0, end: 2000.0 },
        ..View3d::new(proj, PixelRect::new(0, 0, W as i32, H as i32))
    }
}

fn sky8() -> [u8; 4] {
    rgba_to_u8([SKY[0], SKY[1], SKY[2], 1.0])
}

/// A cube of side `s` at `at`, with colour `c`.
fn cube(at: [f32; 3], s: f32, c: [u8; 4]) -> Instance {
    Instance::new(&Mat4::translation(at).mul(&Mat4::scale(s)), c)
}

fn centre(img: &RgbaImage) -> [u8; 4] {
    img.pixel(W / 2, H / 2).unwrap()
}

/// The dominant channel of a pixel (0 red, 1 green, 2 blue).
fn dominant(p: [u8; 4]) -> usize {
    (0..3).max_by_key(|&i| p[i]).unwrap()
}

#[test]
fn a_pass_clears_to_the_sky_and_the_nearer_cube_wins() {
    let mut r = renderer();
    let mesh = r.create_mesh(&Mesh::cube([255; 4])).unwrap();
    r.draw_3d(&view(), None, &[], &[]).unwrap();
    let img = r.read_pixels();
    assert!(img.data.chunks(4).all(|p| p == sky8()), "cleared to the sky");
    // Red in front of green, drawn in either order: depth decides.
    let red = cube([0.0, 0.0, -3.0], 1.0, [255, 0, 0, 255]);
    let green = cube([0.0, 0.0, -6.0], 3.0, [0, 255, 0, 255]);
    for instances in [[red, green], [green, red]] {
        r.draw_3d(&view(), None, &instances, &[Batch3d::lit(mesh, 0..2)]).unwrap();
        let img = r.read_pixels();
        assert_eq!(dominant(centre(&img)), 0, "{:?}", centre(&img));
        // Beside the small red cube the big green one shows.
        assert_eq!(dominant(img.pixel(W / 2 + 25, H / 2).unwrap()), 1);
        assert_eq!(r.stats_3d(), Stats3d { passes: 1, draw_calls: 1, instances: 2, triangles: 24 });
    }
}

#[test]
fn lighting_shades_faces_by_the_light_direction() {
    let mut r = renderer();
    let mesh = r.create_mesh(&Mesh::cube([255; 4])).unwrap();
    // A cube turned so that its left and right faces show.
    let model = Mat4::translation([0.0, 0.0, -4.0]).mul(&Mat4::rotation_y(0.7));
    let mut v = view();
    v.light = Light { direction: [1.0, 0.0, 0.0], color: [0.6, 0.6, 0.6], ambient: [0.3, 0.3, 0.3] };
    r.draw_3d(&v, None, &[Instance::new(&model, [255, 255, 255, 255])], &[Batch3d::lit(mesh, 0..1)]).unwrap();
    let img = r.read_pixels();
    let (left, right) = (img.pixel(W / 2 - 12, H / 2).unwrap(), img.pixel(W / 2 + 12, H / 2).unwrap());
    // The face towards +x is lit; the other gets ambient only (0.3 * 255).
    assert!(right[0] > left[0] + 60, "{left:?} {right:?}");
    assert!((i32::from(left[0]) - 77).abs() <= 1, "{left:?}");
}

#[test]
fn back_faces_are_culled_and_vertex_colours_resist_the_tint() {
    let mut r = renderer();
    // One triangle facing the camera and one facing away.
    let mut m = Mesh::new();
    m.triangle([-1.0, -1.0, 0.0], [1.0, -1.0, 0.0], [0.0, 1.0, 0.0], [255, 255, 255, 255]);
    let front = r.create_mesh(&m).unwrap();
    let mut back = Mesh::new();
    back.triangle([-1.0, -1.0, 0.0], [0.0, 1.0, 0.0], [1.0, -1.0, 0.0], [255, 255, 255, 255]);
    let back = r.create_mesh(&back).unwrap();
    let mut own = Mesh::new();
    own.triangle([-1.0, -1.0, 0.0], [1.0, -1.0, 0.0], [0.0, 1.0, 0.0], [0, 0, 255, 0]);
    let own = r.create_mesh(&own).unwrap();
    let at = Instance::new(&Mat4::translation([0.0, 0.0, -3.0]), [255, 0, 0, 255]);
    let mut v = view();
    v.light = Light { direction: [0.0, 0.0, 1.0], color: [0.5, 0.5, 0.5], ambient: [0.5, 0.5, 0.5] };
    r.draw_3d(&v, None, &[at], &[Batch3d::lit(back, 0..1)]).unwrap();
    assert_eq!(centre(&r.read_pixels()), sky8(), "a back face is not drawn");
    r.draw_3d(&v, None, &[at], &[Batch3d::lit(front, 0..1)]).unwrap();
    assert_eq!(centre(&r.read_pixels()), [255, 0, 0, 255], "tinted by the instance");
    r.draw_3d(&v, None, &[at], &[Batch3d::lit(own, 0..1)]).unwrap();
    assert_eq!(centre(&r.read_pixels()), [0, 0, 255, 255], "a vertex colour with tint 0 stays");
}

#[test]
fn one_draw_call_per_batch_whatever_the_instances() {
    let mut r = renderer();
    let mesh = r.create_mesh(&Mesh::cube([255; 4])).unwrap();
    let many: Vec<Instance> = (0..10_000)
        .map(|i| cube([(i % 100) as f32 * 0.3 - 15.0, (i / 100) as f32 * 0.3 - 15.0, -40.0], 0.2, [255, 255, 0, 255]))
        .collect();
    for n in [1, 10_000] {
        r.draw_3d(&view(), None, &many[..n], &[Batch3d::lit(mesh, 0..n)]).unwrap();
        assert_eq!(r.stats_3d().draw_calls, 1);
        assert_eq!(r.stats_3d().instances, n as u64);
    }
    // Empty and out-of-range batches, and a mesh this renderer does not
    // have (ids count per renderer), draw nothing and cost no call.
    let mut other = renderer();
    other.create_mesh(&Mesh::cube([255; 4])).unwrap();
    let unknown = other.create_mesh(&Mesh::cube([255; 4])).unwrap();
    let batches = [Batch3d::lit(mesh, 5..5), Batch3d::lit(mesh, 20_000..30_000), Batch3d::lit(unknown, 0..1)];
    r.draw_3d(&view(), None, &many[..10], &batches).unwrap();
    assert_eq!(r.stats_3d().draw_calls, 0);
    assert_eq!(r.total_stats_3d().passes, 3);
}

#[test]
fn shadows_blend_over_the_ground_without_hiding_what_is_behind() {
    let mut r = renderer();
    let mut d = Mesh::new();
    d.disc(&Mat4::IDENTITY, 24, [0, 0, 0, 0]);
    let disc = r.create_mesh(&d).unwrap();
    let mesh = r.create_mesh(&Mesh::cube([255; 4])).unwrap();
    let proj = Mat4::perspective(60f32.to_radians(), W as f32 / H as f32, 0.1, 100.0);
    let mut v = View3d::new(proj.mul(&Mat4::look_along([0.0, -1.0, -1.0])), PixelRect::new(0, 0, W as i32, H as i32));
    v.fog.start = 1000.0;
    v.fog.end = 2000.0;
    let ground = Ground { height: -3.0, colors: [[0.5, 0.5, 0.5], [0.5, 0.5, 0.5]], ..Ground::default() };
    r.draw_3d(&v, Some(&ground), &[], &[]).unwrap();
    let bare = centre(&r.read_pixels());
    assert_eq!(r.stats_3d().draw_calls, 1);
    // A half-transparent black disc on the ground, under the centre of the view.
    let shadow = Instance::new(&Mat4::translation([0.0, -3.0 + 0.004, -3.0]).mul(&Mat4::scale(1.0)), [0, 0, 0, 128]);
    r.draw_3d(&v, Some(&ground), &[shadow], &[Batch3d::shadow(disc, 0..1)]).unwrap();
    let shaded = centre(&r.read_pixels());
    for c in 0..3 {
        let half = i32::from(bare[c]) / 2;
        assert!((i32::from(shaded[c]) - half).abs() <= 2, "{bare:?} -> {shaded:?}");
    }
    // Drawn first, a shadow does not hide a cube behind it (no depth write).
    let behind = cube([0.0, -2.7, -2.7], 0.4, [255, 0, 0, 255]);
    let high = Instance::new(&Mat4::translation([0.0, -2.0, -2.0]).mul(&Mat4::scale(1.0)), [0, 0, 0, 128]);
    r.draw_3d(&v, Some(&ground), &[high, behind], &[Batch3d::shadow(disc, 0..1), Batch3d::lit(mesh, 1..2)]).unwrap();
    let p = centre(&r.read_pixels());
    assert_eq!(dominant(p), 0, "{p:?}");
}

#[test]
fn the_ground_is_checkered_in_world_cells_and_lit_from_above() {
    let mut r = renderer();
    let proj = Mat4::perspective(60f32.to_radians(), W as f32 / H as f32, 0.1, 100.0);
    // Straight down from 10 units: the cells are squares on screen.
    let mut v = View3d::new(proj.mul(&Mat4::look_along([0.0, -1.0, 0.0])), PixelRect::new(0, 0, W as i32, H as i32));
    v.light = Light { direction: [0.0, 1.0, 0.0], color: [0.5, 0.5, 0.5], ambient: [0.5, 0.5, 0.5] };
    v.fog.start = 1000.0;
    v.fog.end = 2000.0;
    let colors = [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]];
    let ground = Ground { height: -10.0, cell: 2.0, colors, ..Ground::default() };
    r.draw_3d(&v, Some(&ground), &[], &[]).unwrap();
    let img = r.read_pixels();
    // One cell is 2 units; at 10 units with a 60 degree view that is
    // 120 / (2 tan 30) / 10 * 2 = 20.8 px. Cells alternate across x = 0.
    let px = |x: u32| img.pixel(x, H / 2 + 5).unwrap();
    assert_eq!(px(W / 2 + 5), [255, 0, 0, 255]);
    assert_eq!(px(W / 2 - 5), [0, 0, 255, 255]);
    assert_eq!(px(W / 2 + 26), [0, 0, 255, 255]);
    // Moving the eye by one cell (origin 2) swaps the colours.
    r.draw_3d(&v, Some(&Ground { origin: [2.0, 0.0], ..ground }), &[], &[]).unwrap();
    assert_eq!(r.read_pixels().pixel(W / 2 + 5, H / 2 + 5), Some([0, 0, 255, 255]));
}

#[test]
fn two_d_before_a_pass_goes_under_and_after_it_on_top() {
    let mut r = renderer();
    let mesh = r.create_mesh(&Mesh::cube([255; 4])).unwrap();
    r.clear([1.0, 1.0, 1.0, 1.0]);
    // A 2D square under the pass (hidden by its sky), then one over it.
    r.fill_convex(&[[0.0, 0.0], [20.0, 0.0], [20.0, 20.0], [0.0, 20.0]], [0.0, 0.0, 0.0, 1.0]);
    let mut v = view();
    v.viewport = PixelRect::new(0, 0, W as i32, H as i32 / 2);
    r.draw_3d(&v, None, &[cube([0.0, 0.0, -3.0], 1.0, [255, 0, 0, 255])], &[Batch3d::lit(mesh, 0..1)]).unwrap();
    r.fill_convex(&[[100.0, 10.0], [110.0, 10.0], [110.0, 20.0], [100.0, 20.0]], [0.0, 1.0, 0.0, 1.0]);
    let img = r.read_pixels();
    assert_eq!(img.pixel(5, 5), Some(sky8()), "the sky covers earlier 2D");
    assert_eq!(img.pixel(105, 15), Some([0, 255, 0, 255]), "later 2D lies on top");
    // The pass stays in its viewport: the lower half is still white.
    assert_eq!(img.pixel(5, H - 5), Some([255, 255, 255, 255]));
    assert_eq!(img.pixel(W - 1, H / 2), Some([255, 255, 255, 255]));
    assert_eq!(img.pixel(W - 1, H / 2 - 1), Some(sky8()));
    // Stencil-then-cover fills still work after a pass (the stencil was not
    // touched): 40 points, 20 spikes.
    r.clear([1.0, 1.0, 1.0, 1.0]);
    let spikes: Vec<Point> = (0..40)
        .map(|i| {
            let (s, c) = (i as f32 * std::f32::consts::PI / 20.0).sin_cos();
            let radius = if i % 2 == 0 { 50.0 } else { 25.0 };
            [80.0 + radius * s, 60.0 - radius * c]
        })
        .collect();
    r.fill_polygon(&spikes, [0.0, 0.0, 0.0, 1.0]);
    let img = r.read_pixels();
    assert_eq!(r.stats().draw_calls, 2, "stencil and cover");
    assert_eq!(img.pixel(80, 60), Some([0, 0, 0, 255]));
    assert_eq!(img.pixel(80, 14), Some([0, 0, 0, 255]), "inside a spike");
    let (s, c) = (std::f32::consts::PI / 20.0).sin_cos();
    let notch = (80.0 + 40.0 * s, 60.0 - 40.0 * c);
    assert_eq!(img.pixel(notch.0 as u32, notch.1 as u32), Some([255, 255, 255, 255]), "between two spikes");
}

#[test]
fn gles_context_draws_the_same_pixels() {
    let draw = |r: &mut Renderer| {
        let mesh = r.create_mesh(&Mesh::cube([255; 4])).unwrap();
        let model = Mat4::translation([0.3, -0.2, -4.0]).mul(&Mat4::rotation_y(0.6)).mul(&Mat4::rotation_x(0.4));
        let ground = Ground { height: -1.5, ..Ground::default() };
        r.draw_3d(&view(), Some(&ground), &[Instance::new(&model, [200, 120, 40, 255])], &[Batch3d::lit(mesh, 0..1)])
            .unwrap();
        r.read_pixels()
    };
    let desktop = draw(&mut renderer());
    let gles = HeadlessGl::with_apis(W, H, &[GlApi::Gles30]).unwrap();
    assert_eq!(gles.api(), GlApi::Gles30);
    let es = draw(&mut gles.into_renderer().unwrap());
    let d = animkit_runtime::golden::compare(&es, &desktop, 2);
    assert!(d.matches(), "{} pixels differ, by up to {}", d.differing, d.max_delta);
}
