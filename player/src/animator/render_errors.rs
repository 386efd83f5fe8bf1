//! A renderer's [`RenderError`] as the program's [`HostError`]: the
//! renderer's limits as [`HostError::Limit`], the rest as
//! [`HostError::Render`], each with the renderer's own message.

use crate::render::RenderError;
use animkit_vm::engine::animator::HostError;
use std::io;

impl From<RenderError> for HostError {
    fn from(e: RenderError) -> HostError {
        match e {
            RenderError::BadSize { .. } | RenderError::ImageMemory { .. } => HostError::Limit(e.to_string()),
            e => HostError::Render(e.to_string()),
        }
    }
}

/// What the OS said, when the renderer failed reading or writing a file.
pub(crate) fn io_kind(e: &RenderError) -> Option<io::ErrorKind> {
    match e {
        RenderError::Io { source, .. } => Some(source.kind()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_and_failures_keep_the_renderers_message() {
        let big = RenderError::BadSize { width: 9000, height: 1 };
        let text = big.to_string();
        assert_eq!(HostError::from(big), HostError::Limit(text));
        let gl = RenderError::Gl("no framebuffer".into());
        assert_eq!(HostError::from(gl), HostError::Render("OpenGL error: no framebuffer".into()));
        let io = RenderError::Io { path: "x.png".into(), source: io::Error::from(io::ErrorKind::NotFound) };
        assert_eq!(io_kind(&io), Some(io::ErrorKind::NotFound));
        assert_eq!(io_kind(&RenderError::Png("bad".into())), None);
    }
}
