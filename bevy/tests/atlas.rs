//! `--features atlas`: `atlas_sprite` makes the `Sprite` + `TextureAtlas`
//! of a sprite category's grid sheet, and the plugin moves its index by
//! the frames animvm traces.

use crate::common;

use animkit_bevy::{AnimkitBundle, AnimkitError, AnimkitSprite, SpriteGrid, atlas_sprite};
use bevy::image::TextureAtlasLayout;
use bevy::math::URect;
use bevy::prelude::*;
use common::{animvm_trace, app, compile, hero_source, load, run_ticks};

#[test]
fn an_atlas_sprite_from_a_grid_shows_the_frames_animvm_traces() {
    let bytes = compile("hero.anim", &hero_source());
    let (mut app, dir) = app();
    app.init_asset::<TextureAtlasLayout>();
    let (hero, _) = load(&mut app, &dir, "hero.animb", bytes.clone());
    let grid = SpriteGrid::new(UVec2::new(32, 48), 4, 2);
    let sprite = app.world_mut().resource_scope(|world, mut layouts: Mut<Assets<TextureAtlasLayout>>| {
        let bundles = world.resource::<Assets<AnimkitBundle>>();
        let bundle = bundles.get(&hero).expect("loaded");
        // Errors: an unknown category (with the nearest), module, grid.
        let err = atlas_sprite(bundle, "hero", "Rnu", Handle::default(), grid, &mut layouts).unwrap_err();
        assert_eq!(err.to_string(), "no sprite category `Rnu` in sprite module `hero`; did you mean `Run`?");
        let err = atlas_sprite(bundle, "hera", "Run", Handle::default(), grid, &mut layouts).unwrap_err();
        assert!(matches!(err, AnimkitError::Module(_)), "{err}");
        let empty = SpriteGrid::new(UVec2::new(32, 48), 0, 2);
        let err = atlas_sprite(bundle, "hero", "Run", Handle::default(), empty, &mut layouts).unwrap_err();
        assert_eq!(err.to_string(), "a sprite grid of 0 × 2 cells of 32 × 48 pixels has no cell");
        assert_eq!(layouts.len(), 0, "no layout for a failed call");
        atlas_sprite(bundle, "hero", "Run", Handle::default(), grid, &mut layouts).expect("a sprite")
    });
    // The layout: 8 cells, left to right, top to bottom.
    let layout_handle = sprite.texture_atlas.as_ref().expect("an atlas").layout.clone();
    let layouts = app.world().resource::<Assets<TextureAtlasLayout>>();
    let layout = layouts.get(&layout_handle).expect("the layout is added");
    assert_eq!((layout.size, layout.textures.len()), (UVec2::new(128, 96), 8));
    assert_eq!(layout.textures[5], URect::new(32, 48, 64, 96));
    let e = app.world_mut().spawn((AnimkitSprite::new(hero, "hero", "Run"), sprite)).id();
    let index = |app: &App| app.world().get::<Sprite>(e).and_then(|s| s.texture_atlas.as_ref()).map(|a| a.index);
    assert_eq!(index(&app), Some(0));
    let frames: Vec<usize> = animvm_trace(&bytes, "Run", 23)
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).expect("JSON")["frame"].as_u64().expect("a frame") as usize
        })
        .collect();
    // Run: 4 ticks a frame, six frames: after 23 ticks the sixth (index 5).
    assert_eq!(frames[22], 5);
    run_ticks(&mut app, 23);
    assert_eq!(index(&app), Some(frames[22]));
}
