//! A recursive-descent reader for well-formed sprite files: the same
//! language as `sprite.lalrpop`, producing the same tree, but only for
//! input without a syntax error. On anything unexpected it gives up
//! (`None`) and [`super::parse`] runs the LALRPOP parser, whose error
//! recovery and messages are the reference. Valid files are nearly all the
//! files a build sees, and this reader is several times faster than the
//! table-driven parser (which moves 160-byte symbols on every shift).
//!
//! The tests below check that whenever this reader accepts a text, the
//! LALRPOP parser accepts it too without an error and builds an equal tree.
//! The reader scans its tokens itself, as `lexer.rs` would cut them (an
//! unknown character, which no rule takes, simply ends it); the same
//! tests hold it to the logos lexer the LALRPOP parser reads.

use super::ast::{Comment, File, Frame, Name, Number, State};
use crate::Span;

/// A name as the reader saw it: borrowed from the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NameRef<'s> {
    /// The name's text (a slice of the source).
    pub text: &'s str,
    /// Where it is.
    pub span: Span,
}

impl NameRef<'_> {
    fn owned(&self) -> Name {
        Name { text: self.text.to_string(), span: self.span }
    }
}

/// A number as the reader saw it (see [`Number`]), borrowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NumberRef<'s> {
    /// The digits (and fraction), without the sign.
    pub text: &'s str,
    /// True when a `-` preceded it.
    pub negative: bool,
    /// Sign included.
    pub span: Span,
}

impl NumberRef<'_> {
    fn owned(&self) -> Number {
        Number { text: self.text.to_string(), negative: self.negative, span: self.span }
    }
}

/// One frame as the reader saw it (see [`Frame`]), borrowed: the events
/// are the reader's buffer, valid until the next frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameRef<'s, 'e> {
    /// `D`, `D|I`, `D|event...`, `D|I|event...`
    Timed {
        /// Ticks to display the frame.
        duration: NumberRef<'s>,
        /// Explicit sprite index, if given.
        index: Option<NumberRef<'s>>,
        /// Custom events, in order.
        events: &'e [NameRef<'s>],
        /// The whole frame.
        span: Span,
    },
    /// An events-only frame: a head name, then events.
    Control {
        /// The first name.
        head: NameRef<'s>,
        /// The names after it.
        events: &'e [NameRef<'s>],
        /// The whole frame.
        span: Span,
    },
}

impl FrameRef<'_, '_> {
    /// The frame as the tree holds it.
    ///
    /// ```
    /// use animkit_grammar::sprite::{FrameRef, NumberRef, ast::Frame};
    /// use animkit_grammar::Span;
    /// let n = NumberRef { text: "5", negative: false, span: Span::new(0, 1) };
    /// let f = FrameRef::Timed { duration: n, index: None, events: &[], span: Span::new(0, 1) };
    /// assert!(matches!(f.to_frame(), Frame::Timed { duration, .. } if duration.text == "5"));
    /// ```
    pub fn to_frame(&self) -> Frame {
        match *self {
            FrameRef::Timed { duration, index, events, span } => Frame::Timed {
                duration: duration.owned(),
                index: index.map(|i| i.owned()),
                events: events.iter().map(NameRef::owned).collect(),
                span,
            },
            FrameRef::Control { head, events, span } => {
                Frame::Control { head: head.owned(), events: events.iter().map(NameRef::owned).collect(), span }
            }
        }
    }
}

/// What the streaming reader ([`read`]) hands out, in source order; any
/// method returning `false` stops the reading (and [`read`] returns
/// `None`).
pub trait Sink<'s> {
    /// A state begins: `Name[Category]:`.
    fn state(&mut self, name: NameRef<'s>, category: Option<NameRef<'s>>) -> bool;
    /// The next frame of the current state.
    fn frame(&mut self, frame: FrameRef<'s, '_>) -> bool;
    /// The current state ends; `span` is the whole state's.
    fn end_state(&mut self, span: Span) -> bool;
    /// A `# comment` (trailing white space trimmed), when the reader
    /// passes it: comments between the tokens above come in source order
    /// with them, give or take one token of look-ahead.
    fn comment(&mut self, text: &'s str, span: Span) {
        let _ = (text, span);
    }
}

