//! SLAP in the language server: its names (defines and actor numbers),
//! the hover of a define, an actor, an action or a directive, and the
//! completion of directives, attributes, define names and the twelve
//! actions. The `FrontEnd` methods of
//! [`super::Slap`] call these.

use crate::lsp::document::Document;
use crate::lsp::hover::line_of;
use crate::lsp::occurrence::{Kind, Occurrence, occ};
use crate::lsp::site::{Site, defined, item};
use animkit_grammar::Span;
use animkit_grammar::slap::ast::{Expr, Line};
use animkit_vm::engine::slap::actions::Action;
use lsp_types::{CompletionItem, CompletionItemKind};

/// SLAP's directives and attributes: their forms and what they do.
pub const SLAP_FORMS: [(&str, &str, &str); 13] = [
    ("define", "define NAME VALUE...", "replaces NAME by its values wherever it is an argument"),
    ("time", "time T | time +T", "the frame the following commands happen at (absolute, or after the last)"),
    ("timep", "timep T | timep +T", "like `time`, in the timed-pause form of the reference"),
    ("actor", "actor ID ATTRIBUTE ARGS...", "sets an attribute of actor ID: action, direction, position, color, size"),
    (
        "camera",
        "camera position|direction|lookat X Y Z | camera follow ACTOR [DISTANCE HEIGHT] | camera move X Y Z over N | camera X Y Z DX DY DZ",
        "places, points, aims, attaches or moves the camera",
    ),
    ("action", "actor ID action INDEX", "the action (0 to 11 or its name) the actor plays"),
    (
        "direction",
        "actor ID direction ANGLE | camera direction X Y Z",
        "the angle the actor turns to; the camera's view vector",
    ),
    (
        "position",
        "actor ID position X Z | camera position X Y Z",
        "the actor's place on the ground; the camera's place",
    ),
    ("color", "actor ID color R G B", "the actor's colour"),
    ("size", "actor ID size S", "the actor's size"),
    ("lookat", "camera lookat X Y Z", "aims the camera at the point from where it stands (an extension)"),
    (
        "follow",
        "camera follow ACTOR [DISTANCE HEIGHT]",
        "the camera follows the actor, DISTANCE behind (6) and HEIGHT above (2), until the next camera command (an extension)",
    ),
    (
        "move",
        "camera move X Y Z over FRAMES",
        "slides the camera to the point in FRAMES frames, looking the same way (an extension)",
    ),
];

/// An action's hover line.
pub fn action_text(a: Action) -> String {
    format!("action `{}` ({}): speed {} per frame, a cycle of {} frames", a.name(), a as u32, a.speed(), a.cycle())
}

/// Every define and actor written in `text`, in source order.
pub fn names(text: &str) -> Vec<Occurrence> {
    let (file, _) = animkit_grammar::slap::parse(text);
    let mut out = Vec::new();
    let mut defined: Vec<&str> = Vec::new();
    let mut actors: Vec<&str> = Vec::new();
    for line in &file.lines {
        let Line::Directive(d) = line else { continue };
        let mut args = d.args.iter().map(|a| &a.expr).enumerate();
        match d.keyword.text {
            "define" => {
                if let Some((_, Expr::Name(n))) = args.next() {
                    out.push(occ(Kind::Define, n.text, n.span, true));
                    defined.push(n.text);
                }
            }
            "actor" => {
                if let Some(Expr::Number(n)) = d.args.first().map(|a| &a.expr) {
                    let first = !actors.contains(&n.text);
                    actors.push(n.text);
                    out.push(occ(Kind::Actor, n.text, n.span, first));
                    args.next();
                }
            }
            _ => {}
        }
        for (i, e) in args {
            // The attribute word of `actor N ATTR` and `camera ATTR`.
            let attribute = (d.keyword.text == "actor" && i == 1) || (d.keyword.text == "camera" && i == 0);
            expr_names(e, &mut |n, span| {
                if defined.contains(&n) && !attribute {
                    out.push(occ(Kind::Define, n, span, false));
                }
            });
        }
    }
    out
}

