//! Levels of detail in the SLAP view (`slap::view::SceneView`, meshes
//! from `slap::polly::mesh_at`): counting, not timing. A crowd of 1 000
//! actors seen from far draws a fixed fraction of the full triangles (every
//! actor at the coarsest level) and from near the nearest actors at the
//! full meshes; the draw calls stay one per (part, level) used; an actor
//! drawn just above and just below each threshold (and at one size with
//! the two levels of that threshold) differs by a few pixels at most, no
//! pop.

use animkit_runtime::render::{HeadlessGl, Renderer, RgbaImage};
use animkit_runtime::slap::polly::{ACTOR_RADIUS, LEVELS, LOD_RADIUS_PX, Part, mesh_at};
use animkit_runtime::slap::view::{Detail, SceneView};
use animkit_vm::engine::isa::Op;
use animkit_vm::engine::slap::{SceneAsm, SceneSim};
use std::sync::Arc;

const W: u32 = 320;
const H: u32 = 240;

fn renderer() -> Renderer {
    HeadlessGl::new(W, H).expect("headless GL (EGL device) must be available").into_renderer().expect("renderer")
}

fn scene(asm: &SceneAsm) -> SceneSim {
    SceneSim::with_index(Arc::new(asm.clone().finish("test").unwrap()), 0).unwrap()
}

/// Triangles of one actor at `level`.
fn per_actor(level: usize) -> u64 {
    Part::ALL.iter().map(|&p| (mesh_at(p, level).triangles() * p.per_actor()) as u64).sum()
}

/// The focal length in pixels of a `H`-high picture.
fn focal() -> f64 {
    f64::from(H) * 0.5 / (22.5f64).to_radians().tan()
}

/// One actor of size 1 at the origin, facing the camera, seen straight
/// along -z from where its bounding sphere projects to `radius_px`.
fn one_actor(radius_px: f64, action: u32, frame: u64) -> SceneSim {
    let depth = f64::from(ACTOR_RADIUS) * focal() / radius_px;
    let mut asm = SceneAsm::new();
    asm.op(Op::Position2, &[1.0, 0.0, 20.0 - depth])
        .op(Op::ActorColor, &[1.0, 0.9, 0.5, 0.2])
        .op(Op::Action, &[1.0, f64::from(action)]);
    asm.op(Op::Direction, &[1.0, 0.4]);
    asm.op(Op::CamPos, &[0.0, 0.6, 20.0]).op(Op::CamDir, &[0.0, 0.0, -1.0]);
    let mut s = scene(&asm);
    s.seek(frame);
    s
}

/// The stage of [`one_actor`] without the actor.
fn empty_stage(r: &mut Renderer, view: &mut SceneView) -> RgbaImage {
    let mut asm = SceneAsm::new();
    asm.op(Op::CamPos, &[0.0, 0.6, 20.0]).op(Op::CamDir, &[0.0, 0.0, -1.0]);
    view.draw_scene(r, &scene(&asm)).unwrap();
    r.read_pixels()
}

/// What shows of an actor at a glance: how many pixels it covers (those
/// not the empty stage's) and their mean colour.
fn coverage(img: &RgbaImage, stage: &RgbaImage) -> (usize, [f64; 3]) {
    let (mut n, mut sum) = (0, [0.0; 3]);
    for (p, q) in img.data.chunks(4).zip(stage.data.chunks(4)) {
        if p[..3] != q[..3] {
            n += 1;
            for c in 0..3 {
                sum[c] += f64::from(p[c]);
            }
        }
    }
    (n, sum.map(|s| s / n.max(1) as f64))
}

/// Pixels whose largest channel difference is over `tolerance`.
fn differ(a: &RgbaImage, b: &RgbaImage, tolerance: u8) -> usize {
    a.data.chunks(4).zip(b.data.chunks(4)).filter(|(p, q)| (0..3).any(|i| p[i].abs_diff(q[i]) > tolerance)).count()
}

