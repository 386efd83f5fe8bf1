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
//! A malformed command gives exactly one error, at the offending token, whose
//! message says what was expected and what was found. The reader then skips
//! to the next command keyword (the offending token itself when it is one, so
//! a command cut short by the next command loses only itself) and goes on.
//! Lexical errors (an unterminated string, invalid UTF-8) are errors of the
//! command they occur in, with their own message.
//!
//! Errors come as [`ReadError`]: the [`SyntaxError`] (message and absolute
//! byte span) plus the [`Pos`] of its start, because a streaming caller no
//! longer has the text to compute it from. `ReadError` derefs to
//! `SyntaxError`.
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

use super::ast::{Align, Char, Cmd, Color, Command, HAlign, Int, Num, Point, Pos, Str, VAlign};
use super::lexer::{Keyword, Tok, check_utf8, parse_number, unescape};
use crate::{Span, SyntaxError};
use logos::Logos;
use std::fmt;

/// Longest word, number or quoted string, in bytes (quotes and escapes
/// included): four times the compiler's longest string argument.
pub const MAX_TOKEN: usize = 4 << 20;
/// Longest command, in bytes from its keyword to the end of its last
/// argument (comments inside included).
pub const MAX_COMMAND: usize = 64 << 20;
/// Most points in one point list (`lines`, `poly`, `area`, `imgpoly`,
/// `echopt`); the same value as `animkit_vm::limits::MAX_POINTS`.
pub const MAX_POINTS: usize = 1_000_000;

/// A syntax error with the line and column of its start.
///
/// It derefs to the [`SyntaxError`], so `err.message` and `err.span` work.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// What went wrong, and where in bytes.
    pub error: SyntaxError,
    /// Line and column of `error.span.start`.
    pub pos: Pos,
}

impl std::ops::Deref for ReadError {
    type Target = SyntaxError;
    fn deref(&self) -> &SyntaxError {
        &self.error
    }
}

impl From<ReadError> for SyntaxError {
    fn from(e: ReadError) -> SyntaxError {
        e.error
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.pos, self.error.message)
    }
}

impl std::error::Error for ReadError {}

/// What one argument position takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Elem {
    /// A finite number.
    Num,
    /// A whole number (an integer-valued float such as `25.000000` included).
    Int,
    /// A string: quoted, or a bare word (or number, `-`, `.`) that is not a
    /// command keyword. The text names it in messages.
    Str(&'static str),
    /// A context word, bare.
    Word(&'static str),
    /// `on` or `off`.
    OnOff,
    /// `left`, `center` or `right`.
    HAlign,
    /// `bottom`, `center` or `top`.
    VAlign,
    /// A lone `-`.
    Sep,
    /// A lone `.`.
    Dot,
    /// Pairs of numbers, at least this many pairs, as many as follow.
    Points(u8),
    /// One character: the whole token, a quoted string's text, or `'c'`.
    Char,
    /// A colour name or `#` and 1, 2, 3 or 6 hex digits (the numeric colour
    /// forms are forms of their own).
    ColorName,
    /// 32x32 bits: 256 hex digits.
    Hex256,
}

use Elem::{
    ColorName, Dot, HAlign as HAl, Hex256, Int as I, Num as N, OnOff, Points, Sep, Str as S, VAlign as VAl, Word,
};

type Form = &'static [Elem];

const NONE: &[Form] = &[&[]];
const ONE_NUM: &[Form] = &[&[N]];
const ON_OFF: &[Form] = &[&[OnOff]];
const COLOR: &[Form] = &[&[ColorName], &[N], &[N, N, N]];
const RECT: &[Form] = &[&[N, N, N, N], &[N, N, Sep, N, N]];
const LINE: &[Form] = &[&[N, N, N, N]];
const CIRCLE: &[Form] = &[&[N, N, N, I]];
const IMAGE: Elem = S("an image name");
const MACRO: Elem = S("a macro name");
const AREA: Elem = S("an area name");
const CURSOR: Elem = S("a cursor name");
const STRING: Elem = S("a string");

/// The table of command signatures: every form of every command, in the
/// words of `animator.md`. [`build`] turns a matched form into a [`Cmd`].
fn signature(kw: Keyword) -> &'static [Form] {
    use Keyword as K;
    match kw {
        K::Quit | K::Frame | K::Flush | K::Push | K::Pop | K::Ident | K::Killareas | K::Endmacro | K::Forget => NONE,
        K::Keepalive | K::Events | K::Aspect => ON_OFF,
        K::Resize => &[&[I, I]],
        K::Warp => &[&[N, N], &[Word("area"), AREA]],
        K::Echo | K::Title => &[&[STRING]],
        K::Echopt => &[&[STRING, Points(0), Dot]],
        K::Screenshot => &[&[S("a file name")]],
        K::Screendump => &[&[S("a file name or `-`")]],
        K::Sleep | K::Flushdelay | K::Rotate | K::Alpha => ONE_NUM,
        K::Bg | K::Color => COLOR,
        K::Scale => &[&[N], &[N, N]],
        K::Shift | K::Dot => &[&[N, N]],
        K::Viewport => &[&[N, N, N, N], &[N, N, Sep, N, N], &[Word("aspect"), MACRO], &[MACRO]],
        K::Mult => &[&[N; 9]],
        K::Clip | K::Rect | K::Fillrect => RECT,
        K::Thick | K::Dash => &[&[I]],
        K::Line | K::Arrow => LINE,
        K::Text => &[&[N, N, STRING], &[HAl, VAl, N, N, STRING]],
        K::Blit => &[&[N, N, IMAGE], &[HAl, VAl, N, N, IMAGE]],
        K::Lines => &[&[Points(2)]],
        K::Poly => &[&[Points(3)]],
        K::Circle | K::Fillcircle => CIRCLE,
        K::Image => &[&[I, I, IMAGE], &[IMAGE, S("a file name")]],
        K::Colormap => &[&[Elem::Char, ColorName], &[Elem::Char, N], &[Elem::Char, N, N, N]],
        K::ImageSet => &[&[IMAGE, I, I, STRING]],
        K::Imgpoly => &[
            &[N, N, N, N, N, N, IMAGE, Points(3)],
            &[N, N, N, N, IMAGE, Points(3)],
            &[N, N, IMAGE, Points(3)],
            &[IMAGE, Points(3)],
        ],
        K::Area => &[&[AREA, Points(3)]],
        K::Delarea => &[&[AREA]],
        K::Macro => &[&[Word("push"), MACRO], &[MACRO]],
        K::Invoke => &[&[N, N, MACRO], &[MACRO]],
        K::Defcursor => &[&[CURSOR, Hex256, Hex256, I, I]],
        K::Setcursor => &[&[CURSOR]],
    }
}

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

