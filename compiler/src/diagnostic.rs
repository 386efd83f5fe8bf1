//! Diagnostics in rustc's format, rendered by codespan-reporting:
//!
//! ```text
//! error: unknown state `Idel`
//!  --> hero.anim:3:18
//!   |
//! 3 | Attack: 5, 5, 5, Idel
//!   |                  ^^^^ no state with this name
//!   |
//!   = help: did you mean `Idle`?
//! ```

use crate::excerpt::{MAX_LINE_CHARS, quote_excerpts};
use animkit_grammar::Span;
use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label, Severity as CsSeverity};
use codespan_reporting::term::{self, Chars, Config, DisplayStyle};
use std::sync::Arc;

/// How bad it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// Compilation fails.
    Error,
    /// Compilation goes on.
    Warning,
}

/// One message about a source file, with the span it points at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// The headline, without a trailing period.
    pub message: String,
    /// The primary span (gets the carets).
    pub span: Span,
    /// Text printed after the carets (a boxed `str`, to keep results of
    /// `Diagnostic` small).
    pub label: Box<str>,
    /// Other places worth showing, with their labels.
    pub secondary: Vec<(Span, String)>,
    /// `= note: ...` / `= help: ...` lines, written out in full.
    pub notes: Vec<String>,
    /// The file the spans are in when it is not the source being compiled
    /// (a file a SLAP scene includes); `None`: that source.
    pub file: Option<Arc<OtherFile>>,
    /// How many more errors, after this one in source order, the front end
    /// found and did not keep (it keeps a file's first
    /// [`MAX_KEPT_ERRORS`](animkit_grammar::kept::MAX_KEPT_ERRORS)): 0 but
    /// on the last diagnostic kept of such a file. Counted by
    /// [`Diagnostic::errors`], the closing lines and the language server.
    pub left_out: usize,
}

/// A file other than the compiled source that diagnostics point into.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OtherFile {
    /// Its path as diagnostics show it.
    pub path: String,
    /// Its text.
    pub text: String,
}

impl Diagnostic {
    /// An error at `span`.
    ///
    /// ```
    /// use animkit_compiler::diagnostic::Diagnostic;
    /// use animkit_grammar::Span;
    /// let d = Diagnostic::error(Span::new(0, 1), "bad", "here").with_help("try again");
    /// assert_eq!(d.notes, ["help: try again"]);
    /// ```
    pub fn error(span: Span, message: impl Into<String>, label: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            span,
            label: label.into().into_boxed_str(),
            secondary: Vec::new(),
            notes: Vec::new(),
            file: None,
            left_out: 0,
        }
    }

    /// Adds a `help:` line.
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.notes.push(format!("help: {}", help.into()));
        self
    }

    /// Adds a `note:` line.
    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(format!("note: {}", note.into()));
        self
    }

    /// Adds a secondary label.
    pub fn with_secondary(mut self, span: Span, label: impl Into<String>) -> Diagnostic {
        self.secondary.push((span, label.into()));
        self
    }

    /// True for errors.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The errors it counts for: itself (1 for an error, 0 for a
    /// warning) and the [`left_out`](Diagnostic::left_out) ones after it.
    pub fn errors(&self) -> usize {
        usize::from(self.is_error()) + self.left_out
    }
}

impl animkit_grammar::kept::Keepable for Diagnostic {
    fn start(&self) -> usize {
        self.span.start
    }
    fn is_error(&self) -> bool {
        Diagnostic::is_error(self)
    }
    fn left_out(&self) -> usize {
        self.left_out
    }
    fn add_left_out(&mut self, n: usize) {
        self.left_out += n;
    }
}

/// A file's diagnostics as a front end collects them: the first
/// [`MAX_KEPT_ERRORS`](animkit_grammar::kept::MAX_KEPT_ERRORS) in source
/// order kept, the others counted.
pub type Kept = animkit_grammar::kept::FirstInOrder<Diagnostic>;

impl From<animkit_grammar::SyntaxError> for Diagnostic {
    fn from(e: animkit_grammar::SyntaxError) -> Diagnostic {
        Diagnostic { notes: e.notes, left_out: e.left_out, ..Diagnostic::error(e.span, e.message, e.label) }
    }
}

