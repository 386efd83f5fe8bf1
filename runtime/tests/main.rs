//! The integration tests of `animkit-runtime` in one test binary
//! (`cargo test -p animkit-runtime --test runtime`; one file's tests with
//! its module's name as a filter, e.g. `--test runtime render_pixels::`):
//! `animvm` as a process (`animvm_*`), the renderer and the SLAP view on
//! headless EGL (`render_*`, `slap_*`, `player_gl_state`), the stream on
//! the CPU canvas (`stream_*`, the allocation guard counting with
//! `animkit_test_support::alloc`), the window hosts (`canvas_window_mode`,
//! `window_blit`, and under Xvfb `window_xvfb` and `game_example_xvfb`,
//! sharing the `xvfb` helper) and the sprite viewer. Each former test file
//! is a module here, at its old path.
//!
//! Two files are binaries of their own (see `runtime/Cargo.toml`):
//! `headless_no_device.rs` sets a process-wide environment variable before
//! EGL is first loaded, and `animvm_resource_limits.rs` measures the peak
//! memory of children forked from the test process, which the other tests
//! would grow.

#[global_allocator]
static A: animkit_test_support::alloc::Counting = animkit_test_support::alloc::Counting;

#[path = "common/xvfb.rs"]
mod xvfb;

mod animvm_animator;
mod animvm_bounds;
mod animvm_files;
mod animvm_gif;
mod animvm_hostile_bundles;
mod animvm_languages;
mod animvm_slap;
mod animvm_slap_frames;
mod animvm_trace;
mod animvm_watch;
mod animvm_watch_saves;
mod canvas_window_mode;
mod game_example_xvfb;
mod module_graph;
mod player_bundle;
mod player_gl_state;
mod render_3d;
mod render_draw_cap;
mod render_limits;
mod render_pixels;
mod slap_cull;
mod slap_draw;
mod slap_lod;
mod slap_poses;
mod sprite_viewer;
mod stream_alloc;
mod stream_counts;
mod window_blit;
mod window_xvfb;
