//! The Animator command table: one row per command keyword, the one place
//! that lists the commands. The rows are in `commands/table.rs` (the crate
//! `animkit-commands`, a file of the table alone, which the build script and
//! the VM read too; re-exported here as `animator_commands!`); this module
//! documents them and derives the macro-body list.
//!
//! [`animator_commands!`](crate::animator_commands) is a callback macro:
//! `animator_commands!(callback)` expands to `callback! { rows }`
//! (`animator_commands!(callback; extra rows)` appends rows, for tests that
//! add a throw-away command), and each
//! consumer writes a `macro_rules!` callback that turns the rows into its
//! own code. A row reads
//!
//! ```text
//! Keyword "keyword" {
//!     cmds: [/// doc
//!            CmdVariant(form, ...) { /// doc
//!                                    field: Kind, ... }, ...],
//!                                // the ast::Cmd variants, each with its
//!                                // docs, the forms it is read from and
//!                                // its fields in the order written, with
//!                                // their docs and kinds
//!     macro_body: n,             // 0: not allowed in a macro body; else its
//!                                // place (1-based) in animator.md's list
//!     usage: "...",              // what it takes, for "`kw` takes ...; found ..."
//!     forms: [[elem, ...], ...], // the reader's forms, in matching order
//!     lower: [entry, ...],       // per `cmds` variant, in order: its op(s)
//!     ops: [Op = 0x.., "MNEMONIC", format, work, props, block, "meaning", {run}; ...],
//!                                // the ISA rows of the ops the row brings
//!                                // (animkit_vm::engine::isa's Animator section is
//!                                // written from this column) and each op's
//!                                // dispatch in the machine: `{canvas.f(args)}`
//!                                // (`?` if it can fail, `return` before it if
//!                                // its result is the flow) or `{machine}`
//!                                // (an arm written in machine.rs)
//! }
//! ```
//!
//! A `cmds` entry lists every field of its variant (the generated matches
//! name them all, so a field out of step does not compile), in the order
//! the text has them, each with its kind: `Num`, `Int`, `Bits` (a whole
//! number formatted in hex), `Str`, `Name` (a macro name), `Hex` (256 hex
//! digits), `OptStr` (`None` where `-` was written), `Point`, `Points`,
//! `Nums(n)` (`n` numbers), `OptNum` (there when the form has it), `On`,
//! `Flag("w")` (whether the form has the context word `w`), `Color`, `Char`
//! and `OptAlign`. A context word written before or after a field is a
//! string there: `right: "-" Num`, `points: Points "."`. The form numbers
//! index `forms` and must name each form once (a build-time check). The
//! `ast::Cmd` enum is this column written out: a variant without fields is
//! a unit variant, a field's type follows from its kind (`Int` and `Bits`:
//! `ast::Int`; `Str`, `Name` and `Hex`: `ast::Str`; `OptStr`: `Option<Str>`;
//! `Points`: `Vec<Point>`; `Nums(n)`: `[Num; n]`; `On` and `Flag`: `bool`;
//! `OptNum`/`OptAlign`: `Option<Num>`/`Option<Align>`), and the `///` docs
//! written here are the enum's.
//!
//! A `lower` entry names ops of `animkit_vm::engine::isa::Op` as identifiers (this
//! crate does not depend on the VM; the compiler expands them): `Op` (the
//! variant lowers to that one op, its constant block the op's signature),
//! `(Op with field)` (the same, and the signature's `Points` is the
//! variant's point list `field`), `(OpSome if field else OpNone)` (the op
//! depends on whether the optional `field` was written), `(Op, Op, ...)`
//! (a fixed sequence of ops, lowered by hand) and `()` (no op: the macro
//! recorder lowers it). The compiler checks each row against the ISA when
//! it builds (`compiler/src/animator/row_ops.rs`).
//!
//! The form elements are the reader's `Elem`s as `reader/forms.rs` names
//! them: `N` a number, `I` a whole number, `STRING`/`IMAGE`/`MACRO`/`AREA`/
//! `CURSOR`/`FILE`/`FILE_OR_DASH` a string, `Word("w")` a context word, `OnOff`,
//! `HAl`/`VAl` an alignment word, `Sep` a lone `-`, `Dot` a lone `.`,
//! `Points(n)` at least `n` pairs, `Elem::Char`, `ColorName`, `Hex256`.
//!
//! What is derived from it:
//!
//! | where | what |
//! | --- | --- |
//! | `lexer.rs` | the logos `#[token]` of every keyword (the `Tok` enum is generated), `Keyword`, `Keyword::ALL`, `Keyword::as_str` |
//! | `ast.rs` | the `Cmd` enum itself (its variants, fields, field types and docs) |
//! | `ast.rs` | `Cmd::command_keyword` (and so `Cmd::keyword`) |
//! | `commands.rs` | `Keyword::in_macro_body`, [`MACRO_BODY`](crate::animator::commands::MACRO_BODY) (the checker's allow list and its note) |
//! | `ast.rs` | `Cmd::without_spans` |
//! | `fields.rs` | `Cmd::try_fields` and `Cmd::sink_fields`: each argument with its kind, in the order written; the compiler's checker (`written.rs`, `meaning.rs`) and formatter walk it with a closure, the lowering (`write_block`) with an inlined `FieldSink` |
//! | `reader/forms.rs` | `signature`, `usage` and `build` (a matched form to its `Cmd`) |
//! | `build.rs` with `reference/generate.rs` | the LALRPOP reference's keyword terminals and one rule per row: an alternative per form, an error alternative per point where the command can be cut |
//! | vm `isa.rs` | the Animator section of the ISA (`Op`'s Animator variants, their bytes, mnemonics, formats, work, flags, signatures), from `ops` |
//! | vm `animator/dispatch.rs` | the machine's dispatch arm of each `{canvas...}` op, from `ops` (the `{machine}` arms are written in `machine.rs`, in the same match) |
//! | compiler `animator/row_ops.rs` | the op of each `Cmd` (`emit_command`'s plain ops) and the lowering's `constants()`, both from `lower` and the op's block in the ISA; a build-time check per row |
//!
//! Adding a command: a row in `commands/table.rs` (its `Cmd` variants, its
//! grammar rule, its ISA row and its machine dispatch come with it), its
//! canvas call, and the reference interpreter's arm; a command with a check or a
//! block layout of its own adds an arm to `meaning.rs`'s `own_checks` or
//! `lower.rs`'s `write_block`. ARCHITECTURE.md "How to add an Animator
//! command" has the list.

