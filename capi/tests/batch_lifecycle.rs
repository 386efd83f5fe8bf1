//! `animkit_batch_is_waiting` and `animkit_batch_remove` (issue 42 §1)
//! through the extern functions (the rlib), on the doc bundle's `hero`
//! (`Walk: 2|step, 2, _loop`: frames 0 0 1 1). Their errors are in
//! `errors.rs` (`capi/tests/c/errors.c`).

use animkit::*;
use std::ptr;

fn frames(batch: *mut AnimkitSpriteBatch) -> Vec<u32> {
    let (mut p, mut len) = (ptr::null(), 0);
    unsafe {
        assert_eq!(animkit_batch_frames(batch, &mut p, &mut len), AnimkitStatus::Ok);
        std::slice::from_raw_parts(p, len).to_vec()
    }
}

#[test]
fn remove_swaps_the_last_in_and_renumbers_its_events() {
    let bytes = animkit_vm::game::doc_bundle();
    let (mut bundle, mut sprite, mut batch) = (ptr::null_mut(), ptr::null_mut(), ptr::null_mut());
    unsafe {
        assert_eq!(animkit_bundle_open(bytes.as_ptr(), bytes.len(), &mut bundle), AnimkitStatus::Ok);
        assert_eq!(animkit_bundle_sprite(bundle, c"hero".as_ptr(), &mut sprite), AnimkitStatus::Ok);
        assert_eq!(animkit_sprite_batch_new(sprite, &mut batch), AnimkitStatus::Ok);
        for phase in [0, 2, 4] {
            assert_eq!(animkit_batch_spawn(batch, 0, phase, ptr::null_mut()), AnimkitStatus::Ok);
        }
        // Phases 0 and 4 fire `step` on the first tick: instances 0 and 2.
        assert_eq!(animkit_batch_tick(batch), AnimkitStatus::Ok);
        assert_eq!(frames(batch), [0, 1, 0]);
        let mut waiting = true;
        assert_eq!(animkit_batch_is_waiting(batch, 2, &mut waiting), AnimkitStatus::Ok);
        assert!(!waiting);
        assert_eq!(animkit_batch_remove(batch, 0), AnimkitStatus::Ok);
        let mut len = 0;
        assert_eq!(animkit_batch_len(batch, &mut len), AnimkitStatus::Ok);
        assert_eq!(len, 2);
        assert_eq!(frames(batch), [0, 1], "the last took index 0");
        let mut events = [AnimkitInstanceEvent::default(); 4];
        let mut n = 0;
        assert_eq!(animkit_batch_drain_events(batch, events.as_mut_ptr(), 4, &mut n), AnimkitStatus::Ok);
        let who: Vec<u32> = events[..n].iter().map(|e| e.instance).collect();
        assert_eq!(who, [0], "instance 0's event went with it; instance 2's is now 0's");
        assert_eq!(animkit_batch_remove(batch, 2), AnimkitStatus::OutOfRange);
        assert_eq!(animkit_batch_remove(batch, 1), AnimkitStatus::Ok);
        assert_eq!(animkit_batch_remove(batch, 0), AnimkitStatus::Ok);
        assert_eq!(animkit_batch_len(batch, &mut len), AnimkitStatus::Ok);
        assert_eq!(len, 0);
        // Empty, it ticks and takes new animations.
        assert_eq!(animkit_batch_tick(batch), AnimkitStatus::Ok);
        assert_eq!(animkit_batch_spawn(batch, 0, 0, ptr::null_mut()), AnimkitStatus::Ok);
        assert_eq!(animkit_batch_advance(batch, 3), AnimkitStatus::Ok);
        assert_eq!(frames(batch), [1]);
        animkit_batch_free(batch);
        animkit_sprite_free(sprite);
        animkit_bundle_free(bundle);
    }
}

