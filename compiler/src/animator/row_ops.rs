//! The ops of the Animator command table's `lower` column
//! (`animkit_grammar::animator_commands!`, documented in
//! `grammar/animator/commands.rs`): which op each `Cmd` variant lowers to,
//! and so how many constants its block adds ([`RowOp::constants`], from
//! the op's signature in `vm/src/isa.rs`, the one place that shapes
//! blocks).
//!
//! The grammar crate does not depend on the VM, so its rows name ops as
//! identifiers and this module expands them against [`Op`]. Every row is
//! checked against the ISA when the crate builds: a `const` assertion per
//! row that its longest form's arguments (the form's elements other than
//! `-`, `.` and context words; a point list counts as one) are as many as
//! the largest block among its ops, and one per entry that the op's
//! signature ends in `Points` exactly when the entry names the variant's
//! point list (`(Op with points)`). The number of `lower` entries must be
//! the number of `cmds` variants, or the expansion does not compile.

use animkit_grammar::animator::ast::{Cmd, Point};
use animkit_vm::engine::isa::{Arg, Op};

/// How one command lowers, as its row's `lower` entry says.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum RowOp<'a> {
    /// One op, its constant block the op's signature, `points` the list
    /// that fills the signature's `Points` (empty when it has none).
    One(Op, &'a [Point]),
    /// A fixed sequence of ops, lowered by hand (`invoke X Y NAME`), or
    /// none (`macro`, `endmacro`: the macro recorder's).
    Seq(&'static [Op]),
}

impl RowOp<'_> {
    /// The constants the command adds to its function, and the offset of
    /// its last block from the first (`None` for a command with no block).
    #[inline]
    pub(super) fn constants(self) -> (u64, Option<u64>) {
        match self {
            RowOp::One(op, points) if takes_block(op) => (block_constants(op, points.len()), Some(0)),
            RowOp::One(..) => (0, None),
            RowOp::Seq(ops) => {
                let (mut added, mut last) = (0, None);
                for &op in ops.iter().filter(|&&op| takes_block(op)) {
                    last = Some(added);
                    added += block_constants(op, 0);
                }
                (added, last)
            }
        }
    }
}

/// True for an op that reads a constant block.
const fn takes_block(op: Op) -> bool {
    !op.info().block.is_empty()
}

/// The constants of `op`'s block, `points` points filling its `Points`:
/// one per argument, and a `Points` argument (last when there is one, the
/// ISA's tests check it) is its count and then 2 per point. O(1): it runs
/// once per command lowered.
#[inline]
fn block_constants(op: Op, points: usize) -> u64 {
    let extra = if takes_points(op) { 2 * points as u64 } else { 0 };
    block_len(op) as u64 + extra
}

/// True when `op`'s signature ends in `Points` (the ISA's tests check that
/// `Points` comes last when it comes at all).
const fn takes_points(op: Op) -> bool {
    matches!(op.info().block.last(), Some(Arg::Points))
}

/// The block length of `op` (its signature's arguments).
const fn block_len(op: Op) -> usize {
    op.info().block.len()
}

/// True when the row's longest form has as many arguments as its largest
/// block (`forms`: each form's arguments; `entries`: each entry's block
/// length, `None` for an entry with no op). A row of `()` entries only
/// (`macro`, `endmacro`) has no block to match.
const fn row_fits(forms: &[usize], entries: &[Option<usize>]) -> bool {
    let (mut args, mut block, mut any) = (0, 0, false);
    let mut i = 0;
    while i < forms.len() {
        args = max(args, forms[i]);
        i += 1;
    }
    i = 0;
    while i < entries.len() {
        if let Some(n) = entries[i] {
            (block, any) = (max(block, n), true);
        }
        i += 1;
    }
    !any || args == block
}

const fn max(a: usize, b: usize) -> usize {
    if a > b { a } else { b }
}

/// The pattern of variant `$v` for its entry: it binds the field the
/// entry names.
macro_rules! row_pattern {
    ($v:ident ($op:ident with $f:ident)) => {
        Cmd::$v { $f, .. }
    };
    ($v:ident ($some:ident if $f:ident else $none:ident)) => {
        Cmd::$v { $f, .. }
    };
    ($v:ident $entry:tt) => {
        Cmd::$v { .. }
    };
}

/// The [`RowOp`] of an entry, over the fields [`row_pattern`] bound.
macro_rules! row_op {
    (($op:ident with $f:ident)) => { RowOp::One(Op::$op, $f) };
    (($some:ident if $f:ident else $none:ident)) => {
        RowOp::One(if $f.is_some() { Op::$some } else { Op::$none }, &[])
    };
    (($($op:ident),*)) => { RowOp::Seq(&[$(Op::$op),*]) };
    ($op:ident) => { RowOp::One(Op::$op, &[]) };
}

