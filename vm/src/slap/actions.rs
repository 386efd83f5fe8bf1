//! The twelve actions of a SLAP actor: name, forward speed, cycle length and
//! pose.
//!
//! An action moves its actor along its heading at a constant speed (units
//! per frame at size 1, scaled by the actor's size; zero for `idle`, `no`,
//! `yes` and `hotfeet`) and animates a cyclic [`Pose`], a function of the
//! frames since the action started. Speeds are binary fractions (1/32,
//! 3/64, ...) so that hand-computed positions come out as short decimals.
//!
//! | # | name | speed | cycle | pose |
//! | --- | --- | --- | --- | --- |
//! | 0 | idle | 0 | 90 | breathes: the body rises and falls a little, the head with it |
//! | 1 | scamper | 1/16 | 12 | quick short steps, slight forward lean |
//! | 2 | swagger | 1/32 | 32 | a walk: legs swing, the body rolls side to side, the head sways |
//! | 3 | broadjump | 3/32 | 36 | a crouch, a long high arc with legs forward and wings up, a landing crouch |
//! | 4 | prowl | 1/64 | 48 | crouched low and leaning forward, head up, slow careful steps |
//! | 5 | lumber | 3/128 | 44 | slow heavy steps with a big side-to-side sway, head low |
//! | 6 | dejected | 1/128 | 56 | head drooped, slouched, shuffling feet |
//! | 7 | no | 0 | 20 | shakes the head (yaw) |
//! | 8 | yes | 0 | 20 | nods (head pitch) |
//! | 9 | hotfeet | 0 | 8 | stamps in place, feet in turn, wings flapping |
//! | 10 | sprint | 1/8 | 14 | a run: wide fast leg swings, high knees, strong forward lean |
//! | 11 | hop | 3/64 | 20 | small arcs with both feet together |
//!
//! ```
//! use animkit_vm::engine::slap::actions::Action;
//! let swagger = Action::from_index(2).unwrap();
//! assert_eq!((swagger.name(), swagger.speed(), swagger.cycle()), ("swagger", 1.0 / 32.0, 32));
//! // The pose is cyclic.
//! assert_eq!(swagger.pose(5), swagger.pose(5 + 32));
//! assert_eq!(Action::from_name("hop"), Some(Action::Hop));
//! ```

use std::f64::consts::PI;
use std::sync::OnceLock;

/// One of the twelve actions, numbered as SLAP scripts number them.
#[repr(u8)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// 0: stands still, breathing.
    #[default]
    Idle = 0,
    /// 1: quick short steps.
    Scamper,
    /// 2: a swaggering walk.
    Swagger,
    /// 3: long jumps.
    Broadjump,
    /// 4: crouched, creeping.
    Prowl,
    /// 5: slow heavy walk.
    Lumber,
    /// 6: drooping shuffle.
    Dejected,
    /// 7: shakes the head, standing.
    No,
    /// 8: nods, standing.
    Yes,
    /// 9: stamps in place.
    Hotfeet,
    /// 10: runs.
    Sprint,
    /// 11: small hops.
    Hop,
}

/// One row of the action table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ActionInfo {
    /// The action.
    pub action: Action,
    /// Its name, as scripts define it (`define swagger 2`).
    pub name: &'static str,
    /// Forward speed in units per frame at size 1.
    pub speed: f64,
    /// Length of the pose cycle in frames.
    pub cycle: u32,
}

const fn row(action: Action, name: &'static str, speed: f64, cycle: u32) -> ActionInfo {
    ActionInfo { action, name, speed, cycle }
}

