//! The table of this build's front ends, one per language it compiles,
//! and the lookup by language. Kept apart from the front-end interface
//! (`crate::front`), which every language imports: the table imports every
//! language, so the interface stays below the languages and the table
//! above them.

use crate::front::FrontEnd;
use animkit_vm::engine::program::Language;

/// Every front end of this build, one per language it compiles.
pub static FRONT_ENDS: &[&dyn FrontEnd] = &[&crate::sprite::Sprite, &crate::animator::Animator, &crate::slap::Slap];

/// The front end of `language`, if this build has one.
pub fn front_end(language: Language) -> Option<&'static dyn FrontEnd> {
    FRONT_ENDS.iter().copied().find(|f| f.language() == language)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_front_end_per_language_at_most() {
        for l in Language::ALL {
            assert!(FRONT_ENDS.iter().filter(|f| f.language() == l).count() <= 1, "{l}");
        }
    }

    #[test]
    fn every_language_has_a_front_end_in_animc() {
        // `animc`'s refusals name a source by its front end's words.
        let nouns: Vec<_> = Language::ALL.iter().map(|&l| front_end(l).map(|f| f.source_nouns())).collect();
        assert_eq!(
            nouns,
            [
                Some(("a sprite source", "sprite sources")),
                Some(("an Animator source", "Animator sources")),
                Some(("a SLAP source", "SLAP sources"))
            ]
        );
    }
}
