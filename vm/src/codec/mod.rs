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
//!   a folded SLAP command (loads of the next constants into `R0`, `R1`,
//!   ..., then its register-window op at `R0`) is its op's byte alone too;
//!   a load of the next constant is `LOADK` and the register, `WAIT d` its
//!   byte and `d` in LEB128, register arithmetic its byte and its register
//!   bytes; any other word is `0xff` and the word's 4 bytes (see
//!   `register_code.rs`). The SLAP tokens were invalid bytes before, and
//!   Animator code never has them, so format 3 stayed format 3;
//! - code of sprite modules: *frame groups*, one token byte for the
//!   `SPRITE i; EVENT e*; WAIT d` the lowering emits per frame, with the
//!   sprite predicted as the previous one ± 1 (0 at the start of a state)
//!   and the wait as one of the last two, and jumps back to the state's
//!   start (`_loop`) or its second frame (`_pingpong`) one byte each, so
//!   `Walk: 5, 5, 5, 5, _loop` is 6 bytes of code; other instructions are one
//!   token each, and any word at all can be written raw (see
//!   `sprite_code.rs`);
//! - states: name (as a delta from the id the compiler would have given it,
//!   or as an id), category (usually "the name"), and entries only when they
//!   are not simply the starts of the code's segments in order (see
//!   `states.rs`);
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
//!   or name again; see `consts.rs`);
//! - debug lines of Animator and SLAP code, as a script puts one command on
//!   each line: runs of "next instruction, next line, same column" as one
//!   LEB128 count, "next instruction, n lines down" and "n instructions on,
//!   next line" one LEB128 each, anything else a zigzag pc delta, then a
//!   zigzag column delta on the same line, or a zigzag line delta and a
//!   column (a flag bit tells which; see `lines.rs`);
//! - debug lines of sprite code: two bits per entry saying which predicted
//!   position it is (the next frame's text starts after this one's
//!   `D|I|events, `; a `_pingpong` walks back over the forward frames), the
//!   rest written out as above, or as "the next state's first frame, n lines
//!   down" (see `sprite_lines.rs`).
//!
//! Each section's encoding is a file of this module (`consts.rs`,
//! `register_code.rs`, `lines.rs`, `sprite_code.rs`, `sprite_lines.rs`,
//! `states.rs`, with the LEB128 and zigzag numbers they share in `leb.rs`):
//! plain functions from values to bytes and back, which know nothing of
//! bincode. This file holds the header, the errors, the bincode records and
//! [`encode`], [`decode`] and [`load`].
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
//! are decoded with every claimed length bounded by the bytes left in the
//! payload (itself at most [`MAX_PAYLOAD`]), so that decoding allocates at
//! most a small multiple of the bundle's size, and then verified
//! (`crate::verify`) before anything runs.

mod consts;
mod leb;
mod lines;
mod register_code;
mod sprite_code;
mod sprite_lines;
mod states;
mod words;

pub use consts::encode_num;
pub use words::decode_error_in_words;

use crate::isa::Insn;
use crate::program::{CodeForm, ConstKind, Function, Language, Module, Program};
use crate::verify::{ModuleVerifier, Verified, VerifyError};
use consts::{ConstWriter, decode_consts};
use lines::{decode_lines, encode_lines};
use register_code::{decode_register_code, encode_register_code};
use serde::{Deserialize, Serialize};
use sprite_code::{decode_sprite_code_with, encode_sprite_code};
use sprite_lines::{LineScratch, decode_sprite_lines_with, encode_sprite_lines, widths};
use states::{decode_states_with, encode_states};
use std::borrow::Cow;
use std::fmt;

/// The first eight bytes of every bundle.
pub const MAGIC: [u8; 8] = *b"ANIMB\0\r\n";
/// The format version this build writes and reads.
pub const FORMAT_VERSION: u16 = 3;
/// Header size in bytes.
pub const HEADER_LEN: usize = 20;
/// Largest payload accepted; every length inside it is bounded by the
/// bytes it has left.
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

