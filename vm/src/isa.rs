//! The animkit instruction set: one table for all three languages.
//!
//! Every instruction is one 32-bit little-endian word, the opcode in the low
//! byte, as in Lua 5.4's `lopcodes.h`:
//!
//! ```text
//!  31        24 23        16 15         8 7          0
//! +------------+------------+------------+------------+
//! |     C      |     B      |     A      |     op     |  ABC
//! |          Bx (16)        |     A      |     op     |  ABx   (sBx: Bx - 32767)
//! |                Ax (24)               |     op     |  Ax
//! |           sJ (24, signed)            |     op     |  sJ    (pc of next + sJ)
//! +------------+------------+------------+------------+
//! ```
//!
//! `R[x]` is register x of the running function's window, `K[x]` the x-th
//! constant of the running function. Constants are numbers; a string constant
//! holds the index of an entry of the bundle's string table and is written
//! `S[x]`. Domain ops take their arguments in one of two forms, both shaped
//! by the op's [`Arg`] signature:
//!
//! - **constant block** (`K` format): `K[Ax]`, `K[Ax+1]`, ...; `Points` is a
//!   count `n` followed by `2n` numbers. The verifier checks every value.
//! - **register window** (`R` format): `R[A]`, `R[A+1]`, ...,
//!   `R[A+len-1]`, `len` being the signature's length (one register per
//!   element, so no `Points`, `Str` or `Func`). The verifier checks that
//!   the window fits the function's registers; the values are computed at
//!   run time, so the domain checks them (a NaN or a fraction where a
//!   whole number belongs is a runtime error naming the command).
//!
//! | class | used by | what it is |
//! | --- | --- | --- |
//! | generic | every language | registers, constants, arithmetic, jumps, calls, waits |
//! | sprite | Sprite DSL | displayed sprite, events, state transitions |
//! | animator | Animator | one op per drawing / window / image / area command |
//! | slap | SLAP | one op per actor / camera command, arguments in a register window |
//!
//! Opcodes 0x00–0x1f are generic, 0x20–0x2f sprite, 0x30–0x7f Animator and
//! 0x80–0x9f SLAP. The verifier (`crate::verify`) only lets a module use
//! generic ops and those of its own language. The rules it enforces are
//! listed in its module documentation.
//!
//! The table is written in one section per class (the Animator section in
//! the Animator command table, `animkit_commands::animator_commands!`, each
//! command's row holding the ops it brings, in its `ops` column; the
//! others here); each row gives the op's
//! name, byte, mnemonic, format, then its two property columns, as the
//! `opmode` byte in Lua's `lopcodes.c`: **work** (the [`Work`] the op
//! costs beyond its instruction, which the interpreter charges for every
//! domain op, `crate::work::op_work`) and **props** (its [`Props`] flags:
//! whether sprite code may use it, whether it ends the code, which the
//! verifier reads), then its signature and meaning. Each section also writes a pattern
//! macro naming all its ops (`generic_ops!()`, `sprite_ops!()`,
//! `animator_ops!()`, `slap_ops!()`, crate-private), so that the
//! interpreter's and every domain's `match` over ops lists its own ops one
//! by one and the other classes by their pattern, with no catch-all arm: a
//! row forgotten in a machine is a compile error. Two hand-written
//! patterns, checked against the rows, name parts of the generic class
//! for the matches that treat the rest of it alike: `register_ops!()` (the
//! generic ops sprite code may not use: the sprite runtime's) and
//! `register_non_ax_ops!()` (those of them not `Ax` format: the
//! verifier's and the disassembler's `Ax` arms).

use std::fmt;

/// Instruction word layouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// No operands; every other bit is zero.
    None,
    /// `A` is a register.
    A,
    /// `A` and `B` are registers.
    AB,
    /// `A`, `B`, `C` are registers.
    ABC,
    /// `A` register, `Bx` constant index.
    ABx,
    /// `A` register, `sBx` signed 16-bit immediate.
    AsBx,
    /// `Ax` unsigned 24-bit immediate (meaning given by the op).
    Ax,
    /// `sJ` signed 24-bit jump offset.
    SJ,
    /// `Ax` is the first constant of a block shaped by the op's signature.
    K,
    /// `A` is the first register of a window shaped by the op's signature
    /// (`R[A..A+len]`); the other bits are zero.
    R,
}

