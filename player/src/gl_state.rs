//! [`GlState`]: the part of a game's GL state a [`Player`](crate::player::Player)
//! changes, read before it touches GL and put back after (the player's
//! contract with the game, `player.rs`).

use glow::HasContext;

/// Texture units whose `TEXTURE_2D` binding is saved and restored (the
/// renderer uses units 0 and 1).
pub const SAVED_TEXTURE_UNITS: u32 = 4;

/// The GL state a [`Player`](crate::player::Player) changes, as read from the context before it
/// draws and put back after:
///
/// * bindings: current program, vertex array, `ARRAY_BUFFER`,
///   `DRAW_FRAMEBUFFER`, `READ_FRAMEBUFFER`, `RENDERBUFFER`, the active
///   texture unit and the `TEXTURE_2D` bound on units 0 to
///   [`SAVED_TEXTURE_UNITS`]` - 1`;
/// * viewport and scissor box, scissor test;
/// * blending: enable, the four blend factors, both blend equations;
/// * depth: test, write mask, function; cull face: enable, mode, front face;
///   polygon offset fill;
/// * stencil: test, front and back functions, reference, masks and ops,
///   the write masks;
/// * colour write mask, clear colour, clear depth, clear stencil;
/// * `UNPACK_ALIGNMENT`, `PACK_ALIGNMENT`.
///
/// The element array buffer is the vertex array's (restored with it).
/// Objects the player makes (its framebuffer, textures, buffers, programs)
/// are its own and deleted when it is dropped.
#[derive(Clone, Debug, PartialEq)]
pub struct GlState {
    program: Option<glow::Program>,
    vao: Option<glow::VertexArray>,
    array_buffer: Option<glow::Buffer>,
    draw_fbo: Option<glow::Framebuffer>,
    read_fbo: Option<glow::Framebuffer>,
    renderbuffer: Option<glow::Renderbuffer>,
    active_texture: u32,
    textures: [Option<glow::Texture>; SAVED_TEXTURE_UNITS as usize],
    viewport: [i32; 4],
    scissor_box: [i32; 4],
    caps: [bool; 6],
    blend: [i32; 6],
    depth_mask: bool,
    depth_func: i32,
    cull: [i32; 2],
    stencil: [i32; 14],
    color_mask: [bool; 4],
    clear_color: [f32; 4],
    clear_depth: f32,
    clear_stencil: i32,
    align: [i32; 2],
}

const CAPS: [u32; 6] =
    [glow::SCISSOR_TEST, glow::BLEND, glow::DEPTH_TEST, glow::CULL_FACE, glow::STENCIL_TEST, glow::POLYGON_OFFSET_FILL];
const BLEND: [u32; 6] = [
    glow::BLEND_SRC_RGB,
    glow::BLEND_DST_RGB,
    glow::BLEND_SRC_ALPHA,
    glow::BLEND_DST_ALPHA,
    glow::BLEND_EQUATION_RGB,
    glow::BLEND_EQUATION_ALPHA,
];
const STENCIL: [u32; 14] = [
    glow::STENCIL_FUNC,
    glow::STENCIL_REF,
    glow::STENCIL_VALUE_MASK,
    glow::STENCIL_FAIL,
    glow::STENCIL_PASS_DEPTH_FAIL,
    glow::STENCIL_PASS_DEPTH_PASS,
    glow::STENCIL_WRITEMASK,
    glow::STENCIL_BACK_FUNC,
    glow::STENCIL_BACK_REF,
    glow::STENCIL_BACK_VALUE_MASK,
    glow::STENCIL_BACK_FAIL,
    glow::STENCIL_BACK_PASS_DEPTH_FAIL,
    glow::STENCIL_BACK_PASS_DEPTH_PASS,
    glow::STENCIL_BACK_WRITEMASK,
];

impl GlState {
    /// Reads the state listed on the type from `gl`.
    ///
    /// # Safety
    /// `gl` must be current on this thread.
    pub unsafe fn save(gl: &glow::Context) -> GlState {
        unsafe {
            let mut textures = [None; SAVED_TEXTURE_UNITS as usize];
            let active_texture = gl.get_parameter_i32(glow::ACTIVE_TEXTURE) as u32;
            for (i, t) in textures.iter_mut().enumerate() {
                gl.active_texture(glow::TEXTURE0 + i as u32);
                *t = gl.get_parameter_texture(glow::TEXTURE_BINDING_2D);
            }
            gl.active_texture(active_texture);
            let mut viewport = [0; 4];
            gl.get_parameter_i32_slice(glow::VIEWPORT, &mut viewport);
            let mut scissor_box = [0; 4];
            gl.get_parameter_i32_slice(glow::SCISSOR_BOX, &mut scissor_box);
            let mut clear_color = [0.0; 4];
            gl.get_parameter_f32_slice(glow::COLOR_CLEAR_VALUE, &mut clear_color);
            GlState {
                program: gl.get_parameter_program(glow::CURRENT_PROGRAM),
                vao: gl.get_parameter_vertex_array(glow::VERTEX_ARRAY_BINDING),
                array_buffer: gl.get_parameter_buffer(glow::ARRAY_BUFFER_BINDING),
                draw_fbo: gl.get_parameter_framebuffer(glow::DRAW_FRAMEBUFFER_BINDING),
                read_fbo: gl.get_parameter_framebuffer(glow::READ_FRAMEBUFFER_BINDING),
                renderbuffer: gl.get_parameter_renderbuffer(glow::RENDERBUFFER_BINDING),
                active_texture,
                textures,
                viewport,
                scissor_box,
                caps: CAPS.map(|c| gl.is_enabled(c)),
                blend: BLEND.map(|p| gl.get_parameter_i32(p)),
                depth_mask: gl.get_parameter_bool(glow::DEPTH_WRITEMASK),
                depth_func: gl.get_parameter_i32(glow::DEPTH_FUNC),
                cull: [gl.get_parameter_i32(glow::CULL_FACE_MODE), gl.get_parameter_i32(glow::FRONT_FACE)],
                stencil: STENCIL.map(|p| gl.get_parameter_i32(p)),
                color_mask: gl.get_parameter_bool_array::<4>(glow::COLOR_WRITEMASK),
                clear_color,
                clear_depth: gl.get_parameter_f32(glow::DEPTH_CLEAR_VALUE),
                clear_stencil: gl.get_parameter_i32(glow::STENCIL_CLEAR_VALUE),
                align: [gl.get_parameter_i32(glow::UNPACK_ALIGNMENT), gl.get_parameter_i32(glow::PACK_ALIGNMENT)],
            }
        }
    }

