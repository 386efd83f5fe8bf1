//! [`Ticker`]: a fixed rate of steps (the sprite viewer's 50 ticks per
//! second, a scene's frames) for a window host's
//! [`deadline`](super::window_loop::WindowApp::deadline) and
//! [`wake`](super::window_loop::WindowApp::wake).

use std::time::{Duration, Instant};

/// At most this many steps are caught up at once; a host further behind
/// (the machine was busy, the window was dragged) drops the rest.
pub const MAX_CATCH_UP: u32 = 10;

/// Steps due at a fixed rate.
///
/// ```
/// use animkit_runtime::host::ticker::Ticker;
/// use std::time::{Duration, Instant};
/// let t0 = Instant::now();
/// let mut t = Ticker::new(50, t0);
/// assert_eq!(t.due(t0), 1); // the first step is due at once
/// assert_eq!(t.due(t0 + Duration::from_millis(10)), 0);
/// assert_eq!(t.due(t0 + Duration::from_millis(45)), 2);
/// assert_eq!(t.next(), t0 + Duration::from_millis(60));
/// assert_eq!(t.due(t0 + Duration::from_secs(60)), 10); // far behind: the backlog is dropped
/// assert_eq!(t.next(), t0 + Duration::from_secs(60) + Duration::from_millis(20));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ticker {
    next: Instant,
    period: Duration,
}

impl Ticker {
    /// `per_second` steps a second (at least 1), the first due at `now`.
    pub fn new(per_second: u32, now: Instant) -> Ticker {
        Ticker { next: now, period: Duration::from_secs(1) / per_second.max(1) }
    }

    /// When the next step is due.
    pub fn next(&self) -> Instant {
        self.next
    }

    /// The time between steps.
    pub fn period(&self) -> Duration {
        self.period
    }

    /// Starts over: the next step is due at `now`.
    pub fn restart(&mut self, now: Instant) {
        self.next = now;
    }

    /// How many steps are due at `now` (at most [`MAX_CATCH_UP`]); they
    /// count as taken. When more were due, the backlog is dropped and the
    /// next step is due one period after `now`.
    pub fn due(&mut self, now: Instant) -> u32 {
        let mut steps = 0;
        while now >= self.next && steps < MAX_CATCH_UP {
            self.next += self.period;
            steps += 1;
        }
        if now >= self.next {
            self.next = now + self.period;
        }
        steps
    }
}
