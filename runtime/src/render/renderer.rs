//! [`Renderer`]: batched 2D drawing into an offscreen RGBA8 framebuffer.
//!
//! Every primitive is tessellated on the CPU into one vertex stream; a
//! [`flush`](Renderer::flush) uploads the stream once and issues one draw
//! call per batch. A batch breaks only when the image texture or the clip
//! rectangle changes (solid, dashed and text geometry fit in any batch: the
//! glyph atlas sits on its own texture unit).

use std::any::Any;
use std::collections::HashMap;
use std::path::Path;

use super::error::{RenderError, check_size};
use super::geometry::{self, Geometry, MODE_GLYPH, MODE_TEXTURED, VERTEX_SIZE, Vertex};
use super::image::{RgbaImage, write_atomic};
use super::shader::{self, ATTR_COLOR, ATTR_MODE, ATTR_POS, ATTR_UV, Program, Variant};
use super::text::{ATLAS_SIZE, AtlasFull, GlyphAtlas, box_origin};
use super::types::{HAlign, ImageId, PixelRect, Point, RenderStats, Rgba, VAlign, aligned_top_left, rgba_to_u8};
use glow::HasContext;

/// A flush happens by itself once this many vertices are pending (72 MiB).
const AUTO_FLUSH_VERTICES: usize = 3 << 20;

struct Image {
    tex: glow::Texture,
    width: u32,
    height: u32,
}

/// Draws 2D primitives in pixel coordinates into its own RGBA8 framebuffer.
///
/// Coordinates are pixels, origin at the top-left corner, x right, y down;
/// pixel `(i, j)` has its centre at `(i + 0.5, j + 0.5)`. A pixel is covered
/// by a filled shape when its centre (nudged 1/64 px up-left, so no edge ever
/// runs exactly through it) is inside; a point on a pixel corner belongs to
/// the pixel below-right of it.
///
/// Drawing is deferred: primitives are appended to a batch and reach the
/// framebuffer at [`flush`](Self::flush) (or [`read_pixels`](Self::read_pixels),
/// `save_png`, a resize, ...). Colours are [`Rgba`] in `0..=1`, blended
/// "source over".
///
/// ```no_run
/// use animkit_runtime::render::*;
/// let mut r = HeadlessGl::new(200, 100)?.into_renderer()?;
/// r.clear([1.0, 1.0, 1.0, 1.0]);
/// r.stroke(&[[10.0, 10.0], [190.0, 90.0]], false, 3.0, 0xffff, [0.0, 0.0, 1.0, 1.0]);
/// r.text([100.0, 50.0], HAlign::Center, VAlign::Center, "hello", [0.0, 0.0, 0.0, 1.0]);
/// r.save_png("hello.png")?;
/// # Ok::<(), RenderError>(())
/// ```
pub struct Renderer {
    gl: glow::Context,
    /// The general program.
    program: Program,
    /// Once used, the cheaper variants ([`Variant::Dashed`],
    /// [`Variant::Solid`]).
    variants: [Option<Program>; 2],
    vao: glow::VertexArray,
    vbo: glow::Buffer,
    fbo: glow::Framebuffer,
    color: glow::Renderbuffer,
    width: u32,
    height: u32,
    atlas: GlyphAtlas,
    atlas_tex: glow::Texture,
    images: HashMap<ImageId, Image>,
    next_image: u32,
    image_pixel_limit: u64,
    geom: Geometry,
    clear_color: Rgba,
    last: RenderStats,
    total: RenderStats,
    // Last: dropped after the GL objects are deleted in `Drop`.
    _keepalive: Option<Box<dyn Any>>,
}

impl std::fmt::Debug for Renderer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Renderer")
            .field("width", &self.width)
            .field("height", &self.height)
            .field("images", &self.images.len())
            .field("pending_vertices", &self.geom.vertex_count())
            .finish_non_exhaustive()
    }
}

fn gl_err(what: &str) -> impl Fn(String) -> RenderError + '_ {
    move |e| RenderError::Gl(format!("{what}: {e}"))
}

/// Creates an RGBA8 renderbuffer-backed framebuffer of the given size.
unsafe fn make_target(
    gl: &glow::Context,
    width: u32,
    height: u32,
) -> Result<(glow::Framebuffer, glow::Renderbuffer), RenderError> {
    unsafe {
        let rb = gl.create_renderbuffer().map_err(gl_err("renderbuffer"))?;
        gl.bind_renderbuffer(glow::RENDERBUFFER, Some(rb));
        gl.renderbuffer_storage(glow::RENDERBUFFER, glow::RGBA8, width as i32, height as i32);
        let fbo = gl.create_framebuffer().map_err(gl_err("framebuffer"))?;
        gl.bind_framebuffer(glow::FRAMEBUFFER, Some(fbo));
        gl.framebuffer_renderbuffer(glow::FRAMEBUFFER, glow::COLOR_ATTACHMENT0, glow::RENDERBUFFER, Some(rb));
        let status = gl.check_framebuffer_status(glow::FRAMEBUFFER);
        if status != glow::FRAMEBUFFER_COMPLETE {
            gl.delete_framebuffer(fbo);
            gl.delete_renderbuffer(rb);
            return Err(RenderError::Gl(format!("framebuffer {width}x{height} incomplete (status 0x{status:x})")));
        }
        Ok((fbo, rb))
    }
}

