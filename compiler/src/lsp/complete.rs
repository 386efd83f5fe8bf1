//! Completion by position: sprite state names (and the end behaviours)
//! where a transition may stand, Animator commands at a line's start,
//! macro names and flag words after the commands that take them, SLAP
//! directives, attributes, define names and the twelve actions.

use super::document::Document;
pub use super::site::Site;
pub(crate) use super::site::item;
use crate::languages::front_end;
use lsp_types::CompletionItem;

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
