//! The Animator back half: the [`check`](check::Checker) that every command
//! goes through, the colours, the lowering and macro recorder shared by
//! `animc` and, through [`crate::stream`], `animvm`'s stream, and the
//! formatter behind `animc --fmt`; [`Animator`] is its [`FrontEnd`].

pub mod check;
mod checked;
pub mod colors;
#[cfg(test)]
mod command_table_tests;
pub mod format;
pub(crate) mod lower;
pub mod lsp;
mod row_ops;
mod sizes;

use crate::diagnostic::{Diagnostic, Kept};
use crate::front::{CheckedSource, FrontEnd, Lower, LowerCx};
use crate::lsp::document::Document;
use crate::lsp::occurrence::Occurrence;
use crate::lsp::site::Site;
use crate::source::{Options, Source};
use animkit_grammar::animator::{ReadError, Reader};
use animkit_vm::engine::program::{Language, Module};
use check::Text;
use checked::{CheckedFile, FileStrings};
use lsp_types::CompletionItem;

/// Animator's front end: the streaming reader over the whole text, each
/// command checked ([`check::Checker`]) and lowered into the file's
/// checked form (`checked::CheckedFile`) as it is read, and
/// [`format::format`].
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
        check_file(source, true)
    }

    fn check_with(&self, source: &Source, options: &Options) -> Result<CheckedSource, Vec<Diagnostic>> {
        check_file(source, !options.strip)
    }

    fn format(&self, source: &Source) -> Result<String, Vec<Diagnostic>> {
        let (commands, diags) = read(source);
        if !diags.is_empty() {
            return Err(diags);
        }
        Ok(format::format(&commands, Some(&source.text)))
    }

    fn source_nouns(&self) -> (&'static str, &'static str) {
        ("an Animator source", "Animator sources")
    }

    fn names(&self, text: &str) -> Vec<Occurrence> {
        lsp::names(text)
    }

    fn hover_name(&self, doc: &Document, all: &[Occurrence], name: &Occurrence, _: usize) -> Option<String> {
        lsp::hover_name(doc, all, name)
    }

    fn hover_word(&self, word: &str) -> Option<String> {
        lsp::hover_word(word)
    }

    fn complete(&self, doc: &Document, site: &Site<'_>) -> Vec<CompletionItem> {
        lsp::complete(doc, site)
    }
}

/// Reads `source` one command at a time, checks each, and lowers each the
/// checker accepts into the file's checked form (debug positions kept with
/// `keep_pos`) until the first error; nothing of the file is held but that
/// code and the errors. A file with errors gives every error.
fn check_file(source: &Source, keep_pos: bool) -> Result<CheckedSource, Vec<Diagnostic>> {
    let text = Text::of(&source.text);
    let mut checker = check::Checker::for_file();
    let mut errors = Kept::new();
    let mut read_failed = false;
    let mut strings = FileStrings::default();
    let mut lowering = lower::FileLowering::new(&mut strings);
    each_command(&source.text, |item| match item {
        Ok(cmd) => match checker.check(&cmd, text) {
            // Once a command failed the file has no code: lowering stops.
            Ok(c) if errors.is_empty() && !read_failed => lowering.add(c, &mut strings, keep_pos),
            Ok(_) => {}
            Err(r) => errors.push(*r.diagnostic),
        },
        Err(_) => read_failed = true,
    });
    if read_failed {
        // A file with read errors is read whole, as the grammar reads
        // it when the reader fails, and everything read is checked, so
        // that every error is reported at once.
        return Err(check_whole(source));
    }
    errors.extend(checker.finish().map(|r| *r.diagnostic));
    if errors.is_empty() {
        Ok(CheckedSource::new(CheckedFile::new(lowering.functions(), strings)))
    } else {
        Err(errors.finish())
    }
}

/// The diagnostics of a file with read errors: its read errors and the
/// errors of every command that was read, in source order.
fn check_whole(source: &Source) -> Vec<Diagnostic> {
    let (commands, diags) = read(source);
    let checked = check::check_script(commands, Text::of(&source.text));
    crate::front::merge_read_and_check(diags, checked).err().unwrap_or_default()
}

/// How much of the text the reader is given at a time.
const CHUNK: usize = 64 * 1024;

/// Reads `text` one command at a time, giving the reader a chunk at a time
/// (it holds the pending command and one chunk, not the file).
fn each_command(text: &str, mut f: impl FnMut(Result<animkit_grammar::animator::Command, ReadError>)) {
    let bytes = text.as_bytes();
    let mut reader = Reader::new();
    let mut fed = 0;
    if bytes.is_empty() {
        reader.finish();
    }
    loop {
        match reader.next() {
            Some(item) => f(item),
            None if fed < bytes.len() => {
                let end = (fed + CHUNK).min(bytes.len());
                reader.push(&bytes[fed..end]);
                fed = end;
                if fed == bytes.len() {
                    reader.finish();
                }
            }
            None => break,
        }
    }
}

impl Lower for CheckedFile {
    fn lower(self: Box<Self>, cx: LowerCx<'_>) -> Module {
        let keep_pos = cx.keep_positions();
        self.into_module(&cx.module_name(), cx.builder, keep_pos)
    }
}

impl Lower for check::Script {
    fn lower(self: Box<Self>, cx: LowerCx<'_>) -> Module {
        lower::lower_script(&self, &cx.module_name(), cx.builder, cx.keep_positions())
    }
}
