//! The compact IR that sprite lowering consumes ([`FlatIr`]), and the
//! one-pass check that builds it straight from the reader's frames
//! ([`check`]), without a syntax tree.
//!
//! A frame of the IR is 16 bytes and allocates nothing; names are spans of
//! one string of the file's distinct names, each interned once per file
//! (so lowering interns each of them once into the program, not once per
//! use). The one-pass check reads the file with
//! [`animkit_grammar::sprite::read`] (the fast reader's grammar, proven
//! equal to the LALRPOP grammar) and checks each frame as it comes, keeping
//! only what lowering needs; it knows the rules of [`super::check`] for
//! files that break none of them, and gives up on the first one broken
//! ([`None`]), leaving the tree and the full checker to find and word every
//! error. The two errors it reports itself, the costliest to reach through
//! the tree (a file of more than [`MAX_STATES`] states, or of more than
//! [`MAX_CODE`] instructions), are the ones the full checker would report
//! alone, built by the same functions. `tests/sprite_flat.rs` checks both
//! paths agree on programs and diagnostics.

use super::check::{MAX_CODE, MAX_STATES, MAX_VALUE, code_too_large, too_many_states};
use super::ir::{End, SpriteIr};
use super::sizes::{frame_code_len, state_code_len, state_code_len_of};
use crate::diagnostic::Diagnostic;
use crate::hash::FxHashMap;
use animkit_grammar::Span;
use animkit_grammar::sprite::{FrameRef, NameRef, NumberRef, Sink, read};

/// [`FlatFrame::sprite`] of a frame that sets no sprite.
pub const NO_SPRITE: u32 = u32::MAX;

/// A checked sprite module, compact: what [`super::lower::lower_flat`]
/// turns into code.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FlatIr {
    /// The file's distinct names (states, categories, events), one after
    /// the other.
    text: String,
    /// Where each name ends in `text` (name `k` starts where `k - 1` ends).
    ends: Vec<u32>,
    /// States in source order.
    pub states: Vec<FlatState>,
    /// Frames of every state, state after state.
    pub frames: Vec<FlatFrame>,
    /// Event names (ids of [`FlatIr::name`]) of every frame and end, in
    /// order.
    pub events: Vec<u32>,
    /// Instructions the module's code will have.
    pub code_len: u64,
}

/// A checked state of a [`FlatIr`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlatState {
    /// Its name (an id of [`FlatIr::name`]).
    pub name: u32,
    /// Its sprite category, alias or name (an id of [`FlatIr::name`]).
    pub category: u32,
    /// Its frames: `FlatIr::frames[frames.0..frames.1]`.
    pub frames: (u32, u32),
    /// Where its events start in `FlatIr::events` (its first frame's).
    pub events_start: u32,
    /// Its end's events: `FlatIr::events[end_events.0..end_events.1]`.
    pub end_events: (u32, u32),
    /// What happens after the last frame.
    pub end: End,
    /// Byte offset of the end frame (for its debug position).
    pub end_pos: u32,
}

/// A checked frame of a [`FlatIr`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlatFrame {
    /// Ticks displayed (0 = passed through instantly).
    pub duration: u32,
    /// The sprite it sets, or [`NO_SPRITE`].
    pub sprite: u32,
    /// Byte offset of the frame (for its debug position).
    pub pos: u32,
    /// Where its events end in `FlatIr::events` (they start where the
    /// previous frame's end, or at the state's `events_start`).
    pub events_end: u32,
}

/// A byte offset as the IR keeps it. Sources of 4 GiB and more are refused
/// long before (`limits::MAX_SOURCE_BYTES`); through the library, their
/// positions past 4 GiB would saturate.
fn offset(o: usize) -> u32 {
    u32::try_from(o).unwrap_or(u32::MAX)
}

impl FlatIr {
    /// The text of name `id`.
    pub fn name(&self, id: u32) -> &str {
        let end = self.ends[id as usize] as usize;
        let start = if id == 0 { 0 } else { self.ends[id as usize - 1] as usize };
        &self.text[start..end]
    }

    /// Number of distinct names.
    pub fn names(&self) -> usize {
        self.ends.len()
    }

