//! The in-memory program: what the compiler builds, what a bundle decodes
//! to, and what the interpreter runs once the verifier has accepted it.

use crate::game::ModuleKind;
use crate::isa::{Insn, OpClass};
use std::fmt;

/// Index of an entry of a program's string table.
pub type StrId = u32;
/// Index of a function within its module.
pub type FuncId = u32;

/// The source language of a module. Its byte, name and extension are one
/// table (`LANGUAGES` in this file); the variants are in table order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Language {
    /// Sprite Animator DSL (`.anim`).
    Sprite,
    /// Animator drawing commands (`.draw`).
    Animator,
    /// SLAP scenes (`.slap`).
    Slap,
}

/// How a language's functions are coded: what the verifier's rules, the
/// codec's encoding and the disassembler's labels follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CodeForm {
    /// Sprite code: one function of states, no registers, calls or
    /// bindings (only the generic ops flagged
    /// [`crate::isa::Props::SPRITE_CODE`]), coded by `codec/sprite_code.rs`
    /// and `codec/sprite_lines.rs` against its states.
    Sprite,
    /// Register code: an entry function below the function count, no
    /// states, coded by `codec/register_code.rs` against its constants.
    Register,
}

/// One row of the language table: everything that names a language.
#[derive(Clone, Copy, Debug)]
struct LanguageInfo {
    /// The byte stored in bundles.
    byte: u8,
    /// Lower-case name, as `animc --lang` spells it.
    name: &'static str,
    /// File extension of its sources, without the dot.
    extension: &'static str,
    /// The ISA class of its domain ops ([`OpClass::of`]).
    op_class: OpClass,
    /// How its functions are coded.
    code: CodeForm,
    /// Whether its entry function's `WAIT`s add up to its length (a SLAP
    /// scene's last time point, [`crate::verify::ModuleInfo::entry_waits`]).
    timeline: bool,
    /// The game API's name for it ([`ModuleKind`]), in table order.
    kind: ModuleKind,
    /// How [`ModuleKind`]'s `Display` (so `FindError`) words a module of it.
    kind_words: &'static str,
}

/// The language table: the one place a language's byte, name, extension
/// and every other per-language fact of the VM are spelled. Everything else
/// (`animc --lang`, extensions, bundle bytes, help texts, the ISA class,
/// the verifier's and the codec's code form, the game API's
/// [`ModuleKind`]) is derived from it.
const LANGUAGES: [(Language, LanguageInfo); 3] = [
    (
        Language::Sprite,
        LanguageInfo {
            byte: 1,
            name: "sprite",
            extension: "anim",
            op_class: OpClass::Sprite,
            code: CodeForm::Sprite,
            timeline: false,
            kind: ModuleKind::Sprite,
            kind_words: "a sprite module",
        },
    ),
    (
        Language::Animator,
        LanguageInfo {
            byte: 2,
            name: "animator",
            extension: "draw",
            op_class: OpClass::Animator,
            code: CodeForm::Register,
            timeline: false,
            kind: ModuleKind::Drawing,
            kind_words: "an Animator drawing",
        },
    ),
    (
        Language::Slap,
        LanguageInfo {
            byte: 3,
            name: "slap",
            extension: "slap",
            op_class: OpClass::Slap,
            code: CodeForm::Register,
            timeline: true,
            kind: ModuleKind::Scene,
            kind_words: "a SLAP scene",
        },
    ),
];

// Row `i` is language `i` and module kind `i`, so `Language as usize` and
// `ModuleKind as usize` index the table: a row out of order, or two
// languages of one kind, does not compile.
const _: () = {
    let mut i = 0;
    while i < LANGUAGES.len() {
        assert!(LANGUAGES[i].0 as usize == i);
        assert!(LANGUAGES[i].1.kind as usize == i);
        i += 1;
    }
};

impl Language {
    /// Every language, in table order.
    pub const ALL: [Language; 3] = [LANGUAGES[0].0, LANGUAGES[1].0, LANGUAGES[2].0];

