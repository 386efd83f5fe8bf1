//! The game-facing API: everything a game needs to play a bundle, and
//! nothing of the compiler's or the renderer's.
//!
//! 1. [`Bundle::from_bytes`] (or [`Bundle::open`]) reads and verifies a
//!    bundle once; every error says why ([`OpenError`]).
//! 2. [`Bundle::sprite`] finds a sprite module, [`SpriteModule::state`]
//!    and [`SpriteModule::event`] turn names into typed handles
//!    ([`State`], [`Event`]) once, at load time: the per-tick path takes
//!    no strings.
//! 3. [`SpriteModule::spawn`] makes one [`Animation`],
//!    [`SpriteModule::batch`] an [`AnimationBatch`] of many; `tick()` once
//!    per fixed update (or `advance(n)` to catch up), read `frame()`,
//!    drain events into a buffer the game owns (no allocation per tick),
//!    save and restore with serde snapshots.
//! 4. [`Bundle::scene`] opens a SLAP [`Scene`] that a game steps and
//!    observes (actors, camera) to draw the actors itself.
//!
//! ```
//! use animkit_vm::game::{Bundle, Event};
//! # let bytes = animkit_vm::game::doc_bundle();
//! let bundle = Bundle::from_bytes(&bytes)?;
//! let hero = bundle.sprite("hero")?;
//! let walk = hero.state("Walk")?;
//! let step = hero.event("step").unwrap();
//! let mut anim = hero.spawn(walk);
//! let mut events = [Event::default(); 8];
//! let mut frames = Vec::new();
//! let mut steps = 0;
//! for _ in 0..5 {
//!     anim.tick();
//!     frames.push(anim.frame());
//!     let n = anim.drain_events(&mut events);
//!     steps += events[..n].iter().filter(|&&e| e == step).count();
//! }
//! assert_eq!(frames, [0, 0, 1, 1, 0]);
//! assert_eq!(steps, 2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Every type here is `Send` and `Sync` (a program is shared through an
//! `Arc` and never changed), so a game may tick batches on worker threads.

mod animation;
mod batch;
mod error;
mod scene;

/// The "Shipping a game" guide (`docs/shipping.md`): its examples run
/// as this module's doctests.
#[doc = include_str!("../../../docs/shipping.md")]
pub mod shipping {}

pub use crate::slap::{Action, Camera, Follow, Pose};
pub use crate::sprite::{MAX_PENDING_EVENTS, ReloadReport, Speed};
pub use animation::{Animation, AnimationSnapshot, Event, SpriteModule, State};
pub use batch::{AnimationBatch, BatchSnapshot, InstanceEvent};
pub use error::{FindError, ModuleKind, OpenError, RestoreError, UnknownEvent, UnknownState};
pub use scene::{Actor, Actors, Scene};

use crate::codec;
use crate::program::Program;
use crate::verify::Verified;
use std::path::Path;
use std::sync::Arc;

/// The bundle format version this build reads (the `.animb` header's
/// version field); a bundle written by another `animc` may have another.
///
/// ```
/// assert_eq!(animkit_vm::game::FORMAT_VERSION, 3);
/// ```
pub const FORMAT_VERSION: u16 = codec::FORMAT_VERSION;

/// A verified bundle: the modules a game plays. Cheap to clone (the
/// program is shared).
#[derive(Clone, Debug)]
pub struct Bundle {
    program: Arc<Verified<Program>>,
}

impl Bundle {
    /// Reads and verifies a bundle from memory.
    ///
    /// ```
    /// use animkit_vm::game::{Bundle, OpenError};
    /// # let bytes = animkit_vm::game::doc_bundle();
    /// assert!(Bundle::from_bytes(&bytes).is_ok());
    /// assert_eq!(Bundle::from_bytes(b"GIF89a").unwrap_err(), OpenError::NotABundle);
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<Bundle, OpenError> {
        let program = codec::load(bytes).map_err(OpenError::from_load)?;
        Ok(Bundle { program: Arc::new(program) })
    }

