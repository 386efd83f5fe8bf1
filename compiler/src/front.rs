//! The front-end interface: what each language gives the driver, so that a
//! language is added in one place ([`crate::languages::FRONT_ENDS`]) plus
//! its folders.
//!
//! A front end parses and checks one source into an IR that cannot fail to
//! lower, plus warnings ([`FrontEnd::check`]); that half is independent per
//! file, so the driver runs it on several threads. Lowering ([`Lower`])
//! then runs in file order into one [`ProgramBuilder`], because string ids
//! depend on the order. [`FrontEnd::format`] is `animc --fmt`.
//!
//! # How a language plugs in
//!
//! 1. A row in the language table (`animkit_vm::engine::program`, `LANGUAGES`):
//!    its bundle byte, name and extension.
//! 2. `grammar/<language>/`: lexer, grammar, AST with spans.
//! 3. `compiler/src/<language>/`: `check.rs` (AST to IR, every error and
//!    warning), `lower.rs` (IR to bytecode, infallible, honouring
//!    [`crate::Options::fold`]), `format.rs`, and a unit struct
//!    implementing [`FrontEnd`] (its IR implementing [`Lower`]), listed in
//!    [`crate::languages::FRONT_ENDS`]: its `check`, `format` and `source_nouns`, and where it
//!    has them its string limit and the language server's `names`,
//!    `hover_name`, `hover_word` and `complete` (in `lsp.rs` of the
//!    folder).

use crate::builder::ProgramBuilder;
use crate::diagnostic::Diagnostic;
use crate::lsp::document::Document;
use crate::lsp::occurrence::Occurrence;
use crate::lsp::site::Site;
use crate::source::{Options, Source};
use animkit_vm::engine::program::{Language, Module};
use lsp_types::CompletionItem;

/// One language's front half and formatter.
pub trait FrontEnd: Sync {
    /// The language it reads.
    fn language(&self) -> Language;

    /// Parses and checks `source`: its IR and warnings, or every
    /// diagnostic (errors, and any warnings found on the way) in source
    /// order. No shared state: the driver calls it on several threads.
    fn check(&self, source: &Source) -> Result<CheckedSource, Vec<Diagnostic>>;

    /// [`FrontEnd::check`] under `options`: a language with extensions
    /// refuses them when [`Options::strict`] is set (SLAP); the others
    /// have nothing to refuse.
    fn check_with(&self, source: &Source, options: &Options) -> Result<CheckedSource, Vec<Diagnostic>> {
        let _ = options;
        self.check(source)
    }

    /// `source` in the language's canonical layout (`animc --fmt`). Only
    /// syntax errors stop formatting; the rest is the checker's business.
    fn format(&self, source: &Source) -> Result<String, Vec<Diagnostic>>;

    /// How `animc` names one source and several of the language when it
    /// refuses an option for them (`a SLAP source`, `SLAP sources`).
    fn source_nouns(&self) -> (&'static str, &'static str);

    /// The most strings a program with a module of the language may hold,
    /// and what refers to them (`sprite events`), if the language's code
    /// limits them. Default: no limit.
    fn max_strings(&self) -> Option<(usize, &'static str)> {
        None
    }

    /// The language server: every name written in `text` (definitions and
    /// uses), in source order, from the language's own parser. Default:
    /// none (no navigation, rename or name hover).
    fn names(&self, text: &str) -> Vec<Occurrence> {
        let _ = text;
        Vec::new()
    }

    /// The language server: the hover of the name `name` (one of `all`,
    /// the document's [`FrontEnd::names`]) under byte `offset`. Default:
    /// none.
    fn hover_name(&self, doc: &Document, all: &[Occurrence], name: &Occurrence, offset: usize) -> Option<String> {
        let _ = (doc, all, name, offset);
        None
    }

    /// The language server: the hover of a word that is no name (a
    /// command, a keyword). Default: none.
    fn hover_word(&self, word: &str) -> Option<String> {
        let _ = word;
        None
    }

    /// The language server: the completions at `site`. Default: none.
    fn complete(&self, doc: &Document, site: &Site<'_>) -> Vec<CompletionItem> {
        let _ = (doc, site);
        Vec::new()
    }
}

/// A checked source: its IR, ready to lower, and the warnings its check
/// found.
pub struct CheckedSource {
    /// The IR.
    pub ir: Box<dyn Lower>,
    /// Warnings (`Severity::Warning`), in source order.
    pub warnings: Vec<Diagnostic>,
}

impl CheckedSource {
    /// An IR without warnings.
    pub fn new(ir: impl Lower + 'static) -> CheckedSource {
        CheckedSource { ir: Box::new(ir), warnings: Vec::new() }
    }
}

