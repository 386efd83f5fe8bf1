//! Golden-image testing: compare a rendered [`RgbaImage`] with a PNG kept in
//! the repository, with a small per-channel tolerance.
//!
//! * Goldens live in a folder of the repository (for the renderer:
//!   `tests/golden/render/`, see [`golden_dir`]), one `NAME.png` each.
//! * On a mismatch (or a missing golden) the actual image, the expected one
//!   and a difference image (differing pixels in red over a faded copy of
//!   the expected image) are written to `target/golden-diff/` as
//!   `NAME.actual.png`, `NAME.expected.png` and `NAME.diff.png`.
//! * With the environment variable `BLESS=1` the golden is (re)written from
//!   the actual image instead, and the check passes.
//!
//! ```no_run
//! use animkit_runtime::golden;
//! use animkit_runtime::render::RgbaImage;
//! let img = RgbaImage::new(4, 4, [255, 255, 255, 255]);
//! golden::assert_golden(&golden::golden_dir("render"), "white", &img, 2);
//! ```

#![warn(missing_docs)]

use std::path::{Path, PathBuf};

use crate::host::files::save_png;
use crate::render::{RenderError, RgbaImage};

/// The repository root (the folder above this crate's `Cargo.toml`).
///
/// ```
/// assert!(animkit_runtime::golden::workspace_root().join("Cargo.toml").exists());
/// ```
pub fn workspace_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).to_path_buf()
}

/// `tests/golden/<group>/` under the repository root.
///
/// ```
/// let d = animkit_runtime::golden::golden_dir("render");
/// assert!(d.ends_with("tests/golden/render"));
/// ```
pub fn golden_dir(group: &str) -> PathBuf {
    workspace_root().join("tests").join("golden").join(group)
}

/// Where failure artefacts go: `$CARGO_TARGET_DIR/golden-diff` or
/// `<root>/target/golden-diff`.
///
/// ```
/// assert!(animkit_runtime::golden::diff_dir().ends_with("golden-diff"));
/// ```
pub fn diff_dir() -> PathBuf {
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| workspace_root().join("target"));
    target.join("golden-diff")
}

/// Whether `BLESS=1` is set (goldens are rewritten instead of compared).
///
/// ```
/// let _ = animkit_runtime::golden::blessing();
/// ```
pub fn blessing() -> bool {
    std::env::var("BLESS").is_ok_and(|v| v == "1")
}

/// How two images differ.
///
/// ```
/// use animkit_runtime::{golden::compare, render::RgbaImage};
/// let a = RgbaImage::new(2, 2, [10, 10, 10, 255]);
/// let mut b = a.clone();
/// b.set_pixel(1, 1, [14, 10, 10, 255]);
/// let d = compare(&a, &b, 2);
/// assert_eq!((d.max_delta, d.differing), (4, 1));
/// assert!(!d.matches());
/// ```
#[derive(Debug, Clone)]
pub struct Comparison {
    /// Whether the sizes are equal (if not, nothing else is meaningful).
    pub same_size: bool,
    /// Largest per-channel difference.
    pub max_delta: u8,
    /// Pixels with some channel differing by more than the tolerance.
    pub differing: usize,
    /// Differing pixels in red over a faded copy of the expected image.
    pub diff: RgbaImage,
}

impl Comparison {
    /// True when the sizes match and no pixel is over the tolerance.
    ///
    /// ```
    /// use animkit_runtime::{golden::compare, render::RgbaImage};
    /// let a = RgbaImage::new(1, 1, [0; 4]);
    /// assert!(compare(&a, &a, 0).matches());
    /// ```
    pub fn matches(&self) -> bool {
        self.same_size && self.differing == 0
    }
}

