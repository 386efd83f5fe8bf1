//! Polly: the low-poly bird every SLAP actor is, generated in code (exact,
//! and no model file or loader crate to keep) from a handful of flat-shaded
//! solids, in six meshes, one per [`Part`] that moves on its own, each at
//! [`LEVELS`] levels of detail ([`mesh_at`]: the full mesh, then fewer
//! facets for actors that cover fewer pixels; [`level_for`] picks one from
//! the projected size, at the thresholds [`LOD_RADIUS_PX`]).
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
//! use animkit_player::slap::polly::{Part, mesh};
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
    /// use animkit_player::slap::polly::Part;
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

/// How many levels of detail each part has: 0 is the full mesh, each
/// level after it fewer triangles (see [`mesh_at`] and [`level_for`]).
pub const LEVELS: usize = 4;

/// The centre of an actor's bounding sphere at size 1, standing (in the
/// actor's frame): where its projected size is measured from.
pub const ACTOR_CENTRE: [f32; 3] = [0.0, 0.6, 0.0];
/// The radius of the bounding sphere about [`ACTOR_CENTRE`] at size 1:
/// every point of a standing bird but its flat shadow is within it (a
/// unit test checks this).
pub const ACTOR_RADIUS: f32 = 0.66;

/// The level-of-detail thresholds, in pixels of projected radius (the
/// actor's bounding sphere, [`ACTOR_RADIUS`] times its size, over its
/// depth in front of the eye, times the focal length in pixels): an
/// actor is drawn with level `l` below `LOD_RADIUS_PX[l - 1]`. At each,
/// the coarser level's outlines lie within half a pixel of the smooth
/// shapes the full meshes cut ([`LOD_DEVIATION`] times the threshold:
/// 0.36, 0.50 and 0.48 px), so the switch moves no edge by as much as
/// half a pixel; what changes is the flat shading of facets a pixel or
/// two wide (`runtime/tests/slap_lod.rs` bounds what changes;
/// `docs/slap.md`, Drawing, has the table).
pub const LOD_RADIUS_PX: [f32; LEVELS - 1] = [11.0, 7.0, 4.0];

/// For each coarser level, the largest amount by which its outline
/// departs from the smooth shapes, as a fraction of [`ACTOR_RADIUS`]: a
/// solid of largest radius `r` cut into an `n`-gon and widened by `k` to
/// the full cut's area reaches `r (k - 1)` out at its corners and `r (1 -
/// k cos(pi / n))` in at its edges; a part left out departs by its
/// radius. Level 1: the wing (0.22 at 6 slices, 0.032 of the actor's
/// radius); level 2: the wing (4 slices, 2 stacks, 0.071); level 3: the
/// body (4 slices, 0.12). A unit test recomputes them from the
/// tessellations.
pub const LOD_DEVIATION: [f32; LEVELS - 1] = [0.033, 0.071, 0.12];

/// The level of detail for an actor whose bounding sphere projects to
/// `radius_px` pixels of radius: 0 (full) from `LOD_RADIUS_PX[0]` up (and
/// for any radius that is not a number), else the number of thresholds it
/// is below.
///
/// ```
/// use animkit_player::slap::polly::{level_for, LOD_RADIUS_PX};
/// assert_eq!(level_for(100.0), 0);
/// assert_eq!(level_for(LOD_RADIUS_PX[0]), 0);
/// assert_eq!(level_for(LOD_RADIUS_PX[0] - 0.01), 1);
/// assert_eq!(level_for(LOD_RADIUS_PX[1] - 0.01), 2);
/// assert_eq!(level_for(LOD_RADIUS_PX[2] - 0.01), 3);
/// assert_eq!(level_for(0.0), 3);
/// assert_eq!(level_for(f32::NAN), 0);
/// ```
pub fn level_for(radius_px: f32) -> usize {
    LOD_RADIUS_PX.iter().filter(|&&t| radius_px < t).count()
}

/// The full mesh of `part` ([`mesh_at`] level 0).
pub fn mesh(part: Part) -> Mesh {
    mesh_at(part, 0)
}

/// Tessellation of the mesh of a level: (slices, stacks) of the body, the
/// head, the wing, the eyes' whites and pupils (0: none); sides of the
/// tail, crest, beak, leg (capped or not) and shadow; the foot's shape.
struct Detail {
    body: (u32, u32),
    head: (u32, u32),
    wing: (u32, u32),
    eye: (u32, u32),
    pupil: (u32, u32),
    tail: u32,
    crest: u32,
    beak: u32,
    leg: u32,
    leg_caps: bool,
    /// Three toes and a heel (cuboids), or one low pyramid over them.
    toes: bool,
    shadow: u32,
}

