//! The machine's dispatch, written from the Animator command table
//! (`animkit_commands::animator_commands!`): the last column of each op of
//! a row's `ops` column says what the machine does with it.
//!
//! - `{canvas.f(args)}`: call the canvas method `f` with the arguments
//!   listed; `{canvas.f(args)?}` when it can fail (its error is the op's);
//!   `{return canvas.f(args)?}` when its result is the op's flow (`sleep`).
//! - `{machine}`: the op changes the machine's own state (matrices, pen,
//!   colormap, held names) or does more than one call: its arm is written
//!   by hand in `machine.rs`.
//!
//! An argument is one of: `pen` (the current pen), `matrix` (the current
//! matrix), `flag i`, `uint i`, `num i`, `str i` (the block's value at `i`),
//! `pt i` (the point `num i, num i+1` through the matrix), `pts i` (the
//! point list at `i` through the matrix), `rgb i` (`[num i, num i+1, num
//! i+2]`), `halign i`, `valign i` (alignment codes), `open` / `closed`
//! (`false` / `true`), `descriptor` / `file i` (a `screendump` target).
//!
//! `machine.rs` calls [`dispatch_from_table`] inside its `Domain::op` with
//! its hand-written arms: the callback writes one `match` over the op, an
//! arm per `{canvas...}` op followed by the hand-written ones, so the
//! match has the shape it had when every arm was written by hand, and it
//! stays exhaustive with no catch-all arm: an op of the table with
//! `{machine}` and no arm in `machine.rs` is a compile error.

/// The callback: `animator_commands!(dispatch_from_table; @ self op a m {
/// hand-written arms })`.
macro_rules! dispatch_from_table {
    ($($k:ident $kw:tt {
        cmds: $c:tt, macro_body: $mb:tt, usage: $u:tt, forms: $f:tt, lower: $l:tt,
        ops: [$($name:ident = $code:literal, $mn:literal, $fmt:ident, $work:expr, $props:expr, $block:expr, $meaning:literal, $run:tt;)*]
    })* @ $mc:ident $op:ident $a:ident $m:ident { $($arms:tt)* }) => {
        $crate::animator::dispatch::dispatch_arms!(($mc $op $a $m) [] $($($name $run)*)* ; $($arms)*)
    };
}
pub(crate) use dispatch_from_table;

/// Collects the arms of the `{canvas...}` ops, one op at a time, then
/// writes the `match`.
macro_rules! dispatch_arms {
    (($mc:ident $op:ident $a:ident $m:ident) [$($acc:tt)*] ; $($arms:tt)*) => {
        match $op {
            $($acc)*
            $($arms)*
        }
    };
    ($ctx:tt [$($acc:tt)*] $name:ident {machine} $($rest:tt)*) => {
        $crate::animator::dispatch::dispatch_arms!($ctx [$($acc)*] $($rest)*)
    };
    (($mc:ident $op:ident $a:ident $m:ident) [$($acc:tt)*] $name:ident {$($call:tt)*} $($rest:tt)*) => {
        $crate::animator::dispatch::dispatch_arms!(($mc $op $a $m) [
            $($acc)*
            $crate::isa::Op::$name => $crate::animator::dispatch::canvas_call!($mc $a $m; $($call)*),
        ] $($rest)*)
    };
}
pub(crate) use dispatch_arms;

/// One `{canvas...}` arm's body.
macro_rules! canvas_call {
    ($mc:ident $a:ident $m:ident; return canvas . $f:ident ($($k:ident $($i:literal)?),*) ?) => {{
        $($crate::animator::dispatch::canvas_prep!($mc $a; $k $($i)?);)*
        return Ok($mc.canvas.$f($($crate::animator::dispatch::canvas_arg!($mc $a $m; $k $($i)?)),*)?);
    }};
    ($mc:ident $a:ident $m:ident; canvas . $f:ident ($($k:ident $($i:literal)?),*) ?) => {{
        $($crate::animator::dispatch::canvas_prep!($mc $a; $k $($i)?);)*
        $mc.canvas.$f($($crate::animator::dispatch::canvas_arg!($mc $a $m; $k $($i)?)),*)?;
    }};
    ($mc:ident $a:ident $m:ident; canvas . $f:ident ($($k:ident $($i:literal)?),*)) => {{
        $($crate::animator::dispatch::canvas_prep!($mc $a; $k $($i)?);)*
        $mc.canvas.$f($($crate::animator::dispatch::canvas_arg!($mc $a $m; $k $($i)?)),*);
    }};
}
pub(crate) use canvas_call;

/// What an argument needs before the call: a point list is transformed
/// into the machine's scratch buffer.
macro_rules! canvas_prep {
    ($mc:ident $a:ident; pts $i:literal) => {
        $mc.transform_points($a.points($i))
    };
    ($mc:ident $a:ident; $k:ident $($i:literal)?) => {};
}
pub(crate) use canvas_prep;

/// One argument of a canvas call.
macro_rules! canvas_arg {
    ($mc:ident $a:ident $m:ident; pen) => {
        &$mc.pen
    };
    ($mc:ident $a:ident $m:ident; matrix) => {
        &$m
    };
    ($mc:ident $a:ident $m:ident; flag $i:literal) => {
        $a.flag($i)
    };
    ($mc:ident $a:ident $m:ident; uint $i:literal) => {
        $a.uint($i)
    };
    ($mc:ident $a:ident $m:ident; num $i:literal) => {
        $a.num($i)
    };
    ($mc:ident $a:ident $m:ident; str $i:literal) => {
        $a.str($i)
    };
    ($mc:ident $a:ident $m:ident; pt $i:literal) => {
        $m.apply([$a.num($i), $a.num($i + 1)])
    };
    ($mc:ident $a:ident $m:ident; pts $i:literal) => {
        &$mc.scratch
    };
    ($mc:ident $a:ident $m:ident; rgb $i:literal) => {
        [$a.num($i), $a.num($i + 1), $a.num($i + 2)]
    };
    ($mc:ident $a:ident $m:ident; halign $i:literal) => {
        $crate::animator::HAlign::from_code($a.uint($i))
    };
    ($mc:ident $a:ident $m:ident; valign $i:literal) => {
        $crate::animator::VAlign::from_code($a.uint($i))
    };
    ($mc:ident $a:ident $m:ident; open) => {
        false
    };
    ($mc:ident $a:ident $m:ident; closed) => {
        true
    };
    ($mc:ident $a:ident $m:ident; descriptor) => {
        $crate::animator::DumpTarget::Descriptor
    };
    ($mc:ident $a:ident $m:ident; file $i:literal) => {
        $crate::animator::DumpTarget::File($a.str($i))
    };
}
pub(crate) use canvas_arg;
