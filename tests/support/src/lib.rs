//! What the workspace's test binaries share, in one leaf crate (std only)
//! that any package may take as a dev-dependency:
//!
//! - [`alloc`]: one counting global allocator that counts per thread, so
//!   the tests of one binary may count their own allocations side by side;
//! - [`limited`]: a program run under an address-space limit, with its
//!   peak resident memory (the `animc` and `animvm` resource-limit tests);
//! - [`cpu`]: the CPU time a child or the calling thread spent, which
//!   the tests that bound how long work takes assert instead of wall time
//!   (a loaded machine stretches wall time, not CPU time);
//! - [`fresh`]: whether a built `animvm`, `animc` or C library is up to
//!   date with its sources, so a test need not `cargo build` it again;
//! - [`module_graph`]: a crate's graph of file modules and its cycles (the
//!   compiler's and the runtime's `module_graph` tests).

pub mod alloc;
pub mod cpu;
pub mod fresh;
pub mod limited;
pub mod module_graph;
