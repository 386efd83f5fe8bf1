//! One place a name is written ([`Occurrence`]), what it names
//! ([`Kind`]): what each language's front end gives the language server
//! (`FrontEnd::names`), kept below both the front ends and the server's
//! lookups by language (`super::symbols`), which re-export it.

use animkit_grammar::Span;

/// What a name names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A sprite state.
    State,
    /// A sprite category alias (`Name[Alias]`).
    Alias,
    /// An Animator macro.
    Macro,
    /// A SLAP `define`.
    Define,
    /// A SLAP actor number.
    Actor,
}

/// One place a name is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Occurrence {
    /// What it names.
    pub kind: Kind,
    /// The name.
    pub name: String,
    /// The name's bytes (inside the quotes of a quoted name).
    pub span: Span,
    /// True where the name is defined (a state's line, `macro`,
    /// `define`); an actor's first use counts as its definition.
    pub def: bool,
}

/// The occurrence whose name covers byte `offset` (its end included, as
/// a cursor right after a name is on it).
pub fn at(occurrences: &[Occurrence], offset: usize) -> Option<&Occurrence> {
    occurrences.iter().find(|o| o.span.start <= offset && offset <= o.span.end)
}

/// An occurrence of `name`.
pub(crate) fn occ(kind: Kind, name: &str, span: Span, def: bool) -> Occurrence {
    Occurrence { kind, name: name.to_owned(), span, def }
}