/// The action table, indexed by action number.
///
/// ```
/// use animkit_vm::engine::slap::actions::{Action, ACTIONS};
/// assert_eq!(ACTIONS.len(), 12);
/// assert!(ACTIONS.iter().enumerate().all(|(i, row)| row.action as usize == i));
/// assert_eq!(ACTIONS[Action::Sprint as usize].speed, 0.125);
/// ```
pub const ACTIONS: [ActionInfo; 12] = [
    row(Action::Idle, "idle", 0.0, 90),
    row(Action::Scamper, "scamper", 1.0 / 16.0, 12),
    row(Action::Swagger, "swagger", 1.0 / 32.0, 32),
    row(Action::Broadjump, "broadjump", 3.0 / 32.0, 36),
    row(Action::Prowl, "prowl", 1.0 / 64.0, 48),
    row(Action::Lumber, "lumber", 3.0 / 128.0, 44),
    row(Action::Dejected, "dejected", 1.0 / 128.0, 56),
    row(Action::No, "no", 0.0, 20),
    row(Action::Yes, "yes", 0.0, 20),
    row(Action::Hotfeet, "hotfeet", 0.0, 8),
    row(Action::Sprint, "sprint", 1.0 / 8.0, 14),
    row(Action::Hop, "hop", 3.0 / 64.0, 20),
];

impl Action {
    /// Every action, by number.
    pub const ALL: [Action; 12] = [
        Action::Idle,
        Action::Scamper,
        Action::Swagger,
        Action::Broadjump,
        Action::Prowl,
        Action::Lumber,
        Action::Dejected,
        Action::No,
        Action::Yes,
        Action::Hotfeet,
        Action::Sprint,
        Action::Hop,
    ];

    /// The action numbered `index` (`0..=11`).
    ///
    /// ```
    /// use animkit_vm::engine::slap::actions::Action;
    /// assert_eq!(Action::from_index(11), Some(Action::Hop));
    /// assert_eq!(Action::from_index(12), None);
    /// ```
    pub const fn from_index(index: u32) -> Option<Action> {
        if index < Action::ALL.len() as u32 { Some(Action::ALL[index as usize]) } else { None }
    }

    /// The action named `name` (as in the table; case-sensitive).
    ///
    /// ```
    /// use animkit_vm::engine::slap::actions::Action;
    /// assert_eq!(Action::from_name("broadjump"), Some(Action::Broadjump));
    /// assert_eq!(Action::from_name("Hop"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Action> {
        ACTIONS.iter().find(|row| row.name == name).map(|row| row.action)
    }

    /// The action's row of [`ACTIONS`].
    pub const fn info(self) -> &'static ActionInfo {
        &ACTIONS[self as usize]
    }

    /// Its name.
    ///
    /// ```
    /// assert_eq!(animkit_vm::engine::slap::actions::Action::Yes.name(), "yes");
    /// ```
    pub const fn name(self) -> &'static str {
        self.info().name
    }

    /// Forward speed, units per frame at size 1.
    ///
    /// ```
    /// use animkit_vm::engine::slap::actions::Action;
    /// assert_eq!(Action::Hotfeet.speed(), 0.0);
    /// ```
    pub const fn speed(self) -> f64 {
        self.info().speed
    }

    /// Pose cycle length in frames.
    ///
    /// ```
    /// assert_eq!(animkit_vm::engine::slap::actions::Action::Hotfeet.cycle(), 8);
    /// ```
    pub const fn cycle(self) -> u32 {
        self.info().cycle
    }

    /// The pose `frames` frames after the action started (cyclic: frame
    /// `cycle()` looks like frame 0). A table lookup: every pose of every
    /// cycle is computed once, the first time any is asked for.
    ///
    /// ```
    /// use animkit_vm::engine::slap::actions::Action;
    /// let nod = Action::Yes;
    /// assert_eq!(nod.pose(0).head_pitch, 0.0);
    /// assert!(nod.pose(5).head_pitch > 0.3);  // a quarter cycle in: head up
    /// assert!(nod.pose(15).head_pitch < -0.3); // three quarters: head down
    /// ```
    #[inline]
    pub fn pose(self, frames: u64) -> Pose {
        PoseTable::get().pose(self, frames)
    }

    /// The whole cycle of poses, one per frame.
    ///
    /// ```
    /// use animkit_vm::engine::slap::actions::Action;
    /// assert_eq!(Action::Sprint.poses().len(), 14);
    /// ```
    pub fn poses(self) -> &'static [Pose] {
        PoseTable::get().cycle(self)
    }
}

