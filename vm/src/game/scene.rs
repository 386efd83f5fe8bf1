//! A SLAP scene a game steps and observes to draw the actors itself.

use super::{Action, Camera, Follow, Pose};
use crate::slap::{self, ActorState, ActorStates};

/// What a game draws of one actor at the scene's frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Actor {
    /// The actor's id, as the script writes it.
    pub id: u32,
    /// Position, y up.
    pub position: [f64; 3],
    /// Heading in radians (0 faces -z, positive turns right).
    pub heading: f64,
    /// Colour (red, green, blue), as given.
    pub color: [f64; 3],
    /// Size (the body's scale).
    pub size: f64,
    /// Its current action.
    pub action: Action,
    /// The action's pose at this frame (its phase in the action's cycle).
    pub pose: Pose,
}

impl From<ActorState> for Actor {
    fn from(a: ActorState) -> Actor {
        Actor {
            id: a.id,
            position: a.position,
            heading: a.direction,
            color: a.color,
            size: a.size,
            action: a.action,
            pose: a.pose,
        }
    }
}

/// The actors of a [`Scene`] in id order (no allocation).
#[derive(Clone, Debug)]
pub struct Actors<'a>(ActorStates<'a>);

impl Iterator for Actors<'_> {
    type Item = Actor;
    fn next(&mut self) -> Option<Actor> {
        self.0.next().map(Actor::from)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl ExactSizeIterator for Actors<'_> {}

/// A SLAP scene played frame by frame (one frame per fixed update): its
/// actors and camera at the current frame. Commands that fail at run time
/// are skipped and counted ([`Scene::error_count`]); nothing panics.
///
/// ```
/// # let bundle = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap();
/// let mut intro = bundle.scene("intro")?;
/// intro.advance(8);
/// let polly = intro.actor(1).unwrap();
/// assert_eq!(polly.position, [0.0, 0.0, 1.0]); // sprinting: 1/8 unit a frame
/// # Ok::<(), animkit_vm::game::FindError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Scene {
    inner: slap::SceneSim,
}

impl Scene {
    pub(super) fn new(inner: slap::SceneSim) -> Scene {
        Scene { inner }
    }

    /// The scene's module name.
    ///
    /// ```
    /// # let bundle = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap();
    /// assert_eq!(bundle.scene("intro").unwrap().name(), "intro");
    /// ```
    pub fn name(&self) -> &str {
        self.inner.name()
    }

    /// The current frame (0 when opened).
    ///
    /// ```
    /// # let bundle = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap();
    /// let mut s = bundle.scene("intro").unwrap();
    /// s.step();
    /// assert_eq!(s.frame(), 1);
    /// ```
    pub fn frame(&self) -> u64 {
        self.inner.frame()
    }

    /// The frame of its last time point: where a cutscene ends.
    ///
    /// ```
    /// # let bundle = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap();
    /// assert_eq!(bundle.scene("intro").unwrap().length(), 20);
    /// ```
    pub fn length(&self) -> u64 {
        self.inner.length()
    }

    /// Whether the current frame is at or past [`Scene::length`].
    ///
    /// ```
    /// # let bundle = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap();
    /// let mut s = bundle.scene("intro").unwrap();
    /// assert!(!s.is_finished());
    /// s.advance(20);
    /// assert!(s.is_finished());
    /// ```
    pub fn is_finished(&self) -> bool {
        self.inner.frame() >= self.inner.length()
    }

    /// One frame on.
    ///
    /// ```
    /// # let bundle = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap();
    /// let mut s = bundle.scene("intro").unwrap();
    /// for _ in 0..8 { s.step(); }
    /// assert_eq!(s.actor(1).unwrap().position[2], 1.0);
    /// ```
    pub fn step(&mut self) {
        self.inner.step();
    }

    /// `frames` frames on at once (only the time points between run code).
    ///
    /// ```
    /// # let bundle = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap();
    /// let mut s = bundle.scene("intro").unwrap();
    /// s.advance(16);
    /// assert_eq!(s.actor(1).unwrap().position[2], 2.0);
    /// ```
    pub fn advance(&mut self, frames: u64) {
        self.inner.seek(self.inner.frame().saturating_add(frames));
    }

