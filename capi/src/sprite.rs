//! Sprite modules and batches of animations.

use crate::bundle::{AnimkitBundle, find_failure};
use crate::{
    ANIMKIT_SNAPSHOT_MAGIC, AnimkitStatus, Failure, Outcome, Tagged, bytes, c_string, call, call_void, check_array,
    check_range, free, give, handle, handle_mut, out, string,
};
use animkit_vm::game::{AnimationBatch, BatchSnapshot, InstanceEvent, RestoreError, Speed, SpriteModule, State};
use std::collections::HashMap;
use std::ffi::{CString, c_char};
use std::sync::{Arc, Mutex};

/// A state of a sprite module: its index in the module (declaration
/// order, from 0), found by name with [`animkit_sprite_state`].
pub type AnimkitState = u32;

/// An event: its number in the bundle, found by name with
/// [`animkit_sprite_event`], named by [`animkit_sprite_event_name`].
pub type AnimkitEvent = u32;

/// An event fired by an instance of a batch.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AnimkitInstanceEvent {
    /// The instance's index in its batch.
    pub instance: u32,
    /// The event.
    pub event: AnimkitEvent,
}

/// The names of a sprite module, as C strings.
#[derive(Debug)]
struct Names {
    states: Vec<CString>,
    categories: Vec<CString>,
    /// Event names, made when first asked for.
    events: Mutex<HashMap<u32, CString>>,
}

/// A sprite module of a bundle (opaque): names to handles, and new
/// batches. Made by [`animkit_bundle_sprite`], freed by
/// [`animkit_sprite_free`]; batches made from it stay valid after it is
/// freed.
#[repr(C)]
pub struct AnimkitSprite {
    tag: u64,
    pub(crate) module: SpriteModule,
    names: Arc<Names>,
}

impl Tagged for AnimkitSprite {
    const TAG: u64 = u64::from_le_bytes(*b"AKsprite");
    const NAME: &'static str = "an AnimkitSprite";
}

/// Many animations of one sprite module, indexed from 0 in spawn order
/// (opaque). Made by [`animkit_sprite_batch_new`], freed by
/// [`animkit_batch_free`].
#[repr(C)]
pub struct AnimkitSpriteBatch {
    tag: u64,
    pub(crate) batch: AnimationBatch,
}

impl Tagged for AnimkitSpriteBatch {
    const TAG: u64 = u64::from_le_bytes(*b"AKsbatch");
    const NAME: &'static str = "an AnimkitSpriteBatch";
}

pub(crate) fn state_of(module: &SpriteModule, state: AnimkitState) -> Result<State, Failure> {
    module.state_at(state as usize).ok_or_else(|| {
        Failure::new(
            AnimkitStatus::UnknownState,
            format!("state {state} is past the {} states of sprite module `{}`", module.state_count(), module.name()),
        )
    })
}

fn state_named(module: &SpriteModule, name: &str) -> Result<State, Failure> {
    module.state(name).map_err(|e| Failure::new(AnimkitStatus::UnknownState, e.to_string()))
}

fn instance(batch: &AnimationBatch, i: u32) -> Outcome {
    if (i as usize) < batch.len() { Ok(()) } else { Err(past_end(batch, i)) }
}

/// The failure of a read of instance `i` past the end of `batch`.
fn past_end(batch: &AnimationBatch, i: u32) -> Failure {
    Failure::new(
        AnimkitStatus::OutOfRange,
        format!("instance {i} is past the end of the batch ({} instances)", batch.len()),
    )
}

