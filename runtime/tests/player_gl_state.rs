//! The embedded [`Player`] inside a "game" that owns the GL context
//! (headless EGL here): the game draws, the player draws a SLAP scene or an
//! Animator program into the game's framebuffer at a viewport, the game
//! draws again. Checked: every piece of GL state the player documents
//! ([`GlState`]) reads back the same after each player call, pixels
//! outside the viewport keep the game's colour, pixels inside are exactly
//! the player's picture, and input reaches Animator areas with the event
//! lines drained into the caller's buffer.

use animkit_runtime::player::{GlState, Player};
use animkit_runtime::render::HeadlessGl;
use animkit_vm::Program;
use animkit_vm::engine::verify::Verified;
use glow::HasContext;

/// The game's framebuffer size (`player_bundle` draws into the same).
pub(crate) const W: i32 = 64;
pub(crate) const H: i32 = 48;
/// The game's clear colour.
pub(crate) const GAME: [u8; 4] = [10, 20, 200, 255];

fn build(name: &str, text: &str) -> Verified<Program> {
    let program =
        animkit_compiler::compile(&[animkit_compiler::Source::new(name, text)], &Default::default()).expect("compiles");
    animkit_vm::engine::verify::verify(program).expect("verifies")
}

fn story() -> Verified<Program> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/story.slap");
    build("story.slap", &std::fs::read_to_string(path).expect("examples/story.slap"))
}

/// The game's own objects and odd state: its framebuffer (cleared to
/// `(10, 20, 200)`), a program, a vertex array, a buffer, textures on
/// units 0 and 2, and non-default settings of everything the player
/// touches.
struct Game {
    fbo: glow::Framebuffer,
}

unsafe fn game_setup(gl: &glow::Context) -> Game {
    unsafe { game_setup_with(gl, false) }
}

/// As [`game_setup`], the framebuffer with a depth buffer too when `depth`.
unsafe fn game_setup_with(gl: &glow::Context, depth: bool) -> Game {
    unsafe {
        let rb = gl.create_renderbuffer().unwrap();
        gl.bind_renderbuffer(glow::RENDERBUFFER, Some(rb));
        gl.renderbuffer_storage(glow::RENDERBUFFER, glow::RGBA8, W, H);
        let fbo = gl.create_framebuffer().unwrap();
        gl.bind_framebuffer(glow::FRAMEBUFFER, Some(fbo));
        gl.framebuffer_renderbuffer(glow::FRAMEBUFFER, glow::COLOR_ATTACHMENT0, glow::RENDERBUFFER, Some(rb));
        if depth {
            let d = gl.create_renderbuffer().unwrap();
            gl.bind_renderbuffer(glow::RENDERBUFFER, Some(d));
            gl.renderbuffer_storage(glow::RENDERBUFFER, glow::DEPTH_COMPONENT24, W, H);
            gl.framebuffer_renderbuffer(glow::FRAMEBUFFER, glow::DEPTH_ATTACHMENT, glow::RENDERBUFFER, Some(d));
            gl.bind_renderbuffer(glow::RENDERBUFFER, Some(rb));
        }
        assert_eq!(gl.check_framebuffer_status(glow::FRAMEBUFFER), glow::FRAMEBUFFER_COMPLETE);
        gl.clear_color(GAME[0] as f32 / 255.0, GAME[1] as f32 / 255.0, GAME[2] as f32 / 255.0, 1.0);
        gl.clear(glow::COLOR_BUFFER_BIT);

        let version =
            if gl.version().is_embedded { "#version 300 es\nprecision mediump float;" } else { "#version 330 core" };
        let program = gl.create_program().unwrap();
        for (kind, body) in [
            (glow::VERTEX_SHADER, "in vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }"),
            (glow::FRAGMENT_SHADER, "out vec4 c; void main() { c = vec4(1.0); }"),
        ] {
            let s = gl.create_shader(kind).unwrap();
            gl.shader_source(s, &format!("{version}\n{body}"));
            gl.compile_shader(s);
            assert!(gl.get_shader_compile_status(s), "{}", gl.get_shader_info_log(s));
            gl.attach_shader(program, s);
        }
        gl.link_program(program);
        assert!(gl.get_program_link_status(program));
        gl.use_program(Some(program));
        let vao = gl.create_vertex_array().unwrap();
        gl.bind_vertex_array(Some(vao));
        let vbo = gl.create_buffer().unwrap();
        gl.bind_buffer(glow::ARRAY_BUFFER, Some(vbo));
        for unit in [0, 2] {
            let t = gl.create_texture().unwrap();
            gl.active_texture(glow::TEXTURE0 + unit);
            gl.bind_texture(glow::TEXTURE_2D, Some(t));
        }
        gl.active_texture(glow::TEXTURE2);
        gl.viewport(1, 2, 30, 20);
        gl.scissor(3, 4, 5, 6);
        gl.enable(glow::SCISSOR_TEST);
        gl.enable(glow::BLEND);
        gl.blend_func_separate(glow::ONE, glow::ZERO, glow::DST_COLOR, glow::SRC_COLOR);
        gl.blend_equation_separate(glow::FUNC_SUBTRACT, glow::MAX);
        gl.enable(glow::DEPTH_TEST);
        gl.depth_mask(false);
        gl.depth_func(glow::GEQUAL);
        gl.enable(glow::CULL_FACE);
        gl.cull_face(glow::FRONT);
        gl.front_face(glow::CW);
        gl.enable(glow::STENCIL_TEST);
        gl.stencil_func(glow::EQUAL, 3, 0x0f);
        gl.stencil_op(glow::INCR, glow::DECR, glow::INVERT);
        gl.stencil_mask(0x3c);
        gl.color_mask(true, false, true, false);
        gl.clear_color(0.25, 0.5, 0.75, 1.0);
        gl.clear_depth_f32(0.5);
        gl.clear_stencil(7);
        gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 1);
        gl.pixel_store_i32(glow::PACK_ALIGNMENT, 2);
        gl.enable(glow::POLYGON_OFFSET_FILL);
        Game { fbo }
    }
}

