//! The files an Animator program writes itself (`screenshot`,
//! `screendump` to a file): complete or absent, never partial.

use crate::render::{RenderError, RgbaImage};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Writes `bytes` to `path` through a temporary file in the same directory
/// (`.NAME.tmpPID-N`) and a rename, so that `path` is the complete new file
/// or untouched; the temporary file is removed on failure. A `path` that
/// exists and is not a regular file (`/dev/stdout`, a pipe) is written
/// directly. (`animvm` writes through `animkit_compiler::files::write_atomic`,
/// which also removes temporary files left by killed processes.)
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
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        let mut f = std::fs::OpenOptions::new().write(true).open(path)?;
        f.write_all(bytes)?;
        return f.flush();
    }
    static WRITES: AtomicU64 = AtomicU64::new(0);
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path.file_name().map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    let n = WRITES.fetch_add(1, Ordering::Relaxed);
    let tmp = dir.join(format!(".{name}.tmp{}-{n}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Encodes `image` as a PNG and writes it to `path` (see [`write_atomic`]).
pub fn save_png(image: &RgbaImage, path: impl AsRef<Path>) -> Result<(), RenderError> {
    write_atomic(path.as_ref(), &image.encode_png()?)
}
