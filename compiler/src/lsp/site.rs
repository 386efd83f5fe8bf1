//! Where a completion is asked for ([`Site`]) and the helpers the front
//! ends' completions share: what the language server hands each front end
//! (`FrontEnd::complete`), kept below both the front ends and the server's
//! lookup by language (`super::complete`), which re-exports it.

use super::occurrence::{Kind, Occurrence};
use lsp_types::{CompletionItem, CompletionItemKind};

/// Where a completion is asked for, as the front ends'
/// `FrontEnd::complete` see it.
pub struct Site<'a> {
    /// The document's text.
    pub text: &'a str,
    /// The byte where the cursor's line starts.
    pub line_start: usize,
    /// The line before the cursor, up to a `#` comment.
    pub before: &'a str,
    /// The words before the one being typed.
    pub words: &'a [&'a str],
}

/// A completion item.
pub(crate) fn item(label: &str, kind: CompletionItemKind, detail: Option<String>) -> CompletionItem {
    CompletionItem { label: label.into(), kind: Some(kind), detail, ..Default::default() }
}

/// The names of `kind` defined in `names` (a document's, from its front
/// end's own `names`), each once, in source order.
pub(crate) fn defined(names: Vec<Occurrence>, kind: Kind) -> Vec<String> {
    // Each name once, in time linear in the names (a hash set, not a
    // search of the list).
    let mut out: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for o in names {
        if o.kind == kind && o.def && seen.insert(o.name.clone()) {
            out.push(o.name);
        }
    }
    out
}
