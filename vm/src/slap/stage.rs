//! The state of a SLAP scene at one frame: its actors and its camera.
//!
//! # Actors
//! An actor exists from its first mention (any command naming its id) with
//! these defaults: position (0, 0, 0), direction 0, size 1, action idle
//! (its pose cycle starting at the frame of the first mention), colour
//! [`DEFAULT_COLOR`]. Actors are listed by id, ascending.
//!
//! # Motion
//! Direction is an absolute heading in radians about the vertical (y) axis:
//! forward is `(sin h, 0, cos h)`, so `0` faces the default camera (+z),
//! `PI/2` moves to the screen's right (+x) and `PI` away (-z). An actor
//! moves along its heading at its action's speed times its size, in closed
//! form from an *anchor* (a position and the frame it was taken at):
//!
//! ```text
//! velocity     = (speed * size * sin h, 0, speed * size * cos h)   (f64, left to right)
//! position(f)  = (ax + (f - af) * vx, ay, az + (f - af) * vz)
//! ```
//!
//! Every `action`, `direction`, `size` and `position` command re-anchors
//! the actor (even one that changes nothing): the anchor becomes its
//! position at the command's frame (for `position`, the new position), the
//! anchor frame that frame, and the velocity is recomputed. So a position
//! never accumulates per-frame rounding: it is one multiplication and one
//! addition per coordinate away from the last command. `color` does not
//! re-anchor. A 2-value `position x z` keeps the actor's y.
//!
//! A new action restarts its pose cycle at the command's frame; the same
//! action again keeps the cycle running.
//!
//! # Camera
//! A position and a look direction, both as given (`camera direction x y z`
//! is not normalised); the angles form stores the unit vector
//! [`Camera::look`] computes. Without camera commands the scene is seen by
//! [`Camera::DEFAULT`].
//!
//! ```
//! use animkit_vm::slap::{Action, Stage};
//! let mut stage = Stage::new();
//! stage.set_action(1, Action::Swagger)?;           // frame 0: actor 1 appears, walking
//! stage.set_frame(500);
//! let a = stage.actor(1).unwrap();
//! assert_eq!(a.position, [0.0, 0.0, 500.0 / 32.0]); // towards the camera, 1/32 a frame
//! # Ok::<(), animkit_vm::slap::StageFull>(())
//! ```

use super::actions::{Action, Pose};
use crate::limits::MAX_SLAP_ACTORS;
use std::collections::BTreeMap;
use std::fmt;

/// An actor id: a whole number, as scripts write it.
pub type ActorId = u32;

/// The colour of an actor no `color` command has named (white).
pub const DEFAULT_COLOR: [f64; 3] = [1.0, 1.0, 1.0];

/// The camera: where it stands and where it looks.
///
/// ```
/// use animkit_vm::slap::Camera;
/// let c = Camera::default();
/// assert_eq!(c, Camera::DEFAULT);
/// // The default camera looks at the origin from the front, above the ground.
/// let at = [c.position[0] + 2.0 * c.direction[0], c.position[1] + 2.0 * c.direction[1], c.position[2] + 2.0 * c.direction[2]];
/// assert_eq!(at, [0.0, 0.0, 0.0]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// Position (y up).
    pub position: [f64; 3],
    /// Look direction: as given by `camera direction x y z` (any non-zero
    /// length), or the unit vector of `camera direction yaw pitch`. Up is
    /// always +y.
    pub direction: [f64; 3],
}

impl Camera {
    /// The camera of a scene without camera commands: 8 units in front of
    /// the origin (+z) and 2 above the ground, looking at the origin.
    pub const DEFAULT: Camera = Camera { position: [0.0, 2.0, 8.0], direction: [0.0, -1.0, -4.0] };

    /// The unit look vector of `camera direction yaw pitch`: yaw 0 looks
    /// along -z (into the scene from the default camera's side), positive
    /// yaw turns right towards +x; pitch 0 is level, positive looks up.
    ///
    /// `(sin yaw * cos pitch, sin pitch, -cos yaw * cos pitch)`
    ///
    /// ```
    /// use animkit_vm::slap::Camera;
    /// assert_eq!(Camera::look(0.0, 0.0), [0.0, 0.0, -1.0]);
    /// let right = Camera::look(std::f64::consts::FRAC_PI_2, 0.0);
    /// assert!((right[0] - 1.0).abs() < 1e-15 && right[2].abs() < 1e-15);
    /// ```
    pub fn look(yaw: f64, pitch: f64) -> [f64; 3] {
        let (sy, cy) = yaw.sin_cos();
        let (sp, cp) = pitch.sin_cos();
        [sy * cp, sp, -cy * cp]
    }
}

impl Default for Camera {
    fn default() -> Camera {
        Camera::DEFAULT
    }
}

/// What an observer sees of one actor at the stage's frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ActorState {
    /// The actor's id.
    pub id: ActorId,
    /// Its current action.
    pub action: Action,
    /// Position (y up), from the closed-form motion.
    pub position: [f64; 3],
    /// Heading in radians, as last given.
    pub direction: f64,
    /// Colour, as given (not clamped).
    pub color: [f64; 3],
    /// Size.
    pub size: f64,
    /// The action's pose at this frame.
    pub pose: Pose,
}

