//! The names of a document and where each is written, read from the
//! language's own parser (its front end's
//! `FrontEnd::names`, in its folder's `lsp.rs`):
//! sprite states and their category aliases, Animator macros, SLAP defines
//! and actor ids. Navigation, rename, hover and completion all work from
//! this list.

pub(crate) use super::occurrence::occ;
pub use super::occurrence::{Kind, Occurrence, at};
use crate::languages::front_end;
use animkit_vm::engine::program::Language;

/// Every name written in `text`, in source order.
/// Each language's names are its front end's
/// (`FrontEnd::names`(crate::front::FrontEnd::names)); a language without
/// a front end has none.
pub fn occurrences(language: Language, text: &str) -> Vec<Occurrence> {
    front_end(language).map_or_else(Vec::new, |f| f.names(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_language_lists_its_names() {
        let o = occurrences(Language::Sprite, "Walk[Hero]: 5, Run\nRun[Hero]: 5, _loop\n");
        let got: Vec<_> = o.iter().map(|o| (o.kind, o.name.as_str(), o.span.start, o.def)).collect();
        assert_eq!(
            got,
            [
                (Kind::State, "Walk", 0, true),
                (Kind::Alias, "Hero", 5, true),
                (Kind::State, "Run", 15, false),
                (Kind::State, "Run", 19, true),
                (Kind::Alias, "Hero", 23, false)
            ]
        );
        let o = occurrences(Language::Animator, "macro \"m\"\nline 0 0 1 1\nendmacro\ninvoke m\n");
        let got: Vec<_> = o.iter().map(|o| (o.name.as_str(), o.span.start, o.def)).collect();
        assert_eq!(got, [("m", 7, true), ("m", 39, false)]);
        let o = occurrences(Language::Slap, "define a 1\ndefine action 2\nactor a action a+1\nactor 3 size a\n");
        let got: Vec<_> = o.iter().map(|o| (o.kind, o.name.as_str(), o.span.start)).collect();
        assert_eq!(
            got,
            [
                (Kind::Define, "a", 7),
                (Kind::Define, "action", 18),
                (Kind::Define, "a", 33),
                (Kind::Define, "a", 42),
                (Kind::Actor, "3", 52),
                (Kind::Define, "a", 59)
            ]
        );
    }
}
