//! The Player through the C ABI: `tests/c/player.c`, a C "game" with its
//! own headless EGL context (the device platform, surfaceless) and its own
//! framebuffer object, plays the SLAP scene `story` and the Animator HUD
//! of a bundle built by `animc` (`examples/hero.anim`,
//! `examples/story.slap`, `runtime/examples/hud.draw`) into that
//! framebuffer and writes it out. Its pixels: inside each viewport,
//! `animvm -H`'s frame of the same module at the same size and frame
//! (within [`TOLERANCE`]); outside, the game's clear colour, exactly. Its
//! output: the frame reached, the game's GL state kept after every call,
//! and every refusal's status and message.
//!
//! Linked statically, dynamically and (where `cc` has them) under
//! AddressSanitizer and UBSan. Skipped with a note when the EGL headers or
//! `libEGL.so` are missing (Debian: `libegl-dev`).

use crate::common;

use common::{Link, build_c_with, repo_dir, run, run_ok, sanitizers_work, tool};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The per-channel difference allowed against `animvm -H`'s frames (the
/// Animator goldens' and `slap_poses`' tolerance).
const TOLERANCE: u8 = 3;

/// The game's framebuffer (`player.c`'s `W` x `H`) and clear colour.
const W: usize = 64;
const H: usize = 48;
const GAME: [u8; 3] = [10, 20, 200];

/// What `player.c` prints (the GL version goes to standard error).
const EXPECTED: &str = "\
after new: game state kept, GL error 0x0
story: kind 2, frame 60
after the cutscene's draw: game state kept, GL error 0x0
after the HUD's draw: game state kept, GL error 0x0
hud: kind 1, finished 0
hud output:
PRESS 1 0 0 hud
RELEASE 1 0 0 hud
KEYDOWN 0 97 a
unknown module: no such module | animkit_player_new: no module named `huds` in the bundle; did you mean `hud`?
sprite module: module of another kind | animkit_player_new: a sprite module is drawn by the game (animkit_vm::engine::sprite), not the player
zero width: invalid argument | animkit_player_new: cannot draw 0x8 pictures (1 to 8192 pixels a side)
NULL loader: null pointer | animkit_player_new: `get_proc_address` is NULL
empty loader: GL context unusable | animkit_player_new: the loader gives no `glGetString`
NULL bundle: null pointer | animkit_player_new: `bundle` is NULL
NULL out: null pointer | animkit_player_new: `out_player` is NULL
no current context: GL context unusable | animkit_player_new: glGetString(GL_VERSION) is NULL: no GL context is current on this thread
seek the HUD: module of another kind | animkit_player_seek: seek: an Animator program plays on the clock (update)
seek too far: index out of range | animkit_player_seek: frame 18446744073709551615 is past the last frame animvm plays (4294967295)
draw into 4242: invalid argument | animkit_player_draw: 4242 is not a framebuffer object of the current context
negative dt: invalid argument | animkit_player_update: dt -1 is not a time of 0 s or more
speed 65: invalid argument | animkit_player_set_speed: speed 65 is not from 0 to 64
viewport 0: invalid argument | animkit_player_set_viewport: cannot draw 0x24 pictures (1 to 8192 pixels a side)
button 0: invalid argument | animkit_player_pointer_button: button 0 is not 1 to 32
key with a space: invalid argument | animkit_player_key: `a b` (3 bytes) is not a key name (1 to 64 bytes, no spaces)
a bundle as a player: wrong handle | animkit_player_update: `player` is not an AnimkitPlayer: it is an AnimkitBundle
frame NULL: null pointer | animkit_player_frame: `out_frame` is NULL
the refusals drew nothing: frame 60
after the refusals: game state kept, GL error 0x0
GL error at the end: 0x0
";

/// Whether a C program can include `<EGL/egl.h>` and link `-lEGL` here.
fn egl_builds(dir: &Path) -> Result<(), String> {
    let src = dir.join("egl_probe.c");
    std::fs::write(
        &src,
        "#include <EGL/egl.h>\n#include <EGL/eglext.h>\n\
         int main(void) { return eglGetProcAddress(\"eglQueryDevicesEXT\") == 0; }\n",
    )
    .map_err(|e| e.to_string())?;
    let out = run(Command::new(common::cc()).arg(&src).arg("-o").arg(dir.join("egl_probe")).arg("-lEGL"));
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    Ok(())
}

/// `animc examples/hero.anim examples/story.slap runtime/examples/hud.draw`.
fn game_bundle(dir: &Path) -> PathBuf {
    let out = dir.join("game.animb");
    let root = repo_dir();
    run_ok(
        Command::new(tool("animc"))
            .arg(root.join("examples/hero.anim"))
            .arg(root.join("examples/story.slap"))
            .arg(root.join("runtime/examples/hud.draw"))
            .arg("-o")
            .arg(&out),
    );
    out
}

/// `runtime/examples/hud.draw` without its last line, `sleep 1000000`
/// (headless, animvm would wait it out), compiled alone: the picture its
/// one `flush` shows is the same.
fn hud_without_its_wait(dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(repo_dir().join("runtime/examples/hud.draw")).expect("hud.draw");
    let kept = text.strip_suffix("sleep 1000000\n").expect("hud.draw ends with its wait");
    let source = dir.join("hud.draw");
    std::fs::write(&source, kept).expect("a copy of hud.draw");
    let out = dir.join("hud.animb");
    run_ok(Command::new(tool("animc")).arg(&source).arg("-o").arg(&out));
    out
}