/// The stage refused to create one more actor: it holds
/// [`MAX_SLAP_ACTORS`] already.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StageFull {
    /// The id that would have been the extra actor.
    pub id: ActorId,
}

impl fmt::Display for StageFull {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "actor {} would be one more than the {MAX_SLAP_ACTORS} actors a scene may have", self.id)
    }
}

impl std::error::Error for StageFull {}

/// One actor's stored state: its last anchor and what it is doing.
#[derive(Clone, Copy, Debug)]
struct Actor {
    action: Action,
    /// Frame its action (and pose cycle) started.
    action_start: u64,
    anchor: [f64; 3],
    anchor_frame: u64,
    /// x and z velocity, units per frame.
    velocity: [f64; 2],
    direction: f64,
    color: [f64; 3],
    size: f64,
}

impl Actor {
    fn new(frame: u64) -> Actor {
        Actor {
            action: Action::Idle,
            action_start: frame,
            anchor: [0.0; 3],
            anchor_frame: frame,
            velocity: [0.0; 2],
            direction: 0.0,
            color: DEFAULT_COLOR,
            size: 1.0,
        }
    }

    #[inline]
    fn position(&self, frame: u64) -> [f64; 3] {
        // Exact for any frame below 2^53; a frame before the anchor (a stage
        // set back by hand) extrapolates backwards.
        let n = frame as f64 - self.anchor_frame as f64;
        [self.anchor[0] + n * self.velocity[0], self.anchor[1], self.anchor[2] + n * self.velocity[1]]
    }

    /// Takes the anchor at `frame`; `change` then alters the actor, and the
    /// velocity is recomputed.
    fn reanchor(&mut self, frame: u64, change: impl FnOnce(&mut Actor)) {
        self.anchor = self.position(frame);
        self.anchor_frame = frame;
        change(self);
        let k = self.action.speed() * self.size;
        let (s, c) = self.direction.sin_cos();
        self.velocity = [k * s, k * c];
    }

    #[inline]
    fn state(&self, id: ActorId, frame: u64) -> ActorState {
        ActorState {
            id,
            action: self.action,
            position: self.position(frame),
            direction: self.direction,
            color: self.color,
            size: self.size,
            pose: self.action.pose(frame.saturating_sub(self.action_start)),
        }
    }
}

/// Actors and camera at the current frame. Commands change it at the
/// current frame; observers read it at the current frame, computing
/// positions and poses in closed form (no per-frame update of any actor).
///
/// Setters take values a scene has already checked (the SLAP domain ops
/// check what the bytecode computed: see `crate::slap::domain`); they never
/// panic, whatever the values.
#[derive(Clone, Debug, Default)]
pub struct Stage {
    frame: u64,
    actors: BTreeMap<ActorId, Actor>,
    camera: Camera,
}

impl Stage {
    /// An empty stage at frame 0 with the default camera.
    pub fn new() -> Stage {
        Stage::default()
    }

    /// The current frame.
    pub fn frame(&self) -> u64 {
        self.frame
    }

    /// Moves the stage to `frame`: nothing is computed until it is
    /// observed. (A scene only moves forward, or back to 0 by starting
    /// over.)
    pub fn set_frame(&mut self, frame: u64) {
        self.frame = frame;
    }

    /// Number of actors.
    pub fn len(&self) -> usize {
        self.actors.len()
    }

    /// True before the first actor is mentioned.
    pub fn is_empty(&self) -> bool {
        self.actors.is_empty()
    }

    /// The camera.
    pub fn camera(&self) -> Camera {
        self.camera
    }

    /// The actor `id` at the current frame, if it was mentioned.
    pub fn actor(&self, id: ActorId) -> Option<ActorState> {
        self.actors.get(&id).map(|a| a.state(id, self.frame))
    }

