//! Animator streams: commands read incrementally (from standard input)
//! and each run the moment it is complete, through the same lowering and
//! VM as a compiled script.
//!
//! Every top-level command is lowered into a small chunk function and run
//! at once. A macro definition is recorded command by command and becomes a
//! function when `endmacro` arrives; a redefinition or `forget` frees the
//! functions it replaces, and strings used only by one command are dropped
//! after it ran, so a stream that runs for hours keeps its memory bounded.
//!
//! What a stream keeps is also capped, whatever arrives: the macros hold at
//! most [`MAX_MACRO_SIZE`] instructions and constants in all, and the
//! strings they use at most [`MAX_MACRO_STRINGS`] bytes; a macro body
//! command that would pass either limit is an error (at that command) and
//! is left out of the body. Names that no macro uses any more (from
//! `invoke` of unknown names, redefinitions, `forget`) are dropped once they
//! take four times the space of the last clean-up. The reader bounds the
//! pending command (`animkit_grammar::animator::reader`), the interpreter
//! the work of one command ([`animkit_vm::interp::Limits`]).
//!
//! Each command goes through the compiler's checker
//! (`animkit_compiler::animator::check::Checker`) before it is lowered, as
//! in a compiled file; a malformed command gets one line on the error
//! output, `<stdin>:LINE:COL: error: MESSAGE`, at the start of the
//! error's primary span (the command's keyword for a command cut short or
//! not allowed where it is, the argument for a wrong argument), and the
//! stream goes on.
//!
//! ```
//! use animkit_runtime::stream::{Stream, Status};
//! use animkit_vm::animator::record::{Call, Recorder};
//! let mut errors = Vec::new();
//! let mut s = Stream::new(Recorder::default(), "<stdin>");
//! s.push(b"echo hi\nbogus 1\necho there\n");
//! s.finish();
//! assert_eq!(s.run(&mut errors), Status::Done);
//! assert_eq!(s.canvas().calls, [Call::Echo("hi".into()), Call::Echo("there".into())]);
//! assert_eq!(String::from_utf8(errors).unwrap(),
//!     "<stdin>:2:1: error: expected a command, found `bogus`\n");
//! ```

use crate::report;
use animkit_compiler::animator::check::{self, Checked, Checker, Rejected, Step, Text};
use animkit_compiler::animator::lower::{self, Definition, Recorded, Recorder, Strings};
use animkit_compiler::builder::FunctionBuilder;
use animkit_grammar::animator::Reader;
use animkit_grammar::animator::ast::{Cmd, Pos};
use animkit_vm::animator::{AnimatorVm, Canvas};
use animkit_vm::interp::Exit;
use animkit_vm::isa::{Insn, Op};
use animkit_vm::program::{ConstKind, FuncId, Function, Language, Module, StrId};
use std::collections::HashMap;
use std::io::Write;

/// What a stream needs next.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Status {
    /// Every complete command ran; push more input (or `finish`).
    NeedInput,
    /// A command (`sleep`, `flushdelay` in a window) asked to wait this many
    /// seconds; call [`Stream::run`] again afterwards.
    Suspended(f64),
    /// Input ended and every command ran.
    Done,
    /// `quit` ran.
    Quit,
}

/// Most instructions and constants the macros of one stream may hold in
/// all (about 200 MB).
pub const MAX_MACRO_SIZE: usize = 1 << 24;
/// Most bytes of strings (macro names, texts inside macro bodies) a stream
/// may keep.
pub const MAX_MACRO_STRINGS: usize = 64 << 20;

/// What a stream may keep (see the module documentation); the defaults are
/// [`MAX_MACRO_SIZE`] and [`MAX_MACRO_STRINGS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamLimits {
    /// Most instructions and constants in all macros.
    pub macro_size: usize,
    /// Most bytes of kept strings.
    pub macro_strings: usize,
}

impl Default for StreamLimits {
    fn default() -> StreamLimits {
        StreamLimits { macro_size: MAX_MACRO_SIZE, macro_strings: MAX_MACRO_STRINGS }
    }
}

/// Ids at or above this are strings of the command being lowered; they are
/// renumbered to follow the permanent strings just before it runs.
const SCRATCH: StrId = 1 << 31;

/// Strings of a stream: permanent ones (macro names, macro bodies) and the
/// current command's scratch strings.
#[derive(Default)]
struct LiveStrings {
    table: Vec<String>,
    index: HashMap<String, StrId>,
    scratch: Vec<String>,
    /// While recording a macro body, texts are permanent too.
    all_permanent: bool,
    /// Permanent-table size after the last compaction.
    compacted_at: usize,
    /// Bytes in the permanent table, now and after the last compaction.
    bytes: usize,
    compacted_bytes: usize,
}