/// The game's framebuffer, top row first.
unsafe fn game_pixels(gl: &glow::Context, game: &Game) -> Vec<[u8; 4]> {
    unsafe { read_back(gl, Some(game.fbo)) }
}

/// `framebuffer`'s pixels (`None`: framebuffer 0), top row first, read
/// into a zeroed buffer, the GL state left as it was.
pub(crate) unsafe fn read_back(gl: &glow::Context, framebuffer: Option<glow::Framebuffer>) -> Vec<[u8; 4]> {
    unsafe {
        let saved = GlState::save(gl);
        gl.bind_framebuffer(glow::READ_FRAMEBUFFER, framebuffer);
        gl.pixel_store_i32(glow::PACK_ALIGNMENT, 4);
        let mut data = vec![0u8; (W * H * 4) as usize];
        gl.read_pixels(0, 0, W, H, glow::RGBA, glow::UNSIGNED_BYTE, glow::PixelPackData::Slice(Some(&mut data)));
        saved.restore(gl);
        let rows: Vec<&[u8]> = data.chunks((W * 4) as usize).rev().collect();
        rows.concat().chunks(4).map(|p| [p[0], p[1], p[2], p[3]]).collect()
    }
}

/// Checks the game's framebuffer after the player drew its `picture` at
/// viewport `(x, y)` (GL coordinates) `pw` x `ph`.
pub(crate) fn check_pixels(pixels: &[[u8; 4]], picture: &animkit_runtime::render::RgbaImage, x: i32, y: i32) {
    let (pw, ph) = (picture.width as i32, picture.height as i32);
    let top = H - y - ph;
    let mut inside = 0;
    for row in 0..H {
        for col in 0..W {
            let p = pixels[(row * W + col) as usize];
            if (x..x + pw).contains(&col) && (top..top + ph).contains(&row) {
                let q = picture.pixel((col - x) as u32, (row - top) as u32).unwrap();
                assert_eq!(p, q, "pixel ({col}, {row}) inside the viewport");
                inside += 1;
            } else {
                assert_eq!(p, GAME, "pixel ({col}, {row}) outside the viewport");
            }
        }
    }
    assert_eq!(inside, pw * ph);
}

