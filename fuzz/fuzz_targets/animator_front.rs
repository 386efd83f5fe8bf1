//! `cargo +nightly fuzz run animator_front`: see `animkit_fuzz::animator_front`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| animkit_fuzz::animator_front(data));