/// The IR of a checked source. Lowering never fails: everything that could
/// stop it was reported by the check.
pub trait Lower: Send {
    /// Lowers into the program being built; the module it returns is
    /// pushed by the driver (which also records the source path).
    fn lower(self: Box<Self>, cx: LowerCx<'_>) -> Module;
}

/// What lowering one source gets.
pub struct LowerCx<'a> {
    /// The program being built (string table, constants).
    pub builder: &'a mut ProgramBuilder,
    /// The source the IR came from (for debug positions).
    pub source: &'a Source,
    /// The compilation options (`strip`, `fold`).
    pub options: &'a Options,
}

impl LowerCx<'_> {
    /// The module's name: the file stem.
    pub fn module_name(&self) -> String {
        self.source.module_name()
    }

    /// True unless `--strip`: debug positions go into the bundle.
    pub fn keep_positions(&self) -> bool {
        !self.options.strip
    }
}

/// A front end's result from the errors of reading a source (`read`, those
/// of the lines or commands that did not parse) and the check of what was
/// read (`checked`): the check's value when both are clean, else every
/// error of both in source order. A check that passes beside read errors
/// still fails the source (what failed to read is not in it).
pub(crate) fn merge_read_and_check<T>(
    mut read: Vec<Diagnostic>,
    checked: Result<T, Vec<Diagnostic>>,
) -> Result<T, Vec<Diagnostic>> {
    match checked {
        Ok(value) if read.is_empty() => Ok(value),
        Ok(_) => Err(read),
        Err(more) => {
            read.extend(more);
            read.sort_by_key(|d| d.span.start);
            Err(read)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::languages::front_end;

    /// A front end that gives the language server nothing of its own.
    struct Bare;

    impl FrontEnd for Bare {
        fn language(&self) -> Language {
            Language::Sprite
        }
        fn check(&self, _: &Source) -> Result<CheckedSource, Vec<Diagnostic>> {
            Err(Vec::new())
        }
        fn format(&self, source: &Source) -> Result<String, Vec<Diagnostic>> {
            Ok(source.text.clone())
        }
        fn source_nouns(&self) -> (&'static str, &'static str) {
            ("a bare source", "bare sources")
        }
    }

    #[test]
    fn the_language_server_methods_default_to_nothing() {
        let text = "Walk: 5, Walk\n";
        let doc = Document::new(text.into(), 1, Language::Sprite);
        let site = Site { text, line_start: 0, before: "Walk: 5, ", words: &["Walk:", "5,"] };
        assert_eq!(Bare.names(text), []);
        assert_eq!(Bare.hover_word("Walk"), None);
        assert!(Bare.complete(&doc, &site).is_empty());
        assert_eq!(Bare.max_strings(), None);
        // The sprite front end, on the same document, has each.
        let sprite = front_end(Language::Sprite).unwrap();
        let names = sprite.names(text);
        assert_eq!(
            names.iter().map(|o| (o.name.as_str(), o.span.start, o.def)).collect::<Vec<_>>(),
            [("Walk", 0, true), ("Walk", 9, false)]
        );
        assert_eq!(Bare.hover_name(&doc, &names, &names[0], 0), None);
        assert_eq!(
            sprite.hover_name(&doc, &names, &names[0], 0).as_deref(),
            Some("state `Walk`: 1 frame, 5 ticks in all, then `Walk`")
        );
        assert_eq!(sprite.complete(&doc, &site).first().map(|i| i.label.as_str()), Some("Walk"));
    }
}

#[cfg(test)]
mod examples {
    #[test]
    fn front_ends_check_and_warn() {
        use crate::Source;
        use crate::languages::front_end;
        use animkit_vm::engine::program::Language;
        let animator = front_end(Language::Animator).unwrap();
        let checked = animator.check(&Source::new("a.draw", "line 0 0 1 1\n")).unwrap();
        assert!(checked.warnings.is_empty());
        assert!(animator.check(&Source::new("a.draw", "line 0 0 1\n")).is_err());
        let slap = front_end(Language::Slap).unwrap();
        let checked = slap.check(&Source::new("a.slap", "time 10\ntime 5\n")).unwrap();
        assert_eq!(checked.warnings.len(), 1); // time going back
    }

    use super::merge_read_and_check;
    use crate::diagnostic::Diagnostic;

    fn at(start: usize) -> Diagnostic {
        Diagnostic::error(animkit_grammar::Span::new(start, start + 1), format!("at {start}"), "here")
    }

    #[test]
    fn read_and_check_errors_merge_in_source_order() {
        let starts = |r: Result<(), Vec<Diagnostic>>| r.unwrap_err().iter().map(|d| d.span.start).collect::<Vec<_>>();
        assert_eq!(merge_read_and_check(vec![], Ok(7)).unwrap(), 7);
        assert_eq!(starts(merge_read_and_check(vec![at(5)], Ok(()))), [5]);
        assert_eq!(starts(merge_read_and_check(vec![at(9), at(2)], Err(vec![at(4), at(1)]))), [1, 2, 4, 9]);
        assert_eq!(starts(merge_read_and_check(vec![], Err(vec![at(3)]))), [3]);
    }
}
