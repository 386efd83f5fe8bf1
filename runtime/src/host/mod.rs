//! What every language's host shares, whatever it runs: a window with its
//! OpenGL context ([`gl_window`]), the one window event loop
//! ([`window_loop`]: the [`WindowApp`](window_loop::WindowApp) trait each
//! windowed host implements), a fixed-rate [`ticker`], and the files
//! `animvm` writes ([`files`]: the renderer produces bytes, the host writes
//! them). The hosts themselves live with their language: `animator/`,
//! `sprite/`, and `slap/` next. See `docs/window.md`.

pub mod files;
pub mod gl_window;
pub mod ticker;
pub mod window_loop;
