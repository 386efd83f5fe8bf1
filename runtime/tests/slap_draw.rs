//! SLAP scenes drawn by the SLAP host (`slap::view::SceneView`), headless
//! on llvmpipe, on hand-assembled scenes (`SceneAsm`): the number of draw
//! calls does not grow with the actors (1 000 draw with one per part and
//! level of detail), each actor's
//! colour is where the camera projects its simulated position, a nearer
//! actor hides one passing behind it, the ground recedes exactly as the
//! perspective says with the sky above the horizon, hops leave the ground,
//! and a target of another shape is letterboxed. About 3 s.

use animkit_runtime::render::{HeadlessGl, PixelRect, Renderer, RgbaImage, scene3d::SKY};
use animkit_runtime::slap::camera::CameraView;
use animkit_runtime::slap::polly::joints;
use animkit_runtime::slap::view::SceneView;
use animkit_vm::engine::isa::Op;
use animkit_vm::engine::slap::{ActorState, SceneAsm, SceneSim};
use std::sync::Arc;

const W: u32 = 320;
const H: u32 = 240;

fn renderer(w: u32, h: u32) -> Renderer {
    HeadlessGl::new(w, h).expect("headless GL (EGL device) must be available").into_renderer().expect("renderer")
}

fn scene(asm: &SceneAsm) -> SceneSim {
    SceneSim::with_index(Arc::new(asm.clone().finish("test").unwrap()), 0).unwrap()
}

/// Where the centre of an actor's body is (at its pose's height).
fn body_centre(a: &ActorState) -> [f64; 3] {
    let lift = f64::from(joints::BODY_CENTRE[1] + a.pose.body_height) * a.size;
    [a.position[0], a.position[1] + lift, a.position[2]]
}

/// Whether pixel `p` is a lit shade of `colour`: the same direction in
/// RGB (lighting scales it) and not dark.
fn looks_like(p: [u8; 4], colour: [f64; 3]) -> bool {
    let p = [f64::from(p[0]), f64::from(p[1]), f64::from(p[2])];
    let dot: f64 = (0..3).map(|i| p[i] * colour[i]).sum();
    let norm = |v: [f64; 3]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
    dot / (norm(p) * norm(colour)) > 0.97 && p.iter().cloned().fold(0.0, f64::max) > 60.0
}

fn pixel_at(img: &RgbaImage, at: [f32; 2]) -> [u8; 4] {
    img.pixel(at[0] as u32, at[1] as u32).unwrap_or_else(|| panic!("{at:?} is outside the picture"))
}

fn draw(r: &mut Renderer, view: &mut SceneView, scene: &SceneSim) -> RgbaImage {
    view.draw_scene(r, scene).unwrap();
    r.read_pixels()
}

#[test]
fn a_thousand_actors_take_the_draw_calls_of_one() {
    let mut r = renderer(W, H);
    let mut view = SceneView::new(&mut r).unwrap();
    let mut counts = Vec::new();
    for n in [1u32, 1000] {
        let mut asm = SceneAsm::new();
        for id in 0..n {
            // All in view (none culled), 40 abreast, 25 rows deep.
            let (x, z) = ((id % 40) as f64 * 0.2 - 4.0, -((id / 40) as f64) * 1.2);
            asm.op(Op::Position2, &[id.into(), x, z]).op(Op::Action, &[id.into(), f64::from(id % 12)]);
        }
        let mut s = scene(&asm);
        s.seek(7);
        view.draw_scene(&mut r, &s).unwrap();
        let stats = r.stats_3d();
        counts.push((stats.draw_calls, stats.instances));
        assert_eq!((view.culled(), view.instances().len()), (0, 11 * n as usize));
    }
    // The ground, then one instanced call per part (body, head, wings,
    // legs, feet, shadows) at each level of detail in use: the one actor
    // at one level, the 1 000 (near and far) at all three.
    assert_eq!(counts, [(7, 11), (19, 11000)]);
}

