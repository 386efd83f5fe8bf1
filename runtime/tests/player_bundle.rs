//! [`Player::from_bundle`]: the precompiled path a shipped game takes. A
//! bundle written by `animc` (in process) from `examples/hero.anim`,
//! `examples/story.slap` and `runtime/examples/hud.draw` is opened with
//! `animkit_vm::game::Bundle::open`, and its SLAP scene and Animator HUD are
//! drawn by players into a "game" that owns a headless (surfaceless EGL)
//! context:
//!
//! * into the game's framebuffer object: every pixel inside the viewport is
//!   the player's picture, every pixel outside keeps the game's colour, the
//!   game's GL state reads back the same, and the scene's picture equals a
//!   player's of the same scene compiled from source;
//! * into framebuffer 0 of the surfaceless context: there is nothing there
//!   (`GL_FRAMEBUFFER_UNDEFINED`), `draw` returns `Ok` and draws nothing,
//!   and reading it back fails with `GL_INVALID_FRAMEBUFFER_OPERATION`,
//!   leaving the caller's zeroed buffer black (docs/embedding.md says so).

use animkit_runtime::player::{GlState, Player, PlayerError};
use animkit_runtime::render::HeadlessGl;
use animkit_vm::game::Bundle;
use glow::HasContext;
use std::path::Path;

use crate::player_gl_state::{GAME, H, W, check_pixels, read_back};

/// The bundle `game_example_xvfb` plays (`animc examples/hero.anim
/// examples/story.slap runtime/examples/hud.draw -o DIR/game.animb`),
/// opened as a game opens it.
fn game_bundle(dir: &Path) -> Bundle {
    Bundle::open(crate::game_example_xvfb::game_bundle(dir)).expect("animc's bundle opens")
}

/// The game's framebuffer object (an RGBA8 renderbuffer, `W` x `H`),
/// bound and cleared to [`GAME`].
unsafe fn game_fbo(gl: &glow::Context) -> glow::Framebuffer {
    unsafe {
        let rb = gl.create_renderbuffer().unwrap();
        gl.bind_renderbuffer(glow::RENDERBUFFER, Some(rb));
        gl.renderbuffer_storage(glow::RENDERBUFFER, glow::RGBA8, W, H);
        let fbo = gl.create_framebuffer().unwrap();
        gl.bind_framebuffer(glow::FRAMEBUFFER, Some(fbo));
        gl.framebuffer_renderbuffer(glow::FRAMEBUFFER, glow::COLOR_ATTACHMENT0, glow::RENDERBUFFER, Some(rb));
        assert_eq!(gl.check_framebuffer_status(glow::FRAMEBUFFER), glow::FRAMEBUFFER_COMPLETE);
        gl.viewport(0, 0, W, H);
        gl.clear_color(GAME[0] as f32 / 255.0, GAME[1] as f32 / 255.0, GAME[2] as f32 / 255.0, 1.0);
        gl.clear(glow::COLOR_BUFFER_BIT);
        fbo
    }
}

/// Every GL error pending, oldest first.
unsafe fn gl_errors(gl: &glow::Context) -> Vec<u32> {
    let mut errors = Vec::new();
    loop {
        let e = unsafe { gl.get_error() };
        if e == glow::NO_ERROR || errors.len() > 16 {
            return errors;
        }
        errors.push(e);
    }
}

