//! Completion by position: sprite state names (and the end behaviours)
//! where a transition may stand, Animator commands at a line's start,
//! macro names and flag words after the commands that take them, SLAP
//! directives, attributes, define names and the twelve actions.

use super::document::Document;
use super::hover::{SLAP_FORMS, action_text};
use super::symbols::{self, Kind};
use animkit_grammar::animator::lexer::Keyword;
use animkit_vm::program::Language;
use animkit_vm::slap::actions::Action;
use lsp_types::{CompletionItem, CompletionItemKind};

fn item(label: &str, kind: CompletionItemKind, detail: Option<String>) -> CompletionItem {
    CompletionItem { label: label.into(), kind: Some(kind), detail, ..Default::default() }
}

fn names(doc: &Document, kind: Kind) -> Vec<String> {
    // Each name once, in time linear in the names (a hash set, not a
    // search of the list).
    let mut out: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for o in symbols::occurrences(doc.language, &doc.text) {
        if o.kind == kind && o.def && seen.insert(o.name.clone()) {
            out.push(o.name);
        }
    }
    out
}

/// The completions at byte `offset`.
pub fn complete(doc: &Document, offset: usize) -> Vec<CompletionItem> {
    let text = doc.text.as_str();
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let before = text[line_start..offset].split('#').next().unwrap_or("");
    // The words before the one being typed.
    let mut words: Vec<&str> = before.split_whitespace().collect();
    if !before.ends_with(char::is_whitespace) && !words.is_empty() {
        words.pop();
    }
    match doc.language {
        Language::Sprite => sprite(text, line_start, before),
        Language::Animator => animator(doc, &words),
        Language::Slap => slap(doc, &words),
    }
}

fn sprite(text: &str, line_start: usize, before: &str) -> Vec<CompletionItem> {
    // A transition stands where a frame does: after the `:` and a `,`,
    // not inside a `D|I|event` frame.
    let Some((name, frames)) = before.split_once(':') else { return Vec::new() };
    let current = frames.rsplit(',').next().unwrap_or("");
    if current.contains('|') {
        return Vec::new();
    }
    // The line being typed rarely parses (`Walk: 5, `) and its error can
    // spill into the next line, so the other lines are parsed without it,
    // and its own state name is taken from before its `:`.
    let line_end = text[line_start..].find('\n').map_or(text.len(), |i| line_start + i + 1);
    let rest = format!("{}{}", &text[..line_start], &text[line_end..]);
    let mut states: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut own = Some(name.trim()).filter(|n| !n.is_empty());
    for o in symbols::occurrences(Language::Sprite, &rest) {
        if o.kind != Kind::State || !o.def {
            continue;
        }
        if o.span.start >= line_start
            && let Some(n) = own.take()
            && seen.insert(n.to_owned())
        {
            states.push(n.to_owned());
        }
        if seen.insert(o.name.clone()) {
            states.push(o.name);
        }
    }
    if let Some(n) = own
        && seen.insert(n.to_owned())
    {
        states.push(n.to_owned());
    }
    let mut out: Vec<CompletionItem> =
        states.iter().map(|n| item(n, CompletionItemKind::ENUM_MEMBER, Some("state".into()))).collect();
    out.extend(
        crate::sprite::check::SPECIALS
            .iter()
            .map(|s| item(s, CompletionItemKind::KEYWORD, Some("end behaviour".into()))),
    );
    out
}

fn animator(doc: &Document, words: &[&str]) -> Vec<CompletionItem> {
    let flags = |list: &[&str]| list.iter().map(|w| item(w, CompletionItemKind::KEYWORD, None)).collect();
    match words {
        [] => Keyword::ALL
            .iter()
            .map(|k| {
                let (forms, _) = animkit_grammar::animator::reader::command_signature(*k);
                item(k.as_str(), CompletionItemKind::FUNCTION, forms.first().cloned())
            })
            .collect(),
        ["invoke", ..] | ["viewport"] | ["viewport", "aspect"] | ["macro", "push"] => names(doc, Kind::Macro)
            .iter()
            .map(|n| item(n, CompletionItemKind::FUNCTION, Some("macro".into())))
            .collect(),
        ["keepalive" | "events" | "aspect"] => flags(&["on", "off"]),
        ["text" | "blit"] => flags(&["left", "center", "right"]),
        ["text" | "blit", "left" | "center" | "right"] => flags(&["bottom", "center", "top"]),
        ["macro"] => flags(&["push"]),
        ["warp"] => flags(&["area"]),
        _ => Vec::new(),
    }
}

fn slap(doc: &Document, words: &[&str]) -> Vec<CompletionItem> {
    let defines = || -> Vec<CompletionItem> {
        names(doc, Kind::Define).iter().map(|n| item(n, CompletionItemKind::CONSTANT, Some("define".into()))).collect()
    };
    let forms = |list: &[&str]| -> Vec<CompletionItem> {
        SLAP_FORMS
            .iter()
            .filter(|f| list.contains(&f.0))
            .map(|f| item(f.0, CompletionItemKind::KEYWORD, Some(f.1.into())))
            .collect()
    };
    match words {
        [] => forms(&crate::slap::check::DIRECTIVES),
        ["actor", _] => forms(&crate::slap::check::ACTOR_ATTRIBUTES),
        ["camera"] => forms(&crate::slap::check::CAMERA_ATTRIBUTES),
        ["actor", _, "action"] => {
            let mut out: Vec<CompletionItem> = Action::ALL
                .iter()
                .map(|a| item(a.name(), CompletionItemKind::ENUM_MEMBER, Some(action_text(*a))))
                .collect();
            out.extend(defines());
            out
        }
        ["define"] => Vec::new(),
        _ => defines(),
    }
}