use crate::animator::lexer::Keyword;

/// `Keyword::in_macro_body` and [`MACRO_BODY`] from the table's
/// `macro_body` column.
macro_rules! macro_body_from_table {
    ($($k:ident $kw:tt { cmds: $cmds:tt, macro_body: $m:literal, $($rest:tt)* })*) => {
        /// Each keyword and its place in `animator.md`'s list of the
        /// commands a macro body may hold (0: not allowed).
        const MACRO_PLACES: [(Keyword, u8); Keyword::ALL.len()] = [$((Keyword::$k, $m)),*];

        impl Keyword {
            /// True for a command a macro body may hold (`animator.md`).
            ///
            /// ```
            /// use animkit_grammar::animator::lexer::Keyword;
            /// assert!(Keyword::Clip.in_macro_body());
            /// assert!(!Keyword::Frame.in_macro_body());
            /// ```
            pub const fn in_macro_body(self) -> bool {
                match self {
                    $(Keyword::$k => $m > 0,)*
                }
            }
        }
    };
}

crate::animator_commands!(macro_body_from_table);
#[cfg(test)]
pub(crate) use macro_body_from_table;

/// How many commands a macro body may hold.
const MACRO_BODY_LEN: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < MACRO_PLACES.len() {
        if MACRO_PLACES[i].1 > 0 {
            n += 1;
        }
        i += 1;
    }
    n
};

/// The commands a macro body may hold, in the order `animator.md` lists
/// them (the order of the checker's note). The table's `macro_body` places
/// must be 1..=n, each once: anything else does not compile.
///
/// ```
/// use animkit_grammar::animator::{commands::MACRO_BODY, lexer::Keyword};
/// assert_eq!(MACRO_BODY.len(), 27);
/// assert_eq!((MACRO_BODY[0], MACRO_BODY[26]), (Keyword::Color, Keyword::Clip));
/// ```
pub const MACRO_BODY: [Keyword; MACRO_BODY_LEN] = {
    let mut out = [Keyword::Quit; MACRO_BODY_LEN];
    let mut filled = [false; MACRO_BODY_LEN];
    let mut i = 0;
    while i < MACRO_PLACES.len() {
        let (k, place) = MACRO_PLACES[i];
        if place > 0 {
            let at = place as usize - 1;
            assert!(at < MACRO_BODY_LEN && !filled[at], "macro_body places must be 1..=n, each once");
            out[at] = k;
            filled[at] = true;
        }
        i += 1;
    }
    out
};
