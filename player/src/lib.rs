//! animkit's player: what a game embeds to draw SLAP scenes and Animator
//! programs in its own GL context, with `animkit-vm` and glow and no
//! compiler, grammar, window system or file watcher (`animvm`, its hosts,
//! its CLI and its GIF output are `animkit-runtime`'s, which re-exports
//! these modules under the same paths).
//!
//! | module | what |
//! | --- | --- |
//! | [`player`] | [`Player`](player::Player): a scene or a program in the game's GL context |
//! | [`render`] | the glow renderer: 2D draws and fills, text, images and PNG, the 3D scene pass |
//! | [`slap`] | the SLAP scene view, its camera, meshes and poses; runtime error lines |
//! | [`animator`] | the Animator GL canvas and the runner of a compiled module |
//! | [`report`] | runtime error lines (`FILE:LINE:COL: error: ...`) |
//! | [`clock`] | the clock the canvas waits on (a test clock in tests) |
//! | [`files`] | the files a program writes (`screenshot`), atomically |
//!
//! The feature `headless` adds [`render::HeadlessGl`] (an EGL context with
//! no window, through glutin) for tests and offscreen tools; a game leaves
//! it off.

pub mod animator;
pub mod clock;
pub mod files;
mod gl_state;
pub mod player;
mod player_error;
pub mod render;
pub mod report;
pub mod slap;
