//! animkit's fuzz targets as a library (see `targets.rs`).

mod targets;
pub use targets::*;
