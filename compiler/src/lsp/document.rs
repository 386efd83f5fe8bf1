//! Open documents: their text, version and language, edits applied in
//! place (incremental sync), and the line index that turns byte offsets
//! into LSP positions (line and UTF-16 code unit, as the protocol counts)
//! and back.

use crate::hash::FxHashMap;
use animkit_vm::engine::program::Language;
use lsp_types::{Position, Range, TextDocumentContentChangeEvent, Uri};
use std::sync::Arc;

/// Line starts of one text, for offset ↔ position conversions.
#[derive(Clone, Debug, Default)]
pub struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    /// Indexes `text`.
    pub fn new(text: &str) -> Lines {
        let mut starts = Vec::with_capacity(text.len() / 32 + 1);
        starts.push(0);
        starts.extend(text.bytes().enumerate().filter(|&(_, b)| b == b'\n').map(|(i, _)| i + 1));
        Lines { starts }
    }

    /// The position of byte `offset` in `text` (clamped to the text, and
    /// down to a character boundary).
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let character = text[start..offset].encode_utf16().count();
        Position { line: line as u32, character: character as u32 }
    }

    /// The range of a byte span.
    pub fn range(&self, text: &str, start: usize, end: usize) -> Range {
        Range { start: self.position(text, start), end: self.position(text, end.max(start)) }
    }

    /// The byte offset of `pos` in `text`; `None` past the last line. A
    /// character past the end of its line means the end of the line, as
    /// the protocol says.
    pub fn offset(&self, text: &str, pos: Position) -> Option<usize> {
        let line = pos.line as usize;
        let start = *self.starts.get(line)?;
        let end = match self.starts.get(line + 1) {
            Some(&next) => next - 1,
            None => text.len(),
        };
        let line_text = &text[start..end];
        let line_text = line_text.strip_suffix('\r').unwrap_or(line_text);
        let mut units = 0u32;
        for (i, c) in line_text.char_indices() {
            if units >= pos.character {
                return Some(start + i);
            }
            units += c.len_utf16() as u32;
        }
        Some(start + line_text.len())
    }
}

/// One open document.
#[derive(Clone, Debug)]
pub struct Document {
    /// The text, shared with checks running on it.
    pub text: Arc<String>,
    /// The client's version.
    pub version: i32,
    /// The language (from the extension or the client's language id).
    pub language: Language,
    /// The line index of `text`.
    pub lines: Lines,
    /// Bumped on every change: a check's result is published only if it
    /// was made on the current generation.
    pub generation: u64,
}

/// Why an edit was refused.
#[derive(Debug, PartialEq, Eq)]
pub struct BadEdit(pub String);

impl Document {
    /// A document opened with `text`.
    pub fn new(text: String, version: i32, language: Language) -> Document {
        let lines = Lines::new(&text);
        Document { text: Arc::new(text), version, language, lines, generation: 0 }
    }

    /// Applies the changes of one `didChange`, in order. All or nothing:
    /// a change with a range outside the text leaves the document as it
    /// was.
    pub fn apply(&mut self, version: i32, changes: Vec<TextDocumentContentChangeEvent>) -> Result<(), BadEdit> {
        let mut text = (*self.text).clone();
        let mut lines = self.lines.clone();
        for (n, change) in changes.into_iter().enumerate() {
            match change.range {
                None => text = change.text,
                Some(r) => {
                    let bad = |what: &str| {
                        BadEdit(format!(
                            "change {n}: {what} (range {}:{}-{}:{}, document has {} lines)",
                            r.start.line,
                            r.start.character,
                            r.end.line,
                            r.end.character,
                            lines.starts.len()
                        ))
                    };
                    let start = lines.offset(&text, r.start).ok_or_else(|| bad("start past the last line"))?;
                    let end = lines.offset(&text, r.end).ok_or_else(|| bad("end past the last line"))?;
                    if end < start {
                        return Err(bad("end before start"));
                    }
                    text.replace_range(start..end, &change.text);
                }
            }
            lines = Lines::new(&text);
        }
        self.text = Arc::new(text);
        self.lines = lines;
        self.version = version;
        self.generation += 1;
        Ok(())
    }
}