    /// The frames of `s`, each with its events.
    pub fn frames_of<'a>(
        &'a self,
        s: &FlatState,
    ) -> impl DoubleEndedIterator<Item = (&'a FlatFrame, &'a [u32])> + ExactSizeIterator {
        let (a, b) = (s.frames.0 as usize, s.frames.1 as usize);
        (a..b).map(move |k| {
            let start = if k == a { s.events_start } else { self.frames[k - 1].events_end };
            let f = &self.frames[k];
            (f, &self.events[start as usize..f.events_end as usize])
        })
    }

    /// The events of `s`'s end.
    pub fn end_events(&self, s: &FlatState) -> &[u32] {
        &self.events[s.end_events.0 as usize..s.end_events.1 as usize]
    }

    /// The same module as `ir` (the full checker's result), compact.
    pub fn from_ir(ir: &SpriteIr) -> FlatIr {
        let mut names = Names::default();
        let mut flat = FlatIr::default();
        for s in &ir.states {
            let name = names.id(&mut flat, &s.name);
            let category = names.id(&mut flat, &s.category);
            let events_start = flat.events.len() as u32;
            let frames_start = flat.frames.len() as u32;
            for f in &s.frames {
                for e in &f.events {
                    let id = names.id(&mut flat, e);
                    flat.events.push(id);
                }
                flat.frames.push(FlatFrame {
                    duration: f.duration,
                    sprite: f.sprite.unwrap_or(NO_SPRITE),
                    pos: offset(f.span.start),
                    events_end: flat.events.len() as u32,
                });
            }
            let end_start = flat.events.len() as u32;
            for e in &s.end_events {
                let id = names.id(&mut flat, e);
                flat.events.push(id);
            }
            flat.states.push(FlatState {
                name,
                category,
                frames: (frames_start, flat.frames.len() as u32),
                events_start,
                end_events: (end_start, flat.events.len() as u32),
                end: s.end,
                end_pos: offset(s.end_span.start),
            });
            flat.code_len += state_code_len(s);
        }
        flat
    }
}

/// A file's names, each once.
#[derive(Default)]
struct Names<'s> {
    ids: FxHashMap<&'s str, u32>,
}

impl<'s> Names<'s> {
    fn id(&mut self, ir: &mut FlatIr, name: &'s str) -> u32 {
        // One hash and probe whether the name is new or not (a state's
        // name nearly always is).
        *self.ids.entry(name).or_insert_with(|| {
            ir.text.push_str(name);
            ir.ends.push(ir.text.len() as u32);
            ir.ends.len() as u32 - 1
        })
    }
}

/// Checks `src` in one pass: `Some(Ok(ir))` when it compiles, `Some(Err)`
/// with the one error for a file whose only fault is its number of states
/// or of instructions, and `None` whenever anything else is wrong: the
/// caller then parses it into a tree and runs [`super::check`], which
/// reports every error in full.
pub fn check(src: &str) -> Option<Result<FlatIr, Vec<Diagnostic>>> {
    if u32::try_from(src.len()).is_err() {
        return None;
    }
    let mut c = OnePass::default();
    // Upper bounds, so that the IR grows once: a timed frame is followed
    // by a `,` (a state ends with its end frame), a state has a `:`, an
    // event a `|`.
    // (Counted 255 bytes at a time in a byte, which vectorises.)
    let count = |c: u8| -> usize {
        src.as_bytes().chunks(255).map(|k| k.iter().fold(0u8, |n, &b| n + (b == c) as u8) as usize).sum()
    };
    let (commas, colons, pipes) = (count(b','), count(b':'), count(b'|'));
    c.ir.frames.reserve(commas);
    c.ir.states.reserve(colons);
    c.ir.events.reserve(pipes);
    c.zero.reserve(colons);
    c.names.ids.reserve(colons.min(64) * 2);
    read(src, &mut c)?;
    c.finish()
}

/// The state being read.
#[derive(Default)]
struct Current {
    /// Sprite index of the next frame without one.
    counter: u64,
    /// The end frame, once read (it must be the last).
    end: Option<(End, Span)>,
    /// The pending transition's target (a name id), if the end is one.
    goto: Option<u32>,
    /// Every frame has a duration of 0.
    zero: bool,
    /// Frames (timed ones) so far.
    frames: u32,
    /// Instructions of the frames so far, and of the last one.
    code: u64,
    last_len: u64,
    /// Does the first frame set a sprite?
    first_sets_sprite: bool,
}

