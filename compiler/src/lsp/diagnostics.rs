//! The compiler's diagnostics as LSP diagnostics: the same spans, the same
//! headline, the caret label and the `note:`/`help:` lines below it, the
//! secondary labels as related information, warnings as warnings.

use super::document::Lines;
use crate::diagnostic::{Diagnostic, Severity};
use crate::languages::front_end;
use crate::source::Source;
use animkit_vm::engine::program::Language;
use lsp_types::{DiagnosticRelatedInformation, DiagnosticSeverity, Location, Uri};

/// The most diagnostics published for one document; past them one more,
/// at the first left out, says how many there were (a file of 380 000
/// duplicate states published 150 MB of JSON, issue 41 §5).
pub const MAX_DIAGNOSTICS: usize = 100;

// The front ends keep one more: the closing diagnostic's place is known.
const _: () = assert!(animkit_grammar::kept::MAX_KEPT_ERRORS > MAX_DIAGNOSTICS);

/// Checks `text` as `animc --check` would and converts what it reports:
/// at most [`MAX_DIAGNOSTICS`] of them, then one counting the rest.
pub fn check(uri: &Uri, text: &str, language: Language) -> Vec<lsp_types::Diagnostic> {
    let Some(front) = front_end(language) else { return Vec::new() };
    let path = file_path(uri);
    let source = Source { path: path.clone(), text: text.to_owned(), language: Some(language) };
    let found = match front.check(&source) {
        Ok(checked) => checked.warnings,
        Err(diagnostics) => diagnostics,
    };
    let lines = Lines::new(text);
    let mut out: Vec<lsp_types::Diagnostic> = found
        .iter()
        .take(MAX_DIAGNOSTICS)
        .map(|d| match &d.file {
            None => convert(uri, text, &lines, d),
            Some(other) => in_included(uri, &path, text, &lines, other, d),
        })
        .collect();
    // Those past the first MAX_DIAGNOSTICS, and those the front end counted
    // without keeping them (`Diagnostic::left_out`).
    let total: usize = found.iter().map(|d| 1 + d.left_out).sum();
    let more = total - found.len().min(MAX_DIAGNOSTICS);
    if more > 0 {
        // One more, at the first left out, counting them.
        let at = match found.get(MAX_DIAGNOSTICS).or(found.last()) {
            Some(d) if d.file.is_some() => 0,
            Some(d) if found.len() > MAX_DIAGNOSTICS => d.span.start,
            Some(d) => d.span.end,
            None => 0,
        };
        out.push(lsp_types::Diagnostic {
            range: lines.range(text, at, at),
            severity: Some(DiagnosticSeverity::INFORMATION),
            source: Some("animc".into()),
            message: format!(
                "{more} more diagnostic{} not shown (the first {MAX_DIAGNOSTICS} are; `animc --check` lists them)",
                if more == 1 { "" } else { "s" }
            ),
            ..Default::default()
        });
    }
    out
}

/// The file system path of a `file:` URI, percent-decoded (includes are
/// read relative to it).
fn file_path(uri: &Uri) -> String {
    let raw = uri.path().as_str().as_bytes();
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (raw[i], raw.get(i + 1).copied().and_then(hex), raw.get(i + 2).copied().and_then(hex)) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| uri.path().as_str().to_owned())
}

/// A diagnostic inside a file the document includes: shown on the
/// document's own `include` line that leads to it (the outermost one, named
/// by the checker's last `included from` note), with the place in the
/// included file as related information when that file has a path.
fn in_included(
    uri: &Uri,
    path: &str,
    text: &str,
    lines: &Lines,
    other: &crate::diagnostic::OtherFile,
    d: &Diagnostic,
) -> lsp_types::Diagnostic {
    let marker = format!(", included from {path}:");
    let at = d
        .notes
        .iter()
        .rev()
        .find_map(|n| {
            let (_, rest) = n.split_once(&marker)?;
            let (line, col) = rest.split_once(':')?;
            Some((line.parse::<usize>().ok()?, col.parse::<usize>().ok()?))
        })
        .and_then(|(line, col)| {
            let start = text.split_inclusive('\n').take(line.checked_sub(1)?).map(str::len).sum::<usize>();
            let line_text = text[start..].split('\n').next().unwrap_or("");
            let from = line_text.char_indices().nth(col.saturating_sub(1)).map_or(line_text.len(), |(k, _)| k);
            Some((start + from, start + line_text.trim_end().len().max(from)))
        })
        .unwrap_or((0, 0));
    let mut out = convert(uri, text, lines, &Diagnostic { file: None, secondary: Vec::new(), ..d.clone() });
    out.range = lines.range(text, at.0, at.1);
    if other.path.starts_with('/')
        && let Ok(target) = format!("file://{}", other.path).parse::<Uri>()
    {
        let their = Lines::new(&other.text);
        let mut related = vec![DiagnosticRelatedInformation {
            location: Location { uri: target.clone(), range: their.range(&other.text, d.span.start, d.span.end) },
            message: d.label.to_string(),
        }];
        related.extend(d.secondary.iter().map(|(span, label)| DiagnosticRelatedInformation {
            location: Location { uri: target.clone(), range: their.range(&other.text, span.start, span.end) },
            message: label.clone(),
        }));
        out.related_information = Some(related);
    }
    out
}

/// One diagnostic, positioned in `text`.
pub fn convert(uri: &Uri, text: &str, lines: &Lines, d: &Diagnostic) -> lsp_types::Diagnostic {
    let mut message = d.message.clone();
    if !d.label.is_empty() {
        message.push('\n');
        message.push_str(&d.label);
    }
    for note in &d.notes {
        message.push('\n');
        message.push_str(note);
    }
    let related: Vec<DiagnosticRelatedInformation> = d
        .secondary
        .iter()
        .map(|(span, label)| DiagnosticRelatedInformation {
            location: Location { uri: uri.clone(), range: lines.range(text, span.start, span.end) },
            message: label.clone(),
        })
        .collect();
    lsp_types::Diagnostic {
        range: lines.range(text, d.span.start, d.span.end),
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        source: Some("animc".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..Default::default()
    }
}