/// A consumed argument token, with its number value (NaN when it is not a
/// number) and its integer value where a whole number or a character was
/// taken.
#[derive(Clone, Copy, Debug)]
struct Arg {
    tok: Tok,
    span: Span,
    num: f64,
    int: i64,
}

/// A form's answer to a token: how strongly it takes it, the form's state
/// after it, the value check's result, and the argument kind that took it.
type Offer = (u8, Thread, Result<i64, Bad>, Elem);

/// Why a token of the right kind was still refused.
#[derive(Clone, Copy, Debug)]
enum Bad {
    NotFinite,
    NotWhole,
    OutOfRange,
    NotChar,
    HexColor,
    CursorLength(u32),
    CursorDigit(char, u32),
}

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
    /// No form took it, or every form that would refused its value: an
    /// error.
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
    buf: Vec<u8>,
    base: usize,
    /// Index in `buf` of the first byte not yet consumed.
    cur: usize,
    /// The token at `cur`, once lexed and not yet consumed.
    peeked: Option<Token>,
    finished: bool,
    /// Line and column of absolute offset `tracked`.
    tracker: Pos,
    tracked: usize,
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
            buf: Vec::new(),
            base: 0,
            cur: 0,
            peeked: None,
            finished: false,
            tracker: Pos::START,
            tracked: 0,
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
        let old = self.buf.len();
        self.buf.resize(old + CHUNK, 0);
        let got = src.read(&mut self.buf[old..]);
        let n = *got.as_ref().unwrap_or(&0);
        self.buf.truncate(old + n);
        got
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
                    return Some(Err(self.error(span, message, "too long")));
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

    // ----- the fast path -------------------------------------------------

    /// The next command when it is a simple one that has wholly arrived:
    /// a keyword of [`fast_shape`] and its plain decimal numbers, each token
    /// followed by whitespace (so each is whole and, the last one included,
    /// certainly complete), nothing else in between. It is exactly what the
    /// general path would return (the same command, spans and position) and
    /// leaves the reader as the general path would; anything else (a
    /// comment, a quote, another form, a hexadecimal or long number, the end
    /// of the input so far) returns `None` having changed nothing, and the
    /// general path reads the command.
    fn fast_command(&mut self) -> Option<Command> {
        /// Longest command the fast path reads (the limits are far above).
        const MAX_FAST: usize = 1024;
        let rest = &self.buf[self.cur..];
        let rest = &rest[..rest.len().min(MAX_FAST)];
        let mut i = skip_space(rest, 0);
        let kw_start = i;
        while let Some(&b) = rest.get(i) {
            if b.is_ascii_lowercase() || b == b'_' {
                i += 1;
            } else {
                break;
            }
        }
        if !is_space(*rest.get(i)?) {
            return None;
        }
        let (kw, shape) = fast_shape(&rest[kw_start..i])?;
        let at = self.base + self.cur;
        let mut nums = [Num { value: 0.0, span: Span::default() }; 4];
        let mut ints = [0i64; 4];
        for (k, num) in nums.iter_mut().enumerate().take(shape.count as usize) {
            i = skip_space(rest, i);
            let (value, len, integer) = fast_number(&rest[i..])?;
            if shape.ints & (1 << k) != 0 {
                // Whole numbers written with a point or an exponent take the
                // general path (`whole`).
                ints[k] = integer?;
            }
            *num = Num { value, span: Span::new(at + i, at + i + len) };
            i += len;
        }
        let span =
            Span::new(at + kw_start, if shape.count == 0 { at + i } else { nums[shape.count as usize - 1].span.end });
        let int = |k: usize| Int { value: ints[k], span: nums[k].span };
        let point = |k: usize| Point { x: nums[k], y: nums[k + 1] };
        let kind = match kw {
            Keyword::Line => Cmd::Line { from: point(0), to: point(2) },
            Keyword::Arrow => Cmd::Arrow { from: point(0), to: point(2) },
            Keyword::Fillcircle => Cmd::FillCircle { center: point(0), radius: nums[2], vertices: int(3) },
            Keyword::Circle => Cmd::Circle { center: point(0), radius: nums[2], vertices: int(3) },
            Keyword::Color => Cmd::Color { color: Color::Rgb(nums[0], nums[1], nums[2]) },
            Keyword::Bg => Cmd::Bg { color: Color::Rgb(nums[0], nums[1], nums[2]) },
            Keyword::Rect => Cmd::Rect { corner: point(0), width: nums[2], height: nums[3] },
            Keyword::Fillrect => Cmd::FillRect { corner: point(0), width: nums[2], height: nums[3] },
            Keyword::Clip => Cmd::Clip { left: nums[0], bottom: nums[1], width: nums[2], height: nums[3] },
            Keyword::Dot => Cmd::Dot { at: point(0) },
            Keyword::Shift => Cmd::Shift { x: nums[0], y: nums[1] },
            Keyword::Scale => Cmd::Scale { x: nums[0], y: Some(nums[1]) },
            Keyword::Warp => Cmd::Warp { at: point(0) },
            Keyword::Rotate => Cmd::Rotate { degrees: nums[0] },
            Keyword::Alpha => Cmd::Alpha { alpha: nums[0] },
            Keyword::Sleep => Cmd::Sleep { seconds: nums[0] },
            Keyword::Flushdelay => Cmd::Flushdelay { seconds: nums[0] },
            Keyword::Thick => Cmd::Thick { pixels: int(0) },
            Keyword::Dash => Cmd::Dash { pattern: int(0) },
            Keyword::Resize => Cmd::Resize { width: int(0), height: int(1) },
            Keyword::Frame => Cmd::Frame,
            Keyword::Flush => Cmd::Flush,
            Keyword::Push => Cmd::Push,
            Keyword::Pop => Cmd::Pop,
            Keyword::Ident => Cmd::Ident,
            Keyword::Quit => Cmd::Quit,
            Keyword::Killareas => Cmd::Killareas,
            Keyword::Endmacro => Cmd::Endmacro,
            Keyword::Forget => Cmd::Forget,
            _ => return None,
        };
        // As `begin` and `emit` leave the reader: the command consumed up to
        // its last token, its position tracked.
        self.cur += span.end - at;
        let pos = self.track(span.start);
        Some(Command { kind, span, pos })
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
            self.buf.drain(..keep);
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
    fn track(&mut self, to: usize) -> Pos {
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
        self.error(self.keyword_span(), message, "command too long")
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
                return Step::Bad(self.error(self.keyword_span(), message, "too many points"));
            }
        }
        step
    }

    fn feed_forms(&mut self, t: Token) -> Step {
        let is_number = t.tok == Tok::Number;
        let num = if is_number { parse_number(self.bytes(t.span)) } else { f64::NAN };
        let well_formed = t.bad_utf8.is_none() && t.tok != Tok::Unterminated;
        // Most commands have one form: no need to compare offers.
        if self.live == 1 && well_formed {
            if let Some((_, thread, Ok(int), _)) = self.offer(self.threads[0], t, num) {
                self.threads[0] = thread;
                self.args.push(Arg { tok: t.tok, span: t.span, num, int });
                return Step::Took;
            }
        }
        let mut offers: [Option<Offer>; MAX_FORMS] = [None; MAX_FORMS];
        let mut best = 0;
        if well_formed {
            for (i, offer) in offers.iter_mut().enumerate().take(self.live) {
                *offer = self.offer(self.threads[i], t, num);
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
        let mut int = 0;
        let mut refusal = None;
        for (strength, thread, value, elem) in offers.iter().take(self.live).flatten() {
            if *strength != best {
                continue;
            }
            match value {
                Ok(v) => {
                    int = *v;
                    self.threads[live] = *thread;
                    live += 1;
                }
                Err(bad) => {
                    refusal.get_or_insert((*bad, *elem));
                }
            }
        }
        if live == 0 {
            let (bad, elem) = refusal.unwrap_or((Bad::NotFinite, Elem::Num));
            return Step::Bad(self.refused(t, bad, elem));
        }
        self.live = live;
        self.args.push(Arg { tok: t.tok, span: t.span, num, int });
        Step::Took
    }

    /// How strongly form `th` takes token `t` (0: not at all), where it is
    /// then, and the value check's result (an integer for whole numbers and
    /// characters).
    fn offer(&self, th: Thread, t: Token, num: f64) -> Option<Offer> {
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
                    return Some((2, stay, finite(num).map(|_| 0), e));
                }
                (Points(min), _) => {
                    if count % 2 == 0 && count / 2 >= u32::from(min) {
                        elem += 1;
                        count = 0;
                        continue;
                    }
                    return None;
                }
                (N, Tok::Number) => (2, finite(num).map(|_| 0)),
                (I, Tok::Number) => (2, whole(num, text)),
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
                    (1, single_char(&self.string(t.tok, t.span)).map(|c| i64::from(u32::from(c))).ok_or(Bad::NotChar))
                }
                (ColorName, Tok::Word | Tok::Str) => (1, hex_color(&self.string(t.tok, t.span))),
                (Hex256, Tok::Word | Tok::Str | Tok::Number) => (1, cursor_bits(&self.string(t.tok, t.span))),
                _ => return None,
            };
            return Some((strength, next, value, e));
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
        let end = self.args.last().map_or(self.start + self.keyword.as_str().len(), |a| a.span.end);
        let mut a = Args { reader: self, next: 0 };
        let kind = build(self.keyword, form, &mut a);
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

    // ----- messages ------------------------------------------------------

    fn error(&mut self, span: Span, message: String, label: &str) -> ReadError {
        let pos = self.track(span.start);
        ReadError { error: SyntaxError { span, message, label: label.to_string(), notes: Vec::new() }, pos }
    }

    /// The token as a message shows it.
    fn found(&self, t: Token) -> String {
        let text = String::from_utf8_lossy(self.bytes(t.span));
        match text.char_indices().nth(40) {
            Some((cut, _)) => format!("`{}...`", &text[..cut]),
            None => format!("`{text}`"),
        }
    }

    fn lexical_error(&mut self, t: Token) -> Option<ReadError> {
        if let Some(bad) = t.bad_utf8 {
            let byte = self.bytes(bad).first().copied().unwrap_or(0);
            return Some(self.error(bad, format!("expected UTF-8 text, found byte 0x{byte:02X}"), "not UTF-8"));
        }
        if t.tok == Tok::Unterminated {
            let at_end = self.finished && t.span.end == self.base + self.buf.len();
            let found = if at_end { "end of input" } else { "end of line" };
            let message = format!("expected `\"` to close the string, found {found}");
            return Some(self.error(t.span, message, "string not closed"));
        }
        None
    }

    fn not_a_command(&mut self, t: Token) -> ReadError {
        let mut message = format!("expected a command, found {}", self.found(t));
        if let Some(k) = suggest_keyword(&String::from_utf8_lossy(self.bytes(t.span))) {
            message.push_str(&format!(" (did you mean `{k}`?)"));
        }
        self.error(t.span, message, "not a command")
    }

    /// No form takes `t` (`None`: the end of input).
    fn unexpected(&mut self, t: Option<Token>) -> ReadError {
        let mut items: Vec<&'static str> = Vec::new();
        let mut string_expected = false;
        for &th in &self.threads[..self.live] {
            let form = self.form(th);
            let (mut elem, mut count) = (usize::from(th.elem), th.count);
            while let Some(&e) = form.get(elem) {
                string_expected |= matches!(e, S(_) | ColorName | Hex256);
                for item in describe(e) {
                    if !items.contains(item) {
                        items.push(item);
                    }
                }
                match e {
                    Points(min) if count % 2 == 0 && count / 2 >= u32::from(min) => {
                        elem += 1;
                        count = 0;
                    }
                    _ => break,
                }
            }
        }
        if items.contains(&"a colour") {
            items.retain(|&i| i != "a number");
        }
        let (span, found) = match t {
            Some(t) => (t.span, self.found(t)),
            None => {
                let end = self.base + self.buf.len();
                (Span::new(end, end), "end of input".to_string())
            }
        };
        let mut message = format!("expected {}, found {found}", join(&items));
        if let (Some(Token { tok: Tok::Keyword(k), .. }), true) = (t, string_expected) {
            message.push_str(&format!(" (`{k}` is a command; quote it to use it as a string)"));
        } else if let [th] = self.threads[..self.live] {
            if let Some(&Points(min)) = self.form(th).get(usize::from(th.elem)) {
                if th.count % 2 == 1 {
                    message.push_str(" (the last point has no y coordinate)");
                } else if th.count / 2 < u32::from(min) {
                    message.push_str(&format!(" (`{}` takes at least {min} points)", self.keyword));
                }
            }
        }
        let label = if t.is_none() { "input ends here" } else { "not expected here" };
        self.error(span, message, label)
    }

    /// A token of the right kind with a value that does not fit.
    fn refused(&mut self, t: Token, bad: Bad, elem: Elem) -> ReadError {
        let found = self.found(t);
        let what = if elem == I { "a whole number" } else { "a number" };
        let (message, label) = match bad {
            Bad::NotFinite => (format!("expected {what}, found {found} (not a finite number)"), "not finite"),
            Bad::NotWhole => (format!("expected a whole number, found {found}"), "not a whole number"),
            Bad::OutOfRange => (format!("expected a whole number, found {found} (out of range)"), "too large"),
            Bad::NotChar => (format!("expected a single character, found {found}"), "not one character"),
            Bad::HexColor => {
                (format!("expected a colour, found {found} (`#` takes 1, 2, 3 or 6 hex digits)"), "not a colour")
            }
            Bad::CursorLength(n) => (format!("expected 256 hex digits, found {n} characters"), "not 256 hex digits"),
            Bad::CursorDigit(c, i) => {
                (format!("expected 256 hex digits, found `{c}` at character {i}"), "not a hex digit")
            }
        };
        self.error(t.span, message, label)
    }
}