impl Renderer {
    /// A renderer drawing with `gl` (which must be current on this thread and
    /// stay alive as long as the renderer) into its own `width` x `height`
    /// framebuffer, cleared to opaque white.
    ///
    /// ```no_run
    /// use animkit_runtime::render::*;
    /// # fn window_gl() -> glow::Context { unimplemented!() }
    /// let gl: glow::Context = window_gl(); // from the window host's context
    /// let r = Renderer::new(gl, 640, 480)?;
    /// # Ok::<(), RenderError>(())
    /// ```
    pub fn new(gl: glow::Context, width: u32, height: u32) -> Result<Renderer, RenderError> {
        Self::with_keepalive(gl, width, height, None)
    }

    /// Like [`new`](Self::new), also owning `keepalive` (for example the GL
    /// context and display behind `gl`), which is dropped after the
    /// renderer's GL objects are deleted.
    ///
    /// ```no_run
    /// # use animkit_runtime::render::*;
    /// # fn window_gl() -> (glow::Context, String) { unimplemented!() }
    /// let (gl, context_owner) = window_gl();
    /// let r = Renderer::with_keepalive(gl, 640, 480, Some(Box::new(context_owner)))?;
    /// # Ok::<(), RenderError>(())
    /// ```
    pub fn with_keepalive(
        gl: glow::Context,
        width: u32,
        height: u32,
        keepalive: Option<Box<dyn Any>>,
    ) -> Result<Renderer, RenderError> {
        check_size(width.into(), height.into())?;
        let atlas = GlyphAtlas::new().map_err(RenderError::Gl)?;
        // SAFETY: the caller guarantees `gl` is current; every object made here
        // is owned by the renderer and deleted in Drop.
        unsafe {
            let program = shader::build(&gl, Variant::General).map_err(RenderError::Gl)?;
            let vao = gl.create_vertex_array().map_err(gl_err("vertex array"))?;
            let vbo = gl.create_buffer().map_err(gl_err("buffer"))?;
            gl.bind_vertex_array(Some(vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(vbo));
            let stride = VERTEX_SIZE as i32;
            gl.enable_vertex_attrib_array(ATTR_POS);
            gl.vertex_attrib_pointer_f32(ATTR_POS, 2, glow::FLOAT, false, stride, 0);
            gl.enable_vertex_attrib_array(ATTR_UV);
            gl.vertex_attrib_pointer_f32(ATTR_UV, 2, glow::FLOAT, false, stride, 8);
            gl.enable_vertex_attrib_array(ATTR_COLOR);
            gl.vertex_attrib_pointer_f32(ATTR_COLOR, 4, glow::UNSIGNED_BYTE, true, stride, 16);
            gl.enable_vertex_attrib_array(ATTR_MODE);
            gl.vertex_attrib_pointer_i32(ATTR_MODE, 1, glow::UNSIGNED_INT, stride, 20);

            let atlas_tex = gl.create_texture().map_err(gl_err("atlas texture"))?;
            gl.active_texture(glow::TEXTURE1);
            gl.bind_texture(glow::TEXTURE_2D, Some(atlas_tex));
            set_tex_params(&gl, glow::CLAMP_TO_EDGE);
            let zeros = vec![0u8; (ATLAS_SIZE * ATLAS_SIZE) as usize];
            gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 1);
            gl.tex_image_2d(
                glow::TEXTURE_2D,
                0,
                glow::R8 as i32,
                ATLAS_SIZE as i32,
                ATLAS_SIZE as i32,
                0,
                glow::RED,
                glow::UNSIGNED_BYTE,
                glow::PixelUnpackData::Slice(Some(&zeros)),
            );
            gl.active_texture(glow::TEXTURE0);

            let (fbo, color) = make_target(&gl, width, height)?;
            let mut r = Renderer {
                gl,
                program,
                variants: [None, None],
                vao,
                vbo,
                fbo,
                color,
                width,
                height,
                atlas,
                atlas_tex,
                images: HashMap::new(),
                next_image: 1,
                image_pixel_limit: super::MAX_IMAGE_PIXELS,
                geom: Geometry::new(),
                clear_color: [1.0, 1.0, 1.0, 1.0],
                last: RenderStats::default(),
                total: RenderStats::default(),
                _keepalive: keepalive,
            };
            r.clear([1.0, 1.0, 1.0, 1.0]);
            Ok(r)
        }
    }

    /// The `glow::Context` the renderer draws with (for a window host).
    ///
    /// ```no_run
    /// # let r = animkit_runtime::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// let gl: &glow::Context = r.gl();
    /// # Ok::<(), animkit_runtime::render::RenderError>(())
    /// ```
    pub fn gl(&self) -> &glow::Context {
        &self.gl
    }

