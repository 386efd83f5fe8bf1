//! The incremental command reader.
//!
//! # How a command is recognised
//!
//! Every command has one entry in one table, `signature`: the forms it can
//! take, each a list of argument kinds (`Elem`). While a command's
//! arguments arrive, the reader keeps every form that still fits the tokens
//! seen so far (at most four), like a tiny NFA over tokens. A token goes to
//! the forms whose next argument takes it, with one order of preference:
//!
//! 1. a context word in its position (`on`, `off`, `left`, `center`,
//!    `right`, `bottom`, `top`, `area` after `warp`, `aspect` after
//!    `viewport`, `push` after `macro`), written bare;
//! 2. a number where a number is taken (so `invoke 1 2 m` is the shifted
//!    form, and `image 10 20 img` creates an image);
//! 3. anything else that the argument takes: a number where only a string
//!    fits is its raw text (`echo 25.000000` prints `25.000000`).
//!
//! Numeric names must therefore be quoted where a number also fits
//! (`invoke "1"`, `image "7" seven.png`, `viewport "3"`), and a context word
//! is taken as a name only quoted (`viewport "aspect"`, `macro "push"`).
//! `on`/`off` and alignment words may also be quoted, as no name competes
//! with them there.
//!
//! # When a command is returned
//!
//! A command is returned as soon as it is certainly complete:
//!
//! - a token is only looked at once it is certainly whole: when the byte after
//!   it has arrived (whitespace, `!`, `"`, ...), or at [`Reader::finish`]. A
//!   quoted string is whole at its closing quote;
//! - a command whose forms are all used up is returned with its last token:
//!   `flush\n` as soon as the `\n` arrives, `line 0 0 1 1` at the whitespace
//!   after the last `1`, `echopt s 1 2 .` at the whitespace after the `.`,
//!   `echo "hi"` at the closing quote;
//! - a command that could still take more (a point list of `lines`, `poly`,
//!   `area`, `imgpoly`; `scale x` before a possible `y`; `color 0.5` before
//!   a possible green and blue) is returned when the next token shows that
//!   it has ended: as soon as the first bytes of that token rule out a
//!   number (the `f` of `flush`, the `v` of `invoke`; `i` might still be
//!   `inf`), or once it is whole, or at [`Reader::finish`]. That token is
//!   kept and starts the next command.
//!
//! # Errors and recovery
//!
//! A malformed command gives exactly one error, whose message says what was
//! expected and what was found. The reader then skips to the next command
//! keyword (the offending token itself when it is one, so a command cut
//! short by the next command loses only itself) and goes on. Lexical errors
//! (an unterminated string, invalid UTF-8) are errors of the command they
//! occur in, with their own message.
//!
//! Where the error is depends on what went wrong, as rustc places it:
//!
//! - a wrong argument (`x` where a number goes, `0-`) is reported at that
//!   token: "expected a number, found `0-`";
//! - a command cut short, by the next command's keyword or by the end of
//!   the input, is reported at the command itself, from its keyword to its
//!   last argument, saying what it takes and what it got: "`line` takes 4
//!   numbers, x1 y1 x2 y2; found 3", with the keyword (or the end of input)
//!   that ended it as a second label ([`ReadErrorKind::Incomplete`]). A
//!   user looking at the reported line sees the command that is wrong, not
//!   the good one after it.
//!
//! The reader checks no values (see [`crate::animator::ast`]): a fraction
//! where a whole number goes, `inf`, `#ggg` or a short cursor bitmap is a
//! command like any other, for the compiler's checker to explain; nor does
//! it make "did you mean" suggestions, which the checker adds to
//! [`ReadErrorKind::NotACommand`] errors.
//!
//! Errors come as [`ReadError`]: the [`SyntaxError`] (message and absolute
//! byte span) plus the [`Pos`] of its start, because a streaming caller no
//! longer has the text to compute it from, its kind and a secondary label.
//! `ReadError` derefs to `SyntaxError`.
//!
//! # Memory and speed
//!
//! The reader keeps only the unconsumed input: at most the pending command
//! and what was pushed after it (consumed bytes are dropped on the next
//! [`Reader::push`] once they are at least half the buffer, so the copying is
//! amortised). Tokens are spans into that buffer; numbers are parsed in
//! place; the only allocations are the strings and point lists the AST keeps
//! (and the messages of errors).
//!
//! Most of a visualiser's stream is simple commands: `line x y x y`,
//! `fillcircle x y r n`, `color r g b`, `push`, `flush`. When such a
//! command has wholly arrived (each of its tokens followed by whitespace)
//! and its numbers are plain decimals, a fast path reads it in one pass over
//! its bytes and builds the command directly, without the lexer and the
//! form machinery; it returns exactly what the general path would (the same
//! command, spans and position, property-tested and fuzzed against it) and
//! leaves anything else (comments, quotes, other forms, hexadecimal or long
//! numbers, a command not yet complete) to the general path.
//!
//! So that no input can make it hold memory without bound, three limits
//! apply, each an error like any other (reading goes on after it):
//!
//! | limit | error | position |
//! | --- | --- | --- |
//! | a word, number or quoted string longer than [`MAX_TOKEN`] bytes | `string longer than 4194304 bytes` (or `word`) | the token's start |
//! | a command longer than [`MAX_COMMAND`] bytes, keyword to last argument | `` `lines` command longer than 67108864 bytes `` | the command |
//! | a point list of more than [`MAX_POINTS`] points | `` `lines` has more than 1000000 points `` | the command |
//!
//! An over-long token is not kept: its bytes are dropped as they arrive
//! until it ends. An over-long comment is dropped the same way, silently.
//! The pending command thus holds at most [`MAX_COMMAND`] bytes and
//! `2 * MAX_POINTS` arguments, plus one token of at most [`MAX_TOKEN`]
//! bytes being read.

