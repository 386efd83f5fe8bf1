//! Whole-document formatting: `animc --fmt`'s output as one edit.

use super::document::Document;
use super::server::Failure;
use crate::languages::front_end;
use crate::source::Source;
use lsp_types::{Position, Range, TextEdit};

/// The edits that make `doc` what `animc --fmt` prints: none when it is
/// already formatted; an error naming the first syntax error when it
/// cannot be formatted.
pub fn format(doc: &Document) -> Result<Vec<TextEdit>, Failure> {
    let internal = |m: String| (lsp_server::ErrorCode::InternalError as i32, m);
    let front = front_end(doc.language).ok_or_else(|| internal(format!("no front end for {}", doc.language)))?;
    let source = Source { path: String::new(), text: doc.text.to_string(), language: Some(doc.language) };
    match front.format(&source) {
        Ok(text) if text == *doc.text => Ok(Vec::new()),
        Ok(text) => {
            let end = doc.lines.position(&doc.text, doc.text.len());
            Ok(vec![TextEdit { range: Range { start: Position::new(0, 0), end }, new_text: text }])
        }
        Err(diagnostics) => {
            let first = diagnostics.first().map_or_else(String::new, |d| {
                let p = doc.lines.position(&doc.text, d.span.start);
                format!(": {}:{}: {}", p.line + 1, p.character + 1, d.message)
            });
            Err((
                lsp_server::ErrorCode::RequestFailed as i32,
                format!(
                    "cannot format: {} syntax error{}{first}",
                    diagnostics.len(),
                    if diagnostics.len() == 1 { "" } else { "s" }
                ),
            ))
        }
    }
}
