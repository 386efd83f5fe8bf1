//! The raw GL baseline of the 3D figures: a hand-written glow program that
//! draws a SLAP frame's triangles with the renderer's own shader sources
//! ([`animkit_runtime::render::scene3d::shader`]): Polly's meshes in one
//! vertex array each, the frame's instances uploaded in one buffer, the
//! ground's square, then one `glDrawArrays` for the ground and one
//! `glDrawArraysInstanced` per part, with uniforms looked up once. No
//! abstraction, no statistics, no state restored afterwards: what the
//! fastest straightforward GL program drawing the same picture does. It
//! runs in the renderer's context and draws into the bound framebuffer.

use animkit_runtime::render::scene3d::shader::{self, attr};
use animkit_runtime::render::scene3d::{Ground, Instance, Mesh, MeshVertex, View3d};
use glow::HasContext;

/// Bytes of one instance.
const INSTANCE: i32 = std::mem::size_of::<Instance>() as i32;
/// Bytes of one mesh vertex.
const VERTEX: i32 = std::mem::size_of::<MeshVertex>() as i32;

/// One batch of the frame: which mesh, which instances, shadow or lit.
#[derive(Clone, Debug)]
pub struct RawBatch {
    /// Index into the meshes given to [`RawGl3d::new`].
    pub mesh: usize,
    /// Instances drawn.
    pub instances: std::ops::Range<usize>,
    /// Blended, without depth writes (the blob shadows).
    pub shadow: bool,
}

/// The baseline's GL objects.
pub struct RawGl3d {
    mesh_program: glow::Program,
    ground_program: glow::Program,
    mesh_u: Vec<Option<glow::UniformLocation>>,
    ground_u: Vec<Option<glow::UniformLocation>>,
    meshes: Vec<(glow::VertexArray, glow::Buffer, i32)>,
    instances: glow::Buffer,
    ground: (glow::VertexArray, glow::Buffer),
}

const MESH_U: [&str; 7] = ["u_view_proj", "u_light_dir", "u_light", "u_ambient", "u_fog", "u_lit", "u_fog_color"];
const GROUND_U: [&str; 9] =
    ["u_view_proj", "u_extent", "u_height", "u_origin", "u_cell", "u_ground0", "u_ground1", "u_fog_color", "u_fog"];

/// The bytes of plain-old-data values (`repr(C)`, no padding).
fn bytes<T: Copy>(v: &[T]) -> &[u8] {
    // SAFETY: only called with `Instance`, `MeshVertex` and `f32`, all
    // `repr(C)` without padding; the length is the slice's size.
    unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<u8>(), std::mem::size_of_val(v)) }
}

