//! The integration tests of `animkit-bevy` in one test binary
//! (`cargo test -p animkit-bevy --test bevy`; one file's tests with its
//! module's name as a filter, e.g. `--test bevy trace::`): `trace`, every
//! state of `examples/hero.anim` played in a Bevy app equal to
//! `animvm --trace`, and `plugin`, the plugin's controls, failures and hot
//! reload. Each former test file is a module here, at its old path; the
//! helpers they share are the module `common` (`tests/common/mod.rs`).

mod common;

mod plugin;
mod trace;
