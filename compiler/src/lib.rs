//! `animc`, the animkit ahead-of-time compiler: checks, lowering and
//! diagnostics for each language, and the driver that turns source files
//! into one `.animb` bundle.
//!
//! ```
//! use animkit_compiler::{compile, Source};
//! let src = Source::new("hero.anim", "Walk: 5|step, 5, _loop\n");
//! let program = compile(&[src], &Default::default()).unwrap();
//! assert_eq!(program.modules.len(), 1);
//! ```
//!
//! # Public surface
//! The API is the batch compiler ([`compile`], [`compile_jobs`],
//! [`compile_with_warnings`], [`Options`], [`Source`], [`Compiled`],
//! [`CompileError`]), [`diagnostic`] (a diagnostic and its rendering),
//! [`stream`] (the incremental compiler of Animator streams: one command
//! in, an error, nothing or verified code out), [`import`] (foreign
//! formats turned into source) and [`cli`] (`animc`, runnable
//! in-process). ARCHITECTURE.md lists the same. Every other module is
//! either hidden from the docs (front ends, formatters and file helpers
//! that other crates' tests, benches and fuzz targets still use) or
//! private:
//!
//! ```
//! use animkit_compiler::stream::{Fed, StreamCompiler, StreamLimits, MAX_MACRO_SIZE, MAX_MACRO_STRINGS};
//! use animkit_compiler::diagnostic::{Diagnostic, render};
//! use animkit_compiler::import::aseprite::{AsepriteOptions, convert};
//! use animkit_compiler::{CompileError, Compiled, Options, Source, cli, compile, compile_jobs, compile_with_warnings};
//! ```
//!
//! The bytecode builder, the lowering (with its macro recorder) and the
//! front-end trait are the compiler's own; a stream reaches them only
//! through [`stream::StreamCompiler`]:
//!
//! ```compile_fail,E0603
//! use animkit_compiler::builder::FunctionBuilder;
//! ```
//! ```compile_fail,E0603
//! use animkit_compiler::animator::lower::MacroRecorder;
//! ```
//! ```compile_fail,E0603
//! use animkit_compiler::front::FrontEnd;
//! ```
//! ```compile_fail,E0432
//! use animkit_compiler::animator::incremental::StreamCompiler;
//! ```

// The public API: the batch compiler (the re-exports below), its
// diagnostics, the incremental compiler for Animator streams, the
// importers and `animc` itself. ARCHITECTURE.md lists the same surface.
pub mod cli;
pub mod diagnostic;
pub mod import;
pub mod stream;

// Engine modules other crates' tests, benches and fuzz targets still reach
// into (front ends, formatters, file helpers): public but hidden from the
// docs, and not part of the API.
#[doc(hidden)]
pub mod animator;
#[doc(hidden)]
pub mod driver;
#[doc(hidden)]
pub mod excerpt;
#[doc(hidden)]
pub mod files;
#[doc(hidden)]
pub mod lsp;
#[doc(hidden)]
pub mod slap;
#[doc(hidden)]
pub mod sprite;

// Internal to the compiler.
pub(crate) mod builder;
pub(crate) mod front;
pub(crate) mod hash;
pub(crate) mod interrupt;
pub(crate) mod languages;
pub(crate) mod source;
pub(crate) mod suggest;

pub use driver::{CompileError, Compiled, Options, Source, compile, compile_jobs, compile_with_warnings};
