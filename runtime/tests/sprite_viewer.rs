//! The sprite viewer, headless: each tick's frame is drawn from the
//! category's sheet cell, and `-d` writes one PNG per tick.

use animkit_runtime::host::files::save_png;
use animkit_runtime::render::RgbaImage;
use std::process::Command;

const COLOURS: [[u8; 4]; 4] = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 0, 255]];

#[test]
fn plays_a_state_from_its_sheet_at_one_frame_per_tick() {
    let dir = tempfile::tempdir().unwrap();
    // A 4x1 sheet of 8x8 cells, one solid colour each.
    let mut sheet = RgbaImage::new(32, 8, [0; 4]);
    for x in 0..32 {
        for y in 0..8 {
            sheet.set_pixel(x, y, COLOURS[(x / 8) as usize]);
        }
    }
    save_png(&sheet, dir.path().join("walk.png")).unwrap();
    std::fs::write(dir.path().join("hero.anim"), "Walk: 2, 1, 1|2, 3|step, _loop\nRun[Walk]: 1|3, _wait\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_animvm"))
        .args(["-H", "-x", "100", "-y", "80", "--ticks", "9", "-d", "frames/f", "--sheet", "Walk=walk.png:4x1"])
        .args(["--state", "Walk", "hero.anim"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // Frames: 0 0 1 2 3 3 3 0 0 (the 1|2 frame shows cell 2).
    let expected = [0, 0, 1, 2, 3, 3, 3, 0, 0];
    for (t, &cell) in expected.iter().enumerate() {
        let img = RgbaImage::load_png(dir.path().join(format!("frames/f{t:04}.png"))).unwrap();
        assert_eq!((img.width, img.height), (100, 80));
        assert_eq!(img.pixel(50, 40), Some(COLOURS[cell]), "tick {t}");
    }
    assert!(!dir.path().join("frames/f0009.png").exists());
    // A category without a sheet still plays (drawn as its frame number).
    let out = Command::new(env!("CARGO_BIN_EXE_animvm"))
        .args(["-H", "--ticks", "2", "--state", "Run", "hero.anim"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    let bad = Command::new(env!("CARGO_BIN_EXE_animvm"))
        .args(["-H", "--sheet", "Walk=walk.png", "hero.anim"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&bad.stderr),
        "animvm: --sheet `Walk=walk.png`: expected Category=sheet.png:COLSxROWS, e.g. Walk=walk.png:4x1\n"
    );
}

/// `animvm hero.json`: an Aseprite export plays with its own sheet, the
/// image `meta.image` names, cut by each frame's `frame` rectangle (here
/// unequal rectangles, out of grid order, that no COLSxROWS grid gives).
#[test]
fn plays_an_aseprite_export_from_its_frame_rectangles() {
    let dir = tempfile::tempdir().unwrap();
    // 24x8: red 0..8, green 8..20, blue 20..24.
    let mut sheet = RgbaImage::new(24, 8, [0; 4]);
    for x in 0..24 {
        for y in 0..8 {
            let c = if x < 8 {
                0
            } else if x < 20 {
                1
            } else {
                2
            };
            sheet.set_pixel(x, y, COLOURS[c]);
        }
    }
    std::fs::create_dir(dir.path().join("art")).unwrap();
    save_png(&sheet, dir.path().join("art/hero-sheet.png")).unwrap();
    // Frame 0 is the blue strip, 1 the green block, 2 the red square;
    // 40 ms a frame is 2 ticks of 20 ms; "Walk" ping-pongs 0 1 2 1.
    let json = r#"{ "frames": {
        "hero 0.ase": { "frame": { "x": 20, "y": 0, "w": 4, "h": 8 }, "rotated": false, "trimmed": false,
                        "spriteSourceSize": { "x": 0, "y": 0, "w": 4, "h": 8 }, "sourceSize": { "w": 4, "h": 8 }, "duration": 40 },
        "hero 1.ase": { "frame": { "x": 8, "y": 0, "w": 12, "h": 8 }, "duration": 40 },
        "hero 2.ase": { "frame": { "x": 0, "y": 0, "w": 8, "h": 8 }, "duration": 40 } },
      "meta": { "app": "https://www.aseprite.org/", "image": "hero-sheet.png", "format": "RGBA8888",
                "size": { "w": 24, "h": 8 }, "scale": "1",
                "frameTags": [ { "name": "Walk", "from": 0, "to": 2, "direction": "pingpong", "data": "step" } ] } }"#;
    std::fs::write(dir.path().join("art/hero.json"), json).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_animvm"))
        .args(["-H", "-x", "100", "-y", "80", "--ticks", "10", "-d", "frames/f", "art/hero.json"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    // Ticks: frames 0 0 1 1 2 2 1 1 0 0 -> blue blue green green red red ...
    let expected = [2, 2, 1, 1, 0, 0, 1, 1, 2, 2];
    for (t, &colour) in expected.iter().enumerate() {
        let img = RgbaImage::load_png(dir.path().join(format!("frames/f{t:04}.png"))).unwrap();
        assert_eq!(img.pixel(50, 40), Some(COLOURS[colour]), "tick {t}");
    }
    // The same export traced: its events are the tag's user data.
    let out = Command::new(env!("CARGO_BIN_EXE_animvm"))
        .args(["--trace", "--ticks", "1", "art/hero.json"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "{\"tick\":0,\"state\":\"Walk\",\"category\":\"hero_sheet\",\"frame\":0,\"events\":[\"step\"]}\n"
    );
    // A rectangle outside the image is refused, naming it.
    std::fs::write(
        dir.path().join("art/hero.json"),
        json.replace("\"x\": 20, \"y\": 0, \"w\": 4", "\"x\": 22, \"y\": 0, \"w\": 4"),
    )
    .unwrap();
    let bad = Command::new(env!("CARGO_BIN_EXE_animvm"))
        .args(["-H", "--ticks", "1", "art/hero.json"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&bad.stderr),
        "animvm: art/hero-sheet.png: frame 0's rectangle 4x8 at (22, 0) is not inside the 24x8 image\n"
    );
}
