//! Frames drawn in the page against `animvm -H -d`'s, shared by
//! `browser.rs` (the player's page) and `playground.rs` (the playground's
//! player): the tolerance, the comparisons and `animvm`'s frames.

use animkit_runtime::render::RgbaImage;
use std::path::Path;
use std::process::Command;

/// How far a frame drawn by SwiftShader (Chromium's software WebGL2) may
/// be from llvmpipe's (Mesa's, under `animvm -H`), for Animator and SLAP:
/// a pixel matches when a pixel of the other frame within one pixel of it
/// (its 3x3 neighbourhood) is within [`DELTA`] in every channel, and at
/// most this share of the pixels (either way) may match nothing. Both
/// rasterize the same triangles from the same vertex buffers with the
/// same shaders; they differ in the coverage of pixels whose centre lies
/// on an edge (a whole row of the SLAP ground's checkers flips where a
/// checker line projects onto pixel centres), in dash patterns at a step
/// boundary and in the float-to-8-bit rounding of blends and lighting
/// (docs/web.md has the measured figures: at most 0.016 %, 3 pixels of
/// 19 200).
pub const TOLERANCE: f64 = 0.001;
/// See [`TOLERANCE`].
pub const DELTA: u8 = 24;

/// Pixels of either frame that match no pixel of the other (see
/// [`TOLERANCE`]).
pub fn unmatched(a: &[u8], b: &[u8], w: u32, h: u32) -> usize {
    let (w, h) = (i64::from(w), i64::from(h));
    let at = |img: &[u8], x: i64, y: i64| {
        let i = ((y * w + x) * 4) as usize;
        [img[i], img[i + 1], img[i + 2]]
    };
    let mut bad = 0;
    for y in 0..h {
        for x in 0..w {
            let one_way = |p: &[u8], q: &[u8]| {
                let c = at(p, x, y);
                (-1..=1).any(|dy| {
                    (-1..=1).any(|dx| {
                        let (u, v) = (x + dx, y + dy);
                        (0..w).contains(&u)
                            && (0..h).contains(&v)
                            && at(q, u, v).iter().zip(c).all(|(m, n)| m.abs_diff(n) <= DELTA)
                    })
                })
            };
            if !one_way(a, b) || !one_way(b, a) {
                bad += 1;
            }
        }
    }
    bad
}

/// Whether `web` is within [`TOLERANCE`] of `native` (`w` x `h`): the
/// count of unmatched pixels, and the verdict.
pub fn within_tolerance(native: &[u8], web: &[u8], w: u32, h: u32) -> (usize, bool) {
    let bad = unmatched(native, web, w, h);
    (bad, bad as f64 <= TOLERANCE * f64::from(w * h))
}

/// Differences between two frames: (pixels that differ, largest channel
/// difference).
pub fn diff(a: &RgbaImage, b: &[u8]) -> (usize, u8) {
    assert_eq!(a.data.len(), b.len());
    let mut n = 0;
    let mut max = 0;
    for (p, q) in a.data.chunks_exact(4).zip(b.chunks_exact(4)) {
        let d = p.iter().zip(q).map(|(x, y)| x.abs_diff(*y)).max().unwrap_or(0);
        if d > 0 {
            n += 1;
            max = max.max(d);
        }
    }
    (n, max)
}

/// `animvm -H -x W -y H -d` on `file` (a bundle or a source of
/// `language`: `sprite`, `slap` or `animator`), run in `dir`: its frames
/// `frames` as images. Sprites run `--ticks` (the last frame + 1), SLAP
/// `--frames` from 0 as many, Animator every flush.
pub fn animvm_frames(
    animvm: &Path,
    file: &Path,
    language: &str,
    frames: &[u64],
    (w, h): (u32, u32),
    dir: &Path,
) -> Vec<RgbaImage> {
    let stem = file.file_stem().expect("a file name").to_string_lossy();
    let head = dir.join(format!("{stem}-{language}-"));
    let head = head.to_str().expect("a UTF-8 path");
    let last = frames.iter().copied().max().expect("some frames");
    let count = (last + 1).to_string();
    let (w_arg, h_arg) = (w.to_string(), h.to_string());
    let mut args = vec!["-H", "-x", &w_arg, "-y", &h_arg];
    match language {
        "sprite" => args.extend(["--ticks", &count]),
        "slap" => args.extend(["--frames", &count]),
        "animator" => {}
        other => panic!("no language {other}"),
    }
    args.extend(["-d", head, file.to_str().expect("a UTF-8 path")]);
    let out = Command::new(animvm).args(&args).current_dir(dir).output().expect("animvm runs");
    assert!(out.status.success(), "animvm {args:?}: {out:?}");
    frames
        .iter()
        .map(|&f| {
            let png = animkit_runtime::host::sink::padded_frame_path(head, f, last.max(1));
            let bytes = std::fs::read(&png).unwrap_or_else(|e| panic!("{png}: {e}"));
            RgbaImage::decode_png(&bytes).unwrap_or_else(|e| panic!("{png}: {e}"))
        })
        .collect()
}

/// With `ANIMKIT_WEB_DUMP=DIR`: both frames of a comparison as PNGs
/// (`STEM-web.png`, `STEM-animvm.png`), to look at a difference.
pub fn dump(stem: &str, native: &RgbaImage, web: &[u8]) {
    let Some(dir) = std::env::var_os("ANIMKIT_WEB_DUMP") else { return };
    let dir = Path::new(&dir);
    let _ = std::fs::create_dir_all(dir);
    let web = RgbaImage { width: native.width, height: native.height, data: web.to_vec() };
    std::fs::write(dir.join(format!("{stem}-web.png")), web.encode_png().expect("a PNG")).expect("written");
    std::fs::write(dir.join(format!("{stem}-animvm.png")), native.encode_png().expect("a PNG")).expect("written");
}
