//! The `.animb` bundle container: the one place that knows the bytes.
//!
//! ```text
//! offset  size  field
//! 0       8     magic  b"ANIMB\0\r\n"
//! 8       2     format version, u16 LE (currently 3)
//! 10      2     flags, u16 LE (bit 0: debug info present)
//! 12      4     payload length in bytes, u32 LE
//! 16      4     CRC-32 (IEEE) of bytes 0..16 followed by the payload, u32 LE
//! 20      ...   payload: `BundleBody` encoded by bincode 2 (standard config,
//!               varint integers) through serde
//! ```
//!
//! Bulk data inside the payload are byte strings with their own compact
//! layouts, so that the bundle is small and loads fast:
//! - code of Animator and SLAP modules: one byte per instruction when its
//!   operands are implied: the opcode alone for an op without operands, and
//!   for an op with a constant block (`K` format) whose block starts where
//!   the previous block ended (as the compiler lays blocks out: in code
//!   order, tiling the function's constants; a block's length follows from
//!   the op's signature and, for point lists, the count in the block);
//!   any other word is `0xff` and the word's 4 bytes (see
//!   `encode_register_code`);
//! - code of sprite modules: *frame groups*, one token byte for the
//!   `SPRITE i; EVENT e*; WAIT d` the lowering emits per frame, with the
//!   sprite predicted as the previous one ± 1 (0 at the start of a state)
//!   and the wait as one of the last two, and jumps back to the state's
//!   start (`_loop`) or its second frame (`_pingpong`) one byte each, so
//!   `Walk: 5, 5, 5, 5, _loop` is 6 bytes of code; other instructions are one
//!   token each, and any word at all can be written raw (see
//!   `encode_sprite_code`);
//! - states: name (as a delta from the id the compiler would have given it,
//!   or as an id), category (usually "the name"), and entries only when they
//!   are not simply the starts of the code's segments in order (see
//!   `encode_states`);
//! - a module's source path may be implied: "the previous module's
//!   directory and extension, with this module's name", or "this directory,
//!   the module's name and the language's extension";
//! - constants: one tagged entry each: tag `0b00s_eeeee` = a decimal
//!   `±m / 10^e` (sign `s`, `e <= 22`, then `m < 2^53` as LEB128; decoding
//!   is one exact division, so it is bit-identical to parsing the decimal
//!   text), tag `0x40` = a raw little-endian `f64`, tag `0x41` = a string id
//!   as LEB128, tag `0x42` = `n / 255` with `n` in the next byte (colours
//!   given by name or `#rrggbb`), tag `0x43` = the constant two places back
//!   plus a decimal (the far corner of `rect x y w h`), tags `0x60..=0x7f`
//!   = a copy of the constant 1 to 32 places back (the same colour, corner
//!   or name again);
//! - debug lines of Animator and SLAP code, as a script puts one command on
//!   each line: runs of "next instruction, next line, same column" as one
//!   LEB128 count, "next instruction, n lines down" and "n instructions on,
//!   next line" one LEB128 each, anything else a zigzag pc delta, then a
//!   zigzag column delta on the same line, or a zigzag line delta and a
//!   column (a flag bit tells which; see `encode_lines`);
//! - debug lines of sprite code: two bits per entry saying which predicted
//!   position it is (the next frame's text starts after this one's
//!   `D|I|events, `; a `_pingpong` walks back over the forward frames), the
//!   rest written out as above, or as "the next state's first frame, n lines
//!   down" (see `encode_sprite_lines`).
//!
//! Version 1 stored code as plain words, states as triples and debug lines
//! as `(pc delta, line delta, column)`; version 2 stored Animator code as
//! plain words and no colour, copy or sum constants. Neither is read any
//! more (recompile).
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

use crate::isa::{Insn, MAX_AX, MAX_SJ, MIN_SJ, Op};
use crate::program::{ConstKind, Function, Language, LineEntry, Module, Program, State};
use crate::verify::{VerifyError, verify_program};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The first eight bytes of every bundle.
pub const MAGIC: [u8; 8] = *b"ANIMB\0\r\n";
/// The format version this build writes and reads.
pub const FORMAT_VERSION: u16 = 3;
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
    /// The states, packed (see [`encode_states`]).
    #[serde(with = "serde_bytes")]
    states: Vec<u8>,
    entry: Option<u32>,
    source: Option<SourceRec>,
}

