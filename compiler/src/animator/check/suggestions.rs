//! The "did you mean" of a word that is not a command, which the reader
//! leaves to the checker.

use super::Text;
use crate::diagnostic::Diagnostic;
use crate::suggest;
use animkit_grammar::animator::lexer::Keyword;
use animkit_grammar::animator::{ReadError, ReadErrorKind};

/// A reader error as a diagnostic: a word that is not a command gets the
/// keyword it was probably meant to be, and a command cut short the label
/// of what ended it.
///
/// ```
/// use animkit_compiler::animator::check::{read_error, Text};
/// let src = "lien 0 0 1 1";
/// let (_, errors) = animkit_grammar::animator::parse_with_pos(src);
/// let d = read_error(&errors[0], Text::of(src));
/// assert_eq!(d.message, "expected a command, found `lien` (did you mean `line`?)");
/// ```
pub fn read_error(e: &ReadError, text: Text<'_>) -> Diagnostic {
    let mut d = Diagnostic::error(e.span, e.message.clone(), e.label.clone());
    if e.kind == ReadErrorKind::NotACommand {
        if let Some(k) = suggest_keyword(&String::from_utf8_lossy(text.get(e.span))) {
            d.message.push_str(&format!(" (did you mean `{k}`?)"));
        }
    }
    if let Some((span, label)) = &e.secondary {
        d = d.with_secondary(*span, label.clone());
    }
    d
}

/// The command keyword a mistyped word was probably meant to be: the same
/// word in another case, or one within two edits and a third of the
/// keyword's length.
///
/// ```
/// use animkit_compiler::animator::check::suggest_keyword;
/// assert_eq!(suggest_keyword("lien"), Some("line"));
/// assert_eq!(suggest_keyword("Frame"), Some("frame"));
/// assert_eq!(suggest_keyword("xyzzy"), None);
/// ```
pub fn suggest_keyword(word: &str) -> Option<&'static str> {
    if word.len() < 2 || word.len() > 20 {
        return None;
    }
    let lower = word.to_ascii_lowercase();
    Keyword::ALL
        .iter()
        .filter_map(|k| Some((suggest::distance_within(&lower, k.as_str(), suggest::Costs::UNIT, 2)?, k.as_str())))
        .filter(|&(d, k)| d == 0 || d * 3 <= k.len())
        .min_by_key(|&(d, _)| d)
        .map(|(_, k)| k)
}
