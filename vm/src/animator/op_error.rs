//! [`AnimatorOpError`]: why an Animator command failed when it ran. The
//! interpreter turns it into a runtime error at the command's position
//! (its [`Display`](fmt::Display) text is the message), and the program
//! goes on.

use super::host_error::HostError;
use super::machine::MAX_MEASURE_DEPTH;
use crate::isa::Op;
use std::fmt;

/// A failed Animator command ([`Machine`](super::Machine)'s
/// [`Domain::Error`](crate::interp::Domain::Error)).
///
/// ```
/// use animkit_vm::engine::animator::{HostError, AnimatorOpError};
/// assert_eq!(AnimatorOpError::StackEmpty.to_string(), "pop without a matching push: the matrix stack holds only the root matrix");
/// let host = AnimatorOpError::from(HostError::UnknownImage("sky".into()));
/// assert_eq!(host.to_string(), "no image named `sky`");
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum AnimatorOpError {
    /// The canvas refused a host call.
    Host(HostError),
    /// `viewport L B R T` with `L == R` or `B == T`.
    EmptyViewport {
        /// Left, bottom, right, top.
        ltrb: [f64; 4],
    },
    /// `viewport aspect NAME` of a macro that draws a single point.
    MacroIsAPoint {
        /// The macro.
        name: String,
        /// The point.
        at: [f64; 2],
    },
    /// `viewport NAME` (without `aspect`) of a macro whose drawing has no
    /// width or no height.
    MacroIsFlat {
        /// The macro.
        name: String,
        /// Left, bottom, right, top of what it draws.
        ltrb: [f64; 4],
    },
    /// `viewport NAME` of a name bound to no macro.
    NoMacro(String),
    /// Macros measured inside measured macros more than
    /// [`MAX_MEASURE_DEPTH`] deep.
    MeasuredTooDeep(String),
    /// A measured macro that draws nothing.
    MeasuredNothing(String),
    /// A measured macro that waited (`sleep`, `flush` with a delay).
    MeasuredWait(String),
    /// Measuring a macro took more than the steps left to the call.
    MeasuredTooLong {
        /// The macro.
        name: String,
        /// The steps that were left.
        left: u64,
    },
    /// `push` on a full matrix stack.
    StackFull {
        /// The most matrices it holds.
        max: usize,
    },
    /// `pop` with only the root matrix on the stack.
    StackEmpty,
    /// An image, area or cursor over the count the host holds.
    TooMany {
        /// `image`, `area` or `cursor`.
        what: &'static str,
        /// Its name.
        name: String,
        /// The most the host holds.
        count: usize,
        /// How to free some.
        free: &'static str,
    },
    /// An image, area or cursor over the bytes the host holds.
    TooLarge {
        /// `image`, `area` or `cursor`.
        what: &'static str,
        /// Its name.
        name: String,
        /// The most bytes they may take.
        max: u64,
        /// How to free some.
        free: &'static str,
    },
    /// A `defcursor` bitmap with a character that is no hexadecimal digit.
    CursorNotHex,
    /// A `defcursor` bitmap of another length than 256 digits.
    CursorLength(usize),
    /// An op of another language (a bundle the verifier let through for
    /// another module kind cannot reach here; a hand-built one can).
    NotAnimator(Op),
}

