//! The errors of the game API: one type per operation, each with the
//! reason a game can act on, all `std::error::Error`.

use crate::codec::LoadError;
use crate::program::Language;
use crate::suggest::Quoted;
use std::fmt;

/// What a bundle module is, for [`super::Bundle::module`] and
/// [`FindError::WrongKind`]: one kind a language, in the language table's
/// order (its `kind` column, `vm/src/program.rs`), so
/// [`ModuleKind::language`] and [`Language::module_kind`] are inverses.
///
/// ```
/// use animkit_vm::game::ModuleKind;
/// use animkit_vm::engine::program::Language;
/// assert_eq!(ModuleKind::Scene.language(), Language::Slap);
/// assert_eq!(ModuleKind::Drawing.to_string(), "an Animator drawing");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ModuleKind {
    /// A sprite state machine (`.anim`): [`super::Bundle::sprite`].
    Sprite,
    /// An Animator drawing (`.draw`), played by the runtime's player.
    Drawing,
    /// A SLAP scene (`.slap`): [`super::Bundle::scene`].
    Scene,
}

impl ModuleKind {
    /// The language of modules of this kind.
    pub const fn language(self) -> Language {
        Language::of_kind(self)
    }
}

impl fmt::Display for ModuleKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.language().kind_words())
    }
}

/// Why [`super::Bundle::from_bytes`] or [`super::Bundle::open`] refused a
/// bundle.
///
/// ```
/// use animkit_vm::game::{Bundle, OpenError};
/// let mut bytes = animkit_vm::game::doc_bundle();
/// bytes[8] = 9; // the format version
/// let e = Bundle::from_bytes(&bytes).unwrap_err();
/// assert_eq!(e, OpenError::NewerFormat { found: 9, supported: 3 });
/// assert_eq!(e.to_string(), "the bundle has format version 9, newer than this build reads (3): update animkit");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpenError {
    /// The file could not be read.
    Io {
        /// The path as given.
        path: String,
        /// The system's reason.
        message: String,
    },
    /// It does not start with the bundle magic bytes (`ANIMB\0\r\n`).
    NotABundle,
    /// Written by a newer `animc` than this build can read.
    NewerFormat {
        /// The bundle's format version.
        found: u16,
        /// The version this build reads ([`super::FORMAT_VERSION`]).
        supported: u16,
    },
    /// Written by an older `animc`: recompile the sources.
    OlderFormat {
        /// The bundle's format version.
        found: u16,
        /// The version this build reads ([`super::FORMAT_VERSION`]).
        supported: u16,
    },
    /// Cut short, too long, too large, a checksum mismatch, or a payload
    /// that does not decode: the bytes were damaged.
    Corrupt(String),
    /// It decodes but breaks a verifier rule: a bundle this `animc` would
    /// not write.
    Rule {
        /// The rule's name (the table in the verifier's documentation).
        rule: &'static str,
        /// What is wrong, and where.
        message: String,
    },
}

impl OpenError {
    pub(super) fn from_load(e: LoadError) -> OpenError {
        let supported = super::FORMAT_VERSION;
        match e {
            LoadError::NotABundle => OpenError::NotABundle,
            LoadError::UnsupportedVersion(found) if found > supported => OpenError::NewerFormat { found, supported },
            LoadError::UnsupportedVersion(found) => OpenError::OlderFormat { found, supported },
            LoadError::Invalid(v) => OpenError::Rule { rule: v.rule, message: v.to_string() },
            other => OpenError::Corrupt(other.to_string()),
        }
    }
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpenError::Io { path, message } => write!(f, "cannot read {path}: {message}"),
            OpenError::NotABundle => {
                f.write_str("not an animkit bundle (the file does not start with the ANIMB magic bytes)")
            }
            OpenError::NewerFormat { found, supported } => write!(
                f,
                "the bundle has format version {found}, newer than this build reads ({supported}): update animkit"
            ),
            OpenError::OlderFormat { found, supported } => write!(
                f,
                "the bundle has format version {found}, older than this build reads ({supported}): recompile it with this animc"
            ),
            OpenError::Corrupt(m) => f.write_str(m),
            OpenError::Rule { message, .. } => write!(f, "invalid bundle: {message}"),
        }
    }
}

impl std::error::Error for OpenError {}

/// Why [`super::Bundle::sprite`] or [`super::Bundle::scene`] found no
/// module.
///
/// ```
/// use animkit_vm::game::{Bundle, FindError, ModuleKind};
/// # let bundle = Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap();
/// let e = bundle.scene("hero").unwrap_err();
/// assert_eq!(e, FindError::WrongKind { name: "hero".into(), expected: ModuleKind::Scene, found: ModuleKind::Sprite });
/// assert_eq!(e.to_string(), "module `hero` is a sprite module, not a SLAP scene");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FindError {
    /// No module of that name (names are case-sensitive).
    NoModule {
        /// The name asked for.
        name: String,
        /// The closest module names, best first (at most three).
        nearest: Vec<String>,
    },
    /// A module of that name, of another kind.
    WrongKind {
        /// The name asked for.
        name: String,
        /// The kind asked for.
        expected: ModuleKind,
        /// The module's kind.
        found: ModuleKind,
    },
}

impl fmt::Display for FindError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FindError::NoModule { name, nearest } => {
                write!(f, "no module named {} in the bundle", Quoted(name))?;
                did_you_mean(f, nearest)
            }
            FindError::WrongKind { name, expected, found } => {
                write!(f, "module {} is {found}, not {expected}", Quoted(name))
            }
        }
    }
}

