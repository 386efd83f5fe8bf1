//! The SLAP back half: [`check`](check::check) the AST into
//! [`ir::SceneIr`] (evaluating every define, argument and time),
//! [`lower`](lower::lower) it to one straight-line function of bytecode,
//! and [`format`](format::format) it for `animc --fmt`; [`Slap`] is its
//! [`FrontEnd`].
//!
//! ```
//! let checked = animkit_compiler::slap::front("define red 1 0 0\nactor 1 color red\ntime 10\n").unwrap();
//! assert_eq!(checked.ir.length, 10);
//! assert!(checked.warnings.is_empty());
//! ```

pub mod check;
pub mod format;
pub mod func;
pub mod include;
pub mod ir;
pub mod lower;
pub mod lsp;

use crate::diagnostic::{Diagnostic, LineIndex};
use crate::front::{CheckedSource, FrontEnd, Lower, LowerCx};
use crate::lsp::document::Document;
use crate::lsp::occurrence::Occurrence;
use crate::lsp::site::Site;
use crate::source::Source;
use animkit_vm::engine::program::{Language, Module};
pub use check::CheckedScene;
use lsp_types::CompletionItem;

/// SLAP's front end: the LALRPOP grammar (with its fast path),
/// [`check::check`], [`lower::lower`] and [`format::format`].
#[derive(Clone, Copy, Debug)]
pub struct Slap;

impl FrontEnd for Slap {
    fn language(&self) -> Language {
        Language::Slap
    }

    fn check(&self, source: &Source) -> Result<CheckedSource, Vec<Diagnostic>> {
        self.check_with(source, &crate::Options::default())
    }

    fn check_with(&self, source: &Source, options: &crate::Options) -> Result<CheckedSource, Vec<Diagnostic>> {
        let limits = check::SlapLimits { strict: options.strict, ..check::SlapLimits::default() };
        let loaded = load(&source.path, &source.text, &limits, &include::FsLoader);
        let (timeline, warnings) = check::check_timeline(&source.text, &loaded, &limits)?;
        Ok(CheckedSource { ir: Box::new(timeline), warnings })
    }

    fn format(&self, source: &Source) -> Result<String, Vec<Diagnostic>> {
        let (ast, syntax) = animkit_grammar::slap::parse(&source.text);
        if !syntax.is_empty() {
            return Err(syntax.into_iter().map(Diagnostic::from).collect());
        }
        Ok(format::format(&ast, Some(&source.text)))
    }

    fn source_nouns(&self) -> (&'static str, &'static str) {
        ("a SLAP source", "SLAP sources")
    }

    fn names(&self, text: &str) -> Vec<Occurrence> {
        lsp::names(text)
    }

    fn hover_name(&self, doc: &Document, all: &[Occurrence], name: &Occurrence, offset: usize) -> Option<String> {
        lsp::hover_name(doc, all, name, offset)
    }

    fn hover_word(&self, word: &str) -> Option<String> {
        lsp::hover_word(word)
    }

    fn complete(&self, doc: &Document, site: &Site<'_>) -> Vec<CompletionItem> {
        lsp::complete(doc, site)
    }
}

impl Lower for ir::SceneIr {
    fn lower(self: Box<Self>, cx: LowerCx<'_>) -> Module {
        let index = cx.keep_positions().then(|| LineIndex::new(&cx.source.text));
        lower::lower(&self, &cx.module_name(), cx.builder, index.as_ref(), cx.options.fold)
    }
}

impl Lower for ir::Timeline {
    fn lower(self: Box<Self>, cx: LowerCx<'_>) -> Module {
        let index = cx.keep_positions().then(|| LineIndex::new(&cx.source.text));
        lower::lower_timeline(&self, &cx.module_name(), cx.builder, index.as_ref(), cx.options.fold)
    }
}

/// Parses and checks one SLAP source: the scene and its warnings, or every
/// syntax error, check error and warning, in source order. Lines that
/// failed to parse are left out of the check (what they define is
/// unknown, so their mistakes are not reported twice). Includes are read
/// relative to the current directory ([`front_at`] says from where).
pub fn front(src: &str) -> Result<CheckedScene, Vec<Diagnostic>> {
    front_with(src, &check::SlapLimits::default())
}

/// [`front`] with the given limits.
pub fn front_with(src: &str, limits: &check::SlapLimits) -> Result<CheckedScene, Vec<Diagnostic>> {
    front_at("-", src, limits, &include::FsLoader)
}

/// [`front`] for the scene `src` at `path` (includes are relative to its
/// directory; `-` for the current one), reading included files with
/// `loader`. Diagnostics in an included file carry it
/// ([`Diagnostic::file`]); they are ordered where its `include` stands.
///
/// ```
/// use std::collections::HashMap;
/// use animkit_compiler::slap::{check::SlapLimits, front_at};
/// let files = HashMap::from([("scenes/lib.slap".to_string(), "define red 1 0 0\n".to_string())]);
/// let src = "include <polly>\ninclude \"lib.slap\"\nactor 1 color red\nactor 1 action swagger\n";
/// let scene = front_at("scenes/main.slap", src, &SlapLimits::default(), &files).unwrap().ir;
/// assert_eq!(scene.commands.len(), 2);
/// ```
pub fn front_at(
    path: &str,
    src: &str,
    limits: &check::SlapLimits,
    loader: &dyn include::Loader,
) -> Result<CheckedScene, Vec<Diagnostic>> {
    let loaded = load(path, src, limits, loader);
    check::check_scene(src, &loaded, limits)
}

/// The files the scene `src` at `path` includes.
fn load(path: &str, src: &str, limits: &check::SlapLimits, loader: &dyn include::Loader) -> include::Loaded {
    // In spec-only mode an `include` is refused, not read.
    if limits.strict || !src.contains("include") {
        include::Loaded::default()
    } else {
        include::load(path, src, loader)
    }
}
