//! Animator in the language server: its names (macros, defined and
//! invoked), the hover of a macro or a command word, and the completion of
//! commands, macro names and flag words. The
//! `FrontEnd` methods of [`super::Animator`]
//! call these.

use crate::lsp::document::Document;
use crate::lsp::hover::line_of;
use crate::lsp::occurrence::{Kind, Occurrence, occ};
use crate::lsp::site::{Site, defined, item};
use animkit_grammar::Span;
use animkit_grammar::animator::ast::{Cmd, Str};
use animkit_grammar::animator::lexer::Keyword;
use lsp_types::{CompletionItem, CompletionItemKind};

/// The span of a name's text: inside the quotes if it was quoted.
fn inner(s: &Str) -> Span {
    if s.span.end - s.span.start == s.text.len() + 2 { Span::new(s.span.start + 1, s.span.end - 1) } else { s.span }
}

/// Every macro name written in `text` (`macro`, `invoke`, `viewport`), in
/// source order.
pub fn names(text: &str) -> Vec<Occurrence> {
    let (commands, _) = animkit_grammar::animator::parse(text);
    let mut out = Vec::new();
    for c in &commands {
        match &c.kind {
            Cmd::Macro { name, .. } => out.push(occ(Kind::Macro, &name.text, inner(name), true)),
            Cmd::Invoke { name } | Cmd::InvokeAt { name, .. } | Cmd::ViewportMacro { name, .. } => {
                out.push(occ(Kind::Macro, &name.text, inner(name), false))
            }
            _ => {}
        }
    }
    out
}

/// The hover of the macro `o`: where it is defined and how often invoked.
pub fn hover_name(doc: &Document, all: &[Occurrence], o: &Occurrence) -> Option<String> {
    if o.kind != Kind::Macro {
        return None;
    }
    let uses = all.iter().filter(|x| x.kind == o.kind && x.name == o.name && !x.def).count();
    let def = all.iter().find(|x| x.kind == Kind::Macro && x.name == o.name && x.def);
    Some(match def {
        Some(d) => format!("macro `{}`, defined on line {}, invoked {uses} times", o.name, line_of(doc, d.span.start)),
        None => format!("macro `{}`: not defined in this file", o.name),
    })
}

/// The hover of a command word: its forms and what it takes.
pub fn hover_word(word: &str) -> Option<String> {
    let kw = Keyword::from_word(word)?;
    let (forms, usage) = animkit_grammar::animator::reader::command_signature(kw);
    Some(format!("```animator\n{}\n```\n`{word}` takes {usage}", forms.join("\n")))
}

/// The completions at `site`: commands at a line's start, macro names and
/// flag words after the commands that take them.
pub fn complete(doc: &Document, site: &Site<'_>) -> Vec<CompletionItem> {
    let flags = |list: &[&str]| list.iter().map(|w| item(w, CompletionItemKind::KEYWORD, None)).collect();
    match site.words {
        [] => Keyword::ALL
            .iter()
            .map(|k| {
                let (forms, _) = animkit_grammar::animator::reader::command_signature(*k);
                item(k.as_str(), CompletionItemKind::FUNCTION, forms.first().cloned())
            })
            .collect(),
        ["invoke", ..] | ["viewport"] | ["viewport", "aspect"] | ["macro", "push"] => {
            defined(names(&doc.text), Kind::Macro)
                .iter()
                .map(|n| item(n, CompletionItemKind::FUNCTION, Some("macro".into())))
                .collect()
        }
        ["keepalive" | "events" | "aspect"] => flags(&["on", "off"]),
        ["text" | "blit"] => flags(&["left", "center", "right"]),
        ["text" | "blit", "left" | "center" | "right"] => flags(&["bottom", "center", "top"]),
        ["macro"] => flags(&["push"]),
        ["warp"] => flags(&["area"]),
        _ => Vec::new(),
    }
}