/// Opcode byte -> op, with `HALT` for the unassigned bytes (which verified
/// code never holds): [`Insn::verified_op`].
static DECODE: [Op; 256] = {
    let mut table = [Op::Halt; 256];
    let mut b = 0;
    while b < 256 {
        if let Some(op) = Op::from_u8(b as u8) {
            table[b] = op;
        }
        b += 1;
    }
    table
};

/// Which languages may use an op.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpClass {
    /// Every language.
    Generic,
    /// Sprite DSL modules only.
    Sprite,
    /// Animator modules only.
    Animator,
    /// SLAP modules only (opcodes 0x80-0x9f).
    Slap,
}

impl OpClass {
    /// The class of the domain ops of `language`: a module may use generic
    /// ops and those of its own language's class only.
    ///
    /// ```
    /// use animkit_vm::engine::isa::OpClass;
    /// use animkit_vm::engine::program::Language;
    /// assert_eq!(OpClass::of(Language::Slap), OpClass::Slap);
    /// ```
    pub const fn of(language: crate::program::Language) -> OpClass {
        language.op_class()
    }

    /// The opcode bytes reserved for the class.
    pub const fn byte_range(self) -> std::ops::RangeInclusive<u8> {
        match self {
            OpClass::Generic => 0x00..=0x1f,
            OpClass::Sprite => 0x20..=0x2f,
            OpClass::Animator => 0x30..=0x7f,
            OpClass::Slap => 0x80..=0x9f,
        }
    }
}

/// One element of a domain op's signature: its constant block (`K`
/// format) or its register window (`R` format, single-register elements
/// only, checked by the domain at run time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arg {
    /// Any finite number.
    Num,
    /// A whole number in `0..=i32::MAX as u32` (counts, sizes, flags).
    UInt,
    /// A whole number in `0..=max`: a size or count the runtime allocates
    /// for (see [`crate::limits`]), a small code (alignments, SLAP
    /// actions) or an id (SLAP actors).
    Max(u32),
    /// `0` or `1`.
    Bool,
    /// A string constant.
    Str,
    /// A count `n` (at most [`crate::limits::MAX_POINTS`]) then `2n`
    /// numbers (x, y pairs); always the last argument.
    Points,
    /// The index of a function of the same module.
    Func,
}

/// The work units a domain op costs beyond its one instruction (see
/// `crate::interp::Limits::max_steps`): the property column of the table,
/// which the interpreter charges for every domain op (`crate::work`). Every op with a `Points`
/// argument is also charged one unit per point, whatever its `Work`.
/// Generic, sprite and SLAP ops are all [`Work::Free`]: the interpreter
/// charges their instruction and nothing more.
///
/// ```
/// use animkit_vm::engine::isa::{Op, Work};
/// assert_eq!(Op::Frame.info().work, Work::Heavy);
/// assert_eq!(Op::Text.info().work, Work::Text(4));
/// assert_eq!(Op::Line.info().work, Work::Free);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// Nothing beyond the instruction (and its points, if it has any).
    Free,
    /// One unit per 64 bytes of the string argument at this index.
    Text(u8),
    /// One unit per byte of the string argument at this index
    /// (`imageset`'s pixels).
    Bytes(u8),
    /// As many units as the whole-number argument at this index (a
    /// circle's vertices).
    Count(u8),
    /// `HEAVY_WORK` (`crate::animator::machine`): the op touches the whole
    /// frame, a file or the clock.
    Heavy,
    /// One unit per 16 pixels of a `w` x `h` image (the arguments at these
    /// indices), and at least `HEAVY_WORK`.
    Pixels(u8, u8),
    /// What running another piece of the program took (`viewport NAME`
    /// measures a macro); nothing of its own.
    Measured,
}

/// An op's flags: the facts about it that the verifier and the
/// interpreters would otherwise each list by hand.
///
/// ```
/// use animkit_vm::engine::isa::{Op, Props};
/// assert!(Op::Jmp.info().props.contains(Props::SPRITE_CODE));
/// assert!(!Op::Move.info().props.contains(Props::SPRITE_CODE));
/// assert!(Op::Quit.info().props.contains(Props::ENDS));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Props(u8);