/// The most errors one compile prints (like clang's `-ferror-limit`): past
/// it, [`render_limited`] stops and says how many more there were
/// (documented in docs/limits.md).
pub const MAX_ERRORS: usize = 100;

// Front ends keep more than is printed: the first one left out is known.
const _: () = assert!(animkit_grammar::kept::MAX_KEPT_ERRORS > MAX_ERRORS);

/// A source with its [`LineIndex`], built once for all the diagnostics
/// rendered against it (codespan's `SimpleFile` indexes the whole text
/// each time it is made: made per diagnostic, N errors in a big file cost
/// N times the file).
pub(crate) struct IndexedFile<'s> {
    pub(crate) name: &'s str,
    pub(crate) source: &'s str,
    pub(crate) lines: LineIndex<'s>,
}

impl<'s> IndexedFile<'s> {
    pub(crate) fn new(name: &'s str, source: &'s str) -> IndexedFile<'s> {
        IndexedFile { name, source, lines: LineIndex::new(source) }
    }

    fn line_start(&self, line: usize) -> Result<usize, codespan_reporting::files::Error> {
        self.lines
            .line_start(line)
            .ok_or(codespan_reporting::files::Error::LineTooLarge { given: line, max: self.lines.starts.len() - 1 })
    }
}

impl<'a> codespan_reporting::files::Files<'a> for IndexedFile<'_> {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, (): ()) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(self.name)
    }

    fn source(&'a self, (): ()) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(self.source)
    }

    fn line_index(&'a self, (): (), byte_index: usize) -> Result<usize, codespan_reporting::files::Error> {
        Ok(self.lines.line_of(byte_index))
    }

    fn line_range(
        &'a self,
        (): (),
        line_index: usize,
    ) -> Result<std::ops::Range<usize>, codespan_reporting::files::Error> {
        Ok(self.line_start(line_index)?..self.line_start(line_index + 1)?)
    }
}

/// Renders diagnostics for one file as rustc does (plain text, no colour).
/// Each file is indexed once, however many diagnostics point into it; each
/// diagnostic then costs what its own excerpt costs.
///
/// ```
/// use animkit_compiler::diagnostic::{render, Diagnostic};
/// use animkit_grammar::Span;
/// let text = render("a.anim", "Walk: 5\n", &[Diagnostic::error(Span::new(6, 7), "oops", "here")]);
/// assert!(text.starts_with("error: oops\n --> a.anim:1:7\n"), "{text}");
/// ```
pub fn render(main_name: &str, main_source: &str, diagnostics: &[Diagnostic]) -> String {
    let (mut out, mut unlimited) = (String::new(), usize::MAX);
    render_limited(main_name, main_source, diagnostics, &mut unlimited, &mut out);
    out
}