#[test]
fn is_waiting_turns_true_at_a_wait_end() {
    let sources = [animkit_compiler::Source::new("w.anim".to_string(), "Walk: 2, 2, _loop\nFall: 2, 1, _wait\n")];
    let program = animkit_compiler::compile(&sources, &Default::default()).expect("compiles");
    let bytes = animkit_vm::engine::codec::encode(&program);
    let (mut bundle, mut sprite, mut batch) = (ptr::null_mut(), ptr::null_mut(), ptr::null_mut());
    unsafe {
        assert_eq!(animkit_bundle_open(bytes.as_ptr(), bytes.len(), &mut bundle), AnimkitStatus::Ok);
        assert_eq!(animkit_bundle_sprite(bundle, c"w".as_ptr(), &mut sprite), AnimkitStatus::Ok);
        let mut fall = 0;
        assert_eq!(animkit_sprite_state(sprite, c"Fall".as_ptr(), &mut fall), AnimkitStatus::Ok);
        assert_eq!(animkit_sprite_batch_new(sprite, &mut batch), AnimkitStatus::Ok);
        assert_eq!(animkit_batch_spawn(batch, 0, 0, ptr::null_mut()), AnimkitStatus::Ok);
        assert_eq!(animkit_batch_spawn(batch, fall, 0, ptr::null_mut()), AnimkitStatus::Ok);
        let mut seen = Vec::new();
        for _ in 0..5 {
            assert_eq!(animkit_batch_tick(batch), AnimkitStatus::Ok);
            let (mut walking, mut falling) = (true, false);
            assert_eq!(animkit_batch_is_waiting(batch, 0, &mut walking), AnimkitStatus::Ok);
            assert_eq!(animkit_batch_is_waiting(batch, 1, &mut falling), AnimkitStatus::Ok);
            seen.push((walking, falling));
        }
        // Fall shows frame 0 for 2 ticks, frame 1 for 1, then waits.
        assert_eq!(seen, [(false, false), (false, false), (false, false), (false, true), (false, true)]);
        animkit_batch_free(batch);
        animkit_sprite_free(sprite);
        animkit_bundle_free(bundle);
    }
}

#[test]
fn reads_past_the_end_are_out_of_range_and_write_nothing() {
    let bytes = animkit_vm::game::doc_bundle();
    let (mut bundle, mut sprite, mut batch) = (ptr::null_mut(), ptr::null_mut(), ptr::null_mut());
    let last_error = || unsafe { std::ffi::CStr::from_ptr(animkit_last_error()) }.to_string_lossy().into_owned();
    unsafe {
        assert_eq!(animkit_bundle_open(bytes.as_ptr(), bytes.len(), &mut bundle), AnimkitStatus::Ok);
        assert_eq!(animkit_bundle_sprite(bundle, c"hero".as_ptr(), &mut sprite), AnimkitStatus::Ok);
        assert_eq!(animkit_sprite_batch_new(sprite, &mut batch), AnimkitStatus::Ok);
        assert_eq!(animkit_batch_spawn(batch, 0, 0, ptr::null_mut()), AnimkitStatus::Ok);
        assert_eq!(animkit_batch_advance(batch, 3), AnimkitStatus::Ok);
        let (mut speed, mut state, mut frame, mut ticks) = (7u32, 7u32, 7u32, 7u64);
        assert_eq!(animkit_batch_frame(batch, 0, &mut frame), AnimkitStatus::Ok);
        assert_eq!(animkit_batch_time_in_state(batch, 0, &mut ticks), AnimkitStatus::Ok);
        assert_eq!((frame, ticks), (1, 3));
        let (mut frame, mut ticks) = (7u32, 7u64);
        let past = "instance 99 is past the end of the batch (1 instances)";
        assert_eq!(animkit_batch_speed(batch, 99, &mut speed), AnimkitStatus::OutOfRange);
        assert_eq!(last_error(), format!("animkit_batch_speed: {past}"));
        assert_eq!(animkit_batch_state(batch, 99, &mut state), AnimkitStatus::OutOfRange);
        assert_eq!(last_error(), format!("animkit_batch_state: {past}"));
        assert_eq!(animkit_batch_frame(batch, 99, &mut frame), AnimkitStatus::OutOfRange);
        assert_eq!(last_error(), format!("animkit_batch_frame: {past}"));
        assert_eq!(animkit_batch_time_in_state(batch, 99, &mut ticks), AnimkitStatus::OutOfRange);
        assert_eq!(last_error(), format!("animkit_batch_time_in_state: {past}"));
        assert_eq!((speed, state, frame, ticks), (7, 7, 7, 7), "nothing written");
        let mut name = ptr::null();
        assert_eq!(animkit_sprite_state_name(sprite, 999, &mut name), AnimkitStatus::UnknownState);
        assert_eq!(last_error(), "animkit_sprite_state_name: state 999 is past the 1 states of sprite module `hero`");
        assert!(name.is_null());
        assert_eq!(animkit_sprite_event_name(sprite, u32::MAX, &mut name), AnimkitStatus::Ok);
        assert_eq!(std::ffi::CStr::from_ptr(name).to_bytes(), b"", "not an event of `hero`");
        animkit_batch_free(batch);
        animkit_sprite_free(sprite);
        animkit_bundle_free(bundle);
    }
}
