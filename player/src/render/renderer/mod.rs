//! [`Renderer`]: batched 2D drawing into an offscreen framebuffer.
//!
//! Every primitive is tessellated on the CPU into one vertex stream; a
//! [`flush`](Renderer::flush) uploads the stream once and issues one draw
//! call per batch. A batch breaks only when the image texture or the clip
//! rectangle changes (solid, dashed and text geometry fit in any batch: the
//! glyph atlas sits on its own texture unit).
//!
//! The renderer's halves live in their own files: this one holds its
//! state, the target's size and clip, and the flush; [`draw`] the drawing
//! calls, [`images`] the images (textures), [`readback`] what reads the
//! pixels back (PNG bytes, screendump bytes, the window blit), [`target`]
//! the offscreen framebuffer with its depth-stencil attachment.

mod background;
mod draw;
mod images;
mod pass3d;
mod readback;
mod target;

use std::any::Any;
use std::collections::HashMap;

use super::error::{RenderError, check_size};
use super::geometry::{BatchKind, Geometry, VERTEX_SIZE, as_bytes};
use super::scene3d::Gl3d;
use super::shader::{self, ATTR_COLOR, ATTR_MODE, ATTR_POS, ATTR_UV, Program, Variant};
use super::text::{ATLAS_SIZE, GlyphAtlas};
use super::types::{ImageId, PixelRect, RenderStats, Rgba, rgba_to_u8};
use glow::HasContext;
use images::Image;
use target::Target;

/// A flush happens by itself once this many vertices are pending (72 MiB).
const AUTO_FLUSH_VERTICES: usize = 3 << 20;
/// Vertices drawn between two `glFinish` calls inside one flush: a bound on
/// what a driver that bins before it rasterizes (llvmpipe) holds at once.
///
/// ```
/// assert_eq!(animkit_player::render::DRIVER_FLUSH_VERTICES, 524_288);
/// ```
pub const DRIVER_FLUSH_VERTICES: usize = 1 << 19;

/// Draws 2D primitives in pixel coordinates into its own framebuffer (RGBA8
/// colour, plus a depth-stencil buffer for fills and 3D).
///
/// Coordinates are pixels, origin at the top-left corner, x right, y down;
/// pixel `(i, j)` has its centre at `(i + 0.5, j + 0.5)`. A pixel is covered
/// by a filled shape when its centre (nudged 1/64 px up-left, so no edge ever
/// runs exactly through it) is inside; a point on a pixel corner belongs to
/// the pixel below-right of it.
///
/// Drawing is deferred: primitives are appended to a batch and reach the
/// framebuffer at [`flush`](Self::flush) (or [`read_pixels`](Self::read_pixels),
/// `encode_png`, a resize, ...). Colours are [`Rgba`] in `0..=1`, blended
/// "source over".
///
/// ```no_run
/// use animkit_player::render::*;
/// let mut r = HeadlessGl::new(200, 100)?.into_renderer()?;
/// r.clear([1.0, 1.0, 1.0, 1.0]);
/// r.stroke(&[[10.0, 10.0], [190.0, 90.0]], false, 3.0, 0xffff, [0.0, 0.0, 1.0, 1.0]);
/// r.text([100.0, 50.0], HAlign::Center, VAlign::Center, "hello", [0.0, 0.0, 0.0, 1.0]);
/// let png: Vec<u8> = r.encode_png()?; // the host writes the file
/// # Ok::<(), RenderError>(())
/// ```
pub struct Renderer {
    pub(in crate::render) gl: glow::Context,
    /// The general program.
    program: Program,
    /// Once used, the cheaper variants ([`Variant::Dashed`],
    /// [`Variant::Solid`]).
    variants: [Option<Program>; 2],
    vao: glow::VertexArray,
    vbo: glow::Buffer,
    target: Target,
    pub(in crate::render) width: u32,
    pub(in crate::render) height: u32,
    atlas: GlyphAtlas,
    atlas_tex: glow::Texture,
    images: HashMap<ImageId, Image>,
    next_image: u32,
    image_pixel_limit: u64,
    geom: Geometry,
    clear_color: Rgba,
    /// The target's alpha is coverage over an opaque background (see
    /// [`background`]): read back and shown opaque.
    background: bool,
    /// Something was flushed into the target since the last clear.
    drawn_since_clear: bool,
    last: RenderStats,
    total: RenderStats,
    /// The 3D path's GL objects, made on its first use (`render/scene3d/`).
    pub(in crate::render) scene3d: Option<Gl3d>,
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

impl Renderer {
    /// A renderer drawing with `gl` (which must be current on this thread and
    /// stay alive as long as the renderer) into its own `width` x `height`
    /// framebuffer, cleared to opaque white.
    ///
    /// ```no_run
    /// use animkit_player::render::*;
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
    /// # use animkit_player::render::*;
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

