//! The `.animb` bundle container: the one place that knows the bytes.
//!
//! ```text
//! offset  size  field
//! 0       8     magic  b"ANIMB\0\r\n"
//! 8       2     format version, u16 LE (currently 1)
//! 10      2     flags, u16 LE (bit 0: debug info present)
//! 12      4     payload length in bytes, u32 LE
//! 16      4     CRC-32 (IEEE) of bytes 0..16 followed by the payload, u32 LE
//! 20      ...   payload: `BundleBody` encoded by bincode 2 (standard config,
//!               varint integers) through serde
//! ```
//!
//! Bulk data inside the payload are byte strings with their own compact
//! layouts, so that the bundle is small and loads fast:
//! - code: instruction words, 4 bytes each, little-endian;
//! - constants: one tagged entry each: tag `0b00s_eeeee` = a decimal
//!   `±m / 10^e` (sign `s`, `e <= 22`, then `m < 2^53` as LEB128; decoding
//!   is one exact division, so it is bit-identical to parsing the decimal
//!   text), tag `0x40` = a raw little-endian `f64`, tag `0x41` = a string id
//!   as LEB128;
//! - debug lines: `(pc delta, zigzag line delta, column)` LEB128 triples.
//!
//! Each function owns the constants `const_start .. const_start +
//! const_len` of the pool, and the functions' ranges follow each other in
//! order and cover the pool exactly (module by module, function by
//! function), so no constant is decoded twice: the decoded program is at
//! most a small constant factor larger than the payload, whatever the
//! payload claims.
//!
//! bincode is frozen (RUSTSEC-2025-0141: unmaintained; 3.0.0 is an empty
//! release), so it is pinned to `=2.0.1` and confined to this module: the
//! container can change codec by editing this file alone. Untrusted bytes
//! are decoded with a size limit ([`MAX_PAYLOAD`]) and then verified
//! (`crate::verify`) before anything runs.

use crate::isa::Insn;
use crate::program::{ConstKind, Function, Language, LineEntry, Module, Program, State};
use crate::verify::{VerifyError, verify_program};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The first eight bytes of every bundle.
pub const MAGIC: [u8; 8] = *b"ANIMB\0\r\n";
/// The format version this build writes and reads.
pub const FORMAT_VERSION: u16 = 1;
/// Header size in bytes.
pub const HEADER_LEN: usize = 20;
/// Largest payload accepted (and the decoder's allocation limit).
pub const MAX_PAYLOAD: usize = 256 << 20;

const FLAG_DEBUG: u16 = 1;

/// Why a bundle was rejected. Every variant is a clear message; nothing
/// from an untrusted file can panic the loader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// The file does not start with [`MAGIC`].
    NotABundle,
    /// Shorter than its header says.
    Truncated {
        /// Bytes the header promised (header included).
        expected: usize,
        /// Bytes present.
        found: usize,
    },
    /// Longer than its header says.
    TrailingBytes {
        /// Bytes the header promised (header included).
        expected: usize,
        /// Bytes present.
        found: usize,
    },
    /// A format version this build cannot read.
    UnsupportedVersion(u16),
    /// Payload larger than [`MAX_PAYLOAD`].
    TooLarge(usize),
    /// The payload's CRC-32 does not match the header.
    Checksum {
        /// CRC in the header.
        stored: u32,
        /// CRC of the bytes present.
        computed: u32,
    },
    /// The payload does not decode.
    Malformed(String),
    /// It decodes but breaks a verifier rule.
    Invalid(VerifyError),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::NotABundle => {
                f.write_str("not an animkit bundle (the file does not start with the ANIMB magic bytes)")
            }
            LoadError::Truncated { expected, found } => {
                write!(f, "truncated bundle: expected {expected} bytes, found {found}")
            }
            LoadError::TrailingBytes { expected, found } => {
                write!(f, "corrupted bundle: expected {expected} bytes, found {found}")
            }
            LoadError::UnsupportedVersion(v) => write!(
                f,
                "bundle format version {v} is not supported (this build reads version {FORMAT_VERSION}); recompile the sources with this animc"
            ),
            LoadError::TooLarge(n) => write!(f, "bundle payload of {n} bytes exceeds the limit of {MAX_PAYLOAD} bytes"),
            LoadError::Checksum { stored, computed } => write!(
                f,
                "corrupted bundle: checksum mismatch (header says {stored:#010x}, contents give {computed:#010x})"
            ),
            LoadError::Malformed(m) => write!(f, "malformed bundle: {m}"),
            LoadError::Invalid(e) => write!(f, "invalid bundle: {e}"),
        }
    }
}

impl std::error::Error for LoadError {}

impl From<VerifyError> for LoadError {
    fn from(e: VerifyError) -> LoadError {
        LoadError::Invalid(e)
    }
}

