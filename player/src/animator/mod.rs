//! The Animator canvas over the glow renderer and the runner of a compiled
//! Animator module: [`gl_canvas`] ([`GlCanvas`]) draws, [`view`] maps root
//! coordinates to pixels, [`areas`] hit-tests named areas, [`events`] and
//! [`sdl_keys`] format event lines, [`cursor`] holds `defcursor` images,
//! [`pen`] converts colours and alignments, [`script`] runs a module
//! ([`Script`](script::Script)), and [`frame_out`] is where flushed frames
//! and written files go ([`FrameOut`]). `animvm`'s streams, hosts and
//! windows are the runtime's (`animkit_runtime::animator`).

pub mod areas;
pub mod cursor;
pub mod events;
pub mod frame_out;
pub mod gl_canvas;
pub mod pen;
mod render_errors;
pub mod script;
pub mod sdl_keys;
pub mod view;

pub use frame_out::{FrameOut, NoFrames};
pub use gl_canvas::{CanvasOptions, GlCanvas, WindowHooks};