    /// Target size in pixels, `(width, height)`.
    ///
    /// ```no_run
    /// # let r = animkit_runtime::render::HeadlessGl::new(8, 6)?.into_renderer()?;
    /// assert_eq!(r.size(), (8, 6));
    /// # Ok::<(), animkit_runtime::render::RenderError>(())
    /// ```
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// What the last flush that drew something submitted: draw calls and
    /// vertices (`flushes` is 1 after any such flush).
    ///
    /// ```no_run
    /// # use animkit_runtime::render::*;
    /// # let mut r = HeadlessGl::new(64, 64)?.into_renderer()?;
    /// for i in 0..100 {
    ///     r.stroke(&[[0.0, i as f32], [50.0, i as f32]], false, 1.0, 0xffff, [0.0, 0.0, 0.0, 1.0]);
    /// }
    /// r.flush();
    /// assert_eq!(r.stats().draw_calls, 1);
    /// # Ok::<(), RenderError>(())
    /// ```
    pub fn stats(&self) -> RenderStats {
        self.last
    }

    /// Totals over every flush since the renderer was made.
    ///
    /// ```no_run
    /// # let r = animkit_runtime::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// println!("{} draw calls so far", r.total_stats().draw_calls);
    /// # Ok::<(), animkit_runtime::render::RenderError>(())
    /// ```
    pub fn total_stats(&self) -> RenderStats {
        self.total
    }

    /// Starts or continues a batch compatible with `image` and the clip.
    fn batch_for(&mut self, image: Option<ImageId>, mode: u32) {
        self.auto_flush();
        self.geom.batch_for(image, 1 << mode);
    }

    /// Flushes once [`AUTO_FLUSH_VERTICES`] are pending.
    #[inline]
    fn auto_flush(&mut self) {
        if self.geom.vertices.len() >= AUTO_FLUSH_VERTICES {
            self.flush();
        }
    }

    /// The CPU half: the primitives queued since the last flush.
    ///
    /// ```no_run
    /// # let mut r = animkit_runtime::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// r.dot([1.0, 1.0], [0.0, 0.0, 0.0, 1.0]);
    /// assert_eq!(r.geometry().vertex_count(), 6);
    /// # Ok::<(), animkit_runtime::render::RenderError>(())
    /// ```
    pub fn geometry(&self) -> &Geometry {
        &self.geom
    }

    /// Fills the whole target with `rgba` (ignoring the clip rectangle) and
    /// drops everything drawn since the last flush, which it would cover.
    /// The colour is also what [`resize`](Self::resize) fills new area with.
    ///
    /// ```no_run
    /// # let mut r = animkit_runtime::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// r.clear([1.0, 1.0, 1.0, 1.0]); // white
    /// # Ok::<(), animkit_runtime::render::RenderError>(())
    /// ```
    pub fn clear(&mut self, rgba: Rgba) {
        self.geom.clear();
        self.clear_color = rgba;
        let c = rgba_to_u8(rgba).map(|v| f32::from(v) / 255.0);
        // SAFETY: current context, own framebuffer.
        unsafe {
            self.gl.bind_framebuffer(glow::FRAMEBUFFER, Some(self.fbo));
            self.gl.disable(glow::SCISSOR_TEST);
            self.gl.clear_color(c[0], c[1], c[2], c[3]);
            self.gl.clear(glow::COLOR_BUFFER_BIT);
        }
    }

    /// Restricts later drawing to the pixels of `clip` (`None`: the whole
    /// target). Like a GL scissor it is axis-aligned; it does not affect
    /// [`clear`](Self::clear).
    ///
    /// ```no_run
    /// # use animkit_runtime::render::*;
    /// # let mut r = HeadlessGl::new(64, 64)?.into_renderer()?;
    /// r.set_clip(Some(PixelRect::new(0, 0, 32, 64))); // left half only
    /// r.set_clip(None);
    /// # Ok::<(), RenderError>(())
    /// ```
    pub fn set_clip(&mut self, clip: Option<PixelRect>) {
        self.geom.set_clip(clip);
    }

    /// The current clip rectangle.
    ///
    /// ```no_run
    /// # let r = animkit_runtime::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// assert_eq!(r.clip(), None);
    /// # Ok::<(), animkit_runtime::render::RenderError>(())
    /// ```
    pub fn clip(&self) -> Option<PixelRect> {
        self.geom.clip()
    }