/// The sprite module `name` (NUL-terminated UTF-8) of `bundle` into
/// `*out_sprite`: the caller's, to free with [`animkit_sprite_free`]. The
/// name is read during the call only.
///
/// Errors: `ANIMKIT_STATUS_NO_MODULE` (the message lists the nearest
/// names), `ANIMKIT_STATUS_WRONG_KIND` (a module of another kind).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_bundle_sprite(
    bundle: *const AnimkitBundle,
    name: *const c_char,
    out_sprite: *mut *mut AnimkitSprite,
) -> AnimkitStatus {
    call("animkit_bundle_sprite", || {
        let b = unsafe { handle(bundle, "bundle")? };
        let name = unsafe { string(name, "name")? };
        unsafe { out(out_sprite, "out_sprite")? };
        let module = b.bundle.sprite(name).map_err(find_failure)?;
        let states = (0..module.state_count()).filter_map(|i| module.state_at(i));
        let names = Names {
            states: states.clone().map(|s| c_string(module.state_name(s))).collect(),
            categories: states.map(|s| c_string(module.category(s))).collect(),
            events: Mutex::new(HashMap::new()),
        };
        let sprite = AnimkitSprite { tag: AnimkitSprite::TAG, module, names: Arc::new(names) };
        unsafe { give(out_sprite, sprite, "out_sprite") }
    })
}

/// Frees a sprite module (NULL or not a live one: nothing happens). The
/// names it returned are freed with it; its batches stay valid.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_sprite_free(sprite: *mut AnimkitSprite) {
    call_void(|| unsafe { free(sprite, |s, t| s.tag = t) })
}

/// The state `name` (NUL-terminated UTF-8, case-sensitive) into
/// `*out_state`: look states up once, at load time, and keep the handle.
///
/// Errors: `ANIMKIT_STATUS_UNKNOWN_STATE`, with the nearest names in the
/// message.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_sprite_state(
    sprite: *const AnimkitSprite,
    name: *const c_char,
    out_state: *mut AnimkitState,
) -> AnimkitStatus {
    call("animkit_sprite_state", || {
        let s = unsafe { handle(sprite, "sprite")? };
        let name = unsafe { string(name, "name")? };
        let slot = unsafe { out(out_state, "out_state")? };
        *slot = state_named(&s.module, name)?.index() as AnimkitState;
        Ok(())
    })
}

/// The number of states of the module (at least 1) into `*out_count`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_sprite_state_count(
    sprite: *const AnimkitSprite,
    out_count: *mut usize,
) -> AnimkitStatus {
    call("animkit_sprite_state_count", || {
        let s = unsafe { handle(sprite, "sprite")? };
        *unsafe { out(out_count, "out_count")? } = s.module.state_count();
        Ok(())
    })
}

/// The name of `state` into `*out_name`: NUL-terminated UTF-8 owned by
/// the sprite module, valid until it is freed.
///
/// Errors: `ANIMKIT_STATUS_UNKNOWN_STATE` for a state past the module's.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_sprite_state_name(
    sprite: *const AnimkitSprite,
    state: AnimkitState,
    out_name: *mut *const c_char,
) -> AnimkitStatus {
    call("animkit_sprite_state_name", || {
        let s = unsafe { handle(sprite, "sprite")? };
        let slot = unsafe { out(out_name, "out_name")? };
        let st = state_of(&s.module, state)?;
        *slot = s.names.states[st.index() as usize].as_ptr();
        Ok(())
    })
}

/// The sprite category of `state` (its `[alias]`, or its own name: which
/// sheet to draw its frames from) into `*out_name`: NUL-terminated UTF-8
/// owned by the sprite module, valid until it is freed.
///
/// Errors: `ANIMKIT_STATUS_UNKNOWN_STATE` for a state past the module's.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_sprite_category(
    sprite: *const AnimkitSprite,
    state: AnimkitState,
    out_name: *mut *const c_char,
) -> AnimkitStatus {
    call("animkit_sprite_category", || {
        let s = unsafe { handle(sprite, "sprite")? };
        let slot = unsafe { out(out_name, "out_name")? };
        let st = state_of(&s.module, state)?;
        *slot = s.names.categories[st.index() as usize].as_ptr();
        Ok(())
    })
}

