//! A counting global allocator for the memory examples (`slapmem`,
//! `slapframemem`): each declares
//! `#[global_allocator] static A: Counting = Counting;` and reads the
//! counters around the work it measures.
//!
//! ```no_run
//! use animkit_bench::heap::{Counting, LIVE, PEAK};
//! use std::sync::atomic::Ordering::Relaxed;
//! #[global_allocator]
//! static A: Counting = Counting;
//! let base = LIVE.load(Relaxed);
//! PEAK.store(base, Relaxed);
//! let v = vec![0u8; 1 << 20];
//! assert!(PEAK.load(Relaxed) - base >= 1 << 20);
//! # drop(v);
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering::Relaxed};

/// Forwards every call to the system allocator, counting as it goes.
pub struct Counting;

/// Bytes live now.
pub static LIVE: AtomicIsize = AtomicIsize::new(0);
/// The most bytes live at once since it was last set (store `LIVE` into
/// it to start a measurement).
pub static PEAK: AtomicIsize = AtomicIsize::new(0);
/// Bytes allocated in all (growth by `realloc` included).
pub static TOTAL: AtomicUsize = AtomicUsize::new(0);

fn grew(by: isize) {
    if by > 0 {
        TOTAL.fetch_add(by as usize, Relaxed);
    }
    let now = LIVE.fetch_add(by, Relaxed) + by;
    PEAK.fetch_max(now, Relaxed);
}

// SAFETY: every call is forwarded unchanged to the system allocator.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size() as isize);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        grew(-(layout.size() as isize));
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        grew(new_size as isize - layout.size() as isize);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}
