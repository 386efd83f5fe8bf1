//! Bounded diagnostics: whatever a file holds, an error quotes at most a
//! short excerpt of it. A quoted token in a message or label longer than
//! [`MAX_QUOTE_CHARS`] keeps its start, then `…` and its length; a source
//! line longer than [`MAX_LINE_CHARS`] is shown as a window round the
//! span, with `…` where it was cut, so a 100 MB number literal gives a
//! few lines of error, not 300 MB.

use crate::diagnostic::{Diagnostic, IndexedFile};
use animkit_vm::suggest::Quoted;

/// The longest `quoted` token kept whole in a message or label (chars):
/// the game API's messages keep the same rule ([`Quoted`]).
pub use animkit_vm::suggest::MAX_QUOTE_CHARS;

/// The longest source line shown whole under an error (chars).
pub const MAX_LINE_CHARS: usize = 400;

/// `text` with each backquoted part longer than [`MAX_QUOTE_CHARS`] cut to
/// its first 32 characters, `…` and its length in bytes.
///
/// ```
/// use animkit_compiler::excerpt::quote_excerpts;
/// let long = "9".repeat(1000);
/// assert_eq!(quote_excerpts(&format!("bad number `{long}` here")),
///            format!("bad number `{}…` (1000 bytes) here", "9".repeat(32)));
/// assert_eq!(quote_excerpts("short `x` stays"), "short `x` stays");
/// ```
pub fn quote_excerpts(text: &str) -> String {
    if text.len() <= MAX_QUOTE_CHARS {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len().min(4096));
    let mut rest = text;
    while let Some(a) = rest.find('`') {
        out.push_str(&rest[..=a]);
        let after = &rest[a + 1..];
        let Some(b) = after.find('`') else {
            rest = after;
            break;
        };
        let quoted = &after[..b];
        // The game API's rule too (`animkit_vm::suggest::Quoted`).
        out.pop();
        out.push_str(&Quoted(quoted).to_string());
        rest = &after[b + 1..];
    }
    out.push_str(rest);
    out
}

/// Renders `d` by hand when its primary span's line is longer than
/// [`MAX_LINE_CHARS`]: the message, `--> file:line:col`, and a window of
/// the line round the span with a caret under it. `None` for a short line
/// (codespan renders it).
pub(crate) fn long_line(file: &IndexedFile<'_>, d: &Diagnostic) -> Option<String> {
    let (file_name, source) = (file.name, file.source);
    let at = d.span.start.min(source.len());
    // The line, from the index built once for the file.
    let line_no = file.lines.line_of(at);
    let start = file.lines.line_start(line_no).unwrap_or(0);
    let end = file.lines.line_end(line_no).max(at);
    let line = &source[start..end];
    // A short line is left to codespan.
    line.chars().nth(MAX_LINE_CHARS)?;
    let n = line_no + 1;
    let col = source[start..at].chars().count() + 1;
    // Up to 40 chars before the span, the span up to 80.
    let before: String = {
        let b: Vec<char> = source[start..at].chars().rev().take(41).collect();
        let cut = b.len() > 40;
        let mut s: String = b.into_iter().take(40).collect::<Vec<_>>().into_iter().rev().collect();
        if cut {
            s.insert(0, '…');
        }
        s
    };
    let span_end = d.span.end.clamp(at, end);
    let marked: String = source[at..span_end].chars().take(80).collect();
    let after_cut = span_end > at + marked.len() || end > span_end;
    let width = n.to_string().len();
    let pad = " ".repeat(width);
    let kind = match d.severity {
        crate::diagnostic::Severity::Error => "error",
        crate::diagnostic::Severity::Warning => "warning",
    };
    let carets = "^".repeat(marked.chars().count().max(1));
    Some(format!(
        "{kind}: {}\n{pad}--> {file_name}:{n}:{col}\n{pad} |\n{n} | {before}{marked}{}\n{pad} | {}{carets} {}\n\n",
        quote_excerpts(&d.message),
        if after_cut { "…" } else { "" },
        " ".repeat(before.chars().count()),
        quote_excerpts(&d.label),
    ))
}
