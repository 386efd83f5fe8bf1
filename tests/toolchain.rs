//! The cross-crate tests, one test binary (`toolchain`): every file
//! `tests/X.rs` (but `ui.rs` and `animator_golden.rs`, in the binary
//! `at_root`, `at_root.rs`) is the module `X`, so
//! `cargo test -p animkit-tests --test toolchain X::` runs one file's
//! tests. The helpers (`common`, the reference interpreters `reference::*`
//! and the fuzz targets' bodies `targets`) are compiled once, here.
//!
//! Paths are written from the repository root (`examples/...`,
//! `tests/golden/...`) and resolved with `common::path`: cargo runs the
//! tests in `tests/`, this package's root.
//!
//! One counting global allocator (`animkit_test_support::alloc`) counts
//! per thread: each allocation test measures the work it does on its own
//! thread, whatever the other tests do meanwhile.

#[global_allocator]
static ALLOCATOR: animkit_test_support::alloc::Counting = animkit_test_support::alloc::Counting;

mod common;
#[allow(dead_code)]
mod reference {
    pub mod animator;
    // `fuzz/src/targets.rs` includes this file too (as its own module
    // `slap_reference`, for the fuzz crate, which has no `tests/`).
    #[allow(clippy::duplicate_mod)]
    pub mod slap;
    pub mod sprite;
}
// The fuzz targets' bodies, the same file the fuzz crate builds
// (`fuzz/Cargo.toml`).
#[path = "../fuzz/src/targets.rs"]
#[allow(dead_code)]
mod targets;

mod animator_equivalence;
mod animator_grammar;
mod animator_reader;
mod animator_vm;
mod bundle;
mod bundle_alloc;
mod bundle_load_alloc;
mod bundle_mutation;
mod fuzz_smoke;
mod limits;
mod slap_alloc;
mod slap_equivalence;
mod slap_fold;
mod slap_format;
mod slap_golden;
mod slap_reference;
mod sprite_alloc;
mod sprite_batch;
mod sprite_clock;
mod sprite_equivalence;
mod sprite_flat;
mod sprite_reload;
mod sprite_shipping_bundle;
mod sprite_snapshot;
mod sprite_spec;
mod sprite_speed_tables;
mod stream_garbage;