    /// Every actor at the current frame, by id. Allocates nothing.
    ///
    /// ```
    /// use animkit_vm::slap::Stage;
    /// let mut stage = Stage::new();
    /// stage.set_size(7, 0.5)?;
    /// stage.set_size(2, 2.0)?;
    /// let ids: Vec<u32> = stage.actors().map(|a| a.id).collect();
    /// assert_eq!(ids, [2, 7]);
    /// # Ok::<(), animkit_vm::slap::StageFull>(())
    /// ```
    pub fn actors(&self) -> ActorStates<'_> {
        ActorStates { inner: self.actors.iter(), frame: self.frame }
    }

    /// The actor `id`, created with the defaults at the current frame on
    /// its first mention.
    fn mention(&mut self, id: ActorId) -> Result<&mut Actor, StageFull> {
        let frame = self.frame;
        let full = self.actors.len() >= MAX_SLAP_ACTORS;
        match self.actors.entry(id) {
            std::collections::btree_map::Entry::Occupied(e) => Ok(e.into_mut()),
            std::collections::btree_map::Entry::Vacant(_) if full => Err(StageFull { id }),
            std::collections::btree_map::Entry::Vacant(e) => Ok(e.insert(Actor::new(frame))),
        }
    }

    /// `actor id action a`: re-anchors; a different action restarts the
    /// pose cycle, the same one keeps it.
    pub fn set_action(&mut self, id: ActorId, action: Action) -> Result<(), StageFull> {
        let frame = self.frame;
        self.mention(id)?.reanchor(frame, |a| {
            if a.action != action {
                a.action = action;
                a.action_start = frame;
            }
        });
        Ok(())
    }

    /// `actor id direction radians`: turns instantly; re-anchors.
    pub fn set_direction(&mut self, id: ActorId, radians: f64) -> Result<(), StageFull> {
        let frame = self.frame;
        self.mention(id)?.reanchor(frame, |a| a.direction = radians);
        Ok(())
    }

    /// `actor id position x z` (`y` is `None`: the actor keeps its y) or
    /// `actor id position x y z`: teleports; motion goes on from there.
    pub fn set_position(&mut self, id: ActorId, x: f64, y: Option<f64>, z: f64) -> Result<(), StageFull> {
        let frame = self.frame;
        self.mention(id)?.reanchor(frame, |a| {
            a.anchor = [x, y.unwrap_or(a.anchor[1]), z];
        });
        Ok(())
    }

    /// `actor id color r g b`.
    pub fn set_color(&mut self, id: ActorId, rgb: [f64; 3]) -> Result<(), StageFull> {
        self.mention(id)?.color = rgb;
        Ok(())
    }

    /// `actor id size s`: scales the actor and its speed; re-anchors.
    pub fn set_size(&mut self, id: ActorId, size: f64) -> Result<(), StageFull> {
        let frame = self.frame;
        self.mention(id)?.reanchor(frame, |a| a.size = size);
        Ok(())
    }

    /// `camera position x y z`.
    pub fn set_camera_position(&mut self, position: [f64; 3]) {
        self.camera.position = position;
    }

    /// `camera direction x y z` (stored as given) or, through
    /// [`Camera::look`], `camera direction yaw pitch`.
    pub fn set_camera_direction(&mut self, direction: [f64; 3]) {
        self.camera.direction = direction;
    }
}

/// The actors of a [`Stage`] at its frame, by id ([`Stage::actors`]).
#[derive(Clone, Debug)]
pub struct ActorStates<'a> {
    inner: std::collections::btree_map::Iter<'a, ActorId, Actor>,
    frame: u64,
}

impl Iterator for ActorStates<'_> {
    type Item = ActorState;

    #[inline]
    fn next(&mut self) -> Option<ActorState> {
        self.inner.next().map(|(&id, a)| a.state(id, self.frame))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl ExactSizeIterator for ActorStates<'_> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_at_the_first_mention() {
        let mut s = Stage::new();
        s.set_frame(40);
        s.set_color(3, [0.5, 0.25, 0.0]).unwrap();
        s.set_frame(45);
        let a = s.actor(3).unwrap();
        assert_eq!(
            a,
            ActorState {
                id: 3,
                action: Action::Idle,
                position: [0.0; 3],
                direction: 0.0,
                color: [0.5, 0.25, 0.0],
                size: 1.0,
                pose: Action::Idle.pose(5),
            }
        );
        assert_eq!(s.actor(4), None);
    }

    #[test]
    fn velocity_is_speed_times_size_along_the_heading() {
        let mut s = Stage::new();
        s.set_size(1, 0.9).unwrap();
        s.set_direction(1, 1.0).unwrap();
        s.set_action(1, Action::Sprint).unwrap();
        s.set_frame(1000);
        let k = 0.125 * 0.9;
        let expected = [1000.0 * (k * 1.0f64.sin()), 0.0, 1000.0 * (k * 1.0f64.cos())];
        assert_eq!(s.actor(1).unwrap().position, expected);
    }

    #[test]
    fn a_two_value_position_keeps_y() {
        let mut s = Stage::new();
        s.set_position(1, 1.0, Some(2.0), 3.0).unwrap();
        s.set_position(1, 4.0, None, 5.0).unwrap();
        assert_eq!(s.actor(1).unwrap().position, [4.0, 2.0, 5.0]);
        s.set_position(2, 4.0, None, 5.0).unwrap();
        assert_eq!(s.actor(2).unwrap().position, [4.0, 0.0, 5.0]);
    }

    #[test]
    fn the_stage_holds_at_most_max_slap_actors() {
        let mut s = Stage::new();
        for id in 0..MAX_SLAP_ACTORS as u32 {
            s.set_color(id, [0.0; 3]).unwrap();
        }
        let extra = MAX_SLAP_ACTORS as u32;
        assert_eq!(s.set_size(extra, 1.0), Err(StageFull { id: extra }));
        assert_eq!(
            StageFull { id: extra }.to_string(),
            "actor 1048576 would be one more than the 1048576 actors a scene may have"
        );
        // Existing actors still take commands.
        assert_eq!(s.set_size(5, 2.0), Ok(()));
        assert_eq!(s.len(), MAX_SLAP_ACTORS);
    }
}
