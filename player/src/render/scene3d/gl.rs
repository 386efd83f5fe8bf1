//! The GL objects of the 3D path and the pass itself: the two programs,
//! one vertex array and buffer per mesh, the instance buffer, the ground's
//! square. Made on a renderer's first 3D call and deleted with it.

use super::shader::{self, Program3d, attr};
use super::{Batch3d, Ground, Instance, Mesh, MeshId, MeshVertex, Shading, Stats3d, View3d};
use crate::render::error::RenderError;
use glow::HasContext;

/// Bytes of one instance: three rows of four `f32` and an RGBA8 colour.
const INSTANCE_SIZE: i32 = std::mem::size_of::<Instance>() as i32;
/// Bytes of one mesh vertex.
const VERTEX_SIZE: i32 = std::mem::size_of::<MeshVertex>() as i32;

/// An uploaded mesh.
struct MeshGl {
    vao: glow::VertexArray,
    vbo: glow::Buffer,
    vertices: i32,
}

/// The 3D path's GL state inside a [`Renderer`](crate::render::Renderer).
pub(crate) struct Gl3d {
    mesh_program: Program3d,
    ground_program: Program3d,
    meshes: Vec<MeshGl>,
    instances: glow::Buffer,
    ground_vao: glow::VertexArray,
    ground_vbo: glow::Buffer,
    /// The last pass's counts.
    pub last: Stats3d,
    /// Every pass's counts.
    pub total: Stats3d,
}

/// The bytes of a slice of plain-old-data values.
///
/// # Safety
/// `T` must be `repr(C)` without padding or pointers.
unsafe fn bytes_of<T>(v: &[T]) -> &[u8] {
    // SAFETY: forwarded from the caller; the length is the slice's size.
    unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<u8>(), std::mem::size_of_val(v)) }
}

impl Gl3d {
    /// Builds the programs and the shared buffers.
    ///
    /// # Safety
    /// `gl` must be current on this thread.
    pub unsafe fn new(gl: &glow::Context) -> Result<Gl3d, String> {
        unsafe {
            let mesh_program = shader::build_mesh(gl)?;
            let ground_program = match shader::build_ground(gl) {
                Ok(p) => p,
                Err(e) => {
                    gl.delete_program(mesh_program.program);
                    return Err(e);
                }
            };
            let instances = gl.create_buffer()?;
            let ground_vao = gl.create_vertex_array()?;
            let ground_vbo = gl.create_buffer()?;
            gl.bind_vertex_array(Some(ground_vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(ground_vbo));
            let square: [f32; 18] =
                [-1.0, 0.0, -1.0, -1.0, 0.0, 1.0, 1.0, 0.0, 1.0, -1.0, 0.0, -1.0, 1.0, 0.0, 1.0, 1.0, 0.0, -1.0];
            gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, bytes_of(&square), glow::STATIC_DRAW);
            gl.enable_vertex_attrib_array(attr::POS);
            gl.vertex_attrib_pointer_f32(attr::POS, 3, glow::FLOAT, false, 12, 0);
            gl.bind_vertex_array(None);
            Ok(Gl3d {
                mesh_program,
                ground_program,
                meshes: Vec::new(),
                instances,
                ground_vao,
                ground_vbo,
                last: Stats3d::default(),
                total: Stats3d::default(),
            })
        }
    }

    /// Uploads `mesh` into a vertex array of its own, its instance
    /// attributes enabled with divisor 1 (pointed at the instance buffer
    /// per batch).
    ///
    /// # Safety
    /// `gl` must be current on this thread.
    pub unsafe fn create_mesh(&mut self, gl: &glow::Context, mesh: &Mesh) -> Result<MeshId, RenderError> {
        let err = |what: &'static str| move |e: String| RenderError::Gl(format!("{what}: {e}"));
        let vertices = i32::try_from(mesh.vertices.len())
            .map_err(|_| RenderError::Gl(format!("a mesh of {} vertices is too large", mesh.vertices.len())))?;
        unsafe {
            let vao = gl.create_vertex_array().map_err(err("mesh vertex array"))?;
            let vbo = match gl.create_buffer() {
                Ok(b) => b,
                Err(e) => {
                    gl.delete_vertex_array(vao);
                    return Err(err("mesh buffer")(e));
                }
            };
            gl.bind_vertex_array(Some(vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(vbo));
            gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, bytes_of(&mesh.vertices), glow::STATIC_DRAW);
            gl.enable_vertex_attrib_array(attr::POS);
            gl.vertex_attrib_pointer_f32(attr::POS, 3, glow::FLOAT, false, VERTEX_SIZE, 0);
            gl.enable_vertex_attrib_array(attr::NORMAL);
            gl.vertex_attrib_pointer_f32(attr::NORMAL, 3, glow::FLOAT, false, VERTEX_SIZE, 12);
            gl.enable_vertex_attrib_array(attr::COLOR);
            gl.vertex_attrib_pointer_f32(attr::COLOR, 4, glow::UNSIGNED_BYTE, true, VERTEX_SIZE, 24);
            for a in [attr::ROW0, attr::ROW1, attr::ROW2, attr::INSTANCE_COLOR] {
                gl.enable_vertex_attrib_array(a);
                gl.vertex_attrib_divisor(a, 1);
            }
            gl.bind_vertex_array(None);
            self.meshes.push(MeshGl { vao, vbo, vertices });
        }
        Ok(MeshId(self.meshes.len() as u32 - 1))
    }