impl Props {
    /// No flag.
    pub const PLAIN: Props = Props(0);
    /// Sprite code may use it: the sprite ops, and the generic ops of the
    /// compact sprite interpreter, which has no registers, calls or
    /// bindings (`NOP JMP WAIT HALT`).
    pub const SPRITE_CODE: Props = Props(1);
    /// No instruction follows it: it ends the function or the fiber.
    pub const ENDS: Props = Props(2);

    /// Every flag of `self` and of `other`.
    pub const fn with(self, other: Props) -> Props {
        Props(self.0 | other.0)
    }

    /// Whether every flag of `flags` is set.
    pub const fn contains(self, flags: Props) -> bool {
        self.0 & flags.0 == flags.0
    }
}

/// Static facts about an opcode: one row of the table below.
#[derive(Clone, Copy, Debug)]
pub struct OpInfo {
    /// Upper-case name printed by the disassembler.
    pub mnemonic: &'static str,
    /// Word layout.
    pub format: Format,
    /// Who may use it.
    pub class: OpClass,
    /// The work its domain charges beyond the instruction itself (the
    /// op's property column, as `opmode` in Lua's `lopcodes.c`).
    pub work: Work,
    /// Flags, as the other bits of `opmode` in Lua's `lopcodes.c`.
    pub props: Props,
    /// The signature: constant block shape for `Format::K` ops, register
    /// window shape for `Format::R` ops; empty otherwise.
    pub block: &'static [Arg],
    /// One-line register-transfer meaning, as in `lopcodes.h`.
    pub meaning: &'static str,
}

use crate::limits::{MAX_CIRCLE_VERTICES, MAX_CURSOR_HOT, MAX_DASH, MAX_IMAGE, MAX_SLAP_FRAME, MAX_WINDOW};
use Arg::{Bool, Func, Max, Num, Points, Str};
use Work::{Bytes, Count, Free, Heavy, Measured, Pixels, Text};

const PLAIN: Props = Props::PLAIN;
const SPRITE_CODE: Props = Props::SPRITE_CODE;
const ENDS: Props = Props::ENDS;
/// `HALT`: sprite code may use it, and it ends the fiber.
const SPRITE_ENDS: Props = Props::SPRITE_CODE.with(Props::ENDS);

/// An alignment code: 0, 1 or 2 (left/bottom, center, right/top).
const ALIGN: Arg = Max(2);
/// A Unicode scalar value (`colormap`'s character).
const CHAR: Arg = Max(char::MAX as u32);

const N2: &[Arg] = &[Num, Num];
const N3: &[Arg] = &[Num, Num, Num];
const N4: &[Arg] = &[Num, Num, Num, Num];

/// A SLAP actor id: a whole number in `0..=u32::MAX`.
const ID: Arg = Max(u32::MAX);
/// A SLAP action: `0..=11` (`crate::slap::actions::ACTIONS`).
const ACTION: Arg = Max(11);

macro_rules! opcodes {
    ($( $class:ident $pattern:ident { $( $name:ident = $code:literal, $mn:literal, $fmt:ident, $work:expr, $props:expr, $block:expr, $meaning:literal; )* } )*) => {
        /// Every opcode. See the module documentation for the word layout.
        #[repr(u8)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Op { $( $(
            #[doc = concat!("`", $meaning, "`")]
            $name = $code,
        )* )* }

        impl Op {
            /// All opcodes, in table order.
            pub const ALL: &'static [Op] = &[$( $(Op::$name,)* )*];

            /// Decodes an opcode byte; `None` for an unassigned byte.
            pub const fn from_u8(b: u8) -> Option<Op> {
                match b { $( $( $code => Some(Op::$name), )* )* _ => None }
            }

            /// The op's row of the table.
            pub const fn info(self) -> &'static OpInfo {
                match self { $( $( Op::$name => &OpInfo {
                    mnemonic: $mn, format: Format::$fmt, class: OpClass::$class, work: $work, props: $props,
                    block: $block, meaning: $meaning,
                }, )* )* }
            }
        }

        $(
            #[doc = concat!(
                "The pattern that matches every op of class `OpClass::", stringify!($class),
                "`, written from its section of the table, so that a `match` over ops ",
                "can name a whole class and stay exhaustive: a new row of the class is ",
                "matched where the class is, and a new row of another class is a compile ",
                "error in every match that lists that class's ops one by one."
            )]
            macro_rules! $pattern {
                () => { $( $crate::isa::Op::$name )|* };
            }
            #[allow(unused_imports)]
            pub(crate) use $pattern;
        )*
    };
}

