//! `animkit_batch_reload` (issue 42 part 1, the C side) through the
//! extern functions (the rlib): a batch of `h` reloaded onto a new build
//! of `h` that lacks a state, an event and a frame gives the report and,
//! tick after tick, the frames, states, times in state and events that
//! `AnimationBatch::reload` gives on the same bundles; the old module's
//! and the new module's handles and bundles freed, the batch goes on;
//! hostile calls are refused and leave the batch as it was.

use animkit::*;
use animkit_vm::game::{AnimationBatch, Bundle, InstanceEvent};
use std::ffi::CStr;
use std::ptr;

const OLD: &str = "Walk: 2|step, 2, 2, _loop\nJump: 1|up, 3, 3, _wait\nRun: 1|dust, 1, _loop\n";
/// `Jump` (and its event `up`) gone, `Walk` down to two frames, the second
/// one tick long.
const NEW: &str = "Walk: 2|step, 1, _loop\nRun: 1|dust, 1, _loop\n";

fn bundle_of(file: &str, source: &str) -> Vec<u8> {
    let sources = [animkit_compiler::Source::new(file.to_string(), source.to_string())];
    let program = animkit_compiler::compile(&sources, &Default::default()).expect("compiles");
    animkit_vm::engine::codec::encode(&program)
}

fn last_error() -> String {
    unsafe { CStr::from_ptr(animkit_last_error()) }.to_string_lossy().into_owned()
}

/// A bundle and its sprite module `name`, through the C ABI.
unsafe fn open(bytes: &[u8], name: &CStr) -> (*mut AnimkitBundle, *mut AnimkitSprite) {
    let (mut bundle, mut sprite) = (ptr::null_mut(), ptr::null_mut());
    unsafe {
        assert_eq!(animkit_bundle_open(bytes.as_ptr(), bytes.len(), &mut bundle), AnimkitStatus::Ok);
        assert_eq!(animkit_bundle_sprite(bundle, name.as_ptr(), &mut sprite), AnimkitStatus::Ok);
    }
    (bundle, sprite)
}

/// Per instance: (frame, state, time in state), then the pending events
/// as (instance, event id), drained.
type Seen = (Vec<(u32, u32, u64)>, Vec<(u32, u32)>);

unsafe fn seen_c(batch: *mut AnimkitSpriteBatch) -> Seen {
    let mut len = 0;
    let mut rows = Vec::new();
    unsafe {
        assert_eq!(animkit_batch_len(batch, &mut len), AnimkitStatus::Ok);
        for i in 0..len as u32 {
            let (mut frame, mut state, mut ticks) = (0, 0, 0);
            assert_eq!(animkit_batch_frame(batch, i, &mut frame), AnimkitStatus::Ok);
            assert_eq!(animkit_batch_state(batch, i, &mut state), AnimkitStatus::Ok);
            assert_eq!(animkit_batch_time_in_state(batch, i, &mut ticks), AnimkitStatus::Ok);
            rows.push((frame, state, ticks));
        }
        let mut events = [AnimkitInstanceEvent::default(); 64];
        let mut n = 0;
        assert_eq!(animkit_batch_drain_events(batch, events.as_mut_ptr(), 64, &mut n), AnimkitStatus::Ok);
        (rows, events[..n].iter().map(|e| (e.instance, e.event)).collect())
    }
}

fn seen_rust(b: &mut AnimationBatch) -> Seen {
    let rows = (0..b.len() as u32)
        .map(|i| {
            let state = b.state(i).expect("in range").index() as u32;
            (b.frame(i).expect("in range"), state, b.time_in_state(i).expect("in range"))
        })
        .collect();
    let mut events = [InstanceEvent::default(); 64];
    let n = b.drain_events(&mut events);
    (rows, events[..n].iter().map(|e| (e.instance, e.event.id())).collect())
}

