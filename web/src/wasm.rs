//! The JavaScript face of [`Core`]: the `Player` class (wasm-bindgen),
//! [`WebPlayer`] in Rust (so that the name `Player` is the player crate's).
//! Every call that runs the program hands the lines it printed to the
//! event callback (`setEventCallback(f)`: `f(line, isError)`).

use crate::core::Core;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{HtmlCanvasElement, WebGl2RenderingContext};

/// The web player (see `docs/web.md` for the API).
#[wasm_bindgen(js_name = Player)]
pub struct WebPlayer {
    core: Core,
    callback: Option<js_sys::Function>,
    /// Lines printed while no callback was set (`takeOutput`).
    pending_out: String,
    pending_err: String,
}

fn js_error(message: impl Into<String>) -> JsValue {
    js_sys::Error::new(&message.into()).into()
}

#[wasm_bindgen(js_class = Player)]
impl WebPlayer {
    /// A player drawing on `canvas` (a WebGL2 context without
    /// antialiasing, so that the frame can be copied onto it 1:1), at the
    /// canvas's size.
    #[wasm_bindgen(constructor)]
    pub fn new(canvas: HtmlCanvasElement) -> Result<WebPlayer, JsValue> {
        let options = js_sys::Object::new();
        for (key, value) in [
            ("antialias", false),
            ("depth", false),
            ("stencil", false),
            ("alpha", false),
            ("preserveDrawingBuffer", true),
        ] {
            js_sys::Reflect::set(&options, &key.into(), &value.into())?;
        }
        let context = canvas
            .get_context_with_context_options("webgl2", &options)?
            .ok_or_else(|| js_error("this browser gives no WebGL2 context"))?
            .dyn_into::<WebGl2RenderingContext>()
            .map_err(|_| js_error("the canvas's webgl2 context is not a WebGl2RenderingContext"))?;
        let make = move || glow::Context::from_webgl2_context(context.clone());
        Ok(WebPlayer {
            core: Core::new(Box::new(make), canvas.width(), canvas.height()),
            callback: None,
            pending_out: String::new(),
            pending_err: String::new(),
        })
    }

    fn deliver(&mut self) {
        let out = self.core.take_output();
        let err = self.core.take_errors();
        if let Some(f) = &self.callback {
            for (text, is_error) in [(out, false), (err, true)] {
                for line in text.lines() {
                    let _ = f.call2(&JsValue::NULL, &JsValue::from_str(line), &JsValue::from_bool(is_error));
                }
            }
        } else {
            self.pending_out.push_str(&out);
            self.pending_err.push_str(&err);
        }
    }

    /// Loads a bundle or a source (`name` says which, by its extension, and
    /// names it in messages) and draws frame 0; returns the error message
    /// (`animvm`'s text for the same file) or `undefined`. The player keeps
    /// what it had on an error.
    pub fn load(&mut self, bytes: Vec<u8>, name: Option<String>) -> Option<String> {
        let name = name.unwrap_or_else(|| "bundle.animb".into());
        let r = self.core.load(&name, bytes).err();
        self.deliver();
        r
    }

    /// `sprite`, `slap`, `animator` or `""`.
    pub fn language(&self) -> String {
        self.core.language().into()
    }

    /// Draws frame `n` (`animvm -H`'s frame `n`); an error message or
    /// `undefined`.
    #[wasm_bindgen(js_name = renderFrame)]
    pub fn render_frame(&mut self, n: f64) -> Option<String> {
        let r = self.core.render_frame(frame_number(n)).err();
        self.deliver();
        r
    }

    /// Plays from where it is; the page calls `advance(ms)` each animation
    /// frame.
    pub fn play(&mut self) {
        self.core.play();
    }

    /// Stops where it is.
    pub fn pause(&mut self) {
        self.core.pause();
    }

    /// True while playing.
    #[wasm_bindgen(js_name = isPlaying)]
    pub fn is_playing(&self) -> bool {
        self.core.is_playing()
    }

    /// `ms` milliseconds of page time have passed (playback).
    pub fn advance(&mut self, ms: f64) -> Option<String> {
        let r = self.core.advance(ms).err();
        self.deliver();
        r
    }

    /// Shows frame `n`, playing on from there if it was playing.
    pub fn seek(&mut self, n: f64) -> Option<String> {
        let r = self.core.seek(frame_number(n)).err();
        self.deliver();
        r
    }

    /// Playback speed, 0 to 64 (1: 50 sprite ticks, 30 SLAP frames a second).
    #[wasm_bindgen(js_name = setSpeed)]
    pub fn set_speed(&mut self, speed: f64) {
        self.core.set_speed(speed);
    }