/// The ISA with its Animator section written from the Animator command
/// table (`animkit_commands::animator_commands!`): every row's `ops`
/// column, in table order, gives the Animator ops their bytes, mnemonics,
/// formats, work, flags, signatures and meanings (its last column, the
/// machine's dispatch, is `crate::animator::dispatch`'s). The other
/// sections are written here.
macro_rules! isa_from_table {
    ($($k:ident $kw:tt {
        cmds: $c:tt, macro_body: $m:tt, usage: $u:tt, forms: $f:tt, lower: $l:tt,
        ops: [$($name:ident = $code:literal, $mn:literal, $fmt:ident, $work:expr, $props:expr, $block:expr, $meaning:literal, $run:tt;)*]
    })* @ { $($before:tt)* } { $($after:tt)* }) => {
        opcodes! {
            $($before)*
            Animator animator_ops {
                $($($name = $code, $mn, $fmt, $work, $props, $block, $meaning;)*)*
            }
            $($after)*
        }
    };
}

animkit_commands::animator_commands!(isa_from_table; @ {
    Generic generic_ops {
        // ---- generic -------------------------------------------------------
        Nop      = 0x00, "NOP",      None, Free, SPRITE_CODE, &[], "nothing";
        Move     = 0x01, "MOVE",     AB,   Free, PLAIN, &[], "R[A] := R[B]";
        LoadK    = 0x02, "LOADK",    ABx,  Free, PLAIN, &[], "R[A] := K[Bx]";
        LoadI    = 0x03, "LOADI",    AsBx, Free, PLAIN, &[], "R[A] := sBx";
        Add      = 0x04, "ADD",      ABC,  Free, PLAIN, &[], "R[A] := R[B] + R[C]";
        Sub      = 0x05, "SUB",      ABC,  Free, PLAIN, &[], "R[A] := R[B] - R[C]";
        Mul      = 0x06, "MUL",      ABC,  Free, PLAIN, &[], "R[A] := R[B] * R[C]";
        Div      = 0x07, "DIV",      ABC,  Free, PLAIN, &[], "R[A] := R[B] / R[C]";
        Neg      = 0x08, "NEG",      AB,   Free, PLAIN, &[], "R[A] := -R[B]";
        Jmp      = 0x09, "JMP",      SJ,   Free, SPRITE_CODE, &[], "pc += sJ";
        Call     = 0x0a, "CALL",     Ax,   Free, PLAIN, &[], "call function Ax of this module";
        CallN    = 0x0b, "CALLN",    K,    Free, PLAIN, &[Str], "call every function bound to name S[K]; error if unbound";
        Bind     = 0x0c, "BIND",     K,    Free, PLAIN, &[Str, Func], "bindings[S[K]] := [F[K+1]]";
        BindPush = 0x0d, "BINDPUSH", K,    Free, PLAIN, &[Str, Func], "bindings[S[K]] := bindings[S[K]] ++ [F[K+1]]";
        Declare  = 0x0e, "DECLARE",  K,    Free, PLAIN, &[Str], "bindings[S[K]] := bindings[S[K]] or []";
        Forget   = 0x0f, "FORGET",   None, Free, PLAIN, &[], "bindings := {}";
        Ret      = 0x10, "RET",      None, Free, ENDS, &[], "return to the caller";
        Halt     = 0x11, "HALT",     None, Free, SPRITE_ENDS, &[], "stop this fiber for good";
        Wait     = 0x12, "WAIT",     Ax,   Free, SPRITE_CODE, &[], "suspend for Ax ticks (Ax >= 1)";
        LoadKX   = 0x13, "LOADKX",   A,    Free, PLAIN, &[], "R[A] := K[Ax of the next word, an EXTRAARG]; skips it";
        ExtraArg = 0x14, "EXTRAARG", Ax,   Free, PLAIN, &[], "operand Ax of the LOADKX before it (on its own: nothing)";
    }

    Sprite sprite_ops {
        // ---- sprite --------------------------------------------------------
        Sprite   = 0x20, "SPRITE",   Ax,   Free, SPRITE_CODE,  &[], "displayed sprite := Ax";
        Event    = 0x21, "EVENT",    Ax,   Free, SPRITE_CODE,  &[], "fire event S[Ax] (string table)";
        Enter    = 0x22, "ENTER",    Ax,   Free, SPRITE_CODE,  &[], "state := Ax; pc := entry(Ax)";
    }
} {
    Slap slap_ops {
        // ---- slap: actors (register windows; re-anchoring: crate::slap) ------
        Action     = 0x80, "ACTION",     R, Free, PLAIN, &[ID, ACTION], "actor(R[A]).action := R[A+1]; pose cycle restarts unless unchanged; re-anchors";
        Direction  = 0x81, "DIRECTION",  R, Free, PLAIN, &[ID, Num], "actor(R[A]).heading := R[A+1] radians; re-anchors";
        Position2  = 0x82, "POSITION2",  R, Free, PLAIN, &[ID, Num, Num], "actor(R[A]).position := (R[A+1], its y, R[A+2]); re-anchors";
        Position3  = 0x83, "POSITION3",  R, Free, PLAIN, &[ID, Num, Num, Num], "actor(R[A]).position := (R[A+1], R[A+2], R[A+3]); re-anchors";
        ActorColor = 0x84, "ACOLOR",     R, Free, PLAIN, &[ID, Num, Num, Num], "actor(R[A]).colour := (R[A+1], R[A+2], R[A+3])";
        Size       = 0x85, "SIZE",       R, Free, PLAIN, &[ID, Num], "actor(R[A]).size := R[A+1] (> 0); re-anchors";
        // ---- slap: camera ------------------------------------------------------
        CamPos     = 0x86, "CAMPOS",     R, Free, PLAIN, N3, "camera.position := (R[A], R[A+1], R[A+2])";
        CamDir     = 0x87, "CAMDIR",     R, Free, PLAIN, N3, "camera.direction := (R[A], R[A+1], R[A+2]) (not all zero)";
        CamAngles  = 0x88, "CAMANGLES",  R, Free, PLAIN, N2, "camera.direction := unit vector of (yaw R[A], pitch R[A+1])";
        CamLookAt  = 0x89, "CAMLOOKAT",  R, Free, PLAIN, N3, "camera.direction := (R[A], R[A+1], R[A+2]) - camera.position (not all zero)";
        CamFollow  = 0x8a, "CAMFOLLOW",  R, Free, PLAIN, &[ID, Num, Num], "camera follows actor(R[A]): R[A+1] behind it, R[A+2] above, looking at it, until the next camera op";
        CamMove    = 0x8b, "CAMMOVE",    R, Free, PLAIN, &[Num, Num, Num, Max(MAX_SLAP_FRAME)], "camera.position slides to (R[A], R[A+1], R[A+2]) over R[A+3] frames (>= 1), until the next camera op";
    }
});

