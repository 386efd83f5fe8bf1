//! The renderer's shader programs: one source for desktop GL 3.3 core and
//! GLES 3.0, with a `#version` prefix chosen per API. The per-vertex mode word
//! selects solid, textured, glyph-alpha or dashed shading.
//!
//! The same source is compiled three times ([`Variant`]): the general
//! program, and two with the texture paths left out, for batches holding
//! only solid (and dashed) geometry. A software rasterizer such as llvmpipe
//! runs every branch of a fragment shader under a mask, so the general
//! program samples both textures for every solid pixel; a batch of lines and
//! fills drawn with the solid program costs what a one-line shader costs.

use glow::HasContext;

use super::geometry::PIXEL_EPS;

/// Attribute locations, bound before linking.
pub(crate) const ATTR_POS: u32 = 0;
pub(crate) const ATTR_UV: u32 = 1;
pub(crate) const ATTR_COLOR: u32 = 2;
pub(crate) const ATTR_MODE: u32 = 3;

const VERTEX: &str = r#"
in vec2 a_pos;
in vec4 a_color;
uniform vec2 u_size;
out vec4 v_color;
#if HAS_UV
in vec2 a_uv;
in uint a_mode;
out vec2 v_uv;
flat out uint v_mode;
#endif
void main() {
    // Pixels, origin top-left, y down -> clip space. Every vertex moves by
    // PIXEL_EPS right and down so that no edge runs through a pixel centre.
    vec2 p = a_pos + vec2(PIXEL_EPS);
    gl_Position = vec4(p.x / u_size.x * 2.0 - 1.0, 1.0 - p.y / u_size.y * 2.0, 0.0, 1.0);
    v_color = a_color;
#if HAS_UV
    v_uv = a_uv;
    v_mode = a_mode;
#endif
}
"#;

const FRAGMENT: &str = r#"
in vec4 v_color;
out vec4 o_color;
#if HAS_UV
in vec2 v_uv;
flat in uint v_mode;
#endif
#if HAS_TEXTURES
uniform sampler2D u_image;
uniform sampler2D u_atlas;
#endif
void main() {
    vec4 c = v_color;
#if HAS_UV
    uint mode = v_mode & 0xffffu;
#if HAS_TEXTURES
    if (mode == 1u) {
        c *= textureLod(u_image, v_uv, 0.0);
    } else if (mode == 2u) {
        c.a *= textureLod(u_atlas, v_uv, 0.0).r;
    } else
#endif
    if (mode == 3u) {
        // The n-th pixel step from the start of the polyline uses bit n % 16.
        uint step = uint(max(floor(v_uv.x + 0.5), 0.0));
        if ((((v_mode >> 16) >> (step & 15u)) & 1u) == 0u) {
            discard;
        }
    }
#endif
    o_color = c;
}
"#;

/// Which paths a program has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Variant {
    /// Every mode: solid, textured, glyph, dashed.
    General,
    /// Solid and dashed geometry only (no texture sampling).
    Dashed,
    /// Solid geometry only (vertex colour, nothing else).
    Solid,
}

impl Variant {
    /// The cheapest variant that draws every mode in `modes` (bit `1 << m`
    /// for mode `m`).
    pub(crate) fn for_modes(modes: u8) -> Variant {
        use super::geometry::{MODE_DASHED, MODE_SOLID};
        if modes & !(1 << MODE_SOLID) == 0 {
            Variant::Solid
        } else if modes & !((1 << MODE_SOLID) | (1 << MODE_DASHED)) == 0 {
            Variant::Dashed
        } else {
            Variant::General
        }
    }

    fn defines(self) -> &'static str {
        match self {
            Variant::General => "#define HAS_UV 1\n#define HAS_TEXTURES 1\n",
            Variant::Dashed => "#define HAS_UV 1\n#define HAS_TEXTURES 0\n",
            Variant::Solid => "#define HAS_UV 0\n#define HAS_TEXTURES 0\n",
        }
    }
}

/// The compiled program and its uniform locations.
#[derive(Clone)]
pub(crate) struct Program {
    pub program: glow::Program,
    pub u_size: Option<glow::UniformLocation>,
}

fn prefix(embedded: bool) -> String {
    let version = if embedded {
        "#version 300 es\nprecision highp float;\nprecision highp int;\n"
    } else {
        "#version 330 core\n"
    };
    format!("{version}#define PIXEL_EPS {PIXEL_EPS:.8}\n")
}

/// Compiles and links the program `variant` for the context's API.
///
/// # Safety
/// `gl` must be current on this thread.
pub(crate) unsafe fn build(gl: &glow::Context, variant: Variant) -> Result<Program, String> {
    unsafe {
        let pre = format!("{}{}", prefix(gl.version().is_embedded), variant.defines());
        let attributes = [(ATTR_POS, "a_pos"), (ATTR_UV, "a_uv"), (ATTR_COLOR, "a_color"), (ATTR_MODE, "a_mode")];
        let program = compile_and_link(gl, &pre, VERTEX, FRAGMENT, &attributes, "")?;
        gl.use_program(Some(program));
        let u_image = gl.get_uniform_location(program, "u_image");
        let u_atlas = gl.get_uniform_location(program, "u_atlas");
        gl.uniform_1_i32(u_image.as_ref(), 0);
        gl.uniform_1_i32(u_atlas.as_ref(), 1);
        let u_size = gl.get_uniform_location(program, "u_size");
        Ok(Program { program, u_size })
    }
}

/// Compiles `vertex` and `fragment` after `pre` (the API's prefix and any
/// defines), binds the attribute locations, links, and frees the shaders;
/// on failure nothing is left behind and the log is the error, its words
/// led by `what` (`"3D "` for the scene's programs). The one way both the
/// 2D variants and the 3D programs are built.
///
/// # Safety
/// `gl` must be current on this thread.
pub(crate) unsafe fn compile_and_link(
    gl: &glow::Context,
    pre: &str,
    vertex: &str,
    fragment: &str,
    attributes: &[(u32, &str)],
    what: &str,
) -> Result<glow::Program, String> {
    unsafe {
        let program = gl.create_program()?;
        let mut shaders = Vec::new();
        for (kind, src) in [(glow::VERTEX_SHADER, vertex), (glow::FRAGMENT_SHADER, fragment)] {
            let sh = gl.create_shader(kind)?;
            gl.shader_source(sh, &format!("{pre}{src}"));
            gl.compile_shader(sh);
            if !gl.get_shader_compile_status(sh) {
                let log = gl.get_shader_info_log(sh);
                gl.delete_shader(sh);
                for s in shaders {
                    gl.delete_shader(s);
                }
                gl.delete_program(program);
                return Err(format!("{what}shader compile failed: {log}"));
            }
            gl.attach_shader(program, sh);
            shaders.push(sh);
        }
        for &(location, name) in attributes {
            gl.bind_attrib_location(program, location, name);
        }
        gl.link_program(program);
        for sh in shaders {
            gl.detach_shader(program, sh);
            gl.delete_shader(sh);
        }
        if !gl.get_program_link_status(program) {
            let log = gl.get_program_info_log(program);
            gl.delete_program(program);
            return Err(format!("{what}program link failed: {log}"));
        }
        Ok(program)
    }
}
