//! `cargo +nightly fuzz run load_bundle`: see `animkit_fuzz::load_bundle`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| animkit_fuzz::load_bundle(data));
