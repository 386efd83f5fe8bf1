//! The integration tests of `animkit-bevy` in one test binary
//! (`cargo test -p animkit-bevy --test bevy`; one file's tests with its
//! module's name as a filter, e.g. `--test bevy trace::`): `trace`, every
//! state of `examples/hero.anim` played in a Bevy app equal to
//! `animvm --trace`; `plugin`, the plugin's controls, failures and hot
//! reload; `clock`, the plugin's own tick rate; `requests`, states
//! requested through the component; `reflect`, the reflected components;
//! `atlas`, `atlas_sprite`'s sprite and its index; `source`, `.anim` sources
//! compiled on load (the tests always build with the features `atlas` and
//! `source`: bevy/Cargo.toml's dev-dependency on itself).
//! Each file is a module here; the helpers they share are the module
//! `common` (`tests/common/mod.rs`).

mod common;

#[cfg(feature = "atlas")]
mod atlas;
mod clock;
mod plugin;
mod reflect;
mod requests;
mod source;
mod trace;
