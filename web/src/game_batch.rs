//! The game-facing batch's Rust half (its JavaScript face is
//! `SpriteBatch`, in `wasm_game_batch.rs`): many animations of one sprite
//! module over the vm crate's [`AnimationBatch`], as a game drives them
//! natively, with columns a page reads as typed arrays over wasm memory
//! and every event of a multi-tick step kept with the tick that fired it.
//! It needs `animkit-vm` alone; the JavaScript class is in the full build.

use animkit_vm::game::{AnimationBatch, Bundle, InstanceEvent, ModuleKind, SpriteModule, State};

/// The most events one [`GameBatch::tick`] call keeps (3 words each: 12
/// MiB); those past it are counted in [`GameBatch::dropped_events`], so a
/// page that steps far at once cannot run the tab out of memory.
pub const MAX_KEPT_EVENTS: usize = 1 << 20;

/// Many animations of one sprite module, ticked by the page.
pub struct GameBatch {
    module: SpriteModule,
    batch: AnimationBatch,
    /// Ticks run since the batch was made.
    ticks: u64,
    /// The last `tick` call's events: (tick, instance, event id) triples.
    events: Vec<u32>,
    /// Events fired but not kept (see [`MAX_KEPT_EVENTS`]).
    dropped: u64,
    /// Each animation's state index, filled by [`GameBatch::states`].
    states: Vec<u16>,
}

impl GameBatch {
    /// An empty batch of the sprite module `module` of a bundle (`None`:
    /// its first sprite module); the error in `Bundle`'s words.
    pub fn load(bytes: &[u8], module: Option<&str>) -> Result<GameBatch, String> {
        let bundle = Bundle::from_bytes(bytes).map_err(|e| format!("the bundle: {e}"))?;
        let name = match module {
            Some(name) => name.to_string(),
            None => (0..bundle.module_count())
                .filter_map(|i| bundle.module(i))
                .find(|(_, kind)| *kind == ModuleKind::Sprite)
                .map(|(name, _)| name.to_string())
                .ok_or("the bundle has no sprite module")?,
        };
        let module = bundle.sprite(&name).map_err(|e| e.to_string())?;
        let batch = module.batch();
        Ok(GameBatch { module, batch, ticks: 0, events: Vec::new(), dropped: 0, states: Vec::new() })
    }

    /// The module's name.
    pub fn module_name(&self) -> &str {
        self.module.name()
    }

    /// The module's states, in index order.
    pub fn state_count(&self) -> usize {
        self.module.state_count()
    }

    /// State `index`'s name and category (sheet); an error past the end.
    pub fn state_info(&self, index: u32) -> Result<(&str, &str), String> {
        let state = self.state_at(index)?;
        Ok((self.module.state_name(state), self.module.category(state)))
    }

    /// The index of the state `name`; the error names the nearest.
    pub fn state_index(&self, name: &str) -> Result<u16, String> {
        self.module.state(name).map(State::index).map_err(|e| e.to_string())
    }

    fn state_at(&self, index: u32) -> Result<State, String> {
        self.module.state_at(index as usize).ok_or_else(|| {
            format!("no state {index} in module `{}` (it has {})", self.module.name(), self.module.state_count())
        })
    }

    fn instance(&self, i: u32) -> Result<(), String> {
        if (i as usize) < self.batch.len() {
            Ok(())
        } else {
            Err(format!("no animation {i} in the batch (it has {})", self.batch.len()))
        }
    }

    /// The name of event `id` (an id of [`GameBatch::events`]); `""` for
    /// an id the module has not.
    pub fn event_name(&self, id: u32) -> &str {
        self.module.event_by_id(id).map_or("", |e| self.module.event_name(e))
    }

    /// Adds an animation in state `index`, `phase` ticks in; its index.
    pub fn spawn(&mut self, index: u32, phase: u32) -> Result<u32, String> {
        let state = self.state_at(index)?;
        if self.batch.len() >= u32::MAX as usize {
            return Err("the batch is full (2^32 - 1 animations)".into());
        }
        Ok(self.batch.spawn_at(state, phase))
    }

