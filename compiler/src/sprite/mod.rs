//! The sprite DSL back half: [`check`](check::check) the AST into
//! [`ir::SpriteIr`], then [`lower`](lower::lower) it to bytecode; [`Sprite`]
//! is its [`FrontEnd`].

pub mod check;
pub mod format;
pub mod ir;
pub mod lower;

use crate::diagnostic::{Diagnostic, LineIndex};
use crate::driver::Source;
use crate::front::{CheckedSource, FrontEnd, Lower, LowerCx};
use animkit_vm::program::{Language, Module};

/// The sprite DSL's front end: the LALRPOP grammar (with its fast path),
/// [`check::check_partial`], [`lower::lower`] and [`format::format`].
#[derive(Clone, Copy, Debug)]
pub struct Sprite;

impl FrontEnd for Sprite {
    fn language(&self) -> Language {
        Language::Sprite
    }

    fn check(&self, source: &Source) -> Result<CheckedSource, Vec<Diagnostic>> {
        let (ast, syntax) = animkit_grammar::sprite::parse(&source.text);
        let mut diags: Vec<Diagnostic> = syntax.into_iter().map(Diagnostic::from).collect();
        match check::check_partial(&ast, !diags.is_empty()) {
            Ok(ir) if diags.is_empty() => Ok(CheckedSource::new(ir)),
            Ok(_) => Err(diags),
            Err(more) => {
                // Errors inside lines that failed to parse are already
                // reported; the checker only sees the lines that parsed.
                diags.extend(more);
                diags.sort_by_key(|d| d.span.start);
                Err(diags)
            }
        }
    }

    fn format(&self, source: &Source) -> Result<String, Vec<Diagnostic>> {
        let (ast, syntax) = animkit_grammar::sprite::parse(&source.text);
        if !syntax.is_empty() {
            return Err(syntax.into_iter().map(Diagnostic::from).collect());
        }
        Ok(format::format(&ast, Some(&source.text)))
    }
}

impl Lower for ir::SpriteIr {
    fn lower(self: Box<Self>, cx: LowerCx<'_>) -> Module {
        let index = LineIndex::new(&cx.source.text);
        let lines = cx.keep_positions().then_some(&index);
        lower::lower(&self, &cx.module_name(), cx.builder, lines)
    }
}
