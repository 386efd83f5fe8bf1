//! placeholder

pub mod golden;
/// The renderer: batched OpenGL 2D drawing, headless EGL host, images, PNG
/// and raw dumps (see the module docs).
pub mod render;