    /// Changes the target size. With `keep_contents` the old pixels stay,
    /// anchored at the top-left corner (cropped when shrinking); new area, or
    /// everything without `keep_contents`, gets the last [`clear`](Self::clear)
    /// colour. Pending drawing is flushed into the old target first.
    ///
    /// ```no_run
    /// # let mut r = animkit_runtime::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// r.resize(800, 600, true)?;
    /// # Ok::<(), animkit_runtime::render::RenderError>(())
    /// ```
    pub fn resize(&mut self, width: u32, height: u32, keep_contents: bool) -> Result<(), RenderError> {
        check_size(width.into(), height.into())?;
        self.flush();
        // SAFETY: current context; the old target is deleted once copied.
        unsafe {
            let (fbo, color) = make_target(&self.gl, width, height)?;
            let gl = &self.gl;
            let c = rgba_to_u8(self.clear_color).map(|v| f32::from(v) / 255.0);
            gl.disable(glow::SCISSOR_TEST);
            gl.clear_color(c[0], c[1], c[2], c[3]);
            gl.clear(glow::COLOR_BUFFER_BIT);
            if keep_contents {
                let (ow, oh) = (self.width as i32, self.height as i32);
                let (nw, nh) = (width as i32, height as i32);
                let (w, h) = (ow.min(nw), oh.min(nh));
                gl.bind_framebuffer(glow::READ_FRAMEBUFFER, Some(self.fbo));
                gl.bind_framebuffer(glow::DRAW_FRAMEBUFFER, Some(fbo));
                // GL rows count from the bottom: keep the top `h` rows.
                gl.blit_framebuffer(0, oh - h, w, oh, 0, nh - h, w, nh, glow::COLOR_BUFFER_BIT, glow::NEAREST);
            }
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(fbo));
            gl.delete_framebuffer(self.fbo);
            gl.delete_renderbuffer(self.color);
            self.fbo = fbo;
            self.color = color;
        }
        self.width = width;
        self.height = height;
        Ok(())
    }

    /// Sets exactly one pixel: the one containing `p` (`floor(p)`), blended.
    ///
    /// ```no_run
    /// # let mut r = animkit_runtime::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// r.dot([3.5, 4.5], [1.0, 0.0, 0.0, 1.0]); // pixel (3, 4)
    /// # Ok::<(), animkit_runtime::render::RenderError>(())
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
    /// # let mut r = animkit_runtime::render::HeadlessGl::new(64, 64)?.into_renderer()?;
    /// let square = [[10.0, 10.0], [50.0, 10.0], [50.0, 50.0], [10.0, 50.0]];
    /// r.stroke(&square, true, 3.0, 0x00ff, [0.0, 0.0, 0.0, 1.0]); // dashed, 3 px
    /// # Ok::<(), animkit_runtime::render::RenderError>(())
    /// ```
    pub fn stroke(&mut self, points: &[Point], closed: bool, thick: f32, dash: u16, rgba: Rgba) {
        self.auto_flush();
        self.geom.stroke(points, closed, thick, dash, rgba);
    }

    /// A line from `p0` to `p1` (stroked like [`stroke`](Self::stroke)) with a
    /// solid triangular head whose tip is at `p1`. The head is
    /// [`arrow_head_length(thick)`](super::arrow_head_length) `= 6 + 4 *
    /// max(thick, 1)` pixels long and as wide at its base as it is long; on
    /// arrows shorter than that the head shrinks to the arrow's length and
    /// there is no shaft.
    ///
    /// ```no_run
    /// # let mut r = animkit_runtime::render::HeadlessGl::new(64, 64)?.into_renderer()?;
    /// r.arrow([5.0, 32.0], [60.0, 32.0], 1.0, 0xffff, [0.0, 0.0, 0.0, 1.0]);
    /// # Ok::<(), animkit_runtime::render::RenderError>(())
    /// ```
    pub fn arrow(&mut self, p0: Point, p1: Point, thick: f32, dash: u16, rgba: Rgba) {
        self.auto_flush();
        self.geom.arrow(p0, p1, thick, dash, rgba);
    }

    /// Fills a convex polygon (a triangle fan from the first point; cheaper
    /// than [`fill_polygon`](Self::fill_polygon), wrong for concave input).
    ///
    /// ```no_run
    /// # let mut r = animkit_runtime::render::HeadlessGl::new(64, 64)?.into_renderer()?;
    /// r.fill_convex(&[[10.0, 10.0], [20.0, 10.0], [20.0, 20.0], [10.0, 20.0]], [0.0, 0.0, 0.0, 1.0]);
    /// // covers exactly columns 10..=19, rows 10..=19
    /// # Ok::<(), animkit_runtime::render::RenderError>(())
    /// ```
    pub fn fill_convex(&mut self, points: &[Point], rgba: Rgba) {
        self.auto_flush();
        self.geom.fill_convex(points, rgba);
    }

    /// Fills any polygon — concave, self-intersecting, with holes formed by
    /// crossing edges — with the **even-odd** rule (a point is inside when a
    /// ray from it crosses the outline an odd number of times), as a scanline
    /// software renderer does: the centre of a five-pointed star drawn in one
    /// stroke stays empty.
    ///
    /// ```no_run
    /// # let mut r = animkit_runtime::render::HeadlessGl::new(64, 64)?.into_renderer()?;
    /// r.fill_polygon(&[[10.0, 10.0], [50.0, 10.0], [30.0, 30.0], [50.0, 50.0], [10.0, 50.0]], [0.0, 0.0, 0.0, 1.0]);
    /// # Ok::<(), animkit_runtime::render::RenderError>(())
    /// ```
    pub fn fill_polygon(&mut self, points: &[Point], rgba: Rgba) {
        self.auto_flush();
        self.geom.fill_polygon(points, rgba);
    }

    /// Size `(width, height)` in pixels of the box `text` would occupy: the
    /// widest line's width (8 px a character) by 17 px a line.
    ///
    /// ```no_run
    /// # let r = animkit_runtime::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// assert_eq!(r.text_size("abc\nd"), (24, 34));
    /// # Ok::<(), animkit_runtime::render::RenderError>(())
    /// ```
    pub fn text_size(&self, text: &str) -> (u32, u32) {
        let (w, h) = self.atlas.measure(text);
        (w as u32, h as u32)
    }

    /// The pixel rectangle of the box [`text`](Self::text) would draw into.
    ///
    /// ```no_run
    /// # use animkit_runtime::render::*;
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
    /// [`FONT_PX`](super::FONT_PX) = 14 px: 8 px character cells, 17 px lines)
    /// so that its box ([`text_box`](Self::text_box)) is aligned at `p`. `\n`
    /// starts a new line, `\t` jumps to the next multiple of 8 cells, other
    /// control characters are skipped. The box's corner is rounded to whole
    /// pixels so glyphs stay crisp; glyph ink may stick out of the box by a
    /// pixel for wide characters.
    ///
    /// ```no_run
    /// # use animkit_runtime::render::*;
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

    /// Creates a `width` x `height` image filled with `fill`. Sides must be
    /// `1..=8192`, and all live images together hold at most
    /// [`MAX_IMAGE_PIXELS`](super::MAX_IMAGE_PIXELS) pixels.
    ///
    /// ```no_run
    /// # let mut r = animkit_runtime::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// let img = r.create_image(16, 16, [1.0, 1.0, 1.0, 1.0])?;
    /// assert!(r.create_image(100_000, 1, [0.0; 4]).is_err());
    /// # Ok::<(), animkit_runtime::render::RenderError>(())
    /// ```
    pub fn create_image(&mut self, width: u32, height: u32, fill: Rgba) -> Result<ImageId, RenderError> {
        check_size(width.into(), height.into())?;
        self.check_image_memory(width, height)?;
        self.add_image(&RgbaImage::new(width, height, rgba_to_u8(fill)))
    }

    /// Creates an image from RGBA8 pixels (row 0 = top row).
    ///
    /// ```no_run
    /// # use animkit_runtime::render::*;
    /// # let mut r = HeadlessGl::new(8, 8)?.into_renderer()?;
    /// let img = r.add_image(&RgbaImage::new(2, 2, [255, 0, 0, 255]))?;
    /// # Ok::<(), RenderError>(())
    /// ```
    pub fn add_image(&mut self, image: &RgbaImage) -> Result<ImageId, RenderError> {
        check_size(image.width.into(), image.height.into())?;
        self.check_image_memory(image.width, image.height)?;
        if image.data.len() != image.width as usize * image.height as usize * 4 {
            return Err(RenderError::Png("pixel buffer has the wrong length".into()));
        }
        // SAFETY: current context; the data has exactly w*h*4 bytes.
        let tex = unsafe {
            let gl = &self.gl;
            let tex = gl.create_texture().map_err(gl_err("image texture"))?;
            gl.active_texture(glow::TEXTURE0);
            gl.bind_texture(glow::TEXTURE_2D, Some(tex));
            set_tex_params(gl, glow::REPEAT);
            gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 1);
            gl.tex_image_2d(
                glow::TEXTURE_2D,
                0,
                glow::RGBA8 as i32,
                image.width as i32,
                image.height as i32,
                0,
                glow::RGBA,
                glow::UNSIGNED_BYTE,
                glow::PixelUnpackData::Slice(Some(&image.data)),
            );
            tex
        };
        let id = ImageId(self.next_image);
        self.next_image += 1;
        self.images.insert(id, Image { tex, width: image.width, height: image.height });
        Ok(id)
    }

    /// Fails if a new `width` x `height` image would make the live images
    /// hold more than [`MAX_IMAGE_PIXELS`](super::MAX_IMAGE_PIXELS).
    fn check_image_memory(&self, width: u32, height: u32) -> Result<(), RenderError> {
        let requested = u64::from(width) * u64::from(height);
        let held: u64 = self.images.values().map(|i| u64::from(i.width) * u64::from(i.height)).sum();
        if held + requested > self.image_pixel_limit {
            return Err(RenderError::ImageMemory { requested, held, limit: self.image_pixel_limit });
        }
        Ok(())
    }

    /// Lowers (or raises) the most pixels all live images may hold
    /// together, [`MAX_IMAGE_PIXELS`](super::MAX_IMAGE_PIXELS) by default.
    ///
    /// ```no_run
    /// # let mut r = animkit_runtime::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// r.set_image_pixel_limit(100);
    /// assert!(r.create_image(10, 10, [0.0; 4]).is_ok());
    /// assert!(r.create_image(1, 1, [0.0; 4]).is_err());
    /// # Ok::<(), animkit_runtime::render::RenderError>(())
    /// ```
    pub fn set_image_pixel_limit(&mut self, pixels: u64) {
        self.image_pixel_limit = pixels;
    }

    /// Loads a PNG file as a new image (see [`RgbaImage::decode_png`]).
    ///
    /// ```no_run
    /// # let mut r = animkit_runtime::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// let sprite = r.load_png("sprite.png")?;
    /// # Ok::<(), animkit_runtime::render::RenderError>(())
    /// ```
    pub fn load_png(&mut self, path: impl AsRef<Path>) -> Result<ImageId, RenderError> {
        let img = RgbaImage::load_png(path)?;
        self.add_image(&img)
    }

    /// Decodes PNG bytes as a new image.
    ///
    /// ```no_run
    /// # let mut r = animkit_runtime::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// let bytes = std::fs::read("sprite.png").unwrap();
    /// let sprite = r.load_png_bytes(&bytes)?;
    /// # Ok::<(), animkit_runtime::render::RenderError>(())
    /// ```
    pub fn load_png_bytes(&mut self, bytes: &[u8]) -> Result<ImageId, RenderError> {
        let img = RgbaImage::decode_png(bytes)?;
        self.add_image(&img)
    }

    /// `(width, height)` of a live image.
    ///
    /// ```no_run
    /// # let mut r = animkit_runtime::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// let img = r.create_image(3, 2, [0.0; 4])?;
    /// assert_eq!(r.image_size(img), Some((3, 2)));
    /// # Ok::<(), animkit_runtime::render::RenderError>(())
    /// ```
    pub fn image_size(&self, id: ImageId) -> Option<(u32, u32)> {
        self.images.get(&id).map(|i| (i.width, i.height))
    }

    fn image(&self, id: ImageId) -> Result<&Image, RenderError> {
        self.images.get(&id).ok_or(RenderError::UnknownImage(id))
    }

    /// Flushes if pending drawing samples image `id` (before it changes).
    fn flush_if_uses(&mut self, id: ImageId) {
        if self.geom.batches.iter().any(|b| b.image == Some(id)) {
            self.flush();
        }
    }

    /// Writes a run of pixels into row `y` (row 0 = top) of an image, starting
    /// at column `x`: `pixels[i]` goes to column `x + i`; `None` leaves that
    /// pixel as it is; pixels outside the image are ignored. Drawing already
    /// queued still sees the old pixels.
    ///
    /// ```no_run
    /// # let mut r = animkit_runtime::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// let img = r.create_image(4, 4, [1.0; 4])?;
    /// let red = Some([255, 0, 0, 255]);
    /// r.set_pixels(img, 1, 0, &[red, None, red])?; // columns 1 and 3 of the top row
    /// # Ok::<(), animkit_runtime::render::RenderError>(())
    /// ```
    pub fn set_pixels(&mut self, id: ImageId, x: i64, y: i64, pixels: &[Option<[u8; 4]>]) -> Result<(), RenderError> {
        let (w, h) = {
            let img = self.image(id)?;
            (i64::from(img.width), i64::from(img.height))
        };
        if y < 0 || y >= h {
            return Ok(());
        }
        self.flush_if_uses(id);
        let tex = self.image(id)?.tex;
        let mut runs: Vec<(i64, Vec<u8>)> = Vec::new();
        let mut cur: Option<(i64, Vec<u8>)> = None;
        for (i, p) in pixels.iter().enumerate() {
            let col = x.saturating_add(i as i64);
            match p {
                Some(rgba) if (0..w).contains(&col) => match &mut cur {
                    Some((_, data)) => data.extend_from_slice(rgba),
                    None => cur = Some((col, rgba.to_vec())),
                },
                _ => runs.extend(cur.take()),
            }
        }
        runs.extend(cur.take());
        // SAFETY: current context; each run lies inside row y of the texture.
        unsafe {
            let gl = &self.gl;
            gl.active_texture(glow::TEXTURE0);
            gl.bind_texture(glow::TEXTURE_2D, Some(tex));
            gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 1);
            for (x0, data) in runs {
                gl.tex_sub_image_2d(
                    glow::TEXTURE_2D,
                    0,
                    x0 as i32,
                    y as i32,
                    (data.len() / 4) as i32,
                    1,
                    glow::RGBA,
                    glow::UNSIGNED_BYTE,
                    glow::PixelUnpackData::Slice(Some(&data)),
                );
            }
        }
        Ok(())
    }

    /// Frees an image; its id is never reused. Queued drawing that uses it is
    /// flushed first. Returns whether the id was live.
    ///
    /// ```no_run
    /// # let mut r = animkit_runtime::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// let img = r.create_image(4, 4, [1.0; 4])?;
    /// assert!(r.delete_image(img));
    /// assert!(!r.delete_image(img));
    /// # Ok::<(), animkit_runtime::render::RenderError>(())
    /// ```
    pub fn delete_image(&mut self, id: ImageId) -> bool {
        if !self.images.contains_key(&id) {
            return false;
        }
        self.flush_if_uses(id);
        if let Some(img) = self.images.remove(&id) {
            // SAFETY: current context; no pending batch samples it any more.
            unsafe { self.gl.delete_texture(img.tex) };
        }
        true
    }

    /// Draws an image 1:1 (one texel per pixel) with its box aligned at `p`
    /// (e.g. `Left, Top`: its top-left pixel's corner at `p`).
    ///
    /// ```no_run
    /// # use animkit_runtime::render::*;
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
    /// # use animkit_runtime::render::*;
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
    /// # use animkit_runtime::render::*;
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
        let geom = &mut self.geom;
        let before = geom.vertices.len();
        // q - anchor = s*u + t*v  =>  (s, t) by Cramer's rule; texture v runs
        // from the top row (0) down, so the lower-left corner is (0, 1).
        geometry::tessellate_even_odd(&mut geom.tess, &mut geom.scratch, points, &mut geom.vertices, |pos| {
            let d = [pos[0] - anchor[0], pos[1] - anchor[1]];
            let s = (d[0] * v[1] - d[1] * v[0]) / det;
            let t = (u[0] * d[1] - u[1] * d[0]) / det;
            Vertex { pos, uv: [s, 1.0 - t], color: [255; 4], mode: MODE_TEXTURED }
        });
        if geom.vertices.len() == before {
            return Ok(());
        }
        // The batch must start before the polygon's vertices.
        let added = geom.vertices.split_off(before);
        geom.batch_for(Some(id), 1 << MODE_TEXTURED);
        geom.vertices.extend_from_slice(&added);
        Ok(())
    }

    /// Draws everything queued into the framebuffer: one vertex upload and
    /// one draw call per batch. Updates [`stats`](Self::stats).
    ///
    /// ```no_run
    /// # let mut r = animkit_runtime::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// r.dot([1.0, 1.0], [0.0, 0.0, 0.0, 1.0]);
    /// r.flush();
    /// # Ok::<(), animkit_runtime::render::RenderError>(())
    /// ```
    pub fn flush(&mut self) {
        if self.geom.vertices.is_empty() {
            self.geom.batches.clear();
            return;
        }
        self.build_programs();
        let mut stats = RenderStats { flushes: 1, vertices: self.geom.vertices.len() as u64, draw_calls: 0 };
        // SAFETY: current context; all objects are the renderer's own; every
        // batch range lies inside the uploaded buffer.
        unsafe {
            let gl = &self.gl;
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(self.fbo));
            gl.viewport(0, 0, self.width as i32, self.height as i32);
            gl.bind_vertex_array(Some(self.vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.vbo));
            gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, self.geom.vertex_bytes(), glow::STREAM_DRAW);
            gl.enable(glow::BLEND);
            gl.blend_equation(glow::FUNC_ADD);
            gl.blend_func_separate(glow::SRC_ALPHA, glow::ONE_MINUS_SRC_ALPHA, glow::ONE, glow::ONE_MINUS_SRC_ALPHA);
            gl.disable(glow::DEPTH_TEST);
            gl.disable(glow::CULL_FACE);
            gl.active_texture(glow::TEXTURE1);
            gl.bind_texture(glow::TEXTURE_2D, Some(self.atlas_tex));
            gl.active_texture(glow::TEXTURE0);
            let mut current = None;
            for i in 0..self.geom.batches.len() {
                let b = self.geom.batches[i];
                let end = self.geom.batch_end(i);
                if end <= b.start {
                    continue;
                }
                let program = self.built_program(self.geom.batch_modes(i));
                if current != Some(program.program) {
                    gl.use_program(Some(program.program));
                    gl.uniform_2_f32(program.u_size.as_ref(), self.width as f32, self.height as f32);
                    current = Some(program.program);
                }
                match b.clip {
                    None => gl.disable(glow::SCISSOR_TEST),
                    Some(c) => {
                        let (x, y, w, h) = c.clamp_to(self.width, self.height);
                        gl.enable(glow::SCISSOR_TEST);
                        gl.scissor(x, self.height as i32 - y - h, w, h);
                    }
                }
                let tex = b.image.and_then(|id| self.images.get(&id)).map(|i| i.tex);
                gl.bind_texture(glow::TEXTURE_2D, tex);
                gl.draw_arrays(glow::TRIANGLES, b.start as i32, (end - b.start) as i32);
                stats.draw_calls += 1;
            }
            gl.disable(glow::SCISSOR_TEST);
            // Start rasterizing now (a software GL works on other cores while
            // the caller prepares the next batch).
            gl.flush();
        }
        self.geom.clear();
        self.last = stats;
        self.total.flushes += stats.flushes;
        self.total.vertices += stats.vertices;
        self.total.draw_calls += stats.draw_calls;
    }

    /// Builds the program variants the queued batches need, on first use
    /// (a variant that fails to build leaves the general program in use).
    fn build_programs(&mut self) {
        for i in 0..self.geom.batches.len() {
            let variant = Variant::for_modes(self.geom.batch_modes(i));
            if let Some(k) = variant_slot(variant) {
                if self.variants[k].is_none() {
                    // SAFETY: current context; the program is deleted in Drop.
                    self.variants[k] = unsafe { shader::build(&self.gl, variant) }.ok();
                }
            }
        }
    }

    /// The cheapest built program that draws the mode bits `modes`.
    fn built_program(&self, modes: u8) -> &Program {
        variant_slot(Variant::for_modes(modes)).and_then(|k| self.variants[k].as_ref()).unwrap_or(&self.program)
    }

    /// Flushes and reads the whole target back (top row first, RGBA8).
    ///
    /// ```no_run
    /// # let mut r = animkit_runtime::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// r.clear([1.0, 0.0, 0.0, 1.0]);
    /// assert_eq!(r.read_pixels().pixel(0, 0), Some([255, 0, 0, 255]));
    /// # Ok::<(), animkit_runtime::render::RenderError>(())
    /// ```
    pub fn read_pixels(&mut self) -> RgbaImage {
        self.flush();
        let mut img = RgbaImage::new(self.width, self.height, [0; 4]);
        // SAFETY: current context; the buffer holds exactly w*h*4 bytes.
        unsafe {
            let gl = &self.gl;
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(self.fbo));
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
        img
    }

    /// The target as PNG bytes (RGBA8).
    ///
    /// ```no_run
    /// # let mut r = animkit_runtime::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// let png: Vec<u8> = r.encode_png()?;
    /// # Ok::<(), animkit_runtime::render::RenderError>(())
    /// ```
    pub fn encode_png(&mut self) -> Result<Vec<u8>, RenderError> {
        self.read_pixels().encode_png()
    }

    /// Saves the target as a PNG, atomically: a temporary file in the same
    /// directory renamed over `path`, so no truncated PNG is ever left behind
    /// (see [`write_atomic`](super::write_atomic); `/dev/stdout` and other
    /// non-regular files are written directly).
    ///
    /// ```no_run
    /// # let mut r = animkit_runtime::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// r.save_png("frame0001.png")?;
    /// # Ok::<(), animkit_runtime::render::RenderError>(())
    /// ```
    pub fn save_png(&mut self, path: impl AsRef<Path>) -> Result<(), RenderError> {
        let bytes = self.encode_png()?;
        write_atomic(path.as_ref(), &bytes)
    }

    /// Animator's `screendump` bytes at 32 bpp: rows top to bottom, each pixel
    /// the bytes B, G, R, A (the little-endian 32-bit word `0xAARRGGBB`, as an
    /// SDL 32-bpp surface), no padding. See [`RgbaImage::to_raw`].
    ///
    /// ```no_run
    /// # let mut r = animkit_runtime::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// assert_eq!(r.raw_dump().len(), 8 * 8 * 4);
    /// # Ok::<(), animkit_runtime::render::RenderError>(())
    /// ```
    pub fn raw_dump(&mut self) -> Vec<u8> {
        self.read_pixels().to_raw(32).unwrap_or_default()
    }

    /// `screendump` bytes at `bpp` = 32, 24 (B, G, R), 16 (RGB565) or 15
    /// (XRGB1555), rows padded to 4 bytes like SDL surfaces; see
    /// [`RgbaImage::to_raw`] for the exact layout (Animator's `-D`).
    ///
    /// ```no_run
    /// # let mut r = animkit_runtime::render::HeadlessGl::new(3, 2)?.into_renderer()?;
    /// assert_eq!(r.raw_dump_bpp(16)?.len(), 2 * 8); // 6 bytes + 2 padding a row
    /// # Ok::<(), animkit_runtime::render::RenderError>(())
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
    /// # let mut r = animkit_runtime::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// r.blit_to_default_framebuffer(640, 480);
    /// // surface.swap_buffers(&context)?;
    /// # Ok::<(), animkit_runtime::render::RenderError>(())
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
            gl.bind_framebuffer(glow::READ_FRAMEBUFFER, Some(self.fbo));
            gl.bind_framebuffer(glow::DRAW_FRAMEBUFFER, None);
            gl.blit_framebuffer(0, 0, w, h, 0, wh - h, w, wh, glow::COLOR_BUFFER_BIT, glow::NEAREST);
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(self.fbo));
        }
    }
}

