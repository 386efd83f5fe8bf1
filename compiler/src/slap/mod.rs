//! The SLAP back half: [`check`](check::check) the AST into
//! [`ir::SceneIr`] (evaluating every define, argument and time), and
//! [`format`](format::format) it for `animc --fmt`. The lowering to
//! bytecode comes on top of the IR.
//!
//! ```
//! let checked = animkit_compiler::slap::front("define red 1 0 0\nactor 1 color red\ntime 10\n").unwrap();
//! assert_eq!(checked.ir.length, 10);
//! assert!(checked.warnings.is_empty());
//! ```

pub mod check;
pub mod format;
pub mod ir;

use crate::diagnostic::Diagnostic;
pub use check::Checked;

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
