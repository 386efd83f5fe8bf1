//! Animator's pens and alignments in the renderer's terms, shared by both
//! canvases ([`GlCanvas`](super::GlCanvas) and
//! `animkit_runtime::animator::CpuCanvas`).

use crate::render;
use animkit_vm::engine::animator::{HAlign, Pen, VAlign};

/// The renderer's colour of a pen (inlined: the runtime's CPU canvas calls it
/// once per stroke, across the crate boundary).
#[inline]
pub fn rgba(pen: &Pen) -> render::Rgba {
    let c = |v: f64| v.clamp(0.0, 1.0) as f32;
    [c(pen.rgb[0]), c(pen.rgb[1]), c(pen.rgb[2]), c(pen.alpha)]
}

/// An RGB colour (0 to 1) as opaque 8-bit RGBA.
#[inline]
pub fn rgb8(rgb: [f64; 3]) -> [u8; 4] {
    let c = |v: f64| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
    [c(rgb[0]), c(rgb[1]), c(rgb[2]), 255]
}

/// The renderer's horizontal alignment.
pub fn h_align(h: HAlign) -> render::HAlign {
    match h {
        HAlign::Left => render::HAlign::Left,
        HAlign::Center => render::HAlign::Center,
        HAlign::Right => render::HAlign::Right,
    }
}

/// The renderer's vertical alignment.
pub fn v_align(v: VAlign) -> render::VAlign {
    match v {
        VAlign::Bottom => render::VAlign::Bottom,
        VAlign::Center => render::VAlign::Center,
        VAlign::Top => render::VAlign::Top,
    }
}
