//! Random sprite programs and random game-side operations, shared by the
//! properties of speeds, phases and catch-up (`sprite_clock.rs`),
//! snapshots (`sprite_snapshot.rs`) and hot reload (`sprite_reload.rs`).

use animkit_vm::engine::sprite::{Speed, SpriteBatch, SpriteInstance};
use proptest::prelude::*;

/// Source text of a random sprite module: 1 to 4 states `S0..`, each of 1
/// to 4 frames (durations 0 to 4, some explicit indices, events `e0..e2`)
/// and an end (`_loop`, `_wait`, `_pingpong` or a transition), some with
/// end events. Filter with [`compiles`]: the checker rejects states that
/// spin within a tick and short ping-pongs.
pub fn arb_source() -> impl Strategy<Value = String> {
    let frame = (0u32..5, prop::option::weighted(0.3, 0u32..6), prop::collection::vec(0usize..3, 0..2));
    let state = (prop::collection::vec(frame, 1..5), 0usize..7, prop::collection::vec(0usize..3, 0..2));
    prop::collection::vec(state, 1..5).prop_map(|states| {
        let n = states.len();
        let mut src = String::new();
        for (i, (frames, end, end_events)) in states.iter().enumerate() {
            src.push_str(&format!("S{i}: "));
            for (d, idx, evs) in frames {
                src.push_str(&d.to_string());
                if let Some(x) = idx {
                    src.push_str(&format!("|{x}"));
                }
                for e in evs {
                    src.push_str(&format!("|e{e}"));
                }
                src.push_str(", ");
            }
            match end {
                0 | 1 => src.push_str("_loop"),
                2 => src.push_str("_wait"),
                3 => src.push_str("_pingpong"),
                k => src.push_str(&format!("S{}", k % n)),
            }
            for e in end_events {
                src.push_str(&format!("|e{e}"));
            }
            src.push('\n');
        }
        src
    })
}

/// Whether the compiler accepts `src`.
pub fn compiles(src: &str) -> bool {
    animkit_compiler::compile(&[animkit_compiler::Source::new("test.anim", src)], &Default::default()).is_ok()
}

/// What the game does to an instance before a tick.
#[derive(Clone, Copy, Debug)]
pub enum GameOp {
    /// `set_state_at(state, phase)`.
    Set(u16, u32),
    /// `restart_state_at(state, phase)`.
    Restart(u16, u32),
    /// `set_speed(Speed::from_raw(raw))`.
    Speed(u32),
}

/// A speed: mostly simple ratios (0, 1/4, 1/2, 1, 3/2, 2, 3), sometimes
/// any raw value up to 4x.
pub fn arb_speed() -> impl Strategy<Value = u32> {
    prop_oneof![
        6 => prop::sample::select(vec![0u32, 16384, 32768, 65536, 98304, 131072, 196608]),
        2 => 1u32..262_144,
    ]
}

/// `(tick, op)` pairs: state changes with phases up to 30, speed changes.
pub fn arb_ops(ticks: usize) -> impl Strategy<Value = Vec<(usize, GameOp)>> {
    let op = prop_oneof![
        2 => (0u16..4, prop_oneof![2 => Just(0u32), 1 => 0u32..30]).prop_map(|(s, p)| GameOp::Set(s, p)),
        2 => (0u16..4, prop_oneof![2 => Just(0u32), 1 => 0u32..30]).prop_map(|(s, p)| GameOp::Restart(s, p)),
        3 => arb_speed().prop_map(GameOp::Speed),
    ];
    prop::collection::vec((0..ticks, op), 0..6)
}

/// Applies `op` to an instance (state ids past the module's are taken
/// modulo its state count).
pub fn apply(i: &mut SpriteInstance, op: GameOp) {
    let n = i.sprites().state_count() as u16;
    match op {
        GameOp::Set(s, p) => {
            let name = i.sprites().state_name(s % n).to_string();
            i.set_state_at(&name, p).unwrap();
        }
        GameOp::Restart(s, p) => i.restart_state_id_at(s % n, p),
        GameOp::Speed(raw) => i.set_speed(Speed::from_raw(raw)),
    }
}

/// Applies `op` to instance `k` of a batch, as [`apply`] does.
pub fn apply_batch(b: &mut SpriteBatch, k: u32, op: GameOp) {
    let n = b.sprites().state_count() as u16;
    match op {
        GameOp::Set(s, p) => {
            let name = b.sprites().state_name(s % n).to_string();
            b.set_state_at(k, &name, p).unwrap();
        }
        GameOp::Restart(s, p) => {
            let name = b.sprites().state_name(s % n).to_string();
            b.restart_state_at(k, &name, p).unwrap();
        }
        GameOp::Speed(raw) => b.set_speed(k, Speed::from_raw(raw)),
    }
}

/// What one instance showed and fired in one tick: state, frame, events
/// (as ids).
pub type Seen = (u16, u32, Vec<u32>);

/// Ticks an instance once and records what it shows and fired.
pub fn tick_seen(i: &mut SpriteInstance) -> Seen {
    i.tick();
    (i.state(), i.frame(), i.drain_events().collect())
}

/// Ticks a batch once and records, per instance, what it shows and fired.
pub fn tick_batch_seen(b: &mut SpriteBatch) -> Vec<Seen> {
    b.tick();
    batch_seen(b)
}

/// What each instance of a batch shows now, with the events drained.
pub fn batch_seen(b: &mut SpriteBatch) -> Vec<Seen> {
    let mut seen: Vec<Seen> = (0..b.len() as u32).map(|k| (b.state(k), b.frame(k), Vec::new())).collect();
    for e in b.drain_events() {
        seen[e.instance as usize].2.push(e.event);
    }
    seen
}
