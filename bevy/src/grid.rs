//! [`SpriteGrid`]: a sprite sheet's layout (for `atlas_sprite`, with the
//! `atlas` feature; here without it so that [`crate::AnimkitError`] is
//! the same whatever the features).

use bevy::math::UVec2;

/// A sprite sheet laid out as a grid: `columns` × `rows` cells of
/// `tile_size` pixels, frame index `i` in row `i / columns`, column
/// `i % columns` (as `TextureAtlasLayout::from_grid` numbers them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpriteGrid {
    /// A cell's size in pixels.
    pub tile_size: UVec2,
    /// Cells a row.
    pub columns: u32,
    /// Rows.
    pub rows: u32,
}

impl SpriteGrid {
    /// `columns` × `rows` cells of `tile_size` pixels.
    pub fn new(tile_size: UVec2, columns: u32, rows: u32) -> SpriteGrid {
        SpriteGrid { tile_size, columns, rows }
    }
}
