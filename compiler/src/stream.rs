//! The compiler's incremental API for Animator streams: each command read
//! goes in, and out comes an error, nothing (a macro body recorded), or
//! verified code to run. Commands go through the same checker, lowering
//! and macro recorder as a compiled file; every function lowered is
//! verified ([`animkit_vm::engine::verify::LiveModule`]) before it can run (a
//! command of a shape verified before, by the rules that read its
//! constants' values: [`StreamCompiler::entry_checks`] counts both).
//!
//! What a stream keeps is capped, whatever arrives: the macros hold at
//! most [`MAX_MACRO_SIZE`] instructions and constants in all, and the
//! strings they use at most [`MAX_MACRO_STRINGS`] bytes; a macro body
//! command that would pass either limit is an error (at that command) and
//! is left out of the body. A redefinition or `forget` frees the functions
//! it replaces, strings used only by one command are dropped after it ran,
//! and names that no macro uses any more (from `invoke` of unknown names,
//! redefinitions, `forget`) are dropped once they take four times the
//! space of the last clean-up, so a stream that runs for hours keeps its
//! memory bounded.
//!
//! ```
//! use animkit_compiler::stream::{Fed, StreamCompiler};
//! use animkit_vm::engine::animator::{AnimatorVm, record::{Call, Recorder}};
//! use animkit_vm::engine::interp::Exit;
//! let src = b"echo hi\n";
//! let mut reader = animkit_grammar::animator::Reader::new();
//! reader.push(src);
//! let next = reader.next().unwrap();
//! let (held, base) = reader.held();
//! let mut compiler = StreamCompiler::new("<stdin>");
//! let mut vm = AnimatorVm::new(Recorder::default());
//! assert!(matches!(compiler.feed(&next, held, base, vm.bindings_mut()), Fed::Run));
//! let code = compiler.code().unwrap();
//! vm.start(code, 0);
//! assert_eq!(vm.run(code), Ok(Exit::Halted));
//! assert_eq!(vm.canvas().calls, [Call::Echo("hi".into())]);
//! ```

use crate::animator::check::{self, Checked, Checker, Step, Text};
use crate::animator::lower::{self, Definition, MacroRecorder, Recorded, Strings};
use crate::builder::FunctionBuilder;
use animkit_grammar::animator::ast::{Cmd, Command, Pos};
use animkit_grammar::animator::reader::ReadError;
use animkit_vm::engine::interp::Bindings;
use animkit_vm::engine::isa::{Insn, Op};
use animkit_vm::engine::program::{ConstKind, FuncId, StrId};
use animkit_vm::engine::verify::{EntryChecks, LiveModule, VerifiedModule, VerifyError};
use std::collections::HashMap;

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

/// What [`StreamCompiler::feed`] made of a command.
#[derive(Debug, PartialEq)]
pub enum Fed {
    /// Nothing to run: a macro begun, recorded or defined, or `forget`.
    Nothing,
    /// The command is the entry function of [`StreamCompiler::code`]:
    /// start it and run it.
    Run,
    /// The command is wrong (or would make the stream keep too much): one
    /// error at `pos`, the start of its primary span.
    Error {
        /// Where.
        pos: Pos,
        /// What, one line.
        message: String,
    },
}

/// Ids at or above this are strings of the command being lowered; they are
/// renumbered to follow the permanent strings just before it runs.
const SCRATCH: StrId = 1 << 31;

/// Strings of a stream: permanent ones (macro names, macro bodies) and,
/// after them in the table while it runs, the current command's.
#[derive(Default)]
struct LiveStrings {
    table: Vec<String>,
    index: HashMap<String, StrId>,
    /// The current command's strings, until it is installed.
    scratch: Vec<String>,
    /// How many entries at the end of `table` are the running command's.
    running: usize,
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

