//! The animkit runtime: `animvm`, the hosts that run bundles (headless,
//! windowed, trace) and, in later modules, the glow renderer, input,
//! images and fonts. Games that only need sprite state machines link
//! `animkit-vm` alone.

pub mod cli;
pub mod load;
pub mod run;
pub mod trace;
