//! Checks a parsed sprite file and resolves it to [`SpriteIr`].
//!
//! Errors (all reported, in source order):
//! - every rule the spec gives: missing end behaviour, negative duration or
//!   frame index, a special event inline with a duration or index
//!   (`5|2|_wait`), an events-only frame that is not last;
//! - and those a user needs: fractional numbers, numbers too large for the
//!   bytecode (more than [`MAX_VALUE`]), duplicate state names, state names
//!   starting with `_`, transitions to missing states (with a "did you
//!   mean"), unknown `_names`, two end behaviours in one frame, `_pingpong`
//!   with fewer than two frames to reverse through, more than
//!   [`MAX_STATES`] states, code longer than [`MAX_CODE`] instructions, and
//!   any state or cycle of transitions that could run forever within one
//!   tick because no frame on the way has a positive duration.

use super::ir::{End, IrFrame, IrState, SpriteIr};
use super::sizes::{frame_code_len, state_code_len_of};
use crate::diagnostic::{Diagnostic, Kept};
use crate::hash::FxHashMap;
use crate::suggest::{SUGGEST_BUDGET, closest, closest_within};
use animkit_grammar::Span;
use animkit_grammar::sprite::ast::{self, Frame};
use animkit_grammar::sprite::{FrameRef, NameRef, Sink, read};

/// Largest duration or frame index (the bytecode's 24-bit immediate).
pub const MAX_VALUE: u32 = animkit_vm::engine::isa::MAX_AX;
/// Most states in one file (state ids are 16-bit).
pub const MAX_STATES: usize = animkit_vm::engine::limits::MAX_STATES;
/// Most instructions in one sprite module (jump offsets are 24-bit signed).
pub const MAX_CODE: u64 = 1 << 23;
/// The special end behaviours.
pub const SPECIALS: [&str; 3] = ["_loop", "_wait", "_pingpong"];

/// Checks `file`; returns the IR when there is no error.
pub fn check(file: &ast::File) -> Result<SpriteIr, Vec<Diagnostic>> {
    check_partial(file, false)
}

/// Like [`check`]; with `partial` set (some lines failed to parse and are
/// missing from `file`), errors that a missing line could cause — unknown
/// states, an empty file — are not reported, so they do not pile onto the
/// syntax errors.
pub fn check_partial(file: &ast::File, partial: bool) -> Result<SpriteIr, Vec<Diagnostic>> {
    // A file of millions of bad frames keeps its first errors only.
    let mut errors = Kept::new();
    let names: Vec<(&str, Span)> = file.states.iter().map(|s| (s.name.text.as_str(), s.name.span)).collect();
    let mut cx = Names::new(&names, partial, &mut errors);
    let mut states = Vec::with_capacity(file.states.len());
    for s in &file.states {
        let category = s.category.as_ref().map_or(&s.name.text, |c| &c.text);
        let mut c = StateCheck::new(&s.name.text, category, true, &errors);
        for (i, f) in s.frames.iter().enumerate() {
            c.frame(f, i + 1 == s.frames.len(), &mut cx, &mut errors);
        }
        if let Some(st) = c.finish(&mut errors) {
            states.push(st);
        }
    }
    if errors.is_empty() && states.len() == file.states.len() {
        let summaries: Vec<Summary<'_>> = states.iter().map(Summary::of).collect();
        errors.extend(check_transitions_and_size(&summaries));
    }
    if errors.is_empty() {
        Ok(SpriteIr { states: states.into_iter().map(|s| s.state).collect() })
    } else {
        Err(errors.finish())
    }
}

/// The diagnostics of a file without syntax errors, checked as
/// [`check`] checks its tree, without building it: one pass over the
/// file for the state names, one more in which each frame is checked as
/// it is read and dropped. What is held is the names, a few numbers per
/// state and the first errors ([`Kept`]), so a file of millions of bad
/// frames (one 57 MB line of them) costs a few bytes per state, not the
/// tree's hundred and more per frame. `None` when the file has a syntax
/// error (the tree and LALRPOP report it) or no error at all (the tree
/// path builds its IR).
pub fn check_streaming(src: &str) -> Option<Vec<Diagnostic>> {
    let mut names = StateNames::default();
    read(src, &mut names)?;
    let mut errors = Kept::new();
    let cx = Names::new(&names.names, false, &mut errors);
    let mut pass = Streaming { cx, errors, current: None, pending: None, summaries: Vec::new(), states: 0 };
    read(src, &mut pass)?;
    let Streaming { mut errors, summaries, states, .. } = pass;
    if errors.is_empty() && summaries.len() == states {
        errors.extend(check_transitions_and_size(&summaries));
    }
    (!errors.is_empty()).then(|| errors.finish())
}

