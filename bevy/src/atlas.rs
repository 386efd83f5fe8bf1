//! `atlas` feature: the `Sprite` of a sprite category's sheet laid out as
//! a grid, and the system that writes each entity's frame index into it.

use crate::{AnimkitBundle, AnimkitError, AnimkitFrame, SpriteGrid};
use bevy::asset::{Assets, Handle};
use bevy::ecs::prelude::*;
use bevy::image::{Image, TextureAtlas, TextureAtlasLayout};
use bevy::sprite::Sprite;

/// The `Sprite` that draws sprite category `category` (a state's `[alias]`
/// or its own name; see [`crate::Animkit::category`]) of sprite module
/// `module` of `bundle` from `image`, a sheet laid out as `grid`: its
/// `TextureAtlas` holds a new `TextureAtlasLayout` (added to `layouts`)
/// and index 0. Spawn it beside an [`AnimkitSprite`](crate::AnimkitSprite)
/// of that module: the plugin writes the frame index into it every tick.
///
/// An unknown module is [`AnimkitError::Module`], a category no state of
/// the module draws from [`AnimkitError::Category`], and a grid with no
/// cell (no columns, no rows or a zero size) [`AnimkitError::Grid`].
///
/// ```
/// use animkit_bevy::{AnimkitBundle, AnimkitSprite, SpriteGrid, atlas_sprite};
/// use bevy::prelude::*;
///
/// #[derive(Resource)]
/// struct Hero(Handle<AnimkitBundle>);
///
/// fn spawn_hero(
///     mut commands: Commands,
///     hero: Res<Hero>,
///     assets: Res<AssetServer>,
///     bundles: Res<Assets<AnimkitBundle>>,
///     mut layouts: ResMut<Assets<TextureAtlasLayout>>,
///     mut spawned: Local<bool>,
/// ) {
///     // Once, when the bundle has loaded.
///     let Some(bundle) = bundles.get(&hero.0) else { return };
///     if std::mem::replace(&mut *spawned, true) {
///         return;
///     }
///     // hero_walk.png: 4 frames of 32×32 in a row.
///     let grid = SpriteGrid::new(UVec2::splat(32), 4, 1);
///     match atlas_sprite(bundle, "hero", "Walk", assets.load("hero_walk.png"), grid, &mut layouts) {
///         Ok(sprite) => {
///             commands.spawn((AnimkitSprite::new(hero.0.clone(), "hero", "Walk"), sprite));
///         }
///         Err(e) => eprintln!("{e}"),
///     }
/// }
/// # bevy::ecs::system::assert_is_system(spawn_hero);
/// ```
pub fn atlas_sprite(
    bundle: &AnimkitBundle,
    module: &str,
    category: &str,
    image: Handle<Image>,
    grid: SpriteGrid,
    layouts: &mut Assets<TextureAtlasLayout>,
) -> Result<Sprite, AnimkitError> {
    let m = bundle.bundle().sprite(module).map_err(AnimkitError::Module)?;
    let categories: Vec<&str> = (0..m.state_count()).filter_map(|i| m.state_at(i)).map(|s| m.category(s)).collect();
    if !categories.contains(&category) {
        return Err(AnimkitError::Category {
            name: category.to_string(),
            module: module.to_string(),
            nearest: animkit_vm::engine::suggest::nearest(category, categories.iter().copied(), 3)
                .into_iter()
                .map(str::to_string)
                .collect(),
        });
    }
    if grid.columns == 0 || grid.rows == 0 || grid.tile_size.x == 0 || grid.tile_size.y == 0 {
        return Err(AnimkitError::Grid(grid));
    }
    let layout = layouts.add(TextureAtlasLayout::from_grid(grid.tile_size, grid.columns, grid.rows, None, None));
    Ok(Sprite::from_atlas_image(image, TextureAtlas { layout, index: 0 }))
}

/// The frame index into the entity's `Sprite::texture_atlas`.
pub(crate) fn write_atlas(mut sprites: Query<(&AnimkitFrame, &mut Sprite), Changed<AnimkitFrame>>) {
    for (frame, mut sprite) in &mut sprites {
        if let Some(atlas) = sprite.texture_atlas.as_mut() {
            atlas.index = frame.index as usize;
        }
    }
}
