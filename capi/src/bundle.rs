//! Bundles: open from memory, list modules.

use crate::{AnimkitStatus, Failure, Tagged, bytes as read_bytes, c_string, call, call_void, free, give, handle, out};
use animkit_vm::engine::program::Language;
use animkit_vm::game::{Bundle, FindError, ModuleKind, OpenError};
use std::ffi::{CString, c_char};

/// A verified bundle (opaque). Made by [`animkit_bundle_open`], freed by
/// [`animkit_bundle_free`]. The sprite modules, batches and scenes made
/// from it share its program and stay valid after it is freed.
#[repr(C)]
pub struct AnimkitBundle {
    tag: u64,
    pub(crate) bundle: Bundle,
    names: Vec<CString>,
}

impl Tagged for AnimkitBundle {
    const TAG: u64 = u64::from_le_bytes(*b"AKbundle");
    const NAME: &'static str = "an AnimkitBundle";
}

/// What a module of a bundle is.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnimkitModuleKind {
    /// A sprite state machine (`.anim`): [`animkit_bundle_sprite`].
    Sprite = 0,
    /// An Animator drawing (`.draw`): played by animvm, not by this library.
    Drawing = 1,
    /// A SLAP scene (`.slap`): [`animkit_bundle_scene`].
    Scene = 2,
}

/// The C value of each language's kind, in the language table's order
/// (`vm/src/program.rs`; [`ModuleKind`] is one kind a language, in that
/// order): the one place the C ABI names a language. A language added to
/// the table without its row here, or a row out of order, does not compile.
const KINDS: [AnimkitModuleKind; Language::ALL.len()] =
    [AnimkitModuleKind::Sprite, AnimkitModuleKind::Drawing, AnimkitModuleKind::Scene];

const _: () = {
    let mut i = 0;
    while i < KINDS.len() {
        assert!(KINDS[i] as usize == i && Language::ALL[i].module_kind() as usize == i);
        i += 1;
    }
};

impl AnimkitModuleKind {
    /// The C value of `kind`.
    pub(crate) const fn of(kind: ModuleKind) -> AnimkitModuleKind {
        KINDS[kind as usize]
    }
}

pub(crate) fn open_failure(e: OpenError) -> Failure {
    let status = match &e {
        OpenError::Io { .. } => AnimkitStatus::InvalidArgument,
        OpenError::NotABundle => AnimkitStatus::NotABundle,
        OpenError::NewerFormat { .. } => AnimkitStatus::NewerFormat,
        OpenError::OlderFormat { .. } => AnimkitStatus::OlderFormat,
        OpenError::Corrupt(_) => AnimkitStatus::Corrupt,
        OpenError::Rule { .. } => AnimkitStatus::Rule,
    };
    Failure::new(status, e.to_string())
}

pub(crate) fn find_failure(e: FindError) -> Failure {
    let status = match &e {
        FindError::NoModule { .. } => AnimkitStatus::NoModule,
        FindError::WrongKind { .. } => AnimkitStatus::WrongKind,
    };
    Failure::new(status, e.to_string())
}

/// Reads and verifies the bundle `bytes[0..len]` (an `.animb` file's
/// contents) into a new bundle in `*out_bundle`.
///
/// Ownership: the bytes are read during the call only (the caller keeps
/// them and may free them on return); the bundle is the caller's, to free
/// with [`animkit_bundle_free`]. `*out_bundle` is written only on success.
///
/// Errors: `ANIMKIT_STATUS_NULL_POINTER` (`bytes` NULL with `len` > 0, or
/// `out_bundle` NULL), `ANIMKIT_STATUS_INVALID_ARGUMENT` (a length past the
/// address space), `ANIMKIT_STATUS_NOT_A_BUNDLE`, `ANIMKIT_STATUS_NEWER_FORMAT`,
/// `ANIMKIT_STATUS_OLDER_FORMAT`, `ANIMKIT_STATUS_CORRUPT`, `ANIMKIT_STATUS_RULE`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_bundle_open(
    bytes: *const u8,
    len: usize,
    out_bundle: *mut *mut AnimkitBundle,
) -> AnimkitStatus {
    call("animkit_bundle_open", || {
        unsafe { out(out_bundle, "out_bundle")? };
        let data = unsafe { read_bytes(bytes, len, "bytes")? };
        let bundle = Bundle::from_bytes(data).map_err(open_failure)?;
        let names = (0..bundle.module_count()).filter_map(|i| bundle.module(i)).map(|(n, _)| c_string(n)).collect();
        unsafe { give(out_bundle, AnimkitBundle { tag: AnimkitBundle::TAG, bundle, names }, "out_bundle") }
    })
}

/// Frees a bundle (NULL, or a handle that is not a live bundle: nothing
/// happens). Modules, batches and scenes made from it stay valid.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_bundle_free(bundle: *mut AnimkitBundle) {
    call_void(|| unsafe { free(bundle, |b, t| b.tag = t) })
}

/// The number of modules of `bundle` into `*out_count`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_bundle_module_count(
    bundle: *const AnimkitBundle,
    out_count: *mut usize,
) -> AnimkitStatus {
    call("animkit_bundle_module_count", || {
        let b = unsafe { handle(bundle, "bundle")? };
        *unsafe { out(out_count, "out_count")? } = b.bundle.module_count();
        Ok(())
    })
}

/// The name and kind of module `index` (from 0) of `bundle`. The name is
/// NUL-terminated UTF-8 owned by the bundle, valid until it is freed.
/// Either out-parameter may be NULL when not wanted.
///
/// Errors: `ANIMKIT_STATUS_OUT_OF_RANGE` for an index past the last module.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn animkit_bundle_module(
    bundle: *const AnimkitBundle,
    index: usize,
    out_name: *mut *const c_char,
    out_kind: *mut AnimkitModuleKind,
) -> AnimkitStatus {
    call("animkit_bundle_module", || {
        let b = unsafe { handle(bundle, "bundle")? };
        let (_, kind) = b.bundle.module(index).ok_or_else(|| {
            Failure::new(
                AnimkitStatus::OutOfRange,
                format!("module {index} is past the bundle's {} modules", b.bundle.module_count()),
            )
        })?;
        let kind = AnimkitModuleKind::of(kind);
        if !out_name.is_null() {
            *unsafe { out(out_name, "out_name")? } = b.names.get(index).map_or(c"".as_ptr(), |n| n.as_ptr());
        }
        if !out_kind.is_null() {
            *unsafe { out(out_kind, "out_kind")? } = kind;
        }
        Ok(())
    })
}
