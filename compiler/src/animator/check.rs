//! The Animator checker: every command the reader returns goes through it
//! before lowering, in a file ([`check_script`]) as in a stream (one
//! [`Checker::check`] per command). It reports every error a command can
//! have beyond its syntax and hands lowering a [`Checked`] command, which
//! only this module can make: lowering never fails and never sees an
//! unchecked command.
//!
//! # What is checked, in this order
//!
//! 1. **What was written**, argument by argument as the text has them (the
//!    reader records values without judging them): numbers are finite
//!    (`` expected a number, found `inf` (not a finite number) ``), whole
//!    numbers are whole and within range (`` expected a whole number,
//!    found `2.5` ``), `#` colours have 1, 2, 3 or 6 hex digits, cursor
//!    bitmaps are 256 hex digits. The messages quote the text as written.
//! 2. **Macro structure**: `endmacro` only after `macro`, body commands
//!    only those `animator.md` lists, no empty body unless it only
//!    declares the name (`macro push NAME` + `endmacro`), every macro
//!    ended ([`Checker::finish`]).
//! 3. **Limits and meaning**: sizes and counts within the VM's limits
//!    (`animkit_vm::limits`), so that every program the compiler accepts
//!    passes the verifier; colour names known (with "did you mean");
//!    viewports not flat; every constant block of a function within the
//!    instruction word's reach.
//!
//! A command gets at most one error: the first in that order.
//!
//! The checker also makes the "did you mean" of a word that is not a
//! command ([`read_error`]), which the reader leaves to it.
//!
//! ```
//! use animkit_compiler::animator::check::{Checker, Text};
//! let src = "thick 2.5\nthick 3\n";
//! let (commands, _) = animkit_grammar::animator::parse(src);
//! let mut checker = Checker::for_file();
//! let err = checker.check(&commands[0], Text::of(src)).unwrap_err();
//! assert_eq!(err.diagnostic.message, "expected a whole number, found `2.5`");
//! assert_eq!((err.pos.line, err.pos.col), (1, 7));
//! assert!(checker.check(&commands[1], Text::of(src)).is_ok());
//! ```

use super::colors;
use super::lower;
use crate::diagnostic::Diagnostic;
use crate::suggest;
use animkit_grammar::Span;
use animkit_grammar::animator::ast::{Cmd, Color, Command, Int, Num, Point, Pos, Str};
use animkit_grammar::animator::lexer::Keyword;
use animkit_grammar::animator::{ReadError, ReadErrorKind};
use animkit_vm::isa::MAX_AX;
use animkit_vm::limits;

// The limits are the VM's (`animkit_vm::limits`), so that every program
// the compiler accepts passes the verifier; they are restated here with
// the integer types the checks below use.

/// Most vertices of one `circle` / `fillcircle`.
pub const MAX_CIRCLE_VERTICES: i64 = limits::MAX_CIRCLE_VERTICES as i64;
/// Most points in one point list (`lines`, `poly`, `area`, `imgpoly`, `echopt`).
pub const MAX_POINTS: usize = limits::MAX_POINTS;
/// Longest string argument, in bytes.
pub const MAX_STRING: usize = limits::MAX_STRING;
/// Largest `resize` width or height.
pub const MAX_WINDOW: i64 = limits::MAX_WINDOW as i64;
/// Largest `image W H` width or height.
pub const MAX_IMAGE: i64 = limits::MAX_IMAGE as i64;
/// Thickest line, in pixels.
pub const MAX_THICK: i64 = 1_024;

/// The commands allowed inside a macro body (`animator.md`).
pub const MACRO_COMMANDS: [&str; 26] = [
    "color",
    "alpha",
    "thick",
    "dash",
    "dot",
    "line",
    "arrow",
    "rect",
    "fillrect",
    "text",
    "blit",
    "lines",
    "poly",
    "circle",
    "fillcircle",
    "push",
    "pop",
    "mult",
    "rotate",
    "scale",
    "shift",
    "viewport",
    "ident",
    "invoke",
    "area",
    "delarea",
];

/// True if `cmd` may appear in a macro body (`clip` too, as the spec lists).
pub fn allowed_in_macro(cmd: &Cmd) -> bool {
    let k = cmd.keyword();
    k == "clip" || MACRO_COMMANDS.contains(&k)
}

/// The text commands were read from, for quoting what was written:
/// `bytes[i]` is byte `base + i` of the input. A file is its whole text; a
/// stream is what its reader still holds
/// (`animkit_grammar::animator::Reader::held`).
#[derive(Clone, Copy, Debug)]
pub struct Text<'t> {
    bytes: &'t [u8],
    base: usize,
}

impl<'t> Text<'t> {
    /// Bytes starting at absolute offset `base`.
    pub fn new(bytes: &'t [u8], base: usize) -> Text<'t> {
        Text { bytes, base }
    }

    /// A whole source text.
    pub fn of(src: &'t str) -> Text<'t> {
        Text { bytes: src.as_bytes(), base: 0 }
    }

    /// The bytes of `span` (empty where the text does not reach).
    pub fn get(&self, span: Span) -> &'t [u8] {
        let start = span.start.saturating_sub(self.base).min(self.bytes.len());
        let end = span.end.saturating_sub(self.base).clamp(start, self.bytes.len());
        &self.bytes[start..end]
    }

    /// The token at `span` as a message quotes it, as the reader does: in
    /// backticks, cut after 40 characters.
    fn quote(&self, span: Span) -> String {
        let text = String::from_utf8_lossy(self.get(span));
        match text.char_indices().nth(40) {
            Some((cut, _)) => format!("`{}...`", &text[..cut]),
            None => format!("`{text}`"),
        }
    }

    /// Line and column of absolute offset `at`, counted from `from` (at
    /// `pos`) over the text in between.
    fn pos_at(&self, from: usize, pos: Pos, at: usize) -> Pos {
        let mut p = pos;
        p.advance(self.get(Span::new(from, at.max(from))));
        p
    }
}

/// How a macro definition takes effect at `endmacro`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// `macro NAME ... endmacro`: the body replaces the binding.
    Bind,
    /// `macro push NAME ... endmacro`: the body extends it.
    Push,
    /// Nothing was recorded (`macro push NAME` + `endmacro`, or a body
    /// whose every command was an error): make sure the name exists.
    Declare,
}