// The records bincode reads and writes. Every string and byte string in
// them is borrowed from the payload (`&str`, `Cow<[u8]>` through
// serde_bytes) and every list grows as its elements decode
// ([`grown_list`]), so decoding checks each claimed length against the
// bytes left in the payload before it allocates anything for it: the
// records take a small multiple of the payload's size, whatever it claims.
// bincode 2.0.1 would allocate an owned `String` or `Vec<u8>` at its
// claimed length, zeroed, before reading it (it checks a claim against its
// configured limit only), and serde preallocates a list's claimed length
// up to 1 MiB: neither may appear here.

#[derive(Serialize, Deserialize)]
struct BundleBody<'a> {
    #[serde(borrow, deserialize_with = "grown_list")]
    strings: Vec<&'a str>,
    #[serde(borrow, with = "serde_bytes")]
    consts: Cow<'a, [u8]>,
    #[serde(borrow, deserialize_with = "grown_list")]
    modules: Vec<ModuleRec<'a>>,
}

#[derive(Serialize, Deserialize)]
struct ModuleRec<'a> {
    name: u32,
    language: u8,
    #[serde(borrow, deserialize_with = "grown_list")]
    functions: Vec<FunctionRec<'a>>,
    /// The states, packed (see `states.rs`).
    #[serde(borrow, with = "serde_bytes")]
    states: Cow<'a, [u8]>,
    entry: Option<u32>,
    #[serde(borrow)]
    source: Option<SourceRec<'a>>,
}

/// A module's source path: most bundles hold many files of one directory,
/// each named after its module, so the path is usually implied.
#[derive(Serialize, Deserialize)]
enum SourceRec<'a> {
    /// The path as written.
    Path(&'a str),
    /// The previous module's path with its file stem replaced by this
    /// module's name (`dir/a.anim`, then `dir/b.anim` for module `b`).
    LikePrevious,
    /// This directory (with its trailing `/`), the module's name and the
    /// language's extension (`dir/hero.anim` for module `hero`).
    InDir(&'a str),
}

#[derive(Serialize, Deserialize)]
struct FunctionRec<'a> {
    name: u32,
    nregs: u8,
    #[serde(borrow, with = "serde_bytes")]
    code: Cow<'a, [u8]>,
    const_start: u32,
    const_len: u32,
    #[serde(borrow, with = "serde_bytes")]
    lines: Cow<'a, [u8]>,
}

/// Decodes a list that grows as its elements decode, instead of reserving
/// room for the count it claims: every element takes at least one byte of
/// the payload, so the list takes at most a small multiple of the bytes it
/// was decoded from, and a lying count ends in "the payload ends in the
/// middle of a field" as soon as the bytes run out.
fn grown_list<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    struct Grown<T>(std::marker::PhantomData<T>);
    impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for Grown<T> {
        type Value = Vec<T>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a list")
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
            let mut out = Vec::new();
            while let Some(element) = seq.next_element()? {
                out.push(element);
            }
            Ok(out)
        }
    }
    deserializer.deserialize_seq(Grown(std::marker::PhantomData))
}

/// bincode's standard configuration (varint integers), without a size
/// limit: the records above bound every length by the payload, which the
/// header check keeps within [`MAX_PAYLOAD`].
fn config() -> impl bincode::config::Config {
    bincode::config::standard()
}

