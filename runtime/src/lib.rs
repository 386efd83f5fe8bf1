//! The animkit runtime: `animvm` and the hosts that run bundles, one per
//! language: [`animator`] (streams and scripts, headless or in a window),
//! [`sprite`] (traces and the sprite viewer) and [`slap`] (scene traces,
//! and scenes drawn in 3D, headless or in a window); what they share
//! ([`host`]: the [`Host`](host::Host) trait, the window and its one event
//! loop, the frame sink, files); the
//! glow renderer with its images and font ([`render`], pixels only;
//! golden-image test helper in [`golden`]). [`run`] picks the module and
//! dispatches by its language; [`Error`] is why it stopped. [`player`] draws a
//! SLAP scene or an Animator program inside a game's own GL context; it,
//! [`render`], [`report`], [`clock`], `slap::view` and the Animator canvas are
//! the crate `animkit-player`'s, re-exported here. Games that only need sprite state machines
//! link `animkit-vm` alone.

pub mod animator;
pub mod cli;
pub mod error;
pub mod host;
pub mod load;
pub mod run;
pub mod slap;
pub mod sprite;

pub mod golden;

pub use error::Error;

/// The player crate's modules under their old paths.
pub use animkit_player::{clock, player, render, report};

/// The Animator stream and script, also at the crate root: the short paths
/// tests, the fuzz targets and the benchmark use.
pub use animator::{script, stream};