impl LiveStrings {
    fn intern(&mut self, s: &str) -> StrId {
        if let Some(&id) = self.index.get(s) {
            return id;
        }
        let id = self.table.len() as StrId;
        self.table.push(s.to_string());
        self.index.insert(s.to_string(), id);
        self.bytes += s.len();
        id
    }

    /// Forgets the permanent strings added after the table had `len`.
    fn rollback(&mut self, len: usize) {
        for s in self.table.drain(len.min(self.table.len())..) {
            self.index.remove(&s);
            self.bytes -= s.len();
        }
    }

    /// True when the permanent table has grown enough since the last
    /// compaction to be worth compacting.
    fn wants_compaction(&self) -> bool {
        self.table.len() > 4 * self.compacted_at.max(1024) || self.bytes > 4 * self.compacted_bytes.max(1 << 20)
    }
}

impl Strings for LiveStrings {
    fn name(&mut self, s: &str) -> StrId {
        self.intern(s)
    }
    fn text(&mut self, s: &str) -> StrId {
        if self.all_permanent {
            return self.intern(s);
        }
        if let Some(&id) = self.index.get(s) {
            return id;
        }
        self.scratch.push(s.to_string());
        SCRATCH + self.scratch.len() as StrId - 1
    }
}

/// An Animator stream over a canvas.
pub struct Stream<C: Canvas> {
    reader: Reader,
    vm: AnimatorVm<C>,
    module: Module,
    strings: LiveStrings,
    free: Vec<FuncId>,
    checker: Checker,
    recorder: Recorder,
    source: String,
    running: bool,
    finished: bool,
    quit: bool,
    errors: usize,
    commands: u64,
    /// Instructions plus constants of the installed macro functions.
    macro_size: usize,
    limits: StreamLimits,
}

impl<C: Canvas> Stream<C> {
    /// A stream drawing on `canvas`; `source` names it in error lines.
    pub fn new(canvas: C, source: &str) -> Stream<C> {
        let mut strings = LiveStrings::default();
        let main = strings.intern("<command>");
        let module = Module {
            name: main,
            language: Language::Animator,
            functions: vec![Function { name: main, code: vec![Insn::ax(Op::Halt, 0)], ..Function::default() }],
            states: vec![],
            entry: Some(0),
            source: Some(source.to_string()),
        };
        Stream {
            reader: Reader::new(),
            vm: AnimatorVm::new(canvas),
            module,
            strings,
            free: Vec::new(),
            checker: Checker::for_stream(),
            recorder: Recorder::default(),
            source: source.to_string(),
            running: false,
            finished: false,
            quit: false,
            errors: 0,
            commands: 0,
            macro_size: 0,
            limits: StreamLimits::default(),
        }
    }

    /// Replaces the limits on what the program may hold on its host
    /// (areas, images, cursors).
    pub fn set_host_limits(&mut self, limits: animkit_vm::animator::machine::HostLimits) {
        self.vm.machine.host_limits = limits;
    }

    /// Replaces the limits on what the stream keeps.
    pub fn set_stream_limits(&mut self, limits: StreamLimits) {
        self.limits = limits;
    }

    /// Replaces the interpreter's limits (call depth, work per command);
    /// tests and fuzzing use small ones.
    pub fn set_limits(&mut self, limits: animkit_vm::interp::Limits) {
        self.vm.fiber = std::mem::take(&mut self.vm.fiber).with_limits(limits);
    }

    /// Strings the stream keeps (count, bytes): macro names and the texts of
    /// macro bodies, plus names not yet cleaned up.
    pub fn retained_strings(&self) -> (usize, usize) {
        (self.strings.table.len(), self.strings.bytes)
    }

    /// Instructions plus constants held by the stream's macros.
    pub fn macro_size(&self) -> usize {
        self.macro_size
    }

    /// Bytes the reader holds (see `Reader::buffered`).
    pub fn buffered(&self) -> usize {
        self.reader.buffered()
    }

    /// The canvas.
    pub fn canvas(&self) -> &C {
        self.vm.machine.canvas()
    }

    /// The canvas, mutably (a window host feeds it input events).
    pub fn canvas_mut(&mut self) -> &mut C {
        self.vm.machine.canvas_mut()
    }

    /// Ends the stream, giving its canvas back.
    pub fn into_canvas(self) -> C {
        self.vm.machine.into_canvas()
    }

    /// Errors reported so far.
    pub fn error_count(&self) -> usize {
        self.errors
    }

    /// Commands run so far.
    pub fn command_count(&self) -> u64 {
        self.commands
    }