impl std::error::Error for FindError {}

/// [`super::SpriteModule::state`] found no state of that name.
///
/// ```
/// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
/// let e = hero.state("walk").unwrap_err();
/// assert_eq!(e.nearest, ["Walk"]);
/// assert_eq!(e.to_string(), "no state named `walk` in sprite module `hero`; did you mean `Walk`?");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownState {
    /// The name asked for.
    pub name: String,
    /// The sprite module.
    pub module: String,
    /// The closest state names, best first (at most three).
    pub nearest: Vec<String>,
}

impl fmt::Display for UnknownState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no state named {} in sprite module {}", Quoted(&self.name), Quoted(&self.module))?;
        did_you_mean(f, &self.nearest)
    }
}

impl std::error::Error for UnknownState {}

/// No event of that name in a sprite module (from
/// [`super::SpriteModule::event`]): only the events its code fires count,
/// not its states' or its own name.
///
/// ```
/// # let hero = animkit_vm::game::Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
/// let e = hero.event("Walk").unwrap_err();
/// assert_eq!((e.name.as_str(), e.module.as_str()), ("Walk", "hero"));
/// assert_eq!(e.to_string(), "no event named `Walk` in sprite module `hero`");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownEvent {
    /// The name asked for.
    pub name: String,
    /// The sprite module.
    pub module: String,
    /// The closest event names, best first (at most three).
    pub nearest: Vec<String>,
}

impl fmt::Display for UnknownEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no event named {} in sprite module {}", Quoted(&self.name), Quoted(&self.module))?;
        did_you_mean(f, &self.nearest)
    }
}

impl std::error::Error for UnknownEvent {}

/// Why a snapshot was not restored; the animation is unchanged.
///
/// ```
/// use animkit_vm::game::{Bundle, RestoreError};
/// # let hero = Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap().sprite("hero").unwrap();
/// let mut batch = hero.batch();
/// batch.spawn(hero.state("Walk").unwrap());
/// let saved = batch.snapshot();
/// let mut other = hero.batch();
/// assert!(other.restore(&saved).is_ok());
/// # let _ = RestoreError::Invalid(String::new());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RestoreError {
    /// Taken of another module, or of another build of it: the module
    /// hashes differ.
    WrongModule {
        /// The hash of the module restored into.
        expected: u64,
        /// The hash the snapshot names.
        found: u64,
    },
    /// It names this module but cannot be one of its (edited or damaged).
    Invalid(String),
}

impl RestoreError {
    pub(super) fn from_sprite(e: crate::sprite::SpriteError) -> RestoreError {
        match e {
            crate::sprite::SpriteError::WrongModule { expected, found } => {
                RestoreError::WrongModule { expected, found }
            }
            other => RestoreError::Invalid(other.to_string()),
        }
    }
}

impl fmt::Display for RestoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RestoreError::WrongModule { expected, found } => write!(
                f,
                "the snapshot belongs to another module (module hash {found:016x}; this module's is {expected:016x})"
            ),
            RestoreError::Invalid(m) => write!(f, "invalid snapshot: {m}"),
        }
    }
}

impl std::error::Error for RestoreError {}

fn did_you_mean(f: &mut fmt::Formatter<'_>, nearest: &[String]) -> fmt::Result {
    match nearest {
        [] => Ok(()),
        [one] => write!(f, "; did you mean {}?", Quoted(one)),
        [rest @ .., last] => {
            f.write_str("; did you mean ")?;
            for n in rest {
                write!(f, "{}, ", Quoted(n))?;
            }
            write!(f, "or {}?", Quoted(last))
        }
    }
}

/// The names closest to `name`, best first: at most three, each within an
/// edit distance of a third of the longer name (at least 1), ties in
/// table order; none for a name over
/// [`MAX_SUGGEST_LEN`](crate::suggest::MAX_SUGGEST_LEN) characters (the
/// project's one bounded search, [`crate::suggest::nearest`]).
pub(super) fn nearest<'a>(name: &str, names: impl Iterator<Item = &'a str>) -> Vec<String> {
    crate::suggest::nearest(name, names, 3).into_iter().map(str::to_string).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_names() {
        let names = ["Idle", "Walk", "Run", "Jump", "Fall", "Land"];
        assert_eq!(nearest("walk", names.into_iter()), ["Walk"]);
        assert_eq!(nearest("Jmp", names.into_iter()), ["Jump"]);
        assert_eq!(nearest("Xyzzy", names.into_iter()), Vec::<String>::new());
        assert_eq!(nearest("Rum", names.into_iter()), ["Run"]);
        assert_eq!(nearest("Wlak", names.into_iter()), ["Walk"]);
    }

    #[test]
    fn messages_quote_an_excerpt_of_a_long_name() {
        let long = "W".repeat(4_000_000);
        let e =
            UnknownState { name: long.clone(), module: "hero".into(), nearest: nearest(&long, ["Walk"].into_iter()) };
        assert_eq!(
            e.to_string(),
            format!("no state named `{}…` (4000000 bytes) in sprite module `hero`", "W".repeat(32))
        );
        let e = FindError::NoModule { name: long, nearest: vec!["hero".into()] };
        assert_eq!(
            e.to_string(),
            format!("no module named `{}…` (4000000 bytes) in the bundle; did you mean `hero`?", "W".repeat(32))
        );
    }
}
