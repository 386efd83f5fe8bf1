//! `animkit-web`: the animkit player in a web page. One JavaScript class,
//! `Player` (wasm-bindgen, `wasm32-unknown-unknown` only), over the
//! runtime's renderer on WebGL2: the same frame logic as `animvm -H`, so
//! the page draws what `animvm` draws (see `docs/web.md`).
//!
//! * feature `full` (default): [`core`], the player over any
//!   `glow::Context`, and the DOM keyboard in SDL 1.2's terms ([`keys`]);
//! * without it, the sprite-only player ([`sprite_only`]): the VM's sprite
//!   state machines and their traces, no renderer;
//! * feature `compiler` (off by default; `web/build.sh --playground`):
//!   `compile`, `animc` on one text with its diagnostics as data, and the
//!   JavaScript functions `compile` and `format` over it.
//!
//! The full build also has the game-facing `SpriteBatch` class
//! ([`game_batch`]): many animations a JS/TS game ticks, with typed-array
//! columns and every event (not in the sprite-only build: it would grow it
//! by a quarter, see `docs/web.md`), and `SlapScene` ([`game_scene`]): a
//! SLAP scene's actors, poses and camera frame by frame.
//!
//! On other targets the crate builds its Rust half only (so `cargo test
//! --workspace` checks it); `web/build.sh` builds the page.

#[cfg(feature = "full")]
pub mod canvas;
#[cfg(feature = "full")]
pub mod core;
pub mod game_batch;
pub mod game_scene;
#[cfg(feature = "full")]
pub mod keys;
pub mod sprite_only;
// Also in the native unit tests, which hold it to the `animc` binary.
#[cfg(any(feature = "compiler", test))]
pub mod compile;

#[cfg(all(target_arch = "wasm32", feature = "full"))]
mod wasm;
#[cfg(all(target_arch = "wasm32", feature = "compiler"))]
mod wasm_compile;
#[cfg(all(target_arch = "wasm32", feature = "full"))]
mod wasm_game_batch;
#[cfg(all(target_arch = "wasm32", feature = "full"))]
mod wasm_game_player;
#[cfg(all(target_arch = "wasm32", feature = "full"))]
mod wasm_game_scene;
#[cfg(all(target_arch = "wasm32", feature = "full"))]
mod wasm_gl_state;
#[cfg(all(target_arch = "wasm32", not(feature = "full")))]
mod wasm_sprite;
