//! The frame's background: a colour that lies under everything drawn
//! since the target was last cleared, and that can change after the
//! drawing (Animator's `bg` inside a frame).
//!
//! How: [`Renderer::clear_to_background`] clears the colour to the
//! background with alpha 0, so that, under the renderer's blending
//! (source over, alpha `ONE, ONE_MINUS_SRC_ALPHA`), each pixel's alpha is
//! the coverage `1 - (1 - a1)(1 - a2)...` of what was drawn on it and its
//! colour is that drawing over the background. The colours are exactly
//! those of drawing on an opaque background, so nothing else changes;
//! read-back and the window report the pixels opaque.
//! [`Renderer::set_background`] then moves a pixel from background `B0` to
//! `B1` by adding `(B1 - B0) * (1 - alpha)`: a full-target quad blended
//! with `ONE_MINUS_DST_ALPHA, ONE` (two passes, one adding the channels
//! that grow, one subtracting those that shrink). A pixel nothing covers
//! becomes `B1` exactly, a pixel opaque drawing covers keeps its colour,
//! a partly covered one is within a rounding step of drawing on `B1`.

use super::Renderer;
use crate::render::geometry::{MODE_SOLID, Vertex, as_bytes};
use crate::render::types::Rgba;
use glow::HasContext;

impl Renderer {
    /// Fills the whole target with the opaque background `rgb` (ignoring
    /// the clip) and drops the drawing queued since the last flush, like
    /// [`clear`](Self::clear); what is drawn until the next clear lies over
    /// this background, which [`set_background`](Self::set_background) can
    /// change afterwards. [`resize`](Self::resize) fills new area with it.
    ///
    /// ```no_run
    /// # let mut r = animkit_player::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// r.clear_to_background([1.0, 1.0, 1.0]);
    /// assert_eq!(r.read_pixels().pixel(0, 0), Some([255, 255, 255, 255]));
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn clear_to_background(&mut self, rgb: [f32; 3]) {
        self.clear([rgb[0], rgb[1], rgb[2], 0.0]);
        self.background = true;
    }

    /// Makes `rgb` the background under what was drawn since the last
    /// clear: uncovered pixels take the new colour, drawing stays on top
    /// of it (half-transparent drawing blends with it), and drawing after
    /// this lies over it as usual. Pending drawing is flushed first. After
    /// a plain [`clear`](Self::clear) the cleared colour counts as drawing
    /// (its alpha is its coverage).
    ///
    /// ```no_run
    /// # let mut r = animkit_player::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// r.clear_to_background([1.0, 1.0, 1.0]);
    /// r.dot([1.0, 1.0], [0.0, 0.0, 0.0, 1.0]);
    /// r.set_background([0.0, 0.0, 1.0]);
    /// let img = r.read_pixels();
    /// assert_eq!((img.pixel(0, 0), img.pixel(1, 1)), (Some([0, 0, 255, 255]), Some([0, 0, 0, 255])));
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn set_background(&mut self, rgb: [f32; 3]) {
        if self.background && !self.drawn_since_clear && self.geom.vertex_count() == 0 {
            // Nothing to keep: a clear is exact and cheapest.
            self.clear_to_background(rgb);
            return;
        }
        self.flush();
        let to = to_u8([rgb[0], rgb[1], rgb[2], 0.0]);
        let from = to_u8(self.clear_color);
        let up = [0, 1, 2].map(|i| to[i].saturating_sub(from[i]));
        let down = [0, 1, 2].map(|i| from[i].saturating_sub(to[i]));
        // SAFETY: current context; the renderer's own objects; the buffer
        // holds the six vertices drawn.
        unsafe {
            let gl = &self.gl;
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(self.target.fbo));
            gl.viewport(0, 0, self.width as i32, self.height as i32);
            gl.disable(glow::SCISSOR_TEST);
            gl.bind_vertex_array(Some(self.vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.vbo));
            gl.use_program(Some(self.program.program));
            gl.uniform_2_f32(self.program.u_size.as_ref(), self.width as f32, self.height as f32);
            gl.enable(glow::BLEND);
            // colour += src * (1 - dst alpha); alpha (the coverage) unchanged.
            gl.blend_func_separate(glow::ONE_MINUS_DST_ALPHA, glow::ONE, glow::ZERO, glow::ONE);
            for (delta, equation) in [(up, glow::FUNC_ADD), (down, glow::FUNC_REVERSE_SUBTRACT)] {
                if delta == [0; 3] {
                    continue;
                }
                let quad = full_quad(self.width as f32, self.height as f32, [delta[0], delta[1], delta[2], 255]);
                gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, as_bytes(&quad), glow::STREAM_DRAW);
                gl.blend_equation_separate(equation, glow::FUNC_ADD);
                gl.draw_arrays(glow::TRIANGLES, 0, 6);
            }
            gl.blend_equation(glow::FUNC_ADD);
        }
        self.clear_color = [rgb[0], rgb[1], rgb[2], 0.0];
        self.background = true;
    }
}

/// `rgba` as the target stores it (what a clear to it leaves).
fn to_u8(rgba: Rgba) -> [u8; 4] {
    crate::render::types::rgba_to_u8(rgba)
}

/// Two triangles a pixel beyond every side of a `w` x `h` target.
fn full_quad(w: f32, h: f32, color: [u8; 4]) -> [Vertex; 6] {
    let v = |x: f32, y: f32| Vertex { pos: [x, y], uv: [0.0, 0.0], color, mode: MODE_SOLID };
    let (a, b, c, d) = (v(-1.0, -1.0), v(w + 1.0, -1.0), v(w + 1.0, h + 1.0), v(-1.0, h + 1.0));
    [a, b, c, a, c, d]
}