#[derive(Default)]
struct OnePass<'s> {
    ir: FlatIr,
    names: Names<'s>,
    /// The state each name id is the name of (`u32::MAX`: none).
    state_of: Vec<u32>,
    /// Transitions to resolve once every state is known: (state, name id).
    gotos: Vec<(u32, u32)>,
    /// Per state: all its frames last 0 ticks.
    zero: Vec<bool>,
    cur: Current,
    /// The name of state `MAX_STATES` (the first one too many).
    too_many: Option<Span>,
    /// The end of the state where the code passes [`MAX_CODE`].
    too_large: Option<Span>,
}

/// The value of a number the checker accepts (`super::check::number`).
fn number(n: &NumberRef<'_>) -> Option<u32> {
    if n.negative {
        return None;
    }
    // Digits only (a fraction is an error), at most `MAX_VALUE`.
    let mut v: u32 = 0;
    for b in n.text.bytes() {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        v = v.checked_mul(10)?.checked_add(d as u32)?;
        if v > MAX_VALUE {
            return None;
        }
    }
    (!n.text.is_empty()).then_some(v)
}

impl<'s> OnePass<'s> {
    /// Custom events (`super::check::events` without an error: a name
    /// starting with `_` is one), pushed.
    fn events(&mut self, names: &[NameRef<'s>]) -> bool {
        for e in names {
            if e.text.starts_with('_') {
                return false;
            }
            let id = self.names.id(&mut self.ir, e.text);
            self.ir.events.push(id);
        }
        true
    }

    /// Frames are kept until the code is known to be too large (then the
    /// file's only error is that, and nothing is lowered).
    fn keeping(&self) -> bool {
        self.too_large.is_none() && self.ir.code_len + self.cur.code <= MAX_CODE
    }

    fn finish(mut self) -> Option<Result<FlatIr, Vec<Diagnostic>>> {
        if self.ir.states.is_empty() {
            return None;
        }
        for &(s, name) in &self.gotos {
            let t = *self.state_of.get(name as usize)?;
            if t == u32::MAX {
                return None;
            }
            self.ir.states[s as usize].end = End::Goto(t);
        }
        if let Some(span) = self.too_many {
            return Some(Err(vec![too_many_states(span)]));
        }
        if self.spins() {
            return None;
        }
        if let Some(span) = self.too_large {
            return Some(Err(vec![code_too_large(span)]));
        }
        // The IR waits for lowering beside every other file's: give back
        // what the upper bounds reserved (in place, not a copy).
        let ir = &mut self.ir;
        ir.frames.shrink_to_fit();
        ir.events.shrink_to_fit();
        ir.states.shrink_to_fit();
        ir.text.shrink_to_fit();
        ir.ends.shrink_to_fit();
        Some(Ok(self.ir))
    }

    /// Would some state or cycle of transitions run forever within one
    /// tick (`super::check::check_progress` finds an error)?
    fn spins(&self) -> bool {
        let states = &self.ir.states;
        let zero = &self.zero;
        const NEW: u8 = 0;
        const ON_PATH: u8 = 1;
        const DONE: u8 = 2;
        let mut colour = vec![NEW; states.len()];
        let mut path = Vec::new();
        for start in 0..states.len() {
            if !zero[start] {
                continue;
            }
            if matches!(states[start].end, End::Loop | End::PingPong) {
                return true;
            }
            if colour[start] != NEW {
                continue;
            }
            let mut cur = start;
            loop {
                colour[cur] = ON_PATH;
                path.push(cur);
                let End::Goto(next) = states[cur].end else { break };
                let next = next as usize;
                if !zero[next] {
                    break;
                }
                match colour[next] {
                    ON_PATH => return true,
                    DONE => break,
                    _ => cur = next,
                }
            }
            for p in path.drain(..) {
                colour[p] = DONE;
            }
        }
        false
    }
}

impl<'s> Sink<'s> for OnePass<'s> {
    fn state(&mut self, name: NameRef<'s>, category: Option<NameRef<'s>>) -> bool {
        if name.text.starts_with('_') {
            return false;
        }
        let index = self.ir.states.len() as u32;
        let id = self.names.id(&mut self.ir, name.text);
        if self.state_of.len() <= id as usize {
            self.state_of.resize(id as usize + 1, u32::MAX);
        }
        if self.state_of[id as usize] != u32::MAX {
            return false;
        }
        self.state_of[id as usize] = index;
        if index as usize == MAX_STATES {
            self.too_many = Some(name.span);
        }
        let category = match category {
            Some(c) => self.names.id(&mut self.ir, c.text),
            None => id,
        };
        let events_start = self.ir.events.len() as u32;
        let frames_start = self.ir.frames.len() as u32;
        self.ir.states.push(FlatState {
            name: id,
            category,
            frames: (frames_start, frames_start),
            events_start,
            end_events: (events_start, events_start),
            end: End::Wait,
            end_pos: 0,
        });
        self.cur = Current { zero: true, ..Current::default() };
        true
    }

