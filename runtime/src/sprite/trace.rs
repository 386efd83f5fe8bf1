//! `animvm --trace`: one JSON object per line and tick for a sprite
//! instance:
//!
//! ```text
//! {"tick":0,"state":"Walk","category":"Walk","frame":0,"events":["stepSound"]}
//! ```

use animkit_vm::engine::sprite::SpriteInstance;
use std::io::{self, Write};

/// Writes the trace line of tick `tick` for `inst` (after its `tick()`),
/// draining its events.
///
/// ```
/// # let s = animkit_vm::engine::sprite::Sprites::first(animkit_vm::engine::sprite::doc_program()).unwrap();
/// let mut i = s.instance("Walk").unwrap();
/// i.tick();
/// let mut out = Vec::new();
/// animkit_runtime::sprite::trace::write_line(&mut out, 0, &mut i).unwrap();
/// assert_eq!(String::from_utf8(out).unwrap(),
///     "{\"tick\":0,\"state\":\"Walk\",\"category\":\"Walk\",\"frame\":0,\"events\":[\"step\"]}\n");
/// ```
pub fn write_line(out: &mut dyn Write, tick: u64, inst: &mut SpriteInstance) -> io::Result<()> {
    let sprites = inst.sprites().clone();
    let events: Vec<&str> = inst.drain_events().map(|e| sprites.event_name(e)).collect();
    let json = |s: &str| serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into());
    let events: Vec<String> = events.iter().map(|e| json(e)).collect();
    writeln!(
        out,
        "{{\"tick\":{tick},\"state\":{},\"category\":{},\"frame\":{},\"events\":[{}]}}",
        json(inst.state_name()),
        json(inst.category()),
        inst.frame(),
        events.join(",")
    )
}
