//! Go to definition, find references and rename, over
//! [`symbols::occurrences`].

use super::document::Document;
use super::server::{Failure, invalid};
use super::symbols::{self, Kind, Occurrence};
use lsp_types::{Location, TextEdit, Uri, WorkspaceEdit};
use std::collections::HashMap;

fn same<'a>(all: &'a [Occurrence], of: &Occurrence) -> impl Iterator<Item = &'a Occurrence> {
    let (kind, name) = (of.kind, of.name.clone());
    all.iter().filter(move |o| o.kind == kind && o.name == name)
}

fn location(doc: &Document, uri: &Uri, o: &Occurrence) -> Location {
    Location { uri: uri.clone(), range: doc.lines.range(&doc.text, o.span.start, o.span.end) }
}

/// Where the name at `offset` is defined (its first definition); `None`
/// off a name or for a name never defined (a state that does not exist).
pub fn definition(doc: &Document, uri: &Uri, offset: usize) -> Option<Location> {
    let all = symbols::occurrences(doc.language, &doc.text);
    let here = symbols::at(&all, offset)?;
    let def = same(&all, here).find(|o| o.def)?;
    Some(location(doc, uri, def))
}

/// Every place the name at `offset` is written, definitions only if
/// `declarations`; empty off a name.
pub fn references(doc: &Document, uri: &Uri, offset: usize, declarations: bool) -> Vec<Location> {
    let all = symbols::occurrences(doc.language, &doc.text);
    let Some(here) = symbols::at(&all, offset) else { return Vec::new() };
    same(&all, here).filter(|o| declarations || !o.def).map(|o| location(doc, uri, o)).collect()
}

/// Renames the name at `offset` everywhere to `new_name`, if that is a
/// name of the same sort (a word for names, a whole number for actors)
/// and not taken by another of the same sort.
pub fn rename(doc: &Document, uri: &Uri, offset: usize, new_name: &str) -> Result<Option<WorkspaceEdit>, Failure> {
    let all = symbols::occurrences(doc.language, &doc.text);
    let Some(here) = symbols::at(&all, offset) else {
        return Err(invalid("no state, alias, macro, define or actor here to rename"));
    };
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let valid = match here.kind {
        Kind::Actor => !new_name.is_empty() && new_name.bytes().all(|b| b.is_ascii_digit()),
        Kind::Macro => !new_name.is_empty() && !new_name.contains(|c: char| c.is_whitespace() || c == '"'),
        _ => {
            new_name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || (c == '_' && here.kind != Kind::State))
                && new_name.chars().all(word)
        }
    };
    if !valid {
        return Err(invalid(format!("`{new_name}` cannot name {}", describe(here.kind))));
    }
    if new_name != here.name && all.iter().any(|o| o.kind == here.kind && o.name == new_name) {
        return Err(invalid(format!("there is already {} named `{new_name}`", describe(here.kind))));
    }
    let edits: Vec<TextEdit> = same(&all, here)
        .map(|o| TextEdit { range: doc.lines.range(&doc.text, o.span.start, o.span.end), new_text: new_name.into() })
        .collect();
    Ok(Some(WorkspaceEdit { changes: Some(HashMap::from([(uri.clone(), edits)])), ..Default::default() }))
}

fn describe(kind: Kind) -> &'static str {
    match kind {
        Kind::State => "a state",
        Kind::Alias => "an alias",
        Kind::Macro => "a macro",
        Kind::Define => "a define",
        Kind::Actor => "an actor",
    }
}
