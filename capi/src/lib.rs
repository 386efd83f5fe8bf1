//! The C ABI of animkit's game API (`animkit_vm::game`): `libanimkit.so`
//! and `libanimkit.a`, declared by `include/animkit.h` (generated from
//! this crate by cbindgen and checked in; `tests/header.rs` keeps the two
//! equal).
//!
//! # The boundary
//! - Every function returns an [`AnimkitStatus`] (0 is success) except
//!   the version queries, [`animkit_last_error`], [`animkit_status_name`]
//!   and the `_free` functions; results go through out-parameters, which
//!   are written only on success.
//! - On a failure the reason is kept per thread: [`animkit_last_error`].
//! - No Rust panic crosses the boundary: every body runs under
//!   `std::panic::catch_unwind`, and a panic is reported as
//!   [`AnimkitStatus::Panic`] (the handle it happened on should then be
//!   freed).
//! - Every pointer is checked: NULL, misaligned, and, for handles, of the
//!   wrong kind (each handle starts with a tag that is checked on every
//!   call and cleared when it is freed) are errors, never a crash. A
//!   pointer to memory that is not what it claims (freed and reused,
//!   shorter than its length) is beyond what can be checked.
//! - Handles are owned by the caller from the `_new`/`_open` call that
//!   returns them until their `_free`; `_free(NULL)` does nothing.
//!   Strings the library returns are owned by the library and live as
//!   long as the handle they came from (each function says).
//!
//! Threads: a handle may be used from any thread, by one thread at a time
//! when the call takes a non-const pointer; calls on const pointers (the
//! queries) may run at the same time on several threads. Different
//! handles are independent, even of one bundle (a bundle's program is
//! shared, read-only, behind an `Arc`). A player (`animkit_player_*`)
//! is the exception: it draws with the game's GL context and belongs to
//! the thread that context is current on.

#![allow(clippy::missing_safety_doc)] // Each function's doc comment says what it needs.

mod bundle;
mod player;
mod reload;
mod scene;
mod sprite;

pub use bundle::*;
pub use player::*;
pub use reload::*;
pub use scene::*;
pub use sprite::*;

use std::cell::RefCell;
use std::ffi::{CStr, CString, c_char};
use std::panic::{self, AssertUnwindSafe};

/// The version of this library, `major * 10000 + minor * 100 + patch`
/// (0.1.0 is 100). A change that breaks the ABI raises the major number
/// (the minor one while it is 0).
pub const ANIMKIT_VERSION: u32 = 100;

/// The bundle format version this library reads (the `.animb` header's
/// version field): bundles of another version are refused with
/// `ANIMKIT_STATUS_NEWER_FORMAT` or `ANIMKIT_STATUS_OLDER_FORMAT`.
pub const ANIMKIT_BUNDLE_FORMAT: u16 = 3;

/// Most events a batch keeps pending (see `animkit_batch_dropped_events`).
pub const ANIMKIT_MAX_PENDING_EVENTS: u32 = 65_536;

/// The first bytes of a snapshot written by [`animkit_batch_snapshot`]
/// (the version of its layout is the last byte).
pub(crate) const ANIMKIT_SNAPSHOT_MAGIC: &[u8; 8] = b"AKBSNAP1";

const _: () = assert!(ANIMKIT_BUNDLE_FORMAT == animkit_vm::game::FORMAT_VERSION);
const _: () = assert!(ANIMKIT_MAX_PENDING_EVENTS as usize == animkit_vm::game::MAX_PENDING_EVENTS);
const _: () = assert!(
    ANIMKIT_VERSION
        == parse_version(env!("CARGO_PKG_VERSION_MAJOR")) * 10000
            + parse_version(env!("CARGO_PKG_VERSION_MINOR")) * 100
            + parse_version(env!("CARGO_PKG_VERSION_PATCH"))
);

const fn parse_version(s: &str) -> u32 {
    let b = s.as_bytes();
    let mut i = 0;
    let mut n = 0;
    while i < b.len() {
        n = n * 10 + (b[i] - b'0') as u32;
        i += 1;
    }
    n
}

