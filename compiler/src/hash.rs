//! A fast, non-cryptographic hasher for the compiler's own tables (string
//! interning, state names): the multiply-rotate hash of rustc's `FxHasher`.
//! The keys come from the file being compiled, never from an adversary who
//! gains anything by colliding them, and SipHash showed up in profiles of
//! large compiles.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// rustc's Fx hash: `(h.rotate_left(5) ^ word) * K` per 8-byte word.
#[derive(Clone, Copy, Default)]
pub struct FxHasher {
    hash: u64,
}

const K: u64 = 0xf135_7aea_2e62_a9c5;

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(K);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut b = [0u8; 8];
            b[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(b));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    /// The hash with its high bits, which the multiply mixes well, turned
    /// into the low bits that pick a bucket (as rustc-hash 2 does): the
    /// low bits of the product depend only on the low bits of the last
    /// word, so names that differ in their middle bytes only (`A1000000`
    /// to `A1999999`: the same first two bytes, the words written last)
    /// fell into a few buckets, and checking 2 000 000 such sprite states
    /// took 51 s against 5 s for 1 000 000 (issue 41 §2).
    #[inline]
    fn finish(&self) -> u64 {
        self.hash.rotate_left(26)
    }
}

/// A `HashMap` with [`FxHasher`].
pub type FxHashMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinguishes_strings() {
        let mut m: FxHashMap<&str, u32> = FxHashMap::default();
        for (i, s) in ["a", "b", "ab", "ba", "Idle", "Idle2", "", "a\0"].iter().enumerate() {
            m.insert(s, i as u32);
        }
        assert_eq!(m.len(), 8);
        assert_eq!(m["Idle2"], 5);
    }

    /// Issue 41 §2: names alike but for their middle bytes spread over the
    /// low bits that pick a bucket (before the final rotation, 65 536
    /// state names `A1000000`.. fell into 32 values of the low 16 bits; 31 476
    /// now, random hashes would give about 41 400).
    #[test]
    fn names_differing_in_the_middle_spread_over_the_buckets() {
        use std::hash::BuildHasher;
        let build = BuildHasherDefault::<FxHasher>::default();
        let mut low: Vec<u64> = (1_000_000..1_065_536).map(|i| build.hash_one(format!("A{i}")) & 0xffff).collect();
        low.sort_unstable();
        low.dedup();
        assert!(low.len() > 20_000, "{} distinct low 16 bits of 65536 hashes", low.len());
    }
}