    const fn info(self) -> &'static LanguageInfo {
        &LANGUAGES[self as usize].1
    }

    /// The byte stored in bundles.
    ///
    /// ```
    /// use animkit_vm::engine::program::Language;
    /// for l in Language::ALL {
    ///     assert_eq!(Language::from_byte(l.to_byte()), Some(l));
    /// }
    /// ```
    pub const fn to_byte(self) -> u8 {
        self.info().byte
    }

    /// The inverse of [`Language::to_byte`].
    pub const fn from_byte(b: u8) -> Option<Language> {
        let mut i = 0;
        while i < LANGUAGES.len() {
            if LANGUAGES[i].1.byte == b {
                return Some(LANGUAGES[i].0);
            }
            i += 1;
        }
        None
    }

    /// Lower-case name, as `animc --lang` spells it.
    pub const fn name(self) -> &'static str {
        self.info().name
    }

    /// The language named `name` (`animc --lang`).
    ///
    /// ```
    /// use animkit_vm::engine::program::Language;
    /// assert_eq!(Language::from_name("animator"), Some(Language::Animator));
    /// assert_eq!(Language::from_name("draw"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Language> {
        Language::ALL.into_iter().find(|l| l.name() == name)
    }

    /// The extension of its source files, without the dot (`anim`, `draw`,
    /// `slap`).
    pub const fn extension(self) -> &'static str {
        self.info().extension
    }

    /// The language whose sources have `extension` (without the dot).
    ///
    /// ```
    /// use animkit_vm::engine::program::Language;
    /// assert_eq!(Language::from_extension("slap"), Some(Language::Slap));
    /// assert_eq!(Language::from_extension("txt"), None);
    /// ```
    pub fn from_extension(extension: &str) -> Option<Language> {
        Language::ALL.into_iter().find(|l| l.extension() == extension)
    }

    /// The ISA class of its domain ops: a module may use generic ops and
    /// those of this class only.
    pub const fn op_class(self) -> OpClass {
        self.info().op_class
    }

    /// How its functions are coded (sprite code or register code).
    ///
    /// ```
    /// use animkit_vm::engine::program::{CodeForm, Language};
    /// assert_eq!(Language::Sprite.code(), CodeForm::Sprite);
    /// assert_eq!(Language::Slap.code(), CodeForm::Register);
    /// ```
    pub const fn code(self) -> CodeForm {
        self.info().code
    }

    /// Whether its entry function's `WAIT`s add up to its length (SLAP).
    pub const fn timeline(self) -> bool {
        self.info().timeline
    }

    /// The game API's name for it.
    ///
    /// ```
    /// use animkit_vm::game::ModuleKind;
    /// use animkit_vm::engine::program::Language;
    /// assert_eq!(Language::Animator.module_kind(), ModuleKind::Drawing);
    /// ```
    pub const fn module_kind(self) -> ModuleKind {
        self.info().kind
    }

    /// The language of a module of kind `kind` (one language a kind).
    pub(crate) const fn of_kind(kind: ModuleKind) -> Language {
        LANGUAGES[kind as usize].0
    }

    /// How [`ModuleKind`]'s `Display` words a module of this language.
    pub(crate) const fn kind_words(self) -> &'static str {
        self.info().kind_words
    }

    /// The names joined with `sep` (`sprite|animator|slap`), for help texts.
    pub fn names(sep: &str) -> String {
        Language::ALL.map(Language::name).join(sep)
    }

    /// The extensions, dotted and joined with `sep` (`.anim, .draw, .slap`).
    pub fn extensions(sep: &str) -> String {
        Language::ALL.map(|l| format!(".{}", l.extension())).join(sep)
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a constant holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConstKind {
    /// A number.
    Num,
    /// The index of a string-table entry (stored as a whole number).
    Str,
}

/// A source position (1-based line and column) attached to an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineEntry {
    /// First instruction the position applies to (until the next entry).
    pub pc: u32,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub col: u32,
}

/// One function: code, constants and optional positions.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Function {
    /// Name (a macro's name, a module's `main`, ...).
    pub name: StrId,
    /// Registers in this function's window.
    pub nregs: u8,
    /// Instruction words.
    pub code: Vec<Insn>,
    /// Constant values; for a `Str` constant, the string id as a number.
    pub consts: Vec<f64>,
    /// The kind of each constant (same length as `consts`).
    pub kinds: Vec<ConstKind>,
    /// Debug positions, sorted by `pc`; empty when stripped.
    pub lines: Vec<LineEntry>,
}

