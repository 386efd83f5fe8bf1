//! [`SlapOpError`]: why a SLAP command failed when it ran. The interpreter
//! turns it into a runtime error at the command's position (its
//! [`Display`](fmt::Display) text is the message, naming the command as a
//! script writes it); the command is skipped and the scene goes on.

use super::stage::{ActorId, StageFull};
use crate::isa::{Op, animator_ops, generic_ops, sprite_ops};
use crate::limits::MAX_SLAP_FRAME;
use std::fmt;

/// A failed SLAP command ([`Stage`](super::Stage)'s
/// [`Domain::Error`](crate::interp::Domain::Error)).
///
/// ```
/// use animkit_vm::engine::isa::Op;
/// use animkit_vm::engine::slap::op_error::{SlapOpError, Refusal};
/// let e = SlapOpError::Refused { op: Op::Size, values: vec![1.0, 0.0], why: Refusal::Size };
/// assert_eq!(e.to_string(), "`actor 1 size 0`: the size must be a finite number above 0");
/// assert_eq!(SlapOpError::NotSlap(Op::Line).to_string(), "LINE cannot run in a SLAP scene");
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum SlapOpError {
    /// A SLAP op refused its values.
    Refused {
        /// The op.
        op: Op,
        /// Its register window, as the command's words.
        values: Vec<f64>,
        /// Why.
        why: Refusal,
    },
    /// An op of another language (a hand-built program; the verifier lets
    /// only SLAP ops into a SLAP module).
    NotSlap(Op),
}

/// Why a SLAP op refused its values.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Refusal {
    /// The actor id is not a whole number in `0..=4294967295`.
    ActorId,
    /// The action is not a whole number in `0..=11`.
    Action,
    /// A value is not finite; the words say which.
    NotFinite(&'static str),
    /// The stage holds the most actors it may.
    Full(StageFull),
    /// The size is not finite or not above 0.
    Size,
    /// `camera direction 0 0 0`.
    LookZero,
    /// `camera lookat` of the point the camera stands on.
    LookAtCamera,
    /// `camera lookat` of a point so far that the look vector is not
    /// finite.
    LookAtTooFar,
    /// `camera follow` at distance 0 and height 0.
    InsideActor,
    /// `camera follow` of an actor not on the stage.
    NotInScene(ActorId),
    /// `camera move` over a number of frames that is not a whole number
    /// in `1..=MAX_SLAP_FRAME`.
    MoveFrames,
}

impl fmt::Display for SlapOpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SlapOpError::Refused { op, values, why } => write!(f, "{}: {why}", command(*op, values)),
            SlapOpError::NotSlap(op) => write!(f, "{op} cannot run in a SLAP scene"),
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::ActorId => write!(f, "the actor id must be a whole number in 0..={}", u32::MAX),
            Refusal::Action => f.write_str("the action must be one of the twelve, a whole number in 0..=11"),
            Refusal::NotFinite(what) => f.write_str(what),
            Refusal::Full(e) => e.fmt(f),
            Refusal::Size => f.write_str("the size must be a finite number above 0"),
            Refusal::LookZero => f.write_str("the look vector must not be all zero"),
            Refusal::LookAtCamera => f.write_str("the point is where the camera stands, so there is no look vector"),
            Refusal::LookAtTooFar => f.write_str("the point is too far from the camera: the look vector is not finite"),
            Refusal::InsideActor => f.write_str("at distance 0 and height 0 the camera would stand inside the actor"),
            Refusal::NotInScene(id) => write!(f, "actor {id} is not in the scene"),
            Refusal::MoveFrames => write!(f, "a move takes a whole number of frames in 1..={MAX_SLAP_FRAME}"),
        }
    }
}

impl std::error::Error for SlapOpError {}

/// A number as a message shows it: plainly in the usual range, in
/// exponent form beyond it (`1e300`, not 301 digits).
fn number(x: f64) -> String {
    if x == 0.0 || (1e-6..1e16).contains(&x.abs()) { format!("{x}") } else { format!("{x:e}") }
}

/// The command as a script writes it, for messages: `actor 1 action 12`.
fn command(op: Op, v: &[f64]) -> String {
    let words = |v: &[f64]| v.iter().map(|&x| format!(" {}", number(x))).collect::<String>();
    let (head, attr, rest) = match op {
        Op::Action => ("actor", "action", 1),
        Op::Direction => ("actor", "direction", 1),
        Op::Position2 | Op::Position3 => ("actor", "position", 1),
        Op::ActorColor => ("actor", "color", 1),
        Op::Size => ("actor", "size", 1),
        Op::CamPos => ("camera", "position", 0),
        Op::CamLookAt => ("camera", "lookat", 0),
        Op::CamFollow => ("camera", "follow", 0),
        Op::CamMove => ("camera", "move", 2),
        Op::CamDir | Op::CamAngles => ("camera", "direction", 0),
        // Never asked: only SLAP ops name a command.
        generic_ops!() | sprite_ops!() | animator_ops!() => ("camera", "direction", 0),
    };
    match rest {
        2 => format!("`{head} {attr}{} over{}`", words(&v[..3.min(v.len())]), words(v.get(3..).unwrap_or(&[]))),
        1 => format!("`{head}{} {attr}{}`", words(&v[..1.min(v.len())]), words(v.get(1..).unwrap_or(&[]))),
        _ => format!("`{head} {attr}{}`", words(v)),
    }
}