/// The event `name` (NUL-terminated UTF-8) into `*out_event`.
///
/// Errors: `ANIMKIT_STATUS_UNKNOWN_EVENT` when the module fires no event of
/// that name (a state's or the module's own name is not one; the message
/// lists the nearest event names).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_sprite_event(
    sprite: *const AnimkitSprite,
    name: *const c_char,
    out_event: *mut AnimkitEvent,
) -> AnimkitStatus {
    call("animkit_sprite_event", || {
        let s = unsafe { handle(sprite, "sprite")? };
        let name = unsafe { string(name, "name")? };
        let slot = unsafe { out(out_event, "out_event")? };
        let e = s.module.event(name).map_err(|e| Failure::new(AnimkitStatus::UnknownEvent, e.to_string()))?;
        *slot = e.id();
        Ok(())
    })
}

/// The name of `event` into `*out_name`: NUL-terminated UTF-8 owned by
/// the sprite module, valid until it is freed (`""` for a number that is
/// not an event the module fires). Safe to call from several threads at once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_sprite_event_name(
    sprite: *const AnimkitSprite,
    event: AnimkitEvent,
    out_name: *mut *const c_char,
) -> AnimkitStatus {
    call("animkit_sprite_event_name", || {
        let s = unsafe { handle(sprite, "sprite")? };
        let slot = unsafe { out(out_name, "out_name")? };
        // A poisoned lock only means another call panicked while
        // inserting: the map is still a map.
        let mut events = s.names.events.lock().unwrap_or_else(|p| p.into_inner());
        let name = events
            .entry(event)
            .or_insert_with(|| c_string(s.module.event_by_id(event).map_or("", |e| s.module.event_name(e))));
        // The CString's buffer does not move when the map grows, and
        // entries are never removed: valid while the module lives.
        *slot = name.as_ptr();
        Ok(())
    })
}

/// A new, empty batch of animations of the module into `*out_batch`: the
/// caller's, to free with [`animkit_batch_free`]. It holds the module's
/// program: it stays valid after the sprite module and the bundle are
/// freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_sprite_batch_new(
    sprite: *const AnimkitSprite,
    out_batch: *mut *mut AnimkitSpriteBatch,
) -> AnimkitStatus {
    call("animkit_sprite_batch_new", || {
        let s = unsafe { handle(sprite, "sprite")? };
        let batch = AnimkitSpriteBatch { tag: AnimkitSpriteBatch::TAG, batch: s.module.batch() };
        unsafe { give(out_batch, batch, "out_batch") }
    })
}

/// Frees a batch (NULL or not a live batch: nothing happens).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_batch_free(batch: *mut AnimkitSpriteBatch) {
    call_void(|| unsafe { free(batch, |b, t| b.tag = t) })
}

/// Adds an animation in `state`, entered `phase` animation ticks in (0:
/// at its start; the skipped ticks fire no events); its index into
/// `*out_index` (may be NULL). It shows the state's first frame from its
/// first tick.
///
/// Errors: `ANIMKIT_STATUS_UNKNOWN_STATE`; `ANIMKIT_STATUS_OUT_OF_RANGE`
/// past 2^32 - 1 instances.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_batch_spawn(
    batch: *mut AnimkitSpriteBatch,
    state: AnimkitState,
    phase: u32,
    out_index: *mut u32,
) -> AnimkitStatus {
    call("animkit_batch_spawn", || {
        let b = unsafe { handle_mut(batch, "batch")? };
        let st = state_of(b.batch.module(), state)?;
        if b.batch.len() >= u32::MAX as usize {
            return Err(Failure::new(AnimkitStatus::OutOfRange, "the batch is full (2^32 - 1 instances)"));
        }
        let slot = if out_index.is_null() { None } else { Some(unsafe { out(out_index, "out_index")? }) };
        let i = b.batch.spawn_at(st, phase);
        if let Some(slot) = slot {
            *slot = i;
        }
        Ok(())
    })
}