/// What lowering does with a checked command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A command outside any macro: run it (a stream) or emit it into the
    /// main function (a file).
    Run,
    /// `macro`: begin recording.
    Begin,
    /// A command of the macro being recorded.
    Record,
    /// `endmacro`: the definition takes effect.
    End(Ending),
}

/// What the checker found out about a command, beyond its AST.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Facts {
    step: Step,
    /// The colour of `color`, `bg` and `colormap`, resolved to RGB in 0..1.
    rgb: [f64; 3],
}

/// A command the checker accepted; only this module makes one, so holding
/// one means the command was checked.
#[derive(Clone, Copy, Debug)]
pub struct Checked<'a> {
    cmd: &'a Command,
    facts: Facts,
}

impl<'a> Checked<'a> {
    /// The command.
    pub fn command(&self) -> &'a Command {
        self.cmd
    }

    /// What lowering does with it.
    pub fn step(&self) -> Step {
        self.facts.step
    }

    /// The colour of a `color`, `bg` or `colormap` command, in RGB 0..1
    /// (black for other commands).
    pub fn rgb(&self) -> [f64; 3] {
        self.facts.rgb
    }
}

/// An error the checker found: the diagnostic, and the line and column of
/// its primary span's start, which a stream's one-line report shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Rejected {
    /// What is wrong (boxed: the error is rare, and the checker's result
    /// stays small on the stream's hot path).
    pub diagnostic: Box<Diagnostic>,
    /// Where the primary span starts.
    pub pos: Pos,
}

/// The macro the checker is inside.
#[derive(Clone, Debug)]
struct OpenMacro {
    name: Str,
    span: Span,
    pos: Pos,
    push: bool,
    /// Commands accepted into the body.
    commands: usize,
    /// Body commands that were errors (or left out by a stream).
    rejected: usize,
    /// Constants of the body's function so far.
    consts: u64,
}

/// The checker's state across commands: the macro being recorded and the
/// size of the function commands go into.
#[derive(Clone, Debug)]
pub struct Checker {
    open: Option<OpenMacro>,
    /// Constants of the main function so far; `None` for a stream, where
    /// each top-level command is a function of its own.
    main_consts: Option<u64>,
}

impl Checker {
    /// A checker for a whole file: its top-level commands make one
    /// function.
    pub fn for_file() -> Checker {
        Checker { open: None, main_consts: Some(0) }
    }

    /// A checker for a stream: each top-level command runs on its own.
    pub fn for_stream() -> Checker {
        Checker { open: None, main_consts: None }
    }

    /// True between `macro` and `endmacro`.
    pub fn is_recording(&self) -> bool {
        self.open.is_some()
    }

    /// The name of the macro being recorded.
    pub fn macro_name(&self) -> Option<&str> {
        self.open.as_ref().map(|o| o.name.text.as_str())
    }

    /// Checks the next command; `text` holds what it was read from.
    #[inline]
    pub fn check<'a>(&mut self, cmd: &'a Command, text: Text<'_>) -> Result<Checked<'a>, Rejected> {
        // Most of a visualiser's stream, and of a script, is simple
        // commands at the top level.
        if self.open.is_none() {
            if let Some(facts) = quick(&cmd.kind) {
                let fits = match self.main_consts.as_mut() {
                    None => true,
                    Some(consts) => {
                        let (added, last_block) = lower::constants(&cmd.kind);
                        let fits = last_block.is_none_or(|offset| *consts + offset <= u64::from(MAX_AX));
                        if fits {
                            *consts += added;
                        }
                        fits
                    }
                };
                if fits {
                    return Ok(Checked { cmd, facts });
                }
            }
        }
        self.check_in_full(cmd, text)
    }