#[test]
fn a_bundles_scene_and_hud_draw_into_the_games_framebuffer() {
    let dir = tempfile::tempdir().unwrap();
    let bundle = game_bundle(dir.path());
    let host = HeadlessGl::new(8, 8).expect("headless GL (EGL device) must be available");
    let gl = host.gl();
    let fbo = unsafe { game_fbo(gl) };
    let before = unsafe { GlState::save(gl) };

    let mut cutscene = Player::from_bundle(host.share_gl(), &bundle, Some("story"), 32, 24).expect("player");
    assert_eq!(cutscene.language(), "slap");
    cutscene.set_viewport(8, 6, 32, 24).unwrap();
    cutscene.seek(60).unwrap();
    cutscene.draw().unwrap();
    assert_eq!(unsafe { GlState::save(gl) }, before, "after the cutscene's draw");
    let picture = cutscene.read_pixels().unwrap();
    check_pixels(&unsafe { read_back(gl, Some(fbo)) }, &picture, 8, 6);
    assert_ne!(picture.pixel(16, 0), picture.pixel(16, 23), "sky above, ground below");

    // The same picture as the scene compiled from source.
    let story = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/story.slap")).unwrap();
    let program =
        animkit_compiler::compile(&[animkit_compiler::Source::new("story.slap", &story)], &Default::default())
            .expect("compiles");
    let program = animkit_vm::engine::verify::verify(program).expect("verifies");
    let mut from_source = Player::new(host.share_gl(), program, None, 32, 24).expect("player");
    from_source.seek(60).unwrap();
    assert!(from_source.read_pixels().unwrap().data == picture.data, "bundle and source draw the same frame");

    // No module named: the first Animator module, the HUD.
    let mut hud = Player::from_bundle(host.share_gl(), &bundle, None, 20, 10).expect("player");
    assert_eq!(hud.language(), "animator");
    hud.set_viewport(40, 30, 20, 10).unwrap();
    unsafe { game_fbo(gl) };
    let before = unsafe { GlState::save(gl) };
    hud.draw().unwrap();
    assert_eq!(unsafe { GlState::save(gl) }, before, "after the HUD's draw");
    let picture = hud.read_pixels().unwrap();
    assert_eq!(picture.pixel(0, 0), Some([0x20, 0x30, 0x60, 255]), "the HUD's background");
    let drawn = unsafe { read_back(gl, gl.get_parameter_framebuffer(glow::DRAW_FRAMEBUFFER_BINDING)) };
    check_pixels(&drawn, &picture, 40, 30);
    assert_eq!(unsafe { gl_errors(gl) }, Vec::<u32>::new());
}

#[test]
fn a_bundles_sprite_or_missing_module_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let bundle = game_bundle(dir.path());
    let host = HeadlessGl::new(8, 8).expect("headless GL (EGL device) must be available");
    let e = Player::from_bundle(host.share_gl(), &bundle, Some("hero"), 8, 8).err();
    assert_eq!(e, Some(PlayerError::SpriteModule));
    let e = Player::from_bundle(host.share_gl(), &bundle, Some("huds"), 8, 8).err();
    assert_eq!(e.map(|e| e.to_string()).as_deref(), Some("the bundle has no module `huds`"));
    let e = Player::from_bundle(host.share_gl(), &bundle, Some("story"), 8, 0).err();
    assert_eq!(e, Some(PlayerError::BadSize { width: 8, height: 0 }));
}

#[test]
fn framebuffer_zero_of_a_surfaceless_context_has_no_pixels() {
    let dir = tempfile::tempdir().unwrap();
    let bundle = game_bundle(dir.path());
    let host = HeadlessGl::new(W as u32, H as u32).expect("headless GL (EGL device) must be available");
    let gl = host.gl();
    unsafe {
        gl.bind_framebuffer(glow::FRAMEBUFFER, None);
        assert_eq!(gl.check_framebuffer_status(glow::FRAMEBUFFER), glow::FRAMEBUFFER_UNDEFINED);
        assert_eq!(gl_errors(gl), Vec::<u32>::new());
    }
    let before = unsafe { GlState::save(gl) };
    let mut cutscene = Player::from_bundle(host.share_gl(), &bundle, Some("story"), 32, 24).expect("player");
    cutscene.seek(60).unwrap();
    // Nothing to draw into: the call succeeds and the game's state is kept.
    cutscene.draw().unwrap();
    assert_eq!(unsafe { GlState::save(gl) }, before, "after the draw");
    unsafe { gl_errors(gl) };
    // Reading framebuffer 0 back fails and writes nothing: the zeroed
    // buffer stays black.
    let pixels = unsafe { read_back(gl, None) };
    assert_eq!(unsafe { gl_errors(gl) }, [glow::INVALID_FRAMEBUFFER_OPERATION]);
    assert!(pixels.iter().all(|p| *p == [0, 0, 0, 0]), "framebuffer 0 reads back black");
    // The player's own picture is there all the same, and a framebuffer
    // object of the game's gets it.
    let picture = cutscene.read_pixels().unwrap();
    assert!(picture.data.chunks(4).any(|p| p != [0, 0, 0, 255] && p != [0, 0, 0, 0]), "a picture");
    let fbo = unsafe { game_fbo(gl) };
    cutscene.set_viewport(8, 6, 32, 24).unwrap();
    cutscene.draw().unwrap();
    check_pixels(&unsafe { read_back(gl, Some(fbo)) }, &picture, 8, 6);
    assert_eq!(unsafe { gl_errors(gl) }, Vec::<u32>::new());
}
