//! [`RenderError`]: everything the renderer can report instead of panicking.

use std::fmt;
use std::path::PathBuf;

use super::types::ImageId;

/// The largest image (and render target) edge the renderer accepts, in pixels.
///
/// ```
/// assert_eq!(animkit_player::render::MAX_IMAGE_SIZE, 8192);
/// ```
pub const MAX_IMAGE_SIZE: u32 = 8192;

/// The most pixels all live images of one renderer may hold together
/// (1 GiB of RGBA: four images of the largest size).
///
/// ```
/// assert_eq!(animkit_player::render::MAX_IMAGE_PIXELS, 1 << 28);
/// ```
pub const MAX_IMAGE_PIXELS: u64 = 1 << 28;

/// An error from the renderer, its headless host or its image codecs.
///
/// Every fallible renderer operation returns this; none of them panics on bad
/// input (a missing file, a corrupt PNG, an absurd size, an unknown image).
///
/// ```
/// use animkit_player::render::{RenderError, RgbaImage};
/// let err = RgbaImage::decode_png(b"not a png").unwrap_err();
/// assert!(matches!(err, RenderError::Png(_)));
/// println!("{err}");
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum RenderError {
    /// No EGL library or no EGL device was found (headless rendering impossible).
    NoDevice(String),
    /// The EGL display, config or GL context could not be created.
    Context(String),
    /// A GL object could not be created, or the shaders did not compile or link.
    Gl(String),
    /// Reading or writing a file failed.
    Io {
        /// The file concerned.
        path: PathBuf,
        /// What the OS said.
        source: std::io::Error,
    },
    /// A PNG could not be decoded or encoded.
    Png(String),
    /// A requested image or target size is zero or above [`MAX_IMAGE_SIZE`].
    BadSize {
        /// Requested width.
        width: u64,
        /// Requested height.
        height: u64,
    },
    /// The image id does not name a live image.
    UnknownImage(ImageId),
    /// `raw_dump_bpp` was asked for a depth it does not produce.
    UnsupportedBpp(u32),
    /// A new image would make the live images hold more than the limit
    /// ([`MAX_IMAGE_PIXELS`] unless lowered).
    ImageMemory {
        /// Pixels of the new image.
        requested: u64,
        /// Pixels the live images hold already.
        held: u64,
        /// The limit.
        limit: u64,
    },
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderError::NoDevice(m) => write!(f, "no EGL device for headless rendering: {m}"),
            RenderError::Context(m) => write!(f, "cannot create an OpenGL context: {m}"),
            RenderError::Gl(m) => write!(f, "OpenGL error: {m}"),
            RenderError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            RenderError::Png(m) => write!(f, "PNG error: {m}"),
            RenderError::ImageMemory { requested, held, limit } => write!(
                f,
                "an image of {requested} pixels would make the images hold more than {limit} pixels ({held} held already)"
            ),
            RenderError::BadSize { width, height } => {
                write!(f, "bad image size {width}x{height}: each side must be 1..={MAX_IMAGE_SIZE} pixels")
            }
            RenderError::UnknownImage(id) => write!(f, "unknown image {id:?}"),
            RenderError::UnsupportedBpp(b) => {
                write!(f, "unsupported dump depth {b} bpp (use 15, 16, 24 or 32)")
            }
        }
    }
}

impl std::error::Error for RenderError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RenderError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// Checks an image or target size against `1..=MAX_IMAGE_SIZE` on each side.
pub(crate) fn check_size(width: u64, height: u64) -> Result<(), RenderError> {
    let max = u64::from(MAX_IMAGE_SIZE);
    if width == 0 || height == 0 || width > max || height > max {
        Err(RenderError::BadSize { width, height })
    } else {
        Ok(())
    }
}
