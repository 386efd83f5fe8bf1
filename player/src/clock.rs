//! The clock Animator's waits read. On the desktop it is the system's
//! monotonic clock (`std::time::Instant`) and a wait sleeps the thread. On
//! `wasm32-unknown-unknown`, where the standard library has neither
//! (`Instant::now` and `thread::sleep` panic there), it is a *virtual*
//! clock: it stands still until a host moves it with [`advance`], and a
//! wait that would sleep moves it instead. The web player advances it by
//! every wait the program asks for, so `FLUSHDELAY` lines and frame
//! numbers do not depend on how fast the page runs.
//!
//! ```
//! use animkit_player::clock::Instant;
//! use std::time::Duration;
//! let a = Instant::now();
//! animkit_player::clock::sleep(Duration::from_millis(1));
//! assert!(Instant::now() >= a + Duration::from_millis(1));
//! ```

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;

#[cfg(target_arch = "wasm32")]
pub use virtual_clock::{Instant, advance};

/// Moves the clock on by `d`: the virtual clock on wasm32; nothing on the
/// desktop, where time passes by itself.
#[cfg(not(target_arch = "wasm32"))]
pub fn advance(d: std::time::Duration) {
    let _ = d;
}

/// Waits `d`: sleeps the thread on the desktop; moves the virtual clock
/// on by `d` on wasm32.
pub fn sleep(d: std::time::Duration) {
    #[cfg(not(target_arch = "wasm32"))]
    std::thread::sleep(d);
    #[cfg(target_arch = "wasm32")]
    advance(d);
}

#[cfg(target_arch = "wasm32")]
mod virtual_clock {
    use std::cell::Cell;
    use std::ops::{Add, Sub};
    use std::time::Duration;

    thread_local! {
        static NOW: Cell<Duration> = const { Cell::new(Duration::ZERO) };
    }

    /// A point on the virtual clock (time since the module started).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub struct Instant(Duration);

    impl Instant {
        /// The virtual clock's time now.
        pub fn now() -> Instant {
            Instant(NOW.with(Cell::get))
        }

        /// Time since `self` (zero if `self` is later).
        pub fn elapsed(&self) -> Duration {
            Instant::now() - *self
        }

        /// `self - earlier`, zero if `earlier` is later.
        pub fn saturating_duration_since(&self, earlier: Instant) -> Duration {
            self.0.saturating_sub(earlier.0)
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, d: Duration) -> Instant {
            Instant(self.0.saturating_add(d))
        }
    }

    impl Sub for Instant {
        type Output = Duration;
        fn sub(self, earlier: Instant) -> Duration {
            self.0.saturating_sub(earlier.0)
        }
    }

    /// Moves the virtual clock on by `d`.
    pub fn advance(d: Duration) {
        NOW.with(|c| c.set(c.get().saturating_add(d)));
    }
}
