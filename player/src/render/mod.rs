//! The pixel layer: a batched OpenGL 2D renderer ([`Renderer`]) that draws
//! into its own offscreen framebuffer (RGBA8 colour and a depth-stencil
//! buffer), a headless EGL host (`HeadlessGl`, feature `headless`), images and the bytes of
//! PNG and raw-dump output ([`RgbaImage`]).
//!
//! It knows pixels only: coordinates are pixels with the origin at the
//! top-left corner, x right, y down; transformations are the caller's
//! business, and so are files (the renderer encodes PNG bytes, the host
//! writes them: [`crate::files`], `animkit_runtime::host::files`). 3D drawing lives beside the 2D batcher
//! ([`scene3d`]: instanced lit meshes over a checkered ground, one draw
//! call per mesh), sharing the renderer's context and framebuffer; see
//! `docs/renderer.md`. Decisions worth knowing (each documented on its
//! item):
//!
//! * polygons fill with the **even-odd** rule ([`Renderer::fill_polygon`]),
//!   in time linear in their points (large ones through the stencil buffer,
//!   see `render/fill.rs`);
//! * text is DejaVu Sans Mono at [`FONT_PX`] = 14 px (8 px cells, 17 px lines);
//! * an arrow's head is [`arrow_head_length`]`(thick) = 6 + 4 * max(thick, 1)`
//!   pixels long and as wide as it is long;
//! * dash patterns count pixel steps along the polyline, bit `n % 16`, LSB first
//!   ([`Renderer::stroke`]);
//! * `screendump` bytes: rows top to bottom, B,G,R,A at 32 bpp (SDL's
//!   `0xAARRGGBB`), also 24/16/15 bpp ([`RgbaImage::to_raw`]).
//!
//! ```no_run
//! use animkit_player::render::*;
//! let mut r = HeadlessGl::new(128, 96)?.into_renderer()?;
//! r.clear([1.0, 1.0, 1.0, 1.0]);
//! r.fill_polygon(&[[10.0, 10.0], [100.0, 20.0], [40.0, 80.0]], [0.2, 0.4, 0.8, 1.0]);
//! let png: Vec<u8> = r.encode_png()?;
//! # Ok::<(), RenderError>(())
//! ```

#![warn(missing_docs)]

mod draws;
mod error;
mod fill;
mod geometry;
#[cfg(feature = "headless")]
mod headless;
mod image;
mod renderer;
pub mod scene3d;
mod shader;
mod text;
mod types;

pub use draws::{Draw, Draws, MAX_DRAW_VERTICES, MAX_UPLOAD_BYTES};
pub use error::{MAX_IMAGE_PIXELS, MAX_IMAGE_SIZE, RenderError};
pub use fill::{EXACT_MAX_POINTS, STRAIGHT, is_convex};
pub use geometry::{
    Geometry, MODE_DASHED, MODE_GLYPH, MODE_SOLID, MODE_TEXTURED, VERTEX_SIZE, Vertex, arrow_head_length,
};
#[cfg(feature = "headless")]
pub use headless::{GlApi, HeadlessGl};
pub use image::{MAX_PNG_BYTES, RgbaImage};
pub use renderer::{DRIVER_FLUSH_VERTICES, Renderer};
pub use text::FONT_PX;
pub use types::{HAlign, ImageId, PixelRect, Point, RenderStats, Rgba, VAlign, rgba_to_u8};
