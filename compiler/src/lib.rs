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

pub mod animator;
pub mod builder;
pub mod cli;
pub mod diagnostic;
pub mod driver;
pub mod excerpt;
pub mod files;
pub mod front;
pub mod hash;
pub mod import;
pub mod interrupt;
pub mod lsp;
pub mod slap;
pub mod sprite;
pub mod suggest;

pub use driver::{CompileError, Compiled, Options, Source, compile, compile_jobs, compile_with_warnings};
