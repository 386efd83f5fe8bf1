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

/// How far short of a whole step the time may fall and the step still
/// be due (1 ns: 1000 ms in 20 ms steps is 30 frames of 33.3 ms, though
/// the float sum falls a hair short).
pub const STEP_SLACK: f64 = 1e-9;

/// Time turned into fixed steps: the SLAP scene's frames and the sprite
/// viewer's ticks. The one frame stepping of [`Player::update`] and of the
/// web player's `advance` (`web/src/core.rs`), so both step a scene alike.
///
/// [`Player::update`]: crate::player::Player::update
///
/// ```
/// use animkit_player::clock::Steps;
/// let mut steps = Steps::default();
/// assert_eq!(steps.add(0.05, 1.0 / 30.0), 1); // 50 ms at 30 frames a second
/// assert_eq!(steps.add(0.05, 1.0 / 30.0), 2); // 100 ms: 3 frames in all
/// let mut steps = Steps::default();
/// let due: u64 = (0..50).map(|_| steps.add(0.02, 1.0 / 30.0)).sum();
/// assert_eq!(due, 30); // 1 s in 20 ms steps: 30 frames, not 29
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Steps {
    /// Seconds not yet turned into steps.
    pending: f64,
}

impl Steps {
    /// `dt` more seconds have passed: returns how many steps of `period`
    /// seconds are now due (and keeps the rest).
    pub fn add(&mut self, dt: f64, period: f64) -> u64 {
        self.pending += dt;
        let mut due = 0;
        while self.pending >= period - STEP_SLACK {
            self.pending -= period;
            due += 1;
        }
        due
    }

    /// Drops the time not yet turned into steps (after a seek or a
    /// restart).
    pub fn reset(&mut self) {
        self.pending = 0.0;
    }
}

/// Runs an Animator program's wait down by `dt` seconds: while the wait
/// is over (within [`STEP_SLACK`]), `run` resumes the program until its
/// next wait and returns that wait's seconds (`None`: the program ended
/// or awaits input), at most `max_runs` times a call. The one wait loop of
/// [`Player::update`] and of the web player's `advance`.
///
/// [`Player::update`]: crate::player::Player::update
///
/// ```
/// use animkit_player::clock::run_waits;
/// let (mut wait, mut runs) = (0.0, 0);
/// run_waits(&mut wait, 0.25, 100, || { runs += 1; Some(0.1) });
/// assert_eq!(runs, 3); // the wait of 0: run; then 0.1 and 0.1 more pass
/// assert!((wait - 0.05).abs() < 1e-9);
/// ```
pub fn run_waits(wait: &mut f64, dt: f64, max_runs: u32, mut run: impl FnMut() -> Option<f64>) {
    *wait -= dt;
    let mut runs = 0;
    while *wait <= STEP_SLACK && runs < max_runs {
        runs += 1;
        match run() {
            Some(s) => *wait += s.clamp(0.0, 1e9),
            None => break,
        }
    }
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
