//! The SLAP back half: [`check`](check::check) the AST into
//! [`ir::SceneIr`] (evaluating every define, argument and time),
//! [`lower`](lower::lower) it to one straight-line function of bytecode,
//! and [`format`](format::format) it for `animc --fmt`; [`Slap`] is its
//! [`FrontEnd`].
//!
//! ```
//! let checked = animkit_compiler::slap::front("define red 1 0 0\nactor 1 color red\ntime 10\n").unwrap();
//! assert_eq!(checked.ir.length, 10);
//! assert!(checked.warnings.is_empty());
//! ```

pub mod check;
pub mod format;
pub mod func;
pub mod ir;
pub mod lower;

use crate::diagnostic::{Diagnostic, LineIndex};
use crate::driver::Source;
use crate::front::{CheckedSource, FrontEnd, Lower, LowerCx};
use animkit_vm::program::{Language, Module};
pub use check::Checked;

/// SLAP's front end: the LALRPOP grammar (with its fast path),
/// [`check::check`], [`lower::lower`] and [`format::format`].
#[derive(Clone, Copy, Debug)]
pub struct Slap;

impl FrontEnd for Slap {
    fn language(&self) -> Language {
        Language::Slap
    }

    fn check(&self, source: &Source) -> Result<CheckedSource, Vec<Diagnostic>> {
        let checked = front(&source.text)?;
        Ok(CheckedSource { ir: Box::new(checked.ir), warnings: checked.warnings })
    }

    fn format(&self, source: &Source) -> Result<String, Vec<Diagnostic>> {
        let (ast, syntax) = animkit_grammar::slap::parse(&source.text);
        if !syntax.is_empty() {
            return Err(syntax.into_iter().map(Diagnostic::from).collect());
        }
        Ok(format::format(&ast, Some(&source.text)))
    }
}

impl Lower for ir::SceneIr {
    fn lower(self: Box<Self>, cx: LowerCx<'_>) -> Module {
        let index = cx.keep_positions().then(|| LineIndex::new(&cx.source.text));
        lower::lower(&self, &cx.module_name(), cx.builder, index.as_ref(), cx.options.fold)
    }
}

/// Parses and checks one SLAP source: the scene and its warnings, or every
/// syntax error, check error and warning, in source order. Lines that
/// failed to parse are left out of the check (what they define is
/// unknown, so their mistakes are not reported twice).
pub fn front(src: &str) -> Result<Checked, Vec<Diagnostic>> {
    front_with(src, &check::SlapLimits::default())
}

/// [`front`] with the given limits.
pub fn front_with(src: &str, limits: &check::SlapLimits) -> Result<Checked, Vec<Diagnostic>> {
    let (ast, syntax) = animkit_grammar::slap::parse(src);
    let checked = check::check_with(&ast, limits);
    if syntax.is_empty() {
        return checked;
    }
    let mut diags: Vec<Diagnostic> = syntax.into_iter().map(Diagnostic::from).collect();
    match checked {
        Ok(c) => diags.extend(c.warnings),
        Err(more) => diags.extend(more),
    }
    diags.sort_by_key(|d| d.span.start);
    Err(diags)
}