use super::ast::{Command, Pos};
use super::lexer::{Keyword, Tok, check_utf8, parse_number, single_char, unescape, unquoted};
use crate::{Span, SyntaxError};
use forms::Elem::{
    ColorName, Dot, HAlign as HAl, Hex256, Int as I, Num as N, OnOff, Points, Sep, Str as S, VAlign as VAl, Word,
};
use forms::{Args, Elem, Form, build, signature};
use logos::Logos;
use std::fmt;

mod elem;
pub(in crate::animator) mod errors;
mod forms;
mod input;
mod simple_command;

pub use errors::{ReadError, ReadErrorKind};
pub use forms::{command_examples, command_signature};

/// Longest word, number or quoted string, in bytes (quotes and escapes
/// included): four times the compiler's longest string argument.
pub const MAX_TOKEN: usize = 4 << 20;
/// Longest command, in bytes from its keyword to the end of its last
/// argument (comments inside included).
pub const MAX_COMMAND: usize = 64 << 20;
/// Most points in one point list (`lines`, `poly`, `area`, `imgpoly`,
/// `echopt`); the same value as `animkit_vm::engine::limits::MAX_POINTS`.
pub const MAX_POINTS: usize = 1_000_000;

/// The most forms any command has.
const MAX_FORMS: usize = 4;

/// One form still in the running: which form, which argument is next, and
/// how many numbers that argument has taken (for point lists).
#[derive(Clone, Copy, Debug, Default)]
struct Thread {
    form: u8,
    elem: u8,
    count: u32,
}

/// A token the reader has seen: its kind, where it is, and the first invalid
/// UTF-8 sequence in it, if any.
#[derive(Clone, Copy, Debug)]
struct Token {
    tok: Tok,
    span: Span,
    bad_utf8: Option<Span>,
}

/// A consumed argument token: where it is in the pending command, whose
/// bytes the reader holds (its value, or its character, is read from them
/// when the command is built: [`Reader::arg_num`]). 12 bytes, so a command
/// of a million points holds 24 MB of arguments, not 80 (issue 41 §11).
#[derive(Clone, Copy, Debug)]
struct Arg {
    tok: Tok,
    /// Start, relative to the command's start (a command is at most
    /// [`MAX_COMMAND`] bytes), and length.
    start: u32,
    len: u32,
}

const _: () = assert!(std::mem::size_of::<Arg>() <= 12);

/// A form's answer to a token: how strongly it takes it, the form's state
/// after it, and the character's code where one character goes (or that
/// the token is not one character).
type Offer = (u8, Thread, Result<i64, NotChar>);

