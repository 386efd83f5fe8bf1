//! The integration tests of `animkit-compiler`, one test binary (but
//! `animc_resource_limits.rs`, a process of its own: see Cargo.toml): each
//! former test file is a module here, in its own file (`tests/X.rs`, see
//! tests/README.md), its tests named `X::...`
//! (`cargo test -p animkit-compiler --test compiler X::`). `lsp_support` is
//! the LSP client the `lsp_*` files share. The global allocator counts per
//! thread, for `slap_memory` (`animkit_test_support::alloc::measure`).

#[global_allocator]
static A: animkit_test_support::alloc::Counting = animkit_test_support::alloc::Counting;

mod lsp_support;

mod animc_aseprite;
mod animc_cli;
mod animc_closed_stdout;
mod animc_files;
mod animc_fmt;
mod animc_input_as_output;
mod animc_interrupt;
mod animc_long_names;
mod animc_slap;
mod aseprite_batch;
mod aseprite_names;
mod cr_line_ends;
mod diagnostic_excerpt;
mod error_limit;
mod lsp_exchange;
mod lsp_hostile;
mod lsp_load;
mod module_graph;
mod slap_check;
mod slap_comforts;
mod slap_include;
mod slap_lower;
mod slap_memory;
mod slap_timing;