/// [`render`] into `out`, printing at most `errors_left` more errors
/// (warnings after the last one printed are left out too); `errors_left`
/// goes down by the errors printed. Returns how many errors were left out.
pub fn render_limited(
    main_name: &str,
    main_source: &str,
    diagnostics: &[Diagnostic],
    errors_left: &mut usize,
    out: &mut String,
) -> usize {
    let config = Config { display_style: DisplayStyle::Rich, chars: Chars::ascii(), ..Config::default() };
    // The main file, indexed when first needed; the last other file
    // (an included SLAP file), by address.
    let mut main: Option<IndexedFile<'_>> = None;
    let mut other: Option<(*const OtherFile, IndexedFile<'_>)> = None;
    let mut left_out = 0;
    for d in diagnostics {
        left_out += d.left_out;
        if *errors_left == 0 {
            left_out += usize::from(d.is_error());
            continue;
        }
        if d.is_error() {
            *errors_left -= 1;
        }
        let file = match &d.file {
            Some(f) => {
                let key = Arc::as_ptr(f);
                if other.as_ref().is_none_or(|(k, _)| *k != key) {
                    other = Some((key, IndexedFile::new(f.path.as_str(), f.text.as_str())));
                }
                match &other {
                    Some((_, file)) => file,
                    None => continue,
                }
            }
            None => main.get_or_insert_with(|| IndexedFile::new(main_name, main_source)),
        };
        let (file_name, source) = (file.name, file.source);
        if let Some(short) = long_line(file, d) {
            out.push_str(&short);
            continue;
        }
        let message = quote_excerpts(&d.message);
        let label = quote_excerpts(&d.label);
        let clamp = |s: Span| s.start.min(source.len())..s.end.min(source.len()).max(s.start.min(source.len()));
        let mut labels = vec![Label::primary((), clamp(d.span)).with_message(&label)];
        labels.extend(d.secondary.iter().map(|(s, l)| Label::secondary((), clamp(*s)).with_message(l)));
        let severity = match d.severity {
            Severity::Error => CsSeverity::Error,
            Severity::Warning => CsSeverity::Warning,
        };
        let cs = CsDiagnostic::new(severity).with_message(&message).with_labels(labels).with_notes(d.notes.clone());
        let mut one = String::new();
        if term::emit_to_string(&mut one, &config, file, &cs).is_err() {
            one = format!("error: {message}\n --> {file_name}\n");
        }
        // codespan indents the location line one column more than rustc
        // (` --> ` sits under the gutter's first column there).
        for line in one.split_inclusive('\n') {
            match line.strip_prefix(' ') {
                Some(rest) if rest.trim_start().starts_with("--> ") => out.push_str(rest),
                _ => out.push_str(line),
            }
        }
    }
    left_out
}

/// The closing line of a compile that left `n` errors out (nothing for 0).
///
/// ```
/// use animkit_compiler::diagnostic::left_out_line;
/// assert_eq!(left_out_line(3), "error: 3 more errors not shown (at most 100 are printed)\n");
/// assert_eq!(left_out_line(0), "");
/// ```
pub fn left_out_line(n: usize) -> String {
    match n {
        0 => String::new(),
        n => format!(
            "error: {n} more error{} not shown (at most {MAX_ERRORS} are printed)\n",
            if n == 1 { "" } else { "s" }
        ),
    }
}

/// 1-based line and character column of byte offsets in one text.
///
/// ```
/// use animkit_compiler::diagnostic::LineIndex;
/// let idx = LineIndex::new("ab\ncdé f");
/// assert_eq!(idx.line_col(0), (1, 1));
/// assert_eq!(idx.line_col(4), (2, 2));
/// assert_eq!(idx.line_col(8), (2, 5));
/// ```
#[derive(Clone, Debug)]
pub struct LineIndex<'s> {
    src: &'s str,
    starts: Vec<usize>,
    /// The last position asked for: `(offset, column - 1)`. Lowering asks
    /// for positions in source order, many on one line (a state of a
    /// million frames is one line), so a column is counted on from the
    /// last one on the same line instead of from the line's start, which
    /// would make the positions of a long line quadratic.
    last: std::cell::Cell<(usize, usize)>,
}

impl<'s> LineIndex<'s> {
    /// Indexes the line starts of `src`.
    pub fn new(src: &'s str) -> LineIndex<'s> {
        let mut starts = vec![0];
        starts.extend(src.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { src, starts, last: std::cell::Cell::new((0, 0)) }
    }

    /// 0-based line of byte `offset`.
    pub(crate) fn line_of(&self, offset: usize) -> usize {
        self.starts.partition_point(|&s| s <= offset).saturating_sub(1)
    }

    /// Byte offset of 0-based `line`'s start; one past the last line, the
    /// text's end; `None` further on.
    pub(crate) fn line_start(&self, line: usize) -> Option<usize> {
        match line.cmp(&self.starts.len()) {
            std::cmp::Ordering::Less => Some(self.starts[line]),
            std::cmp::Ordering::Equal => Some(self.src.len()),
            std::cmp::Ordering::Greater => None,
        }
    }

    /// Byte offset of 0-based `line`'s end, before its `\n` (the text's
    /// end for the last line).
    pub(crate) fn line_end(&self, line: usize) -> usize {
        self.starts.get(line + 1).map_or(self.src.len(), |&next| next - 1)
    }

    /// `(line, column)` of byte `offset`, both 1-based; columns count
    /// characters.
    pub fn line_col(&self, offset: usize) -> (u32, u32) {
        let offset = offset.min(self.src.len());
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let (last, last_col) = self.last.get();
        let (from, before) = if last >= start && last <= offset { (last, last_col) } else { (start, 0) };
        let col = before + self.src.get(from..offset).map_or(offset - from, |s| s.chars().count());
        self.last.set((offset, col));
        (line as u32 + 1, col as u32 + 1)
    }
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
        Severity::Error => "error",
        Severity::Warning => "warning",
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