/// The one value the reader refuses: a token where one character goes
/// (the key of `colormap`) that is not one character. That is the token's
/// shape, as a lone `-` is the separator's; every other value (a fraction
/// where a whole number goes, `inf`, `#ggg`, a short cursor bitmap) is
/// recorded as written, and the compiler's checker explains it.
#[derive(Clone, Copy, Debug)]
struct NotChar;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Between commands: the next token must be a keyword.
    Idle,
    /// Reading a command's arguments.
    Command,
    /// After an error: skipping to the next keyword.
    Skipping,
}

/// How an over-long token that is still arriving ends: the reader drops
/// its bytes until then.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Discard {
    /// A word or number: at whitespace, `!` or `"`.
    Bare,
    /// A quoted string: after its closing quote, or before a line break;
    /// `escaped` after a backslash.
    Quoted { escaped: bool },
    /// A comment: before its line break.
    Comment,
}

enum Lexed {
    Token(Token),
    /// A token longer than [`MAX_TOKEN`] starting at this offset (already
    /// consumed, and dropped until its end if it is still arriving).
    Overlong {
        tok: Tok,
        span: Span,
    },
    /// More input is needed; `not_a_number` when the start of the next
    /// token has arrived and already rules out a number.
    NeedMore {
        not_a_number: bool,
    },
    End,
}

enum Step {
    /// Some form took the token.
    Took,
    /// No form took it, and the command was complete before it.
    Ends,
    /// No form took it, or every form that would found it is not one
    /// character: an error.
    Bad(ReadError),
}

/// Reads Animator commands from input that arrives in pieces.
///
/// ```
/// use animkit_grammar::animator::{Reader, ast::Cmd};
/// let mut reader = Reader::new();
/// reader.push(b"fram");
/// assert!(reader.next().is_none()); // `fram` may still become `frame`
/// reader.push(b"e\nlines 0 0 1 1");
/// assert_eq!(reader.next().unwrap().unwrap().kind, Cmd::Frame);
/// assert!(reader.next().is_none()); // more points may follow
/// reader.finish();
/// assert!(matches!(reader.next().unwrap().unwrap().kind, Cmd::Lines { .. }));
/// assert!(reader.next().is_none());
/// ```
pub struct Reader {
    /// Input not yet dropped; `buf[0]` is byte `base` of the stream.
    buf: input::Input,
    base: usize,
    /// Index in `buf` of the first byte not yet consumed.
    cur: usize,
    /// The token at `cur`, once lexed and not yet consumed.
    peeked: Option<Token>,
    finished: bool,
    /// Line and column of absolute offset `tracked`.
    tracker: Pos,
    tracked: usize,
    /// The bytes from `tracked` up to this absolute offset (when it is
    /// past `tracked`) are ASCII without a newline: a command the fast path
    /// read, whose columns are its bytes.
    plain_end: usize,
    state: State,
    /// The pending command, valid in `State::Command`.
    keyword: Keyword,
    start: usize,
    pos: Pos,
    threads: [Thread; MAX_FORMS],
    live: usize,
    args: Vec<Arg>,
    /// An over-long token being dropped.
    discard: Option<Discard>,
    /// Whether [`Reader::fast_command`] is tried (always, except in the
    /// tests that compare it with the general path).
    fast: bool,
}

impl Default for Reader {
    fn default() -> Reader {
        Reader::new()
    }
}

impl fmt::Debug for Reader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Reader")
            .field("offset", &(self.base + self.cur))
            .field("unconsumed", &(self.buf.len() - self.cur))
            .field("state", &self.state)
            .field("finished", &self.finished)
            .finish()
    }
}

impl Reader {
    /// A reader at the start of a stream.
    pub fn new() -> Reader {
        Reader {
            buf: input::Input::default(),
            base: 0,
            cur: 0,
            peeked: None,
            finished: false,
            tracker: Pos::START,
            tracked: 0,
            plain_end: 0,
            state: State::Idle,
            keyword: Keyword::Quit,
            start: 0,
            pos: Pos::START,
            threads: [Thread::default(); MAX_FORMS],
            live: 0,
            args: Vec::new(),
            discard: None,
            fast: true,
        }
    }