const DETAIL: [Detail; LEVELS] = [
    Detail {
        body: (10, 7),
        head: (10, 6),
        wing: (8, 5),
        eye: (6, 4),
        pupil: (6, 4),
        tail: 4,
        crest: 4,
        beak: 6,
        leg: 6,
        leg_caps: true,
        toes: true,
        shadow: 16,
    },
    Detail {
        body: (8, 5),
        head: (8, 5),
        wing: (6, 4),
        eye: (4, 3),
        pupil: (4, 2),
        tail: 4,
        crest: 3,
        beak: 4,
        leg: 4,
        leg_caps: true,
        toes: true,
        shadow: 12,
    },
    Detail {
        body: (6, 3),
        head: (4, 3),
        wing: (4, 2),
        eye: (3, 2),
        pupil: (0, 0),
        tail: 3,
        crest: 3,
        beak: 3,
        leg: 4,
        leg_caps: false,
        toes: false,
        shadow: 6,
    },
    Detail {
        body: (4, 2),
        head: (4, 2),
        wing: (4, 2),
        eye: (0, 0),
        pupil: (0, 0),
        tail: 3,
        crest: 3,
        beak: 3,
        leg: 4,
        leg_caps: false,
        toes: false,
        shadow: 6,
    },
];

/// The mesh of `part` at level of detail `level` (0: full; a level past
/// the last is the last), in the part's own frame (see [`joints`]): the
/// body and head as they sit on a standing actor, the wing with its
/// shoulder at the origin, the leg a unit-long shank along +y (its
/// instance stretches it from ankle to hip), the foot with its sole's
/// centre at the origin, the shadow a unit disc. Every level has the same
/// shapes in the same places, cut into fewer facets, each coarser solid
/// widened to cover the area the full one does; from level 2 the pupils,
/// the legs' end caps (hidden in the body and foot) and the toes go (a
/// foot is one low pyramid over where the toes were), at level 3 the
/// eyes; past level 0 the tail, crest and beak lose their hidden bases.
///
/// ```
/// use animkit_player::slap::polly::{Part, mesh_at, LEVELS};
/// let per_actor = |l: usize| Part::ALL.iter().map(|&p| mesh_at(p, l).triangles() * p.per_actor()).sum::<usize>();
/// assert_eq!((0..LEVELS).map(per_actor).collect::<Vec<_>>(), [728, 431, 123, 87]);
/// ```
pub fn mesh_at(part: Part, level: usize) -> Mesh {
    let d = &DETAIL[level.min(LEVELS - 1)];
    let mut m = Mesh::new();
    match part {
        Part::Body => {
            solid(&mut m, &at(joints::BODY_CENTRE, Mat4::scale3([0.3, 0.26, 0.34])), d.body, FULL.body, TINTED);
            // The tail: a flattened pyramid pointing back and up.
            let tail = at([0.0, 0.62, -0.26], Mat4::rotation_x(-1.0).mul(&Mat4::scale3([0.13, 0.3, 0.05])));
            cone(&mut m, &tail, (d.tail, FULL.tail), level, TINTED_DARK);
        }
        Part::Head => {
            solid(&mut m, &at([0.0, 0.95, 0.14], Mat4::scale(0.19)), d.head, FULL.head, TINTED);
            // A crest: a small tuft leaning back, so that nods and shakes read.
            let crest = at([0.0, 1.1, 0.1], Mat4::rotation_x(-0.6).mul(&Mat4::scale3([0.05, 0.14, 0.05])));
            cone(&mut m, &crest, (d.crest, FULL.crest), level, TINTED_DARK);
            // The beak points forward (+z): a cone turned from +y.
            let beak = at([0.0, 0.93, 0.29], Mat4::rotation_x(FRAC_PI_2).mul(&Mat4::scale3([0.07, 0.17, 0.055])));
            cone(&mut m, &beak, (d.beak, FULL.beak), level, ORANGE);
            for side in [1.0f32, -1.0] {
                solid(&mut m, &at([side * 0.085, 1.0, 0.27], Mat4::scale(0.05)), d.eye, FULL.eye, EYE_WHITE);
                solid(&mut m, &at([side * 0.09, 1.005, 0.305], Mat4::scale(0.026)), d.pupil, FULL.pupil, EYE_BLACK);
            }
        }
        Part::Wing => {
            // Symmetric front to back, so that the right wing is the left one
            // turned half a circle about the vertical (no mirroring, which
            // would turn its faces inside out).
            let wing = at([0.03, -0.14, 0.0], Mat4::scale3([0.055, 0.18, 0.22]));
            // Corners at the wing's widest (+-x, where it stands out of the
            // body): a cut into slices not a multiple of 4 turned half a slice.
            let wing = match d.wing.0 % 4 {
                0 => wing,
                _ => wing.mul(&Mat4::rotation_y(std::f32::consts::PI / d.wing.0 as f32)),
            };
            solid(&mut m, &wing, d.wing, FULL.wing, TINTED_DARK);
        }
        Part::Leg => {
            let shank = Mat4::scale3([joints::LEG_RADIUS, 1.0, joints::LEG_RADIUS]);
            if !d.leg_caps {
                // As wide on average as the full leg's hexagon.
                let width = |n: u32| n as f32 * (std::f32::consts::PI / n as f32).sin();
                let k = width(FULL.leg) / width(d.leg);
                m.tube(&shank.mul(&Mat4::scale3([k, 1.0, k])), d.leg, ORANGE);
            } else {
                m.frustum(&shank, 1.0, 1.0, d.leg, ORANGE);
            }
        }
        Part::Foot => {
            if d.toes {
                for turn in [-0.5f32, 0.0, 0.5] {
                    let toe = Mat4::rotation_y(turn).mul(&at([0.0, 0.0, 0.06], Mat4::scale3([0.035, 0.03, 0.13])));
                    m.cuboid(&at([0.0, 0.015, 0.0], toe), ORANGE);
                }
                m.cuboid(&at([0.0, 0.02, -0.01], Mat4::scale3([0.06, 0.04, 0.06])), ORANGE);
            } else {
                foot_pyramid(&mut m);
            }
        }
        Part::Shadow => {
            let k = area_match(d.shadow, FULL.shadow);
            m.disc(&if k == 1.0 { Mat4::IDENTITY } else { Mat4::scale3([k, 1.0, k]) }, d.shadow, SHADOW);
        }
    }
    m
}

