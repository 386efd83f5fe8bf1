//! SLAP scenes: step and observe.

use crate::bundle::{AnimkitBundle, find_failure};
use crate::{
    AnimkitStatus, Failure, Tagged, call, call_void, check_array, free, give, handle, handle_mut, out, string,
};
use animkit_vm::game::{Actor, Pose, Scene};
use std::ffi::c_char;

/// A SLAP scene played frame by frame (opaque). Made by
/// [`animkit_bundle_scene`], freed by [`animkit_scene_free`]; it stays
/// valid after its bundle is freed.
#[repr(C)]
pub struct AnimkitScene {
    tag: u64,
    scene: Scene,
}

impl Tagged for AnimkitScene {
    const TAG: u64 = u64::from_le_bytes(*b"AKscene!");
    const NAME: &'static str = "an AnimkitScene";
}

/// An actor's pose at the scene's frame: where its action's cycle has put
/// its body (radians and units of its size).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AnimkitPose {
    /// Body rise above standing height.
    pub body_height: f32,
    /// Forward lean of the body.
    pub body_pitch: f32,
    /// Sideways tilt of the body, positive to the actor's right.
    pub body_roll: f32,
    /// Head up (positive) or down, relative to the body.
    pub head_pitch: f32,
    /// Head turned left (positive) or right, relative to the body.
    pub head_yaw: f32,
    /// Left leg's angle at the hip, positive forward.
    pub leg_swing_left: f32,
    /// Right leg's angle at the hip, positive forward.
    pub leg_swing_right: f32,
    /// Left foot's height above the ground.
    pub leg_lift_left: f32,
    /// Right foot's height above the ground.
    pub leg_lift_right: f32,
    /// Wings raised from folded.
    pub wing_lift: f32,
    /// How far both legs fold at the knee (0 straight, 1 at their length):
    /// broadjump and hop tuck their legs in the air.
    pub leg_tuck: f32,
}

/// What a game draws of one actor at the scene's frame.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AnimkitActor {
    /// The actor's id, as the script writes it.
    pub id: u32,
    /// Its current action, 0 to 11 (idle, scamper, swagger, broadjump,
    /// prowl, lumber, dejected, no, yes, hotfeet, sprint, hop).
    pub action: u32,
    /// Position `[x, y, z]`, y up.
    pub position: [f64; 3],
    /// Heading in radians (0 faces -z, positive turns right), as given.
    pub heading: f64,
    /// Colour `[r, g, b]`, as given (not clamped).
    pub color: [f64; 3],
    /// Size (the body's scale).
    pub size: f64,
    /// The action's pose at this frame.
    pub pose: AnimkitPose,
}

/// The camera at the scene's frame.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AnimkitCamera {
    /// Position `[x, y, z]`, y up.
    pub position: [f64; 3],
    /// Look direction (any non-zero length, as given); up is always +y.
    pub direction: [f64; 3],
}

fn pose(p: Pose) -> AnimkitPose {
    AnimkitPose {
        body_height: p.body_height,
        body_pitch: p.body_pitch,
        body_roll: p.body_roll,
        head_pitch: p.head_pitch,
        head_yaw: p.head_yaw,
        leg_swing_left: p.leg_swing_left,
        leg_swing_right: p.leg_swing_right,
        leg_lift_left: p.leg_lift_left,
        leg_lift_right: p.leg_lift_right,
        wing_lift: p.wing_lift,
        leg_tuck: p.leg_tuck,
    }
}

fn actor(a: Actor) -> AnimkitActor {
    AnimkitActor {
        id: a.id,
        action: a.action as u32,
        position: a.position,
        heading: a.heading,
        color: a.color,
        size: a.size,
        pose: pose(a.pose),
    }
}

/// The SLAP scene `name` (NUL-terminated UTF-8, read during the call
/// only) of `bundle`, at frame 0, into `*out_scene`: the caller's, to free
/// with [`animkit_scene_free`].
///
/// Errors: `ANIMKIT_STATUS_NO_MODULE`, `ANIMKIT_STATUS_WRONG_KIND`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_bundle_scene(
    bundle: *const AnimkitBundle,
    name: *const c_char,
    out_scene: *mut *mut AnimkitScene,
) -> AnimkitStatus {
    call("animkit_bundle_scene", || {
        let b = unsafe { handle(bundle, "bundle")? };
        let name = unsafe { string(name, "name")? };
        unsafe { out(out_scene, "out_scene")? };
        let scene = b.bundle.scene(name).map_err(find_failure)?;
        unsafe { give(out_scene, AnimkitScene { tag: AnimkitScene::TAG, scene }, "out_scene") }
    })
}

/// Frees a scene (NULL or not a live scene: nothing happens).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_scene_free(scene: *mut AnimkitScene) {
    call_void(|| unsafe { free(scene, |s, t| s.tag = t) })
}

/// One frame on (the commands timed at the new frame run, in source
/// order). Commands that fail at run time are skipped and counted
/// ([`animkit_scene_error_count`]).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_scene_step(scene: *mut AnimkitScene) -> AnimkitStatus {
    call("animkit_scene_step", || {
        unsafe { handle_mut(scene, "scene")? }.scene.step();
        Ok(())
    })
}