#[test]
fn an_actor_just_above_and_just_below_each_threshold_looks_the_same() {
    let mut r = renderer();
    let mut view = SceneView::new(&mut r).unwrap();
    let stage = empty_stage(&mut r, &mut view);
    for (k, &threshold) in LOD_RADIUS_PX.iter().enumerate() {
        // Standing actions: idle, no, hotfeet, at a few frames.
        for (action, frame) in [(0u32, 10u64), (7, 17), (9, 4)] {
            let mut shots = Vec::new();
            for radius in [f64::from(threshold) * 1.001, f64::from(threshold) * 0.999] {
                view.draw_scene(&mut r, &one_actor(radius, action, frame)).unwrap();
                let mut levels = [0; LEVELS];
                levels[k + usize::from(!shots.is_empty())] = 1;
                assert_eq!(view.levels(), levels, "radius {radius}");
                shots.push(r.read_pixels());
            }
            let (above, below) = (coverage(&shots[0], &stage), coverage(&shots[1], &stage));
            // How much changed, in pixels' worth of a full change (the
            // largest channel difference over 255, summed).
            let weight: f64 = shots[0]
                .data
                .chunks(4)
                .zip(shots[1].data.chunks(4))
                .map(|(p, q)| f64::from((0..3).map(|i| p[i].abs_diff(q[i])).max().unwrap_or(0)) / 255.0)
                .sum();
            eprintln!(
                "threshold {threshold} px, action {action}: covers {} / {} pixels, {} change by more than 3, \
                 {weight:.1} pixels' worth",
                above.0,
                below.0,
                differ(&shots[0], &shots[1], 3)
            );
            // The outline moves by under half a pixel: the area covered
            // stays within two pixels or 6 %.
            let moved = above.0.abs_diff(below.0);
            assert!(moved <= 2 || moved * 100 <= above.0 * 6, "threshold {threshold}: {} against {}", above.0, below.0);
            // The facets change their flat shades, pixel by pixel (most
            // pixels by a little: measured 7-11 pixels' worth of 123 at
            // 11 px, 7-9 of 50 at 7 px, 3 of 18 at 4 px), never as if a
            // fifth of the actor had changed.
            let area = above.0.max(below.0) as f64;
            assert!(weight <= 0.2 * area + 1.0, "threshold {threshold}, action {action}: {weight} of {area} pixels");
        }
    }
}

/// A crowd of 1 000 actors, 40 abreast and 25 rows deep, 1.6 apart, seen
/// from `camera` (position, direction).
fn crowd(camera: [f64; 6]) -> SceneSim {
    let mut asm = SceneAsm::new();
    for id in 0..1000u32 {
        let (x, z) = (f64::from(id % 40) * 1.6 - 31.2, -f64::from(id / 40) * 1.6);
        asm.op(Op::Position2, &[id.into(), x, z]).op(Op::Action, &[id.into(), f64::from(id % 12)]);
        asm.op(Op::ActorColor, &[id.into(), f64::from(id % 3) / 2.0, f64::from(id % 5) / 4.0, 0.4]);
    }
    asm.op(Op::CamPos, &camera[..3]).op(Op::CamDir, &camera[3..]);
    let mut s = scene(&asm);
    s.seek(20);
    s
}

#[test]
fn a_far_crowd_draws_the_coarsest_meshes_and_a_near_one_the_full_ones() {
    let mut r = renderer();
    let mut view = SceneView::new(&mut r).unwrap();
    let full = 2 + 1000 * per_actor(0);
    // Far: the whole crowd in view, every actor under 4 px of radius.
    let far = crowd([0.0, 40.0, 80.0, 0.0, -40.0, -100.0]);
    view.draw_scene(&mut r, &far).unwrap();
    let stats = r.stats_3d();
    assert_eq!((view.culled(), view.levels()), (0, [0, 0, 0, 1000]));
    assert_eq!(stats.triangles, 2 + 1000 * per_actor(3));
    assert_eq!((stats.draw_calls, stats.instances), (7, 11_000), "the ground and six parts, all at level 3");
    // The same frame at full detail: the levels save this factor.
    view.set_detail(Detail::Level(0));
    view.draw_scene(&mut r, &far).unwrap();
    assert_eq!(r.stats_3d().triangles, full);
    assert_eq!(per_actor(0) * 100 / per_actor(3), 836, "728 / 87 triangles an actor");
    view.set_detail(Detail::Auto);

    // Near: low behind the front row, the nearest actors large.
    let near = crowd([0.0, 1.5, 4.0, 0.0, -0.3, -1.0]);
    view.draw_scene(&mut r, &near).unwrap();
    let stats = r.stats_3d();
    let levels = view.levels();
    let drawn = 1000 - view.culled();
    assert_eq!(levels.iter().sum::<usize>(), drawn);
    assert!(levels[..3].iter().all(|&n| n > 0), "{levels:?}: some actors at each of the first three levels");
    assert!(levels[0] >= 4, "{levels:?}: the front row at full detail");
    let expect: u64 = (0..LEVELS).map(|l| levels[l] as u64 * per_actor(l)).sum();
    assert_eq!(stats.triangles, 2 + expect);
    assert_eq!(stats.draw_calls, 1 + 6 * 3, "one draw per part and level in use");
    assert_eq!(stats.instances, 11 * drawn as u64);
    eprintln!(
        "near: {levels:?}, {} culled, {} triangles; far: {} against {full}",
        view.culled(),
        stats.triangles,
        2 + 1000 * per_actor(3)
    );
}

#[test]
fn a_near_actor_uses_the_full_mesh() {
    let mut r = renderer();
    let mut view = SceneView::new(&mut r).unwrap();
    for (radius, level) in [(60.0, 0), (11.5, 0), (10.0, 1), (7.5, 1), (6.5, 2), (4.5, 2), (3.5, 3), (1.0, 3)] {
        view.draw_scene(&mut r, &one_actor(radius, 0, 0)).unwrap();
        let mut levels = [0; LEVELS];
        levels[level] = 1;
        assert_eq!(view.levels(), levels, "radius {radius} px");
        assert_eq!(r.stats_3d().triangles, 2 + per_actor(level));
    }
}
