//! The SLAP domain ops on a [`Stage`]: each op's register window is checked
//! and applied at the stage's current frame.
//!
//! The verifier cannot see register values, so every check a value needs
//! is made here, and a failed one is a runtime error naming the command as
//! a script would write it; the command is skipped and the scene goes on:
//!
//! | op | error when |
//! | --- | --- |
//! | every actor op | the id is not a whole number in `0..=4294967295` (a NaN, an infinity, a fraction, a negative number, 2^32 or more); the stage already holds [`crate::limits::MAX_SLAP_ACTORS`] others |
//! | `ACTION` | the action is not a whole number in `0..=11` |
//! | `DIRECTION`, `POSITION2`, `POSITION3`, `ACOLOR` | a value is not finite |
//! | `SIZE` | the size is not finite or not above 0 |
//! | `CAMPOS`, `CAMANGLES` | a value is not finite |
//! | `CAMDIR` | a value is not finite, or all three are zero |
//! | `CAMLOOKAT` | a value is not finite; the point is where the camera stands (or so far that the look vector is not finite) |
//! | `CAMMOVE` | a coordinate is not finite; the frames are not a whole number in `1..=16777215` |
//! | `CAMFOLLOW` | the id is not a whole number in `0..=4294967295`, or not an actor on the stage; the distance or height is not finite; both are zero |
//!
//! ```
//! use std::sync::Arc;
//! use animkit_vm::engine::isa::Op;
//! use animkit_vm::engine::slap::{SceneAsm, SceneSim};
//! let mut asm = SceneAsm::new();
//! asm.line(1, 1).op(Op::Size, &[1.0, 0.5]);
//! asm.line(2, 1).op(Op::Action, &[1.0, 2.5]); // not a whole number: skipped
//! let scene = SceneSim::with_index(Arc::new(asm.finish("s")?), 0)?;
//! assert_eq!(scene.actor(1).unwrap().size, 0.5);
//! assert_eq!(
//!     scene.errors()[0].error.to_string(),
//!     "2:1: `actor 1 action 2.5`: the action must be one of the twelve, a whole number in 0..=11"
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::actions::Action;
use super::op_error::{Refusal, SlapOpError};
use super::stage::{ActorId, Camera, Follow, Stage, StageFull};
use crate::interp::{Args, Domain, Env, Flow};
use crate::isa::{Op, animator_ops, generic_ops, sprite_ops};

/// The window's values, exactly as many as the op's signature in its ISA
/// row (a shorter window, possible only in an unverified program, reads as
/// zeros). Each arm names its length as an array type; that it is the
/// row's is asserted here and tested for every SLAP row
/// (`tests::every_arm_reads_its_rows_window`).
#[inline]
fn window<const N: usize>(op: Op, args: &Args<'_>) -> [f64; N] {
    debug_assert_eq!(
        N,
        op.info().block.len(),
        "{op}: the arm reads {N} registers, its ISA row's window has {}",
        op.info().block.len()
    );
    std::array::from_fn(|i| args.num(i))
}

/// `op` with values `v` refused, `why`.
fn refused(op: Op, v: &[f64], why: Refusal) -> SlapOpError {
    SlapOpError::Refused { op, values: v.to_vec(), why }
}

fn id(op: Op, v: &[f64]) -> Result<ActorId, SlapOpError> {
    let x = v[0];
    if x.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(&x) {
        Ok(x as ActorId)
    } else {
        Err(refused(op, v, Refusal::ActorId))
    }
}

/// Every value of `v` is finite, or `op` with values `all` is refused.
fn finite(op: Op, v: &[f64], all: &[f64], what: &'static str) -> Result<(), SlapOpError> {
    if v.iter().all(|x| x.is_finite()) { Ok(()) } else { Err(refused(op, all, Refusal::NotFinite(what))) }
}

fn full(op: Op, v: &[f64]) -> impl FnOnce(StageFull) -> SlapOpError + '_ {
    move |e| refused(op, v, Refusal::Full(e))
}

impl Domain for Stage {
    type Error = SlapOpError;

