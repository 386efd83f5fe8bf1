//! The integration tests of `animkit-vm`, one test binary: each former
//! test file is a module here, in its own file (`tests/X.rs`, see
//! tests/README.md), its tests named `X::...`
//! (`cargo test -p animkit-vm --test vm X::`). The global allocator counts
//! per thread, for `game_api` (`animkit_test_support::alloc::measure`).

#[global_allocator]
static A: animkit_test_support::alloc::Counting = animkit_test_support::alloc::Counting;

mod fiber_binding;
mod game_api;
mod game_hostile_calls;
mod public_surface;
mod slap_counting;
mod slap_scene;
mod verify_rules;