#[derive(Serialize, Deserialize)]
struct BundleBody {
    strings: Vec<String>,
    #[serde(with = "serde_bytes")]
    consts: Vec<u8>,
    modules: Vec<ModuleRec>,
}

#[derive(Serialize, Deserialize)]
struct ModuleRec {
    name: u32,
    language: u8,
    functions: Vec<FunctionRec>,
    states: Vec<StateRec>,
    entry: Option<u32>,
    source: Option<String>,
}

#[derive(Serialize, Deserialize)]
struct FunctionRec {
    name: u32,
    nregs: u8,
    #[serde(with = "serde_bytes")]
    code: Vec<u8>,
    const_start: u32,
    const_len: u32,
    #[serde(with = "serde_bytes")]
    lines: Vec<u8>,
}

#[derive(Serialize, Deserialize)]
struct StateRec {
    name: u32,
    category: u32,
    entry: u32,
}

fn config() -> impl bincode::config::Config {
    bincode::config::standard().with_limit::<MAX_PAYLOAD>()
}

/// Encodes a program as bundle bytes.
///
/// ```
/// use animkit_vm::{codec, program::Program};
/// let bytes = codec::encode(&Program::default());
/// assert_eq!(&bytes[..8], &codec::MAGIC);
/// assert_eq!(codec::decode(&bytes).unwrap(), Program::default());
/// ```
pub fn encode(program: &Program) -> Vec<u8> {
    let mut consts = Vec::new();
    let mut next_const = 0u32;
    let mut has_debug = false;
    let modules = program
        .modules
        .iter()
        .map(|m| {
            has_debug |= m.source.is_some();
            ModuleRec {
                name: m.name,
                language: m.language.to_byte(),
                functions: m
                    .functions
                    .iter()
                    .map(|f| {
                        let start = next_const;
                        for (v, k) in f.consts.iter().zip(&f.kinds) {
                            match k {
                                ConstKind::Num => encode_num(*v, &mut consts),
                                ConstKind::Str => {
                                    consts.push(TAG_STR);
                                    write_leb(&mut consts, *v as u64);
                                }
                            }
                        }
                        next_const += f.consts.len() as u32;
                        has_debug |= !f.lines.is_empty();
                        FunctionRec {
                            name: f.name,
                            nregs: f.nregs,
                            code: f.code.iter().flat_map(|w| w.0.to_le_bytes()).collect(),
                            const_start: start,
                            const_len: f.consts.len() as u32,
                            lines: encode_lines(&f.lines),
                        }
                    })
                    .collect(),
                states: m
                    .states
                    .iter()
                    .map(|s| StateRec { name: s.name, category: s.category, entry: s.entry })
                    .collect(),
                entry: m.entry,
                source: m.source.clone(),
            }
        })
        .collect();
    let body = BundleBody { strings: program.strings.clone(), consts, modules };
    // Encoding into a Vec cannot fail for these plain types; fall back to an
    // empty payload rather than panic if bincode ever says otherwise.
    let payload = bincode::serde::encode_to_vec(&body, config()).unwrap_or_default();
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&(if has_debug { FLAG_DEBUG } else { 0 }).to_le_bytes());
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    let crc = checksum(&out[..16], &payload);
    out.extend_from_slice(&crc.to_le_bytes());
    out.extend_from_slice(&payload);
    out
}

/// The bundle checksum: CRC-32 of the header's first 16 bytes and the
/// payload, so that a flipped bit anywhere in the file is detected.
pub fn checksum(header: &[u8], payload: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(header);
    h.update(payload);
    h.finalize()
}

/// Decodes bundle bytes without verifying them. Use [`load`] for anything
/// that will run.
pub fn decode(bytes: &[u8]) -> Result<Program, LoadError> {
    if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
        return Err(LoadError::NotABundle);
    }
    if bytes.len() < HEADER_LEN {
        return Err(LoadError::Truncated { expected: HEADER_LEN, found: bytes.len() });
    }
    let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
    let u32_at = |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    let version = u16_at(8);
    if version != FORMAT_VERSION {
        return Err(LoadError::UnsupportedVersion(version));
    }
    let flags = u16_at(10);
    if flags & !FLAG_DEBUG != 0 {
        return Err(LoadError::Malformed(format!("unknown header flags {flags:#06x}")));
    }
    let len = u32_at(12) as usize;
    if len > MAX_PAYLOAD {
        return Err(LoadError::TooLarge(len));
    }
    let expected = HEADER_LEN + len;
    if bytes.len() < expected {
        return Err(LoadError::Truncated { expected, found: bytes.len() });
    }
    if bytes.len() > expected {
        return Err(LoadError::TrailingBytes { expected, found: bytes.len() });
    }
    let payload = &bytes[HEADER_LEN..];
    let stored = u32_at(16);
    let computed = checksum(&bytes[..16], payload);
    if stored != computed {
        return Err(LoadError::Checksum { stored, computed });
    }
    let (body, used): (BundleBody, usize) =
        bincode::serde::decode_from_slice(payload, config()).map_err(|e| LoadError::Malformed(describe(e)))?;
    if used != payload.len() {
        return Err(LoadError::Malformed(format!("{} unused bytes after the payload", payload.len() - used)));
    }
    from_body(body)
}

