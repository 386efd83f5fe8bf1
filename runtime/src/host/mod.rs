//! What every language's host shares, whatever it runs: a window with its
//! OpenGL context ([`gl_window`]), the one window event loop
//! ([`window_loop`]: the [`WindowApp`](window_loop::WindowApp) trait each
//! windowed host implements), a fixed-rate [`ticker`], file watching for
//! `--watch` ([`watch`]), the files `animvm` writes ([`files`]: the
//! renderer produces bytes, the host writes them), animated GIFs ([`gif`],
//! `--gif`) and a terminal [`progress`] bar. The hosts themselves live with
//! their language: `animator/`, `sprite/` and `slap/`. See `docs/window.md`.

pub mod files;
pub mod gif;
pub mod gl_window;
pub mod progress;
pub mod ticker;
pub mod watch;
pub mod window_loop;
