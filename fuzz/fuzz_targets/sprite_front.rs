//! `cargo +nightly fuzz run sprite_front`: see `animkit_fuzz::sprite_front`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| animkit_fuzz::sprite_front(data));