/// A coarse foot: a low four-sided pyramid, 0.04 high, over a kite from
/// the heel to the three toes' tips, covering about the area they do (4
/// triangles for 48).
fn foot_pyramid(m: &mut Mesh) {
    let outline = [[0.0, -0.045], [0.08, 0.10], [0.0, 0.13], [-0.08, 0.10]];
    let p = |k: usize| [outline[k % 4][0], 0.0, outline[k % 4][1]];
    let apex = [0.0, 0.04, 0.06];
    // The outline (heel, left (+x), tip, right) runs clockwise seen from
    // above: each face is wound the other way, to face outwards. No
    // bottom: the ground hides it.
    for k in 0..4 {
        m.triangle(p(k + 1), p(k), apex, ORANGE);
    }
}

/// The full level's tessellation.
const FULL: &Detail = &DETAIL[0];

/// The area of the `n`-gon inscribed in the unit circle.
fn polygon_area(n: u32) -> f32 {
    let n = n.max(3) as f32;
    0.5 * n * (std::f32::consts::TAU / n).sin()
}

/// How much to widen an `n`-gon inscribed in a circle so that it has the
/// area of the `full`-gon: 1 when they are the same.
fn area_match(n: u32, full: u32) -> f32 {
    if n == full { 1.0 } else { (polygon_area(full) / polygon_area(n)).sqrt() }
}

/// An ellipsoid (`at` maps the unit sphere) cut into `(slices, stacks)`
/// (none when `slices` is 0), widened so that its outlines (around: a
/// `slices`-gon; pole to pole: a `2 stacks`-gon) have the areas of the
/// full level's `full` cut: a coarser solid covers as many pixels as the
/// full one instead of shrinking inside it.
fn solid(m: &mut Mesh, at: &Mat4, (slices, stacks): (u32, u32), full: (u32, u32), color: [u8; 4]) {
    if slices == 0 {
        return;
    }
    let (kx, ky) = (area_match(slices, full.0), area_match(2 * stacks, 2 * full.1));
    if (kx, ky) == (1.0, 1.0) {
        m.ellipsoid(at, slices, stacks, color);
    } else {
        m.ellipsoid(&at.mul(&Mat4::scale3([kx, ky, kx])), slices, stacks, color);
    }
}