    /// Puts the state back into `gl`.
    ///
    /// # Safety
    /// `gl` must be current on this thread and every object named in the
    /// state must still exist.
    pub unsafe fn restore(&self, gl: &glow::Context) {
        unsafe {
            gl.use_program(self.program);
            gl.bind_vertex_array(self.vao);
            gl.bind_buffer(glow::ARRAY_BUFFER, self.array_buffer);
            gl.bind_framebuffer(glow::DRAW_FRAMEBUFFER, self.draw_fbo);
            gl.bind_framebuffer(glow::READ_FRAMEBUFFER, self.read_fbo);
            gl.bind_renderbuffer(glow::RENDERBUFFER, self.renderbuffer);
            for (i, t) in self.textures.iter().enumerate() {
                gl.active_texture(glow::TEXTURE0 + i as u32);
                gl.bind_texture(glow::TEXTURE_2D, *t);
            }
            gl.active_texture(self.active_texture);
            let [x, y, w, h] = self.viewport;
            gl.viewport(x, y, w, h);
            let [x, y, w, h] = self.scissor_box;
            gl.scissor(x, y, w, h);
            for (cap, on) in CAPS.iter().zip(self.caps) {
                if on { gl.enable(*cap) } else { gl.disable(*cap) }
            }
            let b = self.blend.map(|v| v as u32);
            gl.blend_func_separate(b[0], b[1], b[2], b[3]);
            gl.blend_equation_separate(b[4], b[5]);
            gl.depth_mask(self.depth_mask);
            gl.depth_func(self.depth_func as u32);
            gl.cull_face(self.cull[0] as u32);
            gl.front_face(self.cull[1] as u32);
            let s = self.stencil;
            gl.stencil_func_separate(glow::FRONT, s[0] as u32, s[1], s[2] as u32);
            gl.stencil_op_separate(glow::FRONT, s[3] as u32, s[4] as u32, s[5] as u32);
            gl.stencil_mask_separate(glow::FRONT, s[6] as u32);
            gl.stencil_func_separate(glow::BACK, s[7] as u32, s[8], s[9] as u32);
            gl.stencil_op_separate(glow::BACK, s[10] as u32, s[11] as u32, s[12] as u32);
            gl.stencil_mask_separate(glow::BACK, s[13] as u32);
            let [r, g, b, a] = self.color_mask;
            gl.color_mask(r, g, b, a);
            let [r, g, b, a] = self.clear_color;
            gl.clear_color(r, g, b, a);
            gl.clear_depth_f32(self.clear_depth);
            gl.clear_stencil(self.clear_stencil);
            gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, self.align[0]);
            gl.pixel_store_i32(glow::PACK_ALIGNMENT, self.align[1]);
        }
    }
}

/// Whether the framebuffer `target` (`None`: the default one) has a depth
/// buffer, asked in a way that raises no GL error in either case.
///
/// # Safety
/// `gl` must be current; `target` a framebuffer of its context.
pub(crate) unsafe fn has_depth(gl: &glow::Context, target: Option<glow::Framebuffer>) -> bool {
    unsafe {
        let saved = gl.get_parameter_framebuffer(glow::FRAMEBUFFER_BINDING);
        gl.bind_framebuffer(glow::FRAMEBUFFER, target);
        let attachment = if target.is_some() { glow::DEPTH_ATTACHMENT } else { glow::DEPTH };
        let kind = gl.get_framebuffer_attachment_parameter_i32(
            glow::FRAMEBUFFER,
            attachment,
            glow::FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE,
        );
        let bits = if kind as u32 == glow::NONE {
            0
        } else {
            gl.get_framebuffer_attachment_parameter_i32(
                glow::FRAMEBUFFER,
                attachment,
                glow::FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE,
            )
        };
        gl.bind_framebuffer(glow::FRAMEBUFFER, saved);
        bits > 0
    }
}

/// Puts the state the renderer assumes (what a fresh context has) in place
/// of the game's, so nothing the game left set leaks into the picture.
///
/// # Safety
/// `gl` must be current.
pub(crate) unsafe fn baseline(gl: &glow::Context) {
    unsafe {
        for cap in CAPS {
            gl.disable(cap);
        }
        gl.color_mask(true, true, true, true);
        gl.depth_mask(true);
        gl.depth_func(glow::LESS);
        gl.cull_face(glow::BACK);
        gl.front_face(glow::CCW);
        gl.stencil_func(glow::ALWAYS, 0, 0xff);
        gl.stencil_op(glow::KEEP, glow::KEEP, glow::KEEP);
        gl.stencil_mask(0xff);
        gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 4);
        gl.pixel_store_i32(glow::PACK_ALIGNMENT, 4);
    }
}
