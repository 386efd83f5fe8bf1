//! Importers: foreign formats turned into the source text of one of the
//! languages before a front end sees it, so that an import compiles to
//! exactly what the same source would. They are not bundle languages (the
//! language table in `animkit_vm::program` is for those): `animc --lang`
//! accepts an importer's name beside the languages' ([`importer`]).
//!
//! | importer | input | output language |
//! | --- | --- | --- |
//! | [`aseprite`] | Aseprite's JSON sprite-sheet export (`.json`) | Sprite DSL |

pub mod aseprite;
mod aseprite_ranges;

/// The importers `animc --lang` accepts, by name.
pub const IMPORTERS: [&str; 1] = ["aseprite"];

/// Whether `name` is an importer's name.
///
/// ```
/// assert!(animkit_compiler::import::importer("aseprite"));
/// assert!(!animkit_compiler::import::importer("sprite"));
/// ```
pub fn importer(name: &str) -> bool {
    IMPORTERS.contains(&name)
}