    /// Drops the strings of the command that ran last.
    fn end_command(&mut self) {
        let permanent = self.table.len() - self.running;
        self.table.truncate(permanent);
        self.running = 0;
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

/// Compiles an Animator stream command by command into one
/// [`LiveModule`]: function 0 is the command to run, the others the
/// macros, bound by name in the [`Bindings`] handed to
/// [`StreamCompiler::feed`] (the VM's).
pub struct StreamCompiler {
    checker: Checker,
    recorder: MacroRecorder,
    strings: LiveStrings,
    live: LiveModule,
    /// The next command's chunk is lowered here, in place: between
    /// commands it holds the entry before the current one (or a chunk that
    /// failed verification), whose buffers it reuses.
    chunk: FunctionBuilder,
    /// Instructions plus constants of the installed macro functions.
    macro_size: usize,
    limits: StreamLimits,
}

impl StreamCompiler {
    /// A compiler for a stream named `source` (in the module's debug info).
    pub fn new(source: &str) -> StreamCompiler {
        let mut strings = LiveStrings::default();
        let main = strings.intern("<command>");
        StreamCompiler {
            checker: Checker::for_stream(),
            recorder: MacroRecorder::default(),
            strings,
            live: LiveModule::animator(main, Some(source.to_string())),
            chunk: FunctionBuilder::default(),
            macro_size: 0,
            limits: StreamLimits::default(),
        }
    }

    /// Replaces the limits on what the stream keeps.
    pub fn set_limits(&mut self, limits: StreamLimits) {
        self.limits = limits;
    }

    /// The module with its strings, verified: what [`Fed::Run`] says to
    /// run (function 0), and what a suspended command resumes on.
    pub fn code(&self) -> Result<VerifiedModule<'_>, VerifyError> {
        self.live.code(&self.strings.table)
    }

    /// Strings the stream keeps (count, bytes): macro names and the texts of
    /// macro bodies, plus names not yet cleaned up.
    pub fn retained_strings(&self) -> (usize, usize) {
        (self.strings.table.len() - self.strings.running, self.strings.bytes)
    }

    /// Instructions plus constants held by the stream's macros.
    pub fn macro_size(&self) -> usize {
        self.macro_size
    }

    /// How the commands run so far were verified: in full, or as a
    /// command of a shape verified before (constant values only; see
    /// [`LiveModule::set_entry`]).
    pub fn entry_checks(&self) -> EntryChecks {
        self.live.entry_checks()
    }

    /// Whether a command of a shape verified before is checked by the
    /// rules that read constant values alone (the default) or verified in
    /// full like the first (for measuring the difference).
    pub fn set_shape_cache(&mut self, on: bool) {
        self.live.set_shape_cache(on);
    }

    /// Takes what the reader returned next (`held` and `base`: what it
    /// holds, `Reader::held`, for quoting). The command run before must
    /// have finished: its strings are dropped now.
    pub fn feed(
        &mut self,
        next: &Result<Command, ReadError>,
        held: &[u8],
        base: usize,
        bindings: &mut Bindings,
    ) -> Fed {
        self.strings.end_command();
        let text = Text::new(held, base);
        let cmd = match next {
            Ok(cmd) => cmd,
            Err(e) => return Fed::Error { pos: e.pos, message: check::read_error(e, text).message },
        };
        // Between two commands, with no macro being recorded, no code
        // holds a string id that compaction would change.
        if !self.recorder.is_recording() && self.strings.wants_compaction() {
            self.compact_strings(bindings);
        }
        match self.checker.check(cmd, text) {
            Ok(checked) => self.command(checked, bindings),
            Err(rejected) => Fed::Error { pos: rejected.pos, message: rejected.diagnostic.message },
        }
    }

    /// End of input: an error if it ended inside a macro (which is then
    /// not defined).
    pub fn finish(&mut self) -> Option<Fed> {
        let rejected = self.checker.finish()?;
        self.recorder.cancel();
        let message = format!("{} (input ended inside it)", rejected.diagnostic.message);
        Some(Fed::Error { pos: rejected.pos, message })
    }

    fn command(&mut self, c: Checked<'_>, bindings: &mut Bindings) -> Fed {
        let cmd = c.command();
        match c.step() {
            Step::Begin => {
                let Cmd::Macro { name, .. } = &cmd.kind else { return Fed::Nothing };
                if self.strings.bytes + name.text.len() > self.limits.macro_strings {
                    self.compact_strings(bindings);
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
                    return Fed::Error { pos: cmd.pos, message };
                }
                Fed::Nothing
            }
            Step::End(_) => {
                let pos = cmd.pos;
                self.strings.all_permanent = true;
                let recorded = self.recorder.add(c, &mut self.strings, true);
                self.strings.all_permanent = false;
                match recorded {
                    Recorded::Defined(def) => self.define(def, bindings, pos),
                    _ => Fed::Nothing,
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
                        let name = self.checker.macro_name().unwrap_or("").to_string();
                        let message = format!(
                            "macros would hold more than {macro_size} instructions and constants, or {macro_strings} bytes of strings, in all; this command is left out of macro `{name}` (`forget` frees macros)"
                        );
                        return Fed::Error { pos: cmd.pos, message };
                    }
                }
                Fed::Nothing
            }
            Step::Run if matches!(cmd.kind, Cmd::Forget) => {
                for f in bindings.clear() {
                    self.release(f);
                }
                self.compact_strings(bindings);
                Fed::Nothing
            }
            Step::Run => {
                let pos = cmd.pos;
                let f = &mut self.chunk;
                f.reset(self.live.module().name);
                self.strings.scratch.clear();
                lower::emit_command(c, f, &mut self.strings, true);
                f.emit(Insn::ax(Op::Halt, 0), None);
                let chunk = f.function_mut();
                if !self.strings.scratch.is_empty() {
                    let base = self.strings.table.len() as f64;
                    for (v, k) in chunk.consts.iter_mut().zip(&chunk.kinds) {
                        if *k == ConstKind::Str && *v >= SCRATCH as f64 {
                            *v = *v - SCRATCH as f64 + base;
                        }
                    }
                    self.strings.running = self.strings.scratch.len();
                    self.strings.table.append(&mut self.strings.scratch);
                }
                // On success `chunk` holds the replaced entry, to be reused.
                match self.live.swap_entry(chunk) {
                    Ok(()) => Fed::Run,
                    Err(e) => Fed::Error { pos, message: unverified(&e) },
                }
            }
        }
    }