impl fmt::Display for AnimatorOpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnimatorOpError::Host(e) => e.fmt(f),
            AnimatorOpError::EmptyViewport { ltrb: [l, b, r, t] } => {
                write!(f, "viewport {l} {b} - {r} {t} has no width or no height")
            }
            AnimatorOpError::MacroIsAPoint { name, at: [l, b] } => {
                write!(f, "macro `{name}` draws a single point ({l} {b}), which has no size to fit")
            }
            AnimatorOpError::MacroIsFlat { name, ltrb: [l, b, r, t] } => {
                write!(f, "macro `{name}` is flat ({l} {b} - {r} {t}); use `viewport aspect` to keep its proportions")
            }
            AnimatorOpError::NoMacro(name) => write!(f, "no macro named `{name}`"),
            AnimatorOpError::MeasuredTooDeep(name) => {
                write!(f, "viewport {name}: macros measure each other more than {MAX_MEASURE_DEPTH} levels deep")
            }
            AnimatorOpError::MeasuredNothing(name) => {
                write!(f, "viewport {name}: the macro draws nothing, so it has no size to fit")
            }
            AnimatorOpError::MeasuredWait(name) => {
                write!(f, "viewport {name}: the macro tried to wait while being measured")
            }
            AnimatorOpError::MeasuredTooLong { name, left } => {
                write!(f, "viewport {name}: measuring the macro took more than the {left} steps left to this call")
            }
            AnimatorOpError::StackFull { max } => write!(f, "push: the matrix stack is full ({max} matrices)"),
            AnimatorOpError::StackEmpty => {
                f.write_str("pop without a matching push: the matrix stack holds only the root matrix")
            }
            AnimatorOpError::TooMany { what, name, count, free } => {
                write!(f, "{what} `{name}`: the program already holds {count} {what}s, the most it may ({free})")
            }
            AnimatorOpError::TooLarge { what, name, max, free } => {
                write!(f, "{what} `{name}`: {what}s would take more than {max} bytes ({free})")
            }
            AnimatorOpError::CursorNotHex => f.write_str("cursor bitmaps are hexadecimal digits only"),
            AnimatorOpError::CursorLength(n) => {
                write!(f, "a cursor bitmap has 256 hexadecimal digits (32x32 bits), this one has {n}")
            }
            AnimatorOpError::NotAnimator(op) => write!(f, "{op} is not an Animator operation"),
        }
    }
}

impl std::error::Error for AnimatorOpError {}

impl From<HostError> for AnimatorOpError {
    fn from(e: HostError) -> AnimatorOpError {
        AnimatorOpError::Host(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_variant_says_todays_message() {
        let name = || "m".to_string();
        let cases = [
            (AnimatorOpError::Host(HostError::UnknownArea("a".into())), "no area named `a`"),
            (
                AnimatorOpError::EmptyViewport { ltrb: [0.0, 1.0, 0.0, 2.5] },
                "viewport 0 1 - 0 2.5 has no width or no height",
            ),
            (
                AnimatorOpError::MacroIsAPoint { name: name(), at: [1.0, -2.0] },
                "macro `m` draws a single point (1 -2), which has no size to fit",
            ),
            (
                AnimatorOpError::MacroIsFlat { name: name(), ltrb: [0.0, 1.0, 3.0, 1.0] },
                "macro `m` is flat (0 1 - 3 1); use `viewport aspect` to keep its proportions",
            ),
            (AnimatorOpError::NoMacro(name()), "no macro named `m`"),
            (
                AnimatorOpError::MeasuredTooDeep(name()),
                "viewport m: macros measure each other more than 16 levels deep",
            ),
            (AnimatorOpError::MeasuredNothing(name()), "viewport m: the macro draws nothing, so it has no size to fit"),
            (AnimatorOpError::MeasuredWait(name()), "viewport m: the macro tried to wait while being measured"),
            (
                AnimatorOpError::MeasuredTooLong { name: name(), left: 7 },
                "viewport m: measuring the macro took more than the 7 steps left to this call",
            ),
            (AnimatorOpError::StackFull { max: 32 }, "push: the matrix stack is full (32 matrices)"),
            (AnimatorOpError::StackEmpty, "pop without a matching push: the matrix stack holds only the root matrix"),
            (
                AnimatorOpError::TooMany { what: "image", name: name(), count: 2, free: "reuse names" },
                "image `m`: the program already holds 2 images, the most it may (reuse names)",
            ),
            (
                AnimatorOpError::TooLarge { what: "area", name: name(), max: 9, free: "`delarea` frees them" },
                "area `m`: areas would take more than 9 bytes (`delarea` frees them)",
            ),
            (AnimatorOpError::CursorNotHex, "cursor bitmaps are hexadecimal digits only"),
            (
                AnimatorOpError::CursorLength(3),
                "a cursor bitmap has 256 hexadecimal digits (32x32 bits), this one has 3",
            ),
            (AnimatorOpError::NotAnimator(Op::Sprite), "SPRITE is not an Animator operation"),
        ];
        for (e, message) in cases {
            assert_eq!(e.to_string(), message, "{e:?}");
        }
    }
}