/// Encodes a program as bundle bytes.
///
/// ```
/// use animkit_vm::engine::{codec, program::Program};
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
                            code: match m.language.code() {
                                CodeForm::Sprite => encode_sprite_code(&f.code),
                                CodeForm::Register => encode_register_code(&f.code, &f.consts),
                            }
                            .into(),
                            const_start: start,
                            const_len: f.consts.len() as u32,
                            lines: match m.language.code() {
                                CodeForm::Sprite => encode_sprite_lines(&f.lines, &f.code, &m.states, &widths),
                                CodeForm::Register => encode_lines(&f.lines, f.code.len()),
                            }
                            .into(),
                        }
                    })
                    .collect(),
                states: encode_states(&m.states, m.name, m.functions.first().map_or(&[][..], |f| &f.code)).into(),
                entry: m.entry,
                source: m.source.as_ref().map(|path| {
                    let implied = prev_source.as_deref().and_then(|p| path_like(p, program.string(m.name)));
                    let name = program.string(m.name);
                    let dir = &path[..path.rfind('/').map_or(0, |i| i + 1)];
                    let rec = if implied.as_deref() == Some(path.as_str()) {
                        SourceRec::LikePrevious
                    } else if *path == path_in(dir, name, m.language) {
                        SourceRec::InDir(dir)
                    } else {
                        SourceRec::Path(path)
                    };
                    prev_source = Some(path.clone());
                    rec
                }),
            }
        })
        .collect();
    let strings = program.strings.iter().map(String::as_str).collect();
    let body = BundleBody { strings, consts: consts.out.into(), modules };
    // Encoding into a Vec cannot fail for these plain types; fall back to an
    // empty payload rather than panic if bincode ever says otherwise.
    let payload = bincode::serde::encode_to_vec(&body, config()).unwrap_or_default();
    wrap(&payload, if has_debug { FLAG_DEBUG } else { 0 })
}

/// A bundle of `payload` with header flags `flags`: magic, version, flags,
/// length and checksum.
fn wrap(payload: &[u8], flags: u16) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&flags.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    let crc = checksum(&out[..16], payload);
    out.extend_from_slice(&crc.to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// Test support (feature `test-support`): a bundle around an arbitrary
/// `payload`, with a correct header (this format's version, no flags) and
/// checksum, for tests that hand the decoder payloads of their own. (Not
/// named `seal`: that is the verifier's, which makes the proof
/// `Verified`.)
///
/// ```
/// # #[cfg(feature = "test-support")] {
/// let bytes = animkit_vm::engine::codec::frame_payload(&[0xfd, 0, 0, 0, 0, 0, 0, 0, 0x10]);
/// assert_eq!(bytes.len(), animkit_vm::engine::codec::HEADER_LEN + 9);
/// // Past the header: a string table claiming 2^60 entries is malformed.
/// assert!(matches!(animkit_vm::engine::codec::load(&bytes), Err(animkit_vm::engine::codec::LoadError::Malformed(_))));
/// # }
/// ```
#[cfg(feature = "test-support")]
pub fn frame_payload(payload: &[u8]) -> Vec<u8> {
    wrap(payload, 0)
}

/// The bundle checksum: CRC-32 of the header's first 16 bytes and the
/// payload, so that a flipped bit anywhere in the file is detected.
pub fn checksum(header: &[u8], payload: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(header);
    h.update(payload);
    h.finalize()
}

/// What [`reseal`] rewrites in a bundle's header.
#[cfg(feature = "test-support")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reseal {
    /// The checksum only (edited payload bytes, length unchanged).
    Checksum,
    /// The payload length (to what follows the header), then the checksum.
    LengthAndChecksum,
}

/// Test support (feature `test-support`): makes edited bundle bytes pass
/// the header's checks again, so that tests and fuzz targets reach the
/// decoder and the verifier behind them. Bytes shorter than a header are
/// left as they are.
///
/// ```
/// # #[cfg(feature = "test-support")] {
/// use animkit_vm::engine::codec::{self, Reseal};
/// let good = codec::encode(&animkit_vm::Program::default());
/// let mut bytes = good.clone();
/// bytes[codec::HEADER_LEN] ^= 1;
/// assert!(matches!(codec::decode(&bytes), Err(codec::LoadError::Checksum { .. })));
/// codec::reseal(&mut bytes, Reseal::Checksum);
/// // Past the header now: the decoder judges the edited payload itself.
/// assert!(!matches!(codec::decode(&bytes), Err(codec::LoadError::Checksum { .. })));
/// # }
/// ```
#[cfg(feature = "test-support")]
pub fn reseal(bytes: &mut [u8], what: Reseal) {
    if bytes.len() < HEADER_LEN {
        return;
    }
    if what == Reseal::LengthAndChecksum {
        let payload = (bytes.len() - HEADER_LEN) as u32;
        bytes[12..16].copy_from_slice(&payload.to_le_bytes());
    }
    let crc = checksum(&bytes[..16], &bytes[HEADER_LEN..]);
    bytes[16..20].copy_from_slice(&crc.to_le_bytes());
}