/// Where a cheaper program variant is kept in `Renderer::variants`.
fn variant_slot(v: Variant) -> Option<usize> {
    match v {
        Variant::General => None,
        Variant::Dashed => Some(0),
        Variant::Solid => Some(1),
    }
}

/// Nearest sampling, no mipmaps, the given wrap mode.
unsafe fn set_tex_params(gl: &glow::Context, wrap: u32) {
    unsafe {
        gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_MIN_FILTER, glow::NEAREST as i32);
        gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_MAG_FILTER, glow::NEAREST as i32);
        gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_WRAP_S, wrap as i32);
        gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_WRAP_T, wrap as i32);
        gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_MAX_LEVEL, 0);
    }
}

impl Drop for Renderer {
    fn drop(&mut self) {
        // SAFETY: the objects are the renderer's own; the context is still
        // alive (`_keepalive` drops after this).
        unsafe {
            let gl = &self.gl;
            for (_, img) in self.images.drain() {
                gl.delete_texture(img.tex);
            }
            gl.delete_texture(self.atlas_tex);
            gl.delete_framebuffer(self.fbo);
            gl.delete_renderbuffer(self.color);
            gl.delete_buffer(self.vbo);
            gl.delete_vertex_array(self.vao);
            gl.delete_program(self.program.program);
            for p in self.variants.iter().flatten() {
                gl.delete_program(p.program);
            }
        }
    }
}
