//! The constant pool: one tagged entry per constant (decimals, raw
//! numbers, string ids, `n / 255` colours, sums and copies of recent
//! constants); the layout is in the module docs of [`super`].

use super::LoadError;
use super::leb::{leb_len, read_leb, write_leb};
use crate::program::ConstKind;

const TAG_RAW: u8 = 0x40;
const TAG_STR: u8 = 0x41;
const TAG_255: u8 = 0x42;
const TAG_SUM2: u8 = 0x43;
/// `TAG_COPY + k`: the constant `k + 1` places back, `k < COPY_WINDOW`.
const TAG_COPY: u8 = 0x60;
const COPY_WINDOW: usize = 32;

/// Writes the constant pool, remembering the last
/// [`COPY_WINDOW`] constants for copies.
#[derive(Default)]
pub(super) struct ConstWriter {
    /// The pool's bytes so far.
    pub(super) out: Vec<u8>,
    /// The constants so far (bits and kind), newest last.
    recent: Vec<(u64, ConstKind)>,
}

impl ConstWriter {
    /// Appends constant `v` of kind `kind`.
    pub(super) fn push(&mut self, v: f64, kind: ConstKind) {
        let bits = v.to_bits();
        let n = self.recent.len();
        let window = &self.recent[n.saturating_sub(COPY_WINDOW)..];
        if let Some(back) = window.iter().rev().position(|&c| c == (bits, kind)) {
            self.out.push(TAG_COPY + back as u8);
        } else {
            match kind {
                ConstKind::Str => {
                    self.out.push(TAG_STR);
                    write_leb(&mut self.out, v as u64);
                }
                ConstKind::Num => {
                    let two_back = (n >= 2 && self.recent[n - 2].1 == ConstKind::Num)
                        .then(|| f64::from_bits(self.recent[n - 2].0));
                    encode_num_after(v, two_back, &mut self.out);
                }
            }
        }
        // Only the last `COPY_WINDOW` constants are ever looked at: keep
        // at most twice that, so the writer's memory does not grow with
        // the pool.
        if self.recent.len() >= 2 * COPY_WINDOW {
            self.recent.drain(..self.recent.len() - COPY_WINDOW);
        }
        self.recent.push((bits, kind));
    }
}
const MAX_EXP: u32 = 22;
const MAX_MANTISSA: u64 = 1 << 53;

/// Exact powers of ten representable as `f64`.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
    1e21, 1e22,
];

/// Appends the compact encoding of the number `v` on its own (no copy, no
/// sum: see the module docs).
pub fn encode_num(v: f64, out: &mut Vec<u8>) {
    encode_num_after(v, None, out);
}