/// Decodes bundle bytes without verifying them. Use [`load`] for anything
/// that will run.
pub fn decode(bytes: &[u8]) -> Result<Program, LoadError> {
    let (program, _) = from_body(parse(bytes)?, None)?;
    Ok(program)
}

/// The checked header and the bincode records of a bundle.
fn parse(bytes: &[u8]) -> Result<BundleBody<'_>, LoadError> {
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
        bincode::serde::borrow_decode_from_slice(payload, config()).map_err(|e| LoadError::Malformed(describe(e)))?;
    if used != payload.len() {
        return Err(LoadError::Malformed(format!("{} unused bytes after the payload", payload.len() - used)));
    }
    Ok(body)
}

/// A decoding error in words. Lengths and counts are checked against the
/// bytes left in the payload before anything is allocated for them (see the
/// records above), so a lie about a length ends here as `UnexpectedEnd`.
fn describe(e: bincode::error::DecodeError) -> String {
    use bincode::error::DecodeError as D;
    match e {
        D::UnexpectedEnd { .. } => {
            "the payload ends in the middle of a field (a length or count claims more than there is)".into()
        }
        other => decode_error_in_words(&other),
    }
}

/// Decodes and verifies a bundle: the only way untrusted bytes become a
/// runnable [`Program`].
///
/// ```
/// use animkit_vm::engine::codec::{load, LoadError};
/// assert_eq!(load(b"hello"), Err(LoadError::NotABundle));
/// ```
pub fn load(bytes: &[u8]) -> Result<Verified<Program>, LoadError> {
    // Each module is verified as soon as it is decoded, while its code is
    // still in the cache (a program of a few megabytes of bundle is tens of
    // megabytes in memory). The result is the same as decoding everything
    // and then running `verify_program`: a decoding error anywhere comes
    // first, then the first module that breaks a rule.
    let mut verifier = ModuleVerifier::default();
    let (program, invalid) = from_body(parse(bytes)?, Some(&mut verifier))?;
    if let Some(e) = invalid {
        return Err(LoadError::Invalid(e));
    }
    // Every module passed, in order: `from_body` verified each as it came.
    verifier.seal(program).ok_or_else(|| LoadError::Malformed("a module was left unverified".into()))
}

/// The buffers decoding reuses from module to module, so that it allocates
/// for what the program keeps (a few vectors per module and function, one
/// string per string), never per instruction or per table.
#[derive(Default)]
struct DecodeScratch {
    /// Sprite code, decoded here and then copied at its exact length.
    sprite: Vec<Insn>,
    /// The code of the module's functions, in order.
    codes: Vec<Vec<Insn>>,
    /// Segment starts of sprite code (states): function 0's, found while
    /// decoding it.
    segs: Vec<u32>,
    /// Segment starts of a sprite module's other functions (only a
    /// malformed module has any), not needed.
    spare_segs: Vec<u32>,
    /// Tables of the sprite debug positions.
    lines: LineScratch,
}