/// An actor's pose: joint angles (radians) and offsets (units at size 1,
/// scaled with the actor when drawn), relative to standing still. Plain
/// data for the 3D drawing; not part of a trace.
///
/// Conventions (the actor's own frame: forward along its heading, up +y):
/// - `body_height`: the body's rise above standing height; positive in the
///   air (hops, jumps, the bob of a run), negative when crouching.
/// - `body_pitch`: positive leans the body forward; `body_roll`: positive
///   tilts it towards the actor's right.
/// - `head_pitch`: positive raises the head, negative droops it;
///   `head_yaw`: positive turns it towards the actor's left (the way a
///   growing `direction` turns the body).
/// - `leg_swing_*`: each leg's angle at the hip, positive forward;
///   `leg_lift_*`: each foot's height above the ground.
/// - `leg_tuck`: how far both legs fold at the knee, 0 (straight from hip
///   to ankle, as standing legs are drawn) to 1 (thigh and shank each at
///   half the leg's length, the knee bent as far as that needs); non-zero
///   only in the air, in `broadjump` and `hop`, where the feet are drawn up
///   under the body in proportion to its height.
/// - `wing_lift`: both wings' angle from folded, positive up.
///
/// ```
/// use animkit_vm::engine::slap::actions::{Action, Pose};
/// assert_eq!(Pose::default().body_height, 0.0);
/// // Prowling keeps low all the way through its cycle.
/// assert!(Action::Prowl.poses().iter().all(|p| p.body_height < -0.2));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pose {
    /// Body rise above standing height.
    pub body_height: f32,
    /// Forward lean of the body.
    pub body_pitch: f32,
    /// Sideways tilt of the body, positive to the actor's right.
    pub body_roll: f32,
    /// Head up (positive) or down (negative), relative to the body.
    pub head_pitch: f32,
    /// Head turned left (positive) or right, relative to the body.
    pub head_yaw: f32,
    /// Left leg's angle at the hip, positive forward.
    pub leg_swing_left: f32,
    /// Right leg's angle at the hip, positive forward.
    pub leg_swing_right: f32,
    /// Left foot's height above the ground.
    pub leg_lift_left: f32,
    /// Right foot's height above the ground.
    pub leg_lift_right: f32,
    /// How far both legs fold at the knee (0 straight, 1 at their length).
    pub leg_tuck: f32,
    /// Wings raised from folded.
    pub wing_lift: f32,
}

/// Every pose of every action's cycle, computed once.
#[derive(Debug)]
pub(crate) struct PoseTable {
    poses: Vec<Pose>,
    /// Index of each action's first pose in `poses`.
    start: [u32; 12],
}

impl PoseTable {
    pub(crate) fn get() -> &'static PoseTable {
        static TABLE: OnceLock<PoseTable> = OnceLock::new();
        TABLE.get_or_init(|| {
            let mut poses = Vec::new();
            let mut start = [0u32; 12];
            for action in Action::ALL {
                start[action as usize] = poses.len() as u32;
                poses.extend((0..action.cycle()).map(|k| compute(action, k)));
            }
            PoseTable { poses, start }
        })
    }

    fn cycle(&self, action: Action) -> &[Pose] {
        let start = self.start[action as usize] as usize;
        &self.poses[start..start + action.cycle() as usize]
    }

    #[inline]
    pub(crate) fn pose(&self, action: Action, frames: u64) -> Pose {
        let cycle = action.cycle();
        // A u32 remainder is several times cheaper than a u64 one; frames
        // since an action started fit 32 bits in any scene the compiler makes.
        let k = match u32::try_from(frames) {
            Ok(f) => f % cycle,
            Err(_) => (frames % cycle as u64) as u32,
        };
        self.poses[(self.start[action as usize] + k) as usize]
    }
}

/// How far an airborne actor's feet rise for each unit its body does
/// (`broadjump`, `hop`): more than 1, so that the legs fold under it.
const TUCK_RISE: f64 = 1.3;

