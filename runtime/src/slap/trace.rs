//! `animvm --trace` for SLAP: one JSON object per line and frame, frames 0
//! to the scene's length by default (`--frames N` says how many):
//!
//! ```text
//! {"frame":0,"actors":[{"id":1,"action":0,"position":[0.0,0.0,0.0],"direction":0.0,"color":[1.0,0.0,0.0],"size":0.9}],"camera":{"position":[0.0,2.0,8.0],"direction":[0.0,-1.0,-4.0]}}
//! ```
//!
//! - `frame`: the frame, from 0; its commands have run (at frame f, every
//!   command timed f runs in source order, then the state is reported).
//! - `actors`: every actor mentioned so far, by id ascending: its `id`, its
//!   `action` (0 to 11), its `position` `[x, y, z]` (y up), `direction`
//!   (radians, as given), `color` `[r, g, b]` (as given) and `size`.
//! - `camera`: its `position` and its look `direction` as a vector (as
//!   given by `camera direction x y z`; the unit vector for the angles
//!   form).
//!
//! Whole ids and actions are written as integers; every other number as
//! the shortest decimal that reads back to the same `f64` (serde_json's
//! writer: `0.0`, `15.625`, `1e-7`, `1.25e+307`, `-0.0`), so a trace can be compared
//! bit for bit. The values are finite by construction (the domain refuses
//! NaN and infinities), except a position that overflowed (a size near
//! `f64::MAX` moving for long enough): JSON has no infinity, so it is
//! written `null`. The trace never depends on `--fps`, and a source and
//! its bundle (stripped or not, folded or not) give the same bytes.

use crate::Error;
use crate::report;
use animkit_player::slap::log::source_file;
use animkit_vm::engine::slap::{ActorState, Camera, SceneSim};
use std::io::{self, Write};

/// Plays `scene` from its current frame for `frames` frames (default: to
/// its length, inclusive), writing a trace line per frame to `out` and
/// each runtime error as it happens to `errors`; returns how many runtime
/// errors there were.
///
/// ```
/// use std::sync::Arc;
/// use animkit_vm::engine::{isa::Op, slap::{SceneAsm, SceneSim}};
/// let mut asm = SceneAsm::new();
/// asm.op(Op::Size, &[1.0, 0.0]); // a runtime error: size 0
/// let scene = SceneSim::new(Arc::new(asm.finish("s").unwrap()), "s").unwrap();
/// let (mut out, mut err) = (Vec::new(), Vec::new());
/// assert_eq!(animkit_runtime::slap::trace::run(scene, Some(1), &mut out, &mut err), Ok(1));
/// assert_eq!(
///     String::from_utf8(err).unwrap(),
///     "s.slap: error: frame 0: `actor 1 size 0`: the size must be a finite number above 0\n"
/// );
/// ```
pub fn run(
    mut scene: SceneSim,
    frames: Option<u64>,
    out: &mut dyn Write,
    errors: &mut dyn Write,
) -> Result<usize, Error> {
    let frames = frames.unwrap_or(scene.length().saturating_add(1));
    let file = source_file(&scene);
    let mut out = io::BufWriter::new(out);
    let mut line = Vec::with_capacity(256);
    let mut reported = 0;
    let mut written = Ok(());
    for f in 0..frames {
        if f > 0 {
            scene.step();
        }
        let new = &scene.errors()[reported.min(scene.errors().len())..];
        if !new.is_empty() {
            // Errors go out after the trace lines before them.
            written = out.flush();
            for e in new {
                report::error_line(errors, &file, e.error.position, &format!("frame {}: {}", e.frame, e.error.message));
            }
            reported += new.len();
        }
        // Written an actor at a time: a frame of a million actors is a line
        // of about 100 MB, never held whole.
        written = written.and_then(|()| write_frame_to(&mut out, &mut line, &scene));
        if written.is_err() {
            break;
        }
    }
    match written.and_then(|()| out.flush()) {
        // A reader that stopped early (`animvm --trace ... | head`) is not
        // an error: the trace simply ends there.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
        Err(e) => return Err(Error::Trace(e.to_string())),
        Ok(()) => {}
    }
    let count = scene.error_count();
    if count > reported as u64 {
        let _ = writeln!(errors, "{file}: error: {} more runtime errors were not kept", count - reported as u64);
    }
    Ok(usize::try_from(count).unwrap_or(usize::MAX))
}