/// Compares `actual` with `expected`, channel by channel, allowing each
/// channel to differ by up to `tolerance`.
///
/// ```
/// use animkit_runtime::{golden::compare, render::RgbaImage};
/// let d = compare(&RgbaImage::new(1, 1, [0; 4]), &RgbaImage::new(2, 1, [0; 4]), 0);
/// assert!(!d.same_size);
/// ```
pub fn compare(actual: &RgbaImage, expected: &RgbaImage, tolerance: u8) -> Comparison {
    if actual.width != expected.width || actual.height != expected.height {
        return Comparison {
            same_size: false,
            max_delta: 255,
            differing: actual.width as usize * actual.height as usize,
            diff: actual.clone(),
        };
    }
    let mut diff = RgbaImage::new(actual.width, actual.height, [0; 4]);
    let mut max_delta = 0u8;
    let mut differing = 0;
    for (i, (a, e)) in actual.data.chunks_exact(4).zip(expected.data.chunks_exact(4)).enumerate() {
        let d = (0..4).map(|c| a[c].abs_diff(e[c])).max().unwrap_or(0);
        max_delta = max_delta.max(d);
        let out = if d > tolerance {
            differing += 1;
            [255, 0, 0, 255]
        } else {
            let fade = |v: u8| 191 + v / 4;
            [fade(e[0]), fade(e[1]), fade(e[2]), 255]
        };
        diff.data[i * 4..i * 4 + 4].copy_from_slice(&out);
    }
    Comparison { same_size: true, max_delta, differing, diff }
}

/// Checks `actual` against `dir/NAME.png` (see the module docs for `BLESS=1`
/// and the artefacts written on failure). Returns a message on mismatch.
///
/// ```no_run
/// use animkit_runtime::{golden, render::RgbaImage};
/// let img = RgbaImage::new(4, 4, [0, 0, 0, 255]);
/// if let Err(msg) = golden::check(&golden::golden_dir("render"), "black", &img, 2) {
///     panic!("{msg}");
/// }
/// ```
pub fn check(dir: &Path, name: &str, actual: &RgbaImage, tolerance: u8) -> Result<(), String> {
    let path = dir.join(format!("{name}.png"));
    if blessing() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        save_png(actual, &path).map_err(|e| e.to_string())?;
        return Ok(());
    }
    let expected = match RgbaImage::load_png(&path) {
        Ok(img) => img,
        Err(e) => {
            let saved = save_artefacts(name, actual, None, None);
            return Err(format!("golden {} unreadable ({e}); run with BLESS=1 to create it{saved}", path.display()));
        }
    };
    let cmp = compare(actual, &expected, tolerance);
    if cmp.matches() {
        return Ok(());
    }
    let saved = save_artefacts(name, actual, Some(&expected), Some(&cmp.diff));
    if !cmp.same_size {
        return Err(format!(
            "golden {}: size {}x{} expected, got {}x{}{saved}",
            path.display(),
            expected.width,
            expected.height,
            actual.width,
            actual.height
        ));
    }
    Err(format!(
        "golden {}: {} pixels differ by more than {tolerance} (max channel difference {}){saved}",
        path.display(),
        cmp.differing,
        cmp.max_delta
    ))
}

/// [`check`], panicking with its message on mismatch.
///
/// ```no_run
/// use animkit_runtime::{golden, render::RgbaImage};
/// golden::assert_golden(&golden::golden_dir("render"), "black", &RgbaImage::new(1, 1, [0, 0, 0, 255]), 0);
/// ```
pub fn assert_golden(dir: &Path, name: &str, actual: &RgbaImage, tolerance: u8) {
    if let Err(msg) = check(dir, name, actual, tolerance) {
        panic!("{msg}");
    }
}

fn save_artefacts(name: &str, actual: &RgbaImage, expected: Option<&RgbaImage>, diff: Option<&RgbaImage>) -> String {
    let dir = diff_dir();
    let result = (|| -> Result<(), RenderError> {
        std::fs::create_dir_all(&dir).map_err(|source| RenderError::Io { path: dir.clone(), source })?;
        save_png(actual, dir.join(format!("{name}.actual.png")))?;
        if let Some(e) = expected {
            save_png(e, dir.join(format!("{name}.expected.png")))?;
        }
        if let Some(d) = diff {
            save_png(d, dir.join(format!("{name}.diff.png")))?;
        }
        Ok(())
    })();
    match result {
        Ok(()) => format!("; see {}/{name}.*.png", dir.display()),
        Err(e) => format!("; could not save artefacts: {e}"),
    }
}
