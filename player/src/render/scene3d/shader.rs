//! The 3D path's two programs, one source each for desktop GL 3.3 core and
//! GLES 3.0 (the `#version` prefix is chosen per API, as for the 2D
//! shader):
//!
//! - **mesh** ([`MESH_VERTEX`], [`MESH_FRAGMENT`]): instanced meshes. Each
//!   instance is an affine map (three rows) and a colour; a vertex's
//!   colour is multiplied by the instance colour as far as its alpha says
//!   (255: fully tinted, 0: its own colour: a beak stays orange on any
//!   actor). Lighting is one directional light plus ambient, computed per
//!   vertex from the vertex normal: meshes with one normal per face are
//!   flat shaded, meshes with shared normals smooth. Fog towards the sky
//!   colour with distance from the eye. `u_lit` = 0 draws the colour
//!   unlit, with the instance's alpha (blob shadows).
//! - **ground** ([`GROUND_VERTEX`], [`GROUND_FRAGMENT`]): a square around
//!   the eye at the ground's height, with a box-filtered checker in world
//!   coordinates (so cells read at any distance and fade to their average
//!   towards the horizon instead of shimmering), the same fog.
//!
//! Coordinates are relative to the eye (see [`super::View3d`]). The
//! sources are public so that the benchmark's raw-GL baseline can compile
//! the very same programs.

use glow::HasContext;

/// Vertex attribute locations of the mesh program, bound before linking.
pub mod attr {
    /// `vec3` position in the mesh's own frame.
    pub const POS: u32 = 0;
    /// `vec3` normal.
    pub const NORMAL: u32 = 1;
    /// RGBA8: colour, alpha = how much the instance colour tints it.
    pub const COLOR: u32 = 2;
    /// Three `vec4` rows of the instance's affine map (per instance).
    pub const ROW0: u32 = 3;
    /// See [`ROW0`].
    pub const ROW1: u32 = 4;
    /// See [`ROW0`].
    pub const ROW2: u32 = 5;
    /// RGBA8 instance colour (per instance).
    pub const INSTANCE_COLOR: u32 = 6;
}

/// The mesh program's vertex shader (after the version prefix).
pub const MESH_VERTEX: &str = r#"
in vec3 a_pos;
in vec3 a_normal;
in vec4 a_color;
in vec4 i_row0;
in vec4 i_row1;
in vec4 i_row2;
in vec4 i_color;
uniform mat4 u_view_proj;
uniform vec3 u_light_dir;
uniform vec3 u_light;
uniform vec3 u_ambient;
uniform vec2 u_fog;
uniform float u_lit;
out vec4 v_color;
out float v_fog;
void main() {
    vec4 p = vec4(a_pos, 1.0);
    vec3 w = vec3(dot(i_row0, p), dot(i_row1, p), dot(i_row2, p));
    vec3 n = normalize(vec3(dot(i_row0.xyz, a_normal), dot(i_row1.xyz, a_normal), dot(i_row2.xyz, a_normal)));
    vec3 albedo = a_color.rgb * mix(vec3(1.0), i_color.rgb, a_color.a);
    vec3 light = u_ambient + u_light * max(dot(n, u_light_dir), 0.0);
    v_color = vec4(albedo * mix(vec3(1.0), light, u_lit), i_color.a);
    v_fog = clamp((length(w) - u_fog.x) * u_fog.y, 0.0, 1.0);
    gl_Position = u_view_proj * vec4(w, 1.0);
}
"#;

/// The mesh program's fragment shader.
pub const MESH_FRAGMENT: &str = r#"
in vec4 v_color;
in float v_fog;
uniform vec3 u_fog_color;
out vec4 o_color;
void main() {
    o_color = vec4(mix(v_color.rgb, u_fog_color, v_fog), v_color.a);
}
"#;

/// The ground program's vertex shader: `a_pos.xz` is a corner of the unit
/// square, stretched to `u_extent` around the eye at height `u_height`.
pub const GROUND_VERTEX: &str = r#"
in vec3 a_pos;
uniform mat4 u_view_proj;
uniform float u_extent;
uniform float u_height;
uniform vec2 u_origin;
uniform float u_cell;
out vec3 v_rel;
out vec2 v_cell;
void main() {
    v_rel = vec3(a_pos.x * u_extent, u_height, a_pos.z * u_extent);
    v_cell = (v_rel.xz + u_origin) / u_cell;
    gl_Position = u_view_proj * vec4(v_rel, 1.0);
}
"#;

