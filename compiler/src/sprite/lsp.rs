//! The sprite DSL in the language server: its names (states and their
//! category aliases, read in one pass where the file is well formed), the
//! hover of a state or an alias, and the completion of a transition. The
//! `FrontEnd` methods of [`super::Sprite`] call
//! these.

use crate::lsp::complete::{Site, item};
use crate::lsp::document::Document;
use crate::lsp::symbols::{Kind, Occurrence, occ};
use animkit_grammar::Span;
use animkit_grammar::sprite::ast::Frame;
use animkit_grammar::sprite::{FrameRef, NameRef, Sink, read};
use lsp_types::{CompletionItem, CompletionItemKind};
use std::collections::HashSet;

/// The most states an alias's hover names; the others are counted.
pub const MAX_LISTED: usize = 20;

/// A sprite state as hover and the names list see it.
pub struct StateSummary<'a> {
    /// Its name.
    pub name: &'a str,
    /// Its category, if written.
    pub category: Option<&'a str>,
    /// Its timed frames.
    pub frames: u64,
    /// Their ticks, summed (saturating).
    pub ticks: u64,
    /// Its last events-only frame's head (`_loop`, a state), if any.
    pub end: Option<&'a str>,
}

/// Calls `f` with each state of a sprite file in order, until it returns
/// `false`. A well-formed file is read by the streaming reader, holding
/// one state at a time; on a syntax error the reader stops, `f` is called
/// with `None` (forget the states passed so far) and then with each state
/// of the file's tree (parsed with recovery, as before).
pub fn sprite_states(text: &str, mut f: impl FnMut(Option<&StateSummary<'_>>) -> bool) {
    struct Walk<'s, F> {
        f: F,
        current: Option<(NameRef<'s>, Option<NameRef<'s>>)>,
        frames: u64,
        ticks: u64,
        end: Option<&'s str>,
        stopped: bool,
    }
    impl<'s, F: FnMut(Option<&StateSummary<'_>>) -> bool> Sink<'s> for Walk<'s, F> {
        fn state(&mut self, name: NameRef<'s>, category: Option<NameRef<'s>>) -> bool {
            self.current = Some((name, category));
            (self.frames, self.ticks, self.end) = (0, 0, None);
            true
        }
        fn frame(&mut self, frame: FrameRef<'s, '_>) -> bool {
            match frame {
                FrameRef::Timed { duration, .. } => {
                    self.frames += 1;
                    self.ticks = self.ticks.saturating_add(duration.text.parse::<u64>().unwrap_or(0));
                }
                FrameRef::Control { head, .. } => self.end = Some(head.text),
            }
            true
        }
        fn end_state(&mut self, _: Span) -> bool {
            let Some((name, category)) = self.current.take() else { return true };
            let summary = StateSummary {
                name: name.text,
                category: category.map(|c| c.text),
                frames: self.frames,
                ticks: self.ticks,
                end: self.end,
            };
            self.stopped = !(self.f)(Some(&summary));
            !self.stopped
        }
    }
    let mut walk = Walk { f: &mut f, current: None, frames: 0, ticks: 0, end: None, stopped: false };
    if read(text, &mut walk).is_some() || walk.stopped {
        return;
    }
    // A syntax error: the tree, with recovery, from the first state.
    if !f(None) {
        return;
    }
    let (file, _) = animkit_grammar::sprite::parse(text);
    for state in &file.states {
        let (mut frames, mut ticks, mut end) = (0u64, 0u64, None);
        for fr in &state.frames {
            match fr {
                Frame::Timed { duration, .. } => {
                    frames += 1;
                    ticks = ticks.saturating_add(duration.text.parse::<u64>().unwrap_or(0));
                }
                Frame::Control { head, .. } => end = Some(head.text.as_str()),
            }
        }
        let summary = StateSummary {
            name: &state.name.text,
            category: state.category.as_ref().map(|c| c.text.as_str()),
            frames,
            ticks,
            end,
        };
        if !f(Some(&summary)) {
            return;
        }
    }
}

/// The sink that lists a sprite file's names as the reader passes them:
/// no tree, one [`Occurrence`] per name written.
#[derive(Default)]
struct SpriteNames<'s> {
    out: Vec<Occurrence>,
    aliases: HashSet<&'s str>,
}

impl<'s> Sink<'s> for SpriteNames<'s> {
    fn state(&mut self, name: NameRef<'s>, category: Option<NameRef<'s>>) -> bool {
        self.out.push(occ(Kind::State, name.text, name.span, true));
        if let Some(c) = category {
            let first = self.aliases.insert(c.text);
            self.out.push(occ(Kind::Alias, c.text, c.span, first));
        }
        true
    }

    fn frame(&mut self, frame: FrameRef<'s, '_>) -> bool {
        if let FrameRef::Control { head, .. } = frame
            && !head.text.starts_with('_')
        {
            self.out.push(occ(Kind::State, head.text, head.span, false));
        }
        true
    }

    fn end_state(&mut self, _: Span) -> bool {
        true
    }
}

/// Every state and alias written in `text`, in source order.
pub fn names(text: &str) -> Vec<Occurrence> {
    // A well-formed file: read in one pass, no tree (a tree of a large
    // file held several times the memory the compiler may use, issue 41
    // §5).
    let mut names = SpriteNames::default();
    if read(text, &mut names).is_some() {
        return names.out;
    }
    drop(names);
    let (file, _) = animkit_grammar::sprite::parse(text);
    let mut out = Vec::new();
    let mut aliases: HashSet<&str> = HashSet::new();
    for state in &file.states {
        out.push(occ(Kind::State, &state.name.text, state.name.span, true));
        if let Some(c) = &state.category {
            let first = aliases.insert(&c.text);
            out.push(occ(Kind::Alias, &c.text, c.span, first));
        }
        for f in &state.frames {
            if let Frame::Control { head, .. } = f {
                if !head.text.starts_with('_') {
                    out.push(occ(Kind::State, &head.text, head.span, false));
                }
            }
        }
    }
    out
}

/// The hover of the state or alias `o` (`None` for a state with no line).
pub fn hover_name(doc: &Document, o: &Occurrence) -> Option<String> {
    let text = doc.text.as_str();
    match o.kind {
        Kind::State => state_text(text, &o.name),
        Kind::Alias => {
            // At most `MAX_LISTED` states named, then how many more.
            let (mut states, mut more) = (Vec::new(), 0usize);
            sprite_states(text, |s| {
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
            Some(format!("alias `{}`: the sprite category of {}{more}", o.name, states.join(", ")))
        }
        Kind::Macro | Kind::Define | Kind::Actor => None,
    }
}

fn state_text(text: &str, name: &str) -> Option<String> {
    let mut found = None;
    sprite_states(text, |st| {
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

/// The completions at `site`: state names and the end behaviours where a
/// transition may stand.
pub fn complete(site: &Site<'_>) -> Vec<CompletionItem> {
    let (text, line_start, before) = (site.text, site.line_start, site.before);
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
    let mut seen = HashSet::new();
    let mut own = Some(name.trim()).filter(|n| !n.is_empty());
    for o in names(&rest) {
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
        super::check::SPECIALS.iter().map(|s| item(s, CompletionItemKind::KEYWORD, Some("end behaviour".into()))),
    );
    out
}