    /// [`Checker::check`] for every command, in the order of the module
    /// docs (out of line, so that the fast path stays small).
    #[inline(never)]
    fn check_in_full<'a>(&mut self, cmd: &'a Command, text: Text<'_>) -> Result<Checked<'a>, Rejected> {
        let reject = |this: &Checker, d: Diagnostic| this.rejected(cmd, text, d);
        // 1. What was written.
        if let Err(d) = as_written(&cmd.kind, text) {
            if let Some(open) = self.open.as_mut() {
                if !matches!(cmd.kind, Cmd::Endmacro | Cmd::Macro { .. }) {
                    open.rejected += 1;
                }
            }
            return Err(reject(self, d));
        }
        // 2. Macro structure.
        let step = match (&cmd.kind, self.open.as_mut()) {
            (Cmd::Endmacro, None) => {
                return Err(reject(
                    self,
                    Diagnostic::error(cmd.span, "`endmacro` without `macro`", "no macro is being recorded"),
                ));
            }
            (Cmd::Endmacro, Some(open)) => {
                let ending = match (open.commands, open.push) {
                    (0, true) => Ending::Declare,
                    (0, false) if open.rejected > 0 => Ending::Declare,
                    (0, false) => {
                        let open = self.open.take();
                        let d = empty_body(open.as_ref(), cmd);
                        let pos = open.map_or(cmd.pos, |o| o.pos);
                        return Err(Rejected { diagnostic: Box::new(d), pos });
                    }
                    (_, true) => Ending::Push,
                    (_, false) => Ending::Bind,
                };
                self.open = None;
                if let Some(consts) = self.main_consts.as_mut() {
                    if *consts > u64::from(MAX_AX) {
                        return Err(reject(self, too_many_constants(cmd.span)));
                    }
                    *consts += lower::definition_constants(ending);
                }
                return Ok(Checked { cmd, facts: Facts { step: Step::End(ending), rgb: [0.0; 3] } });
            }
            (Cmd::Macro { name, push }, None) => {
                string(name).map_err(|d| reject(self, d))?;
                self.open = Some(OpenMacro {
                    name: name.clone(),
                    span: cmd.span,
                    pos: cmd.pos,
                    push: *push,
                    commands: 0,
                    rejected: 0,
                    consts: 0,
                });
                return Ok(Checked { cmd, facts: Facts { step: Step::Begin, rgb: [0.0; 3] } });
            }
            (kind, Some(open)) if !allowed_in_macro(kind) => {
                open.rejected += 1;
                let d = not_in_macro(open, cmd);
                return Err(reject(self, d));
            }
            (_, Some(_)) => Step::Record,
            (_, None) => Step::Run,
        };
        // 3. Limits and meaning.
        let rgb = match limits_and_meaning(cmd) {
            Ok(rgb) => rgb,
            Err(d) => {
                if let Some(open) = self.open.as_mut() {
                    open.rejected += 1;
                }
                return Err(reject(self, d));
            }
        };
        let consts = match self.open.as_mut() {
            Some(open) => Some(&mut open.consts),
            None => self.main_consts.as_mut(),
        };
        if let Some(consts) = consts {
            let (added, last_block) = lower::constants(&cmd.kind);
            if last_block.is_some_and(|offset| *consts + offset > u64::from(MAX_AX)) {
                if let Some(open) = self.open.as_mut() {
                    open.rejected += 1;
                }
                return Err(reject(self, too_many_constants(cmd.span)));
            }
            *consts += added;
        }
        if let Some(open) = self.open.as_mut() {
            open.commands += 1;
        }
        Ok(Checked { cmd, facts: Facts { step, rgb } })
    }

    /// The end of the input: an error if a macro is still being recorded.
    pub fn finish(&mut self) -> Option<Rejected> {
        let open = self.open.take()?;
        let d =
            Diagnostic::error(open.span, format!("macro `{}` is never ended", open.name.text), "recording starts here")
                .with_help("add `endmacro` after its last command");
        Some(Rejected { diagnostic: Box::new(d), pos: open.pos })
    }

    /// A stream left the body command it was just given out of the macro
    /// (the macro would hold too much): it counts as an error of the body.
    pub fn leave_out(&mut self) {
        if let Some(open) = self.open.as_mut() {
            open.commands = open.commands.saturating_sub(1);
            open.rejected += 1;
        }
    }

    /// A stream did not begin the macro it was just given (it would hold
    /// too many strings): what follows is at the top level again.
    pub fn cancel_macro(&mut self) {
        self.open = None;
    }

    #[cold]
    fn rejected(&self, cmd: &Command, text: Text<'_>, diagnostic: Diagnostic) -> Rejected {
        let pos = text.pos_at(cmd.span.start, cmd.pos, diagnostic.span.start);
        Rejected { diagnostic: Box::new(diagnostic), pos }
    }
}

/// A checked Animator file: its commands in order, each accepted by the
/// checker, and the structure they make (every macro ended).
#[derive(Clone, Debug)]
pub struct Script {
    commands: Vec<Command>,
    facts: Vec<Facts>,
}

impl Script {
    /// The commands, checked, in order.
    pub fn iter(&self) -> impl Iterator<Item = Checked<'_>> {
        self.commands.iter().zip(&self.facts).map(|(cmd, &facts)| Checked { cmd, facts })
    }

    /// The commands as read.
    pub fn commands(&self) -> &[Command] {
        &self.commands
    }
}

/// Checks a whole file's commands (`text` is the file); returns the
/// checked script, or every error in source order.
///
/// ```
/// use animkit_compiler::animator::check::{check_script, Text};
/// let src = "macro m\nframe\nendmacro\ncolor bleu\n";
/// let (commands, _) = animkit_grammar::animator::parse(src);
/// let errors = check_script(commands, Text::of(src)).unwrap_err();
/// assert_eq!(errors[0].message, "`frame` is not allowed inside a macro");
/// assert_eq!(errors[1].message, "unknown colour `bleu`");
/// ```
pub fn check_script(commands: Vec<Command>, text: Text<'_>) -> Result<Script, Vec<Diagnostic>> {
    let mut checker = Checker::for_file();
    let mut facts = Vec::with_capacity(commands.len());
    let mut errors = Vec::new();
    for cmd in &commands {
        match checker.check(cmd, text) {
            Ok(c) => facts.push(c.facts),
            Err(r) => errors.push(*r.diagnostic),
        }
    }
    errors.extend(checker.finish().map(|r| *r.diagnostic));
    if errors.is_empty() {
        Ok(Script { commands, facts })
    } else {
        errors.sort_by_key(|d| d.span.start);
        Err(errors)
    }
}