/// What an argument kind is called in messages.
fn describe(e: Elem) -> &'static [&'static str] {
    match e {
        N | Points(_) => &["a number"],
        I => &["a whole number"],
        S("a string") => &["a string"],
        S("a file name") => &["a file name"],
        S("a file name or `-`") => &["a file name or `-`"],
        S("an image name") => &["an image name"],
        S("a macro name") => &["a macro name"],
        S("an area name") => &["an area name"],
        S("a cursor name") => &["a cursor name"],
        S(_) => &["a string"],
        Word("area") => &["`area`"],
        Word("aspect") => &["`aspect`"],
        Word("push") => &["`push`"],
        Word(_) => &["a word"],
        OnOff => &["`on`", "`off`"],
        HAl => &["`left`", "`center`", "`right`"],
        VAl => &["`bottom`", "`center`", "`top`"],
        Sep => &["`-`"],
        Dot => &["`.`"],
        Elem::Char => &["a single character"],
        ColorName => &["a colour"],
        Hex256 => &["256 hex digits"],
    }
}

/// `a`, `a or b`, `a, b or c`.
fn join(items: &[&str]) -> String {
    match items {
        [] => "nothing".to_string(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

fn finite(v: f64) -> Result<f64, Bad> {
    if v.is_finite() { Ok(v) } else { Err(Bad::NotFinite) }
}

/// The whole number a number token stands for: exact for integer text, else
/// from the float when it has no fraction.
fn whole(v: f64, text: &[u8]) -> Result<i64, Bad> {
    finite(v)?;
    if let Some(i) = std::str::from_utf8(text).ok().and_then(|s| s.parse::<i64>().ok()) {
        return Ok(i);
    }
    let (negative, unsigned) = match text {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        _ => (false, text),
    };
    if let [b'0', b'x' | b'X', digits @ ..] = unsigned {
        if let Some(u) = std::str::from_utf8(digits).ok().and_then(|d| u64::from_str_radix(d, 16).ok()) {
            let i = i64::try_from(u).map_err(|_| Bad::OutOfRange)?;
            return Ok(if negative { -i } else { i });
        }
    }
    if v.fract() != 0.0 {
        return Err(Bad::NotWhole);
    }
    // i64::MAX as f64 rounds up to 2^63, which is out of range.
    if v.abs() >= 9_223_372_036_854_775_808.0 {
        return Err(Bad::OutOfRange);
    }
    Ok(v as i64)
}

/// True when an unterminated quoted string ends with a backslash that
/// escapes whatever comes next.
fn ends_in_escape(token: &[u8]) -> bool {
    let trailing = token.iter().rev().take_while(|&&b| b == b'\\').count();
    trailing % 2 == 1
}

/// What the fast path reads after a keyword: `count` plain numbers, those
/// whose bit is set in `ints` whole.
#[derive(Clone, Copy)]
struct FastShape {
    count: u8,
    ints: u8,
}

/// The keyword spelt `word` and its shape, for the commands the fast path
/// reads: those whose only way to be complete with these many numbers is
/// the form the fast path builds (`color` with three numbers, `scale` with
/// two, `rect` with four, ...).
fn fast_shape(word: &[u8]) -> Option<(Keyword, FastShape)> {
    use Keyword as K;
    let nums = |count| FastShape { count, ints: 0 };
    Some(match word {
        b"line" => (K::Line, nums(4)),
        b"fillcircle" => (K::Fillcircle, FastShape { count: 4, ints: 1 << 3 }),
        b"color" => (K::Color, nums(3)),
        b"circle" => (K::Circle, FastShape { count: 4, ints: 1 << 3 }),
        b"dot" => (K::Dot, nums(2)),
        b"rect" => (K::Rect, nums(4)),
        b"fillrect" => (K::Fillrect, nums(4)),
        b"arrow" => (K::Arrow, nums(4)),
        b"thick" => (K::Thick, FastShape { count: 1, ints: 1 }),
        b"alpha" => (K::Alpha, nums(1)),
        b"push" => (K::Push, nums(0)),
        b"pop" => (K::Pop, nums(0)),
        b"shift" => (K::Shift, nums(2)),
        b"rotate" => (K::Rotate, nums(1)),
        b"scale" => (K::Scale, nums(2)),
        b"frame" => (K::Frame, nums(0)),
        b"flush" => (K::Flush, nums(0)),
        b"dash" => (K::Dash, FastShape { count: 1, ints: 1 }),
        b"bg" => (K::Bg, nums(3)),
        b"clip" => (K::Clip, nums(4)),
        b"ident" => (K::Ident, nums(0)),
        b"warp" => (K::Warp, nums(2)),
        b"sleep" => (K::Sleep, nums(1)),
        b"flushdelay" => (K::Flushdelay, nums(1)),
        b"resize" => (K::Resize, FastShape { count: 2, ints: 0b11 }),
        b"quit" => (K::Quit, nums(0)),
        b"killareas" => (K::Killareas, nums(0)),
        b"endmacro" => (K::Endmacro, nums(0)),
        b"forget" => (K::Forget, nums(0)),
        _ => return None,
    })
}

/// ASCII whitespace, as the lexer skips it.
#[inline]
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// The index of the first byte at or after `i` that is not whitespace.
#[inline]
fn skip_space(bytes: &[u8], mut i: usize) -> usize {
    while bytes.get(i).is_some_and(|&b| is_space(b)) {
        i += 1;
    }
    i
}

/// A plain decimal number token at the start of `bytes` (what the lexer's
/// first number pattern matches, `[+-]?(d+(.d*)?|.d+)([eE][+-]?d+)?`),
/// followed by whitespace: its value (exactly what [`parse_number`] gives),
/// its length, and its value as a whole number when it is written as one
/// (digits only, at most 15 of them).
#[inline]
fn fast_number(bytes: &[u8]) -> Option<(f64, usize, Option<i64>)> {
    const POW10: [f64; 23] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
        1e20, 1e21, 1e22,
    ];
    let (negative, mut i) = match bytes.first()? {
        b'-' => (true, 1),
        b'+' => (false, 1),
        _ => (false, 0),
    };
    let (mut mantissa, mut digits, mut scale) = (0u64, 0u32, 0i32);
    let mut plain = true;
    while let Some(&b) = bytes.get(i).filter(|b| b.is_ascii_digit()) {
        mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(b - b'0'));
        digits += 1;
        i += 1;
    }
    if bytes.get(i) == Some(&b'.') {
        plain = false;
        i += 1;
        while let Some(&b) = bytes.get(i).filter(|b| b.is_ascii_digit()) {
            mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(b - b'0'));
            digits += 1;
            scale -= 1;
            i += 1;
        }
    }
    if digits == 0 {
        return None;
    }
    let mut slow = digits > 15;
    if let Some(b'e' | b'E') = bytes.get(i) {
        plain = false;
        let (exp_negative, start) = match bytes.get(i + 1) {
            Some(b'-') => (true, i + 2),
            Some(b'+') => (false, i + 2),
            _ => (false, i + 1),
        };
        let (mut exponent, mut j) = (0i32, start);
        while let Some(&b) = bytes.get(j).filter(|b| b.is_ascii_digit()) {
            exponent = exponent.saturating_mul(10).saturating_add(i32::from(b - b'0'));
            j += 1;
        }
        if j == start {
            return None;
        }
        slow |= j - start > 4;
        scale += if exp_negative { -exponent } else { exponent };
        i = j;
    }
    if !is_space(*bytes.get(i)?) {
        return None;
    }
    let m = mantissa as f64;
    let magnitude = match scale {
        _ if slow => return Some((parse_number(&bytes[..i]), i, None)).filter(|(v, ..)| v.is_finite()),
        0..=22 => m * POW10[scale as usize],
        -22..=-1 => m / POW10[(-scale) as usize],
        _ => return Some((parse_number(&bytes[..i]), i, None)).filter(|(v, ..)| v.is_finite()),
    };
    let whole = (plain && !slow).then(|| if negative { -(mantissa as i64) } else { mantissa as i64 });
    Some((if negative { -magnitude } else { magnitude }, i, whole))
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

/// A quoted token's text between the quotes, as bytes.
fn unquoted(text: &[u8]) -> &[u8] {
    text.strip_prefix(b"\"").and_then(|t| t.strip_suffix(b"\"")).unwrap_or(text)
}

/// The one character of `c`, `'c'` or `"c"` (already unquoted).
fn single_char(text: &str) -> Option<char> {
    let text = match text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')) {
        Some(inner) if !inner.is_empty() => inner,
        _ => text,
    };
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Some(c),
        _ => None,
    }
}

