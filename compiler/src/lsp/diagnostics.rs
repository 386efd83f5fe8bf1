//! The compiler's diagnostics as LSP diagnostics: the same spans, the same
//! headline, the caret label and the `note:`/`help:` lines below it, the
//! secondary labels as related information, warnings as warnings.

use super::document::Lines;
use crate::diagnostic::{Diagnostic, Severity};
use crate::driver::Source;
use crate::front::front_end;
use animkit_vm::program::Language;
use lsp_types::{DiagnosticRelatedInformation, DiagnosticSeverity, Location, Uri};

/// Checks `text` as `animc --check` would and converts what it reports.
pub fn check(uri: &Uri, text: &str, language: Language) -> Vec<lsp_types::Diagnostic> {
    let Some(front) = front_end(language) else { return Vec::new() };
    let source = Source { path: uri.path().as_str().to_owned(), text: text.to_owned(), language: Some(language) };
    let found = match front.check(&source) {
        Ok(checked) => checked.warnings,
        Err(diagnostics) => diagnostics,
    };
    let lines = Lines::new(text);
    found.iter().map(|d| convert(uri, text, &lines, d)).collect()
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