    fn release(&mut self, f: FuncId) {
        if let Some(old) = self.live.release(f) {
            self.macro_size = self.macro_size.saturating_sub(old.code.len() + old.consts.len());
        }
    }

    fn define(&mut self, def: Definition, bindings: &mut Bindings, pos: Pos) -> Fed {
        let fed = match def {
            Definition::Bind(name, f) => match self.install(f) {
                Ok(id) => {
                    for old in bindings.bind(name, id) {
                        self.release(old);
                    }
                    Fed::Nothing
                }
                Err(e) => Fed::Error { pos, message: unverified(&e) },
            },
            Definition::Push(name, f) => match self.install(f) {
                Ok(id) => {
                    bindings.push(name, id);
                    Fed::Nothing
                }
                Err(e) => Fed::Error { pos, message: unverified(&e) },
            },
            Definition::Declare(name) => {
                bindings.declare(name);
                Fed::Nothing
            }
        };
        if self.strings.wants_compaction() {
            self.compact_strings(bindings);
        }
        fed
    }

    fn install(&mut self, f: animkit_vm::engine::program::Function) -> Result<FuncId, VerifyError> {
        let size = f.code.len() + f.consts.len();
        let id = self.live.install(f)?;
        self.macro_size += size;
        Ok(id)
    }

    /// Drops permanent strings no macro uses any more, renumbering the rest
    /// (in the module and in `bindings`). Runs only between commands and
    /// never while a macro is being recorded (after `forget` or a
    /// definition), so no live code holds an old id.
    fn compact_strings(&mut self, bindings: &mut Bindings) {
        self.strings.end_command();
        let old = std::mem::take(&mut self.strings.table);
        let mut fresh = LiveStrings::default();
        let map = |id: StrId, fresh: &mut LiveStrings| old.get(id as usize).map_or(0, |s| fresh.intern(s));
        self.live.renumber_strings(|id| map(id, &mut fresh));
        let names: Vec<StrId> = bindings.names().collect();
        let mut rebound = Bindings::default();
        for n in names {
            let new = map(n, &mut fresh);
            rebound.declare(new);
            for &f in bindings.get(n).unwrap_or(&[]) {
                rebound.push(new, f);
            }
        }
        *bindings = rebound;
        fresh.compacted_at = fresh.table.len();
        fresh.compacted_bytes = fresh.bytes;
        self.strings = fresh;
    }
}

/// The message for lowered code the verifier refused (a compiler bug,
/// reported rather than run).
fn unverified(e: &VerifyError) -> String {
    format!("internal error: the compiled command was refused by the verifier: {e}")
}