    /// Turns the fast path for simple commands off (or on again). The
    /// commands, errors, spans and positions are the same either way; tests
    /// compare the two.
    #[doc(hidden)]
    pub fn set_fast_path(&mut self, on: bool) {
        self.fast = on;
    }

    /// Appends input. Pieces may split tokens, lines and UTF-8 sequences
    /// anywhere. Input pushed after [`Reader::finish`] is ignored.
    pub fn push(&mut self, bytes: &[u8]) {
        if self.finished {
            return;
        }
        self.drop_consumed();
        self.buf.extend_from_slice(bytes);
    }

    /// Reads once from `src` straight into the buffer (at most 64 KiB) and
    /// returns how many bytes came; 0 means end of input, after which the
    /// caller should call [`Reader::finish`].
    pub fn read_from(&mut self, src: &mut impl std::io::Read) -> std::io::Result<usize> {
        const CHUNK: usize = 64 * 1024;
        if self.finished {
            return Ok(0);
        }
        self.drop_consumed();
        self.buf.read_from(src, CHUNK)
    }

    /// Marks the end of input: the pending command completes (or is reported
    /// as cut short) on the following calls to [`Reader::next`].
    pub fn finish(&mut self) {
        self.finished = true;
    }

    /// How many bytes of input the reader holds (the pending command and
    /// what follows it, plus consumed bytes not yet dropped).
    pub fn buffered(&self) -> usize {
        self.buf.len()
    }

    /// Absolute offset of the first byte not yet consumed.
    pub fn offset(&self) -> usize {
        self.base + self.cur
    }

    /// The input the reader still holds, and the absolute offset of its
    /// first byte. The command or error [`Reader::next`] returned last lies
    /// in it, until the next [`Reader::push`] or [`Reader::read_from`]: a
    /// stream's checker quotes what was written from there.
    ///
    /// ```
    /// use animkit_grammar::animator::Reader;
    /// let mut reader = Reader::new();
    /// reader.push(b"frame\nthick 2.5\n");
    /// reader.next();
    /// let thick = reader.next().unwrap().unwrap();
    /// let (held, base) = reader.held();
    /// assert_eq!(&held[thick.span.start - base..thick.span.end - base], b"thick 2.5");
    /// ```
    #[inline]
    pub fn held(&self) -> (&[u8], usize) {
        (&*self.buf, self.base)
    }

    /// The next command or error. `None` means that more input is needed
    /// before anything else can be returned, or, after [`Reader::finish`],
    /// that everything has been returned.
    #[allow(clippy::should_implement_trait)] // `None` is not the end: not an Iterator
    pub fn next(&mut self) -> Option<Result<Command, ReadError>> {
        if self.fast && self.state == State::Idle && self.peeked.is_none() && self.discard.is_none() {
            if let Some(cmd) = self.fast_command() {
                return Some(Ok(cmd));
            }
        }
        loop {
            let t = match self.lex() {
                Lexed::Token(t) => t,
                Lexed::NeedMore { not_a_number } => {
                    // A command that is complete and could only go on with
                    // more numbers has ended if the next token, not yet
                    // whole, cannot be a number.
                    if not_a_number && self.state == State::Command && self.only_numbers_may_follow() {
                        return Some(Ok(self.emit()));
                    }
                    // The pending command may only grow so far (what was
                    // read up to here belongs to it).
                    if self.state == State::Command && self.base + self.buf.len() - self.start > MAX_COMMAND {
                        self.state = State::Skipping;
                        return Some(Err(self.command_too_long()));
                    }
                    return None;
                }
                Lexed::End => return self.end_of_input(),
                Lexed::Overlong { tok, span } => {
                    if self.state == State::Skipping {
                        continue;
                    }
                    self.state = State::Skipping;
                    let what = match tok {
                        Tok::Str | Tok::Unterminated => "string",
                        Tok::Number => "number",
                        _ => "word",
                    };
                    let message = format!("{what} longer than {MAX_TOKEN} bytes");
                    return Some(Err(self.limit(span, message, "too long")));
                }
            };
            match self.state {
                State::Skipping => {
                    if let Tok::Keyword(_) = t.tok {
                        self.state = State::Idle;
                    } else {
                        self.consume();
                    }
                }
                State::Idle => {
                    self.consume();
                    let Tok::Keyword(kw) = t.tok else {
                        self.state = State::Skipping;
                        let error = self.lexical_error(t).unwrap_or_else(|| self.not_a_command(t));
                        return Some(Err(error));
                    };
                    self.begin(kw, t.span);
                    if self.certainly_complete() {
                        return Some(Ok(self.emit()));
                    }
                }
                State::Command => match self.feed(t) {
                    Step::Took => {
                        self.consume();
                        if self.certainly_complete() {
                            return Some(Ok(self.emit()));
                        }
                    }
                    Step::Ends => return Some(Ok(self.emit())),
                    Step::Bad(error) => {
                        if let Tok::Keyword(_) = t.tok {
                            self.state = State::Idle;
                        } else {
                            self.consume();
                            self.state = State::Skipping;
                        }
                        return Some(Err(error));
                    }
                },
            }
        }
    }

