//! Hosts: what runs Animator programs against real pixels. [`gl_canvas`]
//! is the canvas over the glow renderer; [`view`] maps root coordinates to
//! pixels; [`areas`] hit-tests named areas; [`events`] formats event lines.

pub mod areas;
pub mod events;
pub mod gl_canvas;
pub mod view;

pub use gl_canvas::{CanvasOptions, GlCanvas};
