//! Animator streams: commands read incrementally (from standard input)
//! and each run the moment it is complete, through the same lowering and
//! VM as a compiled script.
//!
//! Every top-level command is compiled into a small chunk function, verified
//! and run at once; a macro definition is recorded command by command and
//! becomes a verified function when `endmacro` arrives. The compiling is the
//! compiler's incremental API
//! ([`animkit_compiler::stream::StreamCompiler`], which also
//! bounds what a stream keeps: [`MAX_MACRO_SIZE`], [`MAX_MACRO_STRINGS`]);
//! the reader bounds the pending command
//! (`animkit_grammar::animator::reader`), the interpreter the work of one
//! command ([`animkit_vm::engine::interp::Limits`]).
//!
//! Each command goes through the compiler's checker before it is lowered,
//! as in a compiled file; a malformed command gets one line on the error
//! output, `<stdin>:LINE:COL: error: MESSAGE`, at the start of the
//! error's primary span (the command's keyword for a command cut short or
//! not allowed where it is, the argument for a wrong argument), and the
//! stream goes on.
//!
//! ```
//! use animkit_runtime::stream::{Stream, Status};
//! use animkit_vm::engine::animator::record::{Call, Recorder};
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
use animkit_compiler::stream::{Fed, StreamCompiler};
pub use animkit_compiler::stream::{MAX_MACRO_SIZE, MAX_MACRO_STRINGS, StreamLimits};
use animkit_grammar::animator::Reader;
use animkit_vm::engine::animator::{AnimatorVm, Canvas};
use animkit_vm::engine::interp::Exit;
use std::io::Write;

/// What a stream needs next (shared with [`Script`](super::script::Script)).
pub use animkit_player::animator::script::Status;

/// An Animator stream over a canvas.
pub struct Stream<C: Canvas> {
    reader: Reader,
    vm: AnimatorVm<C>,
    compiler: StreamCompiler,
    source: String,
    running: bool,
    finished: bool,
    quit: bool,
    errors: usize,
    commands: u64,
    repeats: Repeats,
}

/// A stream's error lines with repeats collapsed: an error whose message
/// is the one printed last, with no command taken without error between
/// them, is not printed again; one line says how many
/// were left out, every [`REPEAT_SUMMARY`] repeats and when a different
/// error comes or the input ends, so that a stream stuck on one error
/// (every command after a macro outgrew `MAX_MACRO_SIZE`) writes a bounded
/// amount of text while it goes on.
#[derive(Debug, Default)]
struct Repeats {
    /// Off: every error is printed ([`Stream::set_collapse_repeats`]).
    off: bool,
    /// The message printed last.
    last: Option<String>,
    /// Repeats of it not printed and not yet summed up, and where the last
    /// of them was.
    pending: u64,
    at: Option<(u32, u32)>,
}

/// How many repeats of one error a stream sums up in one line (see
/// [`Stream::run`]); docs/limits.md states it.
pub const REPEAT_SUMMARY: u64 = 1000;

impl Repeats {
    fn error(&mut self, out: &mut dyn Write, file: &str, pos: Option<(u32, u32)>, message: &str) {
        if self.off {
            report::error_line(out, file, pos, message);
            return;
        }
        if self.last.as_deref() == Some(message) {
            self.pending += 1;
            self.at = pos;
            if self.pending == REPEAT_SUMMARY {
                self.flush(out, file);
            }
            return;
        }
        self.flush(out, file);
        report::error_line(out, file, pos, message);
        self.last = Some(message.to_string());
    }

    /// A command ran (or was recorded) without error: the next error is
    /// printed even if it repeats the last one.
    fn reset(&mut self, out: &mut dyn Write, file: &str) {
        if self.last.is_some() {
            self.flush(out, file);
            self.last = None;
        }
    }

    /// Says how many repeats were left out, if any.
    fn flush(&mut self, out: &mut dyn Write, file: &str) {
        if self.pending == 0 {
            return;
        }
        let n = std::mem::take(&mut self.pending);
        let s = if n == 1 { "" } else { "s" };
        let _ = match self.at.take() {
            Some((l, c)) => {
                writeln!(out, "{file}: note: the same error {n} more time{s}, the last at {l}:{c}, not shown")
            }
            None => writeln!(out, "{file}: note: the same error {n} more time{s}, not shown"),
        };
        let _ = out.flush();
    }
}

impl<C: Canvas> Stream<C> {
    /// A stream drawing on `canvas`; `source` names it in error lines.
    pub fn new(canvas: C, source: &str) -> Stream<C> {
        Stream {
            reader: Reader::new(),
            vm: AnimatorVm::new(canvas),
            compiler: StreamCompiler::new(source),
            source: source.to_string(),
            running: false,
            finished: false,
            quit: false,
            errors: 0,
            commands: 0,
            repeats: Repeats::default(),
        }
    }

    /// Replaces the limits on what the program may hold on its host
    /// (areas, images, cursors).
    pub fn set_host_limits(&mut self, limits: animkit_vm::engine::animator::machine::HostLimits) {
        self.vm.set_host_limits(limits);
    }

    /// Replaces the limits on what the stream keeps.
    pub fn set_stream_limits(&mut self, limits: StreamLimits) {
        self.compiler.set_limits(limits);
    }

