//! Hosts: what runs Animator programs against real pixels. [`gl_canvas`]
//! is the canvas over the glow renderer; [`view`] maps root coordinates to
//! pixels; [`areas`] hit-tests named areas; [`events`] formats event lines.
//! The window host ([`window`], over [`gl_window`]) runs Animator programs
//! in a real window, with input in SDL 1.2's terms ([`keys`]) and
//! `defcursor` cursors ([`cursor`]); [`sprite_window`] is the sprite
//! viewer's window. See `docs/window.md`.

pub mod areas;
pub mod cursor;
pub mod events;
pub mod gl_canvas;
pub mod gl_window;
pub mod keys;
pub mod sprite_window;
pub mod view;
pub mod window;

pub use gl_canvas::{CanvasOptions, GlCanvas, WindowHooks};