/// A module's source path: most bundles hold many files of one directory,
/// each named after its module, so the path is usually implied.
#[derive(Serialize, Deserialize)]
enum SourceRec {
    /// The path as written.
    Path(String),
    /// The previous module's path with its file stem replaced by this
    /// module's name (`dir/a.anim`, then `dir/b.anim` for module `b`).
    LikePrevious,
    /// This directory (with its trailing `/`), the module's name and the
    /// language's extension (`dir/hero.anim` for module `hero`).
    InDir(String),
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
    let mut consts = ConstWriter::default();
    let mut next_const = 0u32;
    let mut has_debug = false;
    let mut prev_source: Option<String> = None;
    let widths = widths(&program.strings);
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
                            consts.push(*v, *k);
                        }
                        next_const += f.consts.len() as u32;
                        has_debug |= !f.lines.is_empty();
                        FunctionRec {
                            name: f.name,
                            nregs: f.nregs,
                            code: match m.language {
                                Language::Sprite => encode_sprite_code(&f.code),
                                _ => encode_register_code(&f.code, &f.consts),
                            },
                            const_start: start,
                            const_len: f.consts.len() as u32,
                            lines: match m.language {
                                Language::Sprite => encode_sprite_lines(&f.lines, &f.code, &m.states, &widths),
                                _ => encode_lines(&f.lines, f.code.len()),
                            },
                        }
                    })
                    .collect(),
                states: encode_states(&m.states, m.name, m.functions.first().map_or(&[][..], |f| &f.code)),
                entry: m.entry,
                source: m.source.as_ref().map(|path| {
                    let implied = prev_source.as_deref().and_then(|p| path_like(p, program.string(m.name)));
                    let name = program.string(m.name);
                    let dir = &path[..path.rfind('/').map_or(0, |i| i + 1)];
                    let rec = if implied.as_deref() == Some(path.as_str()) {
                        SourceRec::LikePrevious
                    } else if *path == path_in(dir, name, m.language) {
                        SourceRec::InDir(dir.to_string())
                    } else {
                        SourceRec::Path(path.clone())
                    };
                    prev_source = Some(path.clone());
                    rec
                }),
            }
        })
        .collect();
    let body = BundleBody { strings: program.strings.clone(), consts: consts.out, modules };
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
    let mut prev_source: Option<String> = None;
    let mut scratch = Vec::new();
    let widths = widths(&body.strings);
    for (mi, m) in body.modules.into_iter().enumerate() {
        let language = Language::from_byte(m.language)
            .ok_or_else(|| LoadError::Malformed(format!("module {mi}: unknown language byte {}", m.language)))?;
        // Code first: the states and the debug positions are coded against
        // it; register code is coded against its constants.
        let mut codes: Vec<Vec<Insn>> = Vec::with_capacity(m.functions.len());
        for (fi, f) in m.functions.iter().enumerate() {
            let slice = const_range(&consts, f, mi, fi)?;
            codes.push(match language {
                Language::Sprite => {
                    decode_sprite_code(&f.code, &mut scratch)
                        .map_err(|e| LoadError::Malformed(format!("module {mi} function {fi}: code: {e}")))?;
                    scratch.as_slice().to_vec()
                }
                _ => decode_register_code(&f.code, slice)
                    .map_err(|e| LoadError::Malformed(format!("module {mi} function {fi}: code: {e}")))?,
            });
        }
        let states = decode_states(&m.states, m.name, codes.first().map_or(&[][..], |c| c))
            .map_err(|e| LoadError::Malformed(format!("module {mi}: states: {e}")))?;
        let mut functions = Vec::with_capacity(m.functions.len());
        for (fi, (f, code)) in m.functions.into_iter().zip(codes).enumerate() {
            let start = f.const_start as usize;
            if start != next_const {
                return Err(LoadError::Malformed(format!(
                    "module {mi} function {fi}: constants start at {start}, not at {next_const} where the previous function's constants end"
                )));
            }
            let slice = const_range(&consts, &f, mi, fi)?;
            next_const = start + slice.len();
            let lines = match language {
                Language::Sprite => decode_sprite_lines(&f.lines, &code, &states, &widths),
                _ => decode_lines(&f.lines, code.len()),
            }
            .map_err(|e| LoadError::Malformed(format!("module {mi} function {fi}: debug lines: {e}")))?;
            functions.push(Function {
                name: f.name,
                nregs: f.nregs,
                code,
                consts: slice.iter().map(|c| c.0).collect(),
                kinds: slice.iter().map(|c| c.1).collect(),
                lines,
            });
        }
        let source = match m.source {
            None => None,
            Some(SourceRec::Path(p)) => Some(p),
            Some(SourceRec::InDir(dir)) => {
                Some(path_in(&dir, body.strings.get(m.name as usize).map(String::as_str).unwrap_or(""), language))
            }
            Some(SourceRec::LikePrevious) => {
                let name = body.strings.get(m.name as usize).map(String::as_str).unwrap_or("");
                let path = prev_source.as_deref().and_then(|p| path_like(p, name)).ok_or_else(|| {
                    LoadError::Malformed(format!("module {mi}: source path implied, but no previous path to follow"))
                })?;
                Some(path)
            }
        };
        if let Some(p) = &source {
            prev_source = Some(p.clone());
        }
        modules.push(Module { name: m.name, language, functions, states, entry: m.entry, source });
    }
    if next_const != consts.len() {
        return Err(LoadError::Malformed(format!(
            "{} constants of the pool belong to no function",
            consts.len() - next_const
        )));
    }
    Ok(Program { strings: body.strings, modules })
}

/// The constants of function `fi` of module `mi`.
fn const_range<'c>(
    consts: &'c [(f64, ConstKind)],
    f: &FunctionRec,
    mi: usize,
    fi: usize,
) -> Result<&'c [(f64, ConstKind)], LoadError> {
    let start = f.const_start as usize;
    let end = start.checked_add(f.const_len as usize).filter(|&e| e <= consts.len()).ok_or_else(|| {
        LoadError::Malformed(format!(
            "module {mi} function {fi}: constants {start}..+{} lie outside the pool of {}",
            f.const_len,
            consts.len()
        ))
    })?;
    Ok(&consts[start..end])
}

const TAG_RAW: u8 = 0x40;
const TAG_STR: u8 = 0x41;
const TAG_255: u8 = 0x42;
const TAG_SUM2: u8 = 0x43;
/// `TAG_COPY + k`: the constant `k + 1` places back, `k < COPY_WINDOW`.
const TAG_COPY: u8 = 0x60;
const COPY_WINDOW: usize = 32;

/// Writes the constant pool (see the module docs), remembering the last
/// [`COPY_WINDOW`] constants for copies.
#[derive(Default)]
struct ConstWriter {
    out: Vec<u8>,
    /// The constants so far (bits and kind), newest last.
    recent: Vec<(u64, ConstKind)>,
}