    /// Replaces the interpreter's limits (call depth, work per command);
    /// tests and fuzzing use small ones.
    pub fn set_limits(&mut self, limits: animkit_vm::engine::interp::Limits) {
        self.vm.set_limits(limits);
    }

    /// Strings the stream keeps (count, bytes): macro names and the texts of
    /// macro bodies, plus names not yet cleaned up.
    pub fn retained_strings(&self) -> (usize, usize) {
        self.compiler.retained_strings()
    }

    /// Instructions plus constants held by the stream's macros.
    pub fn macro_size(&self) -> usize {
        self.compiler.macro_size()
    }

    /// How the commands run so far were verified (see
    /// [`StreamCompiler::entry_checks`]).
    pub fn entry_checks(&self) -> animkit_vm::engine::verify::EntryChecks {
        self.compiler.entry_checks()
    }

    /// Whether commands of a shape verified before skip the rules that do
    /// not read constant values (on by default; see
    /// [`StreamCompiler::set_shape_cache`]).
    pub fn set_shape_cache(&mut self, on: bool) {
        self.compiler.set_shape_cache(on);
    }

    /// Bytes the reader holds (see `Reader::buffered`).
    pub fn buffered(&self) -> usize {
        self.reader.buffered()
    }

    /// The canvas.
    pub fn canvas(&self) -> &C {
        self.vm.canvas()
    }

    /// The canvas, mutably (a window host feeds it input events).
    pub fn canvas_mut(&mut self) -> &mut C {
        self.vm.canvas_mut()
    }

    /// Ends the stream, giving its canvas back.
    pub fn into_canvas(self) -> C {
        self.vm.into_canvas()
    }

    /// Whether an error whose message is the one printed just before is
    /// summed up instead of printed again (on by default; see
    /// [`REPEAT_SUMMARY`]). Off, every error gets its line, as a compiled
    /// script's do (the equivalence tests compare them error by error).
    pub fn set_collapse_repeats(&mut self, on: bool) {
        self.repeats.off = !on;
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
        loop {
            // Bound by reference: the command stays where `next` wrote it
            // (a `while let Some(next)` binding moved it once more).
            let read = self.reader.next();
            let Some(next) = &read else { break };
            if next.is_ok() {
                self.commands += 1;
            }
            let (held, base) = self.reader.held();
            match self.compiler.feed(next, held, base, self.vm.bindings_mut()) {
                // A command taken without error ends a run of repeats.
                Fed::Nothing => self.repeats.reset(errors, &self.source),
                Fed::Error { pos, message } => self.fail(errors, Some((pos.line, pos.col)), &message),
                Fed::Run => {
                    let code = match self.compiler.code() {
                        Ok(code) => code,
                        Err(e) => {
                            self.fail(errors, None, &format!("internal error: {e}"));
                            continue;
                        }
                    };
                    self.vm.start(code, 0);
                    self.running = true;
                    let (status, failed) = drive(&mut self.vm, code, &self.source, errors, &mut self.repeats);
                    self.errors += failed;
                    if failed == 0 {
                        self.repeats.reset(errors, &self.source);
                    }
                    self.running = matches!(status, Some(Status::Suspended(_)));
                    self.quit |= status == Some(Status::Quit);
                    if self.quit {
                        self.repeats.flush(errors, &self.source);
                    }
                    if let Some(status) = status {
                        return status;
                    }
                }
            }
        }
        if self.finished {
            if let Some(Fed::Error { pos, message }) = self.compiler.finish() {
                self.fail(errors, Some((pos.line, pos.col)), &message);
            }
            self.repeats.flush(errors, &self.source);
            Status::Done
        } else {
            Status::NeedInput
        }
    }

    fn fail(&mut self, errors: &mut dyn Write, pos: Option<(u32, u32)>, message: &str) {
        self.errors += 1;
        self.repeats.error(errors, &self.source, pos, message);
    }

    /// Runs the current command until it ends or suspends.
    fn drive(&mut self, errors: &mut dyn Write) -> Option<Status> {
        let code = match self.compiler.code() {
            Ok(code) => code,
            Err(e) => {
                self.running = false;
                self.fail(errors, None, &format!("internal error: {e}"));
                return None;
            }
        };
        let (status, failed) = drive(&mut self.vm, code, &self.source, errors, &mut self.repeats);
        self.errors += failed;
        self.running = matches!(status, Some(Status::Suspended(_)));
        self.quit |= status == Some(Status::Quit);
        if self.quit {
            self.repeats.flush(errors, &self.source);
        }
        status
    }
}

/// Runs the started command on `code` until it ends or suspends: the
/// status to return if it did not end (suspended or quit), and how many
/// runtime errors it reported.
fn drive<C: Canvas>(
    vm: &mut AnimatorVm<C>,
    code: animkit_vm::engine::verify::VerifiedModule<'_>,
    source: &str,
    errors: &mut dyn Write,
    repeats: &mut Repeats,
) -> (Option<Status>, usize) {
    let mut failed = 0;
    loop {
        match vm.run(code) {
            Ok(Exit::Suspended(seconds)) => return (Some(Status::Suspended(seconds)), failed),
            Ok(Exit::Stopped) => return (Some(Status::Quit), failed),
            Ok(Exit::Halted | Exit::Waiting(_)) => return (None, failed),
            Err(e) => {
                failed += 1;
                repeats.error(errors, source, e.position, &e.message);
            }
        }
    }
}
