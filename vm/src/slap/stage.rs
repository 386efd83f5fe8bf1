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
//! [`Camera::look`] computes, `camera lookat x y z` the vector from the
//! position to the point. Without camera commands the scene is seen by
//! [`Camera::DEFAULT`].
//!
//! `camera follow id distance height` makes the camera a function of the
//! actor's closed-form state ([`Follow::camera`]), evaluated whenever it is
//! observed, until the next camera command: that command first freezes the
//! camera where the follow has it at its frame, then changes it. So a
//! followed scene costs nothing per frame either. `camera move x y z over
//! n` is the same kind of span ([`Move::position`]): the position slides
//! from where the camera stands to the point in `n` frames, in closed form.
//!
//! The stage is what a [`SceneSim`](crate::slap::SceneSim) shows at its current
//! frame; only the scene's commands change it.
//!
//! ```
//! use std::sync::Arc;
//! use animkit_vm::engine::isa::Op;
//! use animkit_vm::engine::slap::{SceneAsm, SceneSim};
//! let mut asm = SceneAsm::new();
//! asm.op(Op::Action, &[1.0, 2.0]); // frame 0: actor 1 appears, swaggering
//! let mut scene = SceneSim::with_index(Arc::new(asm.finish("s")?), 0)?;
//! scene.seek(500);
//! let stage = scene.stage();
//! assert_eq!(stage.frame(), 500);
//! // Towards the camera (+z), 1/32 of a unit a frame.
//! assert_eq!(stage.actor(1).unwrap().position, [0.0, 0.0, 500.0 / 32.0]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::actions::{Action, Pose, PoseTable};
use crate::limits::MAX_SLAP_ACTORS;
use std::collections::HashMap;
use std::fmt;

/// An actor id: a whole number, as scripts write it.
pub type ActorId = u32;

/// The colour of an actor no `color` command has named (white).
pub const DEFAULT_COLOR: [f64; 3] = [1.0, 1.0, 1.0];

/// The camera: where it stands and where it looks.
///
/// ```
/// use animkit_vm::engine::slap::Camera;
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
    /// use animkit_vm::engine::slap::Camera;
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

/// A camera following an actor (`camera follow ID DISTANCE HEIGHT`):
/// `distance` behind it along its heading, `height` above its position,
/// looking at its position.
///
/// ```
/// use animkit_vm::engine::slap::{Camera, Follow};
/// let f = Follow { id: 1, distance: 6.0, height: 2.0 };
/// // An actor at (1, 0, 2) facing +z (heading 0): the camera stands 6 behind (-z), 2 up.
/// let c = f.camera([1.0, 0.0, 2.0], 0.0);
/// assert_eq!(c, Camera { position: [1.0, 2.0, -4.0], direction: [0.0, -2.0, 6.0] });
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Follow {
    /// The followed actor.
    pub id: ActorId,
    /// How far behind it, along its heading (negative: in front of it).
    pub distance: f64,
    /// How far above its position.
    pub height: f64,
}

impl Follow {
    /// The camera for an actor at `position` with heading `direction`:
    /// with `(s, c) = direction.sin_cos()` and `d = distance`,
    ///
    /// ```text
    /// position  = (x - d * s, y + height, z - d * c)
    /// direction = (d * s, -height, d * c)
    /// ```
    ///
    /// (each an IEEE `f64` operation, in this order).
    pub fn camera(&self, position: [f64; 3], direction: f64) -> Camera {
        let (s, c) = direction.sin_cos();
        let d = self.distance;
        let (ds, dc) = (d * s, d * c);
        Camera {
            position: [position[0] - ds, position[1] + self.height, position[2] - dc],
            direction: [ds, -self.height, dc],
        }
    }
}

/// A camera sliding to a point (`camera move X Y Z over N`): from `from`
/// at frame `start` to `to` at frame `start + frames`, the look vector
/// unchanged.
///
/// ```
/// use animkit_vm::engine::slap::Move;
/// let m = Move { from: [0.0, 2.0, 8.0], to: [4.0, 2.0, 0.0], start: 10, frames: 4 };
/// assert_eq!(m.position(10), [0.0, 2.0, 8.0]);
/// assert_eq!(m.position(11), [1.0, 2.0, 6.0]);
/// assert_eq!(m.position(14), [4.0, 2.0, 0.0]);
/// assert_eq!(m.position(99), [4.0, 2.0, 0.0]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Move {
    /// Where the camera stood at the command.
    pub from: [f64; 3],
    /// The point it moves to.
    pub to: [f64; 3],
    /// The command's frame.
    pub start: u64,
    /// How many frames the move takes (at least 1).
    pub frames: u64,
}

