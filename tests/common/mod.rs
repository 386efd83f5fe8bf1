//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod equivalence;
pub mod slap_scenes;
pub mod sprite_programs;

use animkit_compiler::{Options, Source, compile};
use animkit_vm::engine::sprite::{SpriteInstance, Sprites};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The repository root. The tests name their inputs from there
/// (`examples/hero.anim`, `tests/golden/...`, `fuzz/corpus/...`), while
/// cargo runs this package's tests in `tests/`, its own root.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ is in the repository")
}

/// `rel`, a path from the repository root, made to resolve wherever the
/// tests run.
pub fn path(rel: impl AsRef<Path>) -> PathBuf {
    root().join(rel)
}

/// Compiles sprite source text, round-trips it through bundle bytes and
/// returns its module.
pub fn sprites(src: &str) -> Sprites {
    let program = compile(&[Source::new("test.anim", src)], &Options::default())
        .unwrap_or_else(|e| panic!("compile failed:\n{e}"));
    let bytes = animkit_vm::engine::codec::encode(&program);
    let program = animkit_vm::engine::codec::load(&bytes).expect("bundle loads");
    Sprites::new(Arc::new(program), "test").expect("module")
}

/// One tick of a trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tick {
    pub state: String,
    pub category: String,
    pub frame: u32,
    pub events: Vec<String>,
}

/// Ticks `inst` `n` times and records each tick.
pub fn run(inst: &mut SpriteInstance, n: usize) -> Vec<Tick> {
    (0..n)
        .map(|_| {
            inst.tick();
            let s = inst.sprites().clone();
            let events = inst.drain_events().map(|e| s.event_name(e).to_string()).collect();
            Tick { state: inst.state_name().into(), category: inst.category().into(), frame: inst.frame(), events }
        })
        .collect()
}

/// Expands `"0x5 1x5 2"` into `[0,0,0,0,0,1,1,1,1,1,2]`.
pub fn frames(spec: &str) -> Vec<u32> {
    spec.split_whitespace()
        .flat_map(|part| {
            let (v, n) = part.split_once('x').unwrap_or((part, "1"));
            std::iter::repeat_n(v.parse::<u32>().unwrap(), n.parse().unwrap())
        })
        .collect()
}

/// Compiles sprite source text into a loaded (verified) program.
pub fn program(src: &str) -> animkit_vm::engine::verify::Verified<animkit_vm::engine::program::Program> {
    let program = compile(&[Source::new("test.anim", src)], &Options::default())
        .unwrap_or_else(|e| panic!("compile failed:\n{e}"));
    animkit_vm::engine::codec::load(&animkit_vm::engine::codec::encode(&program)).expect("bundle loads")
}