/// A reader error as a diagnostic: a word that is not a command gets the
/// keyword it was probably meant to be, and a command cut short the label
/// of what ended it.
///
/// ```
/// use animkit_compiler::animator::check::{read_error, Text};
/// let src = "lien 0 0 1 1";
/// let (_, errors) = animkit_grammar::animator::parse_with_pos(src);
/// let d = read_error(&errors[0], Text::of(src));
/// assert_eq!(d.message, "expected a command, found `lien` (did you mean `line`?)");
/// ```
pub fn read_error(e: &ReadError, text: Text<'_>) -> Diagnostic {
    let mut d = Diagnostic::error(e.span, e.message.clone(), e.label.clone());
    if e.kind == ReadErrorKind::NotACommand {
        if let Some(k) = suggest_keyword(&String::from_utf8_lossy(text.get(e.span))) {
            d.message.push_str(&format!(" (did you mean `{k}`?)"));
        }
    }
    if let Some((span, label)) = &e.secondary {
        d = d.with_secondary(*span, label.clone());
    }
    d
}

/// The command keyword a mistyped word was probably meant to be: the same
/// word in another case, or one within two edits and a third of the
/// keyword's length.
///
/// ```
/// use animkit_compiler::animator::check::suggest_keyword;
/// assert_eq!(suggest_keyword("lien"), Some("line"));
/// assert_eq!(suggest_keyword("Frame"), Some("frame"));
/// assert_eq!(suggest_keyword("xyzzy"), None);
/// ```
pub fn suggest_keyword(word: &str) -> Option<&'static str> {
    if word.len() < 2 || word.len() > 20 {
        return None;
    }
    let lower = word.to_ascii_lowercase();
    Keyword::ALL
        .iter()
        .map(|k| (suggest::distance(&lower, k.as_str()), k.as_str()))
        .filter(|&(d, k)| d == 0 || (d <= 2 && d * 3 <= k.len()))
        .min_by_key(|&(d, _)| d)
        .map(|(_, k)| k)
}

// ----- the fast path -------------------------------------------------------

/// The facts of a simple command at the top level that passes every
/// check (its constants aside, which the caller counts), without building
/// anything: the commands whose only checks are
/// that their numbers are finite and their whole numbers in range. `None`
/// for any other command, and for one with an error, which the full check
/// then reports (a unit test compares the two on every form).
#[inline]
fn quick(cmd: &Cmd) -> Option<Facts> {
    let f = |n: &Num| n.value.is_finite();
    let p = |p: &Point| f(&p.x) & f(&p.y);
    let int = |i: &Int, hi: i64| i.not_int.is_none() & (0..=hi).contains(&i.value);
    let run = |ok: bool| ok.then_some(Facts { step: Step::Run, rgb: [0.0; 3] });
    match cmd {
        Cmd::Quit | Cmd::Frame | Cmd::Flush | Cmd::Push | Cmd::Pop | Cmd::Ident | Cmd::Killareas => run(true),
        Cmd::Line { from, to }
        | Cmd::Arrow { from, to }
        | Cmd::RectCorners { from, to }
        | Cmd::FillRectCorners { from, to } => run(p(from) & p(to)),
        Cmd::Rect { corner, width, height } | Cmd::FillRect { corner, width, height } => {
            run(p(corner) & f(width) & f(height))
        }
        Cmd::Circle { center, radius, vertices } | Cmd::FillCircle { center, radius, vertices } => {
            run(p(center) & f(radius) & int(vertices, MAX_CIRCLE_VERTICES))
        }
        Cmd::Dot { at } | Cmd::Warp { at } => run(p(at)),
        Cmd::Shift { x, y } | Cmd::Scale { x, y: Some(y) } => run(f(x) & f(y)),
        Cmd::Scale { x, y: None } => run(f(x)),
        Cmd::Rotate { degrees: n } | Cmd::Alpha { alpha: n } | Cmd::Sleep { seconds: n } => run(f(n)),
        Cmd::Clip { left, bottom, width: r, height: t } | Cmd::ClipCorners { left, bottom, right: r, top: t } => {
            run(f(left) & f(bottom) & f(r) & f(t))
        }
        Cmd::Thick { pixels } => run(int(pixels, MAX_THICK)),
        Cmd::Color { color: Color::Rgb(r, g, b) } | Cmd::Bg { color: Color::Rgb(r, g, b) } => {
            (f(r) & f(g) & f(b)).then(|| Facts { step: Step::Run, rgb: [r, g, b].map(colors::clamp) })
        }
        _ => None,
    }
}

// ----- 1. what was written ------------------------------------------------

