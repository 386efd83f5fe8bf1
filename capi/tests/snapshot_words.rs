//! A damaged snapshot's message says what is wrong in words (issue 42
//! §1): before, `animkit_batch_restore` passed bincode's Debug text on
//! (`damaged snapshot: InvalidIntegerType { expected: U32, found: U64 }`).
//! Every byte of a snapshot is set in turn to each of bincode's varint
//! markers (251 to 255) and to 0x80; every refusal is a status and a
//! message with no Debug text, and the varint one reads in words.

use animkit::*;
use std::collections::BTreeSet;
use std::ffi::CStr;
use std::ptr;

#[test]
fn damaged_snapshots_are_described_in_words() {
    let bytes = animkit_vm::game::doc_bundle();
    let (mut bundle, mut sprite, mut batch) = (ptr::null_mut(), ptr::null_mut(), ptr::null_mut());
    let mut messages = BTreeSet::new();
    unsafe {
        assert_eq!(animkit_bundle_open(bytes.as_ptr(), bytes.len(), &mut bundle), AnimkitStatus::Ok);
        assert_eq!(animkit_bundle_sprite(bundle, c"hero".as_ptr(), &mut sprite), AnimkitStatus::Ok);
        assert_eq!(animkit_sprite_batch_new(sprite, &mut batch), AnimkitStatus::Ok);
        for i in 0..3 {
            assert_eq!(animkit_batch_spawn(batch, 0, i, ptr::null_mut()), AnimkitStatus::Ok);
        }
        assert_eq!(animkit_batch_set_speed(batch, 1, 3, 2), AnimkitStatus::Ok);
        assert_eq!(animkit_batch_advance(batch, 5), AnimkitStatus::Ok);
        let mut len = 0;
        let _ = animkit_batch_snapshot(batch, ptr::null_mut(), 0, &mut len);
        let mut snap = vec![0u8; len];
        assert_eq!(animkit_batch_snapshot(batch, snap.as_mut_ptr(), len, &mut len), AnimkitStatus::Ok);
        for at in 8..snap.len() {
            for b in [251u8, 252, 253, 254, 255, 0x80] {
                let mut bad = snap.clone();
                bad[at] = b;
                let status = animkit_batch_restore(batch, bad.as_ptr(), bad.len());
                if status != AnimkitStatus::Ok {
                    let m = CStr::from_ptr(animkit_last_error()).to_str().expect("UTF-8").to_string();
                    assert!(!m.contains('{') && !m.contains("Invalid"), "byte {at} set to {b}: {m}");
                    messages.insert(m);
                }
            }
        }
        animkit_batch_free(batch);
        animkit_sprite_free(sprite);
        animkit_bundle_free(bundle);
    }
    let words =
        "animkit_batch_restore: damaged snapshot: a number is too large for its field (64 bits where 32 belong)";
    assert!(messages.contains(words), "{messages:#?}");
}
