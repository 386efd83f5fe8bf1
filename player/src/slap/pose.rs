//! Posing: an actor's state at a frame ([`ActorState`]: position,
//! direction, size, colour and the [`Pose`](animkit_vm::engine::slap::Pose) of its
//! action) becomes one [`Instance`] per part instance of Polly
//! ([`ActorInstances`]): an affine map from the part's mesh to
//! eye-relative coordinates, and a colour.
//!
//! The chain, each map applied after the ones to its right:
//!
//! ```text
//! actor  = T(position - eye) * Ry(direction) * S(size)
//! body   = actor * T(0, body_height, 0) * about(BODY_PIVOT, Rx(body_pitch) * Rz(body_roll))
//! head   = body * about(NECK, Ry(head_yaw) * Rx(-head_pitch))
//! wing   = body * T(SHOULDER) * Rz(wing_lift)                 (left, +x)
//!          body * T(-SHOULDER.x, ..) * Rz(-wing_lift) * Ry(pi) (right)
//! foot   = actor * T(+-HIP.x, leg_lift, HIP.z + LEG_LENGTH * sin(leg_swing))
//! knee   = the middle of hip (on the body) and ankle (on the foot), moved
//!          forward, square to the leg, by leg_tuck * sqrt((LEG_LENGTH/2)^2 - (d/2)^2)
//!          (d: hip to ankle; 0 when d >= LEG_LENGTH)
//! leg    = the unit shank stretched from the hip to the knee (thigh), and
//!          from the knee to the ankle (shank)
//! shadow = T(x - eye.x, SHADOW_Y - eye.y, z - eye.z) * S(size * radius), on the ground
//! ```
//!
//! `Rx(a)` leans +y towards +z (forward), `Rz(a)` tilts +y towards -x (the
//! actor's right), `Ry(a)` turns +z towards +x, so the signs of the pose
//! follow `docs/slap.md`: a positive `body_pitch` leans forward, a
//! positive `head_pitch` raises the head, a positive swing moves the foot
//! forward. Positions are subtracted from the eye in `f64`, so an actor
//! far from the origin is posed as precisely as one near it.
//!
//! ```
//! use animkit_player::slap::pose::pose_actor;
//! use animkit_vm::engine::slap::{Action, ActorState, Pose};
//! let actor = ActorState {
//!     id: 1, action: Action::Idle, position: [1e9, 0.0, 0.0], direction: 0.0,
//!     color: [1.0, 0.0, 0.0], size: 1.0, pose: Pose::default(),
//! };
//! let parts = pose_actor(&actor, [1e9, 2.0, 8.0]);
//! assert_eq!(parts.body.color, [255, 0, 0, 255]);
//! // The body's translation: the actor is 8 units in front of the eye, 2 below.
//! assert_eq!([parts.body.rows[0][3], parts.body.rows[1][3], parts.body.rows[2][3]], [0.0, -2.0, -8.0]);
//! ```

use super::polly::joints;
use crate::render::scene3d::{Instance, Mat4, cross, normalize};
use animkit_vm::engine::slap::ActorState;
use std::f32::consts::PI;

/// Height of a shadow above the ground (y = 0): above it for the depth
/// test, low enough to stay under the feet.
pub const SHADOW_Y: f64 = 0.004;

/// The instances of one actor's parts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ActorInstances {
    /// Body and tail.
    pub body: Instance,
    /// Head, beak, eyes and crest.
    pub head: Instance,
    /// Left and right wing.
    pub wings: [Instance; 2],
    /// The left leg's thigh (hip to knee) and shank (knee to ankle), then
    /// the right leg's.
    pub legs: [Instance; 4],
    /// Left and right foot.
    pub feet: [Instance; 2],
    /// The shadow (transparent when the actor is below the ground).
    pub shadow: Instance,
}

/// The actor's colour in RGBA8: each channel clamped to 0..1 (a script's
/// colour is stored as given).
///
/// ```
/// assert_eq!(animkit_player::slap::pose::rgba8([1.5, -0.2, 0.5]), [255, 0, 128, 255]);
/// ```
pub fn rgba8(c: [f64; 3]) -> [u8; 4] {
    let k = |v: f64| if v.is_finite() { (v.clamp(0.0, 1.0) * 255.0).round() as u8 } else { 0 };
    [k(c[0]), k(c[1]), k(c[2]), 255]
}

