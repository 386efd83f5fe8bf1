//! The Animator back half: colours, and the lowering shared by `animc` and
//! `animvm`'s stream.

pub mod colors;
pub mod lower;
