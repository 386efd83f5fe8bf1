//! `examples/hero.animb`, the bundle the "Shipping a game" guide
//! (docs/shipping.md, the doctests of `animkit_vm::game::shipping`) plays,
//! is exactly what `animc examples/hero.anim` builds today.

use crate::common;
use animkit_compiler::{Options, Source, compile};
use animkit_vm::engine::codec;

#[test]
fn the_guides_bundle_is_what_animc_builds() {
    let text = std::fs::read_to_string(common::path("examples/hero.anim")).expect("examples/hero.anim");
    let program = compile(&[Source::new("examples/hero.anim", text)], &Options::default()).expect("hero.anim compiles");
    let built = codec::encode(&program);
    let committed = std::fs::read(common::path("examples/hero.animb")).expect("examples/hero.animb");
    assert!(
        committed == built,
        "examples/hero.animb is stale ({} bytes, animc builds {}): run \
         `cargo run --bin animc -- examples/hero.anim -o examples/hero.animb`",
        committed.len(),
        built.len()
    );
}