impl ConstWriter {
    fn push(&mut self, v: f64, kind: ConstKind) {
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

fn decode_consts(bytes: &[u8]) -> Result<Vec<(f64, ConstKind)>, LoadError> {
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

/// The escape byte of register code: a raw instruction word follows.
const RAW_WORD: u8 = 0xff;

/// The length of the constant block op `op` reads at `at` of the `count`
/// constants `value(i)`, if it lies inside them and its point count (if
/// any) is a whole number.
fn block_len(op: Op, count: usize, value: impl Fn(usize) -> f64, at: usize) -> Option<usize> {
    let mut len = 0usize;
    for arg in op.info().block {
        len += match arg {
            crate::isa::Arg::Points => {
                if at + len >= count {
                    return None;
                }
                let n = value(at + len);
                if !(n >= 0.0 && n.fract() == 0.0 && n <= (count / 2) as f64) {
                    return None;
                }
                1 + 2 * n as usize
            }
            _ => 1,
        };
    }
    (at + len <= count).then_some(len)
}

/// Register code (Animator, SLAP): see the module docs.
fn encode_register_code(code: &[Insn], consts: &[f64]) -> Vec<u8> {
    let mut out = Vec::with_capacity(code.len() + 8);
    let mut cursor = 0usize;
    for &w in code {
        if let Some(op) = w.op().filter(|&op| op as u8 != RAW_WORD) {
            match op.info().format {
                crate::isa::Format::K if w.ax_field() as usize == cursor => {
                    if let Some(len) = block_len(op, consts.len(), |i| consts[i], cursor) {
                        out.push(op as u8);
                        cursor += len;
                        continue;
                    }
                }
                crate::isa::Format::None if w.0 == op as u32 => {
                    out.push(op as u8);
                    continue;
                }
                _ => {}
            }
        }
        out.push(RAW_WORD);
        out.extend_from_slice(&w.0.to_le_bytes());
    }
    out
}

/// Reads what [`encode_register_code`] wrote.
fn decode_register_code(bytes: &[u8], consts: &[(f64, ConstKind)]) -> Result<Vec<Insn>, String> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut cursor = 0usize;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        i += 1;
        if b == RAW_WORD {
            let w = bytes.get(i..i + 4).ok_or("truncated instruction word")?;
            out.push(Insn(u32::from_le_bytes([w[0], w[1], w[2], w[3]])));
            i += 4;
            continue;
        }
        let op = Op::from_u8(b).ok_or_else(|| format!("byte {}: unknown opcode {b:#04x}", i - 1))?;
        match op.info().format {
            crate::isa::Format::None => out.push(Insn(op as u32)),
            crate::isa::Format::K => {
                let len = block_len(op, consts.len(), |i| consts[i].0, cursor)
                    .ok_or_else(|| format!("byte {}: {op}'s constant block does not fit", i - 1))?;
                if cursor > MAX_AX as usize {
                    return Err(format!("byte {}: constant index above {MAX_AX}", i - 1));
                }
                out.push(Insn::ax(op, cursor as u32));
                cursor += len;
            }
            _ => return Err(format!("byte {}: {op} needs its operands written out", i - 1)),
        }
    }
    Ok(out)
}

fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag(z: u64) -> i64 {
    ((z >> 1) as i64) ^ -((z & 1) as i64)
}

/// Debug positions: per entry the pc delta (zigzag), then either
/// `zigzag(column delta) << 1` on the same line, or `zigzag(line delta) << 1
/// | 1` followed by the column: two bytes for a frame on the line of the
/// previous one.
/// Debug lines of register code of `code_len` instructions (see the module
/// docs). Only entries inside the code are written as runs or steps, so a
/// few bytes never stand for more entries than the code has instructions.
fn encode_lines(lines: &[LineEntry], code_len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(lines.len() / 4 + 4);
    let mut prev = (0i64, 0i64, 0i64);
    let mut run = 0u64;
    for e in lines {
        let (pc, line, col) = (e.pc as i64, e.line as i64, e.col as i64);
        let (dpc, dline) = (pc - prev.0, line - prev.1);
        let inside = (e.pc as usize) < code_len;
        if inside && col == prev.2 && dpc == 1 && dline == 1 {
            run += 1;
        } else {
            if run > 0 {
                write_leb(&mut out, (run - 1) << 2);
                run = 0;
            }
            if inside && col == prev.2 && dpc == 1 && dline >= 2 {
                write_leb(&mut out, ((dline - 2) as u64) << 2 | LINES_DOWN);
            } else if inside && col == prev.2 && dline == 1 && dpc >= 2 {
                write_leb(&mut out, ((dpc - 2) as u64) << 2 | LINES_PC_ON);
            } else {
                out.push(LINES_EXPLICIT as u8);
                write_pos(&mut out, e, prev);
            }
        }
        prev = (pc, line, col);
    }
    if run > 0 {
        write_leb(&mut out, (run - 1) << 2);
    }
    out
}

/// Debug line tokens of register code (the low two bits of a LEB128; `00`
/// is a run of next-instruction, next-line entries).
const LINES_DOWN: u64 = 0b01;
const LINES_PC_ON: u64 = 0b10;
const LINES_EXPLICIT: u64 = 0b11;

/// Reads what [`encode_lines`] wrote for code of `code_len` instructions.
fn decode_lines(bytes: &[u8], code_len: usize) -> Result<Vec<LineEntry>, String> {
    let mut out = Vec::with_capacity(bytes.len() + 1);
    let (mut i, mut prev) = (0usize, (0i64, 0i64, 0i64));
    while i < bytes.len() {
        let v = read_leb(bytes, &mut i).ok_or("truncated entry")?;
        let (pc, line, col) = prev;
        let (n, dpc, dline) = match v & 3 {
            0 => ((v >> 2).checked_add(1).ok_or("run too long")?, 1, 1),
            LINES_DOWN => (1, 1, (v >> 2) as i64 + 2),
            LINES_PC_ON => (1, (v >> 2) as i64 + 2, 1),
            _ => {
                if v != LINES_EXPLICIT {
                    return Err("bad entry token".into());
                }
                let e = read_pos(bytes, &mut i, prev)?;
                prev = (e.pc as i64, e.line as i64, e.col as i64);
                out.push(e);
                continue;
            }
        };
        // Steps stay inside the code, so `n` is bounded by its length.
        if n.saturating_mul(dpc as u64).saturating_add(pc as u64) >= code_len as u64 {
            return Err("positions past the end of the code".into());
        }
        let (mut pc, mut line) = (pc, line);
        for _ in 0..n {
            pc += dpc;
            line = line.checked_add(dline).filter(|l| (0..=u32::MAX as i64).contains(l)).ok_or("line out of range")?;
            if !(1..=u32::MAX as i64).contains(&col) || line < 1 {
                return Err("line or column out of range".into());
            }
            out.push(LineEntry { pc: pc as u32, line: line as u32, col: col as u32 });
        }
        prev = (pc, line, col);
    }
    Ok(out)
}

/// Writes one debug position relative to the previous one, as
/// [`encode_lines`] does.
fn write_pos(out: &mut Vec<u8>, e: &LineEntry, prev: (i64, i64, i64)) {
    write_leb(out, zigzag(e.pc as i64 - prev.0));
    write_line_col(out, e, prev);
}

fn write_line_col(out: &mut Vec<u8>, e: &LineEntry, prev: (i64, i64, i64)) {
    let (_, line, col) = prev;
    if e.line as i64 == line {
        write_leb(out, zigzag(e.col as i64 - col) << 1);
    } else {
        write_leb(out, (zigzag(e.line as i64 - line) << 1) | 1);
        write_leb(out, e.col as u64);
    }
}

/// A written-out sprite debug position: like [`write_pos`], with the pc
/// delta shifted over a set flag bit (a clear bit is a state start).
fn write_escape(out: &mut Vec<u8>, e: &LineEntry, prev: (i64, i64, i64)) {
    write_leb(out, (zigzag(e.pc as i64 - prev.0) << 1) | 1);
    write_line_col(out, e, prev);
}

/// Reads what [`write_pos`] wrote.
fn read_pos(bytes: &[u8], i: &mut usize, prev: (i64, i64, i64)) -> Result<LineEntry, String> {
    let dpc = read_leb(bytes, i).ok_or("truncated entry")?;
    read_line_col(bytes, i, prev, dpc)
}

/// Reads what [`write_escape`] wrote.
fn read_escape(bytes: &[u8], i: &mut usize, prev: (i64, i64, i64)) -> Result<LineEntry, String> {
    let v = read_leb(bytes, i).ok_or("truncated entry")?;
    read_line_col(bytes, i, prev, v >> 1)
}

/// The rest of a position after its zigzag pc delta `dpc`.
fn read_line_col(bytes: &[u8], i: &mut usize, prev: (i64, i64, i64), dpc: u64) -> Result<LineEntry, String> {
    let (pc, mut line, mut col) = prev;
    let pos = read_leb(bytes, i).ok_or("truncated entry")?;
    let pc = pc.checked_add(unzigzag(dpc)).filter(|p| (0..=u32::MAX as i64).contains(p)).ok_or("pc out of range")?;
    if pos & 1 == 0 {
        col = col.checked_add(unzigzag(pos >> 1)).ok_or("column overflow")?;
    } else {
        line = line.checked_add(unzigzag(pos >> 1)).ok_or("line overflow")?;
        col = read_leb(bytes, i).ok_or("truncated entry")?.min(u32::MAX as u64 + 1) as i64;
    }
    let range = 1..=u32::MAX as i64;
    if !range.contains(&line) || !range.contains(&col) {
        return Err("line or column out of range".into());
    }
    Ok(LineEntry { pc: pc as u32, line: line as u32, col: col as u32 })
}

/// Where the first frame of the state after `prev`'s group would be:
/// `Name[Category]: ` then the frame, on `prev`'s line (to be moved down).
fn state_start(
    prev: &LineEntry,
    code: &[Insn],
    by_entry: &[(u32, usize)],
    states: &[State],
    widths: &[u32],
) -> Option<LineEntry> {
    let pc = u32::try_from(next_group(code, prev.pc as usize)).ok()?;
    let k = by_entry.partition_point(|&(e, _)| e < pc);
    let st = by_entry.get(k).filter(|&&(e, _)| e == pc).and_then(|&(_, i)| states.get(i))?;
    let chars = |id: u32| widths.get(id as usize).copied().unwrap_or(0);
    let mut col = (1 + chars(st.name)).saturating_add(2);
    if st.category != st.name {
        col = col.saturating_add(2 + chars(st.category));
    }
    Some(LineEntry { pc, line: prev.line, col })
}

/// Most events the predictors look at in one frame group: a hostile bundle
/// of one huge group and many tokens pointing into it stays linear.
const GROUP_EVENTS: usize = 64;

/// `(entry, state index)` sorted: the first state entering at a pc is
/// found by binary search (a hostile bundle may have a million states).
fn states_by_entry(states: &[State]) -> Vec<(u32, usize)> {
    let mut v: Vec<(u32, usize)> = states.iter().enumerate().map(|(i, s)| (s.entry, i)).collect();
    v.sort_unstable();
    v
}

/// The pc after the frame group (`SPRITE? EVENT* WAIT?`) at `pc`, or after
/// the one instruction there when it starts no group.
fn next_group(code: &[Insn], pc: usize) -> usize {
    let n = code.len();
    let mut q = pc;
    if q < n && is_op(code[q], Op::Sprite) {
        q += 1;
    }
    let events_end = q.saturating_add(GROUP_EVENTS);
    while q < n && q < events_end && is_op(code[q], Op::Event) {
        q += 1;
    }
    if q < n && is_op(code[q], Op::Wait) {
        q += 1;
    }
    if q == pc { pc + 1 } else { q }
}

/// How far back [`predict_pos`] looks for the frame a `_pingpong` revisits.
const MIRROR_WINDOW: usize = 256;

fn digits(v: u32) -> u32 {
    v.checked_ilog10().map_or(1, |d| d + 1)
}

/// Where the next debug position of sprite code probably is, given the
/// previous one: the compiler gives every frame the position of its text,
/// so the next frame starts after `D[|I][|event...], ` on the same line
/// (candidates 0 and 1, without and with an explicit sprite index), and the
/// reverse pass of a `_pingpong` revisits the forward frames backwards
/// (candidate 2).
fn predict_pos(prev: &LineEntry, seen: &[(u32, u32)], code: &[Insn], widths: &[u32], which: u8) -> Option<LineEntry> {
    Prediction::new(prev, code, widths)?.candidate(prev, seen, which)
}

/// What [`predict_pos`] works out once per previous entry.
struct Prediction {
    /// Where the next group starts.
    pc: u32,
    /// Columns of `D|events, ` when the group is a frame.
    plain: Option<u32>,
    /// The sprite it sets, if any.
    sprite: Option<u32>,
}

impl Prediction {
    fn new(prev: &LineEntry, code: &[Insn], widths: &[u32]) -> Option<Prediction> {
        let n = code.len();
        let start = prev.pc as usize;
        let mut q = start;
        let mut sprite = None;
        let mut wait = None;
        let mut text = 0u32;
        if q < n && is_op(code[q], Op::Sprite) {
            sprite = Some(code[q].ax_field());
            q += 1;
        }
        let events_end = q.saturating_add(GROUP_EVENTS);
        while q < n && q < events_end && is_op(code[q], Op::Event) {
            text = text.saturating_add(1 + widths.get(code[q].ax_field() as usize).copied().unwrap_or(0));
            q += 1;
        }
        if q < n && is_op(code[q], Op::Wait) {
            wait = Some(code[q].ax_field());
            q += 1;
        }
        let frame = q > start;
        let pc = u32::try_from(if frame { q } else { start + 1 }).ok()?;
        let plain = frame.then(|| text.saturating_add(wait.map_or(1, digits) + 2));
        Some(Prediction { pc, plain, sprite })
    }

