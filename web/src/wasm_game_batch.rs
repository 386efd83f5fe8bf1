//! The game-facing batch's JavaScript face: `SpriteBatch` (see
//! `docs/web.md`, "Games: the package and `SpriteBatch`"), over
//! [`GameBatch`]. In the full build only (it would grow the sprite-only
//! build's wasm by a quarter).
//!
//! Columns (`frames()`, `states()`, `eventData()`) are typed arrays that
//! view wasm memory without copying: valid until the next call into the
//! package (any call may grow the memory, which detaches them).

use crate::game_batch::GameBatch;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const BATCH_EVENT: &'static str = r#"
/** An event fired by one animation of a `SpriteBatch` (see `SpriteBatch.events`). */
export interface BatchEvent {
  /** The tick that fired it, counted from the batch's first tick (0). */
  tick: number;
  /** The animation's index in the batch. */
  instance: number;
  /** The event's id (`SpriteBatch.eventName(id)` is its name). */
  event: number;
  /** The event's name, as the source writes it after `|`. */
  name: string;
}
"#;

/// Many animations of one sprite module of a bundle, ticked by the game.
#[wasm_bindgen]
pub struct SpriteBatch {
    batch: GameBatch,
}

#[wasm_bindgen]
impl SpriteBatch {
    /// An empty batch of the sprite module `module` (its name) of the
    /// bundle `bytes` (an `.animb`), or of the bundle's first sprite
    /// module; throws an `Error` saying why the bundle or name is refused.
    #[wasm_bindgen(constructor)]
    pub fn new(bytes: &[u8], module: Option<String>) -> Result<SpriteBatch, JsError> {
        let batch = GameBatch::load(bytes, module.as_deref()).map_err(|e| JsError::new(&e))?;
        Ok(SpriteBatch { batch })
    }

    /// The sprite module's name.
    #[wasm_bindgen(getter, js_name = moduleName)]
    pub fn module_name(&self) -> String {
        self.batch.module_name().to_string()
    }

    /// The module's state names, in index order (a state's index is its
    /// place here).
    #[wasm_bindgen(js_name = stateNames)]
    pub fn state_names(&self) -> Vec<String> {
        (0..self.batch.state_count() as u32)
            .filter_map(|i| self.batch.state_info(i).ok().map(|(name, _)| name.to_string()))
            .collect()
    }

    /// The index of the state `name`; throws for a name the module has
    /// not (the message names the nearest).
    #[wasm_bindgen(js_name = stateIndex)]
    pub fn state_index(&self, name: &str) -> Result<u16, JsError> {
        self.batch.state_index(name).map_err(|e| JsError::new(&e))
    }

    /// The category (sheet) of state `index`, which draws its frames.
    pub fn category(&self, index: u32) -> Result<String, JsError> {
        self.batch.state_info(index).map(|(_, c)| c.to_string()).map_err(|e| JsError::new(&e))
    }

    /// The name of event `id`; `""` for an id the module has not.
    #[wasm_bindgen(js_name = eventName)]
    pub fn event_name(&self, id: u32) -> String {
        self.batch.event_name(id).to_string()
    }