/// `m` applied about `pivot` instead of the origin.
fn about(pivot: [f32; 3], m: &Mat4) -> Mat4 {
    Mat4::translation(pivot).mul(m).mul(&Mat4::translation([-pivot[0], -pivot[1], -pivot[2]]))
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn scaled(v: [f32; 3], k: f32) -> [f32; 3] {
    [v[0] * k, v[1] * k, v[2] * k]
}

/// The instances of `actor`'s parts, for an eye at `eye`.
pub fn pose_actor(actor: &ActorState, eye: [f64; 3]) -> ActorInstances {
    let p = &actor.pose;
    let size = actor.size as f32;
    let rel = [0, 1, 2].map(|i| (actor.position[i] - eye[i]) as f32);
    let color = rgba8(actor.color);
    let frame = Mat4::translation(rel).mul(&Mat4::rotation_y(actor.direction as f32)).mul(&Mat4::scale(size));
    let body = frame
        .mul(&Mat4::translation([0.0, p.body_height, 0.0]))
        .mul(&about(joints::BODY_PIVOT, &Mat4::rotation_x(p.body_pitch).mul(&Mat4::rotation_z(p.body_roll))));
    let head = body.mul(&about(joints::NECK, &Mat4::rotation_y(p.head_yaw).mul(&Mat4::rotation_x(-p.head_pitch))));
    let [sx, sy, sz] = joints::SHOULDER;
    let wing_left = body.mul(&Mat4::translation([sx, sy, sz])).mul(&Mat4::rotation_z(p.wing_lift));
    let wing_right =
        body.mul(&Mat4::translation([-sx, sy, sz])).mul(&Mat4::rotation_z(-p.wing_lift)).mul(&Mat4::rotation_y(PI));
    let forward = frame.transform_vector([0.0, 0.0, 1.0]);
    let side_axis = normalize(frame.transform_vector([1.0, 0.0, 0.0]));
    // One piece of leg: the unit shank stretched from `from` to `to`, its
    // radius the leg's (scaled), its flat side square to the heading.
    let piece = |from: [f32; 3], to: [f32; 3]| {
        let along = sub(to, from);
        let across = cross(along, forward);
        let x = if across.iter().map(|v| v * v).sum::<f32>() > 1e-12 { normalize(across) } else { side_axis };
        let z = normalize(cross(x, along));
        Instance::new(&Mat4::from_axes(scaled(x, size), along, scaled(z, size), from), color)
    };
    let limb = |side: f32, swing: f32, lift: f32| {
        let [hx, hy, hz] = joints::HIP;
        let foot_at = [side * hx, lift, hz + joints::LEG_LENGTH * swing.sin()];
        let foot = frame.mul(&Mat4::translation(foot_at));
        let ankle = frame.transform_point([foot_at[0], foot_at[1] + joints::ANKLE, foot_at[2]]);
        let hip = body.transform_point([side * hx, hy, hz]);
        let knee = knee(hip, ankle, forward, joints::LEG_LENGTH * size, p.leg_tuck);
        [piece(knee, hip), piece(ankle, knee), Instance::new(&foot, color)]
    };
    let [thigh_left, shank_left, foot_left] = limb(1.0, p.leg_swing_left, p.leg_lift_left);
    let [thigh_right, shank_right, foot_right] = limb(-1.0, p.leg_swing_right, p.leg_lift_right);
    ActorInstances {
        body: Instance::new(&body, color),
        head: Instance::new(&head, color),
        wings: [Instance::new(&wing_left, color), Instance::new(&wing_right, color)],
        legs: [thigh_left, shank_left, thigh_right, shank_right],
        feet: [foot_left, foot_right],
        shadow: shadow(actor, eye),
    }
}

/// Where the knee of a leg from `hip` to `ankle` (eye-relative) is: the
/// middle of the two, moved `tuck` times as far as a leg of `length` (two
/// halves) must bend there, square to the leg and towards `forward` (the
/// heading); on a straight leg (`tuck` 0, or hip and ankle a whole leg or
/// more apart) the middle itself.
fn knee(hip: [f32; 3], ankle: [f32; 3], forward: [f32; 3], length: f32, tuck: f32) -> [f32; 3] {
    let mid = [0, 1, 2].map(|i| 0.5 * (hip[i] + ankle[i]));
    let leg = sub(hip, ankle);
    let d2 = leg.iter().map(|v| v * v).sum::<f32>();
    let bend = tuck.clamp(0.0, 1.0) * (0.25 * (length * length - d2)).max(0.0).sqrt();
    // The heading's part square to the leg.
    let along = leg.iter().zip(forward).map(|(a, f)| a * f).sum::<f32>() / d2.max(1e-12);
    let out = [0, 1, 2].map(|i| forward[i] - along * leg[i]);
    let n = out.iter().map(|v| v * v).sum::<f32>();
    if !(bend > 0.0 && n > 1e-12) {
        return mid;
    }
    let k = bend / n.sqrt();
    [0, 1, 2].map(|i| mid[i] + k * out[i])
}

/// The blob shadow: on the ground under the actor, smaller and fainter the
/// higher its body is (up to 1.5 units), none below the ground.
fn shadow(actor: &ActorState, eye: [f64; 3]) -> Instance {
    let height = actor.position[1] + f64::from(actor.pose.body_height) * actor.size;
    let up = (height / 1.5).clamp(0.0, 1.0) as f32;
    let at = [(actor.position[0] - eye[0]) as f32, (SHADOW_Y - eye[1]) as f32, (actor.position[2] - eye[2]) as f32];
    let radius = actor.size as f32 * joints::SHADOW_RADIUS * (1.0 - 0.45 * up);
    let alpha = if actor.position[1] < -0.01 { 0 } else { (80.0 * (1.0 - 0.6 * up)).round() as u8 };
    Instance::new(&Mat4::translation(at).mul(&Mat4::scale(radius)), [0, 0, 0, alpha])
}

#[cfg(test)]
mod tests {
    use super::*;
    use animkit_vm::engine::slap::{Action, Pose};

    fn actor(pose: Pose) -> ActorState {
        ActorState {
            id: 1,
            action: Action::Idle,
            position: [0.0; 3],
            direction: 0.0,
            color: [0.0, 1.0, 0.0],
            size: 1.0,
            pose,
        }
    }

    fn translation(i: &Instance) -> [f32; 3] {
        [i.rows[0][3], i.rows[1][3], i.rows[2][3]]
    }

    fn apply(i: &Instance, p: [f32; 3]) -> [f32; 3] {
        [0, 1, 2].map(|r| i.rows[r][0] * p[0] + i.rows[r][1] * p[1] + i.rows[r][2] * p[2] + i.rows[r][3])
    }

    fn length(v: [f32; 3]) -> f32 {
        v.iter().map(|x| x * x).sum::<f32>().sqrt()
    }

    /// Hip, knee and ankle of leg `k` (0 left, 1 right): the thigh runs
    /// from the knee to the hip, the shank from the ankle to the knee.
    fn joints_of(parts: &ActorInstances, k: usize) -> [[f32; 3]; 3] {
        let (thigh, shank) = (&parts.legs[2 * k], &parts.legs[2 * k + 1]);
        let knee = apply(thigh, [0.0; 3]);
        let knee_again = apply(shank, [0.0, 1.0, 0.0]);
        assert!(length(sub(knee, knee_again)) < 1e-6, "{knee:?} {knee_again:?}");
        [apply(thigh, [0.0, 1.0, 0.0]), knee, apply(shank, [0.0; 3])]
    }

    #[test]
    fn standing_still_the_legs_join_hips_and_ankles() {
        let parts = pose_actor(&actor(Pose::default()), [0.0; 3]);
        for (k, side) in [(0, 1.0f32), (1, -1.0)] {
            let [hip, knee, ankle] = joints_of(&parts, k);
            let h = joints::HIP;
            assert!((hip[0] - side * h[0]).abs() < 1e-6 && (hip[1] - h[1]).abs() < 1e-6, "{hip:?}");
            assert!((ankle[1] - joints::ANKLE).abs() < 1e-6, "{ankle:?}");
            // A straight leg: the knee half way, thigh and shank in line.
            let mid = [0, 1, 2].map(|i| 0.5 * (hip[i] + ankle[i]));
            assert!(length(sub(knee, mid)) < 1e-6, "{knee:?} {mid:?}");
            // The pieces' radius is the leg's, across the heading.
            for piece in &parts.legs[2 * k..2 * k + 2] {
                let across = sub(apply(piece, [1.0, 0.0, 0.0]), apply(piece, [0.0; 3]));
                assert!((length(across) - 1.0).abs() < 1e-6 && across[2].abs() < 1e-6, "{across:?}");
            }
            assert_eq!(translation(&parts.feet[k]), [side * h[0], 0.0, h[2]]);
        }
    }

    #[test]
    fn tucked_legs_bend_at_the_knee_keeping_their_length() {
        // A body 0.7 up, the feet drawn up 0.91 and a little forward.
        let air = Pose {
            body_height: 0.7,
            leg_lift_left: 0.91,
            leg_lift_right: 0.91,
            leg_swing_left: 0.25,
            leg_swing_right: 0.25,
            ..Pose::default()
        };
        let half = joints::LEG_LENGTH / 2.0;
        let straight = pose_actor(&actor(air), [0.0; 3]);
        let tucked = pose_actor(&actor(Pose { leg_tuck: 1.0, ..air }), [0.0; 3]);
        let part_way = pose_actor(&actor(Pose { leg_tuck: 0.5, ..air }), [0.0; 3]);
        for k in 0..2 {
            let [hip, knee, ankle] = joints_of(&tucked, k);
            // Hip and ankle where an untucked leg has them.
            let [hip0, knee0, ankle0] = joints_of(&straight, k);
            assert!(length(sub(hip, hip0)) < 1e-6 && length(sub(ankle, ankle0)) < 1e-6);
            assert!((ankle[1] - (0.91 + joints::ANKLE)).abs() < 1e-6, "{ankle:?}");
            let d = length(sub(hip, ankle));
            assert!(d < 0.6 * joints::LEG_LENGTH, "hip to ankle {d}");
            // Tucked, thigh and shank are each half a leg; the knee is
            // forward of the straight leg's, square to it.
            assert!((length(sub(hip, knee)) - half).abs() < 1e-5 && (length(sub(knee, ankle)) - half).abs() < 1e-5);
            let out = sub(knee, knee0);
            assert!(out[2] > 0.1 && out[0].abs() < 1e-6, "{out:?}");
            assert!(out.iter().zip(sub(hip, ankle)).map(|(a, b)| a * b).sum::<f32>().abs() < 1e-6);
            // Half a tuck bends half as far.
            let [_, knee_half, _] = joints_of(&part_way, k);
            assert!(length(sub(sub(knee_half, knee0), scaled(out, 0.5))) < 1e-6);
        }
        // A leg longer than its length stays straight, tucked or not.
        let stretched = pose_actor(&actor(Pose { body_height: 0.3, leg_tuck: 1.0, ..Pose::default() }), [0.0; 3]);
        let [hip, knee, ankle] = joints_of(&stretched, 0);
        assert!(length(sub(knee, [0, 1, 2].map(|i| 0.5 * (hip[i] + ankle[i])))) < 1e-6);
    }

    #[test]
    fn the_pose_moves_the_parts_the_way_the_docs_say() {
        // Leaning forward moves the head forward (+z).
        let lean = pose_actor(&actor(Pose { body_pitch: 0.3, ..Pose::default() }), [0.0; 3]);
        let rest = pose_actor(&actor(Pose::default()), [0.0; 3]);
        let beak = [0.0, 0.93, 0.4];
        assert!(apply(&lean.head, beak)[2] > apply(&rest.head, beak)[2] + 0.1);
        // Raising the head raises the beak.
        let up = pose_actor(&actor(Pose { head_pitch: 0.35, ..Pose::default() }), [0.0; 3]);
        assert!(apply(&up.head, beak)[1] > apply(&rest.head, beak)[1] + 0.03);
        // A positive yaw turns the beak towards +x (the way the heading grows).
        let yaw = pose_actor(&actor(Pose { head_yaw: 0.5, ..Pose::default() }), [0.0; 3]);
        assert!(apply(&yaw.head, beak)[0] > 0.1);
        // A positive roll tilts the head towards the actor's right (-x).
        let roll = pose_actor(&actor(Pose { body_roll: 0.2, ..Pose::default() }), [0.0; 3]);
        assert!(apply(&roll.head, beak)[0] < -0.05);
        // A forward swing puts the foot in front; lift raises it.
        let step = pose_actor(&actor(Pose { leg_swing_left: 0.5, leg_lift_left: 0.1, ..Pose::default() }), [0.0; 3]);
        let foot = translation(&step.feet[0]);
        assert!(foot[2] > 0.15 && (foot[1] - 0.1).abs() < 1e-6, "{foot:?}");
        // Raised wings swing outwards.
        let wings = pose_actor(&actor(Pose { wing_lift: 0.8, ..Pose::default() }), [0.0; 3]);
        let tip = [0.03, -0.3, 0.0];
        assert!(apply(&wings.wings[0], tip)[0] > apply(&rest.wings[0], tip)[0] + 0.1);
        assert!(apply(&wings.wings[1], tip)[0] < apply(&rest.wings[1], tip)[0] - 0.1);
    }

    #[test]
    fn heading_size_and_height() {
        let mut a = actor(Pose::default());
        a.direction = std::f64::consts::FRAC_PI_2;
        a.size = 2.0;
        a.position = [3.0, 0.0, 0.0];
        let parts = pose_actor(&a, [0.0; 3]);
        // Facing +x: the beak is at +x, twice as far at size 2.
        let beak = apply(&parts.head, [0.0, 0.93, 0.4]);
        assert!((beak[0] - (3.0 + 0.8)).abs() < 1e-5 && (beak[1] - 1.86).abs() < 1e-5, "{beak:?}");
        // A jump shrinks and fades the shadow; under the ground there is none.
        let high = pose_actor(&actor(Pose { body_height: 0.7, ..Pose::default() }), [0.0; 3]);
        let low = pose_actor(&actor(Pose::default()), [0.0; 3]);
        assert!(high.shadow.rows[0][0] < low.shadow.rows[0][0] && high.shadow.color[3] < low.shadow.color[3]);
        let mut under = actor(Pose::default());
        under.position[1] = -1.0;
        assert_eq!(pose_actor(&under, [0.0; 3]).shadow.color[3], 0);
    }
}
