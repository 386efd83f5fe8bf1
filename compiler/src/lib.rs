//! placeholder

pub mod animator;
