//! Polly: the low-poly bird every SLAP actor is, generated in code (exact,
//! and no model file or loader crate to keep) from a handful of flat-shaded
//! solids, in six meshes, one per [`Part`] that moves on its own.
//!
//! The actor's frame at size 1: the origin on the ground between the feet,
//! y up, forward +z (the actor's heading), the actor's left +x. Standing,
//! Polly is about 1.15 units tall:
//!
//! | part | what | moves with |
//! | --- | --- | --- |
//! | body | an egg of a body and a tail | `body_height`, `body_pitch`, `body_roll` about the hips |
//! | head | a round head, an orange beak, eyes (white and black) | the body; `head_pitch`, `head_yaw` about the neck |
//! | wing | a flat wing (two instances: left, and the same turned for the right) | the body; `wing_lift` about the shoulder |
//! | leg | a thin orange shank, four instances: each leg's thigh (hip to knee) and shank (knee to ankle) | the hip (on the body), the foot, and `leg_tuck` (the knee) |
//! | foot | three orange toes | `leg_swing_*` (forward) and `leg_lift_*` (up), on the actor's frame |
//! | shadow | a soft dark disc on the ground under the actor | the actor's ground position; smaller when it is high |
//!
//! The colour of the script tints the body, the head and the wings (the
//! wings and tail a little darker); beak, eyes, legs and feet keep their
//! own colours.
//!
//! ```
//! use animkit_runtime::slap::polly::{Part, mesh};
//! let total: usize = Part::ALL.iter().map(|&p| mesh(p).triangles()).sum();
//! assert!(total < 1200, "{total} triangles: a low-poly actor");
//! ```

use crate::render::scene3d::{Mat4, Mesh};
use std::f32::consts::FRAC_PI_2;

/// A part of Polly that is posed on its own: one mesh, one instanced draw
/// call per frame for all actors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    /// Body and tail.
    Body,
    /// Head, beak and eyes.
    Head,
    /// A wing (drawn twice per actor).
    Wing,
    /// A piece of leg: thigh or shank (four per actor).
    Leg,
    /// A foot's toes (twice per actor).
    Foot,
    /// The blob shadow on the ground.
    Shadow,
}

impl Part {
    /// Every part, in drawing order (the shadow last: it is blended).
    pub const ALL: [Part; 6] = [Part::Body, Part::Head, Part::Wing, Part::Leg, Part::Foot, Part::Shadow];

    /// How many instances of the part one actor has.
    ///
    /// ```
    /// use animkit_runtime::slap::polly::Part;
    /// assert_eq!(Part::ALL.iter().map(|p| p.per_actor()).sum::<usize>(), 11);
    /// ```
    pub const fn per_actor(self) -> usize {
        match self {
            Part::Body | Part::Head | Part::Shadow => 1,
            Part::Wing | Part::Foot => 2,
            Part::Leg => 4,
        }
    }
}

/// Where the joints are, at size 1, in the actor's frame.
pub mod joints {
    /// The body turns (pitch, roll) about this point, between the hips.
    pub const BODY_PIVOT: [f32; 3] = [0.0, 0.45, 0.0];
    /// The head turns about the neck (in the body's frame).
    pub const NECK: [f32; 3] = [0.0, 0.8, 0.06];
    /// The left hip (in the body's frame); the right one is at -x.
    pub const HIP: [f32; 3] = [0.12, 0.42, 0.0];
    /// The left shoulder, where the wing hangs from (in the body's frame).
    pub const SHOULDER: [f32; 3] = [0.26, 0.66, -0.02];
    /// Height of the ankle above the sole.
    pub const ANKLE: f32 = 0.035;
    /// The leg's length from hip to ankle at rest (a foot swings forward
    /// by `LEG_LENGTH * sin(swing)`).
    pub const LEG_LENGTH: f32 = HIP[1] - ANKLE;
    /// The centre of the body (where the golden tests look for its colour).
    pub const BODY_CENTRE: [f32; 3] = [0.0, 0.56, -0.02];
    /// The radius of a leg at size 1.
    pub const LEG_RADIUS: f32 = 0.035;
    /// The shadow's radius at size 1.
    pub const SHADOW_RADIUS: f32 = 0.4;
}

/// A vertex colour: `tint` 255 takes the actor's colour (times `rgb`), 0
/// keeps `rgb`.
const fn colour(rgb: [u8; 3], tint: u8) -> [u8; 4] {
    [rgb[0], rgb[1], rgb[2], tint]
}

const TINTED: [u8; 4] = colour([255, 255, 255], 255);
const TINTED_DARK: [u8; 4] = colour([200, 200, 200], 255);
const ORANGE: [u8; 4] = colour([245, 150, 30], 0);
const EYE_WHITE: [u8; 4] = colour([250, 250, 250], 0);
const EYE_BLACK: [u8; 4] = colour([20, 20, 28], 0);
const SHADOW: [u8; 4] = colour([20, 22, 30], 0);

fn at(t: [f32; 3], m: Mat4) -> Mat4 {
    Mat4::translation(t).mul(&m)
}