/// A cone (see [`Mesh::cone`]) of `sides`, its base widened to the area of
/// the full level's `full`-gon; without its base past level 0 (the tail,
/// crest and beak all stand on the body or head, which hides it).
fn cone(m: &mut Mesh, at: &Mat4, (sides, full): (u32, u32), level: usize, color: [u8; 4]) {
    let k = area_match(sides, full);
    let at = if k == 1.0 { *at } else { at.mul(&Mat4::scale3([k, 1.0, k])) };
    if level == 0 {
        m.cone(&at, sides, color);
        return;
    }
    let apex = at.transform_point([0.0, 1.0, 0.0]);
    let ring = |i: u32| {
        let (s, c) = (std::f32::consts::TAU * i as f32 / sides as f32).sin_cos();
        at.transform_point([s, 0.0, c])
    };
    for i in 0..sides {
        m.triangle(ring(i), ring(i + 1), apex, color);
    }
}

/// Every part's mesh at every level, part by part and, within a part,
/// level by level: the order of [`SceneView`](super::view::SceneView)'s
/// batches (index `part * LEVELS + level`).
pub fn all_meshes() -> Vec<Mesh> {
    Part::ALL.iter().flat_map(|&p| (0..LEVELS).map(move |l| mesh_at(p, l))).collect()
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

#[cfg(test)]
mod lod_tests {
    use super::*;

    /// How far an ellipsoid of largest semi-axis `r` cut into `cut`
    /// (slices, stacks), widened as [`solid`] widens it, departs from the
    /// smooth one: outwards at its corners by `k - 1`, inwards at the
    /// middle of its edges by `1 - k cos(pi / n)` (of `r`), around (an
    /// `n = slices`-gon) and pole to pole (`n = 2 stacks`).
    fn ellipsoid(r: f32, cut: (u32, u32), full: (u32, u32)) -> f32 {
        if cut.0 == 0 {
            return r; // left out
        }
        let dev = |n: u32, f: u32| {
            let k = area_match(n, f);
            (k - 1.0).max(1.0 - k * (std::f32::consts::PI / n as f32).cos())
        };
        r * dev(cut.0, full.0).max(dev(2 * cut.1, 2 * full.1))
    }

    #[test]
    fn the_thresholds_keep_each_level_within_half_a_pixel() {
        for level in 1..LEVELS {
            let d = &DETAIL[level];
            let parts = [
                ellipsoid(0.34, d.body, FULL.body),
                ellipsoid(0.19, d.head, FULL.head),
                ellipsoid(0.22, d.wing, FULL.wing),
                ellipsoid(0.05, d.eye, FULL.eye),
                ellipsoid(0.026, d.pupil, FULL.pupil),
            ];
            let worst = parts.iter().cloned().fold(0.0, f32::max) / ACTOR_RADIUS;
            let stated = LOD_DEVIATION[level - 1];
            assert!(worst <= stated && worst > stated - 0.002, "level {level}: {worst} against {stated}");
            assert!(LOD_RADIUS_PX[level - 1] * stated <= 0.5, "level {level}");
            // Each level has fewer triangles than the one before.
            let tris = |l: usize| Part::ALL.iter().map(|&p| mesh_at(p, l).triangles() * p.per_actor()).sum::<usize>();
            assert!(tris(level) < tris(level - 1));
        }
        assert!(LOD_RADIUS_PX.windows(2).all(|w| w[0] > w[1]), "{LOD_RADIUS_PX:?}");
    }

    #[test]
    fn the_coarse_foot_faces_outwards() {
        let m = mesh_at(Part::Foot, LEVELS - 1);
        assert_eq!(m.triangles(), 4);
        for t in m.vertices.chunks(3) {
            let c = [0, 1, 2].map(|i| (t[0].pos[i] + t[1].pos[i] + t[2].pos[i]) / 3.0);
            let out = [c[0], c[1] - 0.015, c[2] - 0.06];
            let n = t[0].normal;
            assert!(n[0] * out[0] + n[1] * out[1] + n[2] * out[2] > 0.0, "{t:?}");
        }
    }

    #[test]
    fn the_coarser_levels_lie_within_the_full_meshes_bounds() {
        for part in Part::ALL {
            let r = |l: usize| {
                mesh_at(part, l)
                    .vertices
                    .iter()
                    .map(|v| v.pos.iter().map(|x| x * x).sum::<f32>())
                    .fold(0.0, f32::max)
                    .sqrt()
            };
            for l in 1..LEVELS {
                assert!(r(l) <= r(0) * 1.15, "{part:?} level {l}: {} against {}", r(l), r(0));
            }
        }
    }
}
