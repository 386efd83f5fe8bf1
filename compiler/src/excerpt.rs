//! Bounded diagnostics: whatever a file holds, an error quotes at most a
//! short excerpt of it. A quoted token in a message or label longer than
//! [`MAX_QUOTE_CHARS`] keeps its start, then `…` and its length; a source
//! line longer than [`MAX_LINE_CHARS`] is shown as a window round the
//! span, with `…` where it was cut, so a 100 MB number literal gives a
//! few lines of error, not 300 MB. This module holds the rules and the
//! quoting; the window of a long line is drawn by `crate::diagnostic`'s
//! renderer, which imports this module (never the other way).

use animkit_vm::engine::suggest::Quoted;

/// The longest `quoted` token kept whole in a message or label (chars):
/// the game API's messages keep the same rule ([`Quoted`]).
pub use animkit_vm::engine::suggest::MAX_QUOTE_CHARS;

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
        // The game API's rule too (`animkit_vm::engine::suggest::Quoted`).
        out.pop();
        out.push_str(&Quoted(quoted).to_string());
        rest = &after[b + 1..];
    }
    out.push_str(rest);
    out
}
