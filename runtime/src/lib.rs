//! The animkit runtime: `animvm`, the hosts that run bundles (headless,
//! windowed, trace), the glow renderer with its images and font
//! ([`render`]; golden-image test helper in [`golden`]) and, in later
//! modules, input. Games that only need sprite state machines link
//! `animkit-vm` alone.

pub mod cli;
pub mod host;
pub mod load;
pub mod report;
pub mod run;
pub mod script;
pub mod sprite_view;
// Moved to `animator/` (the per-language split follows in the next commits).
#[path = "animator/stream.rs"]
pub mod stream;
pub mod trace;

pub mod golden;
pub mod render;