#[test]
fn slap_scene_keeps_the_games_state_and_pixels() {
    let host = HeadlessGl::new(8, 8).expect("headless GL (EGL device) must be available");
    let gl = host.gl();
    let game = unsafe { game_setup(gl) };
    let before = unsafe { GlState::save(gl) };

    let mut player = Player::new(host.share_gl(), story(), None, 32, 24).expect("player");
    assert_eq!(unsafe { GlState::save(gl) }, before, "after Player::new");
    assert_eq!(player.language(), "slap");
    player.set_viewport(8, 6, 32, 24).unwrap();
    assert_eq!(unsafe { GlState::save(gl) }, before, "after set_viewport");
    player.seek(60).unwrap();
    assert_eq!(player.frame(), 60);
    player.draw().unwrap();
    assert_eq!(unsafe { GlState::save(gl) }, before, "after draw");
    let picture = player.read_pixels().unwrap();
    assert_eq!(unsafe { GlState::save(gl) }, before, "after read_pixels");
    check_pixels(&unsafe { game_pixels(gl, &game) }, &picture, 8, 6);

    // The sky is at the top of the picture, the ground at the bottom, and
    // they differ.
    let sky = picture.pixel(16, 0).unwrap();
    let ground = picture.pixel(16, 23).unwrap();
    assert_ne!(sky, ground);

    // The scene runs on the game's clock: 1 s is 30 frames.
    for _ in 0..60 {
        player.update(1.0 / 60.0).unwrap();
    }
    assert_eq!(player.frame(), 90);
    player.draw().unwrap();
    assert_eq!(unsafe { GlState::save(gl) }, before, "after update and draw");

    // The same frame as the headless SLAP host draws for `--start 90`.
    let mut fresh = Player::new(host.share_gl(), story(), None, 32, 24).expect("player");
    fresh.seek(90).unwrap();
    assert_eq!(fresh.read_pixels().unwrap().data, player.read_pixels().unwrap().data);
    assert_eq!(unsafe { GlState::save(gl) }, before, "after a second player");
}

#[test]
fn slap_scene_is_drawn_straight_into_a_framebuffer_with_depth() {
    let host = HeadlessGl::new(8, 8).expect("headless GL (EGL device) must be available");
    let gl = host.gl();
    let game = unsafe { game_setup_with(gl, true) };
    let before = unsafe { GlState::save(gl) };
    let mut player = Player::new(host.share_gl(), story(), None, 32, 24).expect("player");
    player.set_viewport(8, 6, 32, 24).unwrap();
    for frame in [60, 90] {
        player.seek(frame).unwrap();
        player.draw().unwrap();
        assert_eq!(unsafe { GlState::save(gl) }, before, "after draw at frame {frame}");
        // No offscreen picture and no copy: the pass went into the game's
        // framebuffer, and its pixels are those of the player's own
        // picture of the same frame (drawn by `read_pixels`), exactly;
        // nothing outside the viewport changed.
        let picture = player.read_pixels().unwrap();
        check_pixels(&unsafe { game_pixels(gl, &game) }, &picture, 8, 6);
    }
    assert_eq!(player.direct_draws(), 2);

    // Told not to, it copies its own picture in, with the same pixels.
    player.set_direct(false);
    player.seek(30).unwrap();
    player.draw().unwrap();
    assert_eq!(player.direct_draws(), 2);
    check_pixels(&unsafe { game_pixels(gl, &game) }, &player.read_pixels().unwrap(), 8, 6);

    // Without a depth buffer the picture is drawn offscreen and copied.
    let mut copied = Player::new(host.share_gl(), story(), None, 32, 24).expect("player");
    unsafe { game_setup(gl) };
    copied.draw().unwrap();
    assert_eq!(copied.direct_draws(), 0);
}

const HUD: &str = "\
bg #ff8000
frame
events on
area hud -1 -1 1 -1 1 1 -1 1
echo \"hud up\"
flush
sleep 0.5
bg #00ff00
frame
flush
sleep 100
";

#[test]
fn animator_program_runs_on_the_games_clock_with_input() {
    let host = HeadlessGl::new(8, 8).expect("headless GL (EGL device) must be available");
    let gl = host.gl();
    let game = unsafe { game_setup(gl) };
    let before = unsafe { GlState::save(gl) };

    let mut hud = Player::new(host.share_gl(), build("hud.draw", HUD), None, 20, 10).expect("player");
    assert_eq!(hud.language(), "animator");
    assert_eq!(unsafe { GlState::save(gl) }, before, "after Player::new");
    hud.set_viewport(40, 30, 20, 10).unwrap();
    hud.draw().unwrap();
    assert_eq!(unsafe { GlState::save(gl) }, before, "after draw");
    let picture = hud.read_pixels().unwrap();
    assert_eq!(picture.pixel(3, 3), Some([255, 128, 0, 255]));
    check_pixels(&unsafe { game_pixels(gl, &game) }, &picture, 40, 30);
    let mut out = Vec::new();
    hud.drain_output(&mut out);
    assert_eq!(String::from_utf8_lossy(&out), "hud up\n");

    // Input in viewport pixels, top-left origin: the area is under it.
    hud.pointer_button(5.0, 5.0, 1, true);
    hud.key(0, 97, "a", true);
    out.clear();
    hud.drain_output(&mut out);
    let text = String::from_utf8_lossy(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].starts_with("MOTION 0 ") && lines[0].ends_with(" hud"), "{text}");
    assert!(lines[1].starts_with("PRESS 1 ") && lines[1].ends_with(" hud"), "{text}");
    assert_eq!(lines[2], "KEYDOWN 0 97 a");
    assert_eq!(unsafe { GlState::save(gl) }, before, "after input");

    // The wait of 0.5 s passes on the game's clock, not the wall's.
    hud.update(0.4).unwrap();
    assert_eq!(hud.frame(), 1);
    hud.update(0.1).unwrap();
    assert_eq!(hud.frame(), 2);
    assert_eq!(hud.read_pixels().unwrap().pixel(3, 3), Some([0, 255, 0, 255]));
    hud.draw().unwrap();
    assert_eq!(unsafe { GlState::save(gl) }, before, "after update and draw");
    check_pixels(&unsafe { game_pixels(gl, &game) }, &hud.read_pixels().unwrap(), 40, 30);
}