/// `frames` frames on at once (only the time points between run code).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_scene_advance(scene: *mut AnimkitScene, frames: u64) -> AnimkitStatus {
    call("animkit_scene_advance", || {
        unsafe { handle_mut(scene, "scene")? }.scene.advance(frames);
        Ok(())
    })
}

/// Goes to `frame` (backwards by starting over).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_scene_seek(scene: *mut AnimkitScene, frame: u64) -> AnimkitStatus {
    call("animkit_scene_seek", || {
        unsafe { handle_mut(scene, "scene")? }.scene.seek(frame);
        Ok(())
    })
}

/// The current frame (0 when opened) into `*out_frame`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_scene_frame(scene: *const AnimkitScene, out_frame: *mut u64) -> AnimkitStatus {
    call("animkit_scene_frame", || {
        let s = unsafe { handle(scene, "scene")? };
        *unsafe { out(out_frame, "out_frame")? } = s.scene.frame();
        Ok(())
    })
}

/// The frame of the scene's last time point (where a cutscene ends) into
/// `*out_length`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_scene_length(scene: *const AnimkitScene, out_length: *mut u64) -> AnimkitStatus {
    call("animkit_scene_length", || {
        let s = unsafe { handle(scene, "scene")? };
        *unsafe { out(out_length, "out_length")? } = s.scene.length();
        Ok(())
    })
}

/// Whether the current frame is at or past the scene's length, into
/// `*out_finished`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_scene_is_finished(
    scene: *const AnimkitScene,
    out_finished: *mut bool,
) -> AnimkitStatus {
    call("animkit_scene_is_finished", || {
        let s = unsafe { handle(scene, "scene")? };
        *unsafe { out(out_finished, "out_finished")? } = s.scene.is_finished();
        Ok(())
    })
}

/// Commands that failed at run time so far (skipped; the scene went on)
/// into `*out_count`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_scene_error_count(scene: *const AnimkitScene, out_count: *mut u64) -> AnimkitStatus {
    call("animkit_scene_error_count", || {
        let s = unsafe { handle(scene, "scene")? };
        *unsafe { out(out_count, "out_count")? } = s.scene.error_count();
        Ok(())
    })
}

/// The number of actors on stage (every actor the script has mentioned so
/// far) into `*out_count`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_scene_actor_count(scene: *const AnimkitScene, out_count: *mut usize) -> AnimkitStatus {
    call("animkit_scene_actor_count", || {
        let s = unsafe { handle(scene, "scene")? };
        *unsafe { out(out_count, "out_count")? } = s.scene.actor_count();
        Ok(())
    })
}

/// The actors, in id order, into `actors[0..capacity]` (the caller's; NULL
/// is allowed with `capacity` 0), and how many were written into
/// `*out_count`: at most `capacity` (ask [`animkit_scene_actor_count`]
/// for the size).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_scene_actors(
    scene: *const AnimkitScene,
    actors: *mut AnimkitActor,
    capacity: usize,
    out_count: *mut usize,
) -> AnimkitStatus {
    call("animkit_scene_actors", || {
        let s = unsafe { handle(scene, "scene")? };
        let count_slot = unsafe { out(out_count, "out_count")? };
        check_array(actors, capacity, "actors")?;
        let dest: &mut [AnimkitActor] = if capacity == 0 {
            &mut []
        } else {
            // SAFETY: non-NULL, aligned; the caller promises `capacity`
            // writable actors.
            unsafe { std::slice::from_raw_parts_mut(actors, capacity) }
        };
        let mut n = 0;
        for (d, a) in dest.iter_mut().zip(s.scene.actors()) {
            *d = actor(a);
            n += 1;
        }
        *count_slot = n;
        Ok(())
    })
}

/// The actor of id `id` into `*out_actor`.
///
/// Errors: `ANIMKIT_STATUS_OUT_OF_RANGE` when the script has not created
/// it (yet).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_scene_actor(
    scene: *const AnimkitScene,
    id: u32,
    out_actor: *mut AnimkitActor,
) -> AnimkitStatus {
    call("animkit_scene_actor", || {
        let s = unsafe { handle(scene, "scene")? };
        let slot = unsafe { out(out_actor, "out_actor")? };
        let a = s.scene.actor(id).ok_or_else(|| {
            Failure::new(AnimkitStatus::OutOfRange, format!("no actor {id} on stage at frame {}", s.scene.frame()))
        })?;
        *slot = actor(a);
        Ok(())
    })
}

/// The camera at this frame into `*out_camera`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_scene_camera(
    scene: *const AnimkitScene,
    out_camera: *mut AnimkitCamera,
) -> AnimkitStatus {
    call("animkit_scene_camera", || {
        let s = unsafe { handle(scene, "scene")? };
        let slot = unsafe { out(out_camera, "out_camera")? };
        let c = s.scene.camera();
        *slot = AnimkitCamera { position: c.position, direction: c.direction };
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every field of the game API's pose reaches C, the legs' tuck too.
    #[test]
    fn the_pose_crosses_whole() {
        let p = Pose { body_height: 0.25, wing_lift: 0.5, leg_tuck: 0.75, ..Pose::default() };
        let c = pose(p);
        assert_eq!((c.body_height, c.wing_lift, c.leg_tuck), (0.25, 0.5, 0.75));
        // One f32 each, in the header's order, nothing left out.
        assert_eq!(std::mem::size_of::<AnimkitPose>(), std::mem::size_of::<Pose>());
    }
}
