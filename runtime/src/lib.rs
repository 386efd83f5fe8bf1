//! The animkit runtime: `animvm` and the hosts that run bundles, one per
//! language: [`animator`] (streams and scripts, headless or in a window),
//! [`sprite`] (traces and the sprite viewer) and [`slap`] (scene traces;
//! the 3D drawing is next); what
//! they share ([`host`]: the window and its one event loop, files); the
//! glow renderer with its images and font ([`render`], pixels only;
//! golden-image test helper in [`golden`]). [`run`] picks the module and
//! dispatches by its language. Games that only need sprite state machines
//! link `animkit-vm` alone.

pub mod animator;
pub mod cli;
pub mod host;
pub mod load;
pub mod report;
pub mod run;
pub mod slap;
pub mod sprite;

pub mod golden;
pub mod render;

/// The Animator stream and script, also at the crate root, where their
/// users (tests, the fuzz targets, the benchmark) have always found them.
pub use animator::{script, stream};