/// The generic ops sprite code may not use (no `SPRITE_CODE` flag: the
/// registers, calls and bindings of register code) whose format is not
/// `Ax`, one by one: with `Op::Call | Op::ExtraArg`, `register_ops!()`;
/// with `NOP JMP HALT`, the generic ops that a `match` inside an `Ax`
/// format arm (the verifier's `Ax` rules, the disassembler's `Ax`
/// comments) takes as not reached. Written by hand, checked against the
/// rows (`subclass_patterns_match_their_rows`); a new generic op is in
/// no pattern until one names it, so it is a compile error in every match
/// that lists the generic ops.
macro_rules! register_non_ax_ops {
    () => {
        $crate::isa::Op::Move
            | $crate::isa::Op::LoadK
            | $crate::isa::Op::LoadI
            | $crate::isa::Op::Add
            | $crate::isa::Op::Sub
            | $crate::isa::Op::Mul
            | $crate::isa::Op::Div
            | $crate::isa::Op::Neg
            | $crate::isa::Op::CallN
            | $crate::isa::Op::Bind
            | $crate::isa::Op::BindPush
            | $crate::isa::Op::Declare
            | $crate::isa::Op::Forget
            | $crate::isa::Op::Ret
            | $crate::isa::Op::LoadKX
    };
}
pub(crate) use register_non_ax_ops;

