//! The compiler in the page (feature `compiler`): `animc` on one text,
//! with its diagnostics as data instead of rendered text. Plain Rust (no
//! wasm-bindgen types), so that native tests compare it with the `animc`
//! binary; `wasm_compile.rs` is its JavaScript face.
//!
//! Each [`Message`] is one `error:` or `warning:` headline that `animc`
//! prints for the same text, in the same order, with the same words (the
//! long quotes cut by `excerpt::quote_excerpts` as there) and the position
//! of its `-->` line; at most [`MAX_ERRORS`] errors, then the line saying
//! how many more there were, as `animc` prints them. The closing lines
//! (`could not compile due to N previous errors`, `N warnings emitted`)
//! are not messages: they only count the others.
//!
//! Built natively without the feature too for the crate's unit tests
//! (`compile_tests.rs`), which hold it to the `animc` binary.

use animkit_compiler::diagnostic::{self, Diagnostic, LineIndex, MAX_ERRORS};
use animkit_compiler::driver::{CompileError, FileDiagnostics, format_source, line_ends};
use animkit_compiler::excerpt::quote_excerpts;
use animkit_compiler::files::ReadError;
use animkit_compiler::{Options, Source, compile_with_warnings};
use animkit_vm::engine::limits::MAX_SOURCE_BYTES;
use animkit_vm::engine::program::Language;

/// How bad a [`Message`] is: `animc`'s `error:` or `warning:`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The text does not compile.
    Error,
    /// It compiles, and something in it is likely a mistake.
    Warning,
}

impl Severity {
    /// The word `animc` starts its line with.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// Where a [`Message`] points: 1-based lines and columns in characters, as
/// `animc`'s `--> file:line:column`; the end is the end of the span its
/// carets mark (exclusive: one past its last character).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// The file, when it is not the text compiled (a file a SLAP scene
    /// includes); `None`: that text.
    pub file: Option<String>,
    /// Line of the first character.
    pub line: u32,
    /// Column of the first character.
    pub column: u32,
    /// Line of the end.
    pub end_line: u32,
    /// Column of the end.
    pub end_column: u32,
}

/// One diagnostic, as `animc` prints its headline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// Error or warning.
    pub severity: Severity,
    /// The headline without `error: ` / `warning: `.
    pub message: String,
    /// Where it points; `None` for a message about no place (a text too
    /// large, the count of errors not shown).
    pub at: Option<Place>,
}

/// A text that compiled: the bundle `animc -o` writes, and its warnings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Built {
    /// The `.animb` bytes.
    pub bundle: Vec<u8>,
    /// The warnings `animc` prints for it.
    pub warnings: Vec<Message>,
}

/// The language named `language` (`animc --lang`'s names), or the message
/// `animc` gives for another name.
fn language(language: &str) -> Result<Language, Vec<Message>> {
    Language::from_name(language)
        .ok_or_else(|| vec![error(format!("unknown language `{language}` (expected {})", Language::names(", ")))])
}

fn error(message: String) -> Message {
    Message { severity: Severity::Error, message, at: None }
}

/// `animc`'s message for a text over the source limit, which it refuses
/// before reading it (`what`: how `animc` names the input).
fn size_limit(text: &str, what: &str, size_known: bool) -> Result<(), Vec<Message>> {
    if text.len() as u64 <= MAX_SOURCE_BYTES {
        return Ok(());
    }
    let size = size_known.then_some(text.len() as u64);
    let line = ReadError::TooBig { size, limit: MAX_SOURCE_BYTES }.message(what);
    Err(vec![error(headline(&line, "error: ").to_string())])
}

/// `line` without its `prefix` and line end.
fn headline<'a>(line: &'a str, prefix: &str) -> &'a str {
    let line = line.trim_end_matches('\n');
    line.strip_prefix(prefix).unwrap_or(line)
}

/// Compiles `text`, a source of `language` (`sprite`, `animator`, `slap`)
/// named `name` (its module is the name's stem; SLAP includes are read
/// relative to it, where the platform has files), as `animc --lang
/// LANGUAGE NAME -o OUT` does: the bundle and its warnings, or every
/// message.
pub fn compile(language_name: &str, name: &str, text: &str) -> Result<Built, Vec<Message>> {
    let language = language(language_name)?;
    size_limit(text, &format!("`{name}`"), true)?;
    let source = Source { path: name.to_string(), text: line_ends(text.to_string()), language: Some(language) };
    match compile_with_warnings(std::slice::from_ref(&source), &Options::default()) {
        Ok(compiled) => {
            let mut warnings = Vec::new();
            let mut unlimited = usize::MAX;
            for file in &compiled.warnings {
                messages(file, &mut unlimited, &mut warnings);
            }
            Ok(Built { bundle: animkit_vm::engine::codec::encode(&compiled.program), warnings })
        }
        Err(e) => Err(failure(e)),
    }
}

/// Formats `text`, a source of `language`, as `animc --fmt --lang LANGUAGE
/// -` does (the text read as standard input): the text in the language's
/// canonical layout, or the messages of its syntax errors.
pub fn format(language_name: &str, text: &str) -> Result<String, Vec<Message>> {
    let language = language(language_name)?;
    size_limit(text, "standard input", false)?;
    let source = Source { path: "-".into(), text: line_ends(text.to_string()), language: Some(language) };
    format_source(&source).map_err(failure)
}

/// The messages of a failed compile or format, limited as `animc` prints
/// them.
fn failure(e: CompileError) -> Vec<Message> {
    match e {
        CompileError::Source(files) => {
            let (mut out, mut errors_left, mut left_out) = (Vec::new(), MAX_ERRORS, 0);
            for file in &files {
                left_out += messages(file, &mut errors_left, &mut out);
            }
            let line = diagnostic::left_out_line(left_out);
            if !line.is_empty() {
                out.push(error(headline(&line, "error: ").to_string()));
            }
            out
        }
        CompileError::Other(m) => vec![error(m)],
    }
}

/// The messages of one file's diagnostics, at most `errors_left` more
/// errors (the rule of `diagnostic::render_limited`); how many errors were
/// left out.
fn messages(file: &FileDiagnostics, errors_left: &mut usize, out: &mut Vec<Message>) -> usize {
    let main = LineIndex::new(&file.text);
    let mut left_out = 0;
    for d in &file.diagnostics {
        left_out += d.left_out;
        if *errors_left == 0 {
            left_out += usize::from(d.is_error());
            continue;
        }
        if d.is_error() {
            *errors_left -= 1;
        }
        out.push(message(d, &file.text, &main));
    }
    left_out
}

fn message(d: &Diagnostic, text: &str, main: &LineIndex<'_>) -> Message {
    let severity = match d.severity {
        diagnostic::Severity::Error => Severity::Error,
        diagnostic::Severity::Warning => Severity::Warning,
    };
    let place = |text: &str, index: &LineIndex<'_>, file: Option<String>| {
        // The span as the renderer clamps it to the text.
        let start = d.span.start.min(text.len());
        let end = d.span.end.min(text.len()).max(start);
        let ((line, column), (end_line, end_column)) = (index.line_col(start), index.line_col(end));
        Place { file, line, column, end_line, end_column }
    };
    let at = match &d.file {
        Some(other) => place(&other.text, &LineIndex::new(&other.text), Some(other.path.clone())),
        None => place(text, main, None),
    };
    Message { severity, message: quote_excerpts(&d.message), at: Some(at) }
}

#[cfg(test)]
#[path = "compile_tests.rs"]
mod tests;