    fn candidate(&self, prev: &LineEntry, seen: &[(u32, u32)], which: u8) -> Option<LineEntry> {
        let pc = self.pc;
        let col = match which {
            0 => prev.col.checked_add(self.plain?)?,
            1 => prev.col.checked_add(self.plain?.saturating_add(1 + digits(self.sprite?)))?,
            _ => {
                // Bounded, so that a state of a million frames stays linear.
                let from = seen.len().saturating_sub(MIRROR_WINDOW);
                let k = seen[from..].iter().position(|&p| p == (prev.line, prev.col))? + from;
                if k == from {
                    return None;
                }
                return Some(LineEntry { pc, line: seen[k - 1].0, col: seen[k - 1].1 });
            }
        };
        Some(LineEntry { pc, line: prev.line, col })
    }
}

/// Columns taken by each string (names are written in the source as they
/// are stored), for [`predict_pos`] and [`state_start`].
fn widths(strings: &[String]) -> Vec<u32> {
    strings.iter().map(|s| if s.is_ascii() { s.len() as u32 } else { s.chars().count() as u32 }).collect()
}

/// Debug positions of sprite code: the entry count, then two bits per
/// entry (which [`predict_pos`] candidate it is, or 3: written out), four
/// to a byte, then the written-out entries as [`write_pos`] writes them.
/// A state's frames on one line cost two bits each.
fn encode_sprite_lines(lines: &[LineEntry], code: &[Insn], states: &[State], strings: &[u32]) -> Vec<u8> {
    if lines.is_empty() {
        return Vec::new();
    }
    let entries = entry_pcs(states);
    let by_entry = states_by_entry(states);
    let mut out = Vec::with_capacity(2 + lines.len() / 2);
    write_leb(&mut out, lines.len() as u64);
    let at = out.len();
    out.resize(at + lines.len().div_ceil(4), 0);
    let mut seen: Vec<(u32, u32)> = Vec::new();
    let mut prev: Option<LineEntry> = None;
    for (k, e) in lines.iter().enumerate() {
        let c = prev
            .as_ref()
            .and_then(|p| {
                let pr = Prediction::new(p, code, strings)?;
                (0..3u8).find(|&w| pr.candidate(p, &seen, w).as_ref() == Some(e))
            })
            .unwrap_or(3);
        out[at + k / 4] |= c << (2 * (k % 4));
        if c == 3 {
            match prev.as_ref().and_then(|p| state_start(p, code, &by_entry, states, strings)) {
                // The first frame of the next state, some lines down.
                Some(g) if (g.pc, g.col) == (e.pc, e.col) && e.line >= g.line => {
                    write_leb(&mut out, ((e.line - g.line) as u64) << 1);
                }
                _ => {
                    let p = prev.map_or((0, 0, 0), |p| (p.pc as i64, p.line as i64, p.col as i64));
                    write_escape(&mut out, e, p);
                }
            }
        }
        if entries.binary_search(&e.pc).is_ok() {
            seen.clear();
        }
        seen.push((e.line, e.col));
        prev = Some(*e);
    }
    out
}

fn decode_sprite_lines(
    bytes: &[u8],
    code: &[Insn],
    states: &[State],
    strings: &[u32],
) -> Result<Vec<LineEntry>, String> {
    if bytes.is_empty() {
        return Ok(Vec::new());
    }
    let entries = entry_pcs(states);
    let by_entry = states_by_entry(states);
    let mut i = 0;
    let n = read_leb(bytes, &mut i).ok_or("truncated count")?;
    if n.div_ceil(4) > (bytes.len() - i) as u64 {
        return Err(format!("{n} entries cannot fit in {} bytes", bytes.len()));
    }
    let n = n as usize;
    let codes = &bytes[i..i + n.div_ceil(4)];
    i += codes.len();
    let mut out: Vec<LineEntry> = Vec::with_capacity(n);
    let mut seen: Vec<(u32, u32)> = Vec::new();
    for k in 0..n {
        let c = (codes[k / 4] >> (2 * (k % 4))) & 3;
        let e = match (c, out.last()) {
            (3, prev) => {
                let mut j = i;
                let v = read_leb(bytes, &mut j).ok_or("truncated entry")?;
                if v & 1 == 0 {
                    i = j;
                    let g = prev
                        .and_then(|p| state_start(p, code, &by_entry, states, strings))
                        .ok_or_else(|| format!("entry {k}: no state starts there"))?;
                    let line =
                        u32::try_from(v >> 1).ok().and_then(|d| g.line.checked_add(d)).ok_or("line out of range")?;
                    LineEntry { line, ..g }
                } else {
                    let p = prev.map_or((0, 0, 0), |p| (p.pc as i64, p.line as i64, p.col as i64));
                    read_escape(bytes, &mut i, p)?
                }
            }
            (c, Some(prev)) => predict_pos(prev, &seen, code, strings, c)
                .ok_or_else(|| format!("entry {k}: predicted position {c} does not exist"))?,
            (_, None) => return Err("the first entry is predicted".into()),
        };
        if entries.binary_search(&e.pc).is_ok() {
            seen.clear();
        }
        seen.push((e.line, e.col));
        out.push(e);
    }
    if i != bytes.len() {
        return Err(format!("{} bytes after the last entry", bytes.len() - i));
    }
    Ok(out)
}

/// States: count, then per state its name, its category (0 when it is the
/// name, else id + 1) and its entry as a zigzag delta from the previous
/// state's entry.
fn leb_len(v: u64) -> usize {
    (64 - v.leading_zeros() as usize).div_ceil(7).max(1)
}

/// The name id the compiler gives the state after `prev` (state names are
/// interned in order, after the module's name, each then its category).
fn predicted_name(prev: Option<&State>, module_name: u32) -> i64 {
    prev.map_or(module_name as i64, |p| p.name.max(p.category) as i64) + 1
}

/// States: `count << 1 | canonical`, then per state `payload << 2 |
/// absolute << 1 | same`: the name as an id (`absolute`) or as a zigzag
/// delta from [`predicted_name`], `same` when the category is the name
/// (else the category id follows), and, unless `canonical` (the states
/// enter at the starts of the code's segments in order, as the compiler
/// lays them out), the entry as a zigzag delta from the previous state's.
fn encode_states(states: &[State], module_name: u32, code: &[Insn]) -> Vec<u8> {
    let segs = segment_starts(code);
    let canonical = segs.len() == states.len() && states.iter().zip(&segs).all(|(s, &e)| s.entry == e);
    let mut out = Vec::with_capacity(1 + states.len() * 2);
    write_leb(&mut out, ((states.len() as u64) << 1) | canonical as u64);
    let mut entry = 0i64;
    let mut prev: Option<&State> = None;
    for s in states {
        let delta = zigzag(s.name as i64 - predicted_name(prev, module_name));
        let same = (s.category == s.name) as u64;
        if leb_len((s.name as u64) << 2) < leb_len(delta << 2) {
            write_leb(&mut out, ((s.name as u64) << 2) | 2 | same);
        } else {
            write_leb(&mut out, (delta << 2) | same);
        }
        if same == 0 {
            write_leb(&mut out, s.category as u64);
        }
        if !canonical {
            write_leb(&mut out, zigzag(s.entry as i64 - entry));
        }
        entry = s.entry as i64;
        prev = Some(s);
    }
    out
}

fn decode_states(bytes: &[u8], module_name: u32, code: &[Insn]) -> Result<Vec<State>, String> {
    let mut i = 0;
    let head = read_leb(bytes, &mut i).ok_or("truncated count")?;
    let (n, canonical) = (head >> 1, head & 1 == 1);
    if n > bytes.len() as u64 {
        return Err(format!("{n} states cannot fit in {} bytes", bytes.len()));
    }
    let segs = if canonical { segment_starts(code) } else { Vec::new() };
    if canonical && segs.len() as u64 != n {
        return Err(format!("{n} states, but the code has {} segments", segs.len()));
    }
    let mut out: Vec<State> = Vec::with_capacity(n as usize);
    let mut entry = 0i64;
    let u32_of = |v: i64| u32::try_from(v).map_err(|_| format!("value {v} out of range"));
    let mut canon = segs.iter();
    for _ in 0..n {
        let v = read_leb(bytes, &mut i).ok_or("truncated state")?;
        let name = if v & 2 != 0 {
            u32_of((v >> 2) as i64)?
        } else {
            let d = unzigzag(v >> 2);
            u32_of(predicted_name(out.last(), module_name).checked_add(d).ok_or("overflow")?)?
        };
        let category = if v & 1 != 0 {
            name
        } else {
            u32_of(read_leb(bytes, &mut i).ok_or("truncated state")?.min(u64::MAX >> 1) as i64)?
        };
        let e = if let Some(&e) = canon.next() {
            e
        } else {
            entry = entry.checked_add(unzigzag(read_leb(bytes, &mut i).ok_or("truncated state")?)).ok_or("overflow")?;
            u32_of(entry)?
        };
        entry = e as i64;
        out.push(State { name, category, entry: e });
    }
    if i != bytes.len() {
        return Err(format!("{} bytes after the last state", bytes.len() - i));
    }
    Ok(out)
}

/// The path of a module named `name` in the directory of `prev` with its
/// extension: what [`SourceRec::LikePrevious`] stands for.
fn path_in(dir: &str, name: &str, language: Language) -> String {
    format!("{dir}{name}.{}", language.extension())
}

/// The path of a module named `name` in the directory of `prev` with its
/// extension: what [`SourceRec::LikePrevious`] stands for.
fn path_like(prev: &str, name: &str) -> Option<String> {
    let dir_end = prev.rfind('/').map_or(0, |i| i + 1);
    let file = &prev[dir_end..];
    let ext = file.rfind('.').filter(|&i| i > 0).map_or("", |i| &file[i..]);
    let mut path = String::with_capacity(dir_end + name.len() + ext.len());
    path.push_str(&prev[..dir_end]);
    path.push_str(name);
    path.push_str(ext);
    Some(path)
}

// Sprite code tokens. A byte below 0x80 is a *frame group*: an optional
// SPRITE, up to six EVENTs (seven: a count follows) and an optional WAIT, the
// shape the sprite lowering emits for every frame:
//   bits 6-5 sprite: 0 none, 1 previous + 1, 2 previous - 1, 3 operand follows
//   bits 4-3 wait:   0 none, 1 same as the previous WAIT, 2 operand follows,
//                    3 the wait before the previous one (of two that differ)
//   bits 2-0 events: count (7: the count follows), then each string id
// "Previous" sprite restarts at each segment of the code (0 and after each
// JMP, ENTER or HALT: a state, as the compiler lays them out), where
// previous + 1 is 0.
// Operands are LEB128. Other instructions are one token each.
const T_JMP: u8 = 0x80;
const T_ENTER: u8 = 0x81;
const T_HALT: u8 = 0x82;
const T_NOP: u8 = 0x83;
const T_RAW: u8 = 0x84;
/// `JMP` to the current state's entry (`_loop`).
const T_LOOP: u8 = 0x85;
/// `JMP` to the second frame group of the current state (`_pingpong`).
const T_TURN: u8 = 0x86;

fn is_op(w: Insn, op: Op) -> bool {
    w.op_byte() == op as u8
}

/// Entry pcs, sorted, as the code codec's prediction resets.
fn entry_pcs(states: &[State]) -> Vec<u32> {
    let mut v: Vec<u32> = states.iter().map(|s| s.entry).collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// True for the instructions that end a *segment* of sprite code (a state,
/// as the compiler lays them out): the next instruction starts another.
fn ends_segment(w: Insn) -> bool {
    is_op(w, Op::Jmp) || is_op(w, Op::Enter) || is_op(w, Op::Halt)
}

/// Where each segment of `code` starts: 0 and after each [`ends_segment`]
/// that is not the last instruction.
fn segment_starts(code: &[Insn]) -> Vec<u32> {
    let mut v = vec![0];
    v.extend(
        code.iter().enumerate().filter(|&(pc, w)| ends_segment(*w) && pc + 1 < code.len()).map(|(pc, _)| pc as u32 + 1),
    );
    v
}

fn encode_sprite_code(code: &[Insn]) -> Vec<u8> {
    let mut out = Vec::with_capacity(code.len());
    let (mut prev_sprite, mut prev_wait, mut older_wait) = (MAX_AX, 0u32, 0u32);
    // Start of the current segment: predictions restart there.
    let mut seg = 0usize;
    let mut p = 0;
    while p < code.len() {
        if p == seg {
            prev_sprite = MAX_AX;
        }
        let w = code[p];
        // A group holds no segment end, so it never runs across a start.
        let inside = |q: usize| q < code.len();
        if is_op(w, Op::Sprite) || is_op(w, Op::Event) || is_op(w, Op::Wait) {
            let mut tag = 0u8;
            let at = out.len();
            out.push(0);
            if is_op(code[p], Op::Sprite) {
                let v = code[p].ax_field();
                if v == (prev_sprite + 1) & MAX_AX {
                    tag |= 1 << 5;
                } else if v == prev_sprite.wrapping_sub(1) & MAX_AX {
                    tag |= 2 << 5;
                } else {
                    tag |= 3 << 5;
                    write_leb(&mut out, v as u64);
                }
                prev_sprite = v;
                p += 1;
            }
            let ev_start = p;
            while inside(p) && is_op(code[p], Op::Event) {
                p += 1;
            }
            let events = &code[ev_start..p];
            let mut ev_bytes = Vec::new();
            if events.len() >= 7 {
                tag |= 7;
                write_leb(&mut ev_bytes, events.len() as u64);
            } else {
                tag |= events.len() as u8;
            }
            for e in events {
                write_leb(&mut ev_bytes, e.ax_field() as u64);
            }
            let mut wait_bytes = Vec::new();
            if inside(p) && is_op(code[p], Op::Wait) {
                let v = code[p].ax_field();
                if v == prev_wait {
                    tag |= 1 << 3;
                } else if v == older_wait {
                    tag |= 3 << 3;
                } else {
                    tag |= 2 << 3;
                    write_leb(&mut wait_bytes, v as u64);
                }
                if v != prev_wait {
                    (older_wait, prev_wait) = (prev_wait, v);
                }
                p += 1;
            }
            out[at] = tag;
            out.extend_from_slice(&ev_bytes);
            out.extend_from_slice(&wait_bytes);
            continue;
        }
        p += 1;
        let target = p as i64 + w.sj_field() as i64;
        let cur = seg;
        if ends_segment(w) {
            seg = p;
        }
        if is_op(w, Op::Jmp) && cur as i64 == target {
            out.push(T_LOOP);
        } else if is_op(w, Op::Jmp) && next_group(&code[..p], cur) as i64 == target {
            out.push(T_TURN);
        } else if is_op(w, Op::Jmp) {
            out.push(T_JMP);
            write_leb(&mut out, zigzag(w.sj_field() as i64));
        } else if is_op(w, Op::Enter) {
            out.push(T_ENTER);
            write_leb(&mut out, w.ax_field() as u64);
        } else if w == Insn(Op::Halt as u32) {
            out.push(T_HALT);
        } else if w == Insn(Op::Nop as u32) {
            out.push(T_NOP);
        } else {
            out.push(T_RAW);
            out.extend_from_slice(&w.0.to_le_bytes());
        }
    }
    out
}

fn decode_sprite_code(bytes: &[u8], out: &mut Vec<Insn>) -> Result<(), String> {
    out.clear();
    let (mut prev_sprite, mut prev_wait, mut older_wait) = (MAX_AX, 0u32, 0u32);
    // Start of the current segment (see `encode_sprite_code`).
    let mut seg = 0usize;
    let mut i = 0;
    let ax = |bytes: &[u8], i: &mut usize| -> Result<u32, String> {
        match read_leb(bytes, i) {
            Some(v) if v <= MAX_AX as u64 => Ok(v as u32),
            Some(v) => Err(format!("operand {v} above 24 bits")),
            None => Err("truncated operand".into()),
        }
    };
    while i < bytes.len() {
        if out.len() == seg {
            prev_sprite = MAX_AX;
        }
        let t = bytes[i];
        i += 1;
        match t {
            0x00..=0x7f => {
                match (t >> 5) & 3 {
                    0 => {}
                    mode => {
                        prev_sprite = match mode {
                            1 => (prev_sprite + 1) & MAX_AX,
                            2 => prev_sprite.wrapping_sub(1) & MAX_AX,
                            _ => ax(bytes, &mut i)?,
                        };
                        out.push(Insn::ax(Op::Sprite, prev_sprite));
                    }
                }
                let n = match t & 7 {
                    7 => read_leb(bytes, &mut i).ok_or("truncated event count")?,
                    n => n as u64,
                };
                if n > (bytes.len() - i) as u64 {
                    return Err(format!("{n} events cannot fit in the bytes left"));
                }
                for _ in 0..n {
                    out.push(Insn::ax(Op::Event, ax(bytes, &mut i)?));
                }
                let wait = match (t >> 3) & 3 {
                    0 => None,
                    1 => Some(prev_wait),
                    2 => Some(ax(bytes, &mut i)?),
                    _ => Some(older_wait),
                };
                if let Some(v) = wait {
                    if v != prev_wait {
                        (older_wait, prev_wait) = (prev_wait, v);
                    }
                    out.push(Insn::ax(Op::Wait, v));
                }
            }
            T_JMP => {
                let z = read_leb(bytes, &mut i).ok_or("truncated jump")?;
                let sj = unzigzag(z);
                if !(MIN_SJ as i64..=MAX_SJ as i64).contains(&sj) {
                    return Err(format!("jump offset {sj} out of range"));
                }
                out.push(Insn::sj(Op::Jmp, sj as i32));
            }
            T_ENTER => out.push(Insn::ax(Op::Enter, ax(bytes, &mut i)?)),
            T_LOOP | T_TURN => {
                let target = if t == T_LOOP { seg } else { next_group(out, seg) };
                out.push(Insn::sj(Op::Jmp, (target as i64 - out.len() as i64 - 1) as i32));
            }
            T_HALT => out.push(Insn(Op::Halt as u32)),
            T_NOP => out.push(Insn(Op::Nop as u32)),
            T_RAW => {
                let raw = bytes.get(i..i + 4).ok_or("truncated raw instruction")?;
                out.push(Insn(u32::from_le_bytes([raw[0], raw[1], raw[2], raw[3]])));
                i += 4;
            }
            t => return Err(format!("unknown code token {t:#04x}")),
        }
        if out.last().is_some_and(|&w| ends_segment(w)) {
            seg = out.len();
        }
    }
    Ok(())
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

    fn arb_insn() -> impl proptest::strategy::Strategy<Value = Insn> {
        use proptest::prelude::*;
        prop_oneof![
            (0u32..6).prop_map(|v| Insn::ax(Op::Sprite, v)),
            any::<u32>().prop_map(|v| Insn::ax(Op::Sprite, v)),
            (0u32..4).prop_map(|v| Insn::ax(Op::Event, v)),
            (0u32..4).prop_map(|v| Insn::ax(Op::Wait, v)),
            any::<u32>().prop_map(|v| Insn::ax(Op::Wait, v)),
            (-9i32..9).prop_map(|v| Insn::sj(Op::Jmp, v)),
            (0u32..3).prop_map(|v| Insn::ax(Op::Enter, v)),
            Just(Insn(Op::Halt as u32)),
            Just(Insn(Op::Nop as u32)),
            any::<u32>().prop_map(Insn),
        ]
    }

    proptest::proptest! {
        #[test]
        fn any_sprite_code_round_trips(
            code in proptest::collection::vec(arb_insn(), 0..60),
            raw_states in proptest::collection::vec((0u32..64, 0u32..300, proptest::prelude::any::<bool>()), 0..5),
        ) {
            let bytes = encode_sprite_code(&code);
            let mut back = Vec::new();
            decode_sprite_code(&bytes, &mut back).unwrap();
            proptest::prop_assert_eq!(&back, &code);
            let states: Vec<State> = raw_states
                .iter()
                .map(|&(e, n, same)| State { name: n, category: if same { n } else { n / 2 }, entry: e })
                .collect();
            // As the compiler lays them out: one state per segment, names in order.
            let canonical: Vec<State> = segment_starts(&code)
                .iter()
                .enumerate()
                .map(|(k, &e)| State { name: 8 + k as u32, category: 8 + k as u32, entry: e })
                .collect();
            for st in [&states, &canonical] {
                for name in [0u32, 7] {
                    let enc = encode_states(st, name, &code);
                    proptest::prop_assert_eq!(&decode_states(&enc, name, &code).unwrap(), st);
                }
            }
        }

        #[test]
        fn any_lines_round_trip(raw in proptest::collection::vec((proptest::prelude::any::<u32>(), 1u32.., 1u32..), 0..20)) {
            let lines: Vec<LineEntry> = raw.iter().map(|&(pc, line, col)| LineEntry { pc, line, col }).collect();
            for code_len in [0, 40, 1 << 20] {
                proptest::prop_assert_eq!(&decode_lines(&encode_lines(&lines, code_len), code_len).unwrap(), &lines);
            }
        }

        #[test]
        fn any_sprite_lines_round_trip(
            code in proptest::collection::vec(arb_insn(), 0..30),
            raw in proptest::collection::vec((0u32..40, 1u32..4, 1u32..30), 0..30),
            entries in proptest::collection::vec(0u32..30, 0..4),
        ) {
            let strings: Vec<String> = ["m", "step", "hit", "x"].iter().map(|s| s.to_string()).collect();
            let strings = widths(&strings);
            let states: Vec<State> = entries.iter().map(|&e| State { name: 0, category: 0, entry: e }).collect();
            let lines: Vec<LineEntry> = raw.iter().map(|&(pc, line, col)| LineEntry { pc, line, col }).collect();
            let bytes = encode_sprite_lines(&lines, &code, &states, &strings);
            proptest::prop_assert_eq!(decode_sprite_lines(&bytes, &code, &states, &strings).unwrap(), lines);
        }

        #[test]
        fn garbage_never_panics(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..64)) {
            let states = [State { name: 0, category: 0, entry: 2 }];
            let _ = decode_sprite_code(&bytes, &mut Vec::new());
            let _ = decode_lines(&bytes, 1000);
            let consts: Vec<(f64, ConstKind)> = (0..8).map(|i| (i as f64, ConstKind::Num)).collect();
            let _ = decode_register_code(&bytes, &consts);
            let _ = decode_consts(&bytes);
            let _ = decode_states(&bytes, 3, &[Insn::ax(Op::Wait, 1), Insn::sj(Op::Jmp, -2)]);
            let code = [Insn::ax(Op::Sprite, 3), Insn::ax(Op::Event, 1), Insn::ax(Op::Wait, 12), Insn::sj(Op::Jmp, -4)];
            let _ = decode_sprite_lines(&bytes, &code, &states, &[1, 2]);
        }
    }

    #[test]
    fn a_frame_is_one_byte() {
        // Walk: 5, 5, 5, 5, _loop
        let mut code = vec![Insn::ax(Op::Sprite, 0), Insn::ax(Op::Wait, 5)];
        for s in 1..4 {
            code.extend([Insn::ax(Op::Sprite, s), Insn::ax(Op::Wait, 5)]);
        }
        code.push(Insn::sj(Op::Jmp, -9));
        let bytes = encode_sprite_code(&code);
        // Frame 0 (explicit wait), three predicted frames, the loop.
        assert_eq!(bytes, [0x30, 5, 0x28, 0x28, 0x28, T_LOOP]);
    }

    #[test]
    fn lines_round_trip() {
        let lines = vec![
            LineEntry { pc: 0, line: 3, col: 1 },
            LineEntry { pc: 4, line: 2, col: 9 },
            LineEntry { pc: 9, line: 700, col: 1 },
        ];
        assert_eq!(decode_lines(&encode_lines(&lines, 10), 10).unwrap(), lines);
    }

    #[test]
    fn script_lines_cost_a_byte_per_run() {
        // One command a line from line 3, a blank line, then an `invoke X Y`
        // of four instructions.
        let mut lines: Vec<LineEntry> = (0..100).map(|k| LineEntry { pc: k, line: 3 + k, col: 1 }).collect();
        lines.push(LineEntry { pc: 100, line: 104, col: 1 });
        lines.push(LineEntry { pc: 104, line: 105, col: 1 });
        lines.push(LineEntry { pc: 105, line: 106, col: 1 });
        let bytes = encode_lines(&lines, 106);
        // The first entry written out (4), the run of 99 (2), two lines
        // down (1), four instructions on (1), a run of one (1).
        assert_eq!(bytes.len(), 4 + 2 + 1 + 1 + 1, "{bytes:?}");
        assert_eq!(decode_lines(&bytes, 106).unwrap(), lines);
        // Runs may not reach past the code.
        assert!(decode_lines(&bytes, 105).is_err());
    }

    #[test]
    fn register_code_is_a_byte_per_instruction() {
        let consts = [0.0, 0.0, 1.0, 1.0, 2.0, 1.0, 2.0, 3.0, 4.0];
        let code = vec![
            Insn::ax(Op::Frame, 0),
            Insn::ax(Op::Line, 0),
            Insn::ax(Op::Lines, 4),
            Insn::ax(Op::Flush, 0),
            Insn::ax(Op::Line, 0),
            Insn::ax(Op::Wait, 3),
            Insn::ax(Op::Halt, 0),
        ];
        let bytes = encode_register_code(&code, &consts);
        assert_eq!(bytes.len(), 5 + 2 * 5, "{bytes:?}");
        let kinded: Vec<(f64, ConstKind)> = consts.iter().map(|&v| (v, ConstKind::Num)).collect();
        assert_eq!(decode_register_code(&bytes, &kinded).unwrap(), code);
        // A block that does not fit is an error, not a panic.
        assert!(decode_register_code(&[Op::Line as u8, Op::Line as u8, Op::Line as u8], &kinded).is_err());
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
