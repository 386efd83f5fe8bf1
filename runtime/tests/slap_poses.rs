//! The twelve actions' poses, drawn headless (Mesa's llvmpipe) by the SLAP
//! host's `SceneView`: one white actor at the origin, seen from its left
//! front, at four phases of each action's cycle (its start, a quarter, the
//! middle — the top of `hop` and about the top of `broadjump` — and three
//! quarters), 96x96 pixels a cell, one row per action, compared with
//! `tests/golden/slap/poses.png` (the other goldens' comparison and
//! tolerance; `BLESS=1` rewrites it, a failure leaves the difference image
//! in `target/golden-diff/`). Beside the picture: in the air, `broadjump`
//! and `hop` draw their feet well above the ground and the legs bent, not
//! stretched down to it. About 1 s.

use animkit_runtime::golden;
use animkit_runtime::render::{HeadlessGl, PixelRect, RgbaImage};
use animkit_runtime::slap::camera::CameraView;
use animkit_runtime::slap::view::SceneView;
use animkit_vm::engine::slap::{Action, ActorState, Camera};

/// A cell's side in pixels.
const CELL: u32 = 96;
/// The Animator goldens' tolerance.
const TOLERANCE: u8 = 3;
/// From the actor's left front, a little above, framing it standing and at
/// the top of a broadjump.
const CAMERA: Camera = Camera { position: [1.9, 1.25, 1.4], direction: [-1.9, -0.3, -1.4] };

/// The frames into `action`'s cycle that the sheet shows.
fn phases(action: Action) -> [u64; 4] {
    let n = u64::from(action.cycle());
    [0, n / 4, n / 2, 3 * n / 4]
}

fn actor(action: Action, frames: u64) -> ActorState {
    ActorState {
        id: 1,
        action,
        position: [0.0; 3],
        direction: 0.0,
        color: [1.0, 1.0, 1.0],
        size: 1.0,
        pose: action.pose(frames),
    }
}

/// Copies `cell` into `sheet` with its top left corner at `(x, y)`.
fn blit(sheet: &mut RgbaImage, cell: &RgbaImage, x: u32, y: u32) {
    for j in 0..cell.height {
        for i in 0..cell.width {
            if let Some(p) = cell.pixel(i, j) {
                sheet.set_pixel(x + i, y + j, p);
            }
        }
    }
}

/// The lowest row (largest y) showing a leg's or foot's orange in `img`
/// within columns `x0..x1`, if any.
fn lowest_orange(img: &RgbaImage, x0: u32, x1: u32) -> Option<u32> {
    (0..img.height).rev().find(|&y| {
        (x0..x1).any(|x| {
            img.pixel(x, y).is_some_and(|p| p[0] > 150 && p[1] > 70 && p[1] < 140 && p[2] < 60 && p[0] > p[1] + 60)
        })
    })
}

#[test]
fn every_actions_pose_at_four_phases() {
    let mut r = HeadlessGl::new(CELL, CELL)
        .expect("headless GL (EGL device) must be available")
        .into_renderer()
        .expect("renderer");
    let mut view = SceneView::new(&mut r).unwrap();
    let mut sheet = RgbaImage::new(4 * CELL, 12 * CELL, [0, 0, 0, 255]);
    for (row, action) in Action::ALL.into_iter().enumerate() {
        for (col, k) in phases(action).into_iter().enumerate() {
            view.draw(&mut r, std::iter::once(actor(action, k)), &CAMERA).unwrap();
            let cell = r.read_pixels();
            blit(&mut sheet, &cell, col as u32 * CELL, row as u32 * CELL);
        }
    }
    golden::assert_golden(&golden::golden_dir("slap"), "poses", &sheet, TOLERANCE);
}

#[test]
fn airborne_feet_are_drawn_up_under_the_body() {
    let mut r = HeadlessGl::new(CELL, CELL)
        .expect("headless GL (EGL device) must be available")
        .into_renderer()
        .expect("renderer");
    let mut view = SceneView::new(&mut r).unwrap();
    let cam = CameraView::new(&CAMERA, PixelRect::new(0, 0, CELL as i32, CELL as i32));
    let ground = cam.project([0.0, 0.0, 0.0]).unwrap()[1];
    let mut draw = |action: Action, k: u64| {
        view.draw(&mut r, std::iter::once(actor(action, k)), &CAMERA).unwrap();
        lowest_orange(&r.read_pixels(), 0, CELL).unwrap_or_else(|| panic!("{} at {k}: no legs drawn", action.name()))
    };
    // Standing, the feet are on the ground (within the toes' few pixels).
    let standing = draw(Action::Idle, 0);
    assert!((standing as f32 - ground).abs() < 4.0, "feet at row {standing}, ground at {ground}");
    // At the top of a hop (the body 0.3 up) and of a broadjump (0.7 up),
    // the lowest orange is higher above the ground than the body rose: the
    // feet are tucked up under it (1.3 times as high), not left on stilts
    // near the ground (0.1 and 0.15 up before they were tucked).
    for (action, k, rise) in [(Action::Hop, 10, 0.3), (Action::Broadjump, 20, 0.7)] {
        let lowest = draw(action, k) as f32;
        let feet = cam.project([0.0, rise, 0.0]).unwrap()[1];
        assert!(lowest < feet, "{} at {k}: lowest orange at row {lowest}, feet not above row {feet}", action.name());
    }
}
