//! Golden images of the SLAP examples, drawn headless (Mesa's llvmpipe) by
//! the SLAP host's `SceneView`, compared with the PNGs in
//! `tests/golden/slap/` (the Animator goldens' comparison and tolerance;
//! `BLESS=1` rewrites them, a failure leaves the difference image in
//! `target/golden-diff/`). Beside the pixels, each frame is checked against
//! the simulation: every actor in view has its colour, as the light shades
//! it, where the camera projects its traced position; and when the big
//! red actor of `two_actors.slap` walks in front of the small green one,
//! red is what shows there.

use crate::common;
use animkit_compiler::{Source, compile};
use animkit_runtime::golden;
use animkit_runtime::render::scene3d::Light;
use animkit_runtime::render::{HeadlessGl, PixelRect, RgbaImage};
use animkit_runtime::slap::camera::CameraView;
use animkit_runtime::slap::polly::joints;
use animkit_runtime::slap::view::SceneView;
use animkit_vm::engine::slap::{ActorState, SceneSim};
use std::sync::Arc;

const W: u32 = 320;
const H: u32 = 240;
/// The Animator goldens' tolerance.
const TOLERANCE: u8 = 3;

fn scene(example: &str) -> SceneSim {
    let path = common::path("examples").join(example);
    let text = std::fs::read_to_string(&path).unwrap();
    let program = compile(&[Source::new(example, text)], &Default::default()).unwrap();
    SceneSim::with_index(Arc::new(animkit_vm::engine::verify::verify(program).unwrap()), 0).unwrap()
}

/// The centre of an actor's body, where its colour shows.
fn body_centre(a: &ActorState) -> [f64; 3] {
    let lift = f64::from(joints::BODY_CENTRE[1] + a.pose.body_height) * a.size;
    [a.position[0], a.position[1] + lift, a.position[2]]
}

/// Whether `p` is `colour` lit by the default light: `255 * c * (ambient +
/// light * d)` for one `d` in 0..1 (the cosine of the surface to the
/// light) shared by the channels, allowing the wings' darker tint. A
/// channel the colour lacks must be dark.
fn lit_shade_of(p: [u8; 4], colour: [f64; 3]) -> bool {
    let light = Light::default();
    let mut ds = Vec::new();
    for i in 0..3 {
        let v = f64::from(p[i]) / 255.0;
        if colour[i] < 0.15 {
            if v > 0.12 {
                return false;
            }
            continue;
        }
        let (a, l) = (f64::from(light.ambient[i]), f64::from(light.color[i]));
        ds.push((v / colour[i].min(1.0) - a) / l);
    }
    let (lo, hi) = ds.iter().fold((f64::MAX, f64::MIN), |(lo, hi), &d| (lo.min(d), hi.max(d)));
    ds.is_empty() || (lo > -0.35 && hi < 1.08 && hi - lo < 0.09)
}

/// Draws `frames` of `example`, compares each with its golden
/// (`NAME_FFFF`), and checks the colour at every visible actor not listed
/// in `covered` (frame, hidden actor, the actor in front of it).
fn check_frames(example: &str, name: &str, frames: &[u64], covered: &[(u64, u32, u32)]) {
    let mut s = scene(example);
    let mut r = HeadlessGl::new(W, H).unwrap().into_renderer().unwrap();
    let mut view = SceneView::new(&mut r).unwrap();
    let dir = golden::golden_dir("slap");
    let mut failures = Vec::new();
    for &f in frames {
        s.seek(f);
        view.draw_scene(&mut r, &s).unwrap();
        let img: RgbaImage = r.read_pixels();
        if let Err(e) = golden::check(&dir, &format!("{name}_{f:04}"), &img, TOLERANCE) {
            failures.push(e);
        }
        let cam = CameraView::new(&s.camera(), PixelRect::new(0, 0, W as i32, H as i32));
        let mut seen = 0;
        for a in s.actors() {
            let Some(at) = cam.project(body_centre(&a)) else { continue };
            let Some(p) = img.pixel(at[0] as u32, at[1] as u32).filter(|_| at[0] >= 0.0 && at[1] >= 0.0) else {
                continue;
            };
            let colour = match covered.iter().find(|c| c.0 == f && c.1 == a.id) {
                Some(&(_, _, front)) => s.actor(front).unwrap().color,
                None => a.color,
            };
            if !lit_shade_of(p, colour) {
                failures.push(format!("{name} frame {f}: actor {} at {at:?} shows {p:?}, not {colour:?}", a.id));
            }
            seen += 1;
        }
        assert!(seen > 0, "{name} frame {f}: no actor in view");
    }
    assert_eq!(s.error_count(), 0);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn two_actors_frames() {
    // Frame 0: both idle. From 500 the red actor walks towards the camera's
    // right, in front of the green one: green is hidden by red at 580, seen
    // again at 620, red now on its right.
    check_frames("two_actors.slap", "two_actors", &[0, 540, 580, 620], &[(580, 2, 1)]);
}

#[test]
fn story_frames() {
    // The cast; setting off; the fox prowling under the turned camera;
    // mommy shaking her head, a chick stamping.
    check_frames("story.slap", "story", &[0, 150, 330, 370], &[]);
}

#[test]
fn the_colour_check_tells_actors_from_the_ground() {
    // A lit white and the beige ground, a red and an orange.
    assert!(lit_shade_of([181, 182, 189, 255], [1.0, 1.0, 1.0]));
    assert!(!lit_shade_of([204, 194, 173, 255], [1.0, 1.0, 1.0]));
    assert!(lit_shade_of([181, 0, 0, 255], [1.0, 0.0, 0.0]));
    assert!(!lit_shade_of([181, 90, 0, 255], [1.0, 0.0, 0.0]));
}

#[test]
fn circle_frames() {
    // The spec's one-line camera (`camera campos camdir`, then `camera 0 6
    // 8 0 -sqrt(2) -2`), actors placed on a circle with `sin`/`cos`.
    check_frames("circle.slap", "circle", &[0, 29, 30, 60], &[]);
}

#[test]
fn follow_frames() {
    // `examples/follow.slap`: a look-at from the default camera (30); the
    // camera following mommy as she walks (200), and closer after she
    // turns (420); the follow ended for a wide view of both (780), then a
    // `camera move` sliding towards mommy (840, halfway) to its end (900).
    check_frames("follow.slap", "follow", &[30, 200, 420, 780, 840, 900], &[]);
    // While following, the camera looks at mommy's position: her feet are
    // in the middle of the picture, however far she has walked.
    let mut s = scene("follow.slap");
    for f in [61, 200, 360, 361, 420, 659] {
        s.seek(f);
        let cam = CameraView::new(&s.camera(), PixelRect::new(0, 0, W as i32, H as i32));
        let at = cam.project(s.actor(1).unwrap().position).unwrap();
        let centre = [W as f32 / 2.0, H as f32 / 2.0];
        assert!((at[0] - centre[0]).abs() < 0.01 && (at[1] - centre[1]).abs() < 0.01, "frame {f}: {at:?}");
        assert!(s.stage().follow().is_some(), "frame {f}");
    }
}