/// What a call did: 0 is success, every other value a reason, with a
/// message in [`animkit_last_error`]. Values are never renumbered; new
/// ones are added at the end.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnimkitStatus {
    /// Success.
    Ok = 0,
    /// A pointer argument was NULL.
    NullPointer = 1,
    /// An argument was out of its range: a length past `PTRDIFF_MAX` or
    /// past the end of the address space, a misaligned pointer, a string
    /// that is not UTF-8, a speed of denominator 0.
    InvalidArgument = 2,
    /// A handle of another kind (a scene given as a batch), or one already
    /// freed.
    WrongHandle = 3,
    /// The bytes do not start with the bundle magic bytes.
    NotABundle = 4,
    /// The bundle was written by a newer `animc` than this library reads.
    NewerFormat = 5,
    /// The bundle was written by an older `animc`: recompile it.
    OlderFormat = 6,
    /// The bundle is damaged: cut short, too long, a checksum mismatch.
    Corrupt = 7,
    /// The bundle decodes but breaks a verifier rule (the message names
    /// it).
    Rule = 8,
    /// No module of that name (the message lists the nearest names).
    NoModule = 9,
    /// A module of that name, of another kind (a scene asked for as a
    /// sprite module).
    WrongKind = 10,
    /// No state of that name or number in the module (the message lists
    /// the nearest names).
    UnknownState = 11,
    /// No event of that name in the bundle.
    UnknownEvent = 12,
    /// An instance index past the end of the batch, or an actor index
    /// past the end of the stage.
    OutOfRange = 13,
    /// The caller's buffer is too small; the size needed was written to
    /// the length out-parameter.
    BufferTooSmall = 14,
    /// A snapshot of another module (or another build of it).
    SnapshotWrongModule = 15,
    /// Bytes that are not a snapshot this library wrote, or a damaged one.
    SnapshotInvalid = 16,
    /// A Rust panic was caught at the boundary: a bug in animkit. The
    /// handle should be freed.
    Panic = 17,
    /// The player cannot use the game's GL context: none is current, the
    /// loader does not give a function it needs, the context is older than
    /// OpenGL 3.3 / OpenGL ES 3.0, or GL objects could not be made or
    /// drawn (the message says which).
    Gl = 18,
}

impl AnimkitStatus {
    fn name(self) -> &'static CStr {
        match self {
            AnimkitStatus::Ok => c"ok",
            AnimkitStatus::NullPointer => c"null pointer",
            AnimkitStatus::InvalidArgument => c"invalid argument",
            AnimkitStatus::WrongHandle => c"wrong handle",
            AnimkitStatus::NotABundle => c"not a bundle",
            AnimkitStatus::NewerFormat => c"newer bundle format",
            AnimkitStatus::OlderFormat => c"older bundle format",
            AnimkitStatus::Corrupt => c"corrupt bundle",
            AnimkitStatus::Rule => c"bundle breaks a verifier rule",
            AnimkitStatus::NoModule => c"no such module",
            AnimkitStatus::WrongKind => c"module of another kind",
            AnimkitStatus::UnknownState => c"unknown state",
            AnimkitStatus::UnknownEvent => c"unknown event",
            AnimkitStatus::OutOfRange => c"index out of range",
            AnimkitStatus::BufferTooSmall => c"buffer too small",
            AnimkitStatus::SnapshotWrongModule => c"snapshot of another module",
            AnimkitStatus::SnapshotInvalid => c"invalid snapshot",
            AnimkitStatus::Panic => c"internal error (panic)",
            AnimkitStatus::Gl => c"GL context unusable",
        }
    }
}

/// A failed call: its status and message.
#[derive(Debug)]
pub(crate) struct Failure {
    status: AnimkitStatus,
    message: String,
}

impl Failure {
    pub(crate) fn new(status: AnimkitStatus, message: impl Into<String>) -> Failure {
        Failure { status, message: message.into() }
    }
}