    fn frame(&mut self, frame: FrameRef<'s, '_>) -> bool {
        // Only the last frame may be an events-only one.
        if self.cur.end.is_some() {
            return false;
        }
        match frame {
            FrameRef::Timed { duration, index, events, span } => {
                let Some(d) = number(&duration) else { return false };
                let explicit = match index {
                    Some(i) => match number(&i) {
                        Some(x) => Some(x),
                        None => return false,
                    },
                    None => None,
                };
                let keep = self.keeping();
                let mark = self.ir.events.len();
                if !self.events(events) {
                    return false;
                }
                let n_events = (self.ir.events.len() - mark) as u64;
                if !keep {
                    self.ir.events.truncate(mark);
                }
                let sprite = match (explicit, d) {
                    (Some(x), _) => {
                        self.cur.counter = x as u64 + 1;
                        Some(x)
                    }
                    (None, 0) => None,
                    (None, _) => {
                        let x = self.cur.counter;
                        self.cur.counter += 1;
                        if x > MAX_VALUE as u64 {
                            return false;
                        }
                        Some(x as u32)
                    }
                };
                if self.cur.frames == 0 {
                    self.cur.first_sets_sprite = sprite.is_some();
                }
                self.cur.frames += 1;
                self.cur.zero &= d == 0;
                let len = frame_code_len(sprite.is_some(), n_events, d);
                self.cur.code += len;
                self.cur.last_len = len;
                if keep {
                    self.ir.frames.push(FlatFrame {
                        duration: d,
                        sprite: sprite.unwrap_or(NO_SPRITE),
                        pos: offset(span.start),
                        events_end: self.ir.events.len() as u32,
                    });
                }
                true
            }
            FrameRef::Control { head, events, span } => {
                let end = match head.text {
                    "_loop" => End::Loop,
                    "_wait" => End::Wait,
                    "_pingpong" => End::PingPong,
                    h if h.starts_with('_') => return false,
                    h => {
                        self.cur.goto = Some(self.names.id(&mut self.ir, h));
                        End::Goto(0)
                    }
                };
                if let Some(s) = self.ir.states.last_mut() {
                    s.frames.1 = self.ir.frames.len() as u32;
                    s.end_events.0 = self.ir.events.len() as u32;
                }
                if !self.events(events) {
                    return false;
                }
                self.cur.end = Some((end, span));
                true
            }
        }
    }

    fn end_state(&mut self, _span: Span) -> bool {
        let Some((end, end_span)) = self.cur.end else { return false };
        if end == End::PingPong && self.cur.frames < 2 {
            return false;
        }
        let index = self.ir.states.len() as u32 - 1;
        if let Some(target) = self.cur.goto {
            self.gotos.push((index, target));
        }
        let c = &self.cur;
        let first_sets_sprite = c.frames > 0 && c.first_sets_sprite;
        let (code, last_len) = (c.code, c.last_len);
        let end_events = self.ir.events.len() as u32;
        let Some(s) = self.ir.states.last_mut() else { return false };
        s.end = end;
        s.end_pos = offset(end_span.start);
        s.end_events.1 = end_events;
        let n_end_events = (s.end_events.1 - s.end_events.0) as u64;
        let len = state_code_len_of(first_sets_sprite, code, last_len, n_end_events, end);
        self.zero.push(c.zero);
        self.ir.code_len += len;
        if self.ir.code_len > MAX_CODE && self.too_large.is_none() {
            self.too_large = Some(end_span);
        }
        true
    }
}
