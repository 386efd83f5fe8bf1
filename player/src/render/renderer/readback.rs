//! Reading the [`Renderer`]'s pixels back: RGBA8 rows, PNG bytes,
//! `screendump` bytes, and the 1:1 copy into a window. Writing files is
//! the host's business (`host::files`): the renderer knows pixels only.

use super::Renderer;
use crate::render::error::RenderError;
use crate::render::image::RgbaImage;
use glow::HasContext;

impl Renderer {
    /// Flushes and reads the whole target back (top row first, RGBA8).
    ///
    /// ```no_run
    /// # let mut r = animkit_player::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// r.clear([1.0, 0.0, 0.0, 1.0]);
    /// assert_eq!(r.read_pixels().pixel(0, 0), Some([255, 0, 0, 255]));
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn read_pixels(&mut self) -> RgbaImage {
        self.flush();
        let mut img = RgbaImage::new(self.width, self.height, [0; 4]);
        // SAFETY: current context; the buffer holds exactly w*h*4 bytes.
        unsafe {
            let gl = &self.gl;
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(self.target.fbo));
            gl.pixel_store_i32(glow::PACK_ALIGNMENT, 1);
            gl.read_pixels(
                0,
                0,
                self.width as i32,
                self.height as i32,
                glow::RGBA,
                glow::UNSIGNED_BYTE,
                glow::PixelPackData::Slice(Some(&mut img.data)),
            );
        }
        img.flip_rows();
        if self.background {
            // Alpha is the drawing's coverage over the opaque background.
            for px in img.data.chunks_exact_mut(4) {
                px[3] = 255;
            }
        }
        img
    }

    /// The target as PNG bytes (RGBA8); the host writes them
    /// (`host::files::write_atomic`).
    ///
    /// ```no_run
    /// # let mut r = animkit_player::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// let png: Vec<u8> = r.encode_png()?;
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn encode_png(&mut self) -> Result<Vec<u8>, RenderError> {
        self.read_pixels().encode_png()
    }

    /// Animator's `screendump` bytes at 32 bpp: rows top to bottom, each pixel
    /// the bytes B, G, R, A (the little-endian 32-bit word `0xAARRGGBB`, as an
    /// SDL 32-bpp surface), no padding. See [`RgbaImage::to_raw`].
    ///
    /// ```no_run
    /// # let mut r = animkit_player::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// assert_eq!(r.raw_dump().len(), 8 * 8 * 4);
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn raw_dump(&mut self) -> Vec<u8> {
        self.read_pixels().to_raw(32).unwrap_or_default()
    }

    /// `screendump` bytes at `bpp` = 32, 24 (B, G, R), 16 (RGB565) or 15
    /// (XRGB1555), rows padded to 4 bytes like SDL surfaces; see
    /// [`RgbaImage::to_raw`] for the exact layout (Animator's `-D`).
    ///
    /// ```no_run
    /// # let mut r = animkit_player::render::HeadlessGl::new(3, 2)?.into_renderer()?;
    /// assert_eq!(r.raw_dump_bpp(16)?.len(), 2 * 8); // 6 bytes + 2 padding a row
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn raw_dump_bpp(&mut self, bpp: u32) -> Result<Vec<u8>, RenderError> {
        if !matches!(bpp, 15 | 16 | 24 | 32) {
            return Err(RenderError::UnsupportedBpp(bpp));
        }
        self.read_pixels().to_raw(bpp)
    }

    /// Flushes and copies the target 1:1 onto the default framebuffer (a
    /// window of `window_w` x `window_h`), top-left corners aligned; window
    /// area outside the target is cleared to black. The caller swaps buffers.
    ///
    /// ```no_run
    /// # let mut r = animkit_player::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// r.blit_to_default_framebuffer(640, 480);
    /// // surface.swap_buffers(&context)?;
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn blit_to_default_framebuffer(&mut self, window_w: u32, window_h: u32) {
        self.flush();
        let (w, h) = (self.width as i32, self.height as i32);
        let (ww, wh) = (window_w.min(i32::MAX as u32) as i32, window_h.min(i32::MAX as u32) as i32);
        // SAFETY: current context; framebuffer 0 is the window's.
        unsafe {
            let gl = &self.gl;
            gl.bind_framebuffer(glow::FRAMEBUFFER, None);
            gl.viewport(0, 0, ww, wh);
            gl.disable(glow::SCISSOR_TEST);
            gl.clear_color(0.0, 0.0, 0.0, 1.0);
            gl.clear(glow::COLOR_BUFFER_BIT);
            gl.bind_framebuffer(glow::READ_FRAMEBUFFER, Some(self.target.fbo));
            gl.bind_framebuffer(glow::DRAW_FRAMEBUFFER, None);
            gl.blit_framebuffer(0, 0, w, h, 0, wh - h, w, wh, glow::COLOR_BUFFER_BIT, glow::NEAREST);
            if self.background {
                // The copied alpha is coverage: the window shows it opaque.
                gl.bind_framebuffer(glow::FRAMEBUFFER, None);
                gl.color_mask(false, false, false, true);
                gl.clear(glow::COLOR_BUFFER_BIT);
                gl.color_mask(true, true, true, true);
            }
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(self.target.fbo));
        }
    }

    /// Copies the frame into `draw_fbo` (`None`: the default framebuffer)
    /// with its bottom-left corner at `(x, y)` (GL coordinates), 1:1; only
    /// the `width` x `height` pixels there are written (a background's
    /// coverage alpha is shown opaque, as in a window). Leaves GL state
    /// changed: scissor test and box, framebuffer bindings, colour mask;
    /// the embedding [`Player`](crate::player::Player) saves and restores
    /// them around it.
    pub fn blit_into(&mut self, draw_fbo: Option<glow::Framebuffer>, x: i32, y: i32) {
        self.blit_at(Some(draw_fbo), x, y);
    }

    /// [`blit_into`](Self::blit_into) the draw framebuffer bound now
    /// (the web player's way into a game's framebuffer: glow's WebGL
    /// backend cannot name a framebuffer it did not make).
    pub fn blit_into_bound(&mut self, x: i32, y: i32) {
        self.blit_at(None, x, y);
    }

    fn blit_at(&mut self, draw_fbo: Option<Option<glow::Framebuffer>>, x: i32, y: i32) {
        self.flush();
        let (w, h) = (self.width as i32, self.height as i32);
        // SAFETY: current context; the target is the renderer's own.
        unsafe {
            let gl = &self.gl;
            gl.disable(glow::SCISSOR_TEST);
            gl.bind_framebuffer(glow::READ_FRAMEBUFFER, Some(self.target.fbo));
            if let Some(fbo) = draw_fbo {
                gl.bind_framebuffer(glow::DRAW_FRAMEBUFFER, fbo);
            }
            gl.blit_framebuffer(0, 0, w, h, x, y, x + w, y + h, glow::COLOR_BUFFER_BIT, glow::NEAREST);
            if self.background {
                gl.enable(glow::SCISSOR_TEST);
                gl.scissor(x, y, w, h);
                gl.color_mask(false, false, false, true);
                gl.clear_color(0.0, 0.0, 0.0, 1.0);
                gl.clear(glow::COLOR_BUFFER_BIT);
                gl.color_mask(true, true, true, true);
                gl.disable(glow::SCISSOR_TEST);
            }
        }
    }
}
