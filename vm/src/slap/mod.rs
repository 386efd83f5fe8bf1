//! SLAP scenes, simulated frame by frame: GL-free code a game may link.
//!
//! A compiled SLAP module is straight-line code: the commands of frame 0,
//! a `WAIT` to the next time point, its commands, ..., `HALT`. Each command
//! loads its arguments into registers and runs one register-window op
//! (`ACTION`, `DIRECTION`, `POSITION2`, `POSITION3`, `ACOLOR`, `SIZE`,
//! `CAMPOS`, `CAMDIR`, `CAMANGLES`, `CAMLOOKAT`, `CAMFOLLOW`; see [`crate::isa`]).
//!
//! | module | what |
//! | --- | --- |
//! | [`actions`] | the twelve actions: speed, pose cycle, [`Pose`] |
//! | [`stage`] | actors and camera at a frame: defaults, closed-form motion, re-anchoring |
//! | [`domain`] | the SLAP ops on a [`Stage`], with their runtime checks |
//! | [`scene`] | [`SceneSim`]: the player (step, seek, observe, errors) |
//! | [`assemble`] | [`SceneAsm`]: hand-assembled SLAP programs for tests and examples |
//!
//! `docs/slap.md` (§Simulation) is the user-facing description: defaults,
//! conventions, the action table, the time model and the errors.
//!
//! ```
//! use std::sync::Arc;
//! use animkit_vm::engine::isa::Op;
//! use animkit_vm::engine::slap::{SceneAsm, SceneSim};
//! // The spec's scene, in short: actor 1 at the origin, size .9; at 500 it
//! // turns to PI/4 and swaggers; at 1500 it stops.
//! let pi = 3.1416;
//! let mut asm = SceneAsm::new();
//! asm.op(Op::Position2, &[1.0, 0.0, 0.0]).op(Op::Size, &[1.0, 0.9]).op(Op::Action, &[1.0, 0.0]);
//! asm.at(500).op(Op::Direction, &[1.0, pi / 4.0]).op(Op::Action, &[1.0, 2.0]);
//! asm.at(1500).op(Op::Action, &[1.0, 0.0]);
//! let mut scene = SceneSim::new(Arc::new(asm.finish("polly")?), "polly")?;
//! scene.seek(2000);
//! // 1000 frames of swagger: 1000 * (1/32 * 0.9) along (sin PI/4, 0, cos PI/4).
//! let v = 1.0 / 32.0 * 0.9;
//! let expected = [1000.0 * (v * (pi / 4.0f64).sin()), 0.0, 1000.0 * (v * (pi / 4.0f64).cos())];
//! assert_eq!(scene.actor(1).unwrap().position, expected);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod actions;
pub mod assemble;
pub mod domain;
pub mod op_error;
pub mod scene;
pub mod stage;

pub use actions::{Action, Pose};
pub use assemble::SceneAsm;
pub use op_error::{Refusal, SlapOpError};
pub use scene::{OpenError, SceneError, SceneSim};
pub use stage::{ActorId, ActorState, ActorStates, Camera, Follow, Move, Stage, StageFull};