/// The number of animations of the batch into `*out_len`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_batch_len(batch: *const AnimkitSpriteBatch, out_len: *mut usize) -> AnimkitStatus {
    call("animkit_batch_len", || {
        let b = unsafe { handle(batch, "batch")? };
        *unsafe { out(out_len, "out_len")? } = b.batch.len();
        Ok(())
    })
}

/// One fixed tick of every animation (allocates nothing once the pending
/// event buffer has grown to the largest burst). The frame read after the
/// t-th tick is the sprite shown during tick t; the events drained after
/// it fired on entering frames at its start.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_batch_tick(batch: *mut AnimkitSpriteBatch) -> AnimkitStatus {
    call("animkit_batch_tick", || {
        unsafe { handle_mut(batch, "batch")? }.batch.tick();
        Ok(())
    })
}

/// `ticks` ticks at once, exactly as that many calls of
/// [`animkit_batch_tick`] (events in the order those ticks fire them, kept
/// until drained, at most `ANIMKIT_MAX_PENDING_EVENTS` pending: the rest
/// are counted by [`animkit_batch_dropped_events`]), in time that grows
/// with the instances and the events kept, not with `ticks`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_batch_advance(batch: *mut AnimkitSpriteBatch, ticks: u32) -> AnimkitStatus {
    call("animkit_batch_advance", || {
        unsafe { handle_mut(batch, "batch")? }.batch.advance(ticks);
        Ok(())
    })
}

/// Switches animation `index` to `state` at the next tick, entering it
/// `phase` animation ticks in; nothing happens when it is already in that
/// state (see [`animkit_batch_restart`]).
///
/// Errors: `ANIMKIT_STATUS_OUT_OF_RANGE`, `ANIMKIT_STATUS_UNKNOWN_STATE`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_batch_set_state(
    batch: *mut AnimkitSpriteBatch,
    index: u32,
    state: AnimkitState,
    phase: u32,
) -> AnimkitStatus {
    call("animkit_batch_set_state", || {
        let b = unsafe { handle_mut(batch, "batch")? };
        instance(&b.batch, index)?;
        let st = state_of(b.batch.module(), state)?;
        b.batch.set_state_at(index, st, phase);
        Ok(())
    })
}

/// [`animkit_batch_set_state`] with the state's name (NUL-terminated
/// UTF-8; a string lookup: prefer the handle in a game loop).
///
/// Errors: `ANIMKIT_STATUS_OUT_OF_RANGE`, `ANIMKIT_STATUS_UNKNOWN_STATE`
/// (with the nearest names).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_batch_set_state_by_name(
    batch: *mut AnimkitSpriteBatch,
    index: u32,
    name: *const c_char,
    phase: u32,
) -> AnimkitStatus {
    call("animkit_batch_set_state_by_name", || {
        let b = unsafe { handle_mut(batch, "batch")? };
        let name = unsafe { string(name, "name")? };
        instance(&b.batch, index)?;
        let st = state_named(b.batch.module(), name)?;
        b.batch.set_state_at(index, st, phase);
        Ok(())
    })
}

/// Starts animation `index` over in `state` at the next tick, `phase`
/// animation ticks in, even when already in it.
///
/// Errors: `ANIMKIT_STATUS_OUT_OF_RANGE`, `ANIMKIT_STATUS_UNKNOWN_STATE`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_batch_restart(
    batch: *mut AnimkitSpriteBatch,
    index: u32,
    state: AnimkitState,
    phase: u32,
) -> AnimkitStatus {
    call("animkit_batch_restart", || {
        let b = unsafe { handle_mut(batch, "batch")? };
        instance(&b.batch, index)?;
        let st = state_of(b.batch.module(), state)?;
        b.batch.restart_at(index, st, phase);
        Ok(())
    })
}