/// Checks `#` colours: 1, 2, 3 or 6 hex digits after the `#`.
fn hex_color(text: &str) -> Result<i64, Bad> {
    match text.strip_prefix('#') {
        None => Ok(0),
        Some(d) if matches!(d.len(), 1 | 2 | 3 | 6) && d.bytes().all(|b| b.is_ascii_hexdigit()) => Ok(0),
        Some(_) => Err(Bad::HexColor),
    }
}

/// Checks a cursor bitmap: exactly 256 hex digits.
fn cursor_bits(text: &str) -> Result<i64, Bad> {
    if let Some((i, c)) = text.chars().enumerate().find(|(_, c)| !c.is_ascii_hexdigit()) {
        return Err(Bad::CursorDigit(c, u32::try_from(i + 1).unwrap_or(u32::MAX)));
    }
    if text.len() != 256 {
        return Err(Bad::CursorLength(u32::try_from(text.len()).unwrap_or(u32::MAX)));
    }
    Ok(0)
}

/// The keyword a mistyped word was probably meant to be.
fn suggest_keyword(word: &str) -> Option<&'static str> {
    if word.len() < 2 || word.len() > 20 {
        return None;
    }
    let lower = word.to_ascii_lowercase();
    Keyword::ALL
        .iter()
        .map(|k| (edit_distance(&lower, k.as_str()), k.as_str()))
        .filter(|&(d, k)| d == 0 || (d <= 2 && d * 3 <= k.len()))
        .min_by_key(|&(d, _)| d)
        .map(|(_, k)| k)
}

