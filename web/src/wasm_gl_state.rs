//! The GL state a game's WebGL2 context has, saved before the player
//! touches the context and put back after (`GamePlayer`; as the native
//! `animkit_player::player::GlState` does). Read and written through
//! web-sys, not glow: glow's WebGL backend cannot name an object (a
//! program, a buffer, a framebuffer) it did not make, and these are the
//! game's.
//!
//! Saved: the program; the vertex array and the array, element array,
//! uniform and pixel buffers bound; the draw and read framebuffers, the
//! renderbuffer; the active texture unit and the 2D texture of units 0 to
//! 7; viewport and scissor box; the capabilities in [`CAPS`]; blend
//! functions, equations and colour; depth mask, function and range;
//! cull face and front face; stencil functions, operations and masks
//! (both faces); colour mask; clear colour, depth and stencil; polygon
//! offset; the pixel store parameters in [`PIXEL_STORE`].

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{
    WebGl2RenderingContext as Gl, WebGlBuffer, WebGlFramebuffer, WebGlProgram, WebGlRenderbuffer, WebGlTexture,
    WebGlVertexArrayObject,
};

/// Texture units whose 2D binding is saved.
const TEXTURE_UNITS: u32 = 8;

/// The capabilities saved, and off while the player draws.
pub const CAPS: [u32; 9] = [
    Gl::SCISSOR_TEST,
    Gl::BLEND,
    Gl::DEPTH_TEST,
    Gl::CULL_FACE,
    Gl::STENCIL_TEST,
    Gl::POLYGON_OFFSET_FILL,
    Gl::SAMPLE_ALPHA_TO_COVERAGE,
    Gl::SAMPLE_COVERAGE,
    Gl::RASTERIZER_DISCARD,
];

/// Pixel store parameters saved, with the value a fresh context has
/// (which the player's texture uploads assume).
pub const PIXEL_STORE: [(u32, i32); 11] = [
    (Gl::UNPACK_ALIGNMENT, 4),
    (Gl::PACK_ALIGNMENT, 4),
    (Gl::UNPACK_FLIP_Y_WEBGL, 0),
    (Gl::UNPACK_PREMULTIPLY_ALPHA_WEBGL, 0),
    (Gl::UNPACK_COLORSPACE_CONVERSION_WEBGL, Gl::BROWSER_DEFAULT_WEBGL as i32),
    (Gl::UNPACK_ROW_LENGTH, 0),
    (Gl::UNPACK_SKIP_ROWS, 0),
    (Gl::UNPACK_SKIP_PIXELS, 0),
    (Gl::PACK_ROW_LENGTH, 0),
    (Gl::PACK_SKIP_ROWS, 0),
    (Gl::PACK_SKIP_PIXELS, 0),
];

const STENCIL: [u32; 14] = [
    Gl::STENCIL_FUNC,
    Gl::STENCIL_REF,
    Gl::STENCIL_VALUE_MASK,
    Gl::STENCIL_FAIL,
    Gl::STENCIL_PASS_DEPTH_FAIL,
    Gl::STENCIL_PASS_DEPTH_PASS,
    Gl::STENCIL_WRITEMASK,
    Gl::STENCIL_BACK_FUNC,
    Gl::STENCIL_BACK_REF,
    Gl::STENCIL_BACK_VALUE_MASK,
    Gl::STENCIL_BACK_FAIL,
    Gl::STENCIL_BACK_PASS_DEPTH_FAIL,
    Gl::STENCIL_BACK_PASS_DEPTH_PASS,
    Gl::STENCIL_BACK_WRITEMASK,
];

const BLEND: [u32; 6] = [
    Gl::BLEND_SRC_RGB,
    Gl::BLEND_DST_RGB,
    Gl::BLEND_SRC_ALPHA,
    Gl::BLEND_DST_ALPHA,
    Gl::BLEND_EQUATION_RGB,
    Gl::BLEND_EQUATION_ALPHA,
];

/// The game's state (see the module documentation).
pub struct GlState {
    program: JsValue,
    vao: JsValue,
    buffers: [JsValue; 4],
    draw_fbo: JsValue,
    read_fbo: JsValue,
    renderbuffer: JsValue,
    active_texture: u32,
    textures: Vec<JsValue>,
    viewport: [i32; 4],
    scissor: [i32; 4],
    caps: [bool; CAPS.len()],
    blend: [u32; 6],
    blend_color: [f32; 4],
    depth_mask: bool,
    depth_func: u32,
    depth_range: [f32; 2],
    cull: [u32; 2],
    stencil: [u32; 14],
    color_mask: [bool; 4],
    clear_color: [f32; 4],
    clear_depth: f32,
    clear_stencil: i32,
    polygon_offset: [f32; 2],
    pixel_store: [i32; PIXEL_STORE.len()],
}

