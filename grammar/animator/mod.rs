//! The Animator drawing command language (`.draw`): lexer, AST and the
//! streaming command reader.
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
//! The reader's rules (when a command is returned, how errors are reported
//! and recovered from, which words are context words) are in [`reader`]; the
//! lexical rules (numbers, strings, comments) in [`lexer`]; what the tree
//! records in [`ast`].

pub mod ast;
pub mod lexer;
pub mod reader;

pub use ast::{Cmd, Command, Pos};
pub use reader::{ReadError, Reader, parse, parse_with_pos};