/// A decoding error in words. Lengths and counts are checked against the
/// bytes present (or the size limit) before anything is allocated for them.
fn describe(e: bincode::error::DecodeError) -> String {
    use bincode::error::DecodeError as D;
    match e {
        D::UnexpectedEnd { .. } => {
            "the payload ends in the middle of a field (a length or count claims more than there is)".into()
        }
        D::LimitExceeded => format!("a length in the payload claims more than the limit of {MAX_PAYLOAD} bytes"),
        D::Utf8 { .. } => "a string is not UTF-8".into(),
        other => other.to_string(),
    }
}

/// Decodes and verifies a bundle: the only way untrusted bytes become a
/// runnable [`Program`].
///
/// ```
/// use animkit_vm::codec::{load, LoadError};
/// assert_eq!(load(b"hello"), Err(LoadError::NotABundle));
/// ```
pub fn load(bytes: &[u8]) -> Result<Program, LoadError> {
    let program = decode(bytes)?;
    verify_program(&program)?;
    Ok(program)
}

fn from_body(body: BundleBody) -> Result<Program, LoadError> {
    let consts = decode_consts(&body.consts)?;
    let mut modules = Vec::with_capacity(body.modules.len());
    let mut next_const = 0usize;
    for (mi, m) in body.modules.into_iter().enumerate() {
        let language = Language::from_byte(m.language)
            .ok_or_else(|| LoadError::Malformed(format!("module {mi}: unknown language byte {}", m.language)))?;
        let mut functions = Vec::with_capacity(m.functions.len());
        for (fi, f) in m.functions.into_iter().enumerate() {
            if f.code.len() % 4 != 0 {
                return Err(LoadError::Malformed(format!(
                    "module {mi} function {fi}: code is {} bytes, not a whole number of 4-byte words",
                    f.code.len()
                )));
            }
            let start = f.const_start as usize;
            if start != next_const {
                return Err(LoadError::Malformed(format!(
                    "module {mi} function {fi}: constants start at {start}, not at {next_const} where the previous function's constants end"
                )));
            }
            let end = start.checked_add(f.const_len as usize).filter(|&e| e <= consts.len()).ok_or_else(|| {
                LoadError::Malformed(format!(
                    "module {mi} function {fi}: constants {start}..+{} lie outside the pool of {}",
                    f.const_len,
                    consts.len()
                ))
            })?;
            next_const = end;
            let slice = &consts[start..end];
            functions.push(Function {
                name: f.name,
                nregs: f.nregs,
                code: f.code.chunks_exact(4).map(|c| Insn(u32::from_le_bytes([c[0], c[1], c[2], c[3]]))).collect(),
                consts: slice.iter().map(|c| c.0).collect(),
                kinds: slice.iter().map(|c| c.1).collect(),
                lines: decode_lines(&f.lines)
                    .map_err(|e| LoadError::Malformed(format!("module {mi} function {fi}: debug lines: {e}")))?,
            });
        }
        modules.push(Module {
            name: m.name,
            language,
            functions,
            states: m
                .states
                .into_iter()
                .map(|s| State { name: s.name, category: s.category, entry: s.entry })
                .collect(),
            entry: m.entry,
            source: m.source,
        });
    }
    if next_const != consts.len() {
        return Err(LoadError::Malformed(format!(
            "{} constants of the pool belong to no function",
            consts.len() - next_const
        )));
    }
    Ok(Program { strings: body.strings, modules })
}

const TAG_RAW: u8 = 0x40;
const TAG_STR: u8 = 0x41;
const MAX_EXP: u32 = 22;
const MAX_MANTISSA: u64 = 1 << 53;

/// Exact powers of ten representable as `f64`.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
    1e21, 1e22,
];

/// Appends the compact encoding of `v` (see the module docs).
pub fn encode_num(v: f64, out: &mut Vec<u8>) {
    if let Some((m, e)) = decimal_form(v) {
        out.push(((v.is_sign_negative() as u8) << 5) | e as u8);
        write_leb(out, m);
    } else {
        out.push(TAG_RAW);
        out.extend_from_slice(&v.to_le_bytes());
    }
}