/// The generic ops sprite code may not use (the verifier's `op-class`
/// rule): with the other languages' ops, what a `match` over ops in the
/// sprite runtime (`crate::sprite::plan`'s `run_code`, the reload's
/// layout) lists besides the ops it runs, so that a new generic op is a
/// compile error there, not a silent halt.
macro_rules! register_ops {
    () => {
        $crate::isa::register_non_ax_ops!() | $crate::isa::Op::Call | $crate::isa::Op::ExtraArg
    };
}
pub(crate) use register_ops;

impl Op {
    /// The op's row of the table: mnemonic.
    pub fn mnemonic(self) -> &'static str {
        self.info().mnemonic
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.mnemonic())
    }
}

/// Largest value of a 24-bit `Ax` field.
pub const MAX_AX: u32 = (1 << 24) - 1;
/// Largest and smallest `sJ` jump offsets.
pub const MAX_SJ: i32 = (1 << 23) - 1;
/// See [`MAX_SJ`].
pub const MIN_SJ: i32 = -(1 << 23);
/// Bias of the signed 16-bit `sBx` field.
pub const SBX_BIAS: i32 = 32767;

/// One encoded instruction word, with typed accessors.
///
/// ```
/// use animkit_vm::engine::isa::{Insn, Op};
/// let w = Insn::abc(Op::Add, 1, 2, 3);
/// assert_eq!((w.op(), w.a(), w.b(), w.c()), (Some(Op::Add), 1, 2, 3));
/// let j = Insn::sj(Op::Jmp, -4);
/// assert_eq!(j.sj_field(), -4);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Insn(pub u32);

impl Insn {
    /// `op A B C`.
    pub const fn abc(op: Op, a: u8, b: u8, c: u8) -> Insn {
        Insn(op as u32 | (a as u32) << 8 | (b as u32) << 16 | (c as u32) << 24)
    }
    /// `op A Bx`.
    pub const fn abx(op: Op, a: u8, bx: u16) -> Insn {
        Insn(op as u32 | (a as u32) << 8 | (bx as u32) << 16)
    }
    /// `op A sBx` (`sbx` in `-32767..=32768`).
    pub const fn asbx(op: Op, a: u8, sbx: i32) -> Insn {
        Insn::abx(op, a, (sbx + SBX_BIAS) as u16)
    }
    /// `op A` for a register-window op (`Format::R`): its arguments are
    /// `R[a]`, `R[a+1]`, ..., as many as its signature has elements.
    ///
    /// ```
    /// use animkit_vm::engine::isa::{Insn, Op};
    /// let w = Insn::r(Op::Size, 3); // actor R[3] size := R[4]
    /// assert_eq!((w.op(), w.a(), w.bx()), (Some(Op::Size), 3, 0));
    /// assert_eq!(Op::Size.info().block.len(), 2);
    /// ```
    pub const fn r(op: Op, a: u8) -> Insn {
        Insn(op as u32 | (a as u32) << 8)
    }
    /// `op Ax` (`ax <= MAX_AX`; higher bits are cut).
    pub const fn ax(op: Op, ax: u32) -> Insn {
        Insn(op as u32 | (ax & MAX_AX) << 8)
    }
    /// `op sJ` (`sj` in `MIN_SJ..=MAX_SJ`).
    pub const fn sj(op: Op, sj: i32) -> Insn {
        Insn(op as u32 | ((sj as u32) & MAX_AX) << 8)
    }
    /// The opcode of a word of verified code, without the unassigned-byte
    /// case: the verifier's `opcode` rule proves every word's low byte is
    /// an assigned opcode, so the register interpreter decodes through this
    /// total table. (Should an unassigned byte ever get here, it reads as
    /// `HALT`: the fiber stops, nothing is indexed.)
    #[inline(always)]
    pub(crate) fn verified_op(self) -> Op {
        debug_assert!(self.op().is_some(), "unverified opcode {:#04x}", self.op_byte());
        DECODE[self.0 as u8 as usize]
    }
    /// The opcode, or `None` for an unassigned byte.
    pub const fn op(self) -> Option<Op> {
        Op::from_u8(self.0 as u8)
    }
    /// The raw opcode byte.
    pub const fn op_byte(self) -> u8 {
        self.0 as u8
    }
    /// Field A.
    pub const fn a(self) -> u8 {
        (self.0 >> 8) as u8
    }
    /// Field B.
    pub const fn b(self) -> u8 {
        (self.0 >> 16) as u8
    }
    /// Field C.
    pub const fn c(self) -> u8 {
        (self.0 >> 24) as u8
    }
    /// Field Bx.
    pub const fn bx(self) -> u16 {
        (self.0 >> 16) as u16
    }
    /// Field sBx.
    pub const fn sbx(self) -> i32 {
        self.bx() as i32 - SBX_BIAS
    }
    /// Field Ax.
    pub const fn ax_field(self) -> u32 {
        self.0 >> 8
    }
    /// Field sJ.
    pub const fn sj_field(self) -> i32 {
        (self.0 as i32) >> 8
    }
}