/// Every argument's value as written, in the order of the text.
fn as_written(cmd: &Cmd, text: Text<'_>) -> Result<(), Diagnostic> {
    let num = |n: &Num| finite(n, text);
    let point = |p: &Point| finite(&p.x, text).and_then(|()| finite(&p.y, text));
    let points = |ps: &[Point]| ps.iter().try_for_each(point);
    let int = |i: &Int| whole(i, text);
    let color = |c: &Color| written_color(c, text);
    match cmd {
        Cmd::Quit
        | Cmd::Keepalive { .. }
        | Cmd::Events { .. }
        | Cmd::WarpArea { .. }
        | Cmd::Echo { .. }
        | Cmd::Title { .. }
        | Cmd::Frame
        | Cmd::Flush
        | Cmd::Screenshot { .. }
        | Cmd::Screendump { .. }
        | Cmd::Aspect { .. }
        | Cmd::ViewportMacro { .. }
        | Cmd::Push
        | Cmd::Pop
        | Cmd::Ident
        | Cmd::ImageLoad { .. }
        | Cmd::Delarea { .. }
        | Cmd::Killareas
        | Cmd::Macro { .. }
        | Cmd::Endmacro
        | Cmd::Invoke { .. }
        | Cmd::Forget
        | Cmd::Setcursor { .. } => Ok(()),
        Cmd::Resize { width, height } | Cmd::ImageNew { width, height, .. } => int(width).and_then(|()| int(height)),
        Cmd::Warp { at } | Cmd::Dot { at } | Cmd::InvokeAt { at, .. } => point(at),
        Cmd::Text { at, .. } | Cmd::Blit { at, .. } => point(at),
        Cmd::Echopt { points: ps, .. } | Cmd::Lines { points: ps } | Cmd::Poly { points: ps } => points(ps),
        Cmd::Area { points: ps, .. } | Cmd::ImgPolyUnit { points: ps, .. } => points(ps),
        Cmd::Sleep { seconds: n } | Cmd::Flushdelay { seconds: n } | Cmd::Rotate { degrees: n } => num(n),
        Cmd::Alpha { alpha: n } => num(n),
        Cmd::Bg { color: c } | Cmd::Color { color: c } | Cmd::Colormap { color: c, .. } => color(c),
        Cmd::Scale { x, y } => num(x).and_then(|()| y.as_ref().map_or(Ok(()), num)),
        Cmd::Shift { x, y } => num(x).and_then(|()| num(y)),
        Cmd::Viewport { left, bottom, width, height } | Cmd::Clip { left, bottom, width, height } => {
            [left, bottom, width, height].into_iter().try_for_each(num)
        }
        Cmd::ViewportCorners { left, bottom, right, top } | Cmd::ClipCorners { left, bottom, right, top } => {
            [left, bottom, right, top].into_iter().try_for_each(num)
        }
        Cmd::Mult { matrix } => matrix.iter().try_for_each(num),
        Cmd::Thick { pixels: i } | Cmd::Dash { pattern: i } => int(i),
        Cmd::Line { from, to }
        | Cmd::Arrow { from, to }
        | Cmd::RectCorners { from, to }
        | Cmd::FillRectCorners { from, to } => point(from).and_then(|()| point(to)),
        Cmd::Rect { corner, width, height } | Cmd::FillRect { corner, width, height } => {
            point(corner).and_then(|()| num(width)).and_then(|()| num(height))
        }
        Cmd::Circle { center, radius, vertices } | Cmd::FillCircle { center, radius, vertices } => {
            point(center).and_then(|()| num(radius)).and_then(|()| int(vertices))
        }
        Cmd::ImageSet { x, y, .. } => int(x).and_then(|()| int(y)),
        Cmd::ImgPoly { anchor, u, v, points: ps, .. } => {
            point(anchor).and_then(|()| point(u)).and_then(|()| point(v)).and_then(|()| points(ps))
        }
        Cmd::ImgPolyEdges { u, v, points: ps, .. } => point(u).and_then(|()| point(v)).and_then(|()| points(ps)),
        Cmd::ImgPolyAxes { ux, vy, points: ps, .. } => num(ux).and_then(|()| num(vy)).and_then(|()| points(ps)),
        Cmd::Defcursor { data, mask, hot_col, hot_row, .. } => {
            bitmap(data).and_then(|()| bitmap(mask)).and_then(|()| int(hot_col)).and_then(|()| int(hot_row))
        }
    }
}

// The checks on the stream's hot path are inline and their errors cold:
// a simple command costs a few comparisons.

#[inline]
fn finite(n: &Num, text: Text<'_>) -> Result<(), Diagnostic> {
    if n.value.is_finite() { Ok(()) } else { Err(not_finite(n, text)) }
}

#[cold]
#[inline(never)]
fn not_finite(n: &Num, text: Text<'_>) -> Diagnostic {
    let message = format!("expected a number, found {} (not a finite number)", text.quote(n.span));
    Diagnostic::error(n.span, message, "not finite")
}

#[inline]
fn whole(i: &Int, text: Text<'_>) -> Result<(), Diagnostic> {
    match i.not_int {
        None => Ok(()),
        Some(v) => Err(not_whole(i, v, text)),
    }
}

#[cold]
#[inline(never)]
fn not_whole(i: &Int, v: f64, text: Text<'_>) -> Diagnostic {
    let found = text.quote(i.span);
    let (message, label) = if !v.is_finite() {
        (format!("expected a whole number, found {found} (not a finite number)"), "not finite")
    } else if v.fract() != 0.0 {
        (format!("expected a whole number, found {found}"), "not a whole number")
    } else {
        (format!("expected a whole number, found {found} (out of range)"), "too large")
    };
    Diagnostic::error(i.span, message, label)
}

fn written_color(c: &Color, text: Text<'_>) -> Result<(), Diagnostic> {
    match c {
        Color::Name(_) => Ok(()),
        Color::Hex(s) => {
            let digits = s.text.strip_prefix('#').unwrap_or(&s.text);
            if matches!(digits.len(), 1 | 2 | 3 | 6) && digits.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Ok(());
            }
            let message =
                format!("expected a colour, found {} (`#` takes 1, 2, 3 or 6 hex digits)", text.quote(s.span));
            Err(Diagnostic::error(s.span, message, "not a colour"))
        }
        Color::Rgb(r, g, b) => [r, g, b].into_iter().try_for_each(|n| finite(n, text)),
        Color::Gray(g) => finite(g, text),
    }
}