pub(crate) type Outcome = Result<(), Failure>;

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn set_last_error(message: &str) {
    let c = CString::new(message.replace('\0', "\\0")).unwrap_or_default();
    // `try_with`: during thread teardown the slot may be gone; the status
    // code still says what happened.
    let _ = LAST_ERROR.try_with(|e| *e.borrow_mut() = c);
}

/// Runs an extern function's body: a failure's message goes to
/// [`animkit_last_error`], a panic is caught and reported.
pub(crate) fn call(function: &str, body: impl FnOnce() -> Outcome) -> AnimkitStatus {
    match panic::catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => AnimkitStatus::Ok,
        Ok(Err(f)) => {
            set_last_error(&format!("{function}: {}", f.message));
            f.status
        }
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".to_string());
            set_last_error(&format!("{function}: internal error, a Rust panic was caught: {what}"));
            AnimkitStatus::Panic
        }
    }
}

/// Runs a function that returns no status (the `_free` functions): a
/// panic is caught and dropped.
pub(crate) fn call_void(body: impl FnOnce()) {
    let _ = panic::catch_unwind(AssertUnwindSafe(body));
}

/// `p` as a mutable reference to write a result into.
pub(crate) unsafe fn out<'a, T>(p: *mut T, what: &str) -> Result<&'a mut T, Failure> {
    if p.is_null() {
        return Err(Failure::new(AnimkitStatus::NullPointer, format!("`{what}` is NULL")));
    }
    if (p as usize) % std::mem::align_of::<T>() != 0 {
        return Err(Failure::new(AnimkitStatus::InvalidArgument, format!("`{what}` is misaligned")));
    }
    // SAFETY: non-NULL and aligned; the caller promises it points to a T.
    Ok(unsafe { &mut *p })
}

/// Checks a (pointer, length) pair the caller passes: NULL is allowed only
/// with length 0; the length fits in `isize` and the range in the address
/// space.
pub(crate) fn check_range(p: *const u8, len: usize, what: &str) -> Outcome {
    if p.is_null() && len != 0 {
        return Err(Failure::new(AnimkitStatus::NullPointer, format!("`{what}` is NULL with a length of {len}")));
    }
    if len > isize::MAX as usize || (p as usize).checked_add(len).is_none() {
        return Err(Failure::new(
            AnimkitStatus::InvalidArgument,
            format!("the length {len} of `{what}` is past the end of the address space"),
        ));
    }
    Ok(())
}

/// Checks a caller's array of `capacity` values of `T`: NULL only with
/// capacity 0, aligned, its size within the address space.
pub(crate) fn check_array<T>(p: *const T, capacity: usize, what: &str) -> Outcome {
    if p.is_null() && capacity != 0 {
        return Err(Failure::new(
            AnimkitStatus::NullPointer,
            format!("`{what}` is NULL with a capacity of {capacity}"),
        ));
    }
    if (p as usize) % std::mem::align_of::<T>() != 0 {
        return Err(Failure::new(AnimkitStatus::InvalidArgument, format!("`{what}` is misaligned")));
    }
    let size = capacity.checked_mul(std::mem::size_of::<T>());
    if size.is_none_or(|s| s > isize::MAX as usize || (p as usize).checked_add(s).is_none()) {
        return Err(Failure::new(
            AnimkitStatus::InvalidArgument,
            format!("a capacity of {capacity} for `{what}` is past the end of the address space"),
        ));
    }
    Ok(())
}

/// The bytes `p[0..len]` (checked with [`check_range`]).
pub(crate) unsafe fn bytes<'a>(p: *const u8, len: usize, what: &str) -> Result<&'a [u8], Failure> {
    check_range(p, len, what)?;
    if len == 0 {
        return Ok(&[]);
    }
    // SAFETY: checked above; the caller promises `len` readable bytes.
    Ok(unsafe { std::slice::from_raw_parts(p, len) })
}