/// Sets animation `index`'s speed to `num / den` (rounded to 1/65536, at
/// most 256; 0 pauses) from the next tick on.
///
/// Errors: `ANIMKIT_STATUS_OUT_OF_RANGE`, `ANIMKIT_STATUS_INVALID_ARGUMENT`
/// for `den` 0.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_batch_set_speed(
    batch: *mut AnimkitSpriteBatch,
    index: u32,
    num: u32,
    den: u32,
) -> AnimkitStatus {
    call("animkit_batch_set_speed", || {
        let b = unsafe { handle_mut(batch, "batch")? };
        instance(&b.batch, index)?;
        let speed = Speed::ratio(num, den).ok_or_else(|| {
            Failure::new(AnimkitStatus::InvalidArgument, format!("the speed {num}/{den} divides by 0"))
        })?;
        b.batch.set_speed(index, speed);
        Ok(())
    })
}

/// Animation `index`'s speed in 16.16 fixed point (65536 is normal speed)
/// into `*out_speed`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_batch_speed(
    batch: *const AnimkitSpriteBatch,
    index: u32,
    out_speed: *mut u32,
) -> AnimkitStatus {
    call("animkit_batch_speed", || {
        let b = unsafe { handle(batch, "batch")? };
        let value = b.batch.speed(index).ok_or_else(|| past_end(&b.batch, index))?.raw();
        *unsafe { out(out_speed, "out_speed")? } = value;
        Ok(())
    })
}

/// Animation `index`'s current state (after the transitions its code
/// took) into `*out_state`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_batch_state(
    batch: *const AnimkitSpriteBatch,
    index: u32,
    out_state: *mut AnimkitState,
) -> AnimkitStatus {
    call("animkit_batch_state", || {
        let b = unsafe { handle(batch, "batch")? };
        let value = b.batch.state(index).ok_or_else(|| past_end(&b.batch, index))?.index() as AnimkitState;
        *unsafe { out(out_state, "out_state")? } = value;
        Ok(())
    })
}

/// Animation `index`'s sprite index (the frame to draw from its state's
/// sheet) into `*out_frame`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_batch_frame(
    batch: *const AnimkitSpriteBatch,
    index: u32,
    out_frame: *mut u32,
) -> AnimkitStatus {
    call("animkit_batch_frame", || {
        let b = unsafe { handle(batch, "batch")? };
        let value = b.batch.frame(index).ok_or_else(|| past_end(&b.batch, index))?;
        *unsafe { out(out_frame, "out_frame")? } = value;
        Ok(())
    })
}

/// Every animation's sprite index, in index order: `*out_frames` points to
/// `*out_len` values owned by the batch, valid until the next call that
/// changes the batch (tick, advance, spawn, set state, restore, reload, free).
/// For copying into an engine's instance buffer in one go.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_batch_frames(
    batch: *const AnimkitSpriteBatch,
    out_frames: *mut *const u32,
    out_len: *mut usize,
) -> AnimkitStatus {
    call("animkit_batch_frames", || {
        let b = unsafe { handle(batch, "batch")? };
        let frames_slot = unsafe { out(out_frames, "out_frames")? };
        let len_slot = unsafe { out(out_len, "out_len")? };
        let frames = b.batch.frames();
        *frames_slot = frames.as_ptr();
        *len_slot = frames.len();
        Ok(())
    })
}

/// Ticks since the game last entered animation `index`'s state (spawn,
/// set state that changed it, restart) into `*out_ticks`; transitions the
/// animation's own code takes do not reset it.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_batch_time_in_state(
    batch: *const AnimkitSpriteBatch,
    index: u32,
    out_ticks: *mut u64,
) -> AnimkitStatus {
    call("animkit_batch_time_in_state", || {
        let b = unsafe { handle(batch, "batch")? };
        let value = b.batch.time_in_state(index).ok_or_else(|| past_end(&b.batch, index))?;
        *unsafe { out(out_ticks, "out_ticks")? } = value;
        Ok(())
    })
}

