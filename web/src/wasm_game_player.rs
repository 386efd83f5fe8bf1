//! `GamePlayer`: the full player inside a game's own WebGL2 context (a
//! Three.js, Pixi or Phaser game's), as the native
//! `animkit_player::player::Player` plays inside a game's GL context. It
//! draws into its own framebuffer on the game's context and copies the
//! frame into the game's bound framebuffer at a viewport when the game
//! asks (`draw`); every call that touches GL saves the game's state first
//! and puts it back before returning ([`GlState`]).

use crate::core::Core;
use crate::wasm_gl_state::GlState;
use wasm_bindgen::prelude::*;
use web_sys::WebGl2RenderingContext;

/// The player in a game's WebGL2 context (see `docs/web.md`, "Games:
/// drawing into the game's WebGL2 context").
#[wasm_bindgen]
pub struct GamePlayer {
    core: Core,
    gl: WebGl2RenderingContext,
    /// Where `draw` puts the frame: x, y from the bottom-left corner.
    at: [i32; 2],
}

fn frame_number(n: f64) -> Result<u64, JsError> {
    if n.fract() == 0.0 && (0.0..=9_007_199_254_740_992.0).contains(&n) {
        Ok(n as u64)
    } else {
        Err(JsError::new("a frame is a whole number from 0"))
    }
}

fn done(r: Result<(), String>) -> Result<(), JsError> {
    r.map_err(|e| JsError::new(e.trim_end()))
}

#[wasm_bindgen]
impl GamePlayer {
    /// A player drawing into the game's context `gl` at the viewport `x`,
    /// `y` (from the bottom-left corner, as `gl.viewport`), `width` x
    /// `height` pixels.
    #[wasm_bindgen(constructor)]
    pub fn new(gl: WebGl2RenderingContext, x: i32, y: i32, width: u32, height: u32) -> GamePlayer {
        let context = gl.clone();
        let make = move || glow::Context::from_webgl2_context(context.clone());
        let mut core = Core::new(Box::new(make), width, height);
        core.set_presenting(false);
        GamePlayer { core, gl, at: [x, y] }
    }

    /// Runs `f` between a save and a restore of the game's GL state.
    fn with_gl<T>(&mut self, f: impl FnOnce(&mut Core) -> T) -> T {
        let saved = GlState::save(&self.gl);
        GlState::baseline(&self.gl);
        let t = f(&mut self.core);
        saved.restore(&self.gl);
        t
    }

    /// Loads a bundle or a source (by `name`'s extension; default
    /// `bundle.animb`) and draws its frame 0; throws `animvm`'s message for
    /// a bad one (the player keeps what it had).
    pub fn load(&mut self, bytes: Vec<u8>, name: Option<String>) -> Result<(), JsError> {
        let name = name.unwrap_or_else(|| "bundle.animb".into());
        done(self.with_gl(|c| c.load(&name, bytes)))
    }

    /// `sprite`, `slap`, `animator` or `""`.
    pub fn language(&self) -> String {
        self.core.language().into()
    }

    /// Draws frame `n` (as `Player.renderFrame`) into the player's own
    /// framebuffer; `draw()` shows it.
    #[wasm_bindgen(js_name = renderFrame)]
    pub fn render_frame(&mut self, n: f64) -> Result<(), JsError> {
        let n = frame_number(n)?;
        done(self.with_gl(|c| c.render_frame(n)))
    }

    /// Starts playback (`advance` moves it on).
    pub fn play(&mut self) {
        self.with_gl(Core::play);
    }

    /// Stops playback.
    pub fn pause(&mut self) {
        self.core.pause();
    }

    /// `ms` milliseconds of the game's clock have passed (while playing).
    pub fn advance(&mut self, ms: f64) -> Result<(), JsError> {
        done(self.with_gl(|c| c.advance(ms)))
    }

    /// The frame drawn.
    pub fn frame(&self) -> f64 {
        self.core.frame() as f64
    }

    /// Moves the viewport; a new size draws the frame again at that size.
    #[wasm_bindgen(js_name = setViewport)]
    pub fn set_viewport(&mut self, x: i32, y: i32, width: u32, height: u32) -> Result<(), JsError> {
        self.at = [x, y];
        done(self.with_gl(|c| c.resize(width, height)))
    }

    /// The viewport: x, y, width, height.
    pub fn viewport(&self) -> Vec<i32> {
        vec![self.at[0], self.at[1], self.core.width() as i32, self.core.height() as i32]
    }

    /// Copies the frame into the framebuffer the game has bound for
    /// drawing (its canvas or its own framebuffer) at the viewport, 1:1;
    /// nothing else of it is touched, and its GL state is as it was.
    pub fn draw(&mut self) {
        let [x, y] = self.at;
        let saved = GlState::save(&self.gl);
        GlState::baseline(&self.gl);
        self.core.flush();
        saved.bind_draw_framebuffer(&self.gl);
        self.core.blit_into_bound(x, y);
        saved.restore(&self.gl);
    }

    /// The frame's pixels, RGBA8, top row first.
    #[wasm_bindgen(js_name = readPixels)]
    pub fn read_pixels(&mut self) -> Vec<u8> {
        self.with_gl(Core::read_pixels)
    }

    /// What the program printed since the last call (standard output).
    #[wasm_bindgen(js_name = takeOutput)]
    pub fn take_output(&mut self) -> String {
        self.core.take_output()
    }

    /// What it printed on standard error since the last call.
    #[wasm_bindgen(js_name = takeErrors)]
    pub fn take_errors(&mut self) -> String {
        self.core.take_errors()
    }
}