#[test]
fn each_actor_is_drawn_in_its_colour_where_the_camera_sees_it() {
    let mut asm = SceneAsm::new();
    asm.op(Op::Position2, &[1.0, -2.0, 0.0]).op(Op::ActorColor, &[1.0, 1.0, 0.0, 0.0]).op(Op::Action, &[1.0, 2.0]);
    asm.op(Op::Position2, &[2.0, 2.0, -1.0]).op(Op::ActorColor, &[2.0, 0.0, 0.8, 0.0]).op(Op::Size, &[2.0, 0.6]);
    asm.op(Op::Action, &[2.0, 11.0]).op(Op::Direction, &[2.0, -1.2]);
    asm.op(Op::Position3, &[3.0, 0.5, 0.0, 2.0]).op(Op::ActorColor, &[3.0, 0.1, 0.3, 1.0]).op(Op::Action, &[3.0, 8.0]);
    // A camera off to the side, looking back at the stage.
    asm.op(Op::CamPos, &[5.0, 3.0, 7.0]).op(Op::CamDir, &[-5.0, -2.5, -7.0]);
    let mut s = scene(&asm);
    let mut r = renderer(W, H);
    let mut view = SceneView::new(&mut r).unwrap();
    for frame in [0, 25, 60] {
        s.seek(frame);
        let img = draw(&mut r, &mut view, &s);
        let cam = CameraView::new(&s.camera(), PixelRect::new(0, 0, W as i32, H as i32));
        for a in s.actors() {
            let at = cam.project(body_centre(&a)).unwrap();
            let p = pixel_at(&img, at);
            assert!(looks_like(p, a.color), "frame {frame}: actor {} at {at:?} is {p:?}", a.id);
        }
    }
}

#[test]
fn an_actor_passing_behind_another_is_hidden_by_it() {
    // Blue stands at the origin; red sprints left to right 3 units behind.
    let mut asm = SceneAsm::new();
    asm.op(Op::ActorColor, &[1.0, 0.0, 0.0, 1.0]);
    asm.op(Op::Position2, &[2.0, -3.0, -3.0]).op(Op::ActorColor, &[2.0, 1.0, 0.0, 0.0]);
    asm.op(Op::Direction, &[2.0, std::f64::consts::FRAC_PI_2]).op(Op::Action, &[2.0, 10.0]);
    let mut s = scene(&asm);
    let mut r = renderer(W, H);
    let mut view = SceneView::new(&mut r).unwrap();
    let (blue, red) = ([0.0, 0.0, 1.0], [1.0, 0.0, 0.0]);
    // Sprinting at 1/8 a frame: at x = -2, 0 and 2 at frames 8, 24, 40.
    for (frame, behind) in [(8, false), (24, true), (40, false)] {
        s.seek(frame);
        let img = draw(&mut r, &mut view, &s);
        let cam = CameraView::new(&s.camera(), PixelRect::new(0, 0, W as i32, H as i32));
        let runner = s.actor(2).unwrap();
        let p = pixel_at(&img, cam.project(body_centre(&runner)).unwrap());
        let expected = if behind { blue } else { red };
        assert!(looks_like(p, expected), "frame {frame} at x = {}: {p:?}", runner.position[0]);
        let stander = s.actor(1).unwrap();
        assert!(looks_like(pixel_at(&img, cam.project(body_centre(&stander)).unwrap()), blue));
    }
}

