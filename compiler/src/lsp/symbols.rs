//! The names of a document and where each is written, read from the
//! language's own parser: sprite states and their category aliases,
//! Animator macros, SLAP defines and actor ids. Navigation, rename, hover
//! and completion all work from this list.

use animkit_grammar::Span;
use animkit_grammar::animator::ast::{Cmd, Str};
use animkit_grammar::slap::ast::{Expr, Line};
use animkit_grammar::sprite::ast::Frame;
use animkit_grammar::sprite::{FrameRef, NameRef, Sink, read};
use animkit_vm::program::Language;
use std::collections::HashSet;

/// What a name names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A sprite state.
    State,
    /// A sprite category alias (`Name[Alias]`).
    Alias,
    /// An Animator macro.
    Macro,
    /// A SLAP `define`.
    Define,
    /// A SLAP actor number.
    Actor,
}

/// One place a name is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Occurrence {
    /// What it names.
    pub kind: Kind,
    /// The name.
    pub name: String,
    /// The name's bytes (inside the quotes of a quoted name).
    pub span: Span,
    /// True where the name is defined (a state's line, `macro`,
    /// `define`); an actor's first use counts as its definition.
    pub def: bool,
}

/// Every name written in `text`, in source order.
pub fn occurrences(language: Language, text: &str) -> Vec<Occurrence> {
    match language {
        Language::Sprite => sprite(text),
        Language::Animator => animator(text),
        Language::Slap => slap(text),
    }
}

/// The occurrence whose name covers byte `offset` (its end included, as
/// a cursor right after a name is on it).
pub fn at(occurrences: &[Occurrence], offset: usize) -> Option<&Occurrence> {
    occurrences.iter().find(|o| o.span.start <= offset && offset <= o.span.end)
}

fn occ(kind: Kind, name: &str, span: Span, def: bool) -> Occurrence {
    Occurrence { kind, name: name.to_owned(), span, def }
}

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

fn sprite(text: &str) -> Vec<Occurrence> {
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

/// The span of a name's text: inside the quotes if it was quoted.
fn inner(s: &Str) -> Span {
    if s.span.end - s.span.start == s.text.len() + 2 { Span::new(s.span.start + 1, s.span.end - 1) } else { s.span }
}

fn animator(text: &str) -> Vec<Occurrence> {
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

fn slap(text: &str) -> Vec<Occurrence> {
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
            names(e, &mut |n, span| {
                if defined.contains(&n) && !attribute {
                    out.push(occ(Kind::Define, n, span, false));
                }
            });
        }
    }
    out
}

fn names<'s>(e: &Expr<'s>, f: &mut impl FnMut(&'s str, Span)) {
    match e {
        Expr::Number(_) => {}
        Expr::Name(n) => f(n.text, n.span),
        Expr::Neg { operand, .. } => names(operand, f),
        Expr::Binary { lhs, rhs, .. } => {
            names(lhs, f);
            names(rhs, f);
        }
        Expr::Paren { inner, .. } => names(inner, f),
        // The function's own name is not a define (`sin`, `max`): only
        // its arguments can use one.
        Expr::Call { args, .. } => args.iter().for_each(|a| names(a, f)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_language_lists_its_names() {
        let o = occurrences(Language::Sprite, "Walk[Hero]: 5, Run\nRun[Hero]: 5, _loop\n");
        let got: Vec<_> = o.iter().map(|o| (o.kind, o.name.as_str(), o.span.start, o.def)).collect();
        assert_eq!(
            got,
            [
                (Kind::State, "Walk", 0, true),
                (Kind::Alias, "Hero", 5, true),
                (Kind::State, "Run", 15, false),
                (Kind::State, "Run", 19, true),
                (Kind::Alias, "Hero", 23, false)
            ]
        );
        let o = occurrences(Language::Animator, "macro \"m\"\nline 0 0 1 1\nendmacro\ninvoke m\n");
        let got: Vec<_> = o.iter().map(|o| (o.name.as_str(), o.span.start, o.def)).collect();
        assert_eq!(got, [("m", 7, true), ("m", 39, false)]);
        let o = occurrences(Language::Slap, "define a 1\ndefine action 2\nactor a action a+1\nactor 3 size a\n");
        let got: Vec<_> = o.iter().map(|o| (o.kind, o.name.as_str(), o.span.start)).collect();
        assert_eq!(
            got,
            [
                (Kind::Define, "a", 7),
                (Kind::Define, "action", 18),
                (Kind::Define, "a", 33),
                (Kind::Define, "a", 42),
                (Kind::Actor, "3", 52),
                (Kind::Define, "a", 59)
            ]
        );
    }
}