    fn op(&mut self, op: Op, args: Args<'_>, _env: &Env<'_>) -> Result<Flow, SlapOpError> {
        match op {
            Op::Action => {
                let v: [f64; 2] = window(op, &args);
                let id = id(op, &v)?;
                let action = (v[1].fract() == 0.0 && v[1] >= 0.0)
                    .then(|| Action::from_index(v[1].min(u32::MAX as f64) as u32))
                    .flatten()
                    .ok_or_else(|| refused(op, &v, Refusal::Action))?;
                self.set_action(id, action).map_err(full(op, &v))?;
            }
            Op::Direction => {
                let v: [f64; 2] = window(op, &args);
                let id = id(op, &v)?;
                finite(op, &v, &v, "the direction must be a finite number")?;
                self.set_direction(id, v[1]).map_err(full(op, &v))?;
            }
            Op::Position2 => {
                let v: [f64; 3] = window(op, &args);
                let id = id(op, &v)?;
                finite(op, &v, &v, "every coordinate must be a finite number")?;
                self.set_position(id, v[1], None, v[2]).map_err(full(op, &v))?;
            }
            Op::Position3 => {
                let v: [f64; 4] = window(op, &args);
                let id = id(op, &v)?;
                finite(op, &v, &v, "every coordinate must be a finite number")?;
                self.set_position(id, v[1], Some(v[2]), v[3]).map_err(full(op, &v))?;
            }
            Op::ActorColor => {
                let v: [f64; 4] = window(op, &args);
                let id = id(op, &v)?;
                finite(op, &v, &v, "every colour component must be a finite number")?;
                self.set_color(id, [v[1], v[2], v[3]]).map_err(full(op, &v))?;
            }
            Op::Size => {
                let v: [f64; 2] = window(op, &args);
                let id = id(op, &v)?;
                if !(v[1].is_finite() && v[1] > 0.0) {
                    return Err(refused(op, &v, Refusal::Size));
                }
                self.set_size(id, v[1]).map_err(full(op, &v))?;
            }
            Op::CamPos => {
                let v: [f64; 3] = window(op, &args);
                finite(op, &v, &v, "every coordinate must be a finite number")?;
                self.set_camera_position(v);
            }
            Op::CamDir => {
                let v: [f64; 3] = window(op, &args);
                finite(op, &v, &v, "every component must be a finite number")?;
                if v == [0.0; 3] {
                    return Err(refused(op, &v, Refusal::LookZero));
                }
                self.set_camera_direction(v);
            }
            Op::CamAngles => {
                let v: [f64; 2] = window(op, &args);
                finite(op, &v, &v, "both angles must be finite numbers")?;
                self.set_camera_direction(Camera::look(v[0], v[1]));
            }
            Op::CamLookAt => {
                let v: [f64; 3] = window(op, &args);
                finite(op, &v, &v, "every coordinate must be a finite number")?;
                self.camera_look_at(v).map_err(|d| {
                    refused(op, &v, if d == [0.0; 3] { Refusal::LookAtCamera } else { Refusal::LookAtTooFar })
                })?;
            }
            Op::CamFollow => {
                let v: [f64; 3] = window(op, &args);
                let id = if v[0].fract() == 0.0 && (0.0..=u32::MAX as f64).contains(&v[0]) {
                    v[0] as ActorId
                } else {
                    return Err(refused(op, &v, Refusal::ActorId));
                };
                finite(op, &v, &v, "the distance and the height must be finite numbers")?;
                if v[1] == 0.0 && v[2] == 0.0 {
                    return Err(refused(op, &v, Refusal::InsideActor));
                }
                if !self.camera_follow(Follow { id, distance: v[1], height: v[2] }) {
                    return Err(refused(op, &v, Refusal::NotInScene(id)));
                }
            }
            Op::CamMove => {
                let v: [f64; 4] = window(op, &args);
                finite(op, &v[..3], &v, "every coordinate must be a finite number")?;
                let n = v[3];
                if !(n.fract() == 0.0 && (1.0..=f64::from(crate::limits::MAX_SLAP_FRAME)).contains(&n)) {
                    return Err(refused(op, &v, Refusal::MoveFrames));
                }
                self.camera_move_to([v[0], v[1], v[2]], n as u64);
            }
            generic_ops!() | sprite_ops!() | animator_ops!() => {
                return Err(SlapOpError::NotSlap(op));
            }
        }
        Ok(Flow::Continue)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp::Bindings;
    use crate::isa::{Insn, OpClass};
    use crate::program::{Function, Language, Module, Program};

    fn apply(stage: &mut Stage, op: Op, values: &[f64]) -> Result<(), String> {
        let function = Function { code: vec![Insn::ax(Op::Halt, 0)], ..Function::default() };
        let module = Module {
            name: 0,
            language: Language::Slap,
            functions: vec![function],
            states: vec![],
            entry: Some(0),
            source: None,
        };
        let program = crate::verify::verify(Program { strings: vec!["s".into()], modules: vec![module] }).unwrap();
        let bindings = Bindings::default();
        let env = Env { code: program.code(0).unwrap(), bindings: &bindings, budget: 0 };
        stage.op(op, Args::new(values, &[]), &env).map(|_| ()).map_err(|e| e.to_string())
    }

    /// Every SLAP row's op runs through its arm with a window of its row's
    /// length (the arms' lengths are asserted against the rows in
    /// `window`), and a window of ones is accepted by every op but
    /// `CAMLOOKAT` (the camera's own position) and `CAMFOLLOW` (no actor 1).
    #[test]
    fn every_arm_reads_its_rows_window() {
        let slap: Vec<Op> = Op::ALL.iter().copied().filter(|op| op.info().class == OpClass::Slap).collect();
        assert_eq!(slap.len(), 12);
        let mut refused = Vec::new();
        for op in slap {
            let mut stage = Stage::new();
            if apply(&mut stage, op, &vec![1.0; op.info().block.len()]).is_err() {
                refused.push(op);
            }
        }
        assert_eq!(refused, [Op::CamFollow]);
    }

    #[test]
    fn every_check_names_the_command() {
        let nan = f64::NAN;
        let inf = f64::INFINITY;
        let id_error = |cmd: &str| format!("`{cmd}`: the actor id must be a whole number in 0..=4294967295");
        let cases: Vec<(Op, Vec<f64>, String)> = vec![
            (Op::Size, vec![1.5, 1.0], id_error("actor 1.5 size 1")),
            (Op::Size, vec![-1.0, 1.0], id_error("actor -1 size 1")),
            (Op::Size, vec![nan, 1.0], id_error("actor NaN size 1")),
            (Op::Size, vec![inf, 1.0], id_error("actor inf size 1")),
            (Op::Size, vec![4294967296.0, 1.0], id_error("actor 4294967296 size 1")),
            (Op::Size, vec![1e20, 1.0], id_error("actor 1e20 size 1")),
            (Op::Size, vec![1e-7, 1.0], id_error("actor 1e-7 size 1")),
            (Op::ActorColor, vec![-0.5, 1.0, 1.0, 1.0], id_error("actor -0.5 color 1 1 1")),
            (
                Op::Action,
                vec![1.0, 12.0],
                "`actor 1 action 12`: the action must be one of the twelve, a whole number in 0..=11".into(),
            ),
            (
                Op::Action,
                vec![1.0, -1.0],
                "`actor 1 action -1`: the action must be one of the twelve, a whole number in 0..=11".into(),
            ),
            (
                Op::Action,
                vec![1.0, nan],
                "`actor 1 action NaN`: the action must be one of the twelve, a whole number in 0..=11".into(),
            ),
            (
                Op::Action,
                vec![1.0, 1e300],
                "`actor 1 action 1e300`: the action must be one of the twelve, a whole number in 0..=11".into(),
            ),
            (Op::Direction, vec![1.0, nan], "`actor 1 direction NaN`: the direction must be a finite number".into()),
            (
                Op::Position2,
                vec![1.0, inf, 0.0],
                "`actor 1 position inf 0`: every coordinate must be a finite number".into(),
            ),
            (
                Op::Position3,
                vec![1.0, 0.0, -inf, 0.0],
                "`actor 1 position 0 -inf 0`: every coordinate must be a finite number".into(),
            ),
            (
                Op::ActorColor,
                vec![1.0, 0.0, 0.0, nan],
                "`actor 1 color 0 0 NaN`: every colour component must be a finite number".into(),
            ),
            (Op::Size, vec![1.0, 0.0], "`actor 1 size 0`: the size must be a finite number above 0".into()),
            (Op::Size, vec![1.0, -2.0], "`actor 1 size -2`: the size must be a finite number above 0".into()),
            (Op::Size, vec![1.0, inf], "`actor 1 size inf`: the size must be a finite number above 0".into()),
            (
                Op::CamPos,
                vec![0.0, nan, 0.0],
                "`camera position 0 NaN 0`: every coordinate must be a finite number".into(),
            ),
            (
                Op::CamDir,
                vec![0.0, -0.0, 0.0],
                "`camera direction 0 -0 0`: the look vector must not be all zero".into(),
            ),
            (
                Op::CamDir,
                vec![inf, 0.0, 0.0],
                "`camera direction inf 0 0`: every component must be a finite number".into(),
            ),
            (Op::CamAngles, vec![0.0, nan], "`camera direction 0 NaN`: both angles must be finite numbers".into()),
            (
                Op::CamLookAt,
                vec![0.0, 2.0, 8.0],
                "`camera lookat 0 2 8`: the point is where the camera stands, so there is no look vector".into(),
            ),
            (
                Op::CamLookAt,
                vec![nan, 0.0, 0.0],
                "`camera lookat NaN 0 0`: every coordinate must be a finite number".into(),
            ),
            (Op::CamFollow, vec![1.0, 6.0, 2.0], "`camera follow 1 6 2`: actor 1 is not in the scene".into()),
            (
                Op::CamFollow,
                vec![1.5, 6.0, 2.0],
                "`camera follow 1.5 6 2`: the actor id must be a whole number in 0..=4294967295".into(),
            ),
            (
                Op::CamFollow,
                vec![1.0, inf, 2.0],
                "`camera follow 1 inf 2`: the distance and the height must be finite numbers".into(),
            ),
            (
                Op::CamMove,
                vec![1.0, nan, 0.0, 5.0],
                "`camera move 1 NaN 0 over 5`: every coordinate must be a finite number".into(),
            ),
            (
                Op::CamMove,
                vec![1.0, 2.0, 0.0, 0.5],
                "`camera move 1 2 0 over 0.5`: a move takes a whole number of frames in 1..=16777215".into(),
            ),
            (
                Op::CamMove,
                vec![1.0, 2.0, 0.0, 0.0],
                "`camera move 1 2 0 over 0`: a move takes a whole number of frames in 1..=16777215".into(),
            ),
            (
                Op::CamFollow,
                vec![1.0, 0.0, -0.0],
                "`camera follow 1 0 -0`: at distance 0 and height 0 the camera would stand inside the actor".into(),
            ),
        ];
        for (op, values, message) in cases {
            let mut stage = Stage::new();
            assert_eq!(apply(&mut stage, op, &values), Err(message), "{op} {values:?}");
            // The command was skipped: nothing was created or changed.
            assert!(stage.is_empty(), "{op}");
            assert_eq!(stage.camera(), Camera::DEFAULT, "{op}");
        }
    }

    #[test]
    fn a_follow_tracks_the_actor_until_the_next_camera_command() {
        let mut stage = Stage::new();
        apply(&mut stage, Op::Action, &[1.0, 10.0]).unwrap(); // sprint along +z, 1/8 a frame
        apply(&mut stage, Op::CamFollow, &[1.0, 6.0, 2.0]).unwrap();
        assert_eq!(stage.follow(), Some(Follow { id: 1, distance: 6.0, height: 2.0 }));
        assert_eq!(stage.camera(), Camera { position: [0.0, 2.0, -6.0], direction: [0.0, -2.0, 6.0] });
        stage.set_frame(80);
        assert_eq!(stage.camera(), Camera { position: [0.0, 2.0, 4.0], direction: [0.0, -2.0, 6.0] });
        // A look-at freezes the follow where it is and aims from there.
        apply(&mut stage, Op::CamLookAt, &[0.0, 0.0, 0.0]).unwrap();
        assert_eq!(stage.follow(), None);
        stage.set_frame(160);
        assert_eq!(stage.camera(), Camera { position: [0.0, 2.0, 4.0], direction: [0.0, -2.0, -4.0] });
        // A refused look-at changes nothing.
        assert!(apply(&mut stage, Op::CamLookAt, &[0.0, 2.0, 4.0]).is_err());
        assert_eq!(stage.camera(), Camera { position: [0.0, 2.0, 4.0], direction: [0.0, -2.0, -4.0] });
        apply(&mut stage, Op::CamPos, &[f64::MAX, 0.0, 0.0]).unwrap();
        assert_eq!(
            apply(&mut stage, Op::CamLookAt, &[-f64::MAX, 0.0, 0.0]),
            Err("`camera lookat -1.7976931348623157e308 0 0`: the point is too far from the camera: the look vector is not finite".into())
        );
        assert_eq!(stage.camera().direction, [0.0, -2.0, -4.0]);
    }

    #[test]
    fn ids_and_actions_at_their_extremes_are_accepted() {
        let mut stage = Stage::new();
        apply(&mut stage, Op::Action, &[4294967295.0, 11.0]).unwrap();
        apply(&mut stage, Op::Action, &[-0.0, 0.0]).unwrap();
        stage.settle();
        let ids: Vec<(u32, Action)> = stage.actors().map(|a| (a.id, a.action)).collect();
        assert_eq!(ids, [(0, Action::Idle), (u32::MAX, Action::Hop)]);
    }

    #[test]
    fn camera_forms() {
        let mut stage = Stage::new();
        apply(&mut stage, Op::CamPos, &[1.0, 2.0, 3.0]).unwrap();
        apply(&mut stage, Op::CamDir, &[0.0, 0.0, -5.0]).unwrap();
        assert_eq!(stage.camera(), Camera { position: [1.0, 2.0, 3.0], direction: [0.0, 0.0, -5.0] });
        apply(&mut stage, Op::CamAngles, &[0.5, -0.25]).unwrap();
        assert_eq!(stage.camera().direction, Camera::look(0.5, -0.25));
        let d = stage.camera().direction;
        assert!(((d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt() - 1.0).abs() < 1e-15);
        assert!(d[0] > 0.0 && d[1] < 0.0 && d[2] < 0.0, "{d:?}"); // right, down, into the scene
    }

    #[test]
    fn non_slap_ops_are_refused() {
        assert_eq!(apply(&mut Stage::new(), Op::Line, &[0.0; 4]), Err("LINE cannot run in a SLAP scene".into()));
    }
}