/// Edit distance by characters, counting a swap of two neighbours as one
/// edit (`lien` is one edit from `line`).
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let width = b.len() + 1;
    let mut d: Vec<usize> = (0..(a.len() + 1) * width).map(|k| if k < width { k } else { 0 }).collect();
    for i in 1..=a.len() {
        d[i * width] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best =
                (d[(i - 1) * width + j] + 1).min(d[i * width + j - 1] + 1).min(d[(i - 1) * width + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[(i - 2) * width + j - 2] + 1);
            }
            d[i * width + j] = best;
        }
    }
    d[a.len() * width + b.len()]
}

/// The arguments of a complete command, taken in order by [`build`].
struct Args<'r> {
    reader: &'r Reader,
    next: usize,
}

impl Args<'_> {
    fn take(&mut self) -> Arg {
        let a = self.reader.args.get(self.next).copied();
        self.next += 1;
        // The form matched, so the argument is there.
        a.unwrap_or(Arg { tok: Tok::Number, span: Span::default(), num: 0.0, int: 0 })
    }

    fn num(&mut self) -> Num {
        let a = self.take();
        Num { value: a.num, span: a.span }
    }

    fn int(&mut self) -> Int {
        let a = self.take();
        Int { value: a.int, span: a.span }
    }

    fn point(&mut self) -> Point {
        Point { x: self.num(), y: self.num() }
    }

    fn str(&mut self) -> Str {
        let a = self.take();
        Str { text: self.reader.string(a.tok, a.span).into_owned(), span: a.span }
    }

    /// A bare word, unquoted if quoted.
    fn word(&mut self) -> &str {
        let a = self.take();
        let text = self.reader.text(a.span);
        if a.tok == Tok::Str { &text[1..text.len() - 1] } else { text }
    }

    fn points(&mut self) -> Vec<Point> {
        let args = &self.reader.args[self.next.min(self.reader.args.len())..];
        let n = args.iter().take_while(|a| a.tok == Tok::Number).count();
        let points = args[..n - n % 2]
            .chunks_exact(2)
            .map(|xy| Point {
                x: Num { value: xy[0].num, span: xy[0].span },
                y: Num { value: xy[1].num, span: xy[1].span },
            })
            .collect();
        self.next += n;
        points
    }

    fn color(&mut self, form: u8) -> Color {
        match form {
            0 => {
                let s = self.str();
                if s.text.starts_with('#') { Color::Hex(s) } else { Color::Name(s) }
            }
            1 => Color::Gray(self.num()),
            _ => Color::Rgb(self.num(), self.num(), self.num()),
        }
    }

    fn align(&mut self) -> Align {
        let start = self.reader.args[self.next].span;
        let h = match self.word() {
            "left" => HAlign::Left,
            "right" => HAlign::Right,
            _ => HAlign::Center,
        };
        let v = match self.word() {
            "bottom" => VAlign::Bottom,
            "top" => VAlign::Top,
            _ => VAlign::Center,
        };
        Align { h, v, span: start.to(self.reader.args[self.next - 1].span) }
    }

    fn on(&mut self) -> bool {
        self.word() == "on"
    }
}

