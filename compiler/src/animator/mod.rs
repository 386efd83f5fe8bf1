//! The Animator back half: colours, the lowering shared by `animc` and
//! `animvm`'s stream, and the formatter behind `animc --fmt`.

pub mod colors;
pub mod format;
pub mod lower;
