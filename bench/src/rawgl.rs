//! The raw GL baseline: a minimal hand-written glow program that draws
//! given triangles in one batch: one vertex buffer of 12-byte vertices
//! (position, RGBA8), one `glDrawArrays`, a two-line shader, the same
//! blending as the renderer. It runs in the renderer's own context and
//! draws into whatever framebuffer is bound (the renderer's, after a
//! `clear` or `flush`), so both are measured on the same GL.

use animkit_runtime::render::Vertex;
use glow::HasContext;

/// One baseline vertex: pixel position and colour.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RawVertex {
    /// Pixels, top-left origin.
    pub pos: [f32; 2],
    /// RGBA8.
    pub color: [u8; 4],
}

/// The triangles of the renderer's vertices, as baseline vertices.
pub fn raw_vertices(v: &[Vertex]) -> Vec<RawVertex> {
    v.iter().map(|v| RawVertex { pos: v.pos, color: v.color }).collect()
}

const VS: &str = "in vec2 a_pos;\nin vec4 a_color;\nuniform vec2 u_size;\nout vec4 v_color;\n\
void main() {\n  vec2 p = a_pos + vec2(1.0 / 64.0);\n  gl_Position = vec4(p.x / u_size.x * 2.0 - 1.0, 1.0 - p.y / u_size.y * 2.0, 0.0, 1.0);\n  v_color = a_color;\n}\n";
const FS: &str = "in vec4 v_color;\nout vec4 o_color;\nvoid main() { o_color = v_color; }\n";

/// The baseline's GL objects.
pub struct RawGl {
    program: glow::Program,
    vao: glow::VertexArray,
    vbo: glow::Buffer,
    u_size: Option<glow::UniformLocation>,
}

impl RawGl {
    /// Builds the program and buffers in `gl` (current on this thread).
    pub fn new(gl: &glow::Context) -> Result<RawGl, String> {
        // SAFETY: the context is current; every object is deleted in `delete`.
        unsafe {
            let version = if gl.version().is_embedded {
                "#version 300 es\nprecision highp float;\n"
            } else {
                "#version 330 core\n"
            };
            let program = gl.create_program()?;
            for (kind, src) in [(glow::VERTEX_SHADER, VS), (glow::FRAGMENT_SHADER, FS)] {
                let sh = gl.create_shader(kind)?;
                gl.shader_source(sh, &format!("{version}{src}"));
                gl.compile_shader(sh);
                if !gl.get_shader_compile_status(sh) {
                    return Err(gl.get_shader_info_log(sh));
                }
                gl.attach_shader(program, sh);
            }
            gl.bind_attrib_location(program, 0, "a_pos");
            gl.bind_attrib_location(program, 1, "a_color");
            gl.link_program(program);
            if !gl.get_program_link_status(program) {
                return Err(gl.get_program_info_log(program));
            }
            let u_size = gl.get_uniform_location(program, "u_size");
            let vao = gl.create_vertex_array()?;
            let vbo = gl.create_buffer()?;
            gl.bind_vertex_array(Some(vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(vbo));
            gl.enable_vertex_attrib_array(0);
            gl.vertex_attrib_pointer_f32(0, 2, glow::FLOAT, false, 12, 0);
            gl.enable_vertex_attrib_array(1);
            gl.vertex_attrib_pointer_f32(1, 4, glow::UNSIGNED_BYTE, true, 12, 8);
            Ok(RawGl { program, vao, vbo, u_size })
        }
    }

    /// Uploads `v` and draws it: one buffer upload, one draw call, source-over
    /// blending, into the bound framebuffer of `width` x `height`.
    pub fn draw(&self, gl: &glow::Context, width: u32, height: u32, v: &[RawVertex]) {
        // SAFETY: current context; the slice is plain old data (repr(C), no padding).
        unsafe {
            let bytes = std::slice::from_raw_parts(v.as_ptr().cast::<u8>(), std::mem::size_of_val(v));
            gl.viewport(0, 0, width as i32, height as i32);
            gl.use_program(Some(self.program));
            gl.uniform_2_f32(self.u_size.as_ref(), width as f32, height as f32);
            gl.bind_vertex_array(Some(self.vao));
            gl.bind_buffer(glow::ARRAY_BUFFER, Some(self.vbo));
            gl.buffer_data_u8_slice(glow::ARRAY_BUFFER, bytes, glow::STREAM_DRAW);
            gl.enable(glow::BLEND);
            gl.blend_func_separate(glow::SRC_ALPHA, glow::ONE_MINUS_SRC_ALPHA, glow::ONE, glow::ONE_MINUS_SRC_ALPHA);
            gl.disable(glow::SCISSOR_TEST);
            gl.draw_arrays(glow::TRIANGLES, 0, v.len() as i32);
        }
    }

    /// Clears the bound framebuffer to opaque white.
    pub fn clear(&self, gl: &glow::Context) {
        // SAFETY: current context.
        unsafe {
            gl.disable(glow::SCISSOR_TEST);
            gl.clear_color(1.0, 1.0, 1.0, 1.0);
            gl.clear(glow::COLOR_BUFFER_BIT);
        }
    }

    /// Frees the GL objects.
    pub fn delete(self, gl: &glow::Context) {
        // SAFETY: current context; the objects are this baseline's own.
        unsafe {
            gl.delete_program(self.program);
            gl.delete_buffer(self.vbo);
            gl.delete_vertex_array(self.vao);
        }
    }
}

/// Waits until the GL has finished everything submitted (`glFinish`).
pub fn finish(gl: &glow::Context) {
    // SAFETY: current context.
    unsafe { gl.finish() };
}

/// Submits what was drawn for execution without waiting (`glFlush`).
pub fn flush(gl: &glow::Context) {
    // SAFETY: current context.
    unsafe { gl.flush() };
}
