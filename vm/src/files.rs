//! The atomic file write that `animc`, `animvm` and the player's
//! `screenshot` share: an output file is either complete or untouched.
//! It lives here, the lowest crate the compiler and the player both depend
//! on (neither may depend on the other), as the steps both writers take;
//! what differs stays with each: the compiler's writer
//! (`animkit_compiler::files::write_atomic`) names its temporary files
//! `.NAME.tmpPID` then `.NAME.tmpPID-N`, removes those of dead processes
//! first, removes its own on `SIGINT`, `SIGTERM` and `SIGHUP`, and says
//! which temporary file it could not create; the player's
//! (`animkit_player::files::write_atomic`) names them `.NAME.tmpPID-N` and
//! does nothing more.
//!
//! ```
//! use animkit_vm::engine::files::{temp_place, write_directly, write_through};
//! let dir = std::env::temp_dir().join(format!("animkit-vm-files-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! let p = dir.join("out.bin");
//! assert!(write_directly(&p, b"data").is_none());
//! let (tmp_dir, name) = temp_place(&p);
//! assert_eq!((tmp_dir.as_path(), name.as_str()), (dir.as_path(), "out.bin"));
//! write_through(&p, &tmp_dir.join(".out.bin.tmp"), b"data", |e| e)?;
//! assert_eq!(std::fs::read(&p)?, b"data");
//! assert_eq!(std::fs::read_dir(&dir)?.count(), 1);
//! // Nowhere to create the temporary file: the error is `create_error`'s.
//! let e = write_through(&p, &dir.join("no/such/dir/.t"), b"x", |e| std::io::Error::new(e.kind(), "mine")).unwrap_err();
//! assert_eq!(e.to_string(), "mine");
//! assert_eq!(std::fs::read(&p)?, b"data");
//! assert_eq!(temp_place(std::path::Path::new("bare")), (std::path::PathBuf::from("."), "bare".to_string()));
//! std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), std::io::Error>(())
//! ```

use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` directly when `path` exists and is not a
/// regular file (`/dev/stdout`, a pipe, a terminal: such a target cannot be
/// replaced by a rename), and says how that went; `None` when `path` is to
/// be written through a temporary file ([`write_through`]).
pub fn write_directly(path: &Path, bytes: &[u8]) -> Option<std::io::Result<()>> {
    if !std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        return None;
    }
    Some((|| {
        let mut f = std::fs::OpenOptions::new().write(true).open(path)?;
        f.write_all(bytes)?;
        f.flush()
    })())
}

/// The directory the temporary file of `path` goes in (`path`'s, `.` for a
/// bare file name, so that the rename stays on one file system) and
/// `path`'s file name (`out` when it has none).
pub fn temp_place(path: &Path) -> (PathBuf, String) {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path.file_name().map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    (dir, name)
}

/// Writes `bytes` to the temporary file `tmp`, syncs it and renames it over
/// `path`; on any error `tmp` is removed. An error creating `tmp` goes
/// through `create_error` first (to say what was being created).
pub fn write_through(
    path: &Path,
    tmp: &Path,
    bytes: &[u8],
    create_error: impl FnOnce(std::io::Error) -> std::io::Error,
) -> std::io::Result<()> {
    let result = (|| {
        let mut f = std::fs::File::create(tmp).map_err(create_error)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        // Closed before the rename (on wasm32, where there are no files,
        // `File` has no `Drop`).
        #[cfg_attr(target_arch = "wasm32", allow(clippy::drop_non_drop))]
        drop(f);
        std::fs::rename(tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(tmp);
    }
    result
}