/// The mesh of `part`, in the part's own frame (see [`joints`]): the body
/// and head as they sit on a standing actor, the wing with its shoulder at
/// the origin, the leg a unit-long shank along +y (its instance stretches
/// it from ankle to hip), the foot with its sole's centre at the origin,
/// the shadow a unit disc.
pub fn mesh(part: Part) -> Mesh {
    let mut m = Mesh::new();
    match part {
        Part::Body => {
            m.ellipsoid(&at(joints::BODY_CENTRE, Mat4::scale3([0.3, 0.26, 0.34])), 10, 7, TINTED);
            // The tail: a flattened pyramid pointing back and up.
            let tail = at([0.0, 0.62, -0.26], Mat4::rotation_x(-1.0).mul(&Mat4::scale3([0.13, 0.3, 0.05])));
            m.cone(&tail, 4, TINTED_DARK);
        }
        Part::Head => {
            m.ellipsoid(&at([0.0, 0.95, 0.14], Mat4::scale(0.19)), 10, 6, TINTED);
            // A crest: a small tuft leaning back, so that nods and shakes read.
            let crest = at([0.0, 1.1, 0.1], Mat4::rotation_x(-0.6).mul(&Mat4::scale3([0.05, 0.14, 0.05])));
            m.cone(&crest, 4, TINTED_DARK);
            // The beak points forward (+z): a cone turned from +y.
            let beak = at([0.0, 0.93, 0.29], Mat4::rotation_x(FRAC_PI_2).mul(&Mat4::scale3([0.07, 0.17, 0.055])));
            m.cone(&beak, 6, ORANGE);
            for side in [1.0f32, -1.0] {
                m.ellipsoid(&at([side * 0.085, 1.0, 0.27], Mat4::scale(0.05)), 6, 4, EYE_WHITE);
                m.ellipsoid(&at([side * 0.09, 1.005, 0.305], Mat4::scale(0.026)), 6, 4, EYE_BLACK);
            }
        }
        Part::Wing => {
            // Symmetric front to back, so that the right wing is the left one
            // turned half a circle about the vertical (no mirroring, which
            // would turn its faces inside out).
            m.ellipsoid(&at([0.03, -0.14, 0.0], Mat4::scale3([0.055, 0.18, 0.22])), 8, 5, TINTED_DARK);
        }
        Part::Leg => {
            m.frustum(&Mat4::scale3([joints::LEG_RADIUS, 1.0, joints::LEG_RADIUS]), 1.0, 1.0, 6, ORANGE);
        }
        Part::Foot => {
            for turn in [-0.5f32, 0.0, 0.5] {
                let toe = Mat4::rotation_y(turn).mul(&at([0.0, 0.0, 0.06], Mat4::scale3([0.035, 0.03, 0.13])));
                m.cuboid(&at([0.0, 0.015, 0.0], toe), ORANGE);
            }
            m.cuboid(&at([0.0, 0.02, -0.01], Mat4::scale3([0.06, 0.04, 0.06])), ORANGE);
        }
        Part::Shadow => {
            m.disc(&Mat4::IDENTITY, 16, SHADOW);
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bounds(m: &Mesh) -> ([f32; 3], [f32; 3]) {
        let mut lo = [f32::MAX; 3];
        let mut hi = [f32::MIN; 3];
        for v in &m.vertices {
            for i in 0..3 {
                lo[i] = lo[i].min(v.pos[i]);
                hi[i] = hi[i].max(v.pos[i]);
            }
        }
        (lo, hi)
    }

    #[test]
    fn polly_stands_on_the_ground_facing_forward() {
        let (body_lo, body_hi) = bounds(&mesh(Part::Body));
        let (head_lo, head_hi) = bounds(&mesh(Part::Head));
        // The body is above the legs, the head above the body.
        assert!(body_lo[1] > 0.25 && body_hi[1] < head_hi[1], "{body_lo:?} {body_hi:?}");
        assert!(head_hi[1] > 1.1 && head_hi[1] < 1.25, "{head_hi:?}");
        // The beak sticks out in front (+z), further than the body.
        assert!(head_hi[2] > body_hi[2] + 0.1, "{head_hi:?} {body_hi:?}");
        assert!(head_lo[1] > body_lo[1]);
        // The hips are inside the body.
        let h = joints::HIP;
        assert!(h[1] > body_lo[1] && h[1] < joints::BODY_CENTRE[1]);
        // The foot's sole is on the ground.
        let (foot_lo, _) = bounds(&mesh(Part::Foot));
        assert!(foot_lo[1].abs() < 1e-6, "{foot_lo:?}");
    }

    #[test]
    fn the_wing_is_symmetric_front_to_back() {
        let (lo, hi) = bounds(&mesh(Part::Wing));
        assert!((lo[2] + hi[2]).abs() < 1e-5, "{lo:?} {hi:?}");
    }

    #[test]
    fn only_body_head_and_wings_take_the_actors_colour() {
        for part in Part::ALL {
            let tinted = mesh(part).vertices.iter().any(|v| v.color[3] > 0);
            assert_eq!(tinted, matches!(part, Part::Body | Part::Head | Part::Wing), "{part:?}");
        }
    }
}
