//! The thread-safety promise of `docs/capi.md`, through the extern
//! functions themselves (the rlib): batches of one sprite module ticked on
//! four threads at once, while the threads share the module handle for
//! names (const calls, concurrently), give what one thread gives; the last
//! error is per thread.

use crate::common;

use animkit::*;
use std::ffi::{CStr, c_char};
use std::ptr;

/// A handle shared by threads (the ABI says const calls may run
/// concurrently, and each batch is used by one thread).
#[derive(Clone, Copy)]
struct Shared(*mut AnimkitSprite);
unsafe impl Send for Shared {}
unsafe impl Sync for Shared {}

fn text(p: *const c_char) -> String {
    // SAFETY: the library's NUL-terminated strings.
    unsafe { CStr::from_ptr(p) }.to_str().expect("UTF-8").to_string()
}

/// `ticks` ticks of a batch of `n` walkers (phases 0..n) in `state`: per
/// tick, the frames and the named events.
fn play(sprite: Shared, state: &str, n: u32, ticks: u32) -> Vec<String> {
    let mut log = Vec::new();
    unsafe {
        let mut st = 0;
        let name = std::ffi::CString::new(state).expect("a name");
        assert_eq!(animkit_sprite_state(sprite.0, name.as_ptr(), &mut st), AnimkitStatus::Ok);
        let mut batch = ptr::null_mut();
        assert_eq!(animkit_sprite_batch_new(sprite.0, &mut batch), AnimkitStatus::Ok);
        for i in 0..n {
            assert_eq!(animkit_batch_spawn(batch, st, i, ptr::null_mut()), AnimkitStatus::Ok);
        }
        let mut events = [AnimkitInstanceEvent::default(); 8];
        for _ in 0..ticks {
            assert_eq!(animkit_batch_tick(batch), AnimkitStatus::Ok);
            let (mut frames, mut len) = (ptr::null(), 0);
            assert_eq!(animkit_batch_frames(batch, &mut frames, &mut len), AnimkitStatus::Ok);
            let mut line = format!("{:?}", std::slice::from_raw_parts(frames, len));
            loop {
                let mut got = 0;
                assert_eq!(animkit_batch_drain_events(batch, events.as_mut_ptr(), 8, &mut got), AnimkitStatus::Ok);
                for e in &events[..got] {
                    let mut name = ptr::null();
                    assert_eq!(animkit_sprite_event_name(sprite.0, e.event, &mut name), AnimkitStatus::Ok);
                    line += &format!(" {}:{}", e.instance, text(name));
                }
                if got < 8 {
                    break;
                }
            }
            log.push(line);
        }
        animkit_batch_free(batch);
    }
    log
}

#[test]
fn batches_of_one_module_on_four_threads() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let bytes = std::fs::read(common::bundle(dir.path(), "hero.anim")).expect("the bundle");
    let mut bundle = ptr::null_mut();
    let mut sprite = ptr::null_mut();
    unsafe {
        assert_eq!(animkit_bundle_open(bytes.as_ptr(), bytes.len(), &mut bundle), AnimkitStatus::Ok);
        assert_eq!(animkit_bundle_sprite(bundle, c"hero".as_ptr(), &mut sprite), AnimkitStatus::Ok);
        animkit_bundle_free(bundle);
    }
    let shared = Shared(sprite);
    let states = ["Walk", "Run", "Attack", "Idle"];
    let alone: Vec<Vec<String>> = states.iter().map(|s| play(shared, s, 30, 200)).collect();
    assert_eq!(
        alone[0][0],
        format!(
            "{:?} 0:step 12:step 24:step",
            vec![0; 6]
                .into_iter()
                .chain(vec![1; 6])
                .chain(vec![2; 6])
                .chain(vec![3; 6])
                .chain(vec![0; 6])
                .collect::<Vec<u32>>()
        )
    );
    let together: Vec<Vec<String>> = std::thread::scope(|s| {
        let handles: Vec<_> = states.iter().map(|st| s.spawn(move || play(shared, st, 30, 200))).collect();
        handles.into_iter().map(|h| h.join().expect("no panic")).collect()
    });
    assert_eq!(together, alone);
    unsafe { animkit_sprite_free(sprite) };
}

#[test]
fn the_last_error_is_per_thread() {
    unsafe {
        assert_eq!(animkit_batch_tick(ptr::null_mut()), AnimkitStatus::NullPointer);
        std::thread::spawn(|| {
            assert_eq!(text(animkit_last_error()), "", "a new thread has no error yet");
            assert_eq!(animkit_scene_step(ptr::null_mut()), AnimkitStatus::NullPointer);
            assert_eq!(text(animkit_last_error()), "animkit_scene_step: `scene` is NULL");
        })
        .join()
        .expect("no panic");
        assert_eq!(text(animkit_last_error()), "animkit_batch_tick: `batch` is NULL");
    }
}
