//! `cargo +nightly fuzz run slap_front`: see `animkit_fuzz::slap_front`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| animkit_fuzz::slap_front(data));