    /// More input bytes (split anywhere).
    pub fn push(&mut self, bytes: &[u8]) {
        self.reader.push(bytes);
    }

    /// Reads what is available from `src` into the stream (one `read`);
    /// returns the byte count, 0 at end of input.
    pub fn read_from(&mut self, src: &mut impl std::io::Read) -> std::io::Result<usize> {
        self.reader.read_from(src)
    }

    /// End of input: the last pending command completes.
    pub fn finish(&mut self) {
        self.reader.finish();
        self.finished = true;
    }

    /// Runs every complete command (resuming a suspended one first), writing
    /// error lines to `errors`.
    pub fn run(&mut self, errors: &mut dyn Write) -> Status {
        if self.quit {
            return Status::Quit;
        }
        if self.running {
            if let Some(status) = self.drive(errors) {
                return status;
            }
        }
        while let Some(next) = self.reader.next() {
            if next.is_ok() {
                self.commands += 1;
                // Between two commands, with no macro being recorded, no
                // code holds a string id that compaction would change.
                if !self.recorder.is_recording() && self.strings.wants_compaction() {
                    self.compact_strings();
                }
            }
            // What the command was read from, for the checker's quotes.
            let (held, base) = self.reader.held();
            let text = Text::new(held, base);
            match &next {
                Ok(cmd) => match self.checker.check(cmd, text) {
                    Ok(checked) => {
                        if let Some(status) = self.command(checked, errors) {
                            return status;
                        }
                    }
                    Err(rejected) => self.reject(errors, &rejected),
                },
                Err(e) => {
                    self.errors += 1;
                    let message = check::read_error(e, text).message;
                    report::error_line(errors, &self.source, Some((e.pos.line, e.pos.col)), &message);
                }
            }
        }
        if self.finished {
            if let Some(rejected) = self.checker.finish() {
                self.recorder.cancel();
                let message = format!("{} (input ended inside it)", rejected.diagnostic.message);
                self.fail(errors, rejected.pos, &message);
            }
            Status::Done
        } else {
            Status::NeedInput
        }
    }

    fn fail(&mut self, errors: &mut dyn Write, pos: Pos, message: &str) {
        self.errors += 1;
        report::error_line(errors, &self.source, Some((pos.line, pos.col)), message);
    }

    fn reject(&mut self, errors: &mut dyn Write, rejected: &Rejected) {
        self.fail(errors, rejected.pos, &rejected.diagnostic.message);
    }

    fn command(&mut self, c: Checked<'_>, errors: &mut dyn Write) -> Option<Status> {
        let cmd = c.command();
        match c.step() {
            Step::Begin => {
                let Cmd::Macro { name, .. } = &cmd.kind else { return None };
                if self.strings.bytes + name.text.len() > self.limits.macro_strings {
                    self.compact_strings();
                }
                let before = self.strings.table.len();
                self.recorder.add(c, &mut self.strings, true);
                if self.strings.bytes > self.limits.macro_strings {
                    self.strings.rollback(before);
                    self.recorder.cancel();
                    self.checker.cancel_macro();
                    let message = format!(
                        "macros would hold more than {} bytes of strings in all; macro `{}` is not defined (`forget` frees macros)",
                        self.limits.macro_strings, name.text
                    );
                    self.fail(errors, cmd.pos, &message);
                }
            }
            Step::End(_) => {
                self.strings.all_permanent = true;
                let recorded = self.recorder.add(c, &mut self.strings, true);
                self.strings.all_permanent = false;
                if let Recorded::Defined(def) = recorded {
                    self.define(def);
                }
            }
            Step::Record => {
                let strings = self.strings.table.len();
                self.strings.all_permanent = true;
                let recorded = self.recorder.add(c, &mut self.strings, true);
                self.strings.all_permanent = false;
                if let Recorded::Body(mark) = recorded {
                    if self.macro_size + self.recorder.body_size() > self.limits.macro_size
                        || self.strings.bytes > self.limits.macro_strings
                    {
                        self.recorder.leave_out(mark);
                        self.checker.leave_out();
                        self.strings.rollback(strings);
                        let StreamLimits { macro_size, macro_strings } = self.limits;
                        let name = match self.checker.macro_name() {
                            Some(n) => n.to_string(),
                            None => String::new(),
                        };
                        let message = format!(
                            "macros would hold more than {macro_size} instructions and constants, or {macro_strings} bytes of strings, in all; this command is left out of macro `{name}` (`forget` frees macros)"
                        );
                        self.fail(errors, cmd.pos, &message);
                    }
                }
            }
            Step::Run if matches!(cmd.kind, Cmd::Forget) => {
                for f in self.vm.bindings.clear() {
                    self.release(f);
                }
                self.compact_strings();
            }
            Step::Run => {
                let old = std::mem::take(&mut self.module.functions[0]);
                let mut f = FunctionBuilder::recycle(old, self.module.name);
                self.strings.scratch.clear();
                lower::emit_command(c, &mut f, &mut self.strings, true);
                f.emit(Insn::ax(Op::Halt, 0), None);
                let mut chunk = f.finish();
                let base = self.strings.table.len() as f64;
                for (v, k) in chunk.consts.iter_mut().zip(&chunk.kinds) {
                    if *k == ConstKind::Str && *v >= SCRATCH as f64 {
                        *v = *v - SCRATCH as f64 + base;
                    }
                }
                self.module.functions[0] = chunk;
                self.vm.start(&self.module, 0);
                self.running = true;
                return self.drive(errors);
            }
        }
        None
    }

