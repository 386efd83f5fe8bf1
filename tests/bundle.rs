//! Bundles: round trips, `--strip`, and rejection of truncated, corrupted,
//! mutated and foreign files (an error, never a panic).

use crate::common;
use animkit_compiler::{Options, Source, compile};
use animkit_vm::engine::codec::{self, FORMAT_VERSION, HEADER_LEN, LoadError};
use animkit_vm::engine::program::Program;

fn hero() -> Program {
    let text = std::fs::read_to_string(common::path("examples/hero.anim")).unwrap();
    compile(&[Source::new("examples/hero.anim", text)], &Options::default()).unwrap()
}

fn with_crc(mut bytes: Vec<u8>) -> Vec<u8> {
    codec::reseal(&mut bytes, codec::Reseal::Checksum);
    bytes
}

#[test]
fn round_trip_is_exact() {
    let p = hero();
    let bytes = codec::encode(&p);
    let back = codec::load(&bytes).unwrap();
    assert_eq!(*back, p);
    assert_eq!(codec::encode(&back), bytes, "encoding is deterministic");
}

#[test]
fn several_files_make_one_bundle_with_one_module_each() {
    let a = Source::new("a.anim", "Idle: 5, _loop\n");
    let b = Source::new("dir/b.anim", "Walk: 2|step, 2, _loop\n");
    let p = compile(&[a, b], &Options::default()).unwrap();
    let back = codec::load(&codec::encode(&p)).unwrap();
    let names: Vec<&str> = back.modules.iter().map(|m| back.string(m.name)).collect();
    assert_eq!(names, ["a", "b"]);
    assert_eq!(back.modules[1].source.as_deref(), Some("dir/b.anim"));
}

#[test]
fn strip_drops_debug_info_only() {
    let text = std::fs::read_to_string(common::path("examples/hero.anim")).unwrap();
    let src = [Source::new("examples/hero.anim", text)];
    let full = compile(&src, &Options::default()).unwrap();
    let stripped = compile(&src, &Options { strip: true, ..Options::default() }).unwrap();
    assert!(full.modules[0].functions[0].lines.len() > 10);
    assert!(stripped.modules[0].functions[0].lines.is_empty());
    assert_eq!(stripped.modules[0].source, None);
    assert_eq!(stripped.modules[0].functions[0].code, full.modules[0].functions[0].code);
    let (a, b) = (codec::encode(&full), codec::encode(&stripped));
    assert!(b.len() < a.len());
    assert_eq!(u16::from_le_bytes([a[10], a[11]]) & 1, 1, "debug flag set");
    assert_eq!(u16::from_le_bytes([b[10], b[11]]) & 1, 0, "debug flag clear");
}

#[test]
fn every_truncation_is_rejected() {
    let bytes = codec::encode(&hero());
    for len in 0..bytes.len() {
        let err = codec::load(&bytes[..len]).unwrap_err();
        match (len, err) {
            (0..8, LoadError::NotABundle) => {}
            (8.., LoadError::Truncated { found, .. }) => assert_eq!(found, len),
            (len, e) => panic!("truncated to {len}: unexpected {e}"),
        }
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(codec::load(&longer), Err(LoadError::TrailingBytes { .. })));
}

#[test]
fn every_bit_flip_is_rejected() {
    let bytes = codec::encode(&hero());
    for i in 0..bytes.len() {
        for bit in 0..8 {
            let mut b = bytes.clone();
            b[i] ^= 1 << bit;
            assert!(codec::load(&b).is_err(), "flip of bit {bit} in byte {i} was accepted");
        }
    }
}

#[test]
fn mutated_payloads_with_a_valid_checksum_never_panic() {
    // Changing any payload byte to any of a few values and fixing the CRC
    // gives either a valid different program or a clear error.
    let bytes = codec::encode(&hero());
    let (mut ok, mut rejected) = (0, 0);
    for i in HEADER_LEN..bytes.len() {
        for v in [0u8, 1, 0x7f, 0x80, 0xff, bytes[i].wrapping_add(1)] {
            let mut b = bytes.clone();
            b[i] = v;
            match codec::load(&with_crc(b)) {
                Ok(p) => {
                    ok += 1;
                    // A program that verifies must also run without panicking.
                    let p = std::sync::Arc::new(p);
                    if let Some(s) = animkit_vm::engine::sprite::Sprites::first(p) {
                        for st in 0..s.state_count() {
                            let mut inst = s.instance(s.state_name(st as u16)).unwrap();
                            for _ in 0..50 {
                                inst.tick();
                            }
                        }
                    }
                }
                Err(e) => {
                    rejected += 1;
                    assert!(!e.to_string().is_empty());
                }
            }
        }
    }
    assert!(ok > 0 && rejected > 0, "ok {ok}, rejected {rejected}");
}

#[test]
fn foreign_and_hostile_files_get_clear_errors() {
    assert_eq!(codec::load(b"").unwrap_err(), LoadError::NotABundle);
    assert_eq!(codec::load(b"\x89PNG\r\n\x1a\n0000000000000").unwrap_err(), LoadError::NotABundle);
    assert_eq!(codec::load(b"Idle: 5, _loop\n").unwrap_err(), LoadError::NotABundle);
    let mut b = codec::encode(&hero());
    b[8..10].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    let e = codec::load(&b).unwrap_err();
    assert_eq!(e, LoadError::UnsupportedVersion(FORMAT_VERSION + 1));
    assert!(e.to_string().contains("recompile"));
    // A header that promises 4 GiB.
    let mut b = codec::encode(&hero());
    b[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(codec::load(&b), Err(LoadError::TooLarge(_))));
    // A payload that claims a string table of 2^60 entries.
    let hostile = codec::frame_payload(&[0xfdu8, 0, 0, 0, 0, 0, 0, 0, 0x10]);
    let e = codec::load(&hostile).unwrap_err();
    assert!(matches!(e, LoadError::Malformed(_)), "{e}");
}