/// Builds the program from its records; with a verifier, also checks each
/// module once it is built, returning the first broken rule beside the
/// program (decoding goes on, so that a decoding error later still wins).
fn from_body(
    body: BundleBody,
    mut verifier: Option<&mut ModuleVerifier>,
) -> Result<(Program, Option<VerifyError>), LoadError> {
    let consts = decode_consts(&body.consts)?;
    let mut modules: Vec<Module> = Vec::with_capacity(body.modules.len());
    let mut next_const = 0usize;
    let mut invalid = None;
    // The last module with a source path, which an implied path follows.
    let mut prev_source: Option<usize> = None;
    let mut sc = DecodeScratch::default();
    // The one copy of the strings: they were borrowed from the payload.
    let strings: Vec<String> = body.strings.iter().map(|s| s.to_string()).collect();
    let widths = widths(&strings);
    for (mi, m) in body.modules.into_iter().enumerate() {
        let language = Language::from_byte(m.language)
            .ok_or_else(|| LoadError::Malformed(format!("module {mi}: unknown language byte {}", m.language)))?;
        // Code first: the states and the debug positions are coded against
        // it; register code is coded against its constants.
        let codes = &mut sc.codes;
        codes.clear();
        let mut segs_known = false;
        for (fi, f) in m.functions.iter().enumerate() {
            let slice = const_range(&consts, f, mi, fi)?;
            codes.push(match language.code() {
                CodeForm::Sprite => {
                    // The segment starts of function 0 are what the states
                    // are coded against; later functions' go to a spare.
                    let segs = if fi == 0 { &mut sc.segs } else { &mut sc.spare_segs };
                    decode_sprite_code_with(&f.code, &mut sc.sprite, segs)
                        .map_err(|e| LoadError::Malformed(format!("module {mi} function {fi}: code: {e}")))?;
                    segs_known |= fi == 0;
                    sc.sprite.as_slice().to_vec()
                }
                CodeForm::Register => decode_register_code(&f.code, slice)
                    .map_err(|e| LoadError::Malformed(format!("module {mi} function {fi}: code: {e}")))?,
            });
        }
        let states =
            decode_states_with(&m.states, m.name, codes.first().map_or(&[][..], |c| c), &mut sc.segs, segs_known)
                .map_err(|e| LoadError::Malformed(format!("module {mi}: states: {e}")))?;
        let mut functions = Vec::with_capacity(m.functions.len());
        for (fi, (f, code)) in m.functions.into_iter().zip(codes.drain(..)).enumerate() {
            let start = f.const_start as usize;
            if start != next_const {
                return Err(LoadError::Malformed(format!(
                    "module {mi} function {fi}: constants start at {start}, not at {next_const} where the previous function's constants end"
                )));
            }
            let slice = const_range(&consts, &f, mi, fi)?;
            next_const = start + slice.len();
            let lines = match language.code() {
                CodeForm::Sprite => decode_sprite_lines_with(&f.lines, &code, &states, &widths, &mut sc.lines),
                CodeForm::Register => decode_lines(&f.lines, code.len()),
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
            Some(SourceRec::Path(p)) => Some(p.to_string()),
            Some(SourceRec::InDir(dir)) => {
                Some(path_in(dir, strings.get(m.name as usize).map(String::as_str).unwrap_or(""), language))
            }
            Some(SourceRec::LikePrevious) => {
                let name = strings.get(m.name as usize).map(String::as_str).unwrap_or("");
                let prev_source = prev_source.and_then(|k: usize| modules.get(k)?.source.as_deref());
                let path = prev_source.and_then(|p| path_like(p, name)).ok_or_else(|| {
                    LoadError::Malformed(format!("module {mi}: source path implied, but no previous path to follow"))
                })?;
                Some(path)
            }
        };
        if source.is_some() {
            prev_source = Some(mi);
        }
        let module = Module { name: m.name, language, functions, states, entry: m.entry, source };
        if let (Some(v), None) = (verifier.as_deref_mut(), &invalid) {
            invalid = v.verify(&strings, mi, &module).err();
        }
        modules.push(module);
    }
    if next_const != consts.len() {
        return Err(LoadError::Malformed(format!(
            "{} constants of the pool belong to no function",
            consts.len() - next_const
        )));
    }
    Ok((Program { strings, modules }, invalid))
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

/// The path of a module named `name` in the directory `dir` (with its
/// trailing `/`) with its language's extension: what [`SourceRec::InDir`]
/// stands for.
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

#[cfg(test)]
mod tests {
    use super::consts::decode_consts;
    use super::lines::decode_lines;
    use super::register_code::decode_register_code;
    use super::sprite_code::decode_sprite_code;
    use super::sprite_lines::decode_sprite_lines;
    use super::states::decode_states;
    use crate::isa::{Insn, Op};
    use crate::program::{ConstKind, State};

    proptest::proptest! {
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
}