/// A cursor bitmap: exactly 256 hex digits.
fn bitmap(s: &Str) -> Result<(), Diagnostic> {
    if let Some((i, c)) = s.text.chars().enumerate().find(|(_, c)| !c.is_ascii_hexdigit()) {
        let message = format!("expected 256 hex digits, found `{c}` at character {}", i + 1);
        return Err(Diagnostic::error(s.span, message, "not a hex digit"));
    }
    if s.text.len() != 256 {
        let message = format!("expected 256 hex digits, found {} characters", s.text.len());
        return Err(Diagnostic::error(s.span, message, "not 256 hex digits"));
    }
    Ok(())
}

// ----- 2. macro structure ---------------------------------------------------

fn not_in_macro(open: &OpenMacro, cmd: &Command) -> Diagnostic {
    let d = Diagnostic::error(
        cmd.span,
        format!("`{}` is not allowed inside a macro", cmd.kind.keyword()),
        format!("inside macro `{}`", open.name.text),
    )
    .with_secondary(open.span, "the macro starts here")
    .with_note(format!("macros hold drawing and transformation commands only: {} clip", MACRO_COMMANDS.join(" ")));
    if matches!(cmd.kind, Cmd::Macro { .. }) {
        d.with_help(format!("end macro `{}` with `endmacro` before starting another", open.name.text))
    } else {
        d
    }
}

fn empty_body(open: Option<&OpenMacro>, end: &Command) -> Diagnostic {
    let (name, span) = open.map_or(("", end.span), |o| (o.name.text.as_str(), o.span));
    Diagnostic::error(span, format!("macro `{name}` has an empty body"), "nothing between here and `endmacro`")
        .with_secondary(end.span, "ends here")
        .with_help("to make sure a macro exists without changing it, use `macro push NAME` followed by `endmacro`")
}

// ----- 3. limits and meaning -------------------------------------------------

/// The checks that need meaning, in the order lowering uses the
/// arguments; returns the resolved colour of colour commands.
fn limits_and_meaning(cmd: &Command) -> Result<[f64; 3], Diagnostic> {
    let none = [0.0; 3];
    match &cmd.kind {
        Cmd::Quit
        | Cmd::Keepalive { .. }
        | Cmd::Events { .. }
        | Cmd::Warp { .. }
        | Cmd::Frame
        | Cmd::Flush
        | Cmd::Screendump { file: None }
        | Cmd::Sleep { .. }
        | Cmd::Flushdelay { .. }
        | Cmd::Aspect { .. }
        | Cmd::Rotate { .. }
        | Cmd::Scale { .. }
        | Cmd::Shift { .. }
        | Cmd::Mult { .. }
        | Cmd::Push
        | Cmd::Pop
        | Cmd::Ident
        | Cmd::Clip { .. }
        | Cmd::ClipCorners { .. }
        | Cmd::Alpha { .. }
        | Cmd::Dot { .. }
        | Cmd::Line { .. }
        | Cmd::Arrow { .. }
        | Cmd::Rect { .. }
        | Cmd::RectCorners { .. }
        | Cmd::FillRect { .. }
        | Cmd::FillRectCorners { .. }
        | Cmd::Killareas
        | Cmd::Forget
        | Cmd::Macro { .. }
        | Cmd::Endmacro => Ok(none),
        Cmd::Resize { width, height } => {
            in_range(width, 1, MAX_WINDOW, "width")?;
            in_range(height, 1, MAX_WINDOW, "height")?;
            Ok(none)
        }
        Cmd::WarpArea { area: s }
        | Cmd::Echo { text: s }
        | Cmd::Title { text: s }
        | Cmd::Screenshot { file: s }
        | Cmd::Screendump { file: Some(s) }
        | Cmd::ViewportMacro { name: s, .. }
        | Cmd::Text { text: s, .. }
        | Cmd::Blit { image: s, .. }
        | Cmd::Delarea { name: s }
        | Cmd::Invoke { name: s }
        | Cmd::InvokeAt { name: s, .. }
        | Cmd::Setcursor { name: s } => string(s).map(|()| none),
        Cmd::Echopt { text, points } => {
            point_count(points, cmd.span)?;
            string(text).map(|()| none)
        }
        Cmd::Bg { color } | Cmd::Color { color } | Cmd::Colormap { color, .. } => resolve(color),
        Cmd::Viewport { width, height, .. } => {
            if width.value == 0.0 || height.value == 0.0 {
                return Err(Diagnostic::error(
                    width.span.to(height.span),
                    "viewport of zero width or height",
                    "must not be 0",
                ));
            }
            Ok(none)
        }
        Cmd::ViewportCorners { left, bottom, right, top } => {
            if left.value == right.value || bottom.value == top.value {
                return Err(Diagnostic::error(
                    left.span.to(top.span),
                    "viewport of zero width or height",
                    "corners must differ",
                ));
            }
            Ok(none)
        }
        Cmd::Thick { pixels } => in_range(pixels, 0, MAX_THICK, "thickness").map(|()| none),
        Cmd::Dash { pattern } => in_range(pattern, 0, limits::MAX_DASH as i64, "dash pattern").map(|()| none),
        Cmd::Lines { points } | Cmd::Poly { points } => point_count(points, cmd.span).map(|()| none),
        Cmd::Circle { vertices, .. } | Cmd::FillCircle { vertices, .. } => {
            in_range(vertices, 0, MAX_CIRCLE_VERTICES, "vertex count").map(|()| none)
        }
        Cmd::ImageLoad { name, path } => string(name).and_then(|()| string(path)).map(|()| none),
        Cmd::ImageNew { width, height, name } => {
            in_range(width, 1, MAX_IMAGE, "image width")?;
            in_range(height, 1, MAX_IMAGE, "image height")?;
            string(name).map(|()| none)
        }
        Cmd::ImageSet { image, x, y, pixels } => {
            in_range(x, 0, MAX_IMAGE, "column")?;
            in_range(y, 0, MAX_IMAGE, "row")?;
            string(image).and_then(|()| string(pixels)).map(|()| none)
        }
        Cmd::ImgPoly { image, points, .. }
        | Cmd::ImgPolyEdges { image, points, .. }
        | Cmd::ImgPolyAxes { image, points, .. }
        | Cmd::ImgPolyUnit { image, points } => {
            point_count(points, cmd.span)?;
            string(image).map(|()| none)
        }
        Cmd::Area { name, points } => {
            point_count(points, cmd.span)?;
            string(name).map(|()| none)
        }
        Cmd::Defcursor { name, data, mask, hot_col, hot_row } => {
            let hot = limits::MAX_CURSOR_HOT as i64;
            in_range(hot_col, 0, hot, "hot spot column")?;
            in_range(hot_row, 0, hot, "hot spot row")?;
            string(name).and_then(|()| string(data)).and_then(|()| string(mask)).map(|()| none)
        }
    }
}

