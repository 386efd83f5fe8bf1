//! [`ViewError`]: why the sprite viewer could not take its sheets or start
//! its state (`--sheet`, an Aseprite export, `SpriteView::new`).

use animkit_vm::engine::sprite::SpriteError;
use std::io;

/// What [`SheetSpec`](super::view::SheetSpec) and
/// [`SpriteView`](super::view::SpriteView) report; its `Display` is the
/// message the viewer prints.
///
/// ```
/// use animkit_runtime::sprite::view::SheetSpec;
/// use animkit_runtime::sprite::view_error::ViewError;
/// let err = SheetSpec::parse("Walk=walk.png").unwrap_err();
/// assert_eq!(err, ViewError::BadSheet("Walk=walk.png".into()));
/// assert_eq!(err.to_string(), "--sheet `Walk=walk.png`: expected Category=sheet.png:COLSxROWS, e.g. Walk=walk.png:4x1");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ViewError {
    /// A `--sheet` argument not of the form `Category=sheet.png:COLSxROWS`.
    #[error("--sheet `{0}`: expected Category=sheet.png:COLSxROWS, e.g. Walk=walk.png:4x1")]
    BadSheet(String),
    /// The Aseprite export could not be converted (the importer's message).
    #[error("{0}")]
    Aseprite(String),
    /// The Aseprite export at `path` names no image.
    #[error("{0}: the export names no image (`meta.image`)")]
    NoImage(String),
    /// The state to start (or switch to) is not the module's.
    #[error("{0}")]
    State(SpriteError),
    /// A sheet's image could not be loaded: a `--sheet`'s, or (`export`)
    /// the one an Aseprite export names.
    #[error("{}", if *export { format!("the export's image `{path}` (`meta.image`): {reason}") } else { format!("--sheet {path}: {reason}") })]
    Load {
        /// The image's file (or URL, on the web).
        path: String,
        /// True for an Aseprite export's image.
        export: bool,
        /// What the OS said, when reading the file failed.
        kind: Option<io::ErrorKind>,
        /// Why, as the renderer said it.
        reason: String,
    },
    /// A `--sheet`'s image is smaller than its grid.
    #[error("--sheet {path}: a {}x{} image cannot hold {}x{} cells", size.0, size.1, grid.0, grid.1)]
    Grid {
        /// The image's file.
        path: String,
        /// The image's width and height.
        size: (u32, u32),
        /// The grid's columns and rows.
        grid: (u32, u32),
    },
    /// A frame's rectangle of an Aseprite export is empty or outside its
    /// image.
    #[error(
        "{path}: frame {frame}'s rectangle {}x{} at ({}, {}) is not inside the {}x{} image",
        rect[2], rect[3], rect[0], rect[1], size.0, size.1
    )]
    Rect {
        /// The image's file.
        path: String,
        /// The frame's index.
        frame: usize,
        /// Its rectangle: x, y, width, height.
        rect: [u32; 4],
        /// The image's width and height.
        size: (u32, u32),
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_variant_says_the_viewers_message() {
        let cases = [
            (ViewError::NoImage("a.json".into()), "a.json: the export names no image (`meta.image`)"),
            (ViewError::Aseprite("a.json: bad".into()), "a.json: bad"),
            (
                ViewError::Load { path: "w.png".into(), export: false, kind: None, reason: "PNG error: x".into() },
                "--sheet w.png: PNG error: x",
            ),
            (
                ViewError::Load { path: "h.png".into(), export: true, kind: None, reason: "r".into() },
                "the export's image `h.png` (`meta.image`): r",
            ),
            (
                ViewError::Grid { path: "w.png".into(), size: (3, 8), grid: (4, 1) },
                "--sheet w.png: a 3x8 image cannot hold 4x1 cells",
            ),
            (
                ViewError::Rect { path: "h.png".into(), frame: 1, rect: [16, 0, 16, 8], size: (16, 8) },
                "h.png: frame 1's rectangle 16x8 at (16, 0) is not inside the 16x8 image",
            ),
        ];
        for (e, text) in cases {
            assert_eq!(e.to_string(), text);
        }
    }
}