/// Turns the arguments of a matched form into the command (the second half
/// of the signature table: form numbers are indexes into [`signature`]).
fn build(kw: Keyword, form: u8, a: &mut Args<'_>) -> Cmd {
    use Keyword as K;
    match kw {
        K::Quit => Cmd::Quit,
        K::Keepalive => Cmd::Keepalive { on: a.on() },
        K::Events => Cmd::Events { on: a.on() },
        K::Resize => Cmd::Resize { width: a.int(), height: a.int() },
        K::Warp if form == 0 => Cmd::Warp { at: a.point() },
        K::Warp => {
            a.take();
            Cmd::WarpArea { area: a.str() }
        }
        K::Echo => Cmd::Echo { text: a.str() },
        K::Echopt => Cmd::Echopt { text: a.str(), points: a.points() },
        K::Title => Cmd::Title { text: a.str() },
        K::Frame => Cmd::Frame,
        K::Flush => Cmd::Flush,
        K::Screenshot => Cmd::Screenshot { file: a.str() },
        K::Screendump => {
            let file = a.str();
            Cmd::Screendump { file: if file.text == "-" { None } else { Some(file) } }
        }
        K::Sleep => Cmd::Sleep { seconds: a.num() },
        K::Flushdelay => Cmd::Flushdelay { seconds: a.num() },
        K::Aspect => Cmd::Aspect { on: a.on() },
        K::Bg => Cmd::Bg { color: a.color(form) },
        K::Rotate => Cmd::Rotate { degrees: a.num() },
        K::Scale => Cmd::Scale { x: a.num(), y: if form == 1 { Some(a.num()) } else { None } },
        K::Shift => Cmd::Shift { x: a.num(), y: a.num() },
        K::Viewport => match form {
            0 => Cmd::Viewport { left: a.num(), bottom: a.num(), width: a.num(), height: a.num() },
            1 => {
                let (left, bottom) = (a.num(), a.num());
                a.take();
                Cmd::ViewportCorners { left, bottom, right: a.num(), top: a.num() }
            }
            2 => {
                a.take();
                Cmd::ViewportMacro { name: a.str(), keep_aspect: true }
            }
            _ => Cmd::ViewportMacro { name: a.str(), keep_aspect: false },
        },
        K::Mult => Cmd::Mult { matrix: std::array::from_fn(|_| a.num()) },
        K::Push => Cmd::Push,
        K::Pop => Cmd::Pop,
        K::Ident => Cmd::Ident,
        K::Clip if form == 0 => Cmd::Clip { left: a.num(), bottom: a.num(), width: a.num(), height: a.num() },
        K::Clip => {
            let (left, bottom) = (a.num(), a.num());
            a.take();
            Cmd::ClipCorners { left, bottom, right: a.num(), top: a.num() }
        }
        K::Color => Cmd::Color { color: a.color(form) },
        K::Alpha => Cmd::Alpha { alpha: a.num() },
        K::Thick => Cmd::Thick { pixels: a.int() },
        K::Dash => Cmd::Dash { pattern: a.int() },
        K::Dot => Cmd::Dot { at: a.point() },
        K::Line => Cmd::Line { from: a.point(), to: a.point() },
        K::Arrow => Cmd::Arrow { from: a.point(), to: a.point() },
        K::Rect | K::Fillrect => {
            let fill = kw == K::Fillrect;
            if form == 0 {
                let (corner, width, height) = (a.point(), a.num(), a.num());
                if fill { Cmd::FillRect { corner, width, height } } else { Cmd::Rect { corner, width, height } }
            } else {
                let from = a.point();
                a.take();
                let to = a.point();
                if fill { Cmd::FillRectCorners { from, to } } else { Cmd::RectCorners { from, to } }
            }
        }
        K::Text | K::Blit => {
            let align = if form == 1 { Some(a.align()) } else { None };
            let (at, s) = (a.point(), a.str());
            if kw == K::Text { Cmd::Text { align, at, text: s } } else { Cmd::Blit { align, at, image: s } }
        }
        K::Lines => Cmd::Lines { points: a.points() },
        K::Poly => Cmd::Poly { points: a.points() },
        K::Circle => Cmd::Circle { center: a.point(), radius: a.num(), vertices: a.int() },
        K::Fillcircle => Cmd::FillCircle { center: a.point(), radius: a.num(), vertices: a.int() },
        K::Image if form == 0 => Cmd::ImageNew { width: a.int(), height: a.int(), name: a.str() },
        K::Image => Cmd::ImageLoad { name: a.str(), path: a.str() },
        K::Colormap => {
            let c = a.int();
            let ch = Char { value: u32::try_from(c.value).ok().and_then(char::from_u32).unwrap_or('\0'), span: c.span };
            Cmd::Colormap { ch, color: a.color(form) }
        }
        K::ImageSet => Cmd::ImageSet { image: a.str(), x: a.int(), y: a.int(), pixels: a.str() },
        K::Imgpoly => match form {
            0 => {
                let (anchor, u, v) = (a.point(), a.point(), a.point());
                Cmd::ImgPoly { anchor, u, v, image: a.str(), points: a.points() }
            }
            1 => {
                let (u, v) = (a.point(), a.point());
                Cmd::ImgPolyEdges { u, v, image: a.str(), points: a.points() }
            }
            2 => {
                let (ux, vy) = (a.num(), a.num());
                Cmd::ImgPolyAxes { ux, vy, image: a.str(), points: a.points() }
            }
            _ => Cmd::ImgPolyUnit { image: a.str(), points: a.points() },
        },
        K::Area => Cmd::Area { name: a.str(), points: a.points() },
        K::Delarea => Cmd::Delarea { name: a.str() },
        K::Killareas => Cmd::Killareas,
        K::Macro if form == 0 => {
            a.take();
            Cmd::Macro { name: a.str(), push: true }
        }
        K::Macro => Cmd::Macro { name: a.str(), push: false },
        K::Endmacro => Cmd::Endmacro,
        K::Invoke if form == 0 => Cmd::InvokeAt { at: a.point(), name: a.str() },
        K::Invoke => Cmd::Invoke { name: a.str() },
        K::Forget => Cmd::Forget,
        K::Defcursor => {
            Cmd::Defcursor { name: a.str(), data: a.str(), mask: a.str(), hot_col: a.int(), hot_row: a.int() }
        }
        K::Setcursor => Cmd::Setcursor { name: a.str() },
    }
}

