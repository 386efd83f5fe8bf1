//! Whether a built artifact is up to date with its sources, as `make`
//! decides: for the tests that run `animvm`, `animc` or the C library and
//! would otherwise `cargo build` them again. Under `cargo test --workspace`
//! they are built before any test runs, and a nested `cargo build -p ...`
//! resolves features for that package alone (the workspace's
//! dev-dependencies turn on `animkit-vm/test-support`), so it built the
//! VM, the compiler and the runtime a second time: minutes in a fresh run.

use std::path::Path;
use std::time::SystemTime;

/// The sources every binary of the toolchain is built from, relative to
/// the repository root.
pub const TOOLCHAIN_SOURCES: &[&str] = &[
    "grammar",
    "build.rs",
    "Cargo.toml",
    "Cargo.lock",
    "vm/src",
    "vm/Cargo.toml",
    "compiler/src",
    "compiler/Cargo.toml",
    "runtime/src",
    "runtime/Cargo.toml",
    "capi/src",
    "capi/Cargo.toml",
];

/// True when every file of `artifacts` exists and was modified after every
/// file under `sources` (paths relative to `root`, directories walked).
///
/// ```
/// use animkit_test_support::fresh::newer_than;
/// let dir = std::env::temp_dir().join(format!("fresh-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// std::fs::write(dir.join("src.txt"), "a").unwrap();
/// std::thread::sleep(std::time::Duration::from_millis(20));
/// std::fs::write(dir.join("out.bin"), "b").unwrap();
/// assert!(newer_than(&[dir.join("out.bin")], &dir, &["src.txt"]));
/// assert!(!newer_than(&[dir.join("missing")], &dir, &["src.txt"]));
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn newer_than(artifacts: &[impl AsRef<Path>], root: &Path, sources: &[&str]) -> bool {
    fn newest(path: &Path, seen: &mut SystemTime) {
        let Ok(meta) = std::fs::metadata(path) else { return };
        if meta.is_dir() {
            for entry in std::fs::read_dir(path).into_iter().flatten().flatten() {
                newest(&entry.path(), seen);
            }
        } else if let Ok(m) = meta.modified() {
            *seen = (*seen).max(m);
        }
    }
    let mut seen = SystemTime::UNIX_EPOCH;
    for part in sources {
        newest(&root.join(part), &mut seen);
    }
    artifacts.iter().all(|a| std::fs::metadata(a).and_then(|m| m.modified()).is_ok_and(|built| built > seen))
}
