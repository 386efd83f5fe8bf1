//! Removing the temporary file of a write in progress when the process is
//! interrupted (`SIGINT`, `SIGTERM`, `SIGHUP`), so that a compile stopped
//! by Ctrl-C or `kill` leaves no `.NAME.tmpPID` behind.
//!
//! [`files::write_atomic`](crate::files::write_atomic) arms a [`TempGuard`]
//! with its temporary path before creating the file and disarms it once
//! the file is renamed or removed. The first guard installs a handler for
//! the three signals (unless the signal was ignored, as under `nohup`, or
//! already had a handler of someone else's: those are left alone); the
//! handler removes the armed path, then restores the default action and
//! raises the signal again, so the process still ends as killed by it.
//! The handler does only what is safe in a signal handler: atomics,
//! `unlink`, `signal`, `raise`, on a path copied beforehand into a static
//! buffer. One write at a time is guarded; a second write armed while one
//! is in progress (another thread) goes unguarded, and its temporary file,
//! if a signal ever leaves one, is removed by the next write to the same
//! target (`remove_stale_temps`). `SIGKILL` cannot be caught: that is the
//! case the stale-file sweep is for.
//!
//! The three C functions are declared here rather than through the `libc`
//! crate: they and the signal numbers are the same on every Unix.

use std::path::Path;

/// Room for the temporary path and its NUL; a longer path is not guarded.
#[cfg(unix)]
const PATH_ROOM: usize = 4096;

/// Guards the temporary file at a path while it lives (see the module).
pub struct TempGuard {
    armed: bool,
}

impl TempGuard {
    /// Arms the guard for `path` (installing the handler the first time).
    pub fn arm(path: &Path) -> TempGuard {
        TempGuard { armed: imp::arm(path) }
    }
}

impl Drop for TempGuard {
    fn drop(&mut self) {
        if self.armed {
            imp::disarm();
        }
    }
}

#[cfg(unix)]
mod imp {
    use super::PATH_ROOM;
    use std::cell::UnsafeCell;
    use std::os::raw::{c_char, c_int};
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;
    use std::sync::Once;
    use std::sync::atomic::{AtomicU8, Ordering};

    unsafe extern "C" {
        fn signal(signum: c_int, handler: usize) -> usize;
        fn unlink(path: *const c_char) -> c_int;
        fn raise(sig: c_int) -> c_int;
    }
    const SIGHUP: c_int = 1;
    const SIGINT: c_int = 2;
    const SIGTERM: c_int = 15;
    const SIG_DFL: usize = 0;

    const FREE: u8 = 0;
    const FILLING: u8 = 1;
    const ARMED: u8 = 2;
    const FIRED: u8 = 3;
    static STATE: AtomicU8 = AtomicU8::new(FREE);

    struct Buffer(UnsafeCell<[u8; PATH_ROOM]>);
    // SAFETY: the buffer is written only by the thread that moved STATE
    // from FREE to FILLING, and read only after it published ARMED.
    unsafe impl Sync for Buffer {}
    static PATH: Buffer = Buffer(UnsafeCell::new([0; PATH_ROOM]));

    extern "C" fn on_signal(sig: c_int) {
        if STATE.compare_exchange(ARMED, FIRED, Ordering::Acquire, Ordering::Relaxed).is_ok() {
            // SAFETY: ARMED means the buffer holds a NUL-terminated path
            // that no thread writes until STATE is FREE again, and FIRED
            // keeps it so.
            unsafe { unlink(PATH.0.get() as *const c_char) };
        }
        // SAFETY: async-signal-safe calls with valid arguments.
        unsafe {
            signal(sig, SIG_DFL);
            raise(sig);
        }
    }

    fn install() {
        for sig in [SIGHUP, SIGINT, SIGTERM] {
            // SAFETY: `on_signal` is an `extern "C" fn(c_int)`, what
            // `signal` takes.
            let previous = unsafe { signal(sig, on_signal as extern "C" fn(c_int) as usize) };
            if previous != SIG_DFL {
                // Ignored, or someone else's handler: theirs to keep.
                unsafe { signal(sig, previous) };
            }
        }
    }

    pub fn arm(path: &Path) -> bool {
        static INSTALL: Once = Once::new();
        INSTALL.call_once(install);
        let bytes = path.as_os_str().as_bytes();
        if bytes.len() >= PATH_ROOM || bytes.contains(&0) {
            return false;
        }
        if STATE.compare_exchange(FREE, FILLING, Ordering::Acquire, Ordering::Relaxed).is_err() {
            return false;
        }
        // SAFETY: FILLING is held by this thread alone (see `Buffer`).
        let buf = unsafe { &mut *PATH.0.get() };
        buf[..bytes.len()].copy_from_slice(bytes);
        buf[bytes.len()] = 0;
        STATE.store(ARMED, Ordering::Release);
        true
    }

    pub fn disarm() {
        let _ = STATE.compare_exchange(ARMED, FREE, Ordering::Release, Ordering::Relaxed);
    }
}

#[cfg(not(unix))]
mod imp {
    pub fn arm(_: &std::path::Path) -> bool {
        false
    }
    pub fn disarm() {}
}

#[cfg(test)]
mod examples {
    #[test]
    fn guard_arms_and_disarms_around_a_rename() {
        use crate::interrupt::TempGuard;
        let dir = tempfile::tempdir().unwrap();
        let tmp = dir.path().join(".out.tmp1");
        let guard = TempGuard::arm(&tmp);
        std::fs::write(&tmp, b"partial").unwrap();
        // ... a SIGTERM here would remove `tmp` and end the process ...
        std::fs::rename(&tmp, dir.path().join("out")).unwrap();
        drop(guard);
    }
}