const BUFFERS: [(u32, u32); 4] = [
    (Gl::ARRAY_BUFFER, Gl::ARRAY_BUFFER_BINDING),
    (Gl::UNIFORM_BUFFER, Gl::UNIFORM_BUFFER_BINDING),
    (Gl::PIXEL_PACK_BUFFER, Gl::PIXEL_PACK_BUFFER_BINDING),
    (Gl::PIXEL_UNPACK_BUFFER, Gl::PIXEL_UNPACK_BUFFER_BINDING),
];

fn get(gl: &Gl, p: u32) -> JsValue {
    gl.get_parameter(p).unwrap_or(JsValue::NULL)
}

fn number(gl: &Gl, p: u32) -> f64 {
    get(gl, p).as_f64().unwrap_or(0.0)
}

fn flag(gl: &Gl, p: u32) -> bool {
    get(gl, p).as_bool().unwrap_or(false)
}

fn ints<const N: usize>(gl: &Gl, p: u32) -> [i32; N] {
    let mut out = [0; N];
    if let Ok(a) = get(gl, p).dyn_into::<js_sys::Int32Array>() {
        for (i, o) in out.iter_mut().enumerate() {
            *o = a.get_index(i as u32);
        }
    }
    out
}

fn floats<const N: usize>(gl: &Gl, p: u32) -> [f32; N] {
    let mut out = [0.0; N];
    if let Ok(a) = get(gl, p).dyn_into::<js_sys::Float32Array>() {
        for (i, o) in out.iter_mut().enumerate() {
            *o = a.get_index(i as u32);
        }
    }
    out
}

fn flags<const N: usize>(gl: &Gl, p: u32) -> [bool; N] {
    let mut out = [false; N];
    if let Ok(a) = get(gl, p).dyn_into::<js_sys::Array>() {
        for (i, o) in out.iter_mut().enumerate() {
            *o = a.get(i as u32).as_bool().unwrap_or(false);
        }
    }
    out
}

fn object<T: JsCast>(v: &JsValue) -> Option<&T> {
    v.dyn_ref::<T>()
}

impl GlState {
    /// Reads the game's state from `gl`.
    pub fn save(gl: &Gl) -> GlState {
        let active_texture = number(gl, Gl::ACTIVE_TEXTURE) as u32;
        let textures = (0..TEXTURE_UNITS)
            .map(|i| {
                gl.active_texture(Gl::TEXTURE0 + i);
                get(gl, Gl::TEXTURE_BINDING_2D)
            })
            .collect();
        gl.active_texture(active_texture);
        GlState {
            program: get(gl, Gl::CURRENT_PROGRAM),
            vao: get(gl, Gl::VERTEX_ARRAY_BINDING),
            buffers: BUFFERS.map(|(_, p)| get(gl, p)),
            draw_fbo: get(gl, Gl::DRAW_FRAMEBUFFER_BINDING),
            read_fbo: get(gl, Gl::READ_FRAMEBUFFER_BINDING),
            renderbuffer: get(gl, Gl::RENDERBUFFER_BINDING),
            active_texture,
            textures,
            viewport: ints(gl, Gl::VIEWPORT),
            scissor: ints(gl, Gl::SCISSOR_BOX),
            caps: CAPS.map(|c| gl.is_enabled(c)),
            blend: BLEND.map(|p| number(gl, p) as u32),
            blend_color: floats(gl, Gl::BLEND_COLOR),
            depth_mask: flag(gl, Gl::DEPTH_WRITEMASK),
            depth_func: number(gl, Gl::DEPTH_FUNC) as u32,
            depth_range: floats(gl, Gl::DEPTH_RANGE),
            cull: [number(gl, Gl::CULL_FACE_MODE) as u32, number(gl, Gl::FRONT_FACE) as u32],
            stencil: STENCIL.map(|p| number(gl, p) as u32),
            color_mask: flags(gl, Gl::COLOR_WRITEMASK),
            clear_color: floats(gl, Gl::COLOR_CLEAR_VALUE),
            clear_depth: number(gl, Gl::DEPTH_CLEAR_VALUE) as f32,
            clear_stencil: number(gl, Gl::STENCIL_CLEAR_VALUE) as i32,
            polygon_offset: [number(gl, Gl::POLYGON_OFFSET_FACTOR) as f32, number(gl, Gl::POLYGON_OFFSET_UNITS) as f32],
            pixel_store: PIXEL_STORE.map(|(p, _)| {
                let v = get(gl, p);
                v.as_bool().map_or_else(|| v.as_f64().unwrap_or(0.0) as i32, i32::from)
            }),
        }
    }