/// The NUL-terminated UTF-8 string `p`.
pub(crate) unsafe fn string<'a>(p: *const c_char, what: &str) -> Result<&'a str, Failure> {
    if p.is_null() {
        return Err(Failure::new(AnimkitStatus::NullPointer, format!("`{what}` is NULL")));
    }
    // SAFETY: non-NULL; the caller promises a NUL-terminated string.
    let s = unsafe { CStr::from_ptr(p) };
    s.to_str().map_err(|e| {
        Failure::new(AnimkitStatus::InvalidArgument, format!("`{what}` is not UTF-8 (at byte {})", e.valid_up_to()))
    })
}

/// A Rust string as a C one (a NUL inside is cut there: names come from
/// the bundle's string table, which an `animc` source cannot put a NUL in).
pub(crate) fn c_string(s: &str) -> CString {
    let end = s.find('\0').unwrap_or(s.len());
    CString::new(&s[..end]).unwrap_or_default()
}

/// A handle kind: the tag its first field holds while it is alive.
pub(crate) trait Tagged {
    const TAG: u64;
    const NAME: &'static str;
}

/// The tag of a freed handle.
pub(crate) const DEAD: u64 = u64::from_le_bytes(*b"AKfreed!");

/// The handle `p` of kind `T` (its tag checked).
pub(crate) unsafe fn handle<'a, T: Tagged>(p: *const T, what: &str) -> Result<&'a T, Failure> {
    if p.is_null() {
        return Err(Failure::new(AnimkitStatus::NullPointer, format!("`{what}` is NULL")));
    }
    if (p as usize) % std::mem::align_of::<u64>() != 0 {
        return Err(Failure::new(AnimkitStatus::WrongHandle, format!("`{what}` is not {} (misaligned)", T::NAME)));
    }
    // SAFETY: every handle of this library is a #[repr(C)] struct whose
    // first field is a u64 tag, so reading one u64 is in bounds for any of
    // them; the caller promises `p` is one of them.
    let tag = unsafe { *(p as *const u64) };
    if tag != T::TAG {
        let found = match tag {
            DEAD => "a freed handle".to_string(),
            t => match tag_name(t) {
                Some(n) => n.to_string(),
                None => "not a handle of this library".to_string(),
            },
        };
        return Err(Failure::new(AnimkitStatus::WrongHandle, format!("`{what}` is not {}: it is {found}", T::NAME)));
    }
    // SAFETY: the tag says it is a live T.
    Ok(unsafe { &*p })
}

/// [`handle`], mutable.
pub(crate) unsafe fn handle_mut<'a, T: Tagged>(p: *mut T, what: &str) -> Result<&'a mut T, Failure> {
    unsafe { handle(p as *const T, what)? };
    // SAFETY: checked by `handle`; the caller promises no other thread
    // uses it during the call.
    Ok(unsafe { &mut *p })
}

fn tag_name(tag: u64) -> Option<&'static str> {
    [
        (AnimkitBundle::TAG, AnimkitBundle::NAME),
        (AnimkitSprite::TAG, AnimkitSprite::NAME),
        (AnimkitSpriteBatch::TAG, AnimkitSpriteBatch::NAME),
        (AnimkitScene::TAG, AnimkitScene::NAME),
        (AnimkitPlayer::TAG, AnimkitPlayer::NAME),
    ]
    .into_iter()
    .find(|&(t, _)| t == tag)
    .map(|(_, n)| n)
}

/// Frees a handle made by `Box::into_raw`: checks its tag, clears it, and
/// drops it. NULL, a wrong or a freed handle do nothing.
pub(crate) unsafe fn free<T: Tagged>(p: *mut T, set_tag: impl FnOnce(&mut T, u64)) {
    // SAFETY: as `handle_mut`.
    if let Ok(h) = unsafe { handle_mut(p, "handle") } {
        set_tag(h, DEAD);
        // SAFETY: made by Box::into_raw in this library, tag checked.
        drop(unsafe { Box::from_raw(p) });
    }
}

/// Puts a new handle into `*out`.
pub(crate) unsafe fn give<T>(out_ptr: *mut *mut T, value: T, what: &str) -> Outcome {
    let slot = unsafe { out(out_ptr, what)? };
    *slot = Box::into_raw(Box::new(value));
    Ok(())
}