impl Function {
    /// The source position of instruction `pc`, if debug info was kept.
    ///
    /// ```
    /// use animkit_vm::engine::program::{Function, LineEntry};
    /// let mut f = Function::default();
    /// f.lines = vec![LineEntry { pc: 0, line: 1, col: 1 }, LineEntry { pc: 3, line: 2, col: 5 }];
    /// assert_eq!(f.position(2), Some((1, 1)));
    /// assert_eq!(f.position(4), Some((2, 5)));
    /// ```
    pub fn position(&self, pc: u32) -> Option<(u32, u32)> {
        let i = self.lines.partition_point(|e| e.pc <= pc);
        let e = self.lines.get(i.checked_sub(1)?)?;
        Some((e.line, e.col))
    }

    /// Number of the constant at `index`, or 0.0 when out of range (never
    /// happens in a verified program).
    #[inline]
    pub fn num(&self, index: usize) -> f64 {
        self.consts.get(index).copied().unwrap_or(0.0)
    }
}

/// A sprite state: name, sprite category and where its code starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    /// Name used by `set_state`.
    pub name: StrId,
    /// Sprite category: the alias in `Name[Category]`, or the name itself.
    pub category: StrId,
    /// First instruction of the state, in the module's function 0.
    pub entry: u32,
}

/// One compiled source file.
#[derive(Clone, Debug, PartialEq)]
pub struct Module {
    /// Module name (the file stem).
    pub name: StrId,
    /// Source language.
    pub language: Language,
    /// Functions. A sprite module has exactly one, holding every state.
    pub functions: Vec<Function>,
    /// Sprite states (the names a sprite module exports); empty otherwise.
    pub states: Vec<State>,
    /// The function run when the module starts (Animator, SLAP).
    pub entry: Option<FuncId>,
    /// Source path for diagnostics, when debug info was kept.
    pub source: Option<String>,
}

/// A whole program: the string table and the modules.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Program {
    /// Every string: names, events, texts, paths.
    pub strings: Vec<String>,
    /// Modules, one per source file.
    pub modules: Vec<Module>,
}

impl Program {
    /// The string with id `id`, or `""` if out of range.
    pub fn string(&self, id: StrId) -> &str {
        self.strings.get(id as usize).map(String::as_str).unwrap_or("")
    }

    /// Looks a string up (linear; meant for set-up, not hot paths).
    pub fn find_string(&self, s: &str) -> Option<StrId> {
        self.strings.iter().position(|x| x == s).map(|i| i as StrId)
    }

    /// The module named `name`.
    pub fn module(&self, name: &str) -> Option<&Module> {
        self.modules.iter().find(|m| self.string(m.name) == name)
    }

    /// Drops every debug position and source path (`animc --strip`).
    pub fn strip(&mut self) {
        for m in &mut self.modules {
            m.source = None;
            for f in &mut m.functions {
                f.lines.clear();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{CodeForm, Language};
    use crate::game::ModuleKind;
    use crate::isa::OpClass;

    /// Every column of the language table, row by row: what the bundle
    /// format, `animc`, the verifier, the codec and the game API (its
    /// C ABI values included) were before the table held them.
    #[test]
    fn the_language_table_pins_every_column() {
        let rows: Vec<_> = Language::ALL
            .into_iter()
            .map(|l| {
                (
                    l,
                    l.to_byte(),
                    l.name(),
                    l.extension(),
                    l.op_class(),
                    l.code(),
                    l.timeline(),
                    l.module_kind(),
                    l.module_kind().to_string(),
                )
            })
            .collect();
        assert_eq!(
            rows,
            [
                (
                    Language::Sprite,
                    1,
                    "sprite",
                    "anim",
                    OpClass::Sprite,
                    CodeForm::Sprite,
                    false,
                    ModuleKind::Sprite,
                    "a sprite module".to_string()
                ),
                (
                    Language::Animator,
                    2,
                    "animator",
                    "draw",
                    OpClass::Animator,
                    CodeForm::Register,
                    false,
                    ModuleKind::Drawing,
                    "an Animator drawing".to_string()
                ),
                (
                    Language::Slap,
                    3,
                    "slap",
                    "slap",
                    OpClass::Slap,
                    CodeForm::Register,
                    true,
                    ModuleKind::Scene,
                    "a SLAP scene".to_string()
                ),
            ]
        );
        for l in Language::ALL {
            assert_eq!(l.module_kind().language(), l);
            assert_eq!(l.module_kind() as usize, l as usize);
            assert_eq!(OpClass::of(l), l.op_class());
        }
    }
}