impl fmt::Debug for Insn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Insn({:#010x})", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opcode_bytes_round_trip_and_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for &op in Op::ALL {
            assert_eq!(Op::from_u8(op as u8), Some(op));
            assert!(seen.insert(op as u8), "duplicate opcode byte for {op}");
        }
    }

    #[test]
    fn classes_sit_in_their_byte_ranges() {
        for &op in Op::ALL {
            let b = op as u8;
            assert!(op.info().class.byte_range().contains(&b), "{op}");
            let has_signature = matches!(op.info().format, Format::K | Format::R);
            assert_eq!(op.info().block.is_empty(), !has_signature, "{op}");
        }
    }

    #[test]
    fn mnemonics_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for &op in Op::ALL {
            assert!(seen.insert(op.mnemonic()), "duplicate mnemonic {op}");
        }
    }

    #[test]
    fn windows_hold_one_register_per_element() {
        for &op in Op::ALL {
            if op.info().format == Format::R {
                for arg in op.info().block {
                    assert!(matches!(arg, Arg::Num | Arg::UInt | Arg::Max(_) | Arg::Bool), "{op}: {arg:?}");
                }
            }
        }
    }

    #[test]
    fn slap_ops_are_register_windows() {
        for &op in Op::ALL {
            assert_eq!(op.info().class == OpClass::Slap, op.info().format == Format::R, "{op}");
        }
    }

    #[test]
    fn points_is_always_last() {
        for &op in Op::ALL {
            let block = op.info().block;
            if let Some(i) = block.iter().position(|a| *a == Arg::Points) {
                assert_eq!(i, block.len() - 1, "{op}");
            }
        }
    }

    /// Only Animator's machine charges work beyond the instruction: every
    /// other row is `Free`, and a row's indices name arguments of the kind
    /// its charge reads.
    #[test]
    fn work_columns_name_arguments_of_their_kind() {
        for &op in Op::ALL {
            let info = op.info();
            let whole = |i: u8| matches!(info.block.get(i as usize), Some(Arg::UInt | Arg::Max(_)));
            let ok = match info.work {
                Work::Free => true,
                Work::Text(i) | Work::Bytes(i) => info.block.get(i as usize) == Some(&Arg::Str),
                Work::Count(i) => whole(i),
                Work::Pixels(w, h) => whole(w) && whole(h),
                Work::Heavy => true,
                Work::Measured => info.block.first() == Some(&Arg::Str),
            };
            assert!(ok, "{op}: {:?} over {:?}", info.work, info.block);
            if info.class != OpClass::Animator {
                assert_eq!(info.work, Work::Free, "{op}");
            }
        }
    }

    /// The flags the verifier reads: sprite code may use the sprite ops and
    /// `NOP JMP WAIT HALT` only (the verifier's `op-class` rule); `RET HALT QUIT` end the code.
    #[test]
    fn flags_say_what_the_verifier_documents() {
        let flagged =
            |flag: Props| -> Vec<Op> { Op::ALL.iter().copied().filter(|op| op.info().props.contains(flag)).collect() };
        use Op::*;
        assert_eq!(flagged(Props::SPRITE_CODE), [Nop, Jmp, Halt, Wait, Sprite, Event, Enter]);
        assert_eq!(flagged(Props::ENDS), [Ret, Halt, Quit]);
        assert!(Props::PLAIN.contains(Props::PLAIN));
        assert!(!Props::PLAIN.contains(Props::ENDS));
    }

    /// The class patterns the table writes match their class's rows and
    /// no others.
    #[test]
    fn class_patterns_match_their_rows() {
        for &op in Op::ALL {
            let class = op.info().class;
            assert_eq!(matches!(op, generic_ops!()), class == OpClass::Generic, "{op}");
            assert_eq!(matches!(op, sprite_ops!()), class == OpClass::Sprite, "{op}");
            assert_eq!(matches!(op, animator_ops!()), class == OpClass::Animator, "{op}");
            assert_eq!(matches!(op, slap_ops!()), class == OpClass::Slap, "{op}");
        }
    }

    /// The hand-written generic sub-patterns match the rows they say.
    #[test]
    fn subclass_patterns_match_their_rows() {
        for &op in Op::ALL {
            let info = op.info();
            let register = info.class == OpClass::Generic && !info.props.contains(Props::SPRITE_CODE);
            assert_eq!(matches!(op, register_ops!()), register, "{op}");
            assert_eq!(matches!(op, register_non_ax_ops!()), register && info.format != Format::Ax, "{op}");
        }
    }

    /// An op comes with its command's row: the callback that writes the
    /// ISA reads a throw-away row `arc` (with no other section) as it reads
    /// the real table, and gives its op its byte and its row.
    #[allow(unused_macros)] // its class pattern, `animator_ops!`
    mod throw_away_row {
        use super::super::*;

        // The ISA's callback reads the `ops` column alone: the row's other
        // columns (see `reader::forms::tests::throw_away_row` in the
        // grammar crate) are left empty.
        animkit_commands::animator_commands!(isa_from_table;
            Arc "arc" {
                cmds: [],
                macro_body: 0,
                usage: "",
                forms: [],
                lower: [Arc],
                ops: [Arc = 0x65, "ARC", K, Count(5), PLAIN, &[Num, Num, Num, Num, Num, Max(MAX_CIRCLE_VERTICES)],
                    "host.arc(pen, M, x y r from to, n vertices)",
                    {canvas.arc(pen, matrix, num 0, num 1, num 2, num 3, num 4, uint 5)};]
            }
            @ {} {}
        );

        #[test]
        fn a_row_alone_gives_its_op_a_byte_and_a_row() {
            assert_eq!(
                Op::ALL.len(),
                super::super::Op::ALL.iter().filter(|op| op.info().class == OpClass::Animator).count() + 1
            );
            assert_eq!((Op::Quit as u8, Op::SetCursor as u8), (0x30, 0x64));
            assert_eq!(Op::from_u8(0x65), Some(Op::Arc));
            let arc = Op::Arc.info();
            assert_eq!(
                (arc.mnemonic, arc.format, arc.class, arc.work),
                ("ARC", Format::K, OpClass::Animator, Work::Count(5))
            );
            assert_eq!(arc.block, [Num, Num, Num, Num, Num, Max(MAX_CIRCLE_VERTICES)]);
            assert_eq!(Op::Arc.info().props, Props::PLAIN);
        }
    }

    #[test]
    fn field_extremes() {
        assert_eq!(Insn::sj(Op::Jmp, MIN_SJ).sj_field(), MIN_SJ);
        assert_eq!(Insn::sj(Op::Jmp, MAX_SJ).sj_field(), MAX_SJ);
        assert_eq!(Insn::ax(Op::Wait, MAX_AX).ax_field(), MAX_AX);
        assert_eq!(Insn::asbx(Op::LoadI, 0, -32767).sbx(), -32767);
        assert_eq!(Insn::asbx(Op::LoadI, 0, 32768).sbx(), 32768);
    }
}
