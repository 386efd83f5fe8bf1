//! placeholder

pub mod golden;
pub mod render;
