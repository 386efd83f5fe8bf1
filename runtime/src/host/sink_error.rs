//! [`SinkError`]: what the frame sink ([`sink`](super::sink)) could not
//! do. A leaf below the sink and [`Error`](crate::Error), which wraps it
//! (`Error::Output`), while the sink's [`FrameSource`](super::sink::FrameSource)
//! returns [`Error`](crate::Error): the sink imports `error`, `error`
//! imports this (`runtime/tests/module_graph.rs`). Its public path is
//! still `host::sink::SinkError`.

use super::files::FolderError;
use super::gif::GifError;

/// What the sink could not do; the run that used it cannot go on as
/// asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SinkError {
    /// A file (a PNG, the GIF) could not be written.
    #[error("cannot write `{path}`: {reason}")]
    Write {
        /// The file.
        path: String,
        /// Why.
        reason: String,
    },
    /// The folder `-d head` points into could not be made (the message
    /// names it).
    #[error("{0}")]
    Folder(FolderError),
    /// The GIF encoder refused a frame (the GIF is then abandoned).
    #[error("{reason}")]
    Gif {
        /// The GIF's file.
        path: String,
        /// Why.
        reason: GifError,
    },
}
