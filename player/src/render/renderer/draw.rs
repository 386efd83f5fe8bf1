//! The [`Renderer`]'s drawing calls: each tessellates its primitive into
//! the pending batches ([`Geometry`](crate::render::Geometry) does the
//! work); nothing reaches GL before the next flush, except glyphs newly
//! rasterized into the atlas.

use super::Renderer;
use crate::render::RenderError;
use crate::render::geometry::{self, MODE_GLYPH, MODE_TEXTURED, Vertex};
use crate::render::text::{AtlasFull, box_origin};
use crate::render::types::{HAlign, ImageId, PixelRect, Point, Rgba, VAlign, aligned_top_left, rgba_to_u8};
use glow::HasContext;

impl Renderer {
    /// Sets exactly one pixel: the one containing `p` (`floor(p)`), blended.
    ///
    /// ```no_run
    /// # let mut r = animkit_player::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// r.dot([3.5, 4.5], [1.0, 0.0, 0.0, 1.0]); // pixel (3, 4)
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn dot(&mut self, p: Point, rgba: Rgba) {
        self.auto_flush();
        self.geom.dot(p, rgba);
    }

    /// Strokes a polyline through `points` (closing it back to the first point
    /// when `closed`).
    ///
    /// * `thick` is the width in pixels. `thick <= 1` draws the thinnest line:
    ///   one pixel per column (for lines closer to horizontal) or per row,
    ///   8-connected, covering the pixels of both end points (`floor(p)`);
    ///   inner vertices are drawn once. Thicker lines are rectangles `thick`
    ///   wide, extended half a pixel past open ends, with mitred corners
    ///   (bevelled when sharper than about 150 degrees) so thick rectangles and
    ///   circles have no gaps.
    /// * `dash` is an OpenGL line-stipple pattern with factor 1: the n-th pixel
    ///   step along the polyline (n counted from 0 at the first point, carried
    ///   across the segments of this call, measured along each segment's major
    ///   axis, `max(|dx|, |dy|)`) is drawn when bit `n % 16` (LSB first) is 1.
    ///   `0xffff` is solid, `0` draws nothing.
    ///
    /// A single point draws a dot (or a `thick` square).
    ///
    /// ```no_run
    /// # let mut r = animkit_player::render::HeadlessGl::new(64, 64)?.into_renderer()?;
    /// let square = [[10.0, 10.0], [50.0, 10.0], [50.0, 50.0], [10.0, 50.0]];
    /// r.stroke(&square, true, 3.0, 0x00ff, [0.0, 0.0, 0.0, 1.0]); // dashed, 3 px
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn stroke(&mut self, points: &[Point], closed: bool, thick: f32, dash: u16, rgba: Rgba) {
        self.auto_flush();
        self.geom.stroke(points, closed, thick, dash, rgba);
    }

    /// A line from `p0` to `p1` (stroked like [`stroke`](Self::stroke)) with a
    /// solid triangular head whose tip is at `p1`. The head is
    /// [`arrow_head_length(thick)`](crate::render::arrow_head_length) `= 6 + 4 *
    /// max(thick, 1)` pixels long and as wide at its base as it is long; on
    /// arrows shorter than that the head shrinks to the arrow's length and
    /// there is no shaft.
    ///
    /// ```no_run
    /// # let mut r = animkit_player::render::HeadlessGl::new(64, 64)?.into_renderer()?;
    /// r.arrow([5.0, 32.0], [60.0, 32.0], 1.0, 0xffff, [0.0, 0.0, 0.0, 1.0]);
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn arrow(&mut self, p0: Point, p1: Point, thick: f32, dash: u16, rgba: Rgba) {
        self.auto_flush();
        self.geom.arrow(p0, p1, thick, dash, rgba);
    }

    /// Fills a convex polygon (a triangle fan from the first point; cheaper
    /// than [`fill_polygon`](Self::fill_polygon), wrong for concave input).
    ///
    /// ```no_run
    /// # let mut r = animkit_player::render::HeadlessGl::new(64, 64)?.into_renderer()?;
    /// r.fill_convex(&[[10.0, 10.0], [20.0, 10.0], [20.0, 20.0], [10.0, 20.0]], [0.0, 0.0, 0.0, 1.0]);
    /// // covers exactly columns 10..=19, rows 10..=19
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn fill_convex(&mut self, points: &[Point], rgba: Rgba) {
        self.auto_flush();
        self.geom.fill_convex(points, rgba);
    }