/// The ground program's fragment shader: the checker, box-filtered over
/// the pixel's footprint (`fwidth`), then fog.
pub const GROUND_FRAGMENT: &str = r#"
in vec3 v_rel;
in vec2 v_cell;
uniform vec3 u_ground0;
uniform vec3 u_ground1;
uniform vec3 u_fog_color;
uniform vec2 u_fog;
out vec4 o_color;
void main() {
    vec2 w = max(fwidth(v_cell), vec2(1e-4));
    vec2 i = 2.0 * (abs(fract((v_cell - 0.5 * w) * 0.5) - 0.5) - abs(fract((v_cell + 0.5 * w) * 0.5) - 0.5)) / w;
    float k = 0.5 - 0.5 * i.x * i.y;
    vec3 c = mix(u_ground0, u_ground1, k);
    float f = clamp((length(v_rel) - u_fog.x) * u_fog.y, 0.0, 1.0);
    o_color = vec4(mix(c, u_fog_color, f), 1.0);
}
"#;

/// The `#version` line (and ES precision) for the context's API.
pub fn prefix(embedded: bool) -> &'static str {
    if embedded { "#version 300 es\nprecision highp float;\nprecision highp int;\n" } else { "#version 330 core\n" }
}

/// A linked program and the uniform locations the 3D path sets.
pub(crate) struct Program3d {
    pub program: glow::Program,
    uniforms: Vec<(&'static str, Option<glow::UniformLocation>)>,
}

impl Program3d {
    /// The location of uniform `name` (`None` when the program has none:
    /// setting it is then a no-op, as GL does for location -1).
    pub fn uniform(&self, name: &str) -> Option<&glow::UniformLocation> {
        self.uniforms.iter().find(|(n, _)| *n == name).and_then(|(_, l)| l.as_ref())
    }
}

/// The uniforms of the mesh program.
const MESH_UNIFORMS: [&str; 7] =
    ["u_view_proj", "u_light_dir", "u_light", "u_ambient", "u_fog", "u_lit", "u_fog_color"];
/// The uniforms of the ground program.
const GROUND_UNIFORMS: [&str; 9] =
    ["u_view_proj", "u_extent", "u_height", "u_origin", "u_cell", "u_ground0", "u_ground1", "u_fog_color", "u_fog"];

/// Compiles and links the mesh program.
///
/// # Safety
/// `gl` must be current on this thread.
pub(crate) unsafe fn build_mesh(gl: &glow::Context) -> Result<Program3d, String> {
    let attributes = [
        (attr::POS, "a_pos"),
        (attr::NORMAL, "a_normal"),
        (attr::COLOR, "a_color"),
        (attr::ROW0, "i_row0"),
        (attr::ROW1, "i_row1"),
        (attr::ROW2, "i_row2"),
        (attr::INSTANCE_COLOR, "i_color"),
    ];
    // SAFETY: forwarded from the caller.
    unsafe { build(gl, MESH_VERTEX, MESH_FRAGMENT, &attributes, &MESH_UNIFORMS) }
}

/// Compiles and links the ground program.
///
/// # Safety
/// `gl` must be current on this thread.
pub(crate) unsafe fn build_ground(gl: &glow::Context) -> Result<Program3d, String> {
    // SAFETY: forwarded from the caller.
    unsafe { build(gl, GROUND_VERTEX, GROUND_FRAGMENT, &[(attr::POS, "a_pos")], &GROUND_UNIFORMS) }
}

/// Compiles `vertex` and `fragment` with the API's prefix, binds the
/// attribute locations, links, and looks the uniforms up.
///
/// # Safety
/// `gl` must be current on this thread.
pub unsafe fn link(
    gl: &glow::Context,
    vertex: &str,
    fragment: &str,
    attributes: &[(u32, &str)],
) -> Result<glow::Program, String> {
    // SAFETY: forwarded from the caller.
    unsafe {
        crate::render::shader::compile_and_link(
            gl,
            prefix(gl.version().is_embedded),
            vertex,
            fragment,
            attributes,
            "3D ",
        )
    }
}

unsafe fn build(
    gl: &glow::Context,
    vertex: &str,
    fragment: &str,
    attributes: &[(u32, &str)],
    uniforms: &[&'static str],
) -> Result<Program3d, String> {
    // SAFETY: forwarded from the caller.
    unsafe {
        let program = link(gl, vertex, fragment, attributes)?;
        let uniforms = uniforms.iter().map(|&n| (n, gl.get_uniform_location(program, n))).collect();
        Ok(Program3d { program, uniforms })
    }
}