    /// The state the player's renderer assumes (a fresh context's), in
    /// place of the game's: nothing the game left set leaks into the
    /// picture.
    pub fn baseline(gl: &Gl) {
        for cap in CAPS {
            gl.disable(cap);
        }
        gl.color_mask(true, true, true, true);
        gl.depth_mask(true);
        gl.depth_func(Gl::LESS);
        gl.depth_range(0.0, 1.0);
        gl.cull_face(Gl::BACK);
        gl.front_face(Gl::CCW);
        gl.stencil_func(Gl::ALWAYS, 0, 0xff);
        gl.stencil_op(Gl::KEEP, Gl::KEEP, Gl::KEEP);
        gl.stencil_mask(0xff);
        for (target, _) in &BUFFERS[1..] {
            gl.bind_buffer(*target, None);
        }
        for (p, v) in PIXEL_STORE {
            gl.pixel_storei(p, v);
        }
    }

    /// Binds the game's draw framebuffer again (the player's drawing
    /// binds its own).
    pub fn bind_draw_framebuffer(&self, gl: &Gl) {
        gl.bind_framebuffer(Gl::DRAW_FRAMEBUFFER, object::<WebGlFramebuffer>(&self.draw_fbo));
    }

    /// Puts the saved state back into `gl`.
    pub fn restore(&self, gl: &Gl) {
        gl.use_program(object::<WebGlProgram>(&self.program));
        gl.bind_vertex_array(object::<WebGlVertexArrayObject>(&self.vao));
        for ((target, _), b) in BUFFERS.iter().zip(&self.buffers) {
            gl.bind_buffer(*target, object::<WebGlBuffer>(b));
        }
        gl.bind_framebuffer(Gl::DRAW_FRAMEBUFFER, object::<WebGlFramebuffer>(&self.draw_fbo));
        gl.bind_framebuffer(Gl::READ_FRAMEBUFFER, object::<WebGlFramebuffer>(&self.read_fbo));
        gl.bind_renderbuffer(Gl::RENDERBUFFER, object::<WebGlRenderbuffer>(&self.renderbuffer));
        for (i, t) in self.textures.iter().enumerate() {
            gl.active_texture(Gl::TEXTURE0 + i as u32);
            gl.bind_texture(Gl::TEXTURE_2D, object::<WebGlTexture>(t));
        }
        gl.active_texture(self.active_texture);
        let [x, y, w, h] = self.viewport;
        gl.viewport(x, y, w, h);
        let [x, y, w, h] = self.scissor;
        gl.scissor(x, y, w, h);
        for (cap, on) in CAPS.iter().zip(self.caps) {
            if on { gl.enable(*cap) } else { gl.disable(*cap) }
        }
        let b = self.blend;
        gl.blend_func_separate(b[0], b[1], b[2], b[3]);
        gl.blend_equation_separate(b[4], b[5]);
        let [r, g, b, a] = self.blend_color;
        gl.blend_color(r, g, b, a);
        gl.depth_mask(self.depth_mask);
        gl.depth_func(self.depth_func);
        gl.depth_range(self.depth_range[0], self.depth_range[1]);
        gl.cull_face(self.cull[0]);
        gl.front_face(self.cull[1]);
        let s = self.stencil;
        gl.stencil_func_separate(Gl::FRONT, s[0], s[1] as i32, s[2]);
        gl.stencil_op_separate(Gl::FRONT, s[3], s[4], s[5]);
        gl.stencil_mask_separate(Gl::FRONT, s[6]);
        gl.stencil_func_separate(Gl::BACK, s[7], s[8] as i32, s[9]);
        gl.stencil_op_separate(Gl::BACK, s[10], s[11], s[12]);
        gl.stencil_mask_separate(Gl::BACK, s[13]);
        let [r, g, b, a] = self.color_mask;
        gl.color_mask(r, g, b, a);
        let [r, g, b, a] = self.clear_color;
        gl.clear_color(r, g, b, a);
        gl.clear_depth(self.clear_depth);
        gl.clear_stencil(self.clear_stencil);
        gl.polygon_offset(self.polygon_offset[0], self.polygon_offset[1]);
        for ((p, _), v) in PIXEL_STORE.iter().zip(self.pixel_store) {
            gl.pixel_storei(*p, v);
        }
    }
}