    /// Fills any polygon — concave, self-intersecting, with holes formed by
    /// crossing edges — with the **even-odd** rule (a point is inside when a
    /// ray from it crosses the outline an odd number of times), as a scanline
    /// software renderer does: the centre of a five-pointed star drawn in one
    /// stroke stays empty. Work is linear in the points: convex polygons are
    /// a fan and small ones are triangulated exactly, both in the current
    /// batch; larger ones go through the stencil buffer, `n + 8` vertices
    /// and two draw calls of their own (see `render/fill.rs`).
    ///
    /// ```no_run
    /// # let mut r = animkit_player::render::HeadlessGl::new(64, 64)?.into_renderer()?;
    /// r.fill_polygon(&[[10.0, 10.0], [50.0, 10.0], [30.0, 30.0], [50.0, 50.0], [10.0, 50.0]], [0.0, 0.0, 0.0, 1.0]);
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn fill_polygon(&mut self, points: &[Point], rgba: Rgba) {
        self.auto_flush();
        self.geom.fill_polygon(points, rgba);
    }

    /// Size `(width, height)` in pixels of the box `text` would occupy: the
    /// widest line's width (8 px a character) by 17 px a line.
    ///
    /// ```no_run
    /// # let r = animkit_player::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// assert_eq!(r.text_size("abc\nd"), (24, 34));
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn text_size(&self, text: &str) -> (u32, u32) {
        let (w, h) = self.atlas.measure(text);
        (w as u32, h as u32)
    }

    /// The pixel rectangle of the box [`text`](Self::text) would draw into.
    ///
    /// ```no_run
    /// # use animkit_player::render::*;
    /// # let r = HeadlessGl::new(8, 8)?.into_renderer()?;
    /// let b = r.text_box([100.0, 50.0], HAlign::Left, VAlign::Top, "hi");
    /// assert_eq!(b, PixelRect::new(100, 50, 16, 17));
    /// # Ok::<(), RenderError>(())
    /// ```
    pub fn text_box(&self, p: Point, h_align: HAlign, v_align: VAlign, text: &str) -> PixelRect {
        let (w, h) = self.atlas.measure(text);
        let o = box_origin(p, w, h, h_align, v_align);
        PixelRect::new(o[0], o[1], w, h)
    }

    /// Draws `text` in the embedded font (DejaVu Sans Mono,
    /// [`FONT_PX`](crate::render::FONT_PX) = 14 px: 8 px character cells, 17 px lines)
    /// so that its box ([`text_box`](Self::text_box)) is aligned at `p`. `\n`
    /// starts a new line, `\t` jumps to the next multiple of 8 cells, other
    /// control characters are skipped. The box's corner is rounded to whole
    /// pixels so glyphs stay crisp; glyph ink may stick out of the box by a
    /// pixel for wide characters.
    ///
    /// ```no_run
    /// # use animkit_player::render::*;
    /// # let mut r = HeadlessGl::new(64, 64)?.into_renderer()?;
    /// r.text([32.0, 32.0], HAlign::Center, VAlign::Center, "two\nlines", [0.0, 0.0, 0.0, 1.0]);
    /// # Ok::<(), RenderError>(())
    /// ```
    pub fn text(&mut self, p: Point, h_align: HAlign, v_align: VAlign, text: &str, rgba: Rgba) {
        if text.is_empty() || !(p[0].is_finite() && p[1].is_finite()) {
            return;
        }
        let (w, h) = self.atlas.measure(text);
        let origin = box_origin(p, w, h, h_align, v_align);
        let quads = match self.atlas.layout(origin, text) {
            Ok(q) => q,
            Err(AtlasFull) => {
                // Draw what uses the old glyphs, then start the atlas afresh.
                self.flush();
                self.atlas.reset();
                match self.atlas.layout(origin, text) {
                    Ok(q) => q,
                    Err(AtlasFull) => return,
                }
            }
        };
        self.upload_glyphs();
        self.batch_for(None, MODE_GLYPH);
        let color = rgba_to_u8(rgba);
        for q in quads {
            geometry::textured_rect(&mut self.geom.vertices, q.dst, q.uv, color, MODE_GLYPH);
        }
    }

