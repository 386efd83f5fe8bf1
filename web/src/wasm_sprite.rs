//! The sprite-only player's JavaScript face: `Player` without a canvas
//! ([`SpriteWebPlayer`] in Rust, so that the name `Player` is the player
//! crate's).
//! The page ticks it and draws the sheet cell it names itself.

use crate::sprite_only::SpritePlayer;
use wasm_bindgen::prelude::*;

/// The sprite-only web player (see `docs/web.md`).
#[wasm_bindgen(js_name = Player)]
pub struct SpriteWebPlayer {
    sprite: Option<SpritePlayer>,
}

#[wasm_bindgen(js_class = Player)]
impl SpriteWebPlayer {
    /// An empty player.
    #[wasm_bindgen(constructor)]
    pub fn new() -> SpriteWebPlayer {
        SpriteWebPlayer { sprite: None }
    }

    /// Loads a bundle's sprite module; the error message or `undefined`
    /// (the player keeps what it had).
    pub fn load(&mut self, bytes: Vec<u8>) -> Option<String> {
        match SpritePlayer::load(&bytes) {
            Ok(p) => {
                self.sprite = Some(p);
                None
            }
            Err(e) => Some(e),
        }
    }

    /// `n` ticks.
    pub fn tick(&mut self, n: u32) {
        if let Some(p) = self.sprite.as_mut() {
            for _ in 0..n {
                p.tick();
            }
        }
    }

    /// `n` ticks without keeping their events (benchmarks); the number
    /// of events fired.
    #[wasm_bindgen(js_name = runTicks)]
    pub fn run_ticks(&mut self, n: f64) -> f64 {
        let n = if n.is_finite() && n > 0.0 { n.min(1e12) as u64 } else { 0 };
        self.sprite.as_mut().map_or(0.0, |p| p.run_ticks(n) as f64)
    }

    /// The state now.
    pub fn state(&self) -> Option<String> {
        self.sprite.as_ref().map(|p| p.state().to_string())
    }

    /// The category (sheet) now.
    pub fn category(&self) -> Option<String> {
        self.sprite.as_ref().map(|p| p.category().to_string())
    }

    /// The frame (sheet cell) now.
    pub fn frame(&self) -> u32 {
        self.sprite.as_ref().map_or(0, SpritePlayer::frame)
    }

    /// The events of the last tick.
    pub fn events(&self) -> Vec<String> {
        self.sprite.as_ref().map(|p| p.events().to_vec()).unwrap_or_default()
    }

    /// Switches to `state`; an error message or `undefined`.
    #[wasm_bindgen(js_name = setState)]
    pub fn set_state(&mut self, state: &str) -> Option<String> {
        match self.sprite.as_mut() {
            Some(p) => p.set_state(state).err(),
            None => Some("nothing is loaded".into()),
        }
    }

    /// `animvm --trace --ticks TICKS [--state STATE]`'s text.
    pub fn trace(&self, ticks: u32, state: Option<String>) -> Result<String, JsValue> {
        let p = self.sprite.as_ref().ok_or_else(|| JsValue::from_str("nothing is loaded"))?;
        p.trace(u64::from(ticks), state.as_deref()).map_err(|e| JsValue::from_str(&e))
    }
}

impl Default for SpriteWebPlayer {
    fn default() -> SpriteWebPlayer {
        SpriteWebPlayer::new()
    }
}
