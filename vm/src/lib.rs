//! The animkit virtual machine: instruction set, bundle format, verifier
//! and interpreters. This is the crate a game links: it depends on serde,
//! bincode and crc32fast only, never on GL, windows, images or fonts.
//!
//! | module | what |
//! | --- | --- |
//! | [`isa`] | the instruction set table (one row per opcode, with its meaning) |
//! | [`program`] | the in-memory program: strings, modules, functions, states |
//! | [`codec`] | the `.animb` container: encode, decode, load (= decode + verify) |
//! | [`verify`] | the verifier and its rules |
//! | [`limits`] | resource limits shared by the compiler, the verifier and the interpreters |
//! | [`sprite`] | the game API for sprite state machines (instances, batches) |
//! | [`interp`] | the register interpreter for Animator and SLAP code |
//! | [`animator`] | Animator semantics (matrices, pen, macros) over a [`animator::Canvas`] host |
//! | [`slap`] | SLAP simulation: actions and poses, the stage, the scene player |
//! | [`disasm`] | the disassembler behind `animc --emit asm` |
//!
//! ```
//! use std::sync::Arc;
//! use animkit_vm::{codec, sprite::Sprites};
//! # let bytes = codec::encode(&animkit_vm::sprite::doc_program());
//! let program = Arc::new(codec::load(&bytes)?);
//! let sprites = Sprites::new(program, "hero")?;
//! let mut hero = sprites.instance("Walk")?;
//! hero.tick();
//! assert_eq!(hero.frame(), 0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

pub mod animator;
pub mod codec;
pub mod disasm;
pub mod interp;
pub mod isa;
pub mod limits;
pub mod program;
pub mod slap;
pub mod sprite;
pub mod verify;

pub use codec::{LoadError, load};
pub use program::Program;
