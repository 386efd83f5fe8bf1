//! The Animator back half: the [`check`](check::Checker) that every command
//! goes through, the colours, the lowering and macro recorder shared by
//! `animc` and, through [`crate::stream`], `animvm`'s stream, and the
//! formatter behind `animc --fmt`; [`Animator`] is its [`FrontEnd`].

pub mod check;
pub mod colors;
pub mod format;
pub(crate) mod lower;

use crate::diagnostic::Diagnostic;
use crate::driver::Source;
use crate::front::{CheckedSource, FrontEnd, Lower, LowerCx};
use animkit_vm::program::{Language, Module};
use check::Text;

/// Animator's front end: the streaming reader over the whole text,
/// [`check::check_script`], [`lower::lower_script`] and [`format::format`].
#[derive(Clone, Copy, Debug)]
pub struct Animator;

/// Reads `source`: its commands, and its read errors as diagnostics
/// (suggestions added).
fn read(source: &Source) -> (Vec<animkit_grammar::animator::Command>, Vec<Diagnostic>) {
    let (commands, errors) = animkit_grammar::animator::parse_with_pos(&source.text);
    let text = Text::of(&source.text);
    (commands, errors.iter().map(|e| check::read_error(e, text)).collect())
}

impl FrontEnd for Animator {
    fn language(&self) -> Language {
        Language::Animator
    }

    fn check(&self, source: &Source) -> Result<CheckedSource, Vec<Diagnostic>> {
        let (commands, diags) = read(source);
        // The commands that were read are checked even beside read errors,
        // so that a file reports every error at once.
        let checked = check::check_script(commands, Text::of(&source.text));
        crate::front::merge_read_and_check(diags, checked).map(CheckedSource::new)
    }

    fn format(&self, source: &Source) -> Result<String, Vec<Diagnostic>> {
        let (commands, diags) = read(source);
        if !diags.is_empty() {
            return Err(diags);
        }
        Ok(format::format(&commands, Some(&source.text)))
    }
}

impl Lower for check::Script {
    fn lower(self: Box<Self>, cx: LowerCx<'_>) -> Module {
        lower::lower_script(&self, &cx.module_name(), cx.builder, cx.keep_positions())
    }
}