/// The state names of a file, in order (the first pass of
/// [`check_streaming`]).
#[derive(Default)]
struct StateNames<'s> {
    names: Vec<(&'s str, Span)>,
}

impl<'s> Sink<'s> for StateNames<'s> {
    fn state(&mut self, name: NameRef<'s>, _: Option<NameRef<'s>>) -> bool {
        self.names.push((name.text, name.span));
        true
    }
    fn frame(&mut self, _: FrameRef<'s, '_>) -> bool {
        true
    }
    fn end_state(&mut self, _: Span) -> bool {
        true
    }
}

/// The second pass of [`check_streaming`]: each frame is checked when the
/// next one (or the state's end) shows whether it is the last.
struct Streaming<'s> {
    cx: Names<'s>,
    errors: Kept,
    current: Option<StateCheck>,
    pending: Option<Frame>,
    summaries: Vec<Summary<'s>>,
    states: usize,
}

impl<'s> Sink<'s> for Streaming<'s> {
    fn state(&mut self, name: NameRef<'s>, category: Option<NameRef<'s>>) -> bool {
        let category = category.map_or(name.text, |c| c.text);
        self.current = Some(StateCheck::new(name.text, category, false, &self.errors));
        self.states += 1;
        true
    }

    fn frame(&mut self, frame: FrameRef<'s, '_>) -> bool {
        let Some(c) = self.current.as_mut() else { return false };
        if let Some(f) = self.pending.replace(frame.to_frame()) {
            c.frame(&f, false, &mut self.cx, &mut self.errors);
        }
        true
    }

    fn end_state(&mut self, _: Span) -> bool {
        let Some(mut c) = self.current.take() else { return false };
        if let Some(f) = self.pending.take() {
            c.frame(&f, true, &mut self.cx, &mut self.errors);
        }
        let name = self.cx.list.get(self.states - 1).copied().unwrap_or_default();
        if let Some(st) = c.finish(&mut self.errors) {
            self.summaries.push(Summary { name, ..Summary::of(&st) });
        }
        true
    }
}

/// The file's state names, checked: what a state's transition resolves
/// against.
struct Names<'a> {
    index: FxHashMap<&'a str, usize>,
    list: Vec<&'a str>,
    partial: bool,
    /// What "did you mean" may still spend.
    budget: u64,
}