    /// Number of animations.
    pub fn len(&self) -> usize {
        self.batch.len()
    }

    /// Whether it has no animations.
    pub fn is_empty(&self) -> bool {
        self.batch.is_empty()
    }

    /// Ticks run since the batch was made.
    pub fn ticks(&self) -> u64 {
        self.ticks
    }

    /// `n` ticks, one after another; the events of all of them (and only
    /// of them) are kept for [`GameBatch::events`], each with its tick.
    pub fn tick(&mut self, n: u32) {
        self.events.clear();
        let mut chunk = [InstanceEvent::default(); 256];
        for _ in 0..n {
            self.batch.tick();
            let tick = self.ticks as u32;
            self.ticks += 1;
            loop {
                let got = self.batch.drain_events(&mut chunk);
                for e in &chunk[..got] {
                    if self.events.len() < 3 * MAX_KEPT_EVENTS {
                        self.events.extend_from_slice(&[tick, e.instance, e.event.id()]);
                    } else {
                        self.dropped += 1;
                    }
                }
                if got < chunk.len() {
                    break;
                }
            }
        }
    }

    /// The last [`GameBatch::tick`] call's events, in the order they
    /// fired (by tick, then by animation): (tick, animation, event id)
    /// triples, the tick counted from the batch's first (its low 32 bits).
    pub fn events(&self) -> &[u32] {
        &self.events
    }

    /// Events fired and not kept: past [`MAX_KEPT_EVENTS`] in one `tick`
    /// call, or past the vm's pending limit within one tick.
    pub fn dropped_events(&self) -> u64 {
        self.dropped + self.batch.dropped_events()
    }

    /// Every animation's sprite index (sheet cell), in index order.
    pub fn frames(&self) -> &[u32] {
        self.batch.frames()
    }

    /// Every animation's state index, in index order.
    pub fn states(&mut self) -> &[u16] {
        self.states.clear();
        let batch = &self.batch;
        self.states.extend((0..batch.len() as u32).map(|i| batch.state(i).map_or(0, State::index)));
        &self.states
    }

    /// Switches animation `i` to state `index` at the next tick (nothing
    /// when it is in it already); `restart`: starts it over even then.
    pub fn set_state(&mut self, i: u32, index: u32, restart: bool) -> Result<(), String> {
        let state = self.state_at(index)?;
        self.instance(i)?;
        if restart {
            self.batch.restart(i, state);
        } else {
            self.batch.set_state(i, state);
        }
        Ok(())
    }