/// Appends the compact encoding of `v`, which may be written as
/// `two_back` plus a decimal.
fn encode_num_after(v: f64, two_back: Option<f64>, out: &mut Vec<u8>) {
    // A decimal of up to 28 bits of digits (what `%f` prints) is as short as
    // it gets; a longer one (`0.8800000000000001`) may have a shorter form.
    let decimal = decimal_form(v);
    if let Some((m, e)) = decimal.filter(|&(m, _)| m < 1 << 28) {
        write_decimal(out, v.is_sign_negative(), m, e);
        return;
    }
    let n = (v * 255.0).round();
    if (0.0..=255.0).contains(&n) && (n / 255.0).to_bits() == v.to_bits() {
        out.extend_from_slice(&[TAG_255, n as u8]);
        return;
    }
    let sum = two_back.and_then(|a| sum_form(a, v));
    match (decimal, sum) {
        (Some((m, _)), Some((_, ms, _))) if leb_len(m) <= 1 + leb_len(ms) => {
            let (m, e) = (m, decimal.map_or(0, |d| d.1));
            write_decimal(out, v.is_sign_negative(), m, e);
        }
        (_, Some((d, m, e))) => {
            out.push(TAG_SUM2);
            write_decimal(out, d.is_sign_negative(), m, e);
        }
        (Some((m, e)), None) => write_decimal(out, v.is_sign_negative(), m, e),
        (None, None) => {
            out.push(TAG_RAW);
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
}

fn write_decimal(out: &mut Vec<u8>, negative: bool, m: u64, e: u32) {
    out.push(((negative as u8) << 5) | e as u8);
    write_leb(out, m);
}

/// `(m, e)` with `|v| == m / 10^e` bit for bit, if such a short form exists
/// (the smallest such `e`).
fn decimal_form(v: f64) -> Option<(u64, u32)> {
    if !v.is_finite() {
        return None;
    }
    let a = v.abs();
    if a.fract() == 0.0 && a < MAX_MANTISSA as f64 {
        return Some((a as u64, 0));
    }
    for (e, &p) in POW10.iter().enumerate().skip(1) {
        let m = (a * p).round();
        if m >= MAX_MANTISSA as f64 {
            return None;
        }
        if (m / p).to_bits() == a.to_bits() {
            return Some((m as u64, e as u32));
        }
    }
    None
}

/// A decimal `d` (with its `(m, e)`) such that `a + d == v` bit for bit, the
/// shortest found: `x + w` where `w` was written with few digits.
fn sum_form(a: f64, v: f64) -> Option<(f64, u64, u32)> {
    let diff = v - a;
    if !diff.is_finite() || diff == 0.0 {
        return None;
    }
    // `diff` is `w` up to rounding: try it rounded to 1, 2, ... digits.
    let mag = diff.abs().log10().floor() as i32;
    for digits in 1..=15 {
        let e = digits - 1 - mag;
        if !(0..=MAX_EXP as i32).contains(&e) {
            continue;
        }
        let p = POW10[e as usize];
        let m = (diff.abs() * p).round();
        if m == 0.0 || m >= MAX_MANTISSA as f64 {
            continue;
        }
        let d = if diff < 0.0 { -(m / p) } else { m / p };
        if (a + d).to_bits() == v.to_bits() {
            return Some((d, m as u64, e as u32));
        }
    }
    None
}

/// Reads the constant pool (see the module docs of [`super`]).
pub(super) fn decode_consts(bytes: &[u8]) -> Result<Vec<(f64, ConstKind)>, LoadError> {
    let mut out = Vec::with_capacity(bytes.len().min(1 << 20) / 2);
    let mut i = 0;
    let bad = |i: usize, what: &str| LoadError::Malformed(format!("constant pool byte {i}: {what}"));
    while i < bytes.len() {
        let tag = bytes[i];
        i += 1;
        match tag {
            0x00..=0x3f => {
                let v = read_decimal(bytes, &mut i, tag)?;
                out.push((v, ConstKind::Num));
            }
            TAG_255 => {
                let n = *bytes.get(i).ok_or_else(|| bad(i, "truncated number"))?;
                i += 1;
                out.push((n as f64 / 255.0, ConstKind::Num));
            }
            TAG_SUM2 => {
                let a = match out.len().checked_sub(2).map(|k| out[k]) {
                    Some((a, ConstKind::Num)) => a,
                    _ => return Err(bad(i - 1, "a sum without a number two places back")),
                };
                let tag = *bytes.get(i).ok_or_else(|| bad(i, "truncated number"))?;
                i += 1;
                if tag > 0x3f {
                    return Err(bad(i - 1, "a sum whose second term is not a decimal"));
                }
                let d = read_decimal(bytes, &mut i, tag)?;
                out.push((a + d, ConstKind::Num));
            }
            t if (TAG_COPY..TAG_COPY + COPY_WINDOW as u8).contains(&t) => {
                let back = (t - TAG_COPY) as usize + 1;
                let c = out.len().checked_sub(back).map(|k| out[k]).ok_or_else(|| bad(i - 1, "a copy of nothing"))?;
                out.push(c);
            }
            TAG_RAW => {
                let raw = bytes.get(i..i + 8).ok_or_else(|| bad(i, "truncated number"))?;
                let mut b = [0u8; 8];
                b.copy_from_slice(raw);
                i += 8;
                out.push((f64::from_le_bytes(b), ConstKind::Num));
            }
            TAG_STR => {
                let id = read_leb(bytes, &mut i).ok_or_else(|| bad(i, "truncated string id"))?;
                if id > u32::MAX as u64 {
                    return Err(bad(i, "string id above 2^32"));
                }
                out.push((id as f64, ConstKind::Str));
            }
            t => return Err(bad(i - 1, &format!("unknown constant tag {t:#04x}"))),
        }
    }
    Ok(out)
}

/// The decimal after its tag `tag` (sign and exponent).
fn read_decimal(bytes: &[u8], i: &mut usize, tag: u8) -> Result<f64, LoadError> {
    let bad = |i: usize, what: &str| LoadError::Malformed(format!("constant pool byte {i}: {what}"));
    let e = (tag & 0x1f) as u32;
    if e > MAX_EXP {
        return Err(bad(*i - 1, "decimal exponent above 22"));
    }
    let m = read_leb(bytes, i).ok_or_else(|| bad(*i, "truncated number"))?;
    if m >= MAX_MANTISSA {
        return Err(bad(*i, "decimal mantissa of 2^53 or more"));
    }
    let v = m as f64 / POW10[e as usize];
    Ok(if tag & 0x20 != 0 { -v } else { v })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(v: f64) -> f64 {
        let mut buf = Vec::new();
        encode_num(v, &mut buf);
        let out = decode_consts(&buf).unwrap();
        assert_eq!(out.len(), 1);
        out[0].0
    }

    #[test]
    fn numbers_round_trip_bit_for_bit() {
        for v in [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            0.1,
            0.123456,
            25.0,
            100300.0,
            1e-3,
            1e22,
            1e23,
            std::f64::consts::PI,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            123456789.123456,
            -0.333333,
            f64::INFINITY,
        ] {
            assert_eq!(round_trip(v).to_bits(), v.to_bits(), "{v}");
        }
        assert!(round_trip(f64::NAN).is_nan());
    }

    #[test]
    fn printf_style_numbers_are_short() {
        let mut buf = Vec::new();
        encode_num(0.123456, &mut buf);
        assert_eq!(buf.len(), 4);
        buf.clear();
        encode_num(25.0, &mut buf);
        assert_eq!(buf.len(), 2);
    }

    #[test]
    fn colours_copies_and_corners_are_short() {
        let mut w = ConstWriter::default();
        let values = [244.0 / 255.0, 0.34, 0.35, 0.34 + 0.54, 0.35 + 0.5, 244.0 / 255.0, 0.88, 0.1, 0.2, 0.1 + 0.2];
        for v in values {
            w.push(v, ConstKind::Num);
        }
        w.push(7.0, ConstKind::Str);
        w.push(7.0, ConstKind::Str);
        let back = decode_consts(&w.out).unwrap();
        assert_eq!(back.len(), values.len() + 2);
        for (b, v) in back.iter().zip(values) {
            assert_eq!(b.0.to_bits(), v.to_bits(), "{v}");
        }
        assert_eq!(back[values.len() + 1], (7.0, ConstKind::Str));
        // colour 2, 0.34 2, 0.35 2, sum 3, 0.85 2, copy 1, 0.88 2, 0.1 2, 0.2 2, sum 3;
        // string 2, copy 1.
        assert_eq!(w.out.len(), 2 + 2 + 2 + 3 + 2 + 1 + 2 + 2 + 2 + 3 + 2 + 1, "{:x?}", w.out);
    }
}