/// An entry's block length for [`row_fits`] (the longest, for a choice;
/// the sum, for a sequence; `None` for no op).
macro_rules! entry_len {
    (($op:ident with $f:ident)) => { Some(block_len(Op::$op)) };
    (($some:ident if $f:ident else $none:ident)) => { Some(max(block_len(Op::$some), block_len(Op::$none))) };
    (()) => { None };
    (($($op:ident),+)) => { Some(0 $(+ block_len(Op::$op))+) };
    ($op:ident) => { Some(block_len(Op::$op)) };
}

/// True when the entry names a point list exactly when its op takes one.
macro_rules! points_agree {
    (($op:ident with $f:ident)) => { takes_points(Op::$op) };
    (($some:ident if $f:ident else $none:ident)) => { !takes_points(Op::$some) && !takes_points(Op::$none) };
    (($($op:ident),*)) => { true $(&& !takes_points(Op::$op))* };
    ($op:ident) => { !takes_points(Op::$op) };
}

/// The arguments a form element stands for: none for a lone `-` or `.`
/// or a context word, else one (a point list is one `Points`).
macro_rules! elem_args {
    (Sep) => {
        0
    };
    (Dot) => {
        0
    };
    (Word) => {
        0
    };
    ($other:ident) => {
        1
    };
}

/// [`row_op`] (an exhaustive match: a `Cmd` variant in no row is a
/// compile error) and the build-time checks of every row.
macro_rules! row_ops_from_table {
    ($($k:ident $kw:tt {
        cmds: [$($(#[$vm:meta])* $v:ident $vforms:tt $vfields:tt),*],
        macro_body: $m:tt,
        usage: $u:tt,
        forms: [$([$($el:ident $(:: $sub:ident)? $(($x:literal))?),*]),*],
        lower: [$($l:tt),*],
        ops: $ops:tt
    })*) => {
        /// The op(s) `cmd` lowers to, from its row's `lower` entry.
        pub(super) fn row_op(cmd: &Cmd) -> RowOp<'_> {
            match cmd {
                $($(row_pattern!($v $l) => row_op!($l),)*)*
            }
        }

        $(
            const _: () = assert!(
                row_fits(&[$(0 $(+ elem_args!($el))*),*], &[$(entry_len!($l)),*]),
                concat!("`", $kw, "`: the longest form's arguments are not the largest block of the row's ops")
            );
            $(
                const _: () = assert!(
                    points_agree!($l),
                    concat!("`", $kw, "`: an entry names a point list and its op takes none, or the other way")
                );
            )*
        )*
    };
}

animkit_grammar::animator_commands!(row_ops_from_table);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_counts_one_constant_per_argument_and_two_per_point() {
        assert_eq!(RowOp::One(Op::Text, &[]).constants(), (5, Some(0)));
        assert_eq!(RowOp::One(Op::Quit, &[]).constants(), (0, None));
        let (commands, errors) =
            animkit_grammar::animator::parse("imgpoly img 0 0 1 0 1 1\nscreendump -\nscreendump d.raw\n");
        assert!(errors.is_empty(), "{errors:?}");
        let ops: Vec<RowOp<'_>> = commands.iter().map(|c| row_op(&c.kind)).collect();
        assert!(matches!(ops[0], RowOp::One(Op::ImgPoly, points) if points.len() == 3));
        assert_eq!(ops[0].constants(), (7 + 1 + 2 * 3, Some(0)));
        assert_eq!(ops[1], RowOp::One(Op::Screendump, &[]));
        assert_eq!(ops[2], RowOp::One(Op::ScreendumpFile, &[]));
        assert_eq!(RowOp::Seq(&[Op::Push, Op::Shift, Op::CallN, Op::Pop]).constants(), (3, Some(2)));
        assert_eq!(RowOp::Seq(&[]).constants(), (0, None));
    }

    /// `block_constants` counts in O(1) what the signature says argument by
    /// argument: 1 each, and a `Points` argument 1 + 2 per point.
    #[test]
    fn the_o1_block_count_is_the_signatures_sum_for_every_op() {
        for &op in Op::ALL {
            for points in [0usize, 1, 7] {
                let sum: u64 =
                    op.info().block.iter().map(|a| if *a == Arg::Points { 1 + 2 * points as u64 } else { 1 }).sum();
                assert_eq!(block_constants(op, points), sum, "{op:?} with {points} points");
            }
        }
    }

    #[test]
    fn a_row_checks_its_longest_form_against_its_largest_block() {
        // `scale x [y]`: 2 arguments, `SCALE`'s block of 2.
        assert!(row_fits(&[1, 2], &[Some(2)]));
        assert!(!row_fits(&[1, 2], &[Some(3)]));
        assert!(!row_fits(&[3], &[Some(2), Some(1)]));
        // `macro [push] NAME`: the recorder's, no block to match.
        assert!(row_fits(&[1, 1], &[None]));
        assert_eq!((elem_args!(Sep), elem_args!(Word), elem_args!(Points)), (0, 0, 1));
        assert!(points_agree!((Lines with points)) && !points_agree!(Lines) && points_agree!(Line));
    }
}