/// The pose `k` frames into `action`'s cycle (`k < cycle`).
fn compute(action: Action, k: u32) -> Pose {
    let t = k as f64 / action.cycle() as f64;
    let (s, c) = (2.0 * PI * t).sin_cos();
    // Half-cycle arc 0 -> 1 -> 0 over the whole cycle (hops).
    let arc = (PI * t).sin();
    let mut p = PoseF64::default();
    // A walk with swing amplitude `swing`, foot lift `lift` and body bob
    // `bob`: the legs in opposite phase, each foot lifted while its leg
    // swings forward, the body highest twice a stride.
    let walk = |p: &mut PoseF64, swing: f64, lift: f64, bob: f64| {
        p.leg_swing_left = swing * s;
        p.leg_swing_right = -swing * s;
        p.leg_lift_left = lift * c.max(0.0);
        p.leg_lift_right = lift * (-c).max(0.0);
        p.body_height += bob * (2.0 * PI * 2.0 * t).cos().abs();
    };
    // In the air (`body_height` > 0, `amount` 0 on the ground to 1 at the
    // top): both feet drawn up under the body, rising `TUCK_RISE` times as
    // far as it does, and the knees bending as far as `amount`.
    let tuck = |p: &mut PoseF64, amount: f64| {
        p.leg_lift_left = TUCK_RISE * p.body_height;
        p.leg_lift_right = p.leg_lift_left;
        p.leg_tuck = amount;
    };
    match action {
        Action::Idle => {
            p.body_height = 0.012 * s;
            p.head_pitch = 0.03 * s;
        }
        Action::Scamper => {
            walk(&mut p, 0.5, 0.06, 0.02);
            p.body_pitch = 0.15;
        }
        Action::Swagger => {
            walk(&mut p, 0.45, 0.08, 0.015);
            p.body_roll = 0.12 * s;
            p.head_yaw = 0.1 * s;
        }
        Action::Broadjump => {
            // Crouch for the first fifth, fly until nine tenths, land.
            if t < 0.2 {
                p.body_height = -0.15 * (PI * t / 0.2).sin();
                p.body_pitch = 0.3 * (PI * t / 0.2).sin();
                p.leg_swing_left = -0.3 * (PI * t / 0.2).sin();
            } else if t < 0.9 {
                let air = (PI * (t - 0.2) / 0.7).sin();
                p.body_height = 0.7 * air;
                p.body_pitch = 0.1 * air;
                p.leg_swing_left = 0.25 * air;
                tuck(&mut p, air);
                p.wing_lift = 0.9 * air;
            } else {
                p.body_height = -0.1 * (PI * (t - 0.9) / 0.1).sin();
                p.body_pitch = 0.2 * (PI * (t - 0.9) / 0.1).sin();
            }
            p.leg_swing_right = p.leg_swing_left;
            p.leg_lift_right = p.leg_lift_left;
        }
        Action::Prowl => {
            walk(&mut p, 0.3, 0.04, 0.0);
            p.body_height = -0.25 + 0.01 * s;
            p.body_pitch = 0.3;
            p.head_pitch = 0.15;
        }
        Action::Lumber => {
            walk(&mut p, 0.35, 0.05, 0.0);
            p.body_height = -0.03 * s.abs();
            p.body_roll = 0.25 * s;
            p.head_pitch = -0.1;
        }
        Action::Dejected => {
            walk(&mut p, 0.15, 0.01, 0.0);
            p.body_height = -0.05;
            p.body_pitch = 0.2;
            p.head_pitch = -0.6 + 0.03 * s;
        }
        Action::No => p.head_yaw = 0.5 * s,
        Action::Yes => p.head_pitch = 0.35 * s,
        Action::Hotfeet => {
            p.leg_lift_left = 0.15 * s.max(0.0);
            p.leg_lift_right = 0.15 * (-s).max(0.0);
            p.body_height = 0.03 * s.abs();
            p.wing_lift = 0.4 * s.abs();
        }
        Action::Sprint => {
            walk(&mut p, 0.9, 0.2, 0.05);
            p.body_pitch = 0.35;
            p.wing_lift = 0.3;
        }
        Action::Hop => {
            p.body_height = 0.3 * arc;
            p.leg_swing_left = 0.2 * arc;
            p.leg_swing_right = 0.2 * arc;
            tuck(&mut p, arc);
            p.wing_lift = 0.5 * arc;
        }
    }
    p.narrow()
}

