//! Front ends of the animkit languages: one lexer (logos), one grammar
//! (LALRPOP, or a streaming reader where the language needs one) and one AST
//! per language, and nothing else. Checks, lowering and diagnostics live in
//! `animkit-compiler`.
//!
//! | module | language | files |
//! | --- | --- | --- |
//! | [`sprite`] | Sprite Animator DSL | `.anim` |
//! | [`animator`] | Animator drawing commands | `.draw` |
//! | [`slap`] | SLAP scenes | `.slap` |
//!
//! Every AST node carries a [`Span`]: byte offsets into the source text, as
//! logos produces them, which `codespan-reporting` turns into `file:line:col`.
//!
//! ```
//! let (file, errors) = animkit_grammar::sprite::parse("Walk: 5, 5, _loop\n");
//! assert!(errors.is_empty());
//! assert_eq!(file.states[0].name.text, "Walk");
//! ```

pub mod animator;
pub mod kept;
pub mod slap;
pub mod span;
pub mod sprite;
mod unknown;

/// The Animator command table (the crate `animkit-commands`, data only,
/// which the VM reads too); see [`animator::commands`].
pub use animkit_commands::animator_commands;
pub use span::{Span, SyntaxError};
