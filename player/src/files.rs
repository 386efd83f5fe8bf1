//! The files an Animator program writes itself (`screenshot`,
//! `screendump` to a file): complete or absent, never partial.

use crate::render::{RenderError, RgbaImage};
use animkit_vm::engine::files;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// Writes `bytes` to `path` through a temporary file in the same directory
/// (`.NAME.tmpPID-N`) and a rename, so that `path` is the complete new file
/// or untouched; the temporary file is removed on failure. A `path` that
/// exists and is not a regular file (`/dev/stdout`, a pipe) is written
/// directly. The steps are `animkit_vm::engine::files`'s, shared with `animc`'s
/// writer (`animkit_compiler::files::write_atomic`, which `animvm` writes
/// through and which also removes temporary files left by killed
/// processes).
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let p = dir.path().join("shot.png");
/// animkit_player::files::write_atomic(&p, b"data").unwrap();
/// assert_eq!(std::fs::read(&p).unwrap(), b"data");
/// assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
/// ```
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), RenderError> {
    write(path, bytes).map_err(|source| RenderError::Io { path: path.to_path_buf(), source })
}

fn write(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(result) = files::write_directly(path, bytes) {
        return result;
    }
    static WRITES: AtomicU64 = AtomicU64::new(0);
    let (dir, name) = files::temp_place(path);
    let n = WRITES.fetch_add(1, Ordering::Relaxed);
    let tmp = dir.join(format!(".{name}.tmp{}-{n}", std::process::id()));
    files::write_through(path, &tmp, bytes, |e| e)
}

/// Encodes `image` as a PNG and writes it to `path` (see [`write_atomic`]).
pub fn save_png(image: &RgbaImage, path: impl AsRef<Path>) -> Result<(), RenderError> {
    write_atomic(path.as_ref(), &image.encode_png()?)
}