/// [`Pose`] in f64 while it is being computed.
#[derive(Default)]
struct PoseF64 {
    body_height: f64,
    body_pitch: f64,
    body_roll: f64,
    head_pitch: f64,
    head_yaw: f64,
    leg_swing_left: f64,
    leg_swing_right: f64,
    leg_lift_left: f64,
    leg_lift_right: f64,
    leg_tuck: f64,
    wing_lift: f64,
}

impl PoseF64 {
    fn narrow(&self) -> Pose {
        Pose {
            body_height: self.body_height as f32,
            body_pitch: self.body_pitch as f32,
            body_roll: self.body_roll as f32,
            head_pitch: self.head_pitch as f32,
            head_yaw: self.head_yaw as f32,
            leg_swing_left: self.leg_swing_left as f32,
            leg_swing_right: self.leg_swing_right as f32,
            leg_lift_left: self.leg_lift_left as f32,
            leg_lift_right: self.leg_lift_right as f32,
            leg_tuck: self.leg_tuck as f32,
            wing_lift: self.wing_lift as f32,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn max(action: Action, f: impl Fn(&Pose) -> f32) -> f32 {
        action.poses().iter().map(f).fold(f32::MIN, f32::max)
    }

    fn min(action: Action, f: impl Fn(&Pose) -> f32) -> f32 {
        action.poses().iter().map(f).fold(f32::MAX, f32::min)
    }

    #[test]
    fn the_isa_window_knows_the_last_action() {
        assert_eq!(crate::isa::Op::Action.info().block[1], crate::isa::Arg::Max(ACTIONS.len() as u32 - 1));
    }

    #[test]
    fn table_rows_are_in_order_and_named_as_scripts_name_them() {
        let names: Vec<&str> = ACTIONS.iter().map(|r| r.name).collect();
        let expected = "idle scamper swagger broadjump prowl lumber dejected no yes hotfeet sprint hop"
            .split(' ')
            .collect::<Vec<_>>();
        assert_eq!(names, expected);
        for (i, row) in ACTIONS.iter().enumerate() {
            assert_eq!(row.action as usize, i);
            assert_eq!(Action::from_index(i as u32), Some(row.action));
            assert!(row.cycle >= 2, "{}", row.name);
        }
    }

    #[test]
    fn standing_actions_do_not_move() {
        for a in Action::ALL {
            let standing = matches!(a, Action::Idle | Action::No | Action::Yes | Action::Hotfeet);
            assert_eq!(a.speed() == 0.0, standing, "{}", a.name());
        }
        assert!(Action::Sprint.speed() > Action::Scamper.speed());
        assert!(Action::Scamper.speed() > Action::Swagger.speed());
        assert!(Action::Swagger.speed() > Action::Dejected.speed());
    }

    #[test]
    fn poses_are_cyclic_and_finite() {
        for a in Action::ALL {
            let n = a.cycle() as u64;
            for k in 0..n {
                assert_eq!(a.pose(k), a.pose(k + n), "{}", a.name());
                assert_eq!(a.pose(k), a.pose(k + 1_000_000 * n), "{}", a.name());
                assert_eq!(a.pose(k), a.pose(k + (1 << 40) * n), "{}", a.name());
            }
            let p = format!("{:?}", a.poses());
            assert!(!p.contains("NaN") && !p.contains("inf"), "{p}");
        }
    }

    #[test]
    fn each_action_looks_different() {
        for a in Action::ALL {
            for b in Action::ALL {
                if a < b {
                    let n = a.cycle().max(b.cycle()) as u64;
                    assert!((0..n).any(|k| a.pose(k) != b.pose(k)), "{} and {}", a.name(), b.name());
                }
            }
        }
    }

    #[test]
    fn what_each_pose_does() {
        // Walks and runs swing the legs in opposite phase; runs swing more.
        for a in [Action::Scamper, Action::Swagger, Action::Prowl, Action::Lumber, Action::Dejected, Action::Sprint] {
            assert!(max(a, |p| p.leg_swing_left) > 0.1, "{}", a.name());
            assert!(a.poses().iter().all(|p| p.leg_swing_left == -p.leg_swing_right), "{}", a.name());
        }
        assert!(max(Action::Sprint, |p| p.leg_swing_left) > 1.8 * max(Action::Swagger, |p| p.leg_swing_left));
        assert!(min(Action::Sprint, |p| p.body_pitch) > max(Action::Swagger, |p| p.body_pitch));
        // Hops and jumps leave the ground in arcs; the jump goes higher.
        assert!(max(Action::Hop, |p| p.body_height) > 0.25);
        assert!(max(Action::Broadjump, |p| p.body_height) > 2.0 * max(Action::Hop, |p| p.body_height));
        assert_eq!(Action::Hop.pose(0).body_height, 0.0);
        // Yes nods, no shakes, and neither does the other.
        assert!(max(Action::Yes, |p| p.head_pitch) > 0.3 && min(Action::Yes, |p| p.head_pitch) < -0.3);
        assert!(Action::Yes.poses().iter().all(|p| p.head_yaw == 0.0));
        assert!(max(Action::No, |p| p.head_yaw) > 0.4 && min(Action::No, |p| p.head_yaw) < -0.4);
        assert!(Action::No.poses().iter().all(|p| p.head_pitch == 0.0));
        // Dejected droops; prowl crouches; lumber sways more than swagger.
        assert!(max(Action::Dejected, |p| p.head_pitch) < -0.5);
        assert!(max(Action::Prowl, |p| p.body_height) < -0.2);
        assert!(max(Action::Lumber, |p| p.body_roll) > 2.0 * max(Action::Swagger, |p| p.body_roll));
        // Hot feet stamps in place, one foot then the other.
        let stamps = Action::Hotfeet.poses();
        assert!(stamps.iter().all(|p| p.leg_lift_left == 0.0 || p.leg_lift_right == 0.0));
        assert!(max(Action::Hotfeet, |p| p.leg_lift_left) > 0.1 && max(Action::Hotfeet, |p| p.leg_lift_right) > 0.1);
        // In the air the jump and the hop tuck both legs up under the body:
        // the feet rise 1.3 times as far as it, the knees bend in
        // proportion to its height (fully at the top), and never on the
        // ground; no other action tucks.
        for (a, top) in [(Action::Broadjump, 0.7), (Action::Hop, 0.3)] {
            for p in a.poses() {
                assert_eq!(p.leg_lift_left, p.leg_lift_right);
                if p.body_height > 0.0 {
                    assert!((p.leg_lift_left - 1.3 * p.body_height).abs() < 1e-6, "{} {p:?}", a.name());
                    assert!((p.leg_tuck - p.body_height / top).abs() < 1e-6, "{} {p:?}", a.name());
                } else {
                    assert_eq!(p.leg_tuck, 0.0, "{} {p:?}", a.name());
                }
            }
            assert!(max(a, |p| p.leg_tuck) > 0.99, "{}", a.name());
            // Smoothly: no frame (nor the wrap to the next cycle) pops.
            let poses = a.poses();
            for (k, p) in poses.iter().enumerate() {
                let next = &poses[(k + 1) % poses.len()];
                assert!((next.leg_tuck - p.leg_tuck).abs() < 0.2, "{} at {k}", a.name());
                assert!((next.leg_lift_left - p.leg_lift_left).abs() < 0.15, "{} at {k}", a.name());
            }
        }
        for a in Action::ALL.into_iter().filter(|a| !matches!(a, Action::Broadjump | Action::Hop)) {
            assert!(a.poses().iter().all(|p| p.leg_tuck == 0.0), "{}", a.name());
        }
        // Idle only breathes.
        assert!(max(Action::Idle, |p| p.body_height.abs()) < 0.02);
        assert!(Action::Idle.poses().iter().all(|p| p.leg_swing_left == 0.0 && p.leg_lift_left == 0.0));
    }
}
