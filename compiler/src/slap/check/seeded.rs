//! The checker's seeded hasher for names and ids, which come from the
//! file and so are adversarial keys.

use std::hash::{BuildHasher, Hasher, RandomState};

/// The checker's hash for names and ids: a folded 64x64->128-bit multiply
/// per 8 bytes, seeded per process. Faster than SipHash on short names,
/// and unlike `crate::hash::FxHasher` it mixes every input bit into the
/// low bits that pick a bucket, under a seed a file cannot know: names and
/// ids come from the file, and crafted collisions must not make checking
/// quadratic.
#[derive(Clone, Copy)]
pub(super) struct Seeded(u64);

impl Seeded {
    pub(super) fn new() -> Seeded {
        Seeded(RandomState::new().hash_one(0x5eed_u64) | 1)
    }
}

impl BuildHasher for Seeded {
    type Hasher = Fold;
    fn build_hasher(&self) -> Fold {
        Fold(self.0)
    }
}

pub(super) struct Fold(u64);

const MUL: u64 = 0x9e37_79b9_7f4a_7c15;

impl Fold {
    #[inline]
    fn mix(&mut self, word: u64) {
        let m = u128::from(self.0 ^ word) * u128::from(MUL);
        self.0 = (m as u64) ^ ((m >> 64) as u64);
    }
}

impl Hasher for Fold {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.mix(u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]));
        }
        let rest = chunks.remainder();
        let mut last = [0u8; 8];
        last[..rest.len()].copy_from_slice(rest);
        self.mix(u64::from_le_bytes(last) ^ ((rest.len() as u64) << 56));
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.mix(u64::from(i));
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.mix(u64::from(i));
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.mix(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        let m = u128::from(self.0) * u128::from(MUL ^ 0xff51_afd7_ed55_8ccd);
        (m as u64) ^ ((m >> 64) as u64)
    }
}
