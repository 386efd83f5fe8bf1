//! [`HostError`]: what a canvas reports when a host call fails. The VM
//! turns it into a runtime error at the command's position (its
//! [`Display`](std::fmt::Display) text is the message), and the program
//! goes on.

use std::fmt;
use std::io;

/// Which file a failed write was for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    /// `screenshot FILE`.
    Screenshot,
    /// `screendump FILE`.
    Screendump,
}

/// A failed host call of an Animator program.
///
/// ```
/// use animkit_vm::engine::animator::{Canvas, HostError, record::Recorder};
/// let mut canvas = Recorder::default();
/// let err = canvas.set_cursor("hand").unwrap_err();
/// assert_eq!(err, HostError::UnknownCursor("hand".into()));
/// assert_eq!(err.to_string(), "no cursor named `hand`");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum HostError {
    /// No image of that name was loaded or made.
    UnknownImage(String),
    /// No area of that name is defined (`warp area`).
    UnknownArea(String),
    /// No cursor of that name is defined (`cursor NAME`).
    UnknownCursor(String),
    /// A file the program asked for could not be written.
    Write {
        /// `screenshot` or `screendump`.
        what: Written,
        /// The file.
        path: String,
        /// What the OS said, when the OS said it.
        kind: Option<io::ErrorKind>,
        /// Why, as the writer said it.
        reason: String,
    },
    /// `screendump -` could not be written: to the program's standard
    /// output (`fd` `None`) or to descriptor `fd` (`-fd`).
    Dump {
        /// The descriptor, when it is not the host's own standard output.
        fd: Option<i32>,
        /// What the OS said.
        kind: io::ErrorKind,
        /// Why.
        reason: String,
    },
    /// An image could not be loaded from `path` (`image NAME FILE`) or
    /// made (`image NAME W H`, `path` `None`).
    Image {
        /// The image's name.
        name: String,
        /// The file it was to be loaded from.
        path: Option<String>,
        /// What the OS said, when reading the file failed.
        kind: Option<io::ErrorKind>,
        /// Why.
        reason: String,
    },
    /// The renderer refused a size or an amount of image memory above its
    /// limits.
    Limit(String),
    /// The renderer failed (an OpenGL error, a read-back or an encoding
    /// that failed).
    Render(String),
    /// The frames the host keeps (`-d` PNGs, `--gif`) could not be
    /// written.
    Frames(String),
}

impl fmt::Display for HostError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HostError::UnknownImage(name) => write!(f, "no image named `{name}`"),
            HostError::UnknownArea(name) => write!(f, "no area named `{name}`"),
            HostError::UnknownCursor(name) => write!(f, "no cursor named `{name}`"),
            HostError::Write { what, path, reason, .. } => {
                let what = match what {
                    Written::Screenshot => "screenshot",
                    Written::Screendump => "screendump",
                };
                write!(f, "cannot write {what} `{path}`: {reason}")
            }
            HostError::Dump { fd: None, reason, .. } => write!(f, "screendump: {reason}"),
            HostError::Dump { fd: Some(fd), reason, .. } => write!(f, "screendump to descriptor {fd}: {reason}"),
            HostError::Image { name, path: Some(path), reason, .. } => {
                write!(f, "image `{name}`: cannot load `{path}`: {reason}")
            }
            HostError::Image { name, path: None, reason, .. } => write!(f, "image `{name}`: {reason}"),
            HostError::Limit(m) | HostError::Render(m) | HostError::Frames(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for HostError {}

/// The message alone, for code that reports text (the interpreter takes
/// an Animator op's error typed, as [`AnimatorOpError::Host`](super::AnimatorOpError::Host)).
impl From<HostError> for String {
    fn from(e: HostError) -> String {
        e.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_variant_says_todays_message() {
        let cases = [
            (HostError::UnknownImage("i".into()), "no image named `i`"),
            (HostError::UnknownArea("a".into()), "no area named `a`"),
            (HostError::UnknownCursor("c".into()), "no cursor named `c`"),
            (
                HostError::Write {
                    what: Written::Screenshot,
                    path: "s.png".into(),
                    kind: Some(io::ErrorKind::NotFound),
                    reason: "s.png: gone".into(),
                },
                "cannot write screenshot `s.png`: s.png: gone",
            ),
            (
                HostError::Write { what: Written::Screendump, path: "d".into(), kind: None, reason: "r".into() },
                "cannot write screendump `d`: r",
            ),
            (HostError::Dump { fd: None, kind: io::ErrorKind::BrokenPipe, reason: "p".into() }, "screendump: p"),
            (
                HostError::Dump { fd: Some(5), kind: io::ErrorKind::NotFound, reason: "q".into() },
                "screendump to descriptor 5: q",
            ),
            (
                HostError::Image { name: "n".into(), path: Some("f.png".into()), kind: None, reason: "bad".into() },
                "image `n`: cannot load `f.png`: bad",
            ),
            (HostError::Image { name: "n".into(), path: None, kind: None, reason: "big".into() }, "image `n`: big"),
            (HostError::Limit("too many".into()), "too many"),
            (HostError::Render("OpenGL error: x".into()), "OpenGL error: x"),
            (HostError::Frames("--gif `a.gif`: full".into()), "--gif `a.gif`: full"),
        ];
        for (e, text) in cases {
            assert_eq!(e.to_string(), text);
            assert_eq!(String::from(e), text);
        }
    }
}
