//! Hover: a sprite state's frames and ticks, a macro's definition, a
//! define's values, an actor's first use, an action's name and speed, a
//! command's signature and what it takes.

use super::document::Document;
use super::symbols::{self, Kind};
use animkit_grammar::animator::lexer::Keyword;
use animkit_vm::program::Language;
use animkit_vm::slap::actions::Action;
use lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind};

/// The most states an alias's hover names; the others are counted.
pub const MAX_LISTED: usize = 20;

/// The word (letters, digits, `_`) around byte `offset`.
pub fn word_at(text: &str, offset: usize) -> (usize, usize) {
    let b = text.as_bytes();
    let is = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let offset = offset.min(b.len());
    let start = b[..offset].iter().rposition(|&c| !is(c)).map_or(0, |i| i + 1);
    let end = b[offset..].iter().position(|&c| !is(c)).map_or(b.len(), |i| offset + i);
    (start, end)
}

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

fn markdown(value: String, doc: &Document, span: (usize, usize)) -> Hover {
    Hover {
        contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value }),
        range: Some(doc.lines.range(&doc.text, span.0, span.1)),
    }
}

fn line_of(doc: &Document, offset: usize) -> u32 {
    doc.lines.position(&doc.text, offset).line + 1
}

/// An action's hover line.
pub fn action_text(a: Action) -> String {
    format!("action `{}` ({}): speed {} per frame, a cycle of {} frames", a.name(), a as u32, a.speed(), a.cycle())
}

/// The hover at byte `offset`, if there is something to say.
pub fn hover(doc: &Document, offset: usize) -> Option<Hover> {
    let text = doc.text.as_str();
    let all = symbols::occurrences(doc.language, text);
    if let Some(o) = symbols::at(&all, offset) {
        let span = (o.span.start, o.span.end);
        let uses = all.iter().filter(|x| x.kind == o.kind && x.name == o.name && !x.def).count();
        let value = match o.kind {
            Kind::State => state_text(text, &o.name)?,
            Kind::Alias => {
                // At most `MAX_LISTED` states named, then how many more.
                let (mut states, mut more) = (Vec::new(), 0usize);
                symbols::sprite_states(text, |s| {
                    let Some(s) = s else {
                        (states, more) = (Vec::new(), 0);
                        return true;
                    };
                    if s.category == Some(o.name.as_str()) {
                        if states.len() < MAX_LISTED {
                            states.push(format!("`{}`", s.name));
                        } else {
                            more += 1;
                        }
                    }
                    true
                });
                let more = if more > 0 { format!(" and {more} more") } else { String::new() };
                format!("alias `{}`: the sprite category of {}{more}", o.name, states.join(", "))
            }
            Kind::Macro => {
                let def = all.iter().find(|x| x.kind == Kind::Macro && x.name == o.name && x.def);
                match def {
                    Some(d) => format!(
                        "macro `{}`, defined on line {}, invoked {uses} times",
                        o.name,
                        line_of(doc, d.span.start)
                    ),
                    None => format!("macro `{}`: not defined in this file", o.name),
                }
            }
            Kind::Define => define_text(doc, &all, &o.name, offset)?,
            Kind::Actor => {
                let first = all.iter().find(|x| x.kind == Kind::Actor && x.name == o.name)?;
                let n = all.iter().filter(|x| x.kind == Kind::Actor && x.name == o.name).count();
                format!("actor {}: first set on line {}, {n} commands", o.name, line_of(doc, first.span.start))
            }
        };
        return Some(markdown(value, doc, span));
    }
    let (start, end) = word_at(text, offset);
    let word = &text[start..end];
    if word.is_empty() {
        return None;
    }
    let value = match doc.language {
        Language::Animator => {
            let kw = Keyword::from_word(word)?;
            let (forms, usage) = animkit_grammar::animator::reader::command_signature(kw);
            format!("```animator\n{}\n```\n`{word}` takes {usage}", forms.join("\n"))
        }
        Language::Slap => match Action::from_name(word) {
            Some(a) => action_text(a),
            None => {
                let (_, form, what) = SLAP_FORMS.iter().find(|f| f.0 == word)?;
                format!("```slap\n{form}\n```\n{what}")
            }
        },
        Language::Sprite => return None,
    };
    Some(markdown(value, doc, (start, end)))
}

fn state_text(text: &str, name: &str) -> Option<String> {
    let mut found = None;
    symbols::sprite_states(text, |st| {
        let Some(st) = st else { return true };
        if st.name != name {
            return true;
        }
        let end = st.end.map(|e| format!(", then `{e}`")).unwrap_or_default();
        found = Some((st.frames, st.ticks, end));
        false
    });
    let (frames, ticks, end) = found?;
    let s = |n: u64| if n == 1 { "" } else { "s" };
    Some(format!("state `{name}`: {frames} frame{}, {ticks} tick{} in all{end}", s(frames), s(ticks)))
}

fn define_text(doc: &Document, all: &[symbols::Occurrence], name: &str, offset: usize) -> Option<String> {
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
