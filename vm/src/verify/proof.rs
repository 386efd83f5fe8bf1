//! The verifier's proof types: the only way to hold code the interpreters
//! will run. [`Verified`] wraps what passed the verifier and hands it out
//! read-only; [`VerifiedModule`] is one module of it (or of a
//! [`super::LiveModule`]) with its string table, what every runner takes.
//! Neither can be built outside `vm::verify`, so an unverified [`Program`]
//! cannot reach an interpreter:
//!
//! ```compile_fail,E0308
//! use std::sync::Arc;
//! use animkit_vm::{Program, engine::sprite::Sprites};
//! // A runner takes a verified program, not a `Program`.
//! let _ = Sprites::new(Arc::new(Program::default()), "hero");
//! ```
//!
//! ```compile_fail,E0423
//! use animkit_vm::{Program, engine::verify::Verified};
//! // The proof's field is private to the verifier.
//! let _ = Verified(Program::default());
//! ```
//!
//! ```compile_fail,E0639
//! use animkit_vm::engine::verify::VerifiedModule;
//! let module = animkit_vm::engine::program::Module {
//!     name: 0, language: animkit_vm::engine::program::Language::Animator, functions: vec![],
//!     states: vec![], entry: Some(0), source: None,
//! };
//! let _ = VerifiedModule { module: &module, strings: &[] };
//! ```
//!
//! The one way in is the verifier (or [`crate::codec::load`], which runs it):
//!
//! ```
//! use std::sync::Arc;
//! use animkit_vm::engine::{sprite::Sprites, verify::verify};
//! let program = verify(animkit_vm::engine::sprite::doc_program().as_ref().clone().into_inner())?;
//! assert!(Sprites::new(Arc::new(program), "hero").is_ok());
//! # Ok::<(), animkit_vm::engine::verify::VerifyError>(())
//! ```

use super::ModuleInfo;
use crate::program::{Module, Program};
use std::fmt;
use std::ops::Deref;
use std::sync::atomic::{AtomicU64, Ordering};

/// The next stamp [`fresh_stamp`] hands out.
static NEXT_STAMP: AtomicU64 = AtomicU64::new(1);

/// A stamp no other verified value has had: the identity a fiber is bound
/// to ([`CodeId`]).
pub(super) fn fresh_stamp() -> u64 {
    NEXT_STAMP.fetch_add(1, Ordering::Relaxed)
}

/// The identity of verified code: the stamp of the [`Verified`] program
/// (or of a [`super::LiveModule`]'s current generation) and the module's
/// index. A [`crate::interp::Fiber`] remembers the `CodeId` it was started
/// on, and [`crate::interp::run`] refuses to resume it on other code, so
/// that the interpreter can trust what the verifier proved of the code
/// the fiber's frames point into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CodeId {
    stamp: u64,
    /// A [`super::LiveModule`]'s generation under its one stamp (counted
    /// per module, so that a change costs no atomic operation); 0 for a
    /// [`Verified`] program's modules.
    generation: u64,
    module: usize,
}

/// A value the verifier accepted (a [`Program`]): readable through
/// `Deref`, never mutable, buildable only by [`super::verify`] and
/// [`crate::codec::load`].
///
/// ```
/// use animkit_vm::engine::verify::verify;
/// let program = verify(animkit_vm::engine::sprite::doc_program().as_ref().clone().into_inner()).unwrap();
/// assert_eq!(program.modules.len(), 1); // reads go through to the program
/// let plain: animkit_vm::Program = program.into_inner(); // and it can be given up
/// assert_eq!(plain.modules.len(), 1);
/// ```
///
/// Each verification stamps its value with an identity of its own
/// ([`CodeId`]); a clone keeps it (the code is the same, and never
/// changes). It carries what the verifier learnt of each module too
/// ([`ModuleInfo`], through [`Verified::info`]). Equality and `Debug` look
/// at the value alone.
#[derive(Clone)]
pub struct Verified<T>(T, u64, Box<[ModuleInfo]>);

impl<T: PartialEq> PartialEq for Verified<T> {
    fn eq(&self, other: &Verified<T>) -> bool {
        self.0 == other.0
    }
}

impl<T: fmt::Debug> fmt::Debug for Verified<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Verified").field(&self.0).finish()
    }
}

impl<T> Verified<T> {
    /// Only the verifier vouches for a value.
    pub(super) fn vouch(value: T, info: Vec<ModuleInfo>) -> Verified<T> {
        Verified(value, fresh_stamp(), info.into_boxed_slice())
    }

    /// Gives the proof up, for changes (which need verifying again).
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> Deref for Verified<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> AsRef<T> for Verified<T> {
    fn as_ref(&self) -> &T {
        &self.0
    }
}

impl Verified<Program> {
    /// Module `index` with the program's strings: what a runner takes.
    ///
    /// ```
    /// let program = animkit_vm::engine::sprite::doc_program();
    /// assert!(program.code(0).is_some() && program.code(1).is_none());
    /// ```
    pub fn code(&self, index: usize) -> Option<VerifiedModule<'_>> {
        let module = self.0.modules.get(index)?;
        Some(VerifiedModule {
            module,
            strings: &self.0.strings,
            id: CodeId { stamp: self.1, generation: 0, module: index },
        })
    }

    /// What the verifier learnt of module `index` (its resume points).
    ///
    /// ```
    /// let program = animkit_vm::engine::sprite::doc_program();
    /// assert!(program.info(0).is_some() && program.info(1).is_none());
    /// ```
    pub fn info(&self, index: usize) -> Option<&ModuleInfo> {
        self.2.get(index)
    }

    /// Drops the debug positions and source paths ([`Program::strip`]):
    /// no rule depends on them being there, so the proof stands.
    pub fn strip(&mut self) {
        self.0.strip();
    }
}

/// A verified module and the string table its ids index: the code the
/// register interpreter ([`crate::interp::run`]) runs. It comes from
/// [`Verified::code`] or [`super::LiveModule::code`].
#[derive(Clone, Copy, Debug)]
pub struct VerifiedModule<'a> {
    module: &'a Module,
    strings: &'a [String],
    id: CodeId,
}

impl<'a> VerifiedModule<'a> {
    /// Only the verifier vouches for a module; `stamp` is the identity of
    /// its code, `generation` a [`super::LiveModule`]'s count of changes (0
    /// for a [`Verified`] program).
    pub(super) fn vouch(module: &'a Module, strings: &'a [String], stamp: u64, generation: u64) -> VerifiedModule<'a> {
        VerifiedModule { module, strings, id: CodeId { stamp, generation, module: 0 } }
    }

    /// The identity of this code: equal for two `VerifiedModule`s only
    /// when they are the same module of the same verified program (or the
    /// same generation of a [`super::LiveModule`]).
    pub(crate) fn id(&self) -> CodeId {
        self.id
    }

    /// The module.
    pub fn module(&self) -> &'a Module {
        self.module
    }

    /// The string table.
    pub fn strings(&self) -> &'a [String] {
        self.strings
    }
}