    // ----- input ---------------------------------------------------------

    /// Drops consumed input once it is at least half of the buffer.
    fn drop_consumed(&mut self) {
        let keep = match self.state {
            State::Command => self.start - self.base,
            State::Idle | State::Skipping => self.cur,
        };
        if keep > 0 && keep * 2 >= self.buf.len() {
            self.track(self.base + keep);
            self.buf.drop_front(keep);
            self.base += keep;
            self.cur -= keep;
        }
    }

    /// Drops the bytes of an over-long token until it ends; true once it
    /// has ended (or when there is none).
    fn discard_step(&mut self) -> bool {
        let Some(mut kind) = self.discard else { return true };
        let bytes = &self.buf[self.cur..];
        let mut i = 0;
        let done = loop {
            let Some(&b) = bytes.get(i) else { break false };
            match kind {
                Discard::Bare if matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c | b'!' | b'"') => break true,
                Discard::Comment | Discard::Quoted { .. } if b == b'\n' => break true,
                Discard::Quoted { escaped: false } if b == b'"' => {
                    i += 1;
                    break true;
                }
                Discard::Quoted { escaped } => kind = Discard::Quoted { escaped: !escaped && b == b'\\' },
                Discard::Bare | Discard::Comment => {}
            }
            i += 1;
        };
        self.cur += i;
        self.discard = if done { None } else { Some(kind) };
        done
    }

    /// The next whole token, without consuming it.
    fn lex(&mut self) -> Lexed {
        if let Some(t) = self.peeked {
            return Lexed::Token(t);
        }
        if !self.discard_step() {
            if self.finished {
                self.discard = None;
                return Lexed::End;
            }
            return Lexed::NeedMore { not_a_number: false };
        }
        loop {
            let rest = &self.buf[self.cur..];
            let mut lexer = Tok::lexer(rest);
            let Some(result) = lexer.next() else {
                // Only whitespace was left: it is consumed.
                self.cur = self.buf.len();
                return if self.finished { Lexed::End } else { Lexed::NeedMore { not_a_number: false } };
            };
            let range = lexer.span();
            // Every byte belongs to some token, so logos never fails; a
            // failure would only make a word.
            let tok = result.unwrap_or(Tok::Word);
            let arriving = range.end == rest.len() && tok.needs_delimiter() && !self.finished;
            if range.len() > MAX_TOKEN {
                let start = self.base + self.cur + range.start;
                if arriving {
                    self.discard = Some(match tok {
                        Tok::Comment => Discard::Comment,
                        Tok::Unterminated => Discard::Quoted { escaped: ends_in_escape(&rest[range.clone()]) },
                        _ => Discard::Bare,
                    });
                }
                self.cur += range.end;
                if tok == Tok::Comment {
                    continue;
                }
                return Lexed::Overlong { tok, span: Span::new(start, start + range.len()) };
            }
            if arriving {
                let not_a_number = tok != Tok::Comment && !could_be_number(&rest[range.clone()]);
                self.cur += range.start;
                return Lexed::NeedMore { not_a_number };
            }
            if tok == Tok::Comment {
                self.cur += range.end;
                continue;
            }
            let start = self.base + self.cur + range.start;
            let bad_utf8 = match tok {
                Tok::Word | Tok::Str | Tok::Unterminated => {
                    check_utf8(&rest[range.clone()]).err().map(|r| Span::new(start + r.start, start + r.end))
                }
                _ => None,
            };
            let token = Token { tok, span: Span::new(start, start + range.len()), bad_utf8 };
            self.cur += range.start;
            self.peeked = Some(token);
            return Lexed::Token(token);
        }
    }

    fn consume(&mut self) {
        if let Some(t) = self.peeked.take() {
            self.cur = t.span.end - self.base;
        }
    }

    fn bytes(&self, span: Span) -> &[u8] {
        &self.buf[span.start - self.base..span.end - self.base]
    }

    /// The text of a token already checked to be UTF-8.
    fn text(&self, span: Span) -> &str {
        std::str::from_utf8(self.bytes(span)).unwrap_or("")
    }

    /// Moves the line/column tracker to absolute offset `to`.
    #[inline]
    fn track(&mut self, to: usize) -> Pos {
        if to > self.tracked && self.plain_end > self.tracked {
            let end = self.plain_end.min(to);
            self.tracker.col = self.tracker.col.saturating_add((end - self.tracked) as u32);
            self.tracked = end;
        }
        if to > self.tracked {
            let from = self.tracked - self.base;
            let upto = (to - self.base).min(self.buf.len());
            self.tracker.advance(&self.buf[from..upto]);
            self.tracked = to;
        }
        self.tracker
    }

    // ----- commands ------------------------------------------------------

    fn begin(&mut self, kw: Keyword, span: Span) {
        self.state = State::Command;
        self.keyword = kw;
        self.start = span.start;
        self.pos = self.track(span.start);
        // A long command's arguments are given back, not kept for the
        // next command.
        if self.args.capacity() > 4096 {
            self.args = Vec::new();
        }
        self.args.clear();
        let forms = signature(kw);
        self.live = forms.len();
        for (i, t) in self.threads.iter_mut().take(forms.len()).enumerate() {
            *t = Thread { form: i as u8, elem: 0, count: 0 };
        }
    }

    fn form(&self, t: Thread) -> Form {
        signature(self.keyword)[usize::from(t.form)]
    }

    /// True when no form can take another token and one is complete.
    fn certainly_complete(&self) -> bool {
        let threads = &self.threads[..self.live];
        threads.iter().all(|&t| usize::from(t.elem) == self.form(t).len()) && threads.iter().any(|&t| self.complete(t))
    }

    /// True when the command is complete and every form that could go on
    /// takes only numbers next.
    fn only_numbers_may_follow(&self) -> bool {
        let threads = &self.threads[..self.live];
        threads.iter().any(|&t| self.complete(t))
            && threads.iter().all(|&t| {
                let form = self.form(t);
                match form.get(usize::from(t.elem)) {
                    None | Some(N | I) => true,
                    Some(Points(_)) => usize::from(t.elem) + 1 == form.len(),
                    Some(_) => false,
                }
            })
    }

    /// True when the form is satisfied by the arguments so far.
    fn complete(&self, t: Thread) -> bool {
        let form = self.form(t);
        let (mut elem, mut count) = (usize::from(t.elem), t.count);
        loop {
            match form.get(elem) {
                None => return true,
                Some(&Points(min)) if count % 2 == 0 && count / 2 >= u32::from(min) => {
                    elem += 1;
                    count = 0;
                }
                Some(_) => return false,
            }
        }
    }

    /// The error for a command that grew past [`MAX_COMMAND`] bytes.
    fn command_too_long(&mut self) -> ReadError {
        let message = format!("`{}` command longer than {MAX_COMMAND} bytes", self.keyword);
        self.limit(self.keyword_span(), message, "command too long")
    }

    /// The pending command's keyword.
    fn keyword_span(&self) -> Span {
        Span::new(self.start, self.start + self.keyword.as_str().len())
    }

    /// Offers a token to every live form.
    fn feed(&mut self, t: Token) -> Step {
        if t.span.end - self.start > MAX_COMMAND {
            return Step::Bad(self.command_too_long());
        }
        let step = self.feed_forms(t);
        if let Step::Took = step {
            let too_many = self.threads[..self.live].iter().any(|th| th.count as usize > 2 * MAX_POINTS);
            if too_many {
                self.args.pop();
                let message = format!("`{}` has more than {MAX_POINTS} points", self.keyword);
                return Step::Bad(self.limit(self.keyword_span(), message, "too many points"));
            }
        }
        step
    }

    /// The argument of token `t`.
    fn arg(&self, t: Token) -> Arg {
        Arg { tok: t.tok, start: (t.span.start - self.start) as u32, len: t.span.len() as u32 }
    }

    /// Where argument `a` is.
    fn arg_span(&self, a: &Arg) -> Span {
        let start = self.start + a.start as usize;
        Span::new(start, start + a.len as usize)
    }

    /// Argument `a`'s number value (NaN when it is not a number).
    fn arg_num(&self, a: &Arg) -> f64 {
        if a.tok == Tok::Number { parse_number(self.bytes(self.arg_span(a))) } else { f64::NAN }
    }

    fn feed_forms(&mut self, t: Token) -> Step {
        let well_formed = t.bad_utf8.is_none() && t.tok != Tok::Unterminated;
        // Most commands have one form: no need to compare offers.
        if self.live == 1 && well_formed {
            if let Some((_, thread, Ok(_))) = self.offer(self.threads[0], t) {
                self.threads[0] = thread;
                let arg = self.arg(t);
                self.args.push(arg);
                return Step::Took;
            }
        }
        let mut offers: [Option<Offer>; MAX_FORMS] = [None; MAX_FORMS];
        let mut best = 0;
        if well_formed {
            for (i, offer) in offers.iter_mut().enumerate().take(self.live) {
                *offer = self.offer(self.threads[i], t);
                if let Some((strength, ..)) = offer {
                    best = best.max(*strength);
                }
            }
        }
        if best == 0 {
            if self.threads[..self.live].iter().any(|&th| self.complete(th)) {
                return Step::Ends;
            }
            let error = self.lexical_error(t).unwrap_or_else(|| self.unexpected(Some(t)));
            return Step::Bad(error);
        }
        let mut live = 0;
        for (strength, thread, value) in offers.iter().take(self.live).flatten() {
            if *strength != best {
                continue;
            }
            if value.is_ok() {
                self.threads[live] = *thread;
                live += 1;
            }
        }
        if live == 0 {
            return Step::Bad(self.not_one_character(t));
        }
        self.live = live;
        let arg = self.arg(t);
        self.args.push(arg);
        Step::Took
    }

    /// How strongly form `th` takes token `t` (0: not at all), where it is
    /// then, and the character's code where one character goes. Values are
    /// not checked here (see [`NotChar`]): the strength depends on the
    /// token's kind alone.
    fn offer(&self, th: Thread, t: Token) -> Option<Offer> {
        let form = self.form(th);
        let (mut elem, mut count) = (usize::from(th.elem), th.count);
        let bare = matches!(t.tok, Tok::Word | Tok::Keyword(_));
        let text = self.bytes(t.span);
        loop {
            let next = Thread { form: th.form, elem: elem as u8 + 1, count: 0 };
            let e = *form.get(elem)?;
            let (strength, value) = match (e, t.tok) {
                (Points(_), Tok::Number) => {
                    let stay = Thread { form: th.form, elem: elem as u8, count: count.saturating_add(1) };
                    return Some((2, stay, Ok(0)));
                }
                (Points(min), _) => {
                    if count % 2 == 0 && count / 2 >= u32::from(min) {
                        elem += 1;
                        count = 0;
                        continue;
                    }
                    return None;
                }
                (N | I, Tok::Number) => (2, Ok(0)),
                (S(_), Tok::Word | Tok::Str | Tok::Number | Tok::Sep | Tok::Dot) => (1, Ok(0)),
                (Word(w), _) if bare && text == w.as_bytes() => (3, Ok(0)),
                (OnOff | HAl | VAl, Tok::Word | Tok::Str) => {
                    let word = if bare { text } else { unquoted(text) };
                    let words: &[&str] = match e {
                        OnOff => &["on", "off"],
                        HAl => &["left", "center", "right"],
                        _ => &["bottom", "center", "top"],
                    };
                    if !words.iter().any(|w| w.as_bytes() == word) {
                        return None;
                    }
                    (if bare { 3 } else { 1 }, Ok(0))
                }
                (Sep, Tok::Sep) | (Dot, Tok::Dot) => (2, Ok(0)),
                (Elem::Char, Tok::Word | Tok::Str | Tok::Number | Tok::Sep | Tok::Dot) => {
                    (1, single_char(&self.string(t.tok, t.span)).map(|c| i64::from(u32::from(c))).ok_or(NotChar))
                }
                (ColorName, Tok::Word | Tok::Str) | (Hex256, Tok::Word | Tok::Str | Tok::Number) => (1, Ok(0)),
                _ => return None,
            };
            return Some((strength, next, value));
        }
    }

    /// The text a string argument stands for (quoted strings unescaped).
    fn string(&self, tok: Tok, span: Span) -> std::borrow::Cow<'_, str> {
        let text = self.text(span);
        if tok == Tok::Str { unescape(text).into() } else { text.into() }
    }

    /// Builds the pending command from its complete form.
    fn emit(&mut self) -> Command {
        self.state = State::Idle;
        let form = self.threads[..self.live].iter().copied().find(|&t| self.complete(t)).map_or(0, |t| t.form);
        let end = self.args.last().map_or(self.start + self.keyword.as_str().len(), |a| self.arg_span(a).end);
        let mut a = Args { reader: self, next: 0 };
        let kind = build(self.keyword, form, &mut a);
        // A long command's arguments are given back before it is checked.
        if self.args.capacity() > 4096 {
            self.args = Vec::new();
        }
        Command { kind, span: Span::new(self.start, end), pos: self.pos }
    }

    fn end_of_input(&mut self) -> Option<Result<Command, ReadError>> {
        if self.state != State::Command {
            self.state = State::Idle;
            return None;
        }
        if self.threads[..self.live].iter().any(|&t| self.complete(t)) {
            return Some(Ok(self.emit()));
        }
        self.state = State::Idle;
        Some(Err(self.unexpected(None)))
    }
}

