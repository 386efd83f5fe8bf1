//! Importers: foreign formats turned into the source text of one of the
//! languages before a front end sees it, so that an import compiles to
//! exactly what the same source would. They are not bundle languages (the
//! language table in `animkit_vm::engine::program` is for those): `animc --lang`
//! accepts an importer's name beside the languages' ([`importer`]).
//!
//! | importer | input | output language |
//! | --- | --- | --- |
//! | [`aseprite`] | Aseprite's JSON sprite-sheet export (`.json`) | Sprite DSL |

pub mod aseprite;
mod aseprite_ranges;

use animkit_vm::engine::program::Language;

/// The importers `animc --lang` accepts, by name, each with the language
/// of the source it writes (the table above).
pub const IMPORTERS: [(&str, Language); 1] = [("aseprite", Language::Sprite)];

/// The language the importer named `name` writes, if `name` is an
/// importer's name.
///
/// ```
/// use animkit_vm::engine::program::Language;
/// assert_eq!(animkit_compiler::import::importer("aseprite"), Some(Language::Sprite));
/// assert_eq!(animkit_compiler::import::importer("sprite"), None);
/// ```
pub fn importer(name: &str) -> Option<Language> {
    IMPORTERS.iter().find(|(n, _)| *n == name).map(|&(_, language)| language)
}