impl Move {
    /// The position at `frame`: with `t = (frame - start) / frames` (an
    /// `f64` division of whole numbers), `from + (to - from) * t` per
    /// coordinate, each an IEEE `f64` operation in this order; exactly
    /// `to` from `start + frames` on.
    pub fn position(&self, frame: u64) -> [f64; 3] {
        let done = frame.saturating_sub(self.start);
        if done >= self.frames {
            return self.to;
        }
        let t = done as f64 / self.frames as f64;
        std::array::from_fn(|i| self.from[i] + (self.to[i] - self.from[i]) * t)
    }
}

/// What the camera does between camera commands.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
enum Span {
    /// Stays as the last command left it.
    #[default]
    Still,
    /// Follows an actor.
    Follow(Follow),
    /// Slides to a point.
    Move(Move),
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
    id: ActorId,
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
    fn new(id: ActorId, frame: u64) -> Actor {
        Actor {
            id,
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
        // Exact for any frame below 2^53.
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
    fn state(&self, frame: u64, poses: &PoseTable) -> ActorState {
        ActorState {
            id: self.id,
            action: self.action,
            position: self.position(frame),
            direction: self.direction,
            color: self.color,
            size: self.size,
            pose: poses.pose(self.action, frame.saturating_sub(self.action_start)),
        }
    }
}

/// Actors and camera at the current frame. Observers read it at the
/// current frame, computing positions and poses in closed form (no
/// per-frame update of any actor); only a [`SceneSim`](crate::slap::SceneSim)'s
/// commands change it.
///
/// The actors lie in one vector sorted by id, so observing them is one
/// pass over contiguous memory. An actor mentioned out of id order waits
/// in a side list until the scene has run its time points (one merge per
/// `seek`, however many time points it crossed), so no input makes
/// creating actors quadratic.
#[derive(Clone, Debug, Default)]
pub struct Stage {
    frame: u64,
    /// Sorted by id.
    actors: Vec<Actor>,
    /// Actors first mentioned out of id order since the last `settle`, and
    /// their index there by id.
    fresh: Vec<Actor>,
    fresh_index: HashMap<ActorId, usize>,
    camera: Camera,
    /// A follow or a move in force: then `camera` is computed from it.
    span: Span,
}

impl Stage {
    /// An empty stage at frame 0 with the default camera.
    pub(crate) fn new() -> Stage {
        Stage::default()
    }

    /// The current frame.
    pub fn frame(&self) -> u64 {
        self.frame
    }

    /// Moves the stage to `frame`: nothing is computed until it is observed.
    pub(crate) fn set_frame(&mut self, frame: u64) {
        self.frame = frame;
    }

    /// Number of actors.
    pub fn len(&self) -> usize {
        self.actors.len() + self.fresh.len()
    }

    /// True before the first actor is mentioned.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The camera at the current frame: as the last camera command left
    /// it, or, during a `camera follow`, where the follow has it now
    /// ([`Follow::camera`] of the actor's state at this frame).
    pub fn camera(&self) -> Camera {
        match self.span {
            Span::Still => self.camera,
            Span::Follow(f) => match self.anchor_of(f.id) {
                Some(a) => f.camera(a.position(self.frame), a.direction),
                // Not reachable: a follow is only taken of an actor on
                // the stage, and actors never leave it.
                None => self.camera,
            },
            Span::Move(m) => Camera { position: m.position(self.frame), direction: self.camera.direction },
        }
    }

    /// The follow in force, if the camera is following an actor.
    pub fn follow(&self) -> Option<Follow> {
        match self.span {
            Span::Follow(f) => Some(f),
            _ => None,
        }
    }

    /// The move in force, if the last camera command was a `camera move`
    /// (it stays in force, at its point, after its last frame).
    pub fn camera_move(&self) -> Option<Move> {
        match self.span {
            Span::Move(m) => Some(m),
            _ => None,
        }
    }

    fn anchor_of(&self, id: ActorId) -> Option<&Actor> {
        match self.actors.binary_search_by_key(&id, |a| a.id) {
            Ok(i) => Some(&self.actors[i]),
            Err(_) => self.fresh_index.get(&id).map(|&i| &self.fresh[i]),
        }
    }

    /// True if actor `id` is on the stage (was mentioned).
    pub fn has_actor(&self, id: ActorId) -> bool {
        self.anchor_of(id).is_some()
    }

    /// The actor `id` at the current frame, if it was mentioned.
    pub fn actor(&self, id: ActorId) -> Option<ActorState> {
        let poses = PoseTable::get();
        match self.actors.binary_search_by_key(&id, |a| a.id) {
            Ok(i) => Some(self.actors[i].state(self.frame, poses)),
            Err(_) => self.fresh_index.get(&id).map(|&i| self.fresh[i].state(self.frame, poses)),
        }
    }

    /// Every actor at the current frame, by id. Allocates nothing.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use animkit_vm::engine::isa::Op;
    /// use animkit_vm::engine::slap::{SceneAsm, SceneSim};
    /// let mut asm = SceneAsm::new();
    /// asm.op(Op::Size, &[7.0, 0.5]).op(Op::Size, &[2.0, 2.0]);
    /// let scene = SceneSim::with_index(Arc::new(asm.finish("s")?), 0)?;
    /// let ids: Vec<u32> = scene.stage().actors().map(|a| a.id).collect();
    /// assert_eq!(ids, [2, 7]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn actors(&self) -> ActorStates<'_> {
        debug_assert!(self.fresh.is_empty(), "observed before settle");
        ActorStates { inner: self.actors.iter(), frame: self.frame, poses: PoseTable::get() }
    }

    /// Merges the actors first mentioned out of id order into the sorted
    /// list: O(actors + new log new), once per scene `seek`.
    pub(crate) fn settle(&mut self) {
        if self.fresh.is_empty() {
            return;
        }
        self.fresh.sort_unstable_by_key(|a| a.id);
        let old = std::mem::take(&mut self.actors);
        let mut merged = Vec::with_capacity(old.len() + self.fresh.len());
        let (mut i, mut j) = (0, 0);
        while i < old.len() && j < self.fresh.len() {
            // Ids are distinct: exactly one side is smaller.
            if old[i].id < self.fresh[j].id {
                merged.push(old[i]);
                i += 1;
            } else {
                merged.push(self.fresh[j]);
                j += 1;
            }
        }
        merged.extend_from_slice(&old[i..]);
        merged.extend_from_slice(&self.fresh[j..]);
        self.fresh.clear();
        self.actors = merged;
        self.fresh_index.clear();
    }

    /// The actor `id`, created with the defaults at the current frame on
    /// its first mention.
    fn mention(&mut self, id: ActorId) -> Result<&mut Actor, StageFull> {
        let i = match self.actors.binary_search_by_key(&id, |a| a.id) {
            Ok(i) => return Ok(&mut self.actors[i]),
            Err(i) => i,
        };
        if let Some(&j) = self.fresh_index.get(&id) {
            return Ok(&mut self.fresh[j]);
        }
        if self.len() >= MAX_SLAP_ACTORS {
            return Err(StageFull { id });
        }
        let actor = Actor::new(id, self.frame);
        if i == self.actors.len() && self.fresh.is_empty() {
            // In id order (the usual case): the list stays sorted.
            self.actors.push(actor);
            let last = self.actors.len() - 1;
            Ok(&mut self.actors[last])
        } else {
            self.fresh_index.insert(id, self.fresh.len());
            self.fresh.push(actor);
            let last = self.fresh.len() - 1;
            Ok(&mut self.fresh[last])
        }
    }

    /// `actor id action a`: re-anchors; a different action restarts the
    /// pose cycle, the same one keeps it.
    pub(crate) fn set_action(&mut self, id: ActorId, action: Action) -> Result<(), StageFull> {
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
    pub(crate) fn set_direction(&mut self, id: ActorId, radians: f64) -> Result<(), StageFull> {
        let frame = self.frame;
        self.mention(id)?.reanchor(frame, |a| a.direction = radians);
        Ok(())
    }

    /// `actor id position x z` (`y` is `None`: the actor keeps its y) or
    /// `actor id position x y z`: teleports; motion goes on from there.
    pub(crate) fn set_position(&mut self, id: ActorId, x: f64, y: Option<f64>, z: f64) -> Result<(), StageFull> {
        let frame = self.frame;
        self.mention(id)?.reanchor(frame, |a| {
            a.anchor = [x, y.unwrap_or(a.anchor[1]), z];
        });
        Ok(())
    }

    /// `actor id color r g b`.
    pub(crate) fn set_color(&mut self, id: ActorId, rgb: [f64; 3]) -> Result<(), StageFull> {
        self.mention(id)?.color = rgb;
        Ok(())
    }

    /// `actor id size s`: scales the actor and its speed; re-anchors.
    pub(crate) fn set_size(&mut self, id: ActorId, size: f64) -> Result<(), StageFull> {
        let frame = self.frame;
        self.mention(id)?.reanchor(frame, |a| a.size = size);
        Ok(())
    }

    /// Ends a follow or a move, leaving the camera where it has it at
    /// this frame.
    fn freeze_camera(&mut self) {
        self.camera = self.camera();
        self.span = Span::Still;
    }

    /// `camera position x y z`.
    pub(crate) fn set_camera_position(&mut self, position: [f64; 3]) {
        self.freeze_camera();
        self.camera.position = position;
    }

    /// `camera direction x y z` (stored as given) or, through
    /// [`Camera::look`], `camera direction yaw pitch`.
    pub(crate) fn set_camera_direction(&mut self, direction: [f64; 3]) {
        self.freeze_camera();
        self.camera.direction = direction;
    }

    /// `camera lookat x y z`: the look vector from where the camera stands
    /// now to the point, `point - position` (each an `f64` subtraction).
    /// Changes nothing and returns the vector it would have set when that
    /// is not finite or is all zero (the point is the camera's position).
    pub(crate) fn camera_look_at(&mut self, point: [f64; 3]) -> Result<(), [f64; 3]> {
        let p = self.camera().position;
        let d = [point[0] - p[0], point[1] - p[1], point[2] - p[2]];
        if d == [0.0; 3] || !d.iter().all(|x| x.is_finite()) {
            return Err(d);
        }
        self.freeze_camera();
        self.camera.direction = d;
        Ok(())
    }

    /// `camera follow id distance height`, of an actor on the stage
    /// (`false`, nothing changed, otherwise).
    pub(crate) fn camera_follow(&mut self, follow: Follow) -> bool {
        if !self.has_actor(follow.id) {
            return false;
        }
        self.freeze_camera();
        self.span = Span::Follow(follow);
        true
    }

    /// `camera move x y z over frames` (`frames` >= 1): from where the
    /// camera stands now to `to`.
    pub(crate) fn camera_move_to(&mut self, to: [f64; 3], frames: u64) {
        self.freeze_camera();
        self.span = Span::Move(Move { from: self.camera.position, to, start: self.frame, frames });
    }
}

/// The actors of a [`Stage`] at its frame, by id ([`Stage::actors`]).
#[derive(Clone, Debug)]
pub struct ActorStates<'a> {
    inner: std::slice::Iter<'a, Actor>,
    frame: u64,
    poses: &'static PoseTable,
}

impl Iterator for ActorStates<'_> {
    type Item = ActorState;

    #[inline]
    fn next(&mut self) -> Option<ActorState> {
        self.inner.next().map(|a| a.state(self.frame, self.poses))
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
    fn out_of_order_mentions_are_merged_by_id() {
        let mut s = Stage::new();
        let ids = [5u32, 9, 2, 7, 3, 11, 0, 9, 2];
        for (k, &id) in ids.iter().enumerate() {
            s.set_size(id, k as f64 + 1.0).unwrap();
            // Found again before the merge, wherever it waits.
            assert_eq!(s.actor(id).unwrap().size, k as f64 + 1.0);
        }
        assert_eq!(s.len(), 7);
        s.settle();
        let got: Vec<(u32, f64)> = s.actors().map(|a| (a.id, a.size)).collect();
        assert_eq!(got, [(0, 7.0), (2, 9.0), (3, 5.0), (5, 1.0), (7, 4.0), (9, 8.0), (11, 6.0)]);
        s.set_size(1, 1.0).unwrap();
        s.set_size(12, 1.0).unwrap();
        s.settle();
        assert_eq!(s.actors().map(|a| a.id).collect::<Vec<_>>(), [0, 1, 2, 3, 5, 7, 9, 11, 12]);
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