/// A token's kind; its text is the source between its bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum K {
    Name,
    Int,
    Decimal,
    Minus,
    Colon,
    Comma,
    Pipe,
    LBracket,
    RBracket,
    Newline,
    /// Anything the lexer would make [`super::lexer::Tok::Unknown`]: no
    /// rule takes it.
    Unknown,
    Eof,
}

/// The reader, with its own scanner of the lexer's tokens (`lexer.rs`:
/// the same regular expressions, longest match; comments go to the sink
/// as they are passed) and one token of look-ahead.
struct Reader<'s, 'k, S> {
    src: &'s str,
    pos: usize,
    sink: &'k mut S,
    /// The next token: kind and bounds.
    kind: K,
    start: usize,
    end: usize,
    /// End of the last token consumed (LALRPOP's `@R`).
    last_end: usize,
    /// The events of the frame being read (one buffer for the file).
    events: Vec<NameRef<'s>>,
}

/// [`CLASS`] bits: a byte that continues a name (`[A-Za-z0-9_]`), a
/// blank the lexer skips (` `, tab, form feed).
const NAME: u8 = 1;
const BLANK: u8 = 2;

/// The class of every byte, one load instead of a chain of comparisons
/// per byte scanned.
const CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        if b.is_ascii_alphanumeric() || b == b'_' {
            t[i] |= NAME;
        }
        if matches!(b, b' ' | b'\t' | b'\x0c') {
            t[i] |= BLANK;
        }
        i += 1;
    }
    t
};

fn is_name(b: u8) -> bool {
    CLASS[b as usize] & NAME != 0
}

impl<'s, S: Sink<'s>> Reader<'s, '_, S> {
    /// Scans the token at `pos` into `kind`, `start`, `end`.
    fn scan(&mut self) {
        let b = self.src.as_bytes();
        let mut i = self.pos;
        loop {
            while i < b.len() && CLASS[b[i] as usize] & BLANK != 0 {
                i += 1;
            }
            if i < b.len() && b[i] == b'#' {
                let end = self.src[i..].find('\n').map_or(b.len(), |n| i + n);
                self.sink.comment(self.src[i..end].trim_end(), Span::new(i, end));
                i = end;
                continue;
            }
            break;
        }
        self.start = i;
        let Some(&c) = b.get(i) else {
            self.kind = K::Eof;
            self.end = i;
            self.pos = i;
            return;
        };
        let digits = |mut j: usize| {
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            j
        };
        let (kind, end) = match c {
            b'A'..=b'Z' | b'a'..=b'z' | b'_' => {
                let mut j = i + 1;
                while j < b.len() && is_name(b[j]) {
                    j += 1;
                }
                (K::Name, j)
            }
            b'0'..=b'9' => {
                let j = digits(i + 1);
                if b.get(j) == Some(&b'.') { (K::Decimal, digits(j + 1)) } else { (K::Int, j) }
            }
            b'.' if b.get(i + 1).is_some_and(u8::is_ascii_digit) => (K::Decimal, digits(i + 1)),
            b'-' => (K::Minus, i + 1),
            b':' => (K::Colon, i + 1),
            b',' => (K::Comma, i + 1),
            b'|' => (K::Pipe, i + 1),
            b'[' => (K::LBracket, i + 1),
            b']' => (K::RBracket, i + 1),
            b'\n' => (K::Newline, i + 1),
            b'\r' if b.get(i + 1) == Some(&b'\n') => (K::Newline, i + 2),
            _ => (K::Unknown, i + 1),
        };
        self.kind = kind;
        self.end = end;
        self.pos = end;
    }

    /// Consumes the next token.
    fn bump(&mut self) {
        self.last_end = self.end;
        self.scan();
    }

    fn eat(&mut self, k: K) -> bool {
        if self.kind == k {
            self.bump();
            true
        } else {
            false
        }
    }