/// True when an unterminated quoted string ends with a backslash that
/// escapes whatever comes next.
fn ends_in_escape(token: &[u8]) -> bool {
    let trailing = token.iter().rev().take_while(|&&b| b == b'\\').count();
    trailing % 2 == 1
}

/// True when `prefix`, the start of a token, may still become a number.
fn could_be_number(prefix: &[u8]) -> bool {
    let unsigned = match prefix {
        [b'+' | b'-', rest @ ..] => rest,
        _ => prefix,
    };
    match unsigned {
        [] => true,
        [b'0'..=b'9' | b'.', ..] => true,
        _ => {
            let is_prefix_of =
                |word: &[u8]| unsigned.len() <= word.len() && unsigned.eq_ignore_ascii_case(&word[..unsigned.len()]);
            is_prefix_of(b"infinity") || is_prefix_of(b"nan")
        }
    }
}

/// Reads a whole text with the same machinery as [`Reader`]: every command
/// that could be read, and every error, each in stream order.
///
/// ```
/// let (commands, errors) = animkit_grammar::animator::parse("frame\nlien 0 0 1 1\nflush\n");
/// assert_eq!(commands.len(), 2);
/// assert_eq!(errors[0].message, "expected a command, found `lien`");
/// ```
pub fn parse(src: &str) -> (Vec<Command>, Vec<SyntaxError>) {
    let (commands, errors) = parse_with_pos(src);
    (commands, errors.into_iter().map(SyntaxError::from).collect())
}

/// [`parse`], with each error's line and column.
pub fn parse_with_pos(src: &str) -> (Vec<Command>, Vec<ReadError>) {
    let mut reader = Reader::new();
    reader.push(src.as_bytes());
    reader.finish();
    let mut commands = Vec::new();
    let mut errors = Vec::new();
    while let Some(item) = reader.next() {
        match item {
            Ok(c) => commands.push(c),
            Err(e) => errors.push(e),
        }
    }
    (commands, errors)
}
