//! Hover: a sprite state's frames and ticks, a macro's definition, a
//! define's values, an actor's first use, an action's name and speed, a
//! command's signature and what it takes.

use super::document::Document;
use super::symbols;
use crate::languages::front_end;
use lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind};

/// The word (letters, digits, `_`) around byte `offset`.
pub fn word_at(text: &str, offset: usize) -> (usize, usize) {
    let b = text.as_bytes();
    let is = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let offset = offset.min(b.len());
    let start = b[..offset].iter().rposition(|&c| !is(c)).map_or(0, |i| i + 1);
    let end = b[offset..].iter().position(|&c| !is(c)).map_or(b.len(), |i| offset + i);
    (start, end)
}

fn markdown(value: String, doc: &Document, span: (usize, usize)) -> Hover {
    Hover {
        contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value }),
        range: Some(doc.lines.range(&doc.text, span.0, span.1)),
    }
}

/// The 1-based line of byte `offset`.
pub(crate) fn line_of(doc: &Document, offset: usize) -> u32 {
    doc.lines.position(&doc.text, offset).line + 1
}

/// The hover at byte `offset`, if there is something to say: a name's
/// (its front end's `FrontEnd::hover_name`), else a word's
/// (`FrontEnd::hover_word`).
pub fn hover(doc: &Document, offset: usize) -> Option<Hover> {
    let front = front_end(doc.language)?;
    let text = doc.text.as_str();
    let all = symbols::occurrences(doc.language, text);
    if let Some(o) = symbols::at(&all, offset) {
        let value = front.hover_name(doc, &all, o, offset)?;
        return Some(markdown(value, doc, (o.span.start, o.span.end)));
    }
    let (start, end) = word_at(text, offset);
    let word = &text[start..end];
    if word.is_empty() {
        return None;
    }
    let value = front.hover_word(word)?;
    Some(markdown(value, doc, (start, end)))
}
