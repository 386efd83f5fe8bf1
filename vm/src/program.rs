//! The in-memory program: what the compiler builds, what a bundle decodes
//! to, and what the interpreter runs once the verifier has accepted it.

use crate::isa::Insn;
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

/// One row of the language table: everything that names a language.
#[derive(Clone, Copy, Debug)]
struct LanguageInfo {
    /// The byte stored in bundles.
    byte: u8,
    /// Lower-case name, as `animc --lang` spells it.
    name: &'static str,
    /// File extension of its sources, without the dot.
    extension: &'static str,
}

/// The language table: the one place a language's byte, name and extension
/// are spelled. Everything else (`animc --lang`, extensions, bundle bytes,
/// help texts) is derived from it.
const LANGUAGES: [(Language, LanguageInfo); 3] = [
    (Language::Sprite, LanguageInfo { byte: 1, name: "sprite", extension: "anim" }),
    (Language::Animator, LanguageInfo { byte: 2, name: "animator", extension: "draw" }),
    (Language::Slap, LanguageInfo { byte: 3, name: "slap", extension: "slap" }),
];

impl Language {
    /// Every language, in table order.
    pub const ALL: [Language; 3] = [LANGUAGES[0].0, LANGUAGES[1].0, LANGUAGES[2].0];

    const fn info(self) -> &'static LanguageInfo {
        &LANGUAGES[self as usize].1
    }

    /// The byte stored in bundles.
    ///
    /// ```
    /// use animkit_vm::program::Language;
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
    /// use animkit_vm::program::Language;
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
    /// use animkit_vm::program::Language;
    /// assert_eq!(Language::from_extension("slap"), Some(Language::Slap));
    /// assert_eq!(Language::from_extension("txt"), None);
    /// ```
    pub fn from_extension(extension: &str) -> Option<Language> {
        Language::ALL.into_iter().find(|l| l.extension() == extension)
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
    /// use animkit_vm::program::{Function, LineEntry};
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