    fn upload_glyphs(&mut self) {
        let uploads = self.atlas.take_uploads();
        if uploads.is_empty() {
            return;
        }
        // SAFETY: current context; the rectangles lie inside the atlas.
        unsafe {
            let gl = &self.gl;
            gl.active_texture(glow::TEXTURE1);
            gl.bind_texture(glow::TEXTURE_2D, Some(self.atlas_tex));
            gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 1);
            for (x, y, w, h, data) in uploads {
                gl.tex_sub_image_2d(
                    glow::TEXTURE_2D,
                    0,
                    x as i32,
                    y as i32,
                    w as i32,
                    h as i32,
                    glow::RED,
                    glow::UNSIGNED_BYTE,
                    glow::PixelUnpackData::Slice(Some(&data)),
                );
            }
            gl.active_texture(glow::TEXTURE0);
        }
    }

    /// Draws an image 1:1 (one texel per pixel) with its box aligned at `p`
    /// (e.g. `Left, Top`: its top-left pixel's corner at `p`).
    ///
    /// ```no_run
    /// # use animkit_player::render::*;
    /// # let mut r = HeadlessGl::new(64, 64)?.into_renderer()?;
    /// let img = r.create_image(4, 4, [1.0, 0.0, 0.0, 1.0])?;
    /// r.blit(img, [10.0, 20.0], HAlign::Left, VAlign::Top)?; // covers 10..14 x 20..24
    /// # Ok::<(), RenderError>(())
    /// ```
    pub fn blit(&mut self, id: ImageId, p: Point, h_align: HAlign, v_align: VAlign) -> Result<(), RenderError> {
        let (iw, ih) = {
            let img = self.image(id)?;
            (img.width, img.height)
        };
        let (w, h) = (iw as f32, ih as f32);
        let tl = aligned_top_left(p, w, h, h_align, v_align);
        self.blit_region(id, PixelRect::new(0, 0, iw as i32, ih as i32), [tl[0], tl[1], w, h])
    }

    /// Draws the `src` rectangle of an image (in image pixels, row 0 = top)
    /// stretched to `dst` = `[x, y, width, height]` in target pixels (nearest
    /// texel, no smoothing). Parts of `src` outside the image wrap around.
    ///
    /// ```no_run
    /// # use animkit_player::render::*;
    /// # let mut r = HeadlessGl::new(64, 64)?.into_renderer()?;
    /// let sheet = r.create_image(64, 16, [1.0; 4])?;
    /// // third 16x16 sprite of the sheet, drawn twice as large at (0, 0)
    /// r.blit_region(sheet, PixelRect::new(32, 0, 16, 16), [0.0, 0.0, 32.0, 32.0])?;
    /// # Ok::<(), RenderError>(())
    /// ```
    pub fn blit_region(&mut self, id: ImageId, src: PixelRect, dst: [f32; 4]) -> Result<(), RenderError> {
        let img = self.image(id)?;
        let (iw, ih) = (img.width as f32, img.height as f32);
        if !dst.iter().all(|v| v.is_finite()) {
            return Ok(());
        }
        let uv = [
            src.x as f32 / iw,
            src.y as f32 / ih,
            (src.x as f32 + src.w as f32) / iw,
            (src.y as f32 + src.h as f32) / ih,
        ];
        self.batch_for(Some(id), MODE_TEXTURED);
        geometry::textured_rect(
            &mut self.geom.vertices,
            [dst[0], dst[1], dst[0] + dst[2], dst[1] + dst[3]],
            uv,
            [255; 4],
            MODE_TEXTURED,
        );
        Ok(())
    }

    /// Fills a polygon (even-odd rule, like [`fill_polygon`](Self::fill_polygon))
    /// with an image as texture under an affine map: the image's lower-left
    /// corner is at `anchor`, one repeat of the image spans vector `u` along
    /// its bottom edge (left to right) and vector `v` along its left edge
    /// (bottom to top), all in target pixels; outside one period the image
    /// repeats. Nearest-texel sampling. A degenerate map (`u` parallel to
    /// `v`) draws nothing.
    ///
    /// ```no_run
    /// # use animkit_player::render::*;
    /// # let mut r = HeadlessGl::new(64, 64)?.into_renderer()?;
    /// let img = r.create_image(8, 8, [1.0; 4])?;
    /// // upright, 16x16 pixels a repeat, lower-left corner at (0, 64)
    /// r.image_polygon(img, [0.0, 64.0], [16.0, 0.0], [0.0, -16.0],
    ///                 &[[0.0, 0.0], [64.0, 0.0], [64.0, 64.0], [0.0, 64.0]])?;
    /// # Ok::<(), RenderError>(())
    /// ```
    pub fn image_polygon(
        &mut self,
        id: ImageId,
        anchor: Point,
        u: Point,
        v: Point,
        points: &[Point],
    ) -> Result<(), RenderError> {
        self.image(id)?;
        let det = u[0] * v[1] - u[1] * v[0];
        if !(det.is_finite() && det.abs() > 1e-12 && anchor.iter().all(|c| c.is_finite())) {
            return Ok(());
        }
        self.auto_flush();
        // q - anchor = s*u + t*v  =>  (s, t) by Cramer's rule; texture v runs
        // from the top row (0) down, so the lower-left corner is (0, 1).
        self.geom.polygon(points, Some(id), 1 << MODE_TEXTURED, |pos| {
            let d = [pos[0] - anchor[0], pos[1] - anchor[1]];
            let s = (d[0] * v[1] - d[1] * v[0]) / det;
            let t = (u[0] * d[1] - u[1] * d[0]) / det;
            Vertex { pos, uv: [s, 1.0 - t], color: [255; 4], mode: MODE_TEXTURED }
        });
        Ok(())
    }
}
