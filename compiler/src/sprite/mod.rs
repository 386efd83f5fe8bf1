//! The sprite DSL back half. [`Sprite`], its [`FrontEnd`], checks a
//! well-formed file in one pass without a tree ([`flat::check`]) into the
//! compact [`flat::FlatIr`], which [`lower::lower_flat`] turns into code;
//! any other file is parsed into a tree, [`check`](check::check)ed into
//! [`ir::SpriteIr`] with every error reported, and made compact
//! ([`flat::FlatIr::from_ir`]). [`compile_by_tree`] is the tree path alone,
//! with [`lower::lower`], the reference the one-pass path is tested against.

pub mod check;
pub mod flat;
pub mod format;
pub mod ir;
pub mod lower;
pub mod lsp;
pub mod sizes;

use crate::builder::ProgramBuilder;
use crate::diagnostic::{Diagnostic, LineIndex};
use crate::driver::{Options, Source};
use crate::front::{CheckedSource, FrontEnd, Lower, LowerCx};
use crate::lsp::complete::Site;
use crate::lsp::document::Document;
use crate::lsp::symbols::Occurrence;
use animkit_vm::engine::program::{Language, Module, Program};
use lsp_types::CompletionItem;

/// The sprite DSL's front end: [`flat::check`], or the LALRPOP grammar
/// (with its fast path) and [`check::check_partial`]; [`lower::lower_flat`]
/// and [`format::format`].
#[derive(Clone, Copy, Debug)]
pub struct Sprite;

/// The tree-based path alone, which [`Sprite`]'s one-pass check
/// ([`flat::check`]) stands in for on files it knows: the tree, the full
/// checker and the tree lowering, as one file's program or its
/// diagnostics. `tests/sprite_flat.rs` compares the two.
pub fn compile_by_tree(source: &Source, options: &Options) -> Result<Program, Vec<Diagnostic>> {
    let ir = by_tree(source)?;
    let mut b = ProgramBuilder::new();
    let index = LineIndex::new(&source.text);
    let lines = (!options.strip).then_some(&index);
    let mut module = lower::lower(&ir, &source.module_name(), &mut b, lines);
    if !options.strip {
        module.source = Some(source.path.clone());
    }
    b.program_mut().modules.push(module);
    Ok(b.finish())
}

/// Tree and full checker: the IR, or every diagnostic in source order.
fn by_tree(source: &Source) -> Result<ir::SpriteIr, Vec<Diagnostic>> {
    let (ast, syntax) = animkit_grammar::sprite::parse(&source.text);
    let diags: Vec<Diagnostic> = syntax.into_iter().map(Diagnostic::from).collect();
    // Errors inside lines that failed to parse are already reported; the
    // checker only sees the lines that parsed.
    let checked = check::check_partial(&ast, !diags.is_empty());
    crate::front::merge_read_and_check(diags, checked)
}

impl FrontEnd for Sprite {
    fn language(&self) -> Language {
        Language::Sprite
    }

    fn check(&self, source: &Source) -> Result<CheckedSource, Vec<Diagnostic>> {
        // Nearly every file a build sees is well formed: one pass, no tree.
        if let Some(result) = flat::check(&source.text) {
            return result.map(CheckedSource::new);
        }
        // A file with errors and no syntax error: checked as it is read,
        // no tree (a tree costs over a hundred bytes a frame).
        if let Some(diagnostics) = check::check_streaming(&source.text) {
            return Err(diagnostics);
        }
        let ir = by_tree(source)?;
        Ok(CheckedSource::new(flat::FlatIr::from_ir(&ir)))
    }

    fn format(&self, source: &Source) -> Result<String, Vec<Diagnostic>> {
        let (ast, syntax) = animkit_grammar::sprite::parse(&source.text);
        if !syntax.is_empty() {
            return Err(syntax.into_iter().map(Diagnostic::from).collect());
        }
        Ok(format::format(&ast, Some(&source.text)))
    }

    fn source_nouns(&self) -> (&'static str, &'static str) {
        ("a sprite source", "sprite sources")
    }

    fn max_strings(&self) -> Option<(usize, &'static str)> {
        // `EVENT` names its string in a 24-bit field.
        Some((animkit_vm::engine::isa::MAX_AX as usize + 1, "sprite events"))
    }

    fn names(&self, text: &str) -> Vec<Occurrence> {
        lsp::names(text)
    }

    fn hover_name(&self, doc: &Document, _: &[Occurrence], name: &Occurrence, _: usize) -> Option<String> {
        lsp::hover_name(doc, name)
    }

    fn complete(&self, _: &Document, site: &Site<'_>) -> Vec<CompletionItem> {
        lsp::complete(site)
    }
}

impl Lower for flat::FlatIr {
    fn lower(self: Box<Self>, cx: LowerCx<'_>) -> Module {
        let src = cx.keep_positions().then_some(cx.source.text.as_str());
        lower::lower_flat(&self, &cx.module_name(), cx.builder, src)
    }
}
