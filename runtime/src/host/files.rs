//! Files `animvm` writes: screenshots, `-d` frames and screendumps. The
//! renderer hands over bytes (PNG, raw dumps) and knows nothing of files;
//! they are written here, through the atomic writer `animc` uses too
//! ([`animkit_compiler::files::write_atomic`]), so a failure never leaves a
//! partial file behind.

use crate::render::{RenderError, RgbaImage};
use std::path::Path;

/// Writes `bytes` to `path` so that the file is either fully written or left
/// as it was (see [`animkit_compiler::files::write_atomic`], shared with
/// `animc`); errors name `path`, not the temporary file.
///
/// ```no_run
/// animkit_runtime::host::files::write_atomic("frame.png".as_ref(), b"...")?;
/// # Ok::<(), animkit_runtime::render::RenderError>(())
/// ```
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), RenderError> {
    animkit_compiler::files::write_atomic(path, bytes)
        .map_err(|source| RenderError::Io { path: path.to_path_buf(), source })
}

/// Encodes `image` as a PNG and writes it to `path` atomically (see
/// [`write_atomic`]; `/dev/stdout` and other files that are not regular
/// files are written directly).
///
/// ```no_run
/// use animkit_runtime::{host::files::save_png, render::RgbaImage};
/// save_png(&RgbaImage::new(4, 4, [0, 0, 0, 255]), "out.png")?;
/// # Ok::<(), animkit_runtime::render::RenderError>(())
/// ```
pub fn save_png(image: &RgbaImage, path: impl AsRef<Path>) -> Result<(), RenderError> {
    let bytes = image.encode_png()?;
    write_atomic(path.as_ref(), &bytes)
}

/// The file of frame `n` for a `-d head` prefix: `headNNNN.png`.
///
/// ```
/// assert_eq!(animkit_runtime::host::files::frame_path("out/f", 7), "out/f0007.png");
/// ```
pub fn frame_path(head: &str, n: u64) -> String {
    format!("{head}{n:04}.png")
}

/// Creates the directory a `-d head` prefix points into, if needed.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let head = dir.path().join("frames/f");
/// animkit_runtime::host::files::create_parent_dir(head.to_str().unwrap()).unwrap();
/// assert!(dir.path().join("frames").is_dir());
/// ```
pub fn create_parent_dir(path: &str) -> Result<(), FolderError> {
    match Path::new(path).parent() {
        Some(dir) if !dir.as_os_str().is_empty() && !dir.exists() => std::fs::create_dir_all(dir)
            .map_err(|e| FolderError { dir: dir.display().to_string(), kind: e.kind(), reason: e.to_string() }),
        _ => Ok(()),
    }
}

/// A folder [`create_parent_dir`] could not make.
///
/// ```
/// use animkit_runtime::host::files::{FolderError, create_parent_dir};
/// let dir = tempfile::tempdir().unwrap();
/// let file = dir.path().join("file");
/// std::fs::write(&file, b"").unwrap();
/// let head = file.join("frames/f");
/// let err: FolderError = create_parent_dir(head.to_str().unwrap()).unwrap_err();
/// assert_eq!(err.dir, file.join("frames").display().to_string());
/// assert!(err.to_string().starts_with(&format!("cannot create `{}`: ", err.dir)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot create `{dir}`: {reason}")]
pub struct FolderError {
    /// The folder.
    pub dir: String,
    /// What the OS said.
    pub kind: std::io::ErrorKind,
    /// Why, as the OS said it.
    pub reason: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stale_temporary_files_of_dead_processes_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let mine = format!(".a.png.tmp{}-999999", std::process::id());
        for name in [".a.png.tmp4194305-3", mine.as_str(), ".a.png.tmp4194305", ".b.png.tmp4194305-3"] {
            std::fs::write(dir.path().join(name), b"junk").unwrap();
        }
        write_atomic(&dir.path().join("a.png"), b"png").unwrap();
        let mut left: Vec<String> =
            std::fs::read_dir(dir.path()).unwrap().flatten().map(|e| e.file_name().into_string().unwrap()).collect();
        left.sort();
        // `.a.png.tmp4194305` is a temporary name of the shared writer too
        // (a process's first write), so a dead process's one goes as well.
        let mut expected = vec![mine, ".b.png.tmp4194305-3".into(), "a.png".into()];
        expected.sort();
        assert_eq!(left, expected);
    }

    #[test]
    fn write_atomic_replaces_files_and_writes_devices_directly() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.bin");
        write_atomic(&p, b"first").unwrap();
        write_atomic(&p, b"second").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"second");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        write_atomic(Path::new("/dev/null"), b"discarded").unwrap();
    }
}
