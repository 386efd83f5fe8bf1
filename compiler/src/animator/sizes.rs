//! The sizes of Animator code that both the checker and lowering need:
//! the constants a command adds to its function and those a macro
//! definition adds. The checker counts them to keep every constant block
//! within the instruction word's reach (`Ax`); lowering writes exactly
//! these (tested for every command form in `lower.rs`). Both import this
//! module; the checker does not import lowering.

use super::row_ops::row_op;
use animkit_grammar::animator::ast::Cmd;

/// Where one command's constants go in its function: how many it adds, and
/// the offset of its last block from the first (`None` for a command with
/// no block), from its row's op(s) and their signatures in the ISA
/// (`RowOp::constants`).
pub(crate) fn constants(cmd: &Cmd) -> (u64, Option<u64>) {
    row_op(cmd).constants()
}

/// The constants a macro definition adds to the function that defines it:
/// the name, and the body's function when it has one (all but a
/// `macro push NAME` that only declares the name).
pub(crate) fn definition_constants(has_body: bool) -> u64 {
    1 + u64::from(has_body)
}
