//! The cross-crate tests that run with the repository root as their
//! working directory, in a test binary of their own (`at_root`): the
//! working directory is the whole process's, and cargo starts this
//! package's tests in `tests/`. Each test moves to the root first (all to
//! the same place, so the order does not matter).
//!
//! - `ui`: `animc --check` prints the paths it is given, and the `.stderr`
//!   files hold them as written from the root (`tests/ui/...`).
//! - `animator_golden`: the golden scripts load their images from paths
//!   written from the root (`image quad tests/golden/animator/quad.png`).

mod animator_golden;
mod ui;

/// Makes the repository root the process's working directory.
fn at_root() {
    std::env::set_current_dir(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()).unwrap();
}