    /// Reads and verifies the bundle file at `path`.
    ///
    /// ```
    /// use animkit_vm::game::{Bundle, OpenError};
    /// let e = Bundle::open("no/such/file.animb").unwrap_err();
    /// assert!(matches!(e, OpenError::Io { .. }));
    /// assert!(e.to_string().starts_with("cannot read no/such/file.animb: "));
    /// ```
    pub fn open(path: impl AsRef<Path>) -> Result<Bundle, OpenError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path)
            .map_err(|e| OpenError::Io { path: path.display().to_string(), message: e.to_string() })?;
        Bundle::from_bytes(&bytes)
    }

    /// A bundle of an already verified program (what the compiler and the
    /// runtime hold).
    ///
    /// ```
    /// let bundle = animkit_vm::game::Bundle::from_verified(animkit_vm::engine::sprite::doc_program());
    /// assert_eq!(bundle.module_count(), 1);
    /// ```
    pub fn from_verified(program: Arc<Verified<Program>>) -> Bundle {
        Bundle { program }
    }

    /// The verified program behind the bundle (shared, not copied): what
    /// the runtime's `Player::from_bundle` draws SLAP and Animator modules
    /// from. The program type is the engine's, not a stable API for games.
    ///
    /// ```
    /// # let bundle = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap();
    /// let program = bundle.program();
    /// assert_eq!(program.modules.len(), bundle.module_count());
    /// assert!(std::sync::Arc::ptr_eq(program, bundle.clone().program()));
    /// ```
    pub fn program(&self) -> &Arc<Verified<Program>> {
        &self.program
    }

    /// Number of modules.
    ///
    /// ```
    /// # let bundle = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap();
    /// assert_eq!(bundle.module_count(), 2);
    /// ```
    pub fn module_count(&self) -> usize {
        self.program.modules.len()
    }

    /// Name and kind of module `index` (`None` past the end).
    ///
    /// ```
    /// use animkit_vm::game::ModuleKind;
    /// # let bundle = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap();
    /// assert_eq!(bundle.module(0), Some(("hero", ModuleKind::Sprite)));
    /// assert_eq!(bundle.module(1), Some(("intro", ModuleKind::Scene)));
    /// assert_eq!(bundle.module(2), None);
    /// ```
    pub fn module(&self, index: usize) -> Option<(&str, ModuleKind)> {
        let m = self.program.modules.get(index)?;
        Some((self.program.string(m.name), m.language.module_kind()))
    }

    /// The sprite module `name`.
    ///
    /// ```
    /// use animkit_vm::game::FindError;
    /// # let bundle = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap();
    /// assert_eq!(bundle.sprite("hero")?.name(), "hero");
    /// let e = bundle.sprite("hera").unwrap_err();
    /// assert_eq!(e.to_string(), "no module named `hera` in the bundle; did you mean `hero`?");
    /// assert!(matches!(bundle.sprite("intro"), Err(FindError::WrongKind { .. })));
    /// # Ok::<(), FindError>(())
    /// ```
    pub fn sprite(&self, name: &str) -> Result<SpriteModule, FindError> {
        self.find(name, ModuleKind::Sprite)?;
        crate::sprite::Sprites::new(self.program.clone(), name)
            .map(SpriteModule::new)
            .map_err(|e| FindError::NoModule { name: e.to_string(), nearest: Vec::new() })
    }

    /// The SLAP scene `name`, at frame 0.
    ///
    /// ```
    /// # let bundle = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap();
    /// let scene = bundle.scene("intro")?;
    /// assert_eq!(scene.frame(), 0);
    /// assert!(bundle.scene("hero").is_err());
    /// # Ok::<(), animkit_vm::game::FindError>(())
    /// ```
    pub fn scene(&self, name: &str) -> Result<Scene, FindError> {
        let index = self.find(name, ModuleKind::Scene)?;
        crate::slap::SceneSim::with_index(self.program.clone(), index)
            .map(Scene::new)
            .map_err(|e| FindError::NoModule { name: e.to_string(), nearest: Vec::new() })
    }

    /// The index of module `name` of kind `kind`.
    fn find(&self, name: &str, kind: ModuleKind) -> Result<usize, FindError> {
        let p = &self.program;
        match p.modules.iter().position(|m| p.string(m.name) == name) {
            Some(i) if p.modules[i].language.module_kind() == kind => Ok(i),
            Some(i) => Err(FindError::WrongKind {
                name: name.to_string(),
                expected: kind,
                found: p.modules[i].language.module_kind(),
            }),
            None => {
                let names = p.modules.iter().map(|m| p.string(m.name));
                Err(FindError::NoModule { name: name.to_string(), nearest: error::nearest(name, names) })
            }
        }
    }
}

/// The bytes of a small bundle for the documentation examples: sprite
/// module `hero` (`Walk: 2|step, 2, _loop`) and SLAP scene `intro`
/// (actor 1 sprints from frame 0, actor 2 stands at x = 2, the camera
/// moves to (0, 3, 10) at frame 10).
#[doc(hidden)]
pub fn doc_bundle() -> Vec<u8> {
    use crate::isa::Op;
    let mut scene = crate::slap::SceneAsm::new();
    scene.op(Op::Action, &[1.0, 10.0]);
    scene.op(Op::Position2, &[2.0, 2.0, 0.0]);
    scene.op(Op::ActorColor, &[2.0, 0.0, 1.0, 0.0]);
    scene.at(10);
    scene.op(Op::CamPos, &[0.0, 3.0, 10.0]);
    scene.at(20);
    let mut program = crate::sprite::doc_program().as_ref().clone().into_inner();
    let scene = scene.finish("intro").map(Verified::into_inner);
    if let Ok(mut s) = scene {
        // The scene's string ids move past the sprite program's strings.
        let shift = program.strings.len() as u32;
        program.strings.append(&mut s.strings);
        for mut m in s.modules {
            m.name += shift;
            for f in &mut m.functions {
                f.name += shift;
            }
            program.modules.push(m);
        }
    }
    codec::encode(&program)
}
