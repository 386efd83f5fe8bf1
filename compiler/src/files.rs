//! Writing output files atomically, for `animc` and `animvm` alike: a
//! bundle, a screenshot or a `-d` frame is either complete or absent.

use animkit_vm::engine::files;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// Writes `bytes` to `path` through a temporary file in the same directory
/// and a rename, so that `path` is either the complete new file or
/// untouched, and no partial file is left behind on failure.
///
/// The temporary file is `.NAME.tmpPID` next to `path` (`NAME` its file
/// name, `PID` this process's id) for a process's first write and
/// `.NAME.tmpPID-N` for its later ones; it is written, synced, then renamed
/// over `path`, and any error removes it. Only a process killed between
/// creating and renaming it by a signal it cannot catch (`SIGKILL`, a
/// power cut) can leave one behind (`SIGINT`, `SIGTERM` and `SIGHUP`
/// remove it first: see [`crate::interrupt`]):
/// every later `write_atomic` to the same `path` first removes the
/// temporary files whose process no longer runs (on systems with `/proc`;
/// elsewhere they stay until removed by hand).
///
/// If `path` exists and is not a regular file (`/dev/stdout`, a pipe, a
/// terminal), the bytes are written to it directly, since such a target
/// cannot be replaced by a rename.
///
/// The steps are `animkit_vm::engine::files`'s, shared with the player's writer
/// for `screenshot`; the names, the sweep, the guard and the message are
/// this writer's own.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let p = dir.path().join("out.animb");
/// animkit_compiler::files::write_atomic(&p, b"data").unwrap();
/// assert_eq!(std::fs::read(&p).unwrap(), b"data");
/// assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
/// ```
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(result) = files::write_directly(path, bytes) {
        return result;
    }
    static WRITES: AtomicU64 = AtomicU64::new(0);
    let (dir, name) = files::temp_place(path);
    remove_stale_temps(&dir, &name);
    let tmp = match WRITES.fetch_add(1, Ordering::Relaxed) {
        0 => dir.join(format!(".{name}.tmp{}", std::process::id())),
        n => dir.join(format!(".{name}.tmp{}-{n}", std::process::id())),
    };
    let guard = crate::interrupt::TempGuard::arm(&tmp);
    let result = files::write_through(path, &tmp, bytes, |e| temp_error(e, &dir, &tmp));
    drop(guard);
    result
}

