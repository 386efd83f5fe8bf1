//! The [`Renderer`]'s 3D pass: meshes uploaded, passes drawn, their
//! counts. The types and the GL state are `render/scene3d/`'s, below the
//! renderer (the scene knows nothing of the renderer; the renderer holds
//! the scene's GL state, [`Gl3d`]), so the two do not import each other
//! (`runtime/tests/module_graph.rs`).

use super::Renderer;
use crate::render::error::RenderError;
use crate::render::scene3d::{Batch3d, Gl3d, Ground, Instance, Mesh, MeshId, Stats3d, View3d};

impl Renderer {
    /// Uploads `mesh` (its triangles, counter-clockwise seen from outside)
    /// for [`draw_3d`](Self::draw_3d). The 3D programs are built on the
    /// first call, so a renderer that never draws 3D pays nothing for them.
    ///
    /// ```no_run
    /// use animkit_player::render::scene3d::Mesh;
    /// let mut r = animkit_player::render::HeadlessGl::new(64, 64)?.into_renderer()?;
    /// let cube = r.create_mesh(&Mesh::cube([255, 255, 255, 255]))?;
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn create_mesh(&mut self, mesh: &Mesh) -> Result<MeshId, RenderError> {
        self.ensure_3d()?;
        let gl = &self.gl;
        let Some(s) = self.scene3d.as_mut() else { return Err(RenderError::Gl("3D state missing".into())) };
        // SAFETY: current context; the mesh's objects are owned by `s`.
        unsafe { s.create_mesh(gl, mesh) }
    }

    /// Draws one 3D pass into the target (see the
    /// [module](crate::render::scene3d) docs):
    /// the 2D drawing queued so far is flushed first; the viewport is
    /// cleared (depth, and colour to the sky); the ground is drawn; all of
    /// `instances` is uploaded once; each batch is one instanced draw
    /// call. A batch naming a mesh this renderer does not have (ids count
    /// per renderer) is skipped.
    /// Updates [`stats_3d`](Self::stats_3d).
    pub fn draw_3d(
        &mut self,
        view: &View3d,
        ground: Option<&Ground>,
        instances: &[Instance],
        batches: &[Batch3d],
    ) -> Result<(), RenderError> {
        let fbo = self.target_fbo();
        self.pass_3d(Some(fbo), (0, 0), view, ground, instances, batches)?;
        self.mark_drawn();
        Ok(())
    }

    /// Draws one 3D pass as [`draw_3d`](Self::draw_3d) does, but straight
    /// into the framebuffer `target` (`None`: the default framebuffer),
    /// with the picture (the renderer's size) at `(x, y)` from its
    /// bottom-left corner, instead of into the renderer's own target: no
    /// offscreen picture and no copy, for a game that shows the scene in
    /// a viewport of its own framebuffer (the embedding
    /// [`Player`](crate::player::Player)). `target` must have a depth
    /// buffer; the pass clears colour and depth inside the picture's
    /// rectangle (scissored) and touches no pixel outside it. The
    /// renderer's own target is left as it was. Leaves GL state changed
    /// as `draw_3d` does, and `target` bound: the caller restores what it
    /// needs.
    ///
    /// ```no_run
    /// use animkit_player::render::scene3d::View3d;
    /// # fn f(r: &mut animkit_player::render::Renderer, view: &View3d) -> Result<(), animkit_player::render::RenderError> {
    /// r.draw_3d_into(None, 40, 30, view, None, &[], &[])?;
    /// # Ok(()) }
    /// ```
    #[allow(clippy::too_many_arguments)]
    pub fn draw_3d_into(
        &mut self,
        target: Option<glow::Framebuffer>,
        x: i32,
        y: i32,
        view: &View3d,
        ground: Option<&Ground>,
        instances: &[Instance],
        batches: &[Batch3d],
    ) -> Result<(), RenderError> {
        self.pass_3d(target, (x, y), view, ground, instances, batches)
    }

    /// The pass of [`draw_3d`](Self::draw_3d) and
    /// [`draw_3d_into`](Self::draw_3d_into): the queued 2D drawing flushed,
    /// the 3D state made if needed, the picture drawn into `target` at
    /// `origin`.
    fn pass_3d(
        &mut self,
        target: Option<glow::Framebuffer>,
        origin: (i32, i32),
        view: &View3d,
        ground: Option<&Ground>,
        instances: &[Instance],
        batches: &[Batch3d],
    ) -> Result<(), RenderError> {
        self.flush();
        self.ensure_3d()?;
        let (width, height) = (self.width, self.height);
        let gl = &self.gl;
        let Some(s) = self.scene3d.as_mut() else { return Err(RenderError::Gl("3D state missing".into())) };
        // SAFETY: current context; `target` is the renderer's own target or
        // the caller's framebuffer with a depth buffer (`draw_3d_into`'s
        // contract); batch ranges are clamped to `instances`.
        unsafe { s.draw(gl, target, origin, (width, height), view, ground, instances, batches) };
        Ok(())
    }

    /// What the last [`draw_3d`](Self::draw_3d) submitted.
    pub fn stats_3d(&self) -> Stats3d {
        self.scene3d.as_ref().map(|s| s.last).unwrap_or_default()
    }

    /// Totals over every 3D pass since the renderer was made.
    pub fn total_stats_3d(&self) -> Stats3d {
        self.scene3d.as_ref().map(|s| s.total).unwrap_or_default()
    }

    fn ensure_3d(&mut self) -> Result<(), RenderError> {
        if self.scene3d.is_none() {
            // SAFETY: current context; the objects are deleted with the renderer.
            self.scene3d = Some(unsafe { Gl3d::new(&self.gl) }.map_err(RenderError::Gl)?);
        }
        Ok(())
    }
}
