//! The game-facing SLAP scene's JavaScript face: `SlapScene` (see
//! `docs/web.md`, "Games: `SlapScene`"), over [`GameScene`]. In the full
//! build only, beside `SpriteBatch`.
//!
//! `actors()` is a `Float64Array` that views wasm memory without copying:
//! valid until the next call into the package (any call may grow the
//! memory, which detaches it).

use crate::game_scene::{ACTOR_STRIDE, GameScene, POSE_FIELDS};
use wasm_bindgen::prelude::*;

/// A SLAP scene of a bundle, stepped one frame per fixed update by the
/// game, which draws the actors itself from their positions and poses.
#[wasm_bindgen]
pub struct SlapScene {
    scene: GameScene,
}

/// A frame number from JavaScript: a whole number from 0 to 2^53.
fn frames(n: f64) -> Result<u64, JsError> {
    if n.fract() == 0.0 && (0.0..=9_007_199_254_740_992.0).contains(&n) {
        Ok(n as u64)
    } else {
        Err(JsError::new("a frame count is a whole number from 0"))
    }
}

#[wasm_bindgen]
impl SlapScene {
    /// The SLAP scene `module` (its name) of the bundle `bytes` (an
    /// `.animb`), or the bundle's first scene, at frame 0; throws an
    /// `Error` saying why the bundle or name is refused.
    #[wasm_bindgen(constructor)]
    pub fn new(bytes: &[u8], module: Option<String>) -> Result<SlapScene, JsError> {
        let scene = GameScene::load(bytes, module.as_deref()).map_err(|e| JsError::new(&e))?;
        Ok(SlapScene { scene })
    }

    /// The scene's module name.
    #[wasm_bindgen(getter, js_name = moduleName)]
    pub fn module_name(&self) -> String {
        self.scene.name().to_string()
    }

    /// Numbers per actor in `actors()` (21).
    #[wasm_bindgen(getter)]
    pub fn stride(&self) -> u32 {
        ACTOR_STRIDE as u32
    }

    /// The pose fields' names, in their order in an actor's row (from
    /// offset 10).
    #[wasm_bindgen(js_name = poseFields)]
    pub fn pose_fields(&self) -> Vec<String> {
        POSE_FIELDS.iter().map(|f| f.to_string()).collect()
    }

    /// One frame on (the commands timed at the new frame run).
    pub fn step(&mut self) {
        self.scene.step();
    }

    /// `frames` frames on at once; throws for a count that is not a whole
    /// number from 0.
    pub fn advance(&mut self, frames_on: f64) -> Result<(), JsError> {
        self.scene.advance(frames(frames_on)?);
        Ok(())
    }

    /// Goes to `frame` (backwards by starting over); throws for a frame
    /// that is not a whole number from 0.
    pub fn seek(&mut self, frame: f64) -> Result<(), JsError> {
        self.scene.seek(frames(frame)?);
        Ok(())
    }

    /// The current frame (0 when made).
    #[wasm_bindgen(getter)]
    pub fn frame(&self) -> f64 {
        self.scene.frame() as f64
    }

    /// The frame of the scene's last time point (where a cutscene ends).
    #[wasm_bindgen(getter)]
    pub fn length(&self) -> f64 {
        self.scene.length() as f64
    }

    /// Whether the frame is at or past `length`.
    #[wasm_bindgen(js_name = isFinished)]
    pub fn is_finished(&self) -> bool {
        self.scene.is_finished()
    }

    /// Commands that failed at run time so far (skipped; the scene went on).
    #[wasm_bindgen(js_name = errorCount)]
    pub fn error_count(&self) -> f64 {
        self.scene.error_count() as f64
    }

    /// The actors on stage, in id order, `stride` (21) numbers each: id,
    /// action (0 to 11), position x y z (y up), heading (radians, 0 faces
    /// -z), colour r g b, size, then the pose (`poseFields()`). A view of
    /// wasm memory, valid until the next call.
    pub fn actors(&mut self) -> js_sys::Float64Array {
        let rows = self.scene.actors();
        // SAFETY: the view is handed to JS at once; nothing here allocates
        // before it is returned (the docs say the next call invalidates it).
        unsafe { js_sys::Float64Array::view(rows) }
    }

    /// The camera: position x y z, then look direction x y z (any
    /// non-zero length; up is +y). A new array.
    pub fn camera(&self) -> js_sys::Float64Array {
        js_sys::Float64Array::from(&self.scene.camera()[..])
    }
}
