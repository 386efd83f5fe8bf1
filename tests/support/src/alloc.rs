//! A counting global allocator that counts per thread.
//!
//! A test binary declares it once (in its `main.rs`), and each test
//! measures the work it does on its own thread with [`measure`]: the other
//! tests of the binary, running on other threads at the same time, are not
//! counted. Work that the measured code hands to other threads is not
//! counted either; a test that must count it runs in a binary of its own
//! with a process-wide counter.
//!
//! ```
//! use animkit_test_support::alloc::{Counting, measure};
//! #[global_allocator]
//! static A: Counting = Counting;
//! # fn main() {
//! let (v, stats) = measure(|| vec![0u8; 1 << 20]);
//! assert_eq!(stats.allocations, 1);
//! assert_eq!(stats.largest, 1 << 20);
//! assert!(stats.peak >= 1 << 20);
//! # drop(v);
//! # }
//! ```
//!
//! Without the `#[global_allocator]` line nothing is counted and every
//! figure of [`measure`] is 0.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Forwards every call to the system allocator and, while [`measure`] runs
/// on the calling thread, counts it.
pub struct Counting;

/// What the closure given to [`measure`] allocated on its thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Calls to `alloc` and `realloc` (a reallocation counts as one).
    pub allocations: usize,
    /// Bytes asked for in all: each allocation's size, and each
    /// reallocation's new size.
    pub bytes: usize,
    /// The largest single request (an allocation's or a reallocation's
    /// new size).
    pub largest: usize,
    /// The most bytes held at once, counted from 0 when the measurement
    /// began (memory freed that was allocated before it lowers the count,
    /// which never goes below 0 for this figure).
    pub peak: usize,
    /// Bytes held at the end, net of what was freed (negative when the
    /// closure freed more than it allocated).
    pub live: isize,
}

thread_local! {
    static ON: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
    static BYTES: Cell<usize> = const { Cell::new(0) };
    static LARGEST: Cell<usize> = const { Cell::new(0) };
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

/// Counts one call: `calls` allocations of `asked` bytes, `grow` bytes
/// taken and `shrink` given back. `try_with`: nothing is counted while the
/// thread's locals are torn down.
fn counted(calls: usize, asked: usize, grow: usize, shrink: usize) {
    if !ON.try_with(Cell::get).unwrap_or(false) {
        return;
    }
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + calls));
    if calls > 0 {
        let _ = BYTES.try_with(|b| b.set(b.get().saturating_add(asked)));
        let _ = LARGEST.try_with(|l| l.set(l.get().max(asked)));
    }
    let _ = LIVE.try_with(|l| {
        let now = l.get().saturating_add(grow as isize).saturating_sub(shrink as isize);
        l.set(now);
        let _ = PEAK.try_with(|p| p.set(p.get().max(now)));
    });
}

// SAFETY: every call is forwarded unchanged to the system allocator; the
// counters are plain thread-local cells, which allocate nothing.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        counted(1, layout.size(), layout.size(), 0);
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        counted(1, layout.size(), layout.size(), 0);
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        counted(0, 0, 0, layout.size());
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        counted(1, new_size, new_size, layout.size());
        // SAFETY: the caller's contract, passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Runs `f` on this thread and returns its result and what it allocated
/// on this thread. Measurements do not nest: an inner `measure` ends the
/// counting of the outer one.
pub fn measure<R>(f: impl FnOnce() -> R) -> (R, Stats) {
    ALLOCATIONS.with(|c| c.set(0));
    BYTES.with(|c| c.set(0));
    LARGEST.with(|c| c.set(0));
    LIVE.with(|c| c.set(0));
    PEAK.with(|c| c.set(0));
    ON.with(|c| c.set(true));
    let r = f();
    ON.with(|c| c.set(false));
    let stats = Stats {
        allocations: ALLOCATIONS.with(Cell::get),
        bytes: BYTES.with(Cell::get),
        largest: LARGEST.with(Cell::get),
        peak: PEAK.with(Cell::get).max(0) as usize,
        live: LIVE.with(Cell::get),
    };
    (r, stats)
}

/// Whether this binary counts: `true` when [`Counting`] is its global
/// allocator (a test that asserts a count of 0 checks this first, so that
/// a binary without the allocator fails instead of passing).
pub fn is_counting() -> bool {
    let (v, stats) = measure(|| Box::new(1u64));
    drop(v);
    stats.allocations == 1
}