fn expr_names<'s>(e: &Expr<'s>, f: &mut impl FnMut(&'s str, Span)) {
    match e {
        Expr::Number(_) => {}
        Expr::Name(n) => f(n.text, n.span),
        Expr::Neg { operand, .. } => expr_names(operand, f),
        Expr::Binary { lhs, rhs, .. } => {
            expr_names(lhs, f);
            expr_names(rhs, f);
        }
        Expr::Paren { inner, .. } => expr_names(inner, f),
        // The function's own name is not a define (`sin`, `max`): only
        // its arguments can use one.
        Expr::Call { args, .. } => args.iter().for_each(|a| expr_names(a, f)),
    }
}

/// The hover of the define or actor `o` at `offset`.
pub fn hover_name(doc: &Document, all: &[Occurrence], o: &Occurrence, offset: usize) -> Option<String> {
    match o.kind {
        Kind::Define => define_text(doc, all, &o.name, offset),
        Kind::Actor => {
            let first = all.iter().find(|x| x.kind == Kind::Actor && x.name == o.name)?;
            let n = all.iter().filter(|x| x.kind == Kind::Actor && x.name == o.name).count();
            Some(format!("actor {}: first set on line {}, {n} commands", o.name, line_of(doc, first.span.start)))
        }
        Kind::State | Kind::Alias | Kind::Macro => None,
    }
}

/// The hover of a word that names no define: an action's name and
/// speed, or a directive's or attribute's form and what it does.
pub fn hover_word(word: &str) -> Option<String> {
    match Action::from_name(word) {
        Some(a) => Some(action_text(a)),
        None => {
            let (_, form, what) = SLAP_FORMS.iter().find(|f| f.0 == word)?;
            Some(format!("```slap\n{form}\n```\n{what}"))
        }
    }
}

/// The completions at `site`: directives at a line's start, attributes
/// after `actor N` and `camera`, actions and define names where a value
/// stands.
pub fn complete(doc: &Document, site: &Site<'_>) -> Vec<CompletionItem> {
    let defines = || -> Vec<CompletionItem> {
        defined(names(&doc.text), Kind::Define)
            .iter()
            .map(|n| item(n, CompletionItemKind::CONSTANT, Some("define".into())))
            .collect()
    };
    let forms = |list: &[&str]| -> Vec<CompletionItem> {
        SLAP_FORMS
            .iter()
            .filter(|f| list.contains(&f.0))
            .map(|f| item(f.0, CompletionItemKind::KEYWORD, Some(f.1.into())))
            .collect()
    };
    match site.words {
        [] => forms(&super::check::DIRECTIVES),
        ["actor", _] => forms(&super::check::ACTOR_ATTRIBUTES),
        ["camera"] => forms(&super::check::CAMERA_ATTRIBUTES),
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

fn define_text(doc: &Document, all: &[Occurrence], name: &str, offset: usize) -> Option<String> {
    let text = doc.text.as_str();
    let def = all.iter().find(|x| x.kind == Kind::Define && x.name == name && x.def)?;
    let line_end = text[def.span.end..].find('\n').map_or(text.len(), |i| def.span.end + i);
    let values = text[def.span.end..line_end].split('#').next().unwrap_or("").trim();
    let mut out = format!("```slap\ndefine {name} {values}\n```");
    // The argument of `actor N action NAME`: say which action it is.
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let before: Vec<&str> = text[line_start..offset.min(text.len())].split_whitespace().collect();
    if before.len() >= 3 && before[0] == "actor" && before[2] == "action" {
        if let Some(a) = values.parse::<u32>().ok().and_then(Action::from_index) {
            out.push('\n');
            out.push_str(&action_text(a));
        }
    }
    Some(out)
}