/// The error of creating the temporary file `tmp` in `dir`. Where `dir`
/// is a directory, the plain error would be false about the target (`-o
/// /proc/version`: the file exists, but `/proc` takes no new file, and the
/// error is "No such file or directory"), so it says what was created.
fn temp_error(e: std::io::Error, dir: &Path, tmp: &Path) -> std::io::Error {
    if !dir.is_dir() {
        return e;
    }
    let what = format!(
        "cannot create the temporary file `{}` beside it (an output is written through a temporary file in its directory, then renamed): {e}",
        tmp.display()
    );
    std::io::Error::new(e.kind(), what)
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

/// Why [`read_limited`] returned no bytes.
#[derive(Debug)]
pub enum ReadError {
    /// The file could not be opened or read.
    Io(std::io::Error),
    /// The file holds more than `limit` bytes: `size` is its length when
    /// known (a regular file), `None` when it was found by reading one
    /// byte too many (a pipe, a device).
    TooBig { size: Option<u64>, limit: u64 },
}

impl ReadError {
    /// The error as `animc` and `animvm` print it, naming `what` (a file,
    /// `standard input`).
    ///
    /// ```
    /// use animkit_compiler::files::ReadError;
    /// let e = ReadError::TooBig { size: Some(100_000_000), limit: 67_108_864 };
    /// assert_eq!(
    ///     e.message("`big.slap`"),
    ///     "error: `big.slap` is 100000000 bytes, more than the 67108864 bytes (64 MiB) a source may have\n"
    /// );
    /// ```
    pub fn message(&self, what: &str) -> String {
        self.message_for(what, "a source")
    }

    /// [`message`](Self::message) for a file that is not source text:
    /// `noun` names what the limit is for (`a bundle`).
    ///
    /// ```
    /// use animkit_compiler::files::ReadError;
    /// let e = ReadError::TooBig { size: Some(1 << 30), limit: 268_435_476 };
    /// assert_eq!(
    ///     e.message_for("`big.animb`", "a bundle"),
    ///     "error: `big.animb` is 1073741824 bytes, more than the 268435476 bytes a bundle may have\n"
    /// );
    /// ```
    pub fn message_for(&self, what: &str, noun: &str) -> String {
        let mib = |n: u64| if n % (1 << 20) == 0 { format!(" ({} MiB)", n >> 20) } else { String::new() };
        match self {
            ReadError::Io(e) => format!("error: cannot read {what}: {e}\n"),
            ReadError::TooBig { size: Some(n), limit } => {
                format!("error: {what} is {n} bytes, more than the {limit} bytes{} {noun} may have\n", mib(*limit))
            }
            ReadError::TooBig { size: None, limit } => {
                format!("error: {what} has more than the {limit} bytes{} {noun} may have\n", mib(*limit))
            }
        }
    }
}

/// Reads at most `limit` bytes from `reader`: more is an error found by
/// reading one byte past the limit, so nothing larger than `limit + 1`
/// bytes is ever held, whatever the reader would go on giving.
///
/// ```
/// use animkit_compiler::files::{ReadError, read_to_limit};
/// assert_eq!(read_to_limit(&mut &b"four"[..], 4).unwrap(), b"four");
/// assert!(matches!(read_to_limit(&mut std::io::repeat(0), 4), Err(ReadError::TooBig { size: None, limit: 4 })));
/// ```
pub fn read_to_limit(reader: &mut dyn std::io::Read, limit: u64) -> Result<Vec<u8>, ReadError> {
    read_more(reader, Vec::new(), limit, None)
}

fn read_more(
    reader: &mut dyn std::io::Read,
    mut buf: Vec<u8>,
    limit: u64,
    size: Option<u64>,
) -> Result<Vec<u8>, ReadError> {
    use std::io::Read;
    let have = buf.len() as u64;
    buf.reserve(size.unwrap_or(0).min(limit).saturating_sub(have) as usize);
    reader.take((limit + 1).saturating_sub(have)).read_to_end(&mut buf).map_err(ReadError::Io)?;
    if buf.len() as u64 > limit {
        return Err(ReadError::TooBig { size, limit });
    }
    Ok(buf)
}

/// Reads the file at `path`, refusing one larger than the limit that
/// `limit_for` gives for its first bytes (at most 8: enough to tell a
/// bundle's magic bytes from source text). A regular file's size is
/// checked before anything more is read; any other file (a pipe,
/// `/dev/zero`) is read to one byte past the limit at most.
///
/// ```
/// use animkit_compiler::files::{ReadError, read_limited};
/// let dir = tempfile::tempdir().unwrap();
/// let p = dir.path().join("a.slap");
/// std::fs::write(&p, "time 3\n").unwrap();
/// assert_eq!(read_limited(&p, |_| 7).unwrap(), b"time 3\n");
/// assert!(matches!(read_limited(&p, |_| 6), Err(ReadError::TooBig { size: Some(7), limit: 6 })));
/// ```
pub fn read_limited(path: &Path, limit_for: impl Fn(&[u8]) -> u64) -> Result<Vec<u8>, ReadError> {
    use std::io::Read;
    let mut file = std::fs::File::open(path).map_err(ReadError::Io)?;
    let meta = file.metadata().map_err(ReadError::Io)?;
    let size = meta.is_file().then_some(meta.len());
    let mut head = Vec::with_capacity(8);
    (&mut file).take(8).read_to_end(&mut head).map_err(ReadError::Io)?;
    let limit = limit_for(&head);
    if let Some(n) = size.filter(|&n| n > limit) {
        return Err(ReadError::TooBig { size: Some(n), limit });
    }
    read_more(&mut file, head, limit, size)
}

/// Reads a source file for `animc` or `animvm`, within
/// [`animkit_vm::engine::limits::MAX_SOURCE_BYTES`]; the error is the message to
/// print (`cannot read`, or the size and the limit).
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let p = dir.path().join("big.draw");
/// std::fs::File::create(&p).unwrap().set_len(1 << 30).unwrap();
/// let e = animkit_compiler::files::read_source(p.to_str().unwrap()).unwrap_err();
/// assert!(e.ends_with("is 1073741824 bytes, more than the 67108864 bytes (64 MiB) a source may have\n"));
/// ```
pub fn read_source(path: &str) -> Result<Vec<u8>, String> {
    read_limited(Path::new(path), |_| animkit_vm::engine::limits::MAX_SOURCE_BYTES)
        .map_err(|e| e.message(&format!("`{path}`")))
}

/// Whether writing `output` would replace the file `input`: the same
/// regular file, named alike or through a symbolic or hard link. Where
/// `output` exists the two are compared by device and inode (on Unix;
/// elsewhere by canonical path); where it does not, by canonical path
/// (its directory's, joined with its name). An output that is not a
/// regular file (`/dev/stdout`, a pipe, a terminal) is never the input:
/// it is written to, not replaced, so reading `/dev/stdin` and writing
/// `/dev/stdout` on one terminal is fine.
///
/// ```
/// use animkit_compiler::files::same_file;
/// let dir = tempfile::tempdir().unwrap();
/// let a = dir.path().join("a.anim");
/// std::fs::write(&a, "Idle: 5, _loop\n").unwrap();
/// std::fs::hard_link(&a, dir.path().join("b.anim")).unwrap();
/// assert!(same_file(&a, &a));
/// assert!(same_file(&dir.path().join("b.anim"), &a));
/// assert!(same_file(&dir.path().join(".").join("a.anim"), &a));
/// assert!(!same_file(&dir.path().join("a.animb"), &a));
/// ```
pub fn same_file(output: &Path, input: &Path) -> bool {
    match std::fs::metadata(output) {
        Ok(out) => {
            out.is_file()
                && match std::fs::metadata(input) {
                    Ok(inp) => same_inode(output, &out, input, &inp),
                    Err(_) => false,
                }
        }
        Err(_) => {
            let Some(name) = output.file_name() else { return false };
            let parent = match output.parent() {
                Some(p) if !p.as_os_str().is_empty() => p,
                _ => Path::new("."),
            };
            match (std::fs::canonicalize(parent), std::fs::canonicalize(input)) {
                (Ok(dir), Ok(input)) => dir.join(name) == input,
                _ => false,
            }
        }
    }
}

#[cfg(unix)]
fn same_inode(_: &Path, a: &std::fs::Metadata, _: &Path, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_inode(a: &Path, _: &std::fs::Metadata, b: &Path, _: &std::fs::Metadata) -> bool {
    matches!((std::fs::canonicalize(a), std::fs::canonicalize(b)), (Ok(a), Ok(b)) if a == b)
}

/// Refuses to write `output` over one of `inputs` ([`same_file`]; `-`,
/// standard input or output, is never a file): a typo (`animc x.anim -o
/// x.anim`) must not replace the user's source with the bundle. The error
/// is the message `animc` prints, naming both paths.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let a = dir.path().join("a.anim");
/// std::fs::write(&a, "Idle: 5, _loop\n").unwrap();
/// let a = a.to_str().unwrap().to_string();
/// let e = animkit_compiler::files::refuse_input_as_output(std::path::Path::new(&a), &[a.clone()]).unwrap_err();
/// assert_eq!(e, format!("error: the output `{a}` is the input `{a}` (the same file): writing it would replace the source; name another output with -o\n"));
/// ```
pub fn refuse_input_as_output(output: &Path, inputs: &[String]) -> Result<(), String> {
    if output.as_os_str() == "-" {
        return Ok(());
    }
    match inputs.iter().find(|i| i.as_str() != "-" && same_file(output, Path::new(i))) {
        Some(input) => Err(format!(
            "error: the output `{}` is the input `{input}` (the same file): writing it would replace the source; \
             name another output with -o\n",
            output.display()
        )),
        None => Ok(()),
    }
}