    /// Goes to `frame` (backwards by starting over).
    ///
    /// ```
    /// # let bundle = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap();
    /// let mut s = bundle.scene("intro").unwrap();
    /// s.seek(16);
    /// s.seek(8);
    /// assert_eq!(s.actor(1).unwrap().position[2], 1.0);
    /// ```
    pub fn seek(&mut self, frame: u64) {
        self.inner.seek(frame);
    }

    /// Number of actors on stage.
    ///
    /// ```
    /// # let bundle = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap();
    /// assert_eq!(bundle.scene("intro").unwrap().actor_count(), 2);
    /// ```
    pub fn actor_count(&self) -> usize {
        self.inner.stage().len()
    }

    /// Actor `id`, if the script has created it.
    ///
    /// ```
    /// # let bundle = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap();
    /// let s = bundle.scene("intro").unwrap();
    /// let a = s.actor(2).unwrap();
    /// assert_eq!((a.position, a.color), ([2.0, 0.0, 0.0], [0.0, 1.0, 0.0]));
    /// assert!(s.actor(3).is_none());
    /// ```
    pub fn actor(&self, id: u32) -> Option<Actor> {
        self.inner.actor(id).map(Actor::from)
    }

    /// Every actor, in id order.
    ///
    /// ```
    /// use animkit_vm::game::Action;
    /// # let bundle = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap();
    /// let s = bundle.scene("intro").unwrap();
    /// let actions: Vec<Action> = s.actors().map(|a| a.action).collect();
    /// assert_eq!(actions, [Action::Sprint, Action::Idle]);
    /// ```
    pub fn actors(&self) -> Actors<'_> {
        Actors(self.inner.actors())
    }

    /// The camera at this frame.
    ///
    /// ```
    /// use animkit_vm::game::Camera;
    /// # let bundle = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap();
    /// let mut s = bundle.scene("intro").unwrap();
    /// assert_eq!(s.camera(), Camera::DEFAULT);
    /// s.seek(10);
    /// assert_eq!(s.camera().position, [0.0, 3.0, 10.0]);
    /// ```
    pub fn camera(&self) -> Camera {
        self.inner.camera()
    }

    /// The follow in force (`camera follow ACTOR DISTANCE HEIGHT`), if the
    /// camera is following an actor now: then [`Scene::camera`] is where
    /// the follow has it at this frame, as computed from the actor.
    ///
    /// ```
    /// use animkit_vm::game::{Bundle, Camera, Follow};
    /// use animkit_vm::engine::isa::Op;
    /// let mut asm = animkit_vm::engine::slap::SceneAsm::new();
    /// asm.op(Op::Action, &[1.0, 10.0]).op(Op::CamFollow, &[1.0, 6.0, 2.0]).at(8);
    /// let bytes = animkit_vm::engine::codec::encode(&asm.finish("chase").unwrap());
    /// let bundle = Bundle::from_bytes(&bytes).unwrap();
    /// let mut s = bundle.scene("chase").unwrap();
    /// s.seek(8); // actor 1 sprints along +z, 1/8 a frame
    /// assert_eq!(s.following(), Some(Follow { id: 1, distance: 6.0, height: 2.0 }));
    /// assert_eq!(s.camera(), Camera { position: [0.0, 2.0, -5.0], direction: [0.0, -2.0, 6.0] });
    /// ```
    pub fn following(&self) -> Option<Follow> {
        self.inner.stage().follow()
    }

    /// Commands that failed at run time so far (skipped, the scene went
    /// on); the runtime prints them, a game may log them.
    ///
    /// ```
    /// # let bundle = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap();
    /// assert_eq!(bundle.scene("intro").unwrap().error_count(), 0);
    /// ```
    pub fn error_count(&self) -> u64 {
        self.inner.error_count()
    }
}