fn in_range(i: &Int, lo: i64, hi: i64, what: &str) -> Result<(), Diagnostic> {
    if (lo..=hi).contains(&i.value) {
        Ok(())
    } else {
        Err(Diagnostic::error(i.span, format!("{what} {} is out of range", i.value), format!("expected {lo} to {hi}")))
    }
}

fn string(s: &Str) -> Result<(), Diagnostic> {
    if s.text.len() > MAX_STRING {
        return Err(Diagnostic::error(
            s.span,
            format!("string of {} bytes is too long", s.text.len()),
            format!("at most {MAX_STRING}"),
        ));
    }
    Ok(())
}

fn point_count(points: &[Point], span: Span) -> Result<(), Diagnostic> {
    if points.len() > MAX_POINTS {
        return Err(Diagnostic::error(
            span,
            format!("{} points in one command", points.len()),
            format!("at most {MAX_POINTS}"),
        ));
    }
    Ok(())
}

fn resolve(c: &Color) -> Result<[f64; 3], Diagnostic> {
    colors::resolve(c).map_err(|e| match (e.suggestion, c) {
        (Some(s), Color::Name(name)) => {
            Diagnostic::error(e.span, format!("unknown colour `{}`", name.text), "unknown colour")
                .with_help(format!("did you mean `{s}`?"))
        }
        _ => Diagnostic::error(e.span, e.message.clone(), "not a colour"),
    })
}