/// Appends the trace line of the scene's current frame (with its newline).
///
/// ```
/// use std::sync::Arc;
/// use animkit_vm::engine::{isa::Op, slap::{SceneAsm, SceneSim}};
/// let mut asm = SceneAsm::new();
/// asm.op(Op::ActorColor, &[1.0, 1.0, 0.0, 0.0]).op(Op::Size, &[1.0, 0.9]);
/// let scene = SceneSim::new(Arc::new(asm.finish("s").unwrap()), "s").unwrap();
/// let mut line = Vec::new();
/// animkit_runtime::slap::trace::write_frame(&mut line, &scene);
/// assert_eq!(
///     String::from_utf8(line).unwrap(),
///     "{\"frame\":0,\"actors\":[{\"id\":1,\"action\":0,\"position\":[0.0,0.0,0.0],\"direction\":0.0,\"color\":[1.0,0.0,0.0],\"size\":0.9}],\"camera\":{\"position\":[0.0,2.0,8.0],\"direction\":[0.0,-1.0,-4.0]}}\n"
/// );
/// ```
pub fn write_frame(line: &mut Vec<u8>, scene: &SceneSim) {
    let mut piece = Vec::new();
    // Writing into a vector cannot fail.
    let _ = write_frame_to(line, &mut piece, scene);
}

/// [`write_frame`] into `out`, an actor at a time through `piece` (a
/// buffer for one actor's text), so that the line is never held whole.
fn write_frame_to(out: &mut impl Write, piece: &mut Vec<u8>, scene: &SceneSim) -> io::Result<()> {
    piece.clear();
    piece.extend_from_slice(b"{\"frame\":");
    piece.extend_from_slice(scene.frame().to_string().as_bytes());
    piece.extend_from_slice(b",\"actors\":[");
    for (i, a) in scene.actors().enumerate() {
        if i > 0 {
            piece.push(b',');
        }
        actor(piece, &a);
        if piece.len() >= 4096 {
            out.write_all(piece)?;
            piece.clear();
        }
    }
    piece.extend_from_slice(b"],\"camera\":");
    camera(piece, &scene.camera());
    piece.extend_from_slice(b"}\n");
    out.write_all(piece)
}

fn actor(line: &mut Vec<u8>, a: &ActorState) {
    line.extend_from_slice(b"{\"id\":");
    line.extend_from_slice(a.id.to_string().as_bytes());
    line.extend_from_slice(b",\"action\":");
    line.extend_from_slice((a.action as u8).to_string().as_bytes());
    line.extend_from_slice(b",\"position\":");
    vector(line, &a.position);
    line.extend_from_slice(b",\"direction\":");
    number(line, a.direction);
    line.extend_from_slice(b",\"color\":");
    vector(line, &a.color);
    line.extend_from_slice(b",\"size\":");
    number(line, a.size);
    line.push(b'}');
}

fn camera(line: &mut Vec<u8>, c: &Camera) {
    line.extend_from_slice(b"{\"position\":");
    vector(line, &c.position);
    line.extend_from_slice(b",\"direction\":");
    vector(line, &c.direction);
    line.push(b'}');
}

fn vector(line: &mut Vec<u8>, v: &[f64; 3]) {
    line.push(b'[');
    for (i, &x) in v.iter().enumerate() {
        if i > 0 {
            line.push(b',');
        }
        number(line, x);
    }
    line.push(b']');
}

/// `v` as JSON: the shortest decimal that reads back to it; `null` for an
/// infinity (JSON has none).
fn number(line: &mut Vec<u8>, v: f64) {
    // Writing into a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *line, &v);
}