/// The version of the library: `ANIMKIT_VERSION` of the header it was
/// built with (`major * 10000 + minor * 100 + patch`). A program checks it
/// against the header it was compiled with.
#[unsafe(no_mangle)]
pub extern "C" fn animkit_version() -> u32 {
    ANIMKIT_VERSION
}

/// The library's version as text, `"0.1.0"` (static; never freed).
#[unsafe(no_mangle)]
pub extern "C" fn animkit_version_string() -> *const c_char {
    const V: &CStr = match CStr::from_bytes_with_nul(concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes()) {
        Ok(v) => v,
        Err(_) => c"",
    };
    V.as_ptr()
}

/// The bundle format version the library reads (`ANIMKIT_BUNDLE_FORMAT`).
#[unsafe(no_mangle)]
pub extern "C" fn animkit_bundle_format() -> u16 {
    ANIMKIT_BUNDLE_FORMAT
}

/// The message of the last call that failed on this thread, as
/// `"function_name: reason"` (UTF-8, NUL-terminated; `""` before any
/// failure). Owned by the library: valid until the next failing call on
/// the same thread; copy it to keep it. Successful calls leave it as it
/// is.
#[unsafe(no_mangle)]
pub extern "C" fn animkit_last_error() -> *const c_char {
    // The pointer stays valid after the borrow: the CString's buffer is
    // only replaced (and freed) by the next failure on this thread.
    LAST_ERROR.try_with(|e| e.borrow().as_ptr()).unwrap_or(c"".as_ptr())
}

/// A short name of `status` (static; `"unknown status"` for a value this
/// library does not define).
#[unsafe(no_mangle)]
pub extern "C" fn animkit_status_name(status: i32) -> *const c_char {
    use AnimkitStatus::*;
    let all = [
        Ok,
        NullPointer,
        InvalidArgument,
        WrongHandle,
        NotABundle,
        NewerFormat,
        OlderFormat,
        Corrupt,
        Rule,
        NoModule,
        WrongKind,
        UnknownState,
        UnknownEvent,
        OutOfRange,
        BufferTooSmall,
        SnapshotWrongModule,
        SnapshotInvalid,
        Panic,
        Gl,
    ];
    all.into_iter().find(|&s| s as i32 == status).map_or(c"unknown status", |s| s.name()).as_ptr()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_is_a_status_and_a_message() {
        let status = call("animkit_test", || panic!("boom {}", 7));
        assert_eq!(status, AnimkitStatus::Panic);
        // SAFETY: the library's own NUL-terminated string.
        let message = unsafe { CStr::from_ptr(animkit_last_error()) }.to_str().unwrap();
        assert_eq!(message, "animkit_test: internal error, a Rust panic was caught: boom 7");
    }

    #[test]
    fn status_names() {
        // SAFETY: static strings.
        let name = |s: i32| unsafe { CStr::from_ptr(animkit_status_name(s)) }.to_str().unwrap();
        assert_eq!(name(0), "ok");
        assert_eq!(name(17), "internal error (panic)");
        assert_eq!(name(18), "GL context unusable");
        assert_eq!(name(19), "unknown status");
        assert_eq!(name(-1), "unknown status");
    }

    #[test]
    fn version() {
        assert_eq!(animkit_version(), 100);
        // SAFETY: a static string.
        assert_eq!(unsafe { CStr::from_ptr(animkit_version_string()) }.to_str().unwrap(), "0.1.0");
        assert_eq!(animkit_bundle_format(), 3);
    }

    #[test]
    fn ranges() {
        assert!(check_range(std::ptr::null(), 0, "b").is_ok());
        assert_eq!(check_range(std::ptr::null(), 1, "b").unwrap_err().status, AnimkitStatus::NullPointer);
        let p = 16 as *const u8;
        assert_eq!(check_range(p, usize::MAX, "b").unwrap_err().status, AnimkitStatus::InvalidArgument);
        assert_eq!(
            check_range(p, isize::MAX as usize + 1, "b").unwrap_err().message,
            "the length 9223372036854775808 of `b` is past the end of the address space"
        );
    }
}
