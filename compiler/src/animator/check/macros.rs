//! Macro structure: which commands a body may hold, and the errors of a
//! command out of place inside one and of an empty body.

use super::OpenMacro;
use crate::diagnostic::Diagnostic;
use animkit_grammar::animator::ast::{Cmd, Command};
use animkit_grammar::animator::{commands::MACRO_BODY, lexer::Keyword};

/// True if `cmd` may appear in a macro body: its row of the command table
/// (`animkit_grammar::animator::commands`) says so.
///
/// ```
/// use animkit_compiler::animator::check::allowed_in_macro;
/// use animkit_grammar::animator::ast::Cmd;
/// assert!(allowed_in_macro(&Cmd::Push));
/// assert!(!allowed_in_macro(&Cmd::Frame));
/// ```
pub fn allowed_in_macro(cmd: &Cmd) -> bool {
    cmd.command_keyword().in_macro_body()
}

pub(super) fn not_in_macro(open: &OpenMacro, cmd: &Command) -> Diagnostic {
    let d = Diagnostic::error(
        cmd.span,
        format!("`{}` is not allowed inside a macro", cmd.kind.keyword()),
        format!("inside macro `{}`", open.name.text),
    )
    .with_secondary(open.span, "the macro starts here")
    .with_note(format!(
        "macros hold drawing and transformation commands only: {}",
        MACRO_BODY.map(Keyword::as_str).join(" ")
    ));
    if matches!(cmd.kind, Cmd::Macro { .. }) {
        d.with_help(format!("end macro `{}` with `endmacro` before starting another", open.name.text))
    } else {
        d
    }
}

pub(super) fn empty_body(open: Option<&OpenMacro>, end: &Command) -> Diagnostic {
    let (name, span) = open.map_or(("", end.span), |o| (o.name.text.as_str(), o.span));
    Diagnostic::error(span, format!("macro `{name}` has an empty body"), "nothing between here and `endmacro`")
        .with_secondary(end.span, "ends here")
        .with_help("to make sure a macro exists without changing it, use `macro push NAME` followed by `endmacro`")
}