#[test]
fn a_reload_onto_a_build_lacking_a_state_matches_the_rust_batch() {
    let (old_bytes, new_bytes) = (bundle_of("h.anim", OLD), bundle_of("h.anim", NEW));
    // The Rust side.
    let old_rust = Bundle::from_bytes(&old_bytes).expect("opens").sprite("h").expect("h");
    let new_rust = Bundle::from_bytes(&new_bytes).expect("opens").sprite("h").expect("h");
    let mut rust = old_rust.batch();
    // (state, phase): Walk, Jump, Run, Walk in its third frame.
    let spawns = [(0, 0), (1, 0), (2, 0), (0, 4)];
    for (state, phase) in spawns {
        rust.spawn_at(old_rust.state_at(state).expect("a state"), phase);
    }
    rust.advance(4);
    let run = new_rust.state("Run").expect("Run");
    let expected = rust.reload(&new_rust, run);
    // The C side.
    unsafe {
        let (old_bundle, old_sprite) = open(&old_bytes, c"h");
        let mut batch = ptr::null_mut();
        assert_eq!(animkit_sprite_batch_new(old_sprite, &mut batch), AnimkitStatus::Ok);
        for (state, phase) in spawns {
            assert_eq!(animkit_batch_spawn(batch, state as u32, phase, ptr::null_mut()), AnimkitStatus::Ok);
        }
        assert_eq!(animkit_batch_advance(batch, 4), AnimkitStatus::Ok);
        animkit_sprite_free(old_sprite);
        animkit_bundle_free(old_bundle);
        let (new_bundle, new_sprite) = open(&new_bytes, c"h");
        let mut fallback = 99;
        assert_eq!(animkit_sprite_state(new_sprite, c"Run".as_ptr(), &mut fallback), AnimkitStatus::Ok);
        assert_eq!(fallback, 1);
        let mut report = AnimkitReloadReport::default();
        assert_eq!(animkit_batch_reload(batch, new_sprite, fallback, &mut report), AnimkitStatus::Ok);
        animkit_sprite_free(new_sprite);
        animkit_bundle_free(new_bundle);
        assert_eq!(expected.vanished, ["Jump"]);
        assert_eq!(expected.fallback, "Run");
        assert_eq!(
            report,
            AnimkitReloadReport {
                fell_back: expected.fell_back,
                clamped: expected.clamped,
                dropped_events: expected.dropped_events,
                vanished: expected.vanished.len(),
            }
        );
        // Jump's instance fell back; `up` (fired at its first tick, pending)
        // is dropped; instance 0, two ticks into Walk's second frame (now one
        // tick long), is clamped; instance 3 (phase 4: back in the first
        // frame) is not.
        assert_eq!((report.fell_back, report.clamped, report.dropped_events, report.vanished), (1, 1, 1, 1));
        let mut log = Vec::new();
        for _ in 0..6 {
            let c = seen_c(batch);
            assert_eq!(c, seen_rust(&mut rust));
            log.push(c);
            assert_eq!(animkit_batch_tick(batch), AnimkitStatus::Ok);
            rust.tick();
        }
        // The fallen-back instance is in Run (1) from the first tick after
        // the reload, its time in state started over.
        assert_eq!(log[1].0[1].1, 1);
        assert_eq!(log[1].0[1].2, 1);
        // State numbers are the new build's: Run is 1, 2 is past its states.
        assert_eq!(animkit_batch_set_state(batch, 0, 1, 0), AnimkitStatus::Ok);
        assert_eq!(animkit_batch_set_state(batch, 0, 2, 0), AnimkitStatus::UnknownState);
        assert_eq!(last_error(), "animkit_batch_set_state: state 2 is past the 2 states of sprite module `h`");
        animkit_batch_free(batch);
    }
}

#[test]
fn hostile_reloads_are_refused_and_leave_the_batch_as_it_was() {
    let (old_bytes, new_bytes, other_bytes) =
        (bundle_of("h.anim", OLD), bundle_of("h.anim", NEW), bundle_of("other.anim", NEW));
    unsafe {
        let (old_bundle, old_sprite) = open(&old_bytes, c"h");
        let (new_bundle, new_sprite) = open(&new_bytes, c"h");
        let (other_bundle, other_sprite) = open(&other_bytes, c"other");
        let mut batch = ptr::null_mut();
        assert_eq!(animkit_sprite_batch_new(old_sprite, &mut batch), AnimkitStatus::Ok);
        assert_eq!(animkit_batch_spawn(batch, 1, 0, ptr::null_mut()), AnimkitStatus::Ok);
        assert_eq!(animkit_batch_advance(batch, 2), AnimkitStatus::Ok);
        let (before, _) = seen_c(batch);
        let mut report = AnimkitReloadReport { fell_back: 7, clamped: 7, dropped_events: 7, vanished: 7 };
        let untouched = report;
        // Each call's status and last error, taken right after it.
        let with_error = |status: AnimkitStatus| (status, last_error());
        let got = [
            with_error(animkit_batch_reload(ptr::null_mut(), new_sprite, 0, &mut report)),
            with_error(animkit_batch_reload(batch, ptr::null(), 0, &mut report)),
            with_error(animkit_batch_reload(batch, new_bundle.cast(), 0, &mut report)),
            with_error(animkit_batch_reload(old_sprite.cast(), new_sprite, 0, &mut report)),
            with_error(animkit_batch_reload(batch, other_sprite, 0, &mut report)),
            with_error(animkit_batch_reload(batch, new_sprite, 2, &mut report)),
        ];
        let expected = [
            (AnimkitStatus::NullPointer, "`batch` is NULL"),
            (AnimkitStatus::NullPointer, "`sprite` is NULL"),
            (AnimkitStatus::WrongHandle, "`sprite` is not an AnimkitSprite: it is an AnimkitBundle"),
            (AnimkitStatus::WrongHandle, "`batch` is not an AnimkitSpriteBatch: it is an AnimkitSprite"),
            (
                AnimkitStatus::InvalidArgument,
                "the batch animates sprite module `h`, not `other`: a reload takes a new build of the same module",
            ),
            (AnimkitStatus::UnknownState, "state 2 is past the 2 states of sprite module `h`"),
        ]
        .map(|(status, message)| (status, format!("animkit_batch_reload: {message}")));
        assert_eq!(got, expected);
        assert_eq!(report, untouched, "nothing written");
        // The batch is as it was: still the old build (Jump is 1, Run 2).
        let (rows, _) = seen_c(batch);
        assert_eq!(rows, before);
        let mut state = 0;
        assert_eq!(animkit_batch_state(batch, 0, &mut state), AnimkitStatus::Ok);
        assert_eq!(state, 1, "still in the old build's Jump");
        // A NULL report is allowed, and the reload happens.
        assert_eq!(animkit_batch_reload(batch, new_sprite, 0, ptr::null_mut()), AnimkitStatus::Ok);
        assert_eq!(animkit_batch_tick(batch), AnimkitStatus::Ok);
        assert_eq!(animkit_batch_state(batch, 0, &mut state), AnimkitStatus::Ok);
        assert_eq!(state, 0, "fell back to the new build's Walk");
        animkit_batch_free(batch);
        for s in [old_sprite, new_sprite, other_sprite] {
            animkit_sprite_free(s);
        }
        for b in [old_bundle, new_bundle, other_bundle] {
            animkit_bundle_free(b);
        }
    }
}