/// Whether animation `index` is waiting for the game (a `_wait` end, or a
/// halt) into `*out_waiting`.
///
/// Errors: `ANIMKIT_STATUS_OUT_OF_RANGE` for an index past the end.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_batch_is_waiting(
    batch: *const AnimkitSpriteBatch,
    index: u32,
    out_waiting: *mut bool,
) -> AnimkitStatus {
    call("animkit_batch_is_waiting", || {
        let b = unsafe { handle(batch, "batch")? };
        instance(&b.batch, index)?;
        let slot = unsafe { out(out_waiting, "out_waiting")? };
        *slot = b.batch.is_waiting(index).unwrap_or(false);
        Ok(())
    })
}

/// Removes animation `index` from the batch: the last animation takes
/// index `index` (swap-remove), every other index stays as it was. Its
/// pending events go with it; the moved animation's are renumbered.
///
/// Errors: `ANIMKIT_STATUS_OUT_OF_RANGE` for an index past the end (the
/// batch is unchanged).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_batch_remove(batch: *mut AnimkitSpriteBatch, index: u32) -> AnimkitStatus {
    call("animkit_batch_remove", || {
        let b = unsafe { handle_mut(batch, "batch")? };
        instance(&b.batch, index)?;
        b.batch.remove(index);
        Ok(())
    })
}

/// The number of events fired and not yet drained into `*out_count`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_batch_pending_events(
    batch: *mut AnimkitSpriteBatch,
    out_count: *mut usize,
) -> AnimkitStatus {
    call("animkit_batch_pending_events", || {
        let b = unsafe { handle_mut(batch, "batch")? };
        *unsafe { out(out_count, "out_count")? } = b.batch.pending_events();
        Ok(())
    })
}

/// The number of events the batch dropped since it was made into
/// `*out_count`: at most `ANIMKIT_MAX_PENDING_EVENTS` (65 536) stay pending,
/// and those fired while that many are pending (the newest) are dropped
/// and counted here.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_batch_dropped_events(
    batch: *const AnimkitSpriteBatch,
    out_count: *mut u64,
) -> AnimkitStatus {
    call("animkit_batch_dropped_events", || {
        let b = unsafe { handle(batch, "batch")? };
        *unsafe { out(out_count, "out_count")? } = b.batch.dropped_events();
        Ok(())
    })
}

/// Moves the oldest pending events (by tick, then by instance) into
/// `events[0..capacity]`, as many as fit, and their number into
/// `*out_count`; the rest stay pending for the next call. The caller owns
/// `events` (NULL is allowed with `capacity` 0). Allocates nothing.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_batch_drain_events(
    batch: *mut AnimkitSpriteBatch,
    events: *mut AnimkitInstanceEvent,
    capacity: usize,
    out_count: *mut usize,
) -> AnimkitStatus {
    call("animkit_batch_drain_events", || {
        let b = unsafe { handle_mut(batch, "batch")? };
        let count_slot = unsafe { out(out_count, "out_count")? };
        check_array(events, capacity, "events")?;
        let dest: &mut [AnimkitInstanceEvent] = if capacity == 0 {
            &mut []
        } else {
            // SAFETY: non-NULL (checked with the length), aligned, and the
            // caller promises `capacity` writable events.
            unsafe { std::slice::from_raw_parts_mut(events, capacity) }
        };
        let mut chunk = [InstanceEvent::default(); 64];
        let mut written = 0;
        while written < dest.len() {
            let want = (dest.len() - written).min(chunk.len());
            let n = b.batch.drain_events(&mut chunk[..want]);
            for (d, e) in dest[written..written + n].iter_mut().zip(&chunk[..n]) {
                *d = AnimkitInstanceEvent { instance: e.instance, event: e.event.id() };
            }
            written += n;
            if n < want {
                break;
            }
        }
        *count_slot = written;
        Ok(())
    })
}