    fn newlines(&mut self) {
        while self.eat(K::Newline) {}
    }

    fn text(&self) -> &'s str {
        &self.src[self.start..self.end]
    }

    fn name(&mut self) -> Option<NameRef<'s>> {
        if self.kind != K::Name {
            return None;
        }
        let n = NameRef { text: self.text(), span: Span::new(self.start, self.end) };
        self.bump();
        Some(n)
    }

    fn number(&mut self) -> Option<NumberRef<'s>> {
        let l = self.start;
        let negative = self.eat(K::Minus);
        if !matches!(self.kind, K::Int | K::Decimal) {
            return None;
        }
        let n = NumberRef { text: self.text(), negative, span: Span::new(l, self.end) };
        self.bump();
        Some(n)
    }

    /// `("|" name)*`, appended to the events buffer.
    fn events(&mut self) -> Option<()> {
        while self.eat(K::Pipe) {
            let n = self.name()?;
            self.events.push(n);
        }
        Some(())
    }

    /// Reads a frame and hands it to the sink; its end.
    fn frame(&mut self) -> Option<usize> {
        let l = self.start;
        self.events.clear();
        match self.kind {
            K::Name => {
                let head = self.name()?;
                self.events()?;
                let r = self.last_end;
                let span = Span::new(l, r);
                let f = FrameRef::Control { head, events: &self.events, span };
                self.sink.frame(f).then_some(r)
            }
            K::Minus | K::Int | K::Decimal => {
                let duration = self.number()?;
                let mut index = None;
                if self.eat(K::Pipe) {
                    match self.kind {
                        K::Eof => return None,
                        K::Name => {
                            let n = self.name()?;
                            self.events.push(n);
                        }
                        _ => index = Some(self.number()?),
                    }
                    self.events()?;
                }
                let r = self.last_end;
                let span = Span::new(l, r);
                let f = FrameRef::Timed { duration, index, events: &self.events, span };
                self.sink.frame(f).then_some(r)
            }
            _ => None,
        }
    }

    fn state(&mut self) -> Option<()> {
        let name = self.name()?;
        let l = name.span.start;
        let category = if self.eat(K::LBracket) {
            let c = self.name()?;
            self.eat(K::RBracket).then_some(())?;
            Some(c)
        } else {
            None
        };
        self.eat(K::Colon).then_some(())?;
        self.sink.state(name, category).then_some(())?;
        self.newlines();
        let mut r = self.frame()?;
        while self.eat(K::Comma) {
            self.newlines();
            r = self.frame()?;
        }
        self.sink.end_state(Span::new(l, r)).then_some(())
    }
}

/// Reads `src` into `sink`, state by state and frame by frame, without
/// building a tree; `None` if it has any syntax error (or anything this
/// reader does not handle), or if the sink stopped it. [`super::parse`] is this
/// reader with a sink that builds the tree, so a sink sees exactly what
/// the tree would hold.
pub fn read<'s>(src: &'s str, sink: &mut impl Sink<'s>) -> Option<()> {
    let mut r = Reader { src, pos: 0, sink, kind: K::Eof, start: 0, end: 0, last_end: 0, events: Vec::new() };
    r.scan();
    loop {
        match r.kind {
            K::Eof => return Some(()),
            K::Newline => r.bump(),
            K::Name => {
                r.state()?;
                if !matches!(r.kind, K::Eof | K::Newline) {
                    return None;
                }
            }
            _ => return None,
        }
    }
}

/// The sink of [`parse`]: the tree.
#[derive(Default)]
struct Tree {
    file: File,
    current: Option<State>,
}

impl<'s> Sink<'s> for Tree {
    fn state(&mut self, name: NameRef<'s>, category: Option<NameRef<'s>>) -> bool {
        let span = name.span;
        self.current =
            Some(State { name: name.owned(), category: category.map(|c| c.owned()), frames: Vec::new(), span });
        true
    }

