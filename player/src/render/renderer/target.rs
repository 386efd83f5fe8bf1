//! The offscreen framebuffer every [`Renderer`](super::Renderer) draws into:
//! an RGBA8 colour renderbuffer and a depth-stencil renderbuffer
//! (`DEPTH24_STENCIL8`).
//!
//! Colour is the picture: windows, screenshots, `-d` frames and `screendump`
//! all read it. The depth-stencil attachment is for what needs more than
//! painting in order: polygon fills that count edge crossings in the
//! stencil buffer, and the 3D scenes that will share this framebuffer (see
//! `docs/renderer.md`, "3D"). It is cleared once, when the target is made;
//! whoever uses it leaves it as they found it (the stencil all zero), so
//! 2D frames pay nothing for it.

use super::gl_err;
use crate::render::RenderError;
use glow::HasContext;

/// The framebuffer object and its two renderbuffers.
pub(super) struct Target {
    pub fbo: glow::Framebuffer,
    color: glow::Renderbuffer,
    depth_stencil: glow::Renderbuffer,
}

impl Target {
    /// A `width` x `height` target, colour cleared to `clear` (RGBA in
    /// 0..1), depth to 1 and stencil to 0, left bound as `FRAMEBUFFER`.
    ///
    /// # Safety
    /// `gl` must be current on this thread.
    pub unsafe fn new(gl: &glow::Context, width: u32, height: u32, clear: [f32; 4]) -> Result<Target, RenderError> {
        unsafe {
            let storage = |format: u32, what: &'static str| -> Result<glow::Renderbuffer, RenderError> {
                let rb = gl.create_renderbuffer().map_err(gl_err(what))?;
                gl.bind_renderbuffer(glow::RENDERBUFFER, Some(rb));
                gl.renderbuffer_storage(glow::RENDERBUFFER, format, width as i32, height as i32);
                Ok(rb)
            };
            let color = storage(glow::RGBA8, "renderbuffer")?;
            let depth_stencil = match storage(glow::DEPTH24_STENCIL8, "depth-stencil renderbuffer") {
                Ok(rb) => rb,
                Err(e) => {
                    gl.delete_renderbuffer(color);
                    return Err(e);
                }
            };
            let target = match gl.create_framebuffer() {
                Ok(fbo) => Target { fbo, color, depth_stencil },
                Err(e) => {
                    gl.delete_renderbuffer(color);
                    gl.delete_renderbuffer(depth_stencil);
                    return Err(gl_err("framebuffer")(e));
                }
            };
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(target.fbo));
            gl.framebuffer_renderbuffer(glow::FRAMEBUFFER, glow::COLOR_ATTACHMENT0, glow::RENDERBUFFER, Some(color));
            gl.framebuffer_renderbuffer(
                glow::FRAMEBUFFER,
                glow::DEPTH_STENCIL_ATTACHMENT,
                glow::RENDERBUFFER,
                Some(depth_stencil),
            );
            let status = gl.check_framebuffer_status(glow::FRAMEBUFFER);
            if status != glow::FRAMEBUFFER_COMPLETE {
                target.delete(gl);
                return Err(RenderError::Gl(format!("framebuffer {width}x{height} incomplete (status 0x{status:x})")));
            }
            gl.disable(glow::SCISSOR_TEST);
            gl.clear_color(clear[0], clear[1], clear[2], clear[3]);
            gl.clear_depth(1.0);
            gl.clear_stencil(0);
            gl.stencil_mask(0xff);
            gl.depth_mask(true);
            gl.clear(glow::COLOR_BUFFER_BIT | glow::DEPTH_BUFFER_BIT | glow::STENCIL_BUFFER_BIT);
            Ok(target)
        }
    }

    /// Deletes the framebuffer and its renderbuffers.
    ///
    /// # Safety
    /// `gl` must be current; nothing may use the target afterwards.
    pub unsafe fn delete(&self, gl: &glow::Context) {
        unsafe {
            gl.delete_framebuffer(self.fbo);
            gl.delete_renderbuffer(self.color);
            gl.delete_renderbuffer(self.depth_stencil);
        }
    }
}