/// Saves the batch into `buffer[0..capacity]` (bytes that only this
/// library reads back, with [`animkit_batch_restore`], into a batch of the
/// same module). Writes the snapshot's size into `*out_len` in any case;
/// when `capacity` is smaller (a size query: `buffer` NULL and `capacity`
/// 0) it writes no byte and returns `ANIMKIT_STATUS_BUFFER_TOO_SMALL`.
/// The caller owns `buffer`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_batch_snapshot(
    batch: *const AnimkitSpriteBatch,
    buffer: *mut u8,
    capacity: usize,
    out_len: *mut usize,
) -> AnimkitStatus {
    call("animkit_batch_snapshot", || {
        let b = unsafe { handle(batch, "batch")? };
        let len_slot = unsafe { out(out_len, "out_len")? };
        check_range(buffer, capacity, "buffer")?;
        let mut bytes = ANIMKIT_SNAPSHOT_MAGIC.to_vec();
        bincode::serde::encode_into_std_write(b.batch.snapshot(), &mut bytes, bincode::config::standard())
            .map_err(|e| Failure::new(AnimkitStatus::Panic, format!("cannot encode the snapshot: {e}")))?;
        *len_slot = bytes.len();
        if capacity < bytes.len() {
            return Err(Failure::new(
                AnimkitStatus::BufferTooSmall,
                format!("the snapshot takes {} bytes, the buffer has {capacity}", bytes.len()),
            ));
        }
        // SAFETY: `capacity` >= len > 0, so `buffer` is non-NULL (checked
        // with its length); the caller promises `capacity` writable bytes.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), buffer, bytes.len()) };
        Ok(())
    })
}

/// The largest snapshot [`animkit_batch_restore`] reads: 1 GiB.
const MAX_SNAPSHOT: u64 = 1 << 30;

/// Replaces the batch's animations with the snapshot `buffer[0..len]`
/// (read during the call only) written by [`animkit_batch_snapshot`]; on
/// an error the batch is unchanged.
///
/// Errors: `ANIMKIT_STATUS_SNAPSHOT_WRONG_MODULE` (another module or
/// another build of it), `ANIMKIT_STATUS_SNAPSHOT_INVALID` (not a snapshot,
/// damaged, trailing bytes).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_batch_restore(
    batch: *mut AnimkitSpriteBatch,
    buffer: *const u8,
    len: usize,
) -> AnimkitStatus {
    call("animkit_batch_restore", || {
        let b = unsafe { handle_mut(batch, "batch")? };
        let data = unsafe { bytes(buffer, len, "buffer")? };
        let invalid = |m: String| Failure::new(AnimkitStatus::SnapshotInvalid, m);
        let payload = data
            .strip_prefix(ANIMKIT_SNAPSHOT_MAGIC.as_slice())
            .ok_or_else(|| invalid("not an animkit batch snapshot (no AKBSNAP1 magic bytes)".into()))?;
        if payload.len() as u64 > MAX_SNAPSHOT {
            return Err(invalid(format!("{} bytes is more than a snapshot may have ({MAX_SNAPSHOT})", len)));
        }
        let config = bincode::config::standard().with_limit::<{ MAX_SNAPSHOT as usize }>();
        let (snapshot, used): (BatchSnapshot, usize) =
            bincode::serde::decode_from_slice(payload, config).map_err(|e| match e {
                bincode::error::DecodeError::UnexpectedEnd { .. } => invalid("the snapshot is cut short".into()),
                e => invalid(format!("damaged snapshot: {}", animkit_vm::engine::codec::decode_error_in_words(&e))),
            })?;
        match payload.len() - used {
            0 => {}
            1 => return Err(invalid("1 byte after the snapshot".into())),
            n => return Err(invalid(format!("{n} bytes after the snapshot"))),
        }
        b.batch.restore(&snapshot).map_err(|e| match e {
            RestoreError::WrongModule { .. } => Failure::new(AnimkitStatus::SnapshotWrongModule, e.to_string()),
            RestoreError::Invalid(_) => invalid(e.to_string()),
        })
    })
}