    /// The frame shown.
    pub fn frame(&self) -> f64 {
        self.core.frame() as f64
    }

    /// The sprite's state (`undefined` for other languages).
    pub fn state(&mut self) -> Option<String> {
        self.core.state()
    }

    /// The sprite module's states.
    pub fn states(&self) -> Vec<String> {
        self.core.states()
    }

    /// Switches the sprite to the state named `name`; an error message or
    /// `undefined`.
    #[wasm_bindgen(js_name = setState)]
    pub fn set_state(&mut self, name: &str) -> Option<String> {
        self.core.set_state(name).err()
    }

    /// The sheet of sprite `category`: PNG bytes (fetched from `url`) cut
    /// into `cols` x `rows` cells.
    #[wasm_bindgen(js_name = setSheet)]
    pub fn set_sheet(&mut self, category: &str, url: &str, png: Vec<u8>, cols: u32, rows: u32) -> Option<String> {
        self.core.set_sheet(category, url, png, cols, rows).err()
    }

    /// `animvm --trace ARGS FILE`'s standard output for the loaded file.
    pub fn trace(&mut self, args: Option<String>) -> Result<String, JsValue> {
        let r = self.core.trace(args.as_deref().unwrap_or("")).map_err(js_error);
        self.deliver();
        r
    }

    /// Animator stream text, as on `animvm`'s standard input.
    pub fn feed(&mut self, text: &str) -> Option<String> {
        let r = self.core.feed(text).err();
        self.deliver();
        r
    }

    /// The pointer moved to canvas pixel `(x, y)`.
    #[wasm_bindgen(js_name = pointerMove)]
    pub fn pointer_move(&mut self, x: f64, y: f64) {
        self.core.pointer_move(x, y);
        self.deliver();
    }

    /// Button `button` (SDL numbering: 1 left, 2 middle, 3 right) went
    /// down at `(x, y)`.
    #[wasm_bindgen(js_name = pointerDown)]
    pub fn pointer_down(&mut self, x: f64, y: f64, button: u32) {
        self.core.pointer_button(x, y, button, true);
        self.deliver();
    }

    /// Button `button` went up at `(x, y)`.
    #[wasm_bindgen(js_name = pointerUp)]
    pub fn pointer_up(&mut self, x: f64, y: f64, button: u32) {
        self.core.pointer_button(x, y, button, false);
        self.deliver();
    }

    /// A DOM `keydown` (`KeyboardEvent.code`, `.key`, `.repeat`).
    #[wasm_bindgen(js_name = keyDown)]
    pub fn key_down(&mut self, code: &str, key: &str, repeat: bool) {
        self.core.key(code, key, true, repeat);
        self.deliver();
    }

    /// A DOM `keyup`.
    #[wasm_bindgen(js_name = keyUp)]
    pub fn key_up(&mut self, code: &str, key: &str) {
        self.core.key(code, key, false, false);
        self.deliver();
    }

    /// `f(line, isError)` for every line the program prints (standard
    /// output: `echo`, events; standard error: warnings, runtime errors).
    #[wasm_bindgen(js_name = setEventCallback)]
    pub fn set_event_callback(&mut self, f: Option<js_sys::Function>) {
        self.callback = f;
    }

    /// The current frame, RGBA8, top row first (`width * height * 4`
    /// bytes; empty when nothing is loaded).
    #[wasm_bindgen(js_name = readPixels)]
    pub fn read_pixels(&mut self) -> Vec<u8> {
        self.core.read_pixels()
    }

    /// Standard output's lines printed while no callback was set, since
    /// the last call.
    #[wasm_bindgen(js_name = takeOutput)]
    pub fn take_output(&mut self) -> String {
        std::mem::take(&mut self.pending_out)
    }

    /// Standard error's lines printed while no callback was set.
    #[wasm_bindgen(js_name = takeErrors)]
    pub fn take_errors(&mut self) -> String {
        std::mem::take(&mut self.pending_err)
    }

    /// Frame width in pixels.
    pub fn width(&self) -> u32 {
        self.core.width()
    }

    /// Frame height in pixels.
    pub fn height(&self) -> u32 {
        self.core.height()
    }
}

/// A frame number from JavaScript: negative and NaN are 0, fractions are
/// cut.
fn frame_number(n: f64) -> u64 {
    if n.is_nan() || n <= 0.0 { 0 } else { n.min(u64::MAX as f64) as u64 }
}