    fn frame(&mut self, frame: FrameRef<'s, '_>) -> bool {
        let Some(state) = self.current.as_mut() else { return false };
        state.frames.push(frame.to_frame());
        true
    }

    fn end_state(&mut self, span: Span) -> bool {
        let Some(mut state) = self.current.take() else { return false };
        state.span = span;
        self.file.states.push(state);
        true
    }

    fn comment(&mut self, text: &'s str, span: Span) {
        self.file.comments.push(Comment { text: text.to_string(), span });
    }
}

/// The tree of `src`, or `None` if it has any syntax error (or anything
/// this reader does not handle).
pub fn parse(src: &str) -> Option<File> {
    let mut tree = Tree::default();
    read(src, &mut tree)?;
    Some(tree.file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn agrees(src: &str) -> Result<bool, TestCaseError> {
        let Some(fast) = parse(src) else { return Ok(false) };
        let (slow, errors) = super::super::parse_lalrpop(src);
        prop_assert!(errors.is_empty(), "fast reader accepted {src:?}, LALRPOP reports {errors:?}");
        prop_assert_eq!(fast, slow, "{:?}", src);
        Ok(true)
    }

    #[test]
    fn byte_classes_are_the_lexers() {
        for b in 0..=255u8 {
            assert_eq!(is_name(b), b.is_ascii_alphanumeric() || b == b'_', "{b}");
            assert_eq!(CLASS[b as usize] & BLANK != 0, matches!(b, b' ' | b'\t' | b'\x0c'), "{b}");
        }
    }

    #[test]
    fn spec_examples_agree() {
        for src in [
            "Walk: 5, 5, 5, 5, _loop\n",
            "Attack: 5|swingSound, 5|hitSound, 5, Idle\nIdle: 10|0, 10|1, 10|2, 10|1, _loop\n",
            "Jump: 3|0|jumpSound, 3|1, 3|2|landSound, _wait",
            "\n\n# comment\nFall[Jump]: 1|2, _wait|sfxLand # trailing\n\n",
            "Long: 5,\n   5,\n\n 5, _loop\n",
            "Neg: -5, 2.5|-1, .5, _loop\r\nX:\n 1, _wait\n",
            "",
        ] {
            assert!(agrees(src).unwrap(), "{src:?}");
        }
        assert!(parse("Walk 5, _loop").is_none());
        assert!(parse("Walk: 5 5, _loop").is_none());
        assert!(parse("Walk: 5, ?").is_none());
    }

    fn piece() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "A",
            "Idle",
            "_loop",
            "_wait",
            "ev",
            "5",
            "12",
            "0",
            "-",
            "2.5",
            ".5",
            ":",
            ",",
            "|",
            "[",
            "]",
            "\n",
            "\r\n",
            " ",
            "\t",
            "#c\n",
            "?",
            "A: ",
            "5, ",
            "|e",
            "_pingpong",
        ])
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]
        #[test]
        fn fast_reader_agrees_with_lalrpop(parts in prop::collection::vec(piece(), 0..24)) {
            agrees(&parts.concat())?;
        }

        #[test]
        fn well_formed_files_take_the_fast_path(
            states in prop::collection::vec((0usize..3, prop::collection::vec((0u8..30, prop::option::of(0u8..9), 0usize..3), 1..6), 0usize..4), 1..6)
        ) {
            let mut src = String::new();
            for (k, (cat, frames, end)) in states.iter().enumerate() {
                src.push_str(&format!("S{k}"));
                if *cat == 1 {
                    src.push_str("[Cat]");
                }
                src.push_str(": ");
                for (d, i, e) in frames {
                    src.push_str(&d.to_string());
                    if let Some(i) = i {
                        src.push_str(&format!("|{i}"));
                    }
                    for n in 0..*e {
                        src.push_str(&format!("|ev{n}"));
                    }
                    src.push_str(if *cat == 2 { ",\n    " } else { ", " });
                }
                src.push_str(["_loop", "_wait|x", "_pingpong", "S0"][*end]);
                src.push('\n');
            }
            prop_assert!(agrees(&src)?, "{}", src);
        }
    }
}
