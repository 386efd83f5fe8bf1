//! `animvm -H scene.slap`: the scene's frames drawn without a window.
//! `--start F` (default 0) is the first frame drawn, `--frames N` how many
//! (default: up to the scene's length, inclusive); `-d head` writes each as
//! `headFFFF.png` (`FFFF` the frame's number in the scene, so `--start`
//! does not renumber them), `--gif FILE` all of them as one looping GIF at
//! `--fps`. Every file is written atomically; a progress bar shows on a
//! terminal. The scene runs from frame 0 whatever the start (seeking runs
//! only its time points), so frame F is the same picture either way.

use super::view::SceneView;
use super::{ErrorLog, SlapOptions};
use crate::host::files::{self, create_parent_dir, frame_path};
use crate::host::gif::{GifWriter, delay_cs};
use crate::host::progress::Progress;
use crate::render::{HeadlessGl, RgbaImage};
use animkit_vm::slap::Scene;
use std::io::Write;
use std::path::Path;

/// Frames sampled to learn a GIF's shared palette.
const PALETTE_SAMPLES: u64 = 8;

/// The frames drawn: the first and how many, for a scene of `length`.
///
/// ```
/// use animkit_runtime::slap::{SlapOptions, headless::frame_range};
/// let o = SlapOptions::default();
/// assert_eq!(frame_range(&o, 1500), (0, 1501)); // the whole scene
/// let o = SlapOptions { start: 100, frames: Some(3), ..o };
/// assert_eq!(frame_range(&o, 1500), (100, 3));
/// let o = SlapOptions { frames: None, start: 2000, ..o };
/// assert_eq!(frame_range(&o, 1500), (2000, 1)); // past the end: one frame
/// ```
pub fn frame_range(options: &SlapOptions, length: u64) -> (u64, u64) {
    let first = options.start;
    let count = options.frames.unwrap_or_else(|| length.saturating_sub(first).saturating_add(1));
    (first, count)
}

/// Draws the frames `options` ask for and writes them; returns the number
/// of runtime errors reported.
pub fn run(options: &SlapOptions, mut scene: Scene, stderr: &mut dyn Write) -> Result<usize, String> {
    let (w, h) = (options.width, options.height);
    let mut renderer = HeadlessGl::new(w, h)
        .and_then(|gl| gl.into_renderer())
        .map_err(|e| format!("animvm: cannot start headless OpenGL: {e}\n"))?;
    let mut view = SceneView::new(&mut renderer).map_err(|e| format!("animvm: cannot draw the scene: {e}\n"))?;
    let (first, count) = frame_range(options, scene.length());
    let draw_err = |e| format!("animvm: cannot draw the scene: {e}\n");
    let mut gif = match &options.gif {
        None => None,
        Some(_) => {
            // Learn the palette from frames spread over the range; then start over.
            let mut samples = Vec::new();
            for k in 0..PALETTE_SAMPLES.min(count) {
                scene.seek(first + k * count / PALETTE_SAMPLES.min(count));
                view.draw_scene(&mut renderer, &scene).map_err(draw_err)?;
                samples.push(renderer.read_pixels());
            }
            scene.restart();
            Some(GifWriter::with_palette_of(w, h, &samples).map_err(|e| format!("animvm: {e}\n"))?)
        }
    };
    let label = match (&options.gif, &options.dump_head) {
        (Some(g), _) => g.clone(),
        (None, Some(d)) => format!("{d}FFFF.png"),
        (None, None) => String::new(),
    };
    let mut progress = Progress::new(label, count);
    let writes = gif.is_some() || options.dump_head.is_some();
    let mut errors = ErrorLog::default();
    if let Some(head) = &options.dump_head {
        create_parent_dir(&frame_path(head, first)).map_err(|e| format!("animvm: {e}\n"))?;
    }
    scene.seek(first);
    for k in 0..count {
        if k > 0 {
            scene.step();
        }
        errors.report(&scene, stderr);
        view.draw_scene(&mut renderer, &scene).map_err(draw_err)?;
        if !writes {
            continue;
        }
        let image: RgbaImage = renderer.read_pixels();
        if let Some(head) = &options.dump_head {
            let path = frame_path(head, scene.frame());
            files::save_png(&image, &path).map_err(|e| format!("animvm: cannot write `{path}`: {e}\n"))?;
        }
        if let Some(g) = gif.as_mut() {
            g.add(&image, delay_cs(k, options.fps)).map_err(|e| format!("animvm: {e}\n"))?;
        }
        progress.update(k + 1);
    }
    progress.finish();
    if let (Some(g), Some(path)) = (gif, &options.gif) {
        let bytes = g.finish().map_err(|e| format!("animvm: {e}\n"))?;
        files::write_atomic(Path::new(path), &bytes).map_err(|e| format!("animvm: cannot write `{path}`: {e}\n"))?;
    }
    errors.finish(&scene, stderr);
    Ok(errors.count())
}