impl RawGl3d {
    /// Builds the two programs from the renderer's shader sources and
    /// uploads `meshes`, in `gl` (current on this thread).
    pub fn new(gl: &glow::Context, meshes: &[Mesh]) -> Result<RawGl3d, String> {
        let mesh_attrs = [
            (attr::POS, "a_pos"),
            (attr::NORMAL, "a_normal"),
            (attr::COLOR, "a_color"),
            (attr::ROW0, "i_row0"),
            (attr::ROW1, "i_row1"),
            (attr::ROW2, "i_row2"),
            (attr::INSTANCE_COLOR, "i_color"),
        ];
        // SAFETY: the context is current; every object is deleted in `delete`.
        unsafe {
            let mesh_program = shader::link(gl, shader::MESH_VERTEX, shader::MESH_FRAGMENT, &mesh_attrs)?;
            let ground_program =
                shader::link(gl, shader::GROUND_VERTEX, shader::GROUND_FRAGMENT, &[(attr::POS, "a_pos")])?;
            let mesh_u = MESH_U.iter().map(|n| gl.get_uniform_location(mesh_program, n)).collect();
            let ground_u = GROUND_U.iter().map(|n| gl.get_uniform_location(ground_program, n)).collect();
            let mut out = Vec::new();
            for m in meshes {
                let vao = gl.create_vertex_array()?;
                let vbo = gl.create_buffer()?;
                gl.bind_vertex_array(Some(vao));
                gl.bind_buffer(glow::ARRAY_BUFFER, Some(vbo));
                gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, bytes(&m.vertices), glow::STATIC_DRAW);
                gl.enable_vertex_attrib_array(attr::POS);
                gl.vertex_attrib_pointer_f32(attr::POS, 3, glow::FLOAT, false, VERTEX, 0);
                gl.enable_vertex_attrib_array(attr::NORMAL);
                gl.vertex_attrib_pointer_f32(attr::NORMAL, 3, glow::FLOAT, false, VERTEX, 12);
                gl.enable_vertex_attrib_array(attr::COLOR);
                gl.vertex_attrib_pointer_f32(attr::COLOR, 4, glow::UNSIGNED_BYTE, true, VERTEX, 24);
                for a in [attr::ROW0, attr::ROW1, attr::ROW2, attr::INSTANCE_COLOR] {
                    gl.enable_vertex_attrib_array(a);
                    gl.vertex_attrib_divisor(a, 1);
                }
                out.push((vao, vbo, m.vertices.len() as i32));
            }
            let instances = gl.create_buffer()?;
            let gvao = gl.create_vertex_array()?;
            let gvbo = gl.create_buffer()?;
            gl.bind_vertex_array(Some(gvao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(gvbo));
            let square: [f32; 18] =
                [-1.0, 0.0, -1.0, -1.0, 0.0, 1.0, 1.0, 0.0, 1.0, -1.0, 0.0, -1.0, 1.0, 0.0, 1.0, 1.0, 0.0, -1.0];
            gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, bytes(&square), glow::STATIC_DRAW);
            gl.enable_vertex_attrib_array(attr::POS);
            gl.vertex_attrib_pointer_f32(attr::POS, 3, glow::FLOAT, false, 12, 0);
            gl.bind_vertex_array(None);
            Ok(RawGl3d { mesh_program, ground_program, mesh_u, ground_u, meshes: out, instances, ground: (gvao, gvbo) })
        }
    }

    /// Draws one frame into the bound framebuffer of `size`: clear to the
    /// sky, the ground, the instances uploaded once, one instanced draw per
    /// batch.
    pub fn draw(
        &self,
        gl: &glow::Context,
        size: (u32, u32),
        view: &View3d,
        ground: &Ground,
        instances: &[Instance],
        batches: &[RawBatch],
    ) {
        let vp = view.view_proj.cols.concat();
        let (l, f) = (&view.light, &view.fog);
        let fog = [f.start, 1.0 / (f.end - f.start)];
        let sky = view.sky.unwrap_or([0.0; 3]);
        // SAFETY: current context; the objects are this baseline's own;
        // the batches lie inside `instances`.
        unsafe {
            gl.viewport(0, 0, size.0 as i32, size.1 as i32);
            gl.disable(glow::SCISSOR_TEST);
            gl.depth_mask(true);
            gl.clear_color(sky[0], sky[1], sky[2], 1.0);
            gl.clear(glow::COLOR_BUFFER_BIT | glow::DEPTH_BUFFER_BIT);
            gl.enable(glow::DEPTH_TEST);
            gl.depth_func(glow::LESS);
            gl.disable(glow::BLEND);

            let u = &self.ground_u;
            gl.use_program(Some(self.ground_program));
            gl.uniform_matrix_4_f32_slice(u[0].as_ref(), false, &vp);
            gl.uniform_1_f32(u[1].as_ref(), ground.extent);
            gl.uniform_1_f32(u[2].as_ref(), ground.height);
            gl.uniform_2_f32(u[3].as_ref(), ground.origin[0], ground.origin[1]);
            gl.uniform_1_f32(u[4].as_ref(), ground.cell);
            let lit: Vec<f32> = (0..3).map(|i| l.ambient[i] + l.color[i] * l.direction[1].max(0.0)).collect();
            let (g0, g1) = (ground.colors[0], ground.colors[1]);
            gl.uniform_3_f32(u[5].as_ref(), g0[0] * lit[0], g0[1] * lit[1], g0[2] * lit[2]);
            gl.uniform_3_f32(u[6].as_ref(), g1[0] * lit[0], g1[1] * lit[1], g1[2] * lit[2]);
            gl.uniform_3_f32(u[7].as_ref(), f.color[0], f.color[1], f.color[2]);
            gl.uniform_2_f32(u[8].as_ref(), fog[0], fog[1]);
            gl.bind_vertex_array(Some(self.ground.0));
            gl.draw_arrays(glow::TRIANGLES, 0, 6);

            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.instances));
            gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, bytes(instances), glow::STREAM_DRAW);
            let u = &self.mesh_u;
            gl.use_program(Some(self.mesh_program));
            gl.uniform_matrix_4_f32_slice(u[0].as_ref(), false, &vp);
            gl.uniform_3_f32(u[1].as_ref(), l.direction[0], l.direction[1], l.direction[2]);
            gl.uniform_3_f32(u[2].as_ref(), l.color[0], l.color[1], l.color[2]);
            gl.uniform_3_f32(u[3].as_ref(), l.ambient[0], l.ambient[1], l.ambient[2]);
            gl.uniform_2_f32(u[4].as_ref(), fog[0], fog[1]);
            gl.uniform_3_f32(u[6].as_ref(), f.color[0], f.color[1], f.color[2]);
            gl.enable(glow::CULL_FACE);
            gl.blend_func_separate(glow::SRC_ALPHA, glow::ONE_MINUS_SRC_ALPHA, glow::ONE, glow::ONE_MINUS_SRC_ALPHA);
            gl.polygon_offset(-1.0, -2.0);
            for b in batches {
                if b.shadow {
                    gl.enable(glow::BLEND);
                    gl.depth_mask(false);
                    gl.enable(glow::POLYGON_OFFSET_FILL);
                    gl.uniform_1_f32(u[5].as_ref(), 0.0);
                } else {
                    gl.uniform_1_f32(u[5].as_ref(), 1.0);
                }
                let (vao, _, vertices) = self.meshes[b.mesh];
                gl.bind_vertex_array(Some(vao));
                let base = b.instances.start as i32 * INSTANCE;
                for (k, a) in [attr::ROW0, attr::ROW1, attr::ROW2].into_iter().enumerate() {
                    gl.vertex_attrib_pointer_f32(a, 4, glow::FLOAT, false, INSTANCE, base + 16 * k as i32);
                }
                gl.vertex_attrib_pointer_f32(attr::INSTANCE_COLOR, 4, glow::UNSIGNED_BYTE, true, INSTANCE, base + 48);
                gl.draw_arrays_instanced(glow::TRIANGLES, 0, vertices, b.instances.len() as i32);
            }
            // Back to the state the renderer's 2D path assumes, so that the
            // next round of ours starts from the same place.
            gl.bind_vertex_array(None);
            gl.disable(glow::DEPTH_TEST);
            gl.disable(glow::CULL_FACE);
            gl.disable(glow::POLYGON_OFFSET_FILL);
            gl.depth_mask(true);
            gl.enable(glow::BLEND);
            gl.flush();
        }
    }

    /// Frees the GL objects.
    pub fn delete(self, gl: &glow::Context) {
        // SAFETY: current context; the objects are this baseline's own.
        unsafe {
            for (vao, vbo, _) in self.meshes {
                gl.delete_vertex_array(vao);
                gl.delete_buffer(vbo);
            }
            gl.delete_buffer(self.instances);
            gl.delete_vertex_array(self.ground.0);
            gl.delete_buffer(self.ground.1);
            gl.delete_program(self.mesh_program);
            gl.delete_program(self.ground_program);
        }
    }
}