    /// Removes animation `i`; the last one takes its index.
    pub fn remove(&mut self, i: u32) -> Result<(), String> {
        self.instance(i)?;
        self.batch.remove(i);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sprite_only::SpritePlayer;

    fn hero() -> Vec<u8> {
        let source = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/hero.anim")).unwrap();
        let program =
            animkit_compiler::compile(&[animkit_compiler::Source::new("hero.anim", source)], &Default::default())
                .unwrap();
        animkit_vm::engine::codec::encode(&program)
    }

    /// The batch's lines for every state, as `animvm --trace` writes them.
    fn batch_trace(b: &mut GameBatch, ticks: u32, step: u32) -> Vec<String> {
        let n = b.state_count();
        for s in 0..n as u32 {
            assert_eq!(b.spawn(s, 0), Ok(s));
        }
        let mut out = vec![String::new(); n];
        let mut t = 0;
        while t < ticks {
            let k = step.min(ticks - t);
            b.tick(k);
            let mut fired: Vec<Vec<String>> = vec![Vec::new(); n];
            for e in b.events().chunks(3) {
                assert!(e[0] >= t && e[0] < t + k, "event of tick {} in a step of ticks {t}..{}", e[0], t + k);
                if e[0] == t + k - 1 {
                    fired[e[1] as usize].push(format!("\"{}\"", b.event_name(e[2])));
                }
            }
            let states = b.states().to_vec();
            for i in 0..n {
                let (state, category) = b.state_info(u32::from(states[i])).unwrap();
                out[i].push_str(&format!(
                    "{{\"tick\":{},\"state\":\"{state}\",\"category\":\"{category}\",\"frame\":{},\"events\":[{}]}}\n",
                    t + k - 1,
                    b.frames()[i],
                    fired[i].join(",")
                ));
            }
            t += k;
        }
        out
    }

    #[test]
    fn every_state_s_lines_are_the_trace_s() {
        let bytes = hero();
        let p = SpritePlayer::load(&bytes).unwrap();
        let mut b = GameBatch::load(&bytes, None).unwrap();
        assert_eq!(b.module_name(), "hero");
        let lines = batch_trace(&mut b, 200, 1);
        for (s, got) in lines.iter().enumerate() {
            let (name, _) = b.state_info(s as u32).unwrap();
            assert_eq!(got, &p.trace(200, Some(name)).unwrap(), "state {name}");
        }
        assert_eq!(b.dropped_events(), 0);
    }

    #[test]
    fn several_ticks_at_once_keep_every_event_with_its_tick() {
        let bytes = hero();
        let mut one = GameBatch::load(&bytes, Some("hero")).unwrap();
        let mut seven = GameBatch::load(&bytes, Some("hero")).unwrap();
        let walk = one.state_index("Walk").unwrap();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for g in [&mut one, &mut seven] {
            g.spawn(u32::from(walk), 0).unwrap();
            g.spawn(u32::from(walk), 3).unwrap();
        }
        for _ in 0..21 {
            one.tick(1);
            a.extend_from_slice(one.events());
        }
        for _ in 0..3 {
            seven.tick(7);
            b.extend_from_slice(seven.events());
        }
        assert_eq!(a, b);
        // Walk fires `step` at ticks 0, 12, ... (and 3 ticks in: 9, 21, ...).
        let step = (0..16).find(|&id| one.event_name(id) == "step").unwrap();
        assert_eq!(&a[..9], &[0, 0, step, 9, 1, step, 12, 0, step]);
        assert_eq!((one.frames(), one.ticks()), (seven.frames(), 21));
    }

    #[test]
    fn bad_input_gets_an_error() {
        let bytes = hero();
        assert!(GameBatch::load(&bytes[..10], None).err().unwrap().starts_with("the bundle: "));
        assert_eq!(
            GameBatch::load(&bytes, Some("hera")).err().unwrap(),
            "no module named `hera` in the bundle; did you mean `hero`?"
        );
        let mut b = GameBatch::load(&bytes, None).unwrap();
        assert_eq!(b.spawn(99, 0).unwrap_err(), "no state 99 in module `hero` (it has 9)");
        assert!(b.state_index("Wlak").unwrap_err().contains("Walk"), "{:?}", b.state_index("Wlak"));
        assert_eq!(b.set_state(0, 1, false).unwrap_err(), "no animation 0 in the batch (it has 0)");
        assert_eq!(b.remove(3).unwrap_err(), "no animation 3 in the batch (it has 0)");
        assert_eq!(b.event_name(12345), "");
    }

    #[test]
    fn state_switches_take_effect_at_the_next_tick() {
        let bytes = hero();
        let mut b = GameBatch::load(&bytes, None).unwrap();
        let (walk, run) = (b.state_index("Walk").unwrap(), b.state_index("Run").unwrap());
        b.spawn(u32::from(walk), 0).unwrap();
        b.tick(7);
        assert_eq!(b.frames(), &[1]);
        b.set_state(0, u32::from(run), false).unwrap();
        b.tick(1);
        assert_eq!(b.states(), &[run]);
        assert_eq!(b.frames(), &[0]);
        b.tick(2);
        b.set_state(0, u32::from(run), false).unwrap();
        b.tick(2);
        assert_eq!(b.frames(), &[1], "no restart when already in the state");
        b.set_state(0, u32::from(run), true).unwrap();
        b.tick(1);
        assert_eq!(b.frames(), &[0]);
        b.spawn(u32::from(walk), 0).unwrap();
        b.remove(0).unwrap();
        assert_eq!((b.len(), b.states()), (1, &[walk][..]));
    }
}