/// `(m, e)` with `|v| == m / 10^e` bit for bit, if such a short form exists.
fn decimal_form(v: f64) -> Option<(u64, u32)> {
    if !v.is_finite() {
        return None;
    }
    let a = v.abs();
    if a.fract() == 0.0 && a < MAX_MANTISSA as f64 {
        return Some((a as u64, 0));
    }
    // Shortest round-trip digits, e.g. "1.25e-1" -> 125 / 10^3.
    let s = format!("{a:e}");
    let (digits, exp) = s.split_once('e')?;
    let exp: i32 = exp.parse().ok()?;
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let e = frac.len() as i32 - exp;
    if !(1..=MAX_EXP as i32).contains(&e) {
        return None;
    }
    let m: u64 = format!("{int}{frac}").parse().ok()?;
    if m >= MAX_MANTISSA || (m as f64 / POW10[e as usize]).to_bits() != a.to_bits() {
        return None;
    }
    Some((m, e as u32))
}

fn decode_consts(bytes: &[u8]) -> Result<Vec<(f64, ConstKind)>, LoadError> {
    let mut out = Vec::with_capacity(bytes.len().min(1 << 20) / 2);
    let mut i = 0;
    let bad = |i: usize, what: &str| LoadError::Malformed(format!("constant pool byte {i}: {what}"));
    while i < bytes.len() {
        let tag = bytes[i];
        i += 1;
        match tag {
            0x00..=0x3f => {
                let e = (tag & 0x1f) as u32;
                if e > MAX_EXP {
                    return Err(bad(i - 1, "decimal exponent above 22"));
                }
                let m = read_leb(bytes, &mut i).ok_or_else(|| bad(i, "truncated number"))?;
                if m >= MAX_MANTISSA {
                    return Err(bad(i, "decimal mantissa of 2^53 or more"));
                }
                let v = m as f64 / POW10[e as usize];
                out.push((if tag & 0x20 != 0 { -v } else { v }, ConstKind::Num));
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

fn encode_lines(lines: &[LineEntry]) -> Vec<u8> {
    let mut out = Vec::new();
    let (mut pc, mut line) = (0u32, 0i64);
    for e in lines {
        // Positions out of order (which the verifier rejects) wrap to a
        // delta the decoder refuses, rather than panic here.
        write_leb(&mut out, e.pc.wrapping_sub(pc) as u64);
        let d = e.line as i64 - line;
        write_leb(&mut out, ((d << 1) ^ (d >> 63)) as u64);
        write_leb(&mut out, e.col as u64);
        pc = e.pc;
        line = e.line as i64;
    }
    out
}

fn decode_lines(bytes: &[u8]) -> Result<Vec<LineEntry>, String> {
    let mut out = Vec::new();
    let (mut i, mut pc, mut line) = (0usize, 0u64, 0i64);
    while i < bytes.len() {
        let dpc = read_leb(bytes, &mut i).ok_or("truncated entry")?;
        let z = read_leb(bytes, &mut i).ok_or("truncated entry")?;
        let col = read_leb(bytes, &mut i).ok_or("truncated entry")?;
        pc = pc.checked_add(dpc).filter(|&p| p <= u32::MAX as u64).ok_or("pc overflow")?;
        line = line.checked_add(((z >> 1) as i64) ^ -((z & 1) as i64)).ok_or("line overflow")?;
        if !(1..=u32::MAX as i64).contains(&line) || col == 0 || col > u32::MAX as u64 {
            return Err("line or column out of range".into());
        }
        out.push(LineEntry { pc: pc as u32, line: line as u32, col: col as u32 });
    }
    Ok(out)
}

fn write_leb(out: &mut Vec<u8>, mut v: u64) {
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

fn read_leb(bytes: &[u8], i: &mut usize) -> Option<u64> {
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
    fn leb_rejects_overlong() {
        let mut i = 0;
        assert_eq!(read_leb(&[0xff; 11], &mut i), None);
        let mut i = 0;
        assert_eq!(read_leb(&[0x80], &mut i), None);
    }

    #[test]
    fn unsorted_lines_encode_and_are_refused() {
        let lines = vec![LineEntry { pc: 4, line: 2, col: 1 }, LineEntry { pc: 1, line: 1, col: 1 }];
        assert_eq!(decode_lines(&encode_lines(&lines)), Err("pc overflow".to_string()));
    }

    #[test]
    fn lines_round_trip() {
        let lines = vec![
            LineEntry { pc: 0, line: 3, col: 1 },
            LineEntry { pc: 4, line: 2, col: 9 },
            LineEntry { pc: 9, line: 700, col: 1 },
        ];
        assert_eq!(decode_lines(&encode_lines(&lines)).unwrap(), lines);
    }
}
