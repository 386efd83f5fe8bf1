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