/// Reads a whole text with the same machinery as [`Reader`]: every command
/// that could be read, and every error, each in stream order.
///
/// ```
/// let (commands, errors) = animkit_grammar::animator::parse("frame\nlien 0 0 1 1\nflush\n");
/// assert_eq!(commands.len(), 2);
/// assert_eq!(errors[0].message, "expected a command, found `lien` (did you mean `line`?)");
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_keyword_has_forms_within_the_limit() {
        for k in Keyword::ALL {
            let forms = signature(k);
            assert!(!forms.is_empty() && forms.len() <= MAX_FORMS, "{k}");
            for f in forms {
                assert!(f.len() < 255, "{k}");
            }
        }
    }

    #[test]
    fn describe_names_every_string_kind() {
        for k in Keyword::ALL {
            for f in signature(k) {
                for &e in *f {
                    if let S(name) = e {
                        assert_eq!(describe(e), &[name], "{k}");
                    }
                }
            }
        }
    }

    #[test]
    fn whole_numbers() {
        assert!(matches!(whole(25.0, b"25.000000"), Ok(25)));
        assert!(matches!(whole(-3.0, b"-3"), Ok(-3)));
        assert!(matches!(whole(65535.0, b"0xffff"), Ok(65535)));
        assert!(matches!(whole(-16.0, b"-0x10"), Ok(-16)));
        assert!(matches!(whole(100.0, b"1e2"), Ok(100)));
        assert!(matches!(whole(9007199254740993.0, b"9007199254740993"), Ok(9007199254740993)));
        assert!(matches!(whole(2.5, b"2.5"), Err(Bad::NotWhole)));
        assert!(matches!(whole(1e30, b"1e30"), Err(Bad::OutOfRange)));
        assert!(matches!(whole(f64::INFINITY, b"inf"), Err(Bad::NotFinite)));
    }

    #[test]
    fn characters_and_hex() {
        assert_eq!(single_char("x"), Some('x'));
        assert_eq!(single_char("'x'"), Some('x'));
        assert_eq!(single_char("'"), Some('\''));
        assert_eq!(single_char("''"), None);
        assert_eq!(single_char("'é'"), Some('é'));
        assert_eq!(single_char("ab"), None);
        assert!(hex_color("#fff").is_ok() && hex_color("#12345").is_err() && hex_color("#").is_err());
        assert!(hex_color("red").is_ok() && hex_color("#ggg").is_err());
    }

    #[test]
    fn keyword_suggestions() {
        assert_eq!(suggest_keyword("lien"), Some("line"));
        assert_eq!(suggest_keyword("Frame"), Some("frame"));
        assert_eq!(suggest_keyword("fillcirle"), Some("fillcircle"));
        assert_eq!(suggest_keyword("xyzzy"), None);
        assert_eq!(suggest_keyword("5"), None);
    }

    /// Every result of `text` pushed in pieces of the given sizes, with the
    /// piece after which it came.
    fn read_all(text: &[u8], pieces: &[usize], fast: bool) -> Vec<(usize, Result<Command, ReadError>)> {
        let mut r = Reader::new();
        r.set_fast_path(fast);
        let mut out = Vec::new();
        let mut rest = text;
        let mut k = 0;
        while !rest.is_empty() {
            let n = pieces.get(k % pieces.len().max(1)).copied().unwrap_or(rest.len()).clamp(1, rest.len());
            r.push(&rest[..n]);
            rest = &rest[n..];
            while let Some(item) = r.next() {
                out.push((k, item));
            }
            k += 1;
        }
        r.finish();
        while let Some(item) = r.next() {
            out.push((k, item));
        }
        out
    }

    const VOCABULARY: &[&str] = &[
        // 28 keywords of the fast path (some with a sleep to keep them short).
        "line",
        "fillcircle",
        "color",
        "circle",
        "dot",
        "rect",
        "fillrect",
        "arrow",
        "thick",
        "alpha",
        "push",
        "pop",
        "shift",
        "rotate",
        "scale",
        "frame",
        "flush",
        "dash",
        "bg",
        "clip",
        "ident",
        "warp",
        "sleep",
        "resize",
        "quit",
        "killareas",
        "endmacro",
        "forget",
        // 9 other words.
        "lines",
        "echo",
        "invoke",
        "text",
        "viewport",
        "Line",
        "linex",
        "image_set",
        "macro",
        // 27 numbers and almost-numbers.
        "0",
        "1",
        "-2",
        "+3",
        "12",
        "0.5",
        "-.25",
        "5.",
        ".5",
        "1e3",
        "-1E-2",
        "2.5e+1",
        "1e",
        "1.2.3",
        "0x10",
        "-0xff",
        "inf",
        "-nan",
        "00012",
        "123456789012345678",
        "0.1234567890123456789",
        "1e400",
        "1e-400",
        "3.000000",
        "25.000000",
        "1e00005",
        "-0",
        // The rest.
        "-",
        ".",
        "+",
        "-.",
        "red",
        "#ff0000",
        "\"s\"",
        "\"a b",
        "!c",
        "! d\n",
        "aspect",
        "on",
        "area",
        "é",
        "\u{00a0}",
        "2x",
    ];
    const SPACES: &[&str] = &[" ", " ", " ", "\n", "\n", "\t", "  ", "\r\n", "\x0b", "\x0c", "", "!x\n"];

    /// Indexes into [`VOCABULARY`]: the keywords come first, then numbers
    /// from index [`FIRST_NUMBER`] on.
    const KEYWORDS: usize = 28;
    const FIRST_NUMBER: usize = 37;
    const NUMBERS: usize = 27;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1024))]
        #[test]
        fn the_fast_path_reads_what_the_general_path_reads(
            // Commands: a keyword, then 0 to 5 tokens, mostly numbers; now
            // and then any word of the vocabulary.
            commands in proptest::collection::vec(
                (0..KEYWORDS, proptest::collection::vec((0..100usize, 0..SPACES.len()), 0..6), 0..SPACES.len()),
                0..25,
            ),
            pieces in proptest::collection::vec(1usize..40, 1..6),
        ) {
            let mut text = String::new();
            for (kw, args, sp) in commands {
                text.push_str(VOCABULARY[kw]);
                text.push_str(SPACES[sp]);
                for (a, sp) in args {
                    let word = if a < 90 { FIRST_NUMBER + a % NUMBERS } else { a * 7 % VOCABULARY.len() };
                    text.push_str(if sp % 3 == 0 { " " } else { SPACES[sp] });
                    text.push_str(VOCABULARY[word]);
                }
                text.push_str(SPACES[sp % 4]);
            }
            let fast = read_all(text.as_bytes(), &pieces, true);
            let general = read_all(text.as_bytes(), &pieces, false);
            proptest::prop_assert_eq!(fast, general, "{:?}", text);
        }
    }

    #[test]
    fn the_fast_path_reads_printf_output_like_the_general_path() {
        let mut text = String::new();
        let mut x = 0.3f64;
        for i in 0..3000 {
            x = (x * 7919.123).fract();
            let y = x * 2.0 - 1.0;
            match i % 6 {
                0 => text.push_str(&format!("line {x:.6} {y:.6} {:.6} {:.3e}\n", -x, y * 1e-3)),
                1 => text.push_str(&format!("fillcircle {y:.6} {x:.6} {:.6} {}\n", x / 10.0, 3 + i % 50)),
                2 => text.push_str(&format!("color {x:.6} {:.6} {y}\nthick {}\n", 1.0 - x, i % 4)),
                3 => text
                    .push_str(&format!("push\nshift {y:.6} {x}\nrotate {:.2}\nscale {x:.6} {y:.6}\npop\n", x * 360.0)),
                4 => text.push_str(&format!("rect {y} {x} {:.6} {:.6}\tfillrect {x} {y} {x} {y}\n", x / 2.0, y / 3.0)),
                _ => text.push_str(&format!("dot {x:e} {y:E}\nflush\nframe\nalpha {x}\ndash {}\n", i % 65536)),
            }
        }
        for pieces in [vec![1 << 20], vec![1], vec![7, 64, 3], vec![4096]] {
            let fast = read_all(text.as_bytes(), &pieces, true);
            let general = read_all(text.as_bytes(), &pieces, false);
            assert_eq!(fast.len(), general.len());
            assert!(fast.iter().all(|(_, r)| r.is_ok()));
            assert_eq!(fast, general);
        }
    }
}