impl<'a> Names<'a> {
    /// Indexes the states' names, reporting the reserved, duplicate and
    /// too many ones, and an empty file.
    fn new(names: &[(&'a str, Span)], partial: bool, errors: &mut Kept) -> Names<'a> {
        let mut index: FxHashMap<&str, usize> = FxHashMap::default();
        for (i, &(name, span)) in names.iter().enumerate() {
            if name.starts_with('_') {
                errors.push(
                    Diagnostic::error(span, format!("state name `{name}` starts with `_`"), "reserved")
                        .with_note("names starting with `_` are reserved for `_loop`, `_wait` and `_pingpong`"),
                );
            }
            if let Some(&first) = index.get(name) {
                errors.push(
                    Diagnostic::error(span, format!("state `{name}` is defined twice"), "defined again here")
                        .with_secondary(names[first].1, "first defined here"),
                );
            } else {
                index.insert(name, i);
            }
        }
        if names.len() > MAX_STATES {
            errors.push(too_many_states(names[MAX_STATES].1));
        }
        if names.is_empty() && !partial {
            errors.push(
                Diagnostic::error(Span::new(0, 0), "the file defines no state", "expected `Name: frames, ...`")
                    .with_help("a state looks like `Idle: 10, 10, _loop`"),
            );
        }
        let list = names.iter().map(|n| n.0).collect();
        Names { index, list, partial, budget: SUGGEST_BUDGET }
    }
}

/// What the transition and code-size checks need of a checked state.
struct Summary<'a> {
    name: &'a str,
    /// No frame has a positive duration.
    zero: bool,
    end: End,
    end_span: Span,
    /// Instructions of its code (`super::sizes::state_code_len`).
    code: u64,
}

impl<'a> Summary<'a> {
    fn of(s: &'a Checked) -> Summary<'a> {
        Summary { name: &s.state.name, zero: s.zero, end: s.state.end, end_span: s.state.end_span, code: s.code }
    }
}

/// A checked state, with what its summary needs (its frames are not kept
/// by [`check_streaming`]).
struct Checked {
    state: IrState,
    zero: bool,
    code: u64,
}

/// Errors of transitions that spin and of code past [`MAX_CODE`], for a
/// file whose states have no other error.
fn check_transitions_and_size(states: &[Summary<'_>]) -> Vec<Diagnostic> {
    let mut more = Vec::new();
    check_progress(states, &mut more);
    check_code_size(states.iter().map(|s| (s.code, s.end_span)), &mut more);
    more
}

/// The error at the name of the first state past [`MAX_STATES`].
pub(super) fn too_many_states(name: Span) -> Diagnostic {
    Diagnostic::error(
        name,
        format!("too many states: at most {MAX_STATES} fit in one sprite file"),
        "one state too many",
    )
}

/// The error at the end of the state whose code passes [`MAX_CODE`].
pub(super) fn code_too_large(end: Span) -> Diagnostic {
    Diagnostic::error(
        end,
        format!("the sprite file is too large: its states need more than {MAX_CODE} instructions"),
        "the code passes the limit in this state",
    )
    .with_help("split the states into several files (one module each)")
}

fn number(n: &ast::Number, what: &str, errors: &mut Kept) -> Option<u32> {
    let plural = if what == "duration" { "durations" } else { "frame indices" };
    if n.negative {
        errors.push(Diagnostic::error(
            n.span,
            format!("negative {what} `-{}`", n.text),
            format!("{plural} must be 0 or more"),
        ));
        return None;
    }
    if n.text.contains('.') {
        errors.push(Diagnostic::error(
            n.span,
            format!("{what} `{}` is not a whole number", n.text),
            format!("{plural} are whole numbers"),
        ));
        return None;
    }
    match n.text.parse::<u64>() {
        Ok(v) if v <= MAX_VALUE as u64 => Some(v as u32),
        _ => {
            errors.push(Diagnostic::error(
                n.span,
                format!("{what} `{}` is too large", n.text),
                format!("at most {MAX_VALUE}"),
            ));
            None
        }
    }
}

fn unknown_special(name: &ast::Name) -> Diagnostic {
    let d = Diagnostic::error(name.span, format!("unknown special event `{}`", name.text), "not a special event")
        .with_note("names starting with `_` are reserved for `_loop`, `_wait` and `_pingpong`");
    match closest(&name.text, SPECIALS) {
        Some(s) => d.with_help(format!("did you mean `{s}`?")),
        None => d,
    }
}

/// Checks custom event names; `timed` is the frame's duration and index
/// when the names follow them (`5|2|...`).
fn events(names: &[ast::Name], timed: Option<(&ast::Number, Option<&ast::Number>)>, errors: &mut Kept) -> Vec<String> {
    let mut out = Vec::new();
    for e in names {
        if SPECIALS.contains(&e.text.as_str()) {
            errors.push(if let Some((duration, index)) = timed {
                // Built only for the error: most frames have no error.
                let frame = match index {
                    Some(i) => format!("{}|{}", duration.text, i.text),
                    None => duration.text.clone(),
                };
                Diagnostic::error(
                    e.span,
                    format!("`{}` cannot be inline with a duration or frame index", e.text),
                    "special event inside a timed frame",
                )
                .with_help(format!("give it a frame of its own at the end of the state: `{frame}, {}`", e.text))
            } else {
                Diagnostic::error(e.span, "two end behaviours in one frame", "second end behaviour")
                    .with_note("a frame ends the state in one way: `_loop`, `_wait`, `_pingpong` or a state name")
            });
        } else if e.text.starts_with('_') {
            errors.push(unknown_special(e));
        } else {
            out.push(e.text.clone());
        }
    }
    out
}

/// One state checked a frame at a time ([`StateCheck::frame`]), the
/// frames kept for the IR or only counted.
struct StateCheck {
    name: String,
    category: String,
    /// Errors before the state: it is good when none come after.
    before: usize,
    /// Sprite index of the next frame without one.
    counter: u64,
    end: Option<(End, Vec<String>, Span)>,
    /// The timed frames, when kept.
    frames: Option<Vec<IrFrame>>,
    /// Timed frames so far.
    timed: usize,
    zero: bool,
    /// Does the first timed frame set a sprite?
    first_sets_sprite: Option<bool>,
    /// Instructions of the timed frames so far, and of the last one.
    frames_code: u64,
    last_code: u64,
}

impl StateCheck {
    fn new(name: &str, category: &str, keep_frames: bool, errors: &Kept) -> StateCheck {
        StateCheck {
            name: name.to_string(),
            category: category.to_string(),
            before: errors.errors(),
            counter: 0,
            end: None,
            frames: keep_frames.then(Vec::new),
            timed: 0,
            zero: true,
            first_sets_sprite: None,
            frames_code: 0,
            last_code: 0,
        }
    }

    /// Checks the next frame; `last` when it ends the state.
    fn frame(&mut self, f: &Frame, last: bool, cx: &mut Names<'_>, errors: &mut Kept) {
        match f {
            Frame::Timed { duration, index: idx, events: evs, span } => {
                let d = number(duration, "duration", errors);
                let explicit = idx.as_ref().and_then(|n| number(n, "frame index", errors));
                let evs = events(evs, Some((duration, idx.as_ref())), errors);
                let sprite = match (explicit, d) {
                    (Some(x), _) => {
                        self.counter = x as u64 + 1;
                        Some(x)
                    }
                    (None, Some(0)) => None,
                    (None, _) => {
                        let x = self.counter;
                        self.counter += 1;
                        if x > MAX_VALUE as u64 {
                            errors.push(Diagnostic::error(
                                *span,
                                format!("automatic frame index {x} is too large"),
                                format!("at most {MAX_VALUE}"),
                            ));
                        }
                        Some(x as u32)
                    }
                };
                let frame = IrFrame { duration: d.unwrap_or(0), sprite, events: evs, span: *span };
                // `super::sizes::state_code_len`, a frame at a time.
                let len = frame_code_len(frame.sprite.is_some(), frame.events.len() as u64, frame.duration);
                self.first_sets_sprite.get_or_insert(frame.sprite.is_some());
                self.frames_code += len;
                self.last_code = len;
                self.zero &= frame.duration == 0;
                self.timed += 1;
                if let Some(frames) = self.frames.as_mut() {
                    frames.push(frame);
                }
                // `5|2|_wait` as the last frame already has its own error,
                // whose help says how to end the state.
                let inline_end = match f {
                    Frame::Timed { events, .. } => events.iter().any(|e| SPECIALS.contains(&e.text.as_str())),
                    Frame::Control { .. } => false,
                };
                if last && !inline_end {
                    errors.push(
                        Diagnostic::error(
                            *span,
                            format!("state `{}` has no end behaviour", self.name),
                            "the state ends here",
                        )
                        .with_help(format!(
                            "end it with `_wait`, `_loop`, `_pingpong` or a state name, e.g. `{}: ..., _loop`",
                            self.name
                        )),
                    );
                }
            }
            Frame::Control { head, events: evs, span } => {
                if !last {
                    errors.push(
                        Diagnostic::error(
                            *span,
                            format!("events-only frame `{}` must be the last frame of the state", head.text),
                            "not the last frame",
                        )
                        .with_note("`_loop`, `_wait`, `_pingpong` and transitions end a state"),
                    );
                }
                let resolved = match head.text.as_str() {
                    "_loop" => Some(End::Loop),
                    "_wait" => Some(End::Wait),
                    "_pingpong" => Some(End::PingPong),
                    h if h.starts_with('_') => {
                        errors.push(unknown_special(head));
                        None
                    }
                    h => match cx.index.get(h) {
                        Some(&t) => Some(End::Goto(t as u32)),
                        None if cx.partial => None,
                        None => {
                            let d =
                                Diagnostic::error(head.span, format!("unknown state `{h}`"), "no state with this name");
                            errors.push(match closest_within(h, cx.list.iter().copied(), &mut cx.budget) {
                                Some(c) if c.eq_ignore_ascii_case(h) => {
                                    d.with_help(format!("state names are case-sensitive: did you mean `{c}`?"))
                                }
                                Some(c) => d.with_help(format!("did you mean `{c}`?")),
                                None => d.with_note(
                                    "an events-only frame is `_loop`, `_wait`, `_pingpong` or the name of a state",
                                ),
                            });
                            None
                        }
                    },
                };
                let evs = events(evs, None, errors);
                if last {
                    self.end = resolved.map(|e| (e, evs, *span));
                }
            }
        }
    }

    /// The state, when it has no error.
    fn finish(self, errors: &mut Kept) -> Option<Checked> {
        let (end, end_events, end_span) = self.end?;
        if end == End::PingPong && self.timed < 2 {
            errors.push(
                Diagnostic::error(
                    end_span,
                    "`_pingpong` needs at least two frames before it",
                    "nothing to reverse through",
                )
                .with_help("with a single frame, use `_loop`"),
            );
        }
        if errors.errors() > self.before {
            return None;
        }
        let first_sets_sprite = self.first_sets_sprite.unwrap_or(false);
        let code = state_code_len_of(first_sets_sprite, self.frames_code, self.last_code, end_events.len() as u64, end);
        let state = IrState {
            name: self.name,
            category: self.category,
            frames: self.frames.unwrap_or_default(),
            end,
            end_events,
            end_span,
        };
        Some(Checked { state, zero: self.zero, code })
    }
}

/// Rejects states and transition cycles that never display a frame for
/// a positive number of ticks.
fn check_progress(states: &[Summary<'_>], errors: &mut Vec<Diagnostic>) {
    let zero: Vec<bool> = states.iter().map(|s| s.zero).collect();
    for (i, s) in states.iter().enumerate() {
        if zero[i] && matches!(s.end, End::Loop | End::PingPong) {
            errors.push(
                Diagnostic::error(
                    s.end_span,
                    format!("state `{}` would run forever within one tick", s.name),
                    "repeats without displaying anything",
                )
                .with_note("no frame of the state has a positive duration")
                .with_help("give at least one frame a duration of 1 or more"),
            );
        }
    }
    // Cycles of transitions through states with no positive duration: each
    // zero-duration state has at most one such successor, so one walk per
    // unvisited state with three colours finds every cycle once, in time
    // linear in the number of states.
    const NEW: u8 = 0;
    const ON_PATH: u8 = 1;
    const DONE: u8 = 2;
    let mut colour = vec![NEW; states.len()];
    let mut place = vec![0usize; states.len()];
    let mut path = Vec::new();
    for start in 0..states.len() {
        if !zero[start] || colour[start] != NEW {
            continue;
        }
        let mut cur = start;
        loop {
            colour[cur] = ON_PATH;
            place[cur] = path.len();
            path.push(cur);
            let End::Goto(next) = states[cur].end else { break };
            let next = next as usize;
            if !zero[next] {
                break;
            }
            match colour[next] {
                ON_PATH => {
                    let cycle = &path[place[next]..];
                    let first = *cycle.iter().min().unwrap_or(&next);
                    let shown = cycle_excerpt(cycle.len());
                    let mut d = Diagnostic::error(
                        states[first].end_span,
                        format!(
                            "transitions {} would run forever within one tick",
                            cycle_text(cycle, |c| states[c].name)
                        ),
                        "this transition closes the cycle",
                    )
                    .with_note("none of these states has a frame with a positive duration");
                    // A label for each state the message names, no more.
                    for (k, &c) in cycle.iter().enumerate() {
                        if c != first && shown(k) {
                            d = d.with_secondary(states[c].end_span, format!("`{}` continues here", states[c].name));
                        }
                    }
                    errors.push(d);
                    break;
                }
                DONE => break,
                _ => cur = next,
            }
        }
        for p in path.drain(..) {
            colour[p] = DONE;
        }
    }
}

/// A cycle of more states than this is quoted as its first
/// [`CYCLE_ENDS`] states, how many are left out and its last
/// [`CYCLE_ENDS`]: one error's message stays short however long the cycle.
const CYCLE_WHOLE: usize = 8;

/// How many states of each end of a long cycle an error names.
const CYCLE_ENDS: usize = 3;

/// Whether the state at place `k` of a cycle of `len` states is named in
/// its error.
fn cycle_excerpt(len: usize) -> impl Fn(usize) -> bool {
    move |k| len <= CYCLE_WHOLE || k < CYCLE_ENDS || k >= len - CYCLE_ENDS
}

/// `A -> B -> C -> A` for a cycle of states (by index, named by `name`);
/// past [`CYCLE_WHOLE`] states, `S0 -> S1 -> S2 -> ... (59995 more) ... ->
/// S59998 -> S59999 -> S60000 -> S0`. A name longer than
/// [`MAX_QUOTE_CHARS`](crate::excerpt::MAX_QUOTE_CHARS) characters keeps
/// its first 32 and `…`.
fn cycle_text<'s>(cycle: &[usize], name: impl Fn(usize) -> &'s str) -> String {
    let short = |n: &str| -> String {
        if n.chars().nth(crate::excerpt::MAX_QUOTE_CHARS).is_some() {
            n.chars().take(32).chain(['…']).collect()
        } else {
            n.to_string()
        }
    };
    let mut parts: Vec<String> = Vec::new();
    if cycle.len() <= CYCLE_WHOLE {
        parts.extend(cycle.iter().map(|&c| short(name(c))));
    } else {
        parts.extend(cycle[..CYCLE_ENDS].iter().map(|&c| short(name(c))));
        parts.push(format!("... ({} more) ...", cycle.len() - 2 * CYCLE_ENDS));
        parts.extend(cycle[cycle.len() - CYCLE_ENDS..].iter().map(|&c| short(name(c))));
    }
    if let Some(&c) = cycle.first() {
        parts.push(short(name(c)));
    }
    parts.join(" -> ")
}

/// Rejects a file whose code would not fit the bytecode: jumps reach at
/// most [`MAX_CODE`] instructions back, so a sprite module holds at most
/// that many. `states` gives each state's code length and end; the error
/// points at the state that crosses the limit.
fn check_code_size(states: impl Iterator<Item = (u64, Span)>, errors: &mut Vec<Diagnostic>) {
    let mut total: u64 = 0;
    for (len, end_span) in states {
        total += len;
        if total > MAX_CODE {
            errors.push(code_too_large(end_span));
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_size_limit_names_the_state_that_passes_it() {
        let (ast, syntax) = animkit_grammar::sprite::parse("A: 1, _loop\nB: 1, 2, _wait\nC: 1, _loop\n");
        assert!(syntax.is_empty());
        let ir = check(&ast).unwrap();
        let mut errors = Vec::new();
        check_code_size(ir.states.iter().map(|s| (super::super::sizes::state_code_len(s), s.end_span)), &mut errors);
        assert!(errors.is_empty());
        // A pretends to take half the room, B the rest and one more.
        let len = |s: &IrState| if s.name == "A" { MAX_CODE / 2 } else { MAX_CODE / 2 + 1 };
        check_code_size(ir.states.iter().map(|s| (len(s), s.end_span)), &mut errors);
        assert_eq!(errors.len(), 1);
        let e = &errors[0];
        assert_eq!(e.message, "the sprite file is too large: its states need more than 8388608 instructions");
        assert_eq!(e.span, ir.states[1].end_span);
    }

    #[test]
    fn long_cycles_are_quoted_by_their_ends() {
        let names: Vec<String> = (0..60_001).map(|i| format!("S{i}")).collect();
        let name = |c: usize| names[c].as_str();
        let three: Vec<usize> = (0..3).collect();
        assert_eq!(cycle_text(&three, name), "S0 -> S1 -> S2 -> S0");
        let eight: Vec<usize> = (0..8).collect();
        assert_eq!(cycle_text(&eight, name), "S0 -> S1 -> S2 -> S3 -> S4 -> S5 -> S6 -> S7 -> S0");
        let nine: Vec<usize> = (0..9).collect();
        assert_eq!(cycle_text(&nine, name), "S0 -> S1 -> S2 -> ... (3 more) ... -> S6 -> S7 -> S8 -> S0");
        let all: Vec<usize> = (0..60_001).collect();
        assert_eq!(
            cycle_text(&all, name),
            "S0 -> S1 -> S2 -> ... (59995 more) ... -> S59998 -> S59999 -> S60000 -> S0"
        );
        let shown = cycle_excerpt(60_001);
        assert_eq!((0..60_001).filter(|&k| shown(k)).collect::<Vec<_>>(), [0, 1, 2, 59_998, 59_999, 60_000]);
        let long = "L".repeat(100);
        assert_eq!(
            cycle_text(&[0, 1], |c| if c == 0 { long.as_str() } else { "B" }),
            format!("{}… -> B -> {}…", "L".repeat(32), "L".repeat(32))
        );
    }
}
