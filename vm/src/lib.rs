//! The animkit virtual machine: what a game links to play `.animb`
//! bundles. It depends on serde, bincode and crc32fast only, never on GL,
//! windows, images or fonts.
//!
//! Games use [`game`] (also re-exported here): open a [`Bundle`], find a
//! sprite module and its states by name once, then spawn, tick and
//! advance [`Animation`]s and [`AnimationBatch`]es, drain their events into
//! a buffer, snapshot them with serde, and step and observe SLAP
//! [`Scene`]s. See `docs/embedding.md`.
//!
//! ```
//! use animkit_vm::{Bundle, Event};
//! # let bytes = animkit_vm::game::doc_bundle();
//! let bundle = Bundle::from_bytes(&bytes)?;
//! let hero = bundle.sprite("hero")?;
//! let mut walk = hero.spawn(hero.state("Walk")?);
//! let mut events = [Event::default(); 4];
//! walk.tick();
//! assert_eq!(walk.frame(), 0);
//! assert_eq!(walk.drain_events(&mut events), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The public surface
//!
//! The crate exports two modules and nothing else
//! (`vm/tests/public_surface.rs` keeps it so):
//!
//! - [`game`], the game API: what games use, re-exported here
//!   ([`Bundle`], [`SpriteModule`], [`State`], [`Event`], [`Animation`],
//!   [`AnimationBatch`], [`InstanceEvent`], [`Scene`] and the errors
//!   [`OpenError`], [`FindError`], [`UnknownState`], [`RestoreError`]).
//! - `engine`, the engine itself (instruction set, bundle codec,
//!   verifier, interpreters), shared with the compiler, the runtime, the
//!   player, the C ABI, the web player, the bench, the fuzz targets and
//!   the tests, and hidden from the documentation: it is not a stable API
//!   for games. `Program`, `load` and `LoadError` are engine items
//!   re-exported at the root (hidden too).
//!
//! The engine's modules live at the crate root, private
//! (`crate::isa`, ...), and `engine::isa` re-exports the public items of
//! `isa`, and so on: outside this crate they are only reachable through
//! `engine`.
//!
//! ```compile_fail,E0603
//! use animkit_vm::isa::Op; // private: the engine is `animkit_vm::engine::isa`
//! ```
//!
//! ```
//! use animkit_vm::engine::isa::Op;
//! assert_eq!(Op::Ret as u8, 0x10);
//! ```

#![warn(missing_docs)]

pub mod game;

#[doc(hidden)]
pub mod engine;

mod animator;
mod codec;
mod disasm;
mod files;
mod interp;
mod isa;
mod limits;
mod program;
mod slap;
mod sprite;
mod suggest;
mod verify;
mod work;

#[doc(hidden)]
pub use codec::{LoadError, load};
pub use game::{
    Animation, AnimationBatch, Bundle, Event, FindError, InstanceEvent, OpenError, RestoreError, Scene, SpriteModule,
    State, UnknownState,
};
#[doc(hidden)]
pub use program::Program;
