//! Writing output files atomically, for `animc` and `animvm` alike: a
//! bundle, a screenshot or a `-d` frame is either complete or absent.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Writes `bytes` to `path` through a temporary file in the same directory
/// and a rename, so that `path` is either the complete new file or
/// untouched, and no partial file is left behind on failure.
///
/// The temporary file is `.NAME.tmpPID` next to `path` (`NAME` its file
/// name, `PID` this process's id) for a process's first write and
/// `.NAME.tmpPID-N` for its later ones; it is written, synced, then renamed
/// over `path`, and any error removes it. Only a process killed between
/// creating and renaming it (`SIGKILL`, a power cut) can leave one behind:
/// every later `write_atomic` to the same `path` first removes the
/// temporary files whose process no longer runs (on systems with `/proc`;
/// elsewhere they stay until removed by hand).
///
/// If `path` exists and is not a regular file (`/dev/stdout`, a pipe, a
/// terminal), the bytes are written to it directly, since such a target
/// cannot be replaced by a rename.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let p = dir.path().join("out.animb");
/// animkit_compiler::files::write_atomic(&p, b"data").unwrap();
/// assert_eq!(std::fs::read(&p).unwrap(), b"data");
/// assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
/// ```
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Ok(meta) = std::fs::metadata(path) {
        if !meta.is_file() {
            let mut f = std::fs::OpenOptions::new().write(true).open(path)?;
            f.write_all(bytes)?;
            return f.flush();
        }
    }
    static WRITES: AtomicU64 = AtomicU64::new(0);
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path.file_name().map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    remove_stale_temps(&dir, &name);
    let tmp = match WRITES.fetch_add(1, Ordering::Relaxed) {
        0 => dir.join(format!(".{name}.tmp{}", std::process::id())),
        n => dir.join(format!(".{name}.tmp{}-{n}", std::process::id())),
    };
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

/// Removes the `.NAME.tmpPID` and `.NAME.tmpPID-N` files in `dir` left by
/// [`write_atomic`] in processes that no longer run. Errors are ignored:
/// this is housekeeping, and the write itself does not depend on it.
pub fn remove_stale_temps(dir: &Path, name: &str) {
    // Without /proc there is no way to tell a dead process from a live one.
    if !Path::new("/proc/self").exists() {
        return;
    }
    let prefix = format!(".{name}.tmp");
    let digits = |s: &str| !s.is_empty() && s.len() <= 20 && s.bytes().all(|b| b.is_ascii_digit());
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(rest) = file.to_str().and_then(|f| f.strip_prefix(&prefix)) else { continue };
        let (pid, n) = rest.split_once('-').unwrap_or((rest, "0"));
        if digits(pid) && pid.len() <= 10 && digits(n) && !Path::new("/proc").join(pid).exists() {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}