    /// One pass (see [`crate::render::Renderer::draw_3d`]) into `fbo`
    /// (`None`: the default framebuffer), the picture of `size` having its
    /// bottom-left corner at `origin` (GL coordinates) in it: `(0, 0)` in
    /// the renderer's own target, the viewport's corner when drawing
    /// straight into a game's framebuffer
    /// ([`Renderer::draw_3d_into`](crate::render::Renderer::draw_3d_into)).
    ///
    /// # Safety
    /// `gl` must be current on this thread and `fbo` a complete framebuffer
    /// with a depth buffer.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn draw(
        &mut self,
        gl: &glow::Context,
        fbo: Option<glow::Framebuffer>,
        origin: (i32, i32),
        size: (u32, u32),
        view: &View3d,
        ground: Option<&Ground>,
        instances: &[Instance],
        batches: &[Batch3d],
    ) {
        let mut stats = Stats3d { passes: 1, ..Stats3d::default() };
        let (x, y, w, h) = view.viewport.clamp_to(size.0, size.1);
        let (x, gl_y) = (origin.0 + x, origin.1 + size.1 as i32 - y - h);
        unsafe {
            gl.bind_framebuffer(glow::FRAMEBUFFER, fbo);
            gl.viewport(x, gl_y, w, h);
            gl.enable(glow::SCISSOR_TEST);
            gl.scissor(x, gl_y, w, h);
            gl.depth_mask(true);
            gl.clear_depth(1.0);
            match view.sky {
                Some(c) => {
                    gl.clear_color(c[0], c[1], c[2], 1.0);
                    gl.clear(glow::COLOR_BUFFER_BIT | glow::DEPTH_BUFFER_BIT);
                }
                None => gl.clear(glow::DEPTH_BUFFER_BIT),
            }
            gl.enable(glow::DEPTH_TEST);
            gl.depth_func(glow::LESS);
            gl.disable(glow::BLEND);
            let vp = view.view_proj.cols.concat();
            let l = &view.light;
            let fog = [view.fog.start, 1.0 / (view.fog.end - view.fog.start).max(1e-6)];
            let fc = view.fog.color;

            if let Some(g) = ground {
                let p = &self.ground_program;
                gl.use_program(Some(p.program));
                gl.uniform_matrix_4_f32_slice(p.uniform("u_view_proj"), false, &vp);
                gl.uniform_1_f32(p.uniform("u_extent"), g.extent);
                gl.uniform_1_f32(p.uniform("u_height"), g.height);
                gl.uniform_2_f32(p.uniform("u_origin"), g.origin[0], g.origin[1]);
                gl.uniform_1_f32(p.uniform("u_cell"), g.cell.max(1e-6));
                // The ground faces up: its light is the same everywhere.
                let lit = (0..3).map(|i| l.ambient[i] + l.color[i] * l.direction[1].max(0.0)).collect::<Vec<_>>();
                let shade = |c: [f32; 3]| [c[0] * lit[0], c[1] * lit[1], c[2] * lit[2]];
                let (g0, g1) = (shade(g.colors[0]), shade(g.colors[1]));
                gl.uniform_3_f32(p.uniform("u_ground0"), g0[0], g0[1], g0[2]);
                gl.uniform_3_f32(p.uniform("u_ground1"), g1[0], g1[1], g1[2]);
                gl.uniform_3_f32(p.uniform("u_fog_color"), fc[0], fc[1], fc[2]);
                gl.uniform_2_f32(p.uniform("u_fog"), fog[0], fog[1]);
                gl.bind_vertex_array(Some(self.ground_vao));
                gl.draw_arrays(glow::TRIANGLES, 0, 6);
                stats.draw_calls += 1;
                stats.triangles += 2;
            }

            if !batches.is_empty() && !instances.is_empty() {
                gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.instances));
                gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, bytes_of(instances), glow::STREAM_DRAW);
                let p = &self.mesh_program;
                gl.use_program(Some(p.program));
                gl.uniform_matrix_4_f32_slice(p.uniform("u_view_proj"), false, &vp);
                gl.uniform_3_f32(p.uniform("u_light_dir"), l.direction[0], l.direction[1], l.direction[2]);
                gl.uniform_3_f32(p.uniform("u_light"), l.color[0], l.color[1], l.color[2]);
                gl.uniform_3_f32(p.uniform("u_ambient"), l.ambient[0], l.ambient[1], l.ambient[2]);
                gl.uniform_3_f32(p.uniform("u_fog_color"), fc[0], fc[1], fc[2]);
                gl.uniform_2_f32(p.uniform("u_fog"), fog[0], fog[1]);
                gl.enable(glow::CULL_FACE);
                gl.cull_face(glow::BACK);
                gl.front_face(glow::CCW);
                gl.blend_func_separate(
                    glow::SRC_ALPHA,
                    glow::ONE_MINUS_SRC_ALPHA,
                    glow::ONE,
                    glow::ONE_MINUS_SRC_ALPHA,
                );
                gl.polygon_offset(-1.0, -2.0);
                let mut shading = None;
                for b in batches {
                    let Some(mesh) = self.meshes.get(b.mesh.0 as usize) else { continue };
                    let end = b.instances.end.min(instances.len());
                    let start = b.instances.start.min(end);
                    if start == end || mesh.vertices == 0 {
                        continue;
                    }
                    if shading != Some(b.shading) {
                        set_shading(gl, p, b.shading);
                        shading = Some(b.shading);
                    }
                    gl.bind_vertex_array(Some(mesh.vao));
                    let base = start as i32 * INSTANCE_SIZE;
                    for (k, a) in [attr::ROW0, attr::ROW1, attr::ROW2].into_iter().enumerate() {
                        gl.vertex_attrib_pointer_f32(a, 4, glow::FLOAT, false, INSTANCE_SIZE, base + 16 * k as i32);
                    }
                    gl.vertex_attrib_pointer_f32(
                        attr::INSTANCE_COLOR,
                        4,
                        glow::UNSIGNED_BYTE,
                        true,
                        INSTANCE_SIZE,
                        base + 48,
                    );
                    let count = (end - start) as i32;
                    gl.draw_arrays_instanced(glow::TRIANGLES, 0, mesh.vertices, count);
                    stats.draw_calls += 1;
                    stats.instances += count as u64;
                    stats.triangles += (mesh.vertices / 3) as u64 * count as u64;
                }
            }

            // Leave the state as the 2D flush expects it.
            gl.bind_vertex_array(None);
            gl.disable(glow::DEPTH_TEST);
            gl.disable(glow::CULL_FACE);
            gl.disable(glow::POLYGON_OFFSET_FILL);
            gl.disable(glow::SCISSOR_TEST);
            gl.depth_mask(true);
            gl.enable(glow::BLEND);
            gl.viewport(origin.0, origin.1, size.0 as i32, size.1 as i32);
            // Start rasterizing now, as the 2D flush does.
            gl.flush();
        }
        self.last = stats;
        self.total.add(&stats);
    }

    /// Deletes every GL object.
    ///
    /// # Safety
    /// `gl` must be current; nothing may use this state afterwards.
    pub unsafe fn delete(&self, gl: &glow::Context) {
        unsafe {
            for m in &self.meshes {
                gl.delete_vertex_array(m.vao);
                gl.delete_buffer(m.vbo);
            }
            gl.delete_buffer(self.instances);
            gl.delete_vertex_array(self.ground_vao);
            gl.delete_buffer(self.ground_vbo);
            gl.delete_program(self.mesh_program.program);
            gl.delete_program(self.ground_program.program);
        }
    }
}

/// Sets blending, depth writes, the polygon offset and `u_lit` for a
/// batch of `shading`.
///
/// # Safety
/// `gl` must be current with `p` in use.
unsafe fn set_shading(gl: &glow::Context, p: &Program3d, shading: Shading) {
    unsafe {
        match shading {
            Shading::Lit => {
                gl.disable(glow::BLEND);
                gl.depth_mask(true);
                gl.disable(glow::POLYGON_OFFSET_FILL);
                gl.uniform_1_f32(p.uniform("u_lit"), 1.0);
            }
            Shading::Shadow => {
                gl.enable(glow::BLEND);
                gl.depth_mask(false);
                gl.enable(glow::POLYGON_OFFSET_FILL);
                gl.uniform_1_f32(p.uniform("u_lit"), 0.0);
            }
        }
    }
}
