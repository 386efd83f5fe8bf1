//! The sprite-only player's Rust half: a sprite module's state machine,
//! ticked by the page, with `animvm --trace`'s lines (the format of
//! `runtime/src/sprite/trace.rs`, written here again so that this build
//! links `animkit-vm` alone; the browser test compares both players'
//! traces with `animvm --trace`).

use animkit_vm::engine::sprite::{SpriteInstance, Sprites};
use animkit_vm::engine::verify::Verified;
use std::sync::Arc;

/// A sprite instance of a loaded bundle.
pub struct SpritePlayer {
    sprites: Sprites,
    instance: SpriteInstance,
    ticks: u64,
    events: Vec<String>,
}

impl SpritePlayer {
    /// Loads a bundle's sprite module (the first one) in its first state.
    pub fn load(bytes: &[u8]) -> Result<SpritePlayer, String> {
        let program = animkit_vm::engine::codec::load(bytes).map_err(|e| format!("error: the bundle: {e}\n"))?;
        Self::from_program(program)
    }

    fn from_program(program: Verified<animkit_vm::Program>) -> Result<SpritePlayer, String> {
        // The VM's sprite API picks the module (the first sprite one).
        let sprites = Sprites::first(Arc::new(program)).ok_or("error: the bundle has no sprite module\n")?;
        let instance = sprites.instance(sprites.state_name(0)).map_err(|e| e.to_string())?;
        Ok(SpritePlayer { sprites, instance, ticks: 0, events: Vec::new() })
    }

    /// One tick; the events it fired are kept for [`events`](Self::events).
    pub fn tick(&mut self) {
        self.instance.tick();
        let s = self.sprites.clone();
        self.events = self.instance.drain_events().map(|e| s.event_name(e).to_string()).collect();
        self.ticks += 1;
    }

    /// `n` ticks without keeping their events (a benchmark's loop):
    /// returns how many events fired.
    pub fn run_ticks(&mut self, n: u64) -> u64 {
        let mut events = 0;
        for _ in 0..n {
            self.instance.tick();
            events += self.instance.drain_events().count() as u64;
        }
        self.ticks += n;
        events
    }

    /// Ticks so far.
    pub fn ticks(&self) -> u64 {
        self.ticks
    }

    /// The events of the last tick.
    pub fn events(&self) -> &[String] {
        &self.events
    }

    /// State, category and frame now.
    pub fn state(&self) -> &str {
        self.instance.state_name()
    }

    /// See [`state`](Self::state).
    pub fn category(&self) -> &str {
        self.instance.category()
    }

    /// See [`state`](Self::state).
    pub fn frame(&self) -> u32 {
        self.instance.frame()
    }

    /// Switches to `state` now (its tick count goes on).
    pub fn set_state(&mut self, state: &str) -> Result<(), String> {
        self.instance.restart_state(state).map_err(|e| e.to_string())
    }

    /// `animvm --trace --ticks TICKS [--state STATE]`'s text for this module.
    pub fn trace(&self, ticks: u64, state: Option<&str>) -> Result<String, String> {
        let state = state.unwrap_or_else(|| self.sprites.state_name(0));
        let mut inst = self.sprites.instance(state).map_err(|e| {
            let names: Vec<&str> = (0..self.sprites.state_count()).map(|i| self.sprites.state_name(i as u16)).collect();
            format!("{e}; the states are: {}", names.join(", "))
        })?;
        let json = |s: &str| serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into());
        let mut out = String::new();
        for t in 0..ticks.min(1 << 24) {
            inst.tick();
            let sprites = inst.sprites().clone();
            let events: Vec<String> = inst.drain_events().map(|e| json(sprites.event_name(e))).collect();
            out.push_str(&format!(
                "{{\"tick\":{t},\"state\":{},\"category\":{},\"frame\":{},\"events\":[{}]}}\n",
                json(inst.state_name()),
                json(inst.category()),
                inst.frame(),
                events.join(",")
            ));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trace_lines_are_animvm_s() {
        let program = animkit_compiler::compile(
            &[animkit_compiler::Source::new("h.anim", "Walk: 2|step, 1, _loop\n")],
            &Default::default(),
        )
        .unwrap();
        let bytes = animkit_vm::engine::codec::encode(&program);
        let p = SpritePlayer::load(&bytes).unwrap();
        assert_eq!(
            p.trace(3, None).unwrap(),
            "{\"tick\":0,\"state\":\"Walk\",\"category\":\"Walk\",\"frame\":0,\"events\":[\"step\"]}\n\
             {\"tick\":1,\"state\":\"Walk\",\"category\":\"Walk\",\"frame\":0,\"events\":[]}\n\
             {\"tick\":2,\"state\":\"Walk\",\"category\":\"Walk\",\"frame\":1,\"events\":[]}\n"
        );
        assert_eq!(SpritePlayer::load(&bytes[..10]).err().unwrap().lines().count(), 1);
    }
}
