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
//!    (`animkit_vm::engine::limits`), so that every program the compiler accepts
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

mod macros;
mod meaning;
mod quick_facts;
mod suggestions;
#[cfg(test)]
mod tests;
mod written;

use super::sizes;
use crate::diagnostic::Diagnostic;
use animkit_grammar::Span;
use animkit_grammar::animator::ast::{Cmd, Command, Pos, Str};
use animkit_vm::engine::isa::MAX_AX;
use animkit_vm::engine::limits;
use macros::{empty_body, not_in_macro};
use meaning::{limits_and_meaning, string, too_many_constants};
use quick_facts::quick;
use written::as_written;

pub use macros::allowed_in_macro;
pub use suggestions::{read_error, suggest_keyword};

// The limits are the VM's (`animkit_vm::engine::limits`), so that every program
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
                        let (added, last_block) = sizes::constants(&cmd.kind);
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
                    *consts += sizes::definition_constants(ending != Ending::Declare);
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
            let (added, last_block) = sizes::constants(&cmd.kind);
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
    let mut errors = crate::diagnostic::Kept::new();
    for cmd in &commands {
        match checker.check(cmd, text) {
            Ok(c) => facts.push(c.facts),
            Err(r) => errors.push(*r.diagnostic),
        }
    }
    errors.extend(checker.finish().map(|r| *r.diagnostic));
    if errors.is_empty() { Ok(Script { commands, facts }) } else { Err(errors.finish()) }
}
