//! LEB128 and zigzag integers: the variable-length numbers inside every
//! section encoding of the payload (bincode's own varints frame the
//! sections; these are inside the byte strings). Each is `#[inline]`: the
//! section files call them in their decoding loops, and a file may land in
//! another codegen unit than this one.

/// Appends `v` as unsigned LEB128 (7 bits a byte, low bits first).
#[inline]
pub(super) fn write_leb(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// Reads an unsigned LEB128 at `*i`, advancing it: `None` when the bytes
/// end first or the number does not fit in 64 bits.
#[inline]
pub(super) fn read_leb(bytes: &[u8], i: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let b = *bytes.get(*i)?;
        *i += 1;
        v |= ((b & 0x7f) as u64).checked_shl(shift)?;
        if b & 0x80 == 0 {
            return Some(v);
        }
    }
    None
}

/// Bytes [`write_leb`] takes for `v`.
#[inline]
pub(super) fn leb_len(v: u64) -> usize {
    (64 - v.leading_zeros() as usize).div_ceil(7).max(1)
}

/// A signed number as an unsigned one, small magnitudes small (`0, -1, 1,
/// -2, ...` as `0, 1, 2, 3, ...`).
#[inline]
pub(super) fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

/// Undoes [`zigzag`].
#[inline]
pub(super) fn unzigzag(z: u64) -> i64 {
    ((z >> 1) as i64) ^ -((z & 1) as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leb_rejects_overlong() {
        let mut i = 0;
        assert_eq!(read_leb(&[0xff; 11], &mut i), None);
        let mut i = 0;
        assert_eq!(read_leb(&[0x80], &mut i), None);
    }
}