fn too_many_constants(span: Span) -> Diagnostic {
    Diagnostic::error(span, "the script has too many arguments for one module", "split it into several files")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The messages of checking `src` as a file, with line:col.
    fn errors(src: &str) -> Vec<String> {
        let (commands, syntax) = animkit_grammar::animator::parse(src);
        assert!(syntax.is_empty(), "{syntax:?}");
        let mut checker = Checker::for_file();
        let mut out: Vec<String> = commands
            .iter()
            .filter_map(|c| checker.check(c, Text::of(src)).err())
            .map(|r| format!("{}: {}", r.pos, r.diagnostic.message))
            .collect();
        out.extend(checker.finish().map(|r| format!("{}: {}", r.pos, r.diagnostic.message)));
        out
    }

    #[test]
    fn values_as_written() {
        let cursor = "0".repeat(256);
        assert_eq!(
            errors(&format!(
                "circle 0 0 1 2.5\nsleep -nan\ncolor \"#12345\"\nthick 1e30\ndefcursor c {} {cursor} 1 1\ndash inf\nline 0 0 1 1e999",
                "0".repeat(255)
            )),
            [
                "1:14: expected a whole number, found `2.5`",
                "2:7: expected a number, found `-nan` (not a finite number)",
                "3:7: expected a colour, found `\"#12345\"` (`#` takes 1, 2, 3 or 6 hex digits)",
                "4:7: expected a whole number, found `1e30` (out of range)",
                "5:13: expected 256 hex digits, found 255 characters",
                "6:6: expected a whole number, found `inf` (not a finite number)",
                "7:12: expected a number, found `1e999` (not a finite number)",
            ]
        );
        let long = format!("sleep 1{}e999", "0".repeat(50));
        let quoted = format!("`1{}...`", "0".repeat(39));
        assert_eq!(errors(&long), [format!("1:7: expected a number, found {quoted} (not a finite number)")]);
    }

    #[test]
    fn the_first_error_of_a_command_in_the_order_of_the_text() {
        assert_eq!(errors("circle inf 0 1 2.5"), ["1:8: expected a number, found `inf` (not a finite number)"]);
        assert_eq!(errors("resize 0 2.5"), ["1:10: expected a whole number, found `2.5`"]);
        assert_eq!(errors("resize 0 99999"), ["1:8: width 0 is out of range"]);
    }

    #[test]
    fn macro_structure() {
        assert_eq!(
            errors("endmacro\nmacro a\n  dot 0 0\n  flush\nendmacro\nmacro e\nendmacro\nmacro o\n"),
            [
                "1:1: `endmacro` without `macro`",
                "4:3: `flush` is not allowed inside a macro",
                "6:1: macro `e` has an empty body",
                "8:1: macro `o` is never ended",
            ]
        );
        // A body whose every command was an error only declares the name.
        let src = "macro m\n  thick 2.5\nendmacro\n";
        let (commands, _) = animkit_grammar::animator::parse(src);
        let mut checker = Checker::for_stream();
        let steps: Vec<_> = commands.iter().map(|c| checker.check(c, Text::of(src)).map(|c| c.step()).ok()).collect();
        assert_eq!(steps, [Some(Step::Begin), None, Some(Step::End(Ending::Declare))]);
    }

    #[test]
    fn a_stream_can_leave_commands_out_and_cancel_macros() {
        let src = "macro m\n  dot 0 0\nendmacro\nmacro n\nendmacro\n";
        let (commands, _) = animkit_grammar::animator::parse(src);
        let mut checker = Checker::for_stream();
        assert_eq!(checker.check(&commands[0], Text::of(src)).unwrap().step(), Step::Begin);
        assert_eq!(checker.check(&commands[1], Text::of(src)).unwrap().step(), Step::Record);
        checker.leave_out();
        assert_eq!(checker.check(&commands[2], Text::of(src)).unwrap().step(), Step::End(Ending::Declare));
        assert_eq!(checker.check(&commands[3], Text::of(src)).unwrap().step(), Step::Begin);
        checker.cancel_macro();
        assert!(!checker.is_recording());
        assert_eq!(checker.check(&commands[4], Text::of(src)).unwrap_err().pos, Pos { line: 5, col: 1 });
    }

    #[test]
    fn functions_keep_their_blocks_within_reach() {
        let mut checker = Checker::for_file();
        let (commands, _) = animkit_grammar::animator::parse("lines 0 0 1 1\n");
        let text = Text::of("lines 0 0 1 1\n");
        checker.main_consts = Some(u64::from(MAX_AX));
        assert!(checker.check(&commands[0], text).is_ok());
        let err = checker.check(&commands[0], text).unwrap_err();
        assert_eq!(err.diagnostic.message, "the script has too many arguments for one module");
        // The same through the fast path.
        let text = Text::of("line 0 0 1 1\npush\n");
        let (commands, _) = animkit_grammar::animator::parse("line 0 0 1 1\npush\n");
        checker.main_consts = Some(u64::from(MAX_AX));
        assert!(checker.check(&commands[0], text).is_ok());
        assert!(checker.check(&commands[1], text).is_ok(), "no block, nothing to reach");
        assert!(checker.check(&commands[0], text).is_err());
    }

    #[test]
    fn the_fast_path_agrees_with_the_full_check() {
        let src = "quit frame flush push pop ident killareas line 0 0 1 1 arrow 0 inf 1 1 rect 0 0 - 1 1 \
            fillrect 0 0 - nan 1 rect 0 0 1 1 fillrect 0 0 1 -inf circle 0 0 1 65536 circle 0 0 1 65537 \
            fillcircle 0 0 1 -1 fillcircle 0 0 1 2.5 fillcircle 0 0 1e999 8 dot 1 2 warp 0 nan shift 1 2 scale 2 \
            scale 2 inf scale nan rotate 45 alpha 2 sleep inf clip 0 0 1 1 clip 0 0 - 1 nan thick 1024 thick 1025 \
            thick -1 thick 0.5 color 2 -1 0.5 bg 0.1 0.2 0.3 color 0 nan 0 color red color 0.5 echo hi";
        let (commands, errors) = animkit_grammar::animator::parse(src);
        assert!(errors.is_empty(), "{errors:?}");
        let mut quick_ones = 0;
        for cmd in &commands {
            let full = Checker::for_stream().check_in_full(cmd, Text::of(src)).ok().map(|c| c.facts);
            match quick(&cmd.kind) {
                Some(facts) => {
                    quick_ones += 1;
                    assert_eq!(Some(facts), full, "{:?}", cmd.kind);
                }
                // Either not a fast command, or one with an error.
                None => assert!(full.is_none() || !is_fast(&cmd.kind), "{:?}", cmd.kind),
            }
        }
        assert_eq!(quick_ones, 20);
    }

    /// The commands [`quick`] handles.
    fn is_fast(cmd: &Cmd) -> bool {
        !matches!(cmd, Cmd::Echo { .. } | Cmd::Color { color: Color::Name(_) | Color::Gray(_), .. })
    }

    #[test]
    fn keyword_suggestions() {
        assert_eq!(suggest_keyword("lien"), Some("line"));
        assert_eq!(suggest_keyword("Frame"), Some("frame"));
        assert_eq!(suggest_keyword("fillcirle"), Some("fillcircle"));
        assert_eq!(suggest_keyword("xyzzy"), None);
        assert_eq!(suggest_keyword("5"), None);
    }

    #[test]
    fn positions_in_a_stream_follow_the_held_text() {
        let src = "frame\n  circle 0\n 0 1 2.5";
        let (commands, _) = animkit_grammar::animator::parse(src);
        let held = &src.as_bytes()[6..];
        let err = Checker::for_stream().check(&commands[1], Text::new(held, 6)).unwrap_err();
        assert_eq!(err.pos, Pos { line: 3, col: 6 });
    }
}
