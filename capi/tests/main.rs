//! The integration tests of `animkit-capi`, one test binary: each former
//! test file is a module here, in its own file (`tests/X.rs`, see
//! tests/README.md), its tests named `X::...`
//! (`cargo test -p animkit-capi --test capi X::`). `common` is what they
//! share (the built library and tools, bundles, `cc`); the C programs are
//! in `tests/c/`.

mod common;

mod batch_lifecycle;
mod batch_reload;
mod csharp;
mod dependencies;
mod errors;
mod header;
mod hostile_calls;
mod love;
mod lua;
mod player;
mod python;
mod snapshot_words;
mod threads;
mod trace;