    /// Runs the current chunk until it ends or suspends.
    fn drive(&mut self, errors: &mut dyn Write) -> Option<Status> {
        let permanent = self.strings.table.len();
        if !self.strings.scratch.is_empty() {
            let scratch = std::mem::take(&mut self.strings.scratch);
            self.strings.table.extend(scratch);
        }
        let result = loop {
            match self.vm.run(&self.module, &self.strings.table) {
                Ok(Exit::Suspended(seconds)) => break Some(Status::Suspended(seconds)),
                Ok(Exit::Stopped) => {
                    self.quit = true;
                    self.running = false;
                    break Some(Status::Quit);
                }
                Ok(Exit::Halted | Exit::Waiting(_)) => {
                    self.running = false;
                    break None;
                }
                Err(e) => {
                    self.errors += 1;
                    report::runtime_error(errors, &self.source, &e);
                }
            }
        };
        // Keep the command's strings while it is suspended mid-way.
        if self.strings.table.len() > permanent {
            let scratch: Vec<String> = self.strings.table.drain(permanent..).collect();
            if self.running {
                self.strings.scratch = scratch;
            }
        }
        result
    }

    fn install(&mut self, f: Function) -> FuncId {
        self.macro_size += f.code.len() + f.consts.len();
        match self.free.pop() {
            Some(slot) => {
                self.module.functions[slot as usize] = f;
                slot
            }
            None => {
                self.module.functions.push(f);
                self.module.functions.len() as FuncId - 1
            }
        }
    }

    fn release(&mut self, f: FuncId) {
        if f != 0 && (f as usize) < self.module.functions.len() {
            let old = std::mem::take(&mut self.module.functions[f as usize]);
            self.macro_size = self.macro_size.saturating_sub(old.code.len() + old.consts.len());
            self.free.push(f);
        }
    }

    fn define(&mut self, def: Definition) {
        match def {
            Definition::Bind(name, f) => {
                let id = self.install(f);
                for old in self.vm.bindings.bind(name, id) {
                    self.release(old);
                }
            }
            Definition::Push(name, f) => {
                let id = self.install(f);
                self.vm.bindings.push(name, id);
            }
            Definition::Declare(name) => self.vm.bindings.declare(name),
        }
        if self.strings.wants_compaction() {
            self.compact_strings();
        }
    }

    /// Drops permanent strings no macro uses any more, renumbering the rest.
    /// Runs only between commands and never while a macro is being recorded
    /// (after `forget` or a definition), so no live code holds an old id.
    fn compact_strings(&mut self) {
        let old = std::mem::take(&mut self.strings.table);
        let mut fresh = LiveStrings::default();
        fresh.intern(&old[self.module.name as usize]);
        let remap =
            |id: f64, fresh: &mut LiveStrings| -> f64 { old.get(id as usize).map_or(0.0, |s| fresh.intern(s) as f64) };
        for f in self.module.functions.iter_mut().skip(1) {
            f.name = remap(f.name as f64, &mut fresh) as StrId;
            for (v, k) in f.consts.iter_mut().zip(&f.kinds) {
                if *k == ConstKind::Str {
                    *v = remap(*v, &mut fresh);
                }
            }
        }
        let names: Vec<StrId> = self.vm.bindings.names().collect();
        let mut rebound = animkit_vm::interp::Bindings::default();
        for n in names {
            let new = remap(n as f64, &mut fresh) as StrId;
            rebound.declare(new);
            for &f in self.vm.bindings.get(n).unwrap_or(&[]) {
                rebound.push(new, f);
            }
        }
        self.vm.bindings = rebound;
        self.module.name = 0;
        self.module.functions[0] = Function { name: 0, code: vec![Insn::ax(Op::Halt, 0)], ..Function::default() };
        fresh.compacted_at = fresh.table.len();
        fresh.compacted_bytes = fresh.bytes;
        self.strings = fresh;
    }
}
