//! The Animator drawing command language (`.draw`): lexer, AST, the
//! streaming command reader and the LALRPOP grammar that is its reference.
//!
//! ```
//! use animkit_grammar::animator::{parse, ast::{Cmd, Color}};
//! let (commands, errors) = parse("frame\ncolor #ff0000\nline 0 0 1 1 ! a diagonal\nflush\n");
//! assert!(errors.is_empty());
//! assert_eq!(commands.len(), 4);
//! let Cmd::Color { color: Color::Hex(hex) } = &commands[1].kind else { panic!() };
//! assert_eq!(hex.text, "#ff0000");
//! assert_eq!((commands[2].pos.line, commands[2].pos.col), (3, 1));
//! ```
//!
//! # Why a streaming reader and not LALRPOP
//!
//! `animvm` reads Animator commands from standard input and must run each
//! command the moment its last token has arrived: a visualiser drives it
//! frame by frame, and `flush\n` must take effect as soon as its newline
//! arrives, not when the next command does. An LR(1) parser over the whole
//! stream needs one token of lookahead to reduce, so it would hold every
//! command back until the next one starts. The Animator front end is
//! therefore a logos lexer ([`lexer`]) plus a hand-written incremental
//! command reader ([`Reader`]) driven by one table of command signatures;
//! [`parse`] runs the same reader over a whole text.
//!
//! The language is also written as a LALRPOP grammar
//! (`animator.lalrpop.in` with its commands written from the command
//! table, [`reference`](mod@reference)), the reference for the reader as the
//! sprite DSL's grammar is the reference for its fast path: a property
//! (`tests/animator_grammar.rs`) checks that the two read the same commands
//! and errors. A file is read by the reader; when it reports errors, the
//! grammar reads the file again and its commands and errors are the ones
//! [`parse`] returns (the same as the reader's: same messages, spans,
//! positions and second labels).
//!
//! The reader's rules (when a command is returned, how errors are reported
//! and recovered from, which words are context words) are in [`reader`]; the
//! lexical rules (numbers, strings, comments) in [`lexer`]; what the tree
//! records in [`ast`].
//!
//! # Decisions where `animator.md` is silent
//!
//! | question | decision |
//! | --- | --- |
//! | `!` inside a word | starts a comment (`red!x` is `red`); comment bytes are not checked for UTF-8 |
//! | line break inside quotes | an error ("expected `\"` to close the string, found end of line"): strings are one line, so a stray quote cannot eat the stream |
//! | unknown escape `\q` | the character itself (`q`) |
//! | case of keywords | significant: `Line` is not a command (the compiler's error suggests `line`) |
//! | whitespace | ASCII only (`isspace` in the C locale) |
//! | numbers | every `printf` form, hex integers and `%a` hex floats; `inf`/`nan` are numbers too (the checker rejects them as not finite) |
//! | integer parameters | integer-valued floats are whole numbers (`25.000000`); fractions are recorded, and the checker rejects them |
//! | a keyword where a string goes | an error; quote it (`echo "frame"`) |
//! | a number where a string goes | its raw text, unless a number also fits there (`invoke 1 2 m`); quote numeric names there |
//! | context words | only bare and only in their position; quoted they are names (`viewport "aspect"`) |
//! | `screendump "-"` | standard output, like `screendump -` |
//! | `colormap` character | the one character of `x`, `'x'`, `"x"`, `.`, `-`, `1` |
//! | a malformed command | one error; reading resumes at the next command keyword |
//! | a command cut short | reported at the command, saying what it takes (`` `line` takes 4 numbers, x1 y1 x2 y2; found 3 ``) |
//! | invalid UTF-8 | an error at the first bad byte of the word or string |
//! | error positions | [`ReadError`] carries line and column (characters, 1-based) |

pub mod ast;
pub mod commands;
pub mod fields;
pub mod lexer;
mod pos;
pub mod reader;
pub mod reference;

use crate::SyntaxError;
pub use ast::{Cmd, Command, Pos};
pub use reader::{ReadError, ReadErrorKind, Reader};

/// Reads a whole file: every command that could be read, and every error,
/// each in text order. The streaming reader reads it; when it reports
/// errors, the grammar ([`reference`](mod@reference)) reads the file again and its result
/// is returned (unless the reader hit one of its memory limits, which the
/// grammar does not have). The two are property-tested to agree.
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
    let (commands, errors) = reader::parse_with_pos(src);
    if errors.is_empty() || errors.iter().any(|e| e.kind == ReadErrorKind::Limit) {
        return (commands, errors);
    }
    reference::parse_with_pos(src)
}
