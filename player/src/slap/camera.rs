//! The scene's camera as the renderer takes it: a perspective projection
//! with a fixed vertical field of view ([`FOVY_DEGREES`]), looking along
//! the camera's direction with +y up, from its position, into a viewport
//! whose aspect it keeps. Everything is drawn relative to the eye (see
//! `render::scene3d`).
//!
//! [`CameraView::project`] maps a world point to target pixels the way the
//! GPU does: the golden tests use it to find where the trace puts each
//! actor.
//!
//! ```
//! use animkit_player::render::PixelRect;
//! use animkit_player::slap::camera::CameraView;
//! use animkit_vm::engine::slap::Camera;
//! let view = CameraView::new(&Camera::DEFAULT, PixelRect::new(0, 0, 640, 480));
//! // The default camera looks at the origin: it is in the middle of the picture.
//! let p = view.project([0.0, 0.0, 0.0]).unwrap();
//! assert!((p[0] - 320.0).abs() < 1e-3 && (p[1] - 240.0).abs() < 1e-3, "{p:?}");
//! // Up is up, right is right.
//! assert!(view.project([0.0, 1.0, 0.0]).unwrap()[1] < 240.0);
//! assert!(view.project([1.0, 0.0, 0.0]).unwrap()[0] > 320.0);
//! // Behind the camera there is nothing to see.
//! assert_eq!(view.project([0.0, 2.0, 9.0]), None);
//! ```

use crate::render::PixelRect;
use crate::render::scene3d::Mat4;
use animkit_vm::engine::slap::Camera;

/// The vertical field of view, in degrees.
pub const FOVY_DEGREES: f32 = 45.0;
/// The near clip plane's distance from the eye.
pub const NEAR: f32 = 0.1;
/// The far clip plane's distance.
pub const FAR: f32 = 600.0;

/// A camera ready to draw with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CameraView {
    /// The eye, in world coordinates.
    pub eye: [f64; 3],
    /// Projection times view, from eye-relative coordinates.
    pub view_proj: Mat4,
    /// The pixels drawn into.
    pub viewport: PixelRect,
}

impl CameraView {
    /// The view of `camera` into `viewport` (its aspect is the
    /// projection's). A direction that is not a finite, non-zero vector
    /// (which the simulation never hands over) looks like the default
    /// camera's.
    pub fn new(camera: &Camera, viewport: PixelRect) -> CameraView {
        let d = camera.direction;
        let usable = d.iter().all(|v| v.is_finite()) && d.iter().any(|&v| v != 0.0);
        let d = if usable { d } else { Camera::DEFAULT.direction };
        let aspect = viewport.w.max(1) as f32 / viewport.h.max(1) as f32;
        let proj = Mat4::perspective(FOVY_DEGREES.to_radians(), aspect, NEAR, FAR);
        let view = Mat4::look_along([d[0] as f32, d[1] as f32, d[2] as f32]);
        CameraView { eye: camera.position, view_proj: proj.mul(&view), viewport }
    }

    /// Where world point `p` lands in the target, in pixels (top-left
    /// origin, pixel centres at `.5`), or `None` when it is not in front
    /// of the near plane.
    pub fn project(&self, p: [f64; 3]) -> Option<[f32; 2]> {
        let rel = [0, 1, 2].map(|i| (p[i] - self.eye[i]) as f32);
        let c = self.view_proj.project(rel);
        if c[3] < NEAR {
            return None;
        }
        let (x, y) = (c[0] / c[3], c[1] / c[3]);
        let v = &self.viewport;
        Some([v.x as f32 + (x + 1.0) * 0.5 * v.w as f32, v.y as f32 + (1.0 - y) * 0.5 * v.h as f32])
    }
}

/// The largest rectangle of aspect `width : height` centred in a
/// `target_w` x `target_h` target: where a scene made at `width` x
/// `height` is drawn in a window of another shape (the rest is black).
///
/// ```
/// use animkit_player::render::PixelRect;
/// use animkit_player::slap::camera::letterbox;
/// assert_eq!(letterbox(640, 480, 640, 480), PixelRect::new(0, 0, 640, 480));
/// assert_eq!(letterbox(640, 480, 1000, 480), PixelRect::new(180, 0, 640, 480)); // bars left and right
/// assert_eq!(letterbox(640, 480, 320, 600), PixelRect::new(0, 180, 320, 240)); // bars above and below
/// ```
pub fn letterbox(width: u32, height: u32, target_w: u32, target_h: u32) -> PixelRect {
    let (w, h, tw, th) = (u64::from(width.max(1)), u64::from(height.max(1)), u64::from(target_w), u64::from(target_h));
    let (vw, vh) = if tw * h <= th * w { (tw, (tw * h + w / 2) / w) } else { ((th * w + h / 2) / h, th) };
    PixelRect::new(((tw - vw) / 2) as i32, ((th - vh) / 2) as i32, vw as i32, vh as i32)
}