#[test]
fn the_ground_recedes_in_perspective_under_the_sky() {
    // A level camera 1.5 above the ground, no actors: the horizon is the
    // middle row. Along a row, the ground is at one depth d, where a unit
    // is f * (H / 2) / d pixels wide (f = 1 / tan(fov / 2)); the row's
    // offset below the horizon is 1.5 * f * (H / 2) / d. So the checker's
    // cells along a row are (offset / 1.5) pixels wide, and start at the
    // world's x = 0 in the middle column.
    let mut asm = SceneAsm::new();
    asm.op(Op::CamPos, &[0.0, 1.5, 8.0]).op(Op::CamDir, &[0.0, 0.0, -1.0]);
    let s = scene(&asm);
    let (w, h) = (640, 480);
    let mut r = renderer(w, h);
    let mut view = SceneView::new(&mut r).unwrap();
    let img = draw(&mut r, &mut view, &s);
    let sky = SKY.map(|c| (c * 255.0).round() as u8);
    for y in [0, 100, 230] {
        for x in [0, 320, 639] {
            assert_eq!(img.pixel(x, y).unwrap()[..3], sky, "({x}, {y}) is sky");
        }
    }
    for row in [300u32, 330, 433] {
        let offset = row as f64 + 0.5 - h as f64 / 2.0;
        let cell = offset / 1.5;
        let lum = |x: u32| {
            let p = img.pixel(x, row).unwrap();
            u32::from(p[0]) + u32::from(p[1]) + u32::from(p[2])
        };
        let mid = (0..w).map(lum).min().unwrap() + (0..w).map(lum).max().unwrap();
        let edges: Vec<f64> = (1..w).filter(|&x| (2 * lum(x - 1) > mid) != (2 * lum(x) > mid)).map(f64::from).collect();
        assert!(edges.len() >= 3, "row {row}: {edges:?}");
        for e in &edges {
            // Each colour change lies on a cell boundary: x = 320 + k * cell.
            let k = ((e - 320.0) / cell).round();
            assert!(
                (e - (320.0 + k * cell)).abs() <= 1.5,
                "row {row}: an edge at {e}, cells of {cell:.1} px: {edges:?}"
            );
        }
    }
}

#[test]
fn hops_leave_the_ground_and_come_back() {
    let mut asm = SceneAsm::new();
    asm.op(Op::ActorColor, &[1.0, 1.0, 0.0, 0.0]).op(Op::Direction, &[1.0, std::f64::consts::FRAC_PI_2]);
    asm.op(Op::Action, &[1.0, 11.0]);
    let mut s = scene(&asm);
    let mut r = renderer(W, H);
    let mut view = SceneView::new(&mut r).unwrap();
    // The lowest red pixel of the actor's column (its body's underside).
    let lowest =
        |img: &RgbaImage, x: u32| (0..H).rev().find(|&y| looks_like(img.pixel(x, y).unwrap(), [1.0, 0.0, 0.0]));
    let mut bottoms = Vec::new();
    for frame in [0, 10, 20] {
        s.seek(frame);
        let img = draw(&mut r, &mut view, &s);
        let cam = CameraView::new(&s.camera(), PixelRect::new(0, 0, W as i32, H as i32));
        let x = cam.project(s.actor(1).unwrap().position).unwrap()[0] as u32;
        bottoms.push(lowest(&img, x).unwrap());
    }
    // Half a cycle in, the body is 0.3 higher: at the default camera's 8.2
    // units a unit is (H / 2) / tan(22.5 degrees) / 8.2 = 35 px, so about
    // 10 px.
    let rise = bottoms[0] as i64 - bottoms[1] as i64;
    assert!((8..=13).contains(&rise), "{bottoms:?}");
    assert!((bottoms[2] as i64 - bottoms[0] as i64).abs() <= 2, "{bottoms:?}");
}

#[test]
fn another_shape_of_target_is_letterboxed() {
    let mut r = renderer(400, 150);
    let mut view = SceneView::new(&mut r).unwrap();
    view.set_aspect(640, 480);
    assert_eq!(view.viewport(&r), PixelRect::new(100, 0, 200, 150));
    let s = scene(&SceneAsm::new());
    let img = draw(&mut r, &mut view, &s);
    let sky = SKY.map(|c| (c * 255.0).round() as u8);
    assert_eq!(img.pixel(50, 10), Some([0, 0, 0, 255]));
    assert_eq!(img.pixel(99, 10), Some([0, 0, 0, 255]));
    assert_eq!(img.pixel(100, 10).unwrap()[..3], sky);
    assert_eq!(img.pixel(299, 10).unwrap()[..3], sky);
    assert_eq!(img.pixel(300, 10), Some([0, 0, 0, 255]));
}
