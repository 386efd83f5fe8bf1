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
//! The other modules are the engine itself (instruction set, bundle codec,
//! verifier, interpreters), shared with the compiler and the runtime and
//! hidden from the documentation: they are not a stable API for games.
//!
//! | module | what |
//! | --- | --- |
//! | `isa` | the instruction set table (one row per opcode, with its meaning) |
//! | `program` | the in-memory program: strings, modules, functions, states |
//! | `codec` | the `.animb` container: encode, decode, load (= decode + verify) |
//! | `verify` | the verifier and its rules |
//! | `limits` | resource limits shared by the compiler, the verifier and the interpreters |
//! | `sprite` | sprite state machines (instances, batches) under [`game`] |
//! | `interp` | the register interpreter for Animator and SLAP code |
//! | `animator` | Animator semantics (matrices, pen, macros) over a canvas host |
//! | `slap` | SLAP simulation: actions and poses, the stage, the scene player |
//! | `disasm` | the disassembler behind `animc --emit asm` |
//! | `files` | the atomic file write shared by the compiler's and the player's writers |

#![warn(missing_docs)]

pub mod game;

#[doc(hidden)]
pub mod animator;
#[doc(hidden)]
pub mod codec;
#[doc(hidden)]
pub mod disasm;
#[doc(hidden)]
pub mod files;
#[doc(hidden)]
pub mod interp;
#[doc(hidden)]
pub mod isa;
#[doc(hidden)]
pub mod limits;
#[doc(hidden)]
pub mod program;
#[doc(hidden)]
pub mod slap;
#[doc(hidden)]
pub mod sprite;
#[doc(hidden)]
pub mod suggest;
#[doc(hidden)]
pub mod verify;
#[doc(hidden)]
pub mod work;

#[doc(hidden)]
pub use codec::{LoadError, load};
pub use game::{
    Animation, AnimationBatch, Bundle, Event, FindError, InstanceEvent, OpenError, RestoreError, Scene, SpriteModule,
    State, UnknownState,
};
#[doc(hidden)]
pub use program::Program;