            let target = Target::new(&gl, width, height, [1.0; 4])?;
            let mut r = Renderer {
                gl,
                program,
                variants: [None, None],
                vao,
                vbo,
                target,
                width,
                height,
                atlas,
                atlas_tex,
                images: HashMap::new(),
                next_image: 1,
                image_pixel_limit: super::MAX_IMAGE_PIXELS,
                geom: Geometry::new(),
                clear_color: [1.0, 1.0, 1.0, 1.0],
                background: false,
                drawn_since_clear: false,
                last: RenderStats::default(),
                total: RenderStats::default(),
                scene3d: None,
                _keepalive: keepalive,
            };
            r.clear([1.0, 1.0, 1.0, 1.0]);
            Ok(r)
        }
    }

    /// The `glow::Context` the renderer draws with (for a window host).
    ///
    /// ```no_run
    /// # let r = animkit_player::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// let gl: &glow::Context = r.gl();
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn gl(&self) -> &glow::Context {
        &self.gl
    }

    /// Target size in pixels, `(width, height)`.
    ///
    /// ```no_run
    /// # let r = animkit_player::render::HeadlessGl::new(8, 6)?.into_renderer()?;
    /// assert_eq!(r.size(), (8, 6));
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// What the last flush that drew something submitted: draw calls and
    /// vertices (`flushes` is 1 after any such flush).
    ///
    /// ```no_run
    /// # use animkit_player::render::*;
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
    /// # let r = animkit_player::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// println!("{} draw calls so far", r.total_stats().draw_calls);
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn total_stats(&self) -> RenderStats {
        self.total
    }

    /// The offscreen framebuffer (for the 3D pass, which draws into it).
    pub(in crate::render) fn target_fbo(&self) -> glow::Framebuffer {
        self.target.fbo
    }

    /// Something was drawn into the target outside the 2D flush (a 3D
    /// pass).
    pub(in crate::render) fn mark_drawn(&mut self) {
        self.drawn_since_clear = true;
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
    /// # let mut r = animkit_player::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// r.dot([1.0, 1.0], [0.0, 0.0, 0.0, 1.0]);
    /// assert_eq!(r.geometry().vertex_count(), 6);
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn geometry(&self) -> &Geometry {
        &self.geom
    }

    /// Fills the whole target with `rgba` (ignoring the clip rectangle) and
    /// drops everything drawn since the last flush, which it would cover.
    /// The colour is also what [`resize`](Self::resize) fills new area with.
    ///
    /// ```no_run
    /// # let mut r = animkit_player::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// r.clear([1.0, 1.0, 1.0, 1.0]); // white
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn clear(&mut self, rgba: Rgba) {
        self.geom.clear();
        self.clear_color = rgba;
        self.background = false;
        self.drawn_since_clear = false;
        let c = rgba_to_u8(rgba).map(|v| f32::from(v) / 255.0);
        // SAFETY: current context, own framebuffer.
        unsafe {
            self.gl.bind_framebuffer(glow::FRAMEBUFFER, Some(self.target.fbo));
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
    /// # use animkit_player::render::*;
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
    /// # let r = animkit_player::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// assert_eq!(r.clip(), None);
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn clip(&self) -> Option<PixelRect> {
        self.geom.clip()
    }

    /// Changes the target size. With `keep_contents` the old pixels stay,
    /// anchored at the top-left corner (cropped when shrinking); new area, or
    /// everything without `keep_contents`, gets the last [`clear`](Self::clear)
    /// colour (or the background, see
    /// [`clear_to_background`](Self::clear_to_background)). Pending drawing is flushed into the old target first.
    ///
    /// ```no_run
    /// # let mut r = animkit_player::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// r.resize(800, 600, true)?;
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn resize(&mut self, width: u32, height: u32, keep_contents: bool) -> Result<(), RenderError> {
        check_size(width.into(), height.into())?;
        self.flush();
        // SAFETY: current context; the old target is deleted once copied.
        unsafe {
            let c = rgba_to_u8(self.clear_color).map(|v| f32::from(v) / 255.0);
            let target = Target::new(&self.gl, width, height, c)?;
            let gl = &self.gl;
            if keep_contents {
                let (ow, oh) = (self.width as i32, self.height as i32);
                let (nw, nh) = (width as i32, height as i32);
                let (w, h) = (ow.min(nw), oh.min(nh));
                gl.bind_framebuffer(glow::READ_FRAMEBUFFER, Some(self.target.fbo));
                gl.bind_framebuffer(glow::DRAW_FRAMEBUFFER, Some(target.fbo));
                // GL rows count from the bottom: keep the top `h` rows.
                gl.blit_framebuffer(0, oh - h, w, oh, 0, nh - h, w, nh, glow::COLOR_BUFFER_BIT, glow::NEAREST);
            }
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(target.fbo));
            self.target.delete(gl);
            self.target = target;
        }
        self.width = width;
        self.height = height;
        self.drawn_since_clear &= keep_contents;
        Ok(())
    }
    /// Draws everything queued into the framebuffer: one draw call per
    /// batch, a batch longer than [`MAX_DRAW_VERTICES`](super::MAX_DRAW_VERTICES)
    /// in several, from uploads of at most
    /// [`MAX_UPLOAD_BYTES`](super::MAX_UPLOAD_BYTES) (see
    /// [`Geometry::draws`]). Updates [`stats`](Self::stats).
    ///
    /// ```no_run
    /// # let mut r = animkit_player::render::HeadlessGl::new(8, 8)?.into_renderer()?;
    /// r.dot([1.0, 1.0], [0.0, 0.0, 0.0, 1.0]);
    /// r.flush();
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn flush(&mut self) {
        if self.geom.vertices.is_empty() {
            self.geom.batches.clear();
            return;
        }
        self.build_programs();
        let mut stats = RenderStats { flushes: 1, vertices: self.geom.vertices.len() as u64, ..RenderStats::default() };
        // SAFETY: current context; all objects are the renderer's own; every
        // draw lies inside the window uploaded before it (`render/draws.rs`).
        unsafe {
            let gl = &self.gl;
            gl.bind_framebuffer(glow::FRAMEBUFFER, Some(self.target.fbo));
            gl.viewport(0, 0, self.width as i32, self.height as i32);
            gl.bind_vertex_array(Some(self.vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.vbo));
            gl.enable(glow::BLEND);
            gl.blend_equation(glow::FUNC_ADD);
            gl.blend_func_separate(glow::SRC_ALPHA, glow::ONE_MINUS_SRC_ALPHA, glow::ONE, glow::ONE_MINUS_SRC_ALPHA);
            gl.disable(glow::DEPTH_TEST);
            gl.disable(glow::CULL_FACE);
            gl.active_texture(glow::TEXTURE1);
            gl.bind_texture(glow::TEXTURE_2D, Some(self.atlas_tex));
            gl.active_texture(glow::TEXTURE0);
            let mut current = None;
            let mut kind = BatchKind::Triangles;
            let mut batch = None;
            let mut base = 0;
            let mut since_driver_flush = 0;
            for d in self.geom.draws() {
                if since_driver_flush >= DRIVER_FLUSH_VERTICES {
                    // Let the driver finish what it has so far: a software
                    // GL (llvmpipe) bins whole command streams before it
                    // rasterizes, and a flush of millions of small
                    // triangles held 2.4 GB in its bins (issue 21); a
                    // glFlush alone did not bound it.
                    gl.finish();
                    since_driver_flush = 0;
                    stats.driver_flushes += 1;
                }
                since_driver_flush += d.vertices.len();
                if let Some(w) = &d.upload {
                    gl.buffer_data_u8_slice(
                        glow::ARRAY_BUFFER,
                        as_bytes(&self.geom.vertices[w.clone()]),
                        glow::STREAM_DRAW,
                    );
                    base = w.start;
                    stats.uploads += 1;
                }
                let b = self.geom.batches[d.batch];
                if batch != Some(d.batch) {
                    batch = Some(d.batch);
                    let program = self.built_program(self.geom.batch_modes(d.batch));
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
                    if b.kind != kind {
                        set_kind(gl, b.kind);
                        kind = b.kind;
                    }
                }
                let primitive = if b.kind == BatchKind::StencilFan { glow::TRIANGLE_FAN } else { glow::TRIANGLES };
                let count = d.vertices.len();
                gl.draw_arrays(primitive, (d.vertices.start - base) as i32, count as i32);
                stats.draw_calls += 1;
                stats.largest_draw = stats.largest_draw.max(count as u64);
            }
            if kind != BatchKind::Triangles {
                set_kind(gl, BatchKind::Triangles);
            }
            gl.disable(glow::SCISSOR_TEST);
            // Start rasterizing now (a software GL works on other cores while
            // the caller prepares the next batch).
            gl.flush();
        }
        self.geom.clear();
        self.drawn_since_clear = true;
        self.last = stats;
        self.total.flushes += stats.flushes;
        self.total.vertices += stats.vertices;
        self.total.draw_calls += stats.draw_calls;
        self.total.uploads += stats.uploads;
        self.total.driver_flushes += stats.driver_flushes;
        self.total.largest_draw = self.total.largest_draw.max(stats.largest_draw);
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
}

/// Sets the stencil and colour-mask state that batches of `kind` are drawn
/// with (see [`BatchKind`] and `render/fill.rs`).
///
/// # Safety
/// `gl` must be current, with the renderer's target bound.
unsafe fn set_kind(gl: &glow::Context, kind: BatchKind) {
    unsafe {
        match kind {
            BatchKind::Triangles => {
                gl.disable(glow::STENCIL_TEST);
                gl.color_mask(true, true, true, true);
            }
            BatchKind::StencilFan => {
                gl.enable(glow::STENCIL_TEST);
                gl.stencil_mask(1);
                gl.stencil_func(glow::ALWAYS, 0, 1);
                gl.stencil_op(glow::KEEP, glow::KEEP, glow::INVERT);
                gl.color_mask(false, false, false, false);
            }
            BatchKind::Cover => {
                gl.enable(glow::STENCIL_TEST);
                gl.stencil_mask(1);
                gl.stencil_func(glow::NOTEQUAL, 0, 1);
                gl.stencil_op(glow::KEEP, glow::KEEP, glow::ZERO);
                gl.color_mask(true, true, true, true);
            }
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
            if let Some(s) = self.scene3d.take() {
                s.delete(gl);
            }
            for (_, img) in self.images.drain() {
                gl.delete_texture(img.tex);
            }
            gl.delete_texture(self.atlas_tex);
            self.target.delete(gl);
            gl.delete_buffer(self.vbo);
            gl.delete_vertex_array(self.vao);
            gl.delete_program(self.program.program);
            for p in self.variants.iter().flatten() {
                gl.delete_program(p.program);
            }
        }
    }
}