    fn state(&self, state: &JsValue) -> Result<u32, JsError> {
        if let Some(name) = state.as_string() {
            return self.batch.state_index(&name).map(u32::from).map_err(|e| JsError::new(&e));
        }
        match state.as_f64() {
            Some(i) if i.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&i) => Ok(i as u32),
            _ => Err(JsError::new("a state is a name (string) or an index (a whole number from 0)")),
        }
    }

    /// Adds an animation in `state` (its name or index), entered `phase`
    /// ticks in (default 0; the ticks skipped fire no events); returns its
    /// index in the batch.
    pub fn spawn(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string | number")] state: JsValue,
        phase: Option<u32>,
    ) -> Result<u32, JsError> {
        let index = self.state(&state)?;
        self.batch.spawn(index, phase.unwrap_or(0)).map_err(|e| JsError::new(&e))
    }

    /// Number of animations.
    #[wasm_bindgen(getter)]
    pub fn length(&self) -> u32 {
        self.batch.len() as u32
    }

    /// Ticks run since the batch was made.
    #[wasm_bindgen(getter)]
    pub fn ticks(&self) -> f64 {
        self.batch.ticks() as f64
    }

    /// `n` fixed ticks (default 1) of every animation, one after another:
    /// the events of all of them are kept, each with its tick, until the
    /// next `tick` (`events()`, `eventData()`).
    pub fn tick(&mut self, n: Option<u32>) {
        self.batch.tick(n.unwrap_or(1));
    }

    /// Every animation's frame (its sprite's cell in its state's sheet),
    /// in index order: a view of wasm memory, valid until the next call.
    pub fn frames(&self) -> js_sys::Uint32Array {
        // SAFETY: the view is handed to JS at once; nothing here allocates
        // before it is returned (the docs say the next call invalidates it).
        unsafe { js_sys::Uint32Array::view(self.batch.frames()) }
    }

    /// Every animation's state index, in index order: a view of wasm
    /// memory, valid until the next call.
    pub fn states(&mut self) -> js_sys::Uint16Array {
        let states = self.batch.states();
        // SAFETY: as in `frames`.
        unsafe { js_sys::Uint16Array::view(states) }
    }

    /// The last `tick` call's events, in the order they fired (by tick,
    /// then by animation), as objects.
    #[wasm_bindgen(unchecked_return_type = "BatchEvent[]")]
    pub fn events(&self) -> js_sys::Array {
        let out = js_sys::Array::new();
        for e in self.batch.events().chunks_exact(3) {
            let o = js_sys::Object::new();
            let name = JsValue::from_str(self.batch.event_name(e[2]));
            for (key, value) in
                [("tick", e[0].into()), ("instance", e[1].into()), ("event", e[2].into()), ("name", name)]
            {
                // Setting a plain object's own property does not throw.
                let _ = js_sys::Reflect::set(&o, &key.into(), &value);
            }
            out.push(&o);
        }
        out
    }

    /// `events()` without objects: (tick, instance, event id) triples, a
    /// view of wasm memory valid until the next call.
    #[wasm_bindgen(js_name = eventData)]
    pub fn event_data(&self) -> js_sys::Uint32Array {
        // SAFETY: as in `frames`.
        unsafe { js_sys::Uint32Array::view(self.batch.events()) }
    }

    /// Events fired and not kept (more than 2^20 in one `tick` call).
    #[wasm_bindgen(js_name = droppedEvents)]
    pub fn dropped_events(&self) -> f64 {
        self.batch.dropped_events() as f64
    }

    /// Switches animation `i` to `state` (name or index) at the next tick;
    /// nothing when it is in that state already.
    #[wasm_bindgen(js_name = setState)]
    pub fn set_state(
        &mut self,
        i: u32,
        #[wasm_bindgen(unchecked_param_type = "string | number")] state: JsValue,
    ) -> Result<(), JsError> {
        let index = self.state(&state)?;
        self.batch.set_state(i, index, false).map_err(|e| JsError::new(&e))
    }

    /// Starts animation `i` over in `state` (name or index) at the next
    /// tick, even when it is in that state already.
    pub fn restart(
        &mut self,
        i: u32,
        #[wasm_bindgen(unchecked_param_type = "string | number")] state: JsValue,
    ) -> Result<(), JsError> {
        let index = self.state(&state)?;
        self.batch.set_state(i, index, true).map_err(|e| JsError::new(&e))
    }

    /// Removes animation `i`: the last animation takes index `i`.
    pub fn remove(&mut self, i: u32) -> Result<(), JsError> {
        self.batch.remove(i).map_err(|e| JsError::new(&e))
    }
}
