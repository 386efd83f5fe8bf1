//! Hostile calls through the C ABI (issue 42 §3), through the extern
//! functions themselves (the rlib): a 16 MiB state name to
//! `animkit_sprite_state`, `animkit_batch_advance(batch, UINT32_MAX)` on
//! walking instances and 1 000 `animkit_batch_spawn`s at a phase near
//! `UINT32_MAX` end promptly with a short message and bounded memory,
//! checked under a 256 MiB `RLIMIT_AS` in a child process (this binary
//! again, running only `hostile_calls_in_a_child`).
//!
//! The bundle is `animkit_vm::game::doc_bundle()`: `hero`, whose one state
//! is `Walk: 2|step, 2, _loop` (a `step` every 4 ticks, frames 0 0 1 1).

use animkit::*;
use animkit_test_support::limited::run_test_limited;
use std::ffi::{CStr, CString};
use std::ptr;
use std::time::Duration;

fn last_error() -> String {
    // SAFETY: the library's NUL-terminated, per-thread message.
    unsafe { CStr::from_ptr(animkit_last_error()) }.to_str().expect("UTF-8").to_string()
}

/// The doc bundle's `hero` module (the bundle freed: the module keeps
/// what it needs).
fn hero() -> *mut AnimkitSprite {
    let bytes = animkit_vm::game::doc_bundle();
    let (mut bundle, mut sprite) = (ptr::null_mut(), ptr::null_mut());
    unsafe {
        assert_eq!(animkit_bundle_open(bytes.as_ptr(), bytes.len(), &mut bundle), AnimkitStatus::Ok);
        assert_eq!(animkit_bundle_sprite(bundle, c"hero".as_ptr(), &mut sprite), AnimkitStatus::Ok);
        animkit_bundle_free(bundle);
    }
    sprite
}

/// `step`s a walk entered `phase` ticks in fires in `n` ticks.
fn steps_in(phase: u64, n: u64) -> u64 {
    let q = phase % 4;
    (q + n).div_ceil(4) - q.div_ceil(4)
}

#[test]
fn a_16_mib_state_name_is_unknown_state_with_a_short_message() {
    let sprite = hero();
    let name = CString::new("W".repeat(16 << 20)).expect("no NUL");
    let start = animkit_test_support::cpu::ThreadTimer::start();
    let mut state = 7;
    let status = unsafe { animkit_sprite_state(sprite, name.as_ptr(), &mut state) };
    assert_eq!((status, state), (AnimkitStatus::UnknownState, 7));
    assert_eq!(
        last_error(),
        format!("animkit_sprite_state: no state named `{}…` (16777216 bytes) in sprite module `hero`", "W".repeat(32))
    );
    assert!(start.elapsed() < Duration::from_secs(5), "took {:?}", start.elapsed());
    unsafe { animkit_sprite_free(sprite) };
}

/// Before: `animkit_batch_advance(batch, UINT32_MAX)` kept every event
/// (2^30 per walker) and aborted. Now 65 536 stay pending, the rest are
/// counted by `animkit_batch_dropped_events`.
#[test]
fn advance_uint32_max_keeps_the_cap_and_counts_the_rest() {
    let sprite = hero();
    let start = animkit_test_support::cpu::ThreadTimer::start();
    unsafe {
        let mut batch = ptr::null_mut();
        assert_eq!(animkit_sprite_batch_new(sprite, &mut batch), AnimkitStatus::Ok);
        for i in 0..100 {
            assert_eq!(animkit_batch_spawn(batch, 0, i, ptr::null_mut()), AnimkitStatus::Ok);
        }
        assert_eq!(animkit_batch_advance(batch, u32::MAX), AnimkitStatus::Ok);
        let (mut pending, mut dropped) = (0usize, 0u64);
        assert_eq!(animkit_batch_pending_events(batch, &mut pending), AnimkitStatus::Ok);
        assert_eq!(animkit_batch_dropped_events(batch, &mut dropped), AnimkitStatus::Ok);
        let fired: u64 = (0..100).map(|i| steps_in(i, u32::MAX as u64)).sum();
        assert_eq!((pending, dropped), (ANIMKIT_MAX_PENDING_EVENTS as usize, fired - pending as u64));
        let mut events = vec![AnimkitInstanceEvent::default(); 4];
        let mut got = 0;
        assert_eq!(animkit_batch_drain_events(batch, events.as_mut_ptr(), 4, &mut got), AnimkitStatus::Ok);
        // The earliest first: the walkers a whole trip in fire on the first tick.
        let who: Vec<u32> = events[..got].iter().map(|e| e.instance).collect();
        assert_eq!(who, [0, 4, 8, 12]);
        assert_eq!(animkit_batch_dropped_events(batch, ptr::null_mut()), AnimkitStatus::NullPointer);
        animkit_batch_free(batch);
        animkit_sprite_free(sprite);
    }
    assert!(start.elapsed() < Duration::from_secs(10), "took {:?}", start.elapsed());
}

/// Before: 1 000 spawns of `Walk` at a phase near `UINT32_MAX` and one tick
/// did not return within 60 s.
#[test]
fn spawns_at_a_phase_near_uint32_max_then_a_tick_return_at_once() {
    let sprite = hero();
    let start = animkit_test_support::cpu::ThreadTimer::start();
    unsafe {
        let mut batch = ptr::null_mut();
        assert_eq!(animkit_sprite_batch_new(sprite, &mut batch), AnimkitStatus::Ok);
        for i in 0..1000 {
            assert_eq!(animkit_batch_spawn(batch, 0, u32::MAX - i, ptr::null_mut()), AnimkitStatus::Ok);
        }
        assert_eq!(animkit_batch_tick(batch), AnimkitStatus::Ok);
        for i in 0..1000u32 {
            let mut frame = 9;
            assert_eq!(animkit_batch_frame(batch, i, &mut frame), AnimkitStatus::Ok);
            assert_eq!(frame, ((u32::MAX - i) / 2) % 2, "instance {i}");
        }
        animkit_batch_free(batch);
        animkit_sprite_free(sprite);
    }
    assert!(start.elapsed() < Duration::from_secs(10), "took {:?}", start.elapsed());
}

#[test]
fn hostile_calls_stay_under_256_mib() {
    let run = run_test_limited("hostile_calls::hostile_calls_in_a_child", 256 << 20);
    assert_eq!((run.code, run.signal), (Some(0), 0), "{}", run.stderr);
    assert!(run.cpu < Duration::from_secs(60), "took {:?} of CPU", run.cpu);
}

#[test]
#[ignore = "run by hostile_calls_stay_under_256_mib under a memory limit"]
fn hostile_calls_in_a_child() {
    a_16_mib_state_name_is_unknown_state_with_a_short_message();
    advance_uint32_max_keeps_the_cap_and_counts_the_rest();
    spawns_at_a_phase_near_uint32_max_then_a_tick_return_at_once();
}
