//! Hot reload of a batch onto a new build of its sprite module.

use crate::sprite::{AnimkitSprite, AnimkitSpriteBatch, AnimkitState, state_of};
use crate::{AnimkitStatus, Failure, call, handle, handle_mut, out};

/// What [`animkit_batch_reload`] did to the batch's animations.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AnimkitReloadReport {
    /// Animations whose state the new build lacks: they restarted in the
    /// fallback state.
    pub fell_back: usize,
    /// Animations whose frame position or ticks into the frame were
    /// clamped (the new state or frame is shorter).
    pub clamped: usize,
    /// Pending events dropped because the new build fires no event of
    /// their name.
    pub dropped_events: usize,
    /// States of the old build the new one lacks.
    pub vanished: usize,
}

/// Hot reload: moves every animation of `batch` onto `sprite`, a new build
/// of the batch's sprite module (the same module from a recompiled bundle),
/// keeping indices. Each animation keeps its state by name, its frame
/// position and ticks into the frame (clamped where the new state is
/// shorter), speed and phase; one whose state the new build lacks restarts
/// in `fallback_state` (a state of `sprite`) at the next tick, and its time
/// in state starts over. Pending events are kept by name (those the new
/// build lacks are dropped). What happened goes into `*out_report` (may be
/// NULL). From then on state numbers are `sprite`'s; the batch keeps the
/// new build, so `sprite` and its bundle may be freed.
///
/// Errors: `ANIMKIT_STATUS_INVALID_ARGUMENT` when `sprite` is a module of
/// another name, `ANIMKIT_STATUS_UNKNOWN_STATE` for a fallback state past
/// `sprite`'s; the batch is then unchanged.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_batch_reload(
    batch: *mut AnimkitSpriteBatch,
    sprite: *const AnimkitSprite,
    fallback_state: AnimkitState,
    out_report: *mut AnimkitReloadReport,
) -> AnimkitStatus {
    call("animkit_batch_reload", || {
        let b = unsafe { handle_mut(batch, "batch")? };
        let s = unsafe { handle(sprite, "sprite")? };
        let slot = if out_report.is_null() { None } else { Some(unsafe { out(out_report, "out_report")? }) };
        let (from, to) = (b.batch.module().name(), s.module.name());
        if from != to {
            return Err(Failure::new(
                AnimkitStatus::InvalidArgument,
                format!(
                    "the batch animates sprite module `{from}`, not `{to}`: a reload takes a new build of the same module"
                ),
            ));
        }
        let fallback = state_of(&s.module, fallback_state)?;
        let report = b.batch.reload(&s.module, fallback);
        if let Some(slot) = slot {
            *slot = AnimkitReloadReport {
                fell_back: report.fell_back,
                clamped: report.clamped,
                dropped_events: report.dropped_events,
                vanished: report.vanished.len(),
            };
        }
        Ok(())
    })
}