/// The open documents by URI, and those refused for their size (see
/// [`super::MAX_DOCUMENT_BYTES`]) with their size.
#[derive(Default)]
pub struct Store {
    docs: FxHashMap<String, Document>,
    refused: FxHashMap<String, usize>,
}

impl Store {
    /// Opens (or reopens) `uri`.
    pub fn open(&mut self, uri: &Uri, doc: Document) -> &Document {
        self.refused.remove(uri.as_str());
        let slot = self.docs.entry(uri.as_str().to_owned()).or_insert_with(|| doc.clone());
        let generation = slot.generation + 1;
        *slot = Document { generation, ..doc };
        slot
    }

    /// The document at `uri`, if open.
    pub fn get(&self, uri: &Uri) -> Option<&Document> {
        self.docs.get(uri.as_str())
    }

    /// The document at `uri`, to change.
    pub fn get_mut(&mut self, uri: &Uri) -> Option<&mut Document> {
        self.docs.get_mut(uri.as_str())
    }

    /// Closes `uri`; false if it was neither open nor refused.
    pub fn close(&mut self, uri: &Uri) -> bool {
        let refused = self.refused.remove(uri.as_str()).is_some();
        self.docs.remove(uri.as_str()).is_some() || refused
    }

    /// Drops the text of `uri`, `bytes` long: too large to serve. Requests
    /// on it are refused until it is opened again.
    pub fn refuse(&mut self, uri: &Uri, bytes: usize) {
        self.docs.remove(uri.as_str());
        self.refused.insert(uri.as_str().to_owned(), bytes);
    }

    /// The size of `uri` if it was refused for it.
    pub fn refused(&self, uri: &Uri) -> Option<usize> {
        self.refused.get(uri.as_str()).copied()
    }
}

/// The language of `uri` from its extension, else from the client's
/// language id (`anim`, `draw`, `slap` or a language name).
pub fn language_of(uri: &Uri, language_id: &str) -> Option<Language> {
    let path = uri.path().as_str();
    let ext = path.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
    Language::from_extension(ext)
        .or_else(|| Language::from_name(language_id))
        .or_else(|| Language::from_extension(language_id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units() {
        let text = "ab\nc😀d\n";
        let lines = Lines::new(text);
        assert_eq!(lines.position(text, 4), Position::new(1, 1));
        assert_eq!(lines.position(text, 8), Position::new(1, 3));
        assert_eq!(lines.offset(text, Position::new(1, 3)), Some(8));
        assert_eq!(lines.offset(text, Position::new(1, 99)), Some(9));
        assert_eq!(lines.offset(text, Position::new(2, 0)), Some(10));
        assert_eq!(lines.offset(text, Position::new(3, 0)), None);
    }

    #[test]
    fn edits_apply_in_order_and_bad_ranges_change_nothing() {
        let mut d = Document::new("Walk: 5\n".into(), 1, Language::Sprite);
        let change = |l0, c0, l1, c1, t: &str| TextDocumentContentChangeEvent {
            range: Some(Range::new(Position::new(l0, c0), Position::new(l1, c1))),
            range_length: None,
            text: t.into(),
        };
        d.apply(2, vec![change(0, 6, 0, 7, "6"), change(1, 0, 1, 0, "Run: 2\n")]).unwrap();
        assert_eq!(d.text.as_str(), "Walk: 6\nRun: 2\n");
        assert!(d.apply(3, vec![change(0, 0, 0, 1, "X"), change(9, 0, 9, 0, "x")]).is_err());
        assert!(d.apply(3, vec![change(0, 3, 0, 1, "")]).is_err());
        assert_eq!((d.text.as_str(), d.version), ("Walk: 6\nRun: 2\n", 2));
    }
}