/// The frame `animvm -H ARGS -d DIR/HEAD BUNDLE` writes first, as RGBA.
fn animvm_frame(dir: &Path, bundle: &Path, head: &str, args: &[&str]) -> animkit_player::render::RgbaImage {
    let frames = dir.join(head);
    std::fs::create_dir_all(&frames).expect("a frames dir");
    run_ok(Command::new(tool("animvm")).arg("-H").args(args).arg("-d").arg(frames.join("f")).arg(bundle));
    let mut files: Vec<_> =
        std::fs::read_dir(&frames).expect("the frames").map(|e| e.expect("an entry").path()).collect();
    files.sort();
    let first = files.first().unwrap_or_else(|| panic!("animvm -H {args:?} wrote no frame"));
    animkit_player::render::RgbaImage::load_png(first).expect("animvm's PNG")
}

/// A P6 PPM's pixels, top row first.
fn read_ppm(path: &Path) -> Vec<[u8; 3]> {
    let bytes = std::fs::read(path).expect("player.c's PPM");
    let header = format!("P6\n{W} {H}\n255\n");
    assert!(bytes.starts_with(header.as_bytes()), "a {W}x{H} PPM");
    let body = &bytes[header.len()..];
    assert_eq!(body.len(), W * H * 3);
    body.chunks(3).map(|p| [p[0], p[1], p[2]]).collect()
}

/// Checks the game's framebuffer: `pictures` (viewport x, y from the
/// bottom-left, and the picture) inside, the game's colour outside.
fn check(pixels: &[[u8; 3]], pictures: &[(usize, usize, &animkit_player::render::RgbaImage)]) {
    let mut inside = 0;
    let mut worst = 0;
    for row in 0..H {
        for col in 0..W {
            let p = pixels[row * W + col];
            let at = pictures.iter().find_map(|&(x, y, pic)| {
                let (pw, ph) = (pic.width as usize, pic.height as usize);
                let top = H - y - ph;
                ((x..x + pw).contains(&col) && (top..top + ph).contains(&row))
                    .then(|| pic.pixel((col - x) as u32, (row - top) as u32).expect("in the picture"))
            });
            match at {
                Some(q) => {
                    let d = (0..3).map(|i| p[i].abs_diff(q[i])).max().unwrap_or(0);
                    assert!(d <= TOLERANCE, "pixel ({col}, {row}): C {p:?}, animvm {q:?}");
                    worst = worst.max(d);
                    inside += 1;
                }
                None => assert_eq!(p, GAME, "pixel ({col}, {row}) outside the viewports"),
            }
        }
    }
    assert_eq!(inside, pictures.iter().map(|(_, _, p)| (p.width * p.height) as usize).sum::<usize>());
    eprintln!("player.c against animvm -H: {inside} pixels, largest difference {worst}");
}

fn play(dir: &Path, link: Link, env: &[(&str, &str)]) {
    let bundle = game_bundle(dir);
    let exe = build_c_with(dir, "player.c", link, &["-lEGL"]);
    let ppm = dir.join(format!("game-{link:?}.ppm"));
    let out = run(Command::new(&exe).arg(&bundle).arg(&ppm).envs(env.iter().copied()));
    assert!(out.status.success(), "player.c ({link:?}) failed: {}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout), EXPECTED, "{link:?}");

    let story = animvm_frame(dir, &bundle, "story", &["--module", "story", "-x", "32", "-y", "24", "--start", "60"]);
    let hud = animvm_frame(dir, &hud_without_its_wait(dir), "hud", &["-x", "20", "-y", "10"]);
    assert_ne!(story.pixel(16, 0), story.pixel(16, 23), "sky above, ground below");
    assert_eq!(hud.pixel(0, 0), Some([0x20, 0x30, 0x60, 255]), "the HUD's background");
    check(&read_ppm(&ppm), &[(8, 6, &story), (40, 30, &hud)]);
}

#[test]
fn a_c_game_plays_a_bundles_scene_and_hud_into_its_framebuffer() {
    let dir = tempfile::tempdir().expect("a temp dir");
    if let Err(e) = egl_builds(dir.path()) {
        eprintln!("note: player.c is skipped: the EGL headers or libEGL.so are missing (libegl-dev): {e}");
        return;
    }
    play(dir.path(), Link::Static, &[]);
    play(dir.path(), Link::Dynamic, &[]);
}

#[test]
fn the_c_player_under_sanitizers() {
    let dir = tempfile::tempdir().expect("a temp dir");
    if let Err(e) = egl_builds(dir.path()) {
        eprintln!("note: player.c is skipped: the EGL headers or libEGL.so are missing (libegl-dev): {e}");
        return;
    }
    if let Err(e) = sanitizers_work(dir.path()) {
        eprintln!("note: player.c under the sanitizers is skipped: {e}");
        return;
    }
    // Mesa keeps allocations until exit: leaks are not this test's subject.
    play(dir.path(), Link::Sanitized, &[("ASAN_OPTIONS", "detect_leaks=0")]);
}