#[test]
fn errors_name_the_reason() {
    use animkit_runtime::player::PlayerError;
    let host = HeadlessGl::new(8, 8).expect("headless GL (EGL device) must be available");
    let e = Player::new(host.share_gl(), story(), Some("nope"), 8, 8).err();
    assert_eq!(e, Some(PlayerError::NoSuchModule("nope".into())));
    assert_eq!(e.unwrap().to_string(), "the bundle has no module `nope`");
    let e = Player::new(host.share_gl(), story(), None, 0, 8).err();
    assert_eq!(e, Some(PlayerError::BadSize { width: 0, height: 8 }));
    assert_eq!(e.unwrap().to_string(), "cannot draw 0x8 pictures");
    let mut p = Player::new(host.share_gl(), build("hud.draw", HUD), None, 8, 8).unwrap();
    assert_eq!(p.seek(3), Err(PlayerError::SeekAnimator));
    assert_eq!(p.seek(3).unwrap_err().to_string(), "seek: an Animator program plays on the clock (update)");
    let mut s = Player::new(host.share_gl(), story(), None, 8, 8).unwrap();
    let last = animkit_runtime::slap::MAX_FRAME;
    assert_eq!(s.seek(u64::MAX), Err(PlayerError::PastLastFrame { frame: u64::MAX, last }));
    assert_eq!(
        s.seek(u64::MAX).unwrap_err().to_string(),
        format!("frame {} is past the last frame animvm plays ({last})", u64::MAX)
    );
    // The host's error shows a player's as it is.
    let e = animkit_runtime::Error::from(s.seek(u64::MAX).unwrap_err());
    assert_eq!(e.report(), format!("animvm: frame {} is past the last frame animvm plays ({last})\n", u64::MAX));
}

/// `set_aspect` letterboxes a SLAP picture in the player's own (black
/// bars, the picture centred) and `None` follows the viewport again;
/// `replace_scene` plays a new scene from where it was left and gives the
/// old one back (`animvm --watch` in the player window); `into_scene`
/// hands the scene back.
#[test]
fn aspect_and_a_replaced_scene() {
    let host = HeadlessGl::new(32, 24).expect("headless GL (EGL device) must be available");
    let mut p = Player::new(host.share_gl(), story(), None, 32, 24).expect("player");
    p.seek(10).unwrap();
    let full = p.read_pixels().unwrap();
    assert_ne!(full.pixel(0, 12), Some([0, 0, 0, 255]));
    p.set_aspect(Some((16, 24)));
    let boxed = p.read_pixels().unwrap();
    for x in [0, 7, 24, 31] {
        assert_eq!(boxed.pixel(x, 12), Some([0, 0, 0, 255]), "bar at x {x}");
    }
    assert_ne!(boxed.pixel(16, 2), Some([0, 0, 0, 255]), "the picture between the bars");
    p.set_aspect(None);
    assert!(p.read_pixels().unwrap().data == full.data, "the viewport's aspect again");

    let walk = build("walk.slap", "actor 1 color 1 0 0\ntime 300\n");
    let scene = animkit_vm::engine::slap::SceneSim::with_index(std::sync::Arc::new(walk), 0).expect("scene");
    let old = p.replace_scene(scene).expect("a SLAP player takes the scene");
    assert_eq!(old.frame(), 10);
    assert_eq!((p.frame(), p.scene().map(|s| s.length())), (0, Some(300)));
    let back = p.into_scene().expect("the scene back");
    assert_eq!(back.length(), 300);

    let mut hud = Player::new(host.share_gl(), build("hud.draw", HUD), None, 8, 8).unwrap();
    assert!(hud.replace_scene(old).is_none(), "an Animator player has no scene");
}
