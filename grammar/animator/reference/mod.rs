//! The LALRPOP grammar of the Animator command language
//! (`grammar/animator/animator.lalrpop.in`, its commands written from the
//! command table by the build script with `generate.rs`): the reference
//! for the streaming reader, as the sprite DSL's grammar is the reference
//! for its fast path.
//!
//! The reader ([`crate::animator::reader`]) must run each command the
//! moment its last token arrives, which an LR(1) parser cannot (it needs
//! one token of lookahead that a stream may not send), so the reader is a
//! hand-written state machine over a table of command signatures. The
//! grammar states the same language declaratively, one rule per form of
//! each command with an error alternative at every point where a command
//! can be cut, over the same logos lexer through a thin adapter
//! ([`tokens`]). A property (`tests/animator_grammar.rs`) checks over random
//! command texts that the two read the same commands, with the same spans
//! and positions, and the same errors (message, label, span, position,
//! second label) in the same order.
//!
//! # Who reads what
//!
//! [`crate::animator::parse_with_pos`], which `animc` reads files with,
//! runs the reader first: most files have no error, and the reader is
//! several times faster than the table-driven parser. When the reader
//! reports errors, the grammar reads the file again and its commands and
//! errors are the ones reported, unless one of the reader's errors is a
//! resource limit (a token, command or point list too long): those limits
//! bound the memory of a stream, are not part of the language, and the
//! grammar does not have them, so the reader's result stands. Streams are
//! read by the reader alone.
//!
//! The values of tokens (numbers, escapes, whole numbers, the one
//! character of `colormap`) and the wording of errors are shared with the
//! reader: what a token means is lexical, and the messages must be the
//! same. Both are read from the command table's forms (the reader's
//! `signature`, the grammar's rules written by the build script), and the
//! names of argument kinds in messages are shared (`reader/elem.rs`); what
//! the grammar does not share is the reading: which token each argument
//! takes, when a command is complete, what a cut command lacks are the
//! LR(1) parser's and the generator's (`generate.rs`), not the reader's
//! threads.
//!
//! ```
//! use animkit_grammar::animator::{ast::Cmd, reference};
//! let (commands, errors) = reference::parse_with_pos("frame\nline 0 0 1\necho after\n");
//! assert_eq!(commands.len(), 2);
//! assert!(matches!(commands[1].kind, Cmd::Echo { .. }));
//! assert_eq!(errors[0].message, "`line` takes 4 numbers, x1 y1 x2 y2; found 3");
//! assert_eq!((errors[0].pos.line, errors[0].pos.col), (2, 1));
//! ```

pub mod actions;
pub mod tokens;

lalrpop_util::lalrpop_mod!(
    #[allow(clippy::all, unused_parens, missing_docs, unused_imports)]
    grammar,
    "/animator/animator.rs"
);

use super::ast::{Command, Pos};
use super::reader::ReadError;
use actions::Item;

/// Every command and error of `src`, in order, as the grammar reads it.
///
/// ```
/// use animkit_grammar::animator::reference::read;
/// let items = read("scale 2 x\n");
/// assert!(items[0].is_ok());
/// assert_eq!(items[1].as_ref().unwrap_err().message, "expected a command, found `x`");
/// ```
pub fn read(src: &str) -> Vec<Item> {
    let mut items = match grammar::FileParser::new().parse(src, tokens::terminals(src)) {
        Ok(items) => items,
        // Every error has an alternative and the end of input is accepted
        // between commands, so this does not happen; report it if it does.
        Err(e) => vec![Err(actions::unexpected_parse_error(e))],
    };
    place(src, &mut items);
    items
}

/// [`read`], commands and errors apart (the shape of
/// [`crate::animator::reader::parse_with_pos`]).
pub fn parse_with_pos(src: &str) -> (Vec<Command>, Vec<ReadError>) {
    let mut commands = Vec::new();
    let mut errors = Vec::new();
    for item in read(src) {
        match item {
            Ok(c) => commands.push(c),
            Err(e) => errors.push(e),
        }
    }
    (commands, errors)
}

/// Sets each item's line and column, at its span's start (an error cut
/// short starts at its command), in one pass: items come in text order.
fn place(src: &str, items: &mut [Item]) {
    let (mut pos, mut at) = (Pos::START, 0);
    for item in items {
        let start = match item {
            Ok(c) => c.span.start,
            Err(e) => e.span.start,
        };
        if start < at {
            (pos, at) = (Pos::START, 0);
        }
        pos.advance(src.as_bytes().get(at..start).unwrap_or_default());
        at = start;
        match item {
            Ok(c) => c.pos = pos,
            Err(e) => e.pos = pos,
        }
    }
}
