//! Completion by position: sprite state names (and the end behaviours)
//! where a transition may stand, Animator commands at a line's start,
//! macro names and flag words after the commands that take them, SLAP
//! directives, attributes, define names and the twelve actions.

use super::document::Document;
use super::symbols::{self, Kind};
use crate::front::front_end;
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

/// The names of `kind` defined in `doc`, each once, in source order.
pub(crate) fn defined(doc: &Document, kind: Kind) -> Vec<String> {
    // Each name once, in time linear in the names (a hash set, not a
    // search of the list).
    let mut out: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for o in symbols::occurrences(doc.language, &doc.text) {
        if o.kind == kind && o.def && seen.insert(o.name.clone()) {
            out.push(o.name);
        }
    }
    out
}

/// The completions at byte `offset`.
pub fn complete(doc: &Document, offset: usize) -> Vec<CompletionItem> {
    let text = doc.text.as_str();
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let before = text[line_start..offset].split('#').next().unwrap_or("");
    // The words before the one being typed.
    let mut words: Vec<&str> = before.split_whitespace().collect();
    if !before.ends_with(char::is_whitespace) && !words.is_empty() {
        words.pop();
    }
    let site = Site { text, line_start, before, words: &words };
    front_end(doc.language).map_or_else(Vec::new, |f| f.complete(doc, &site))
}
