//! Code of Animator and SLAP modules: a token of one byte (or a few) per
//! instruction or per SLAP command whose operands are implied, else `0xff`
//! and the word (see the module docs of [`super`]).
//!
//! The tokens, each starting with an opcode byte:
//!
//! | token | stands for |
//! | --- | --- |
//! | an op without operands (`Format::None`) | the op |
//! | an op with a constant block (`Format::K`) | the op, its block starting at the *cursor* |
//! | a SLAP register-window op (`Format::R`) | a *command*: the cursor's next `len` constants loaded into `R0`..`R[len-1]`, then `op R0` |
//! | `LOADK` then a byte `a` | the cursor's next constant loaded into `R[a]` |
//! | `WAIT` then a LEB128 `d` | `WAIT d` |
//! | `MOVE`, `NEG` then `a b`; `ADD` .. `DIV` then `a b c` | the op with those registers |
//! | `0xff` then 4 bytes | that word, raw |
//!
//! The cursor starts at constant 0 and moves past each constant a token
//! reads (a block, a load, a command's loads). A *load* of constant `k`
//! into `R[a]` is what the SLAP lowering writes: `LOADK a k` for `k` up to
//! 65 535, `LOADKX a` and `EXTRAARG k` beyond. So a folded SLAP command
//! (`actor 1 position 2 0`: three `LOADK`s and `POSITION2 R0`, constants
//! taken in order) is one byte, and unfolded arithmetic is two to four
//! bytes an instruction. Animator code has no register ops and its blocks
//! tile the constants in order, so it needs none of these tokens: a
//! command token alone encodes it.

use super::leb::{read_leb, write_leb};
use crate::isa::{Format, Insn, MAX_AX, Op};
use crate::program::ConstKind;

/// The escape byte of register code: a raw instruction word follows.
const RAW_WORD: u8 = 0xff;

/// The longest register window of any op (a command token's loads);
/// not `limits::MAX_WINDOW`, the largest `resize` of a canvas.
const MAX_OP_WINDOW: usize = {
    let mut max = 0;
    let mut i = 0;
    while i < Op::ALL.len() {
        let info = Op::ALL[i].info();
        if matches!(info.format, Format::R) && info.block.len() > max {
            max = info.block.len();
        }
        i += 1;
    }
    max
};

/// The length of the constant block op `op` reads at `at` of the `count`
/// constants `value(i)`, if it lies inside them and its point count (if
/// any) is a whole number.
fn block_len(op: Op, count: usize, value: impl Fn(usize) -> f64, at: usize) -> Option<usize> {
    let mut len = 0usize;
    for arg in op.info().block {
        len += match arg {
            crate::isa::Arg::Points => {
                if at + len >= count {
                    return None;
                }
                let n = value(at + len);
                if !(n >= 0.0 && n.fract() == 0.0 && n <= (count / 2) as f64) {
                    return None;
                }
                1 + 2 * n as usize
            }
            _ => 1,
        };
    }
    (at + len <= count).then_some(len)
}

/// The load of constant `k` into `R[a]`: `LOADK`, or `LOADKX` and its
/// `EXTRAARG` beyond 65 535; `None` past what `EXTRAARG` can address.
fn load(a: u8, k: usize) -> Option<(Insn, Option<Insn>)> {
    match u16::try_from(k) {
        Ok(k) => Some((Insn::abx(Op::LoadK, a, k), None)),
        Err(_) if k <= MAX_AX as usize => {
            Some((Insn::abc(Op::LoadKX, a, 0, 0), Some(Insn::ax(Op::ExtraArg, k as u32))))
        }
        Err(_) => None,
    }
}

/// How many words the load of constant `k` into `R[a]` takes at `code[i..]`,
/// if that is what stands there and `k` is one of the `count` constants.
fn load_at(code: &[Insn], i: usize, a: u8, k: usize, count: usize) -> Option<usize> {
    if k >= count {
        return None;
    }
    match load(a, k)? {
        (w, None) => (code.get(i) == Some(&w)).then_some(1),
        (w, Some(x)) => (code.get(i) == Some(&w) && code.get(i + 1) == Some(&x)).then_some(2),
    }
}

/// A command at `code[i..]`: loads of constants `k`, `k + 1`, ... into
/// `R0`, `R1`, ..., then a register-window op at `R0` with that many
/// registers. Its op and the words it takes.
fn command_at(code: &[Insn], i: usize, k: usize, count: usize) -> Option<(Op, usize)> {
    let (mut j, mut len) = (i, 0);
    while len < MAX_OP_WINDOW {
        match load_at(code, j, len as u8, k + len, count) {
            Some(n) => {
                j += n;
                len += 1;
            }
            None => break,
        }
    }
    let w = *code.get(j)?;
    let op = w.op()?;
    (len > 0 && op.info().format == Format::R && op.info().block.len() == len && w == Insn::r(op, 0))
        .then_some((op, j + 1 - i))
}

/// Register code (Animator, SLAP): see the module docs.
pub(super) fn encode_register_code(code: &[Insn], consts: &[f64]) -> Vec<u8> {
    let mut out = Vec::with_capacity(code.len() + 8);
    let mut cursor = 0usize;
    let mut i = 0;
    while let Some(&w) = code.get(i) {
        if let Some((op, words)) = command_at(code, i, cursor, consts.len()) {
            out.push(op as u8);
            cursor += op.info().block.len();
            i += words;
            continue;
        }
        if let Some(words) = load_at(code, i, w.a(), cursor, consts.len()) {
            out.extend_from_slice(&[Op::LoadK as u8, w.a()]);
            cursor += 1;
            i += words;
            continue;
        }
        i += 1;
        if let Some(op) = w.op().filter(|&op| op as u8 != RAW_WORD) {
            match op.info().format {
                Format::K if w.ax_field() as usize == cursor => {
                    if let Some(len) = block_len(op, consts.len(), |i| consts[i], cursor) {
                        out.push(op as u8);
                        cursor += len;
                        continue;
                    }
                }
                Format::None if w.0 == op as u32 => {
                    out.push(op as u8);
                    continue;
                }
                Format::Ax if op == Op::Wait => {
                    out.push(op as u8);
                    write_leb(&mut out, w.ax_field() as u64);
                    continue;
                }
                Format::AB if w.c() == 0 => {
                    out.extend_from_slice(&[op as u8, w.a(), w.b()]);
                    continue;
                }
                Format::ABC => {
                    out.extend_from_slice(&[op as u8, w.a(), w.b(), w.c()]);
                    continue;
                }
                _ => {}
            }
        }
        out.push(RAW_WORD);
        out.extend_from_slice(&w.0.to_le_bytes());
    }
    out
}

/// The load of constant `*cursor` (of `count`) into `R[a]`, for the token
/// at byte `at`; moves the cursor.
fn next_load(out: &mut Vec<Insn>, cursor: &mut usize, count: usize, a: u8, at: usize) -> Result<(), String> {
    if *cursor >= count {
        return Err(format!("byte {at}: a load past the {count} constants"));
    }
    let (w, x) = load(a, *cursor).ok_or_else(|| format!("byte {at}: constant index above {MAX_AX}"))?;
    out.push(w);
    out.extend(x);
    *cursor += 1;
    Ok(())
}

/// Reads what [`encode_register_code`] wrote.
pub(super) fn decode_register_code(bytes: &[u8], consts: &[(f64, ConstKind)]) -> Result<Vec<Insn>, String> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut cursor = 0usize;
    let mut i = 0;
    let operand = |i: usize| bytes.get(i).copied().ok_or_else(|| format!("byte {i}: truncated operands"));
    while let Some(&b) = bytes.get(i) {
        let at = i;
        i += 1;
        if b == RAW_WORD {
            let w = bytes.get(i..i + 4).ok_or("truncated instruction word")?;
            out.push(Insn(u32::from_le_bytes([w[0], w[1], w[2], w[3]])));
            i += 4;
            continue;
        }
        let op = Op::from_u8(b).ok_or_else(|| format!("byte {at}: unknown opcode {b:#04x}"))?;
        match op.info().format {
            Format::None => out.push(Insn(op as u32)),
            Format::K => {
                let len = block_len(op, consts.len(), |i| consts[i].0, cursor)
                    .ok_or_else(|| format!("byte {at}: {op}'s constant block does not fit"))?;
                if cursor > MAX_AX as usize {
                    return Err(format!("byte {at}: constant index above {MAX_AX}"));
                }
                out.push(Insn::ax(op, cursor as u32));
                cursor += len;
            }
            Format::R => {
                for r in 0..op.info().block.len() {
                    next_load(&mut out, &mut cursor, consts.len(), r as u8, at)?;
                }
                out.push(Insn::r(op, 0));
            }
            Format::ABx if op == Op::LoadK => {
                let a = operand(i)?;
                i += 1;
                next_load(&mut out, &mut cursor, consts.len(), a, at)?;
            }
            Format::Ax if op == Op::Wait => {
                let d = read_leb(bytes, &mut i).ok_or_else(|| format!("byte {at}: truncated WAIT"))?;
                if d > MAX_AX as u64 {
                    return Err(format!("byte {at}: WAIT {d} does not fit in 24 bits"));
                }
                out.push(Insn::ax(op, d as u32));
            }
            Format::AB => {
                let (a, b) = (operand(i)?, operand(i + 1)?);
                i += 2;
                out.push(Insn::abc(op, a, b, 0));
            }
            Format::ABC => {
                let (a, b, c) = (operand(i)?, operand(i + 1)?, operand(i + 2)?);
                i += 3;
                out.push(Insn::abc(op, a, b, c));
            }
            _ => return Err(format!("byte {at}: {op} needs its operands written out")),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn kinded(consts: &[f64]) -> Vec<(f64, ConstKind)> {
        consts.iter().map(|&v| (v, ConstKind::Num)).collect()
    }

    #[test]
    fn register_code_is_a_byte_per_instruction() {
        let consts = [0.0, 0.0, 1.0, 1.0, 2.0, 1.0, 2.0, 3.0, 4.0];
        let code = vec![
            Insn::ax(Op::Frame, 0),
            Insn::ax(Op::Line, 0),
            Insn::ax(Op::Lines, 4),
            Insn::ax(Op::Flush, 0),
            Insn::ax(Op::Line, 0),
            Insn::ax(Op::Wait, 3),
            Insn::ax(Op::Halt, 0),
        ];
        let bytes = encode_register_code(&code, &consts);
        // The second LINE is not at the cursor: raw; WAIT 3 is two bytes.
        assert_eq!(bytes.len(), 4 + 5 + 2 + 1, "{bytes:?}");
        assert_eq!(decode_register_code(&bytes, &kinded(&consts)).unwrap(), code);
        // A block that does not fit is an error, not a panic.
        assert!(decode_register_code(&[Op::Line as u8, Op::Line as u8, Op::Line as u8], &kinded(&consts)).is_err());
    }

    #[test]
    fn a_folded_slap_command_is_one_byte() {
        // actor 1 position 2 0; actor 1 size .9; WAIT 500; actor 1 action 2; HALT
        let consts = [1.0, 2.0, 0.0, 1.0, 0.9, 1.0, 2.0];
        let l = |a, k| Insn::abx(Op::LoadK, a, k);
        let code = vec![
            l(0, 0),
            l(1, 1),
            l(2, 2),
            Insn::r(Op::Position2, 0),
            l(0, 3),
            l(1, 4),
            Insn::r(Op::Size, 0),
            Insn::ax(Op::Wait, 500),
            l(0, 5),
            l(1, 6),
            Insn::r(Op::Action, 0),
            Insn::ax(Op::Halt, 0),
        ];
        let bytes = encode_register_code(&code, &consts);
        assert_eq!(
            bytes,
            [Op::Position2 as u8, Op::Size as u8, Op::Wait as u8, 0xf4, 0x03, Op::Action as u8, Op::Halt as u8]
        );
        assert_eq!(decode_register_code(&bytes, &kinded(&consts)).unwrap(), code);
    }

    #[test]
    fn unfolded_arithmetic_is_a_few_bytes_an_instruction() {
        // actor 1 size (2+3)*-4: loads and arithmetic, then the window op.
        let consts = [1.0, 2.0, 3.0, 4.0];
        let code = vec![
            Insn::abx(Op::LoadK, 0, 0),
            Insn::abx(Op::LoadK, 1, 1),
            Insn::abx(Op::LoadK, 2, 2),
            Insn::abc(Op::Add, 1, 1, 2),
            Insn::abx(Op::LoadK, 2, 3),
            Insn::abc(Op::Neg, 2, 2, 0),
            Insn::abc(Op::Mul, 1, 1, 2),
            Insn::r(Op::Size, 0),
            Insn::ax(Op::Halt, 0),
        ];
        let bytes = encode_register_code(&code, &consts);
        assert_eq!(bytes.len(), 4 * 2 + 4 + 3 + 4 + 5 + 1, "{bytes:?}");
        assert_eq!(decode_register_code(&bytes, &kinded(&consts)).unwrap(), code);
    }

    #[test]
    fn loads_beyond_65535_are_loadkx_and_extraarg() {
        let consts: Vec<f64> = (0..65_539).map(|i| i as f64).collect();
        let mut code: Vec<Insn> = (0..65_535u32).map(|k| Insn::abx(Op::LoadK, 0, k as u16)).collect();
        // Constant 65 535 by LOADK, then 65 536 and 65 537 by LOADKX: one command.
        code.push(Insn::abx(Op::LoadK, 0, 65_535));
        code.push(Insn::abc(Op::LoadKX, 1, 0, 0));
        code.push(Insn::ax(Op::ExtraArg, 65_536));
        code.push(Insn::abc(Op::LoadKX, 2, 0, 0));
        code.push(Insn::ax(Op::ExtraArg, 65_537));
        code.push(Insn::r(Op::Position2, 0));
        // A lone load beyond 65 535.
        code.push(Insn::abc(Op::LoadKX, 3, 0, 0));
        code.push(Insn::ax(Op::ExtraArg, 65_538));
        let bytes = encode_register_code(&code, &consts);
        assert_eq!(bytes.len(), 65_535 * 2 + 1 + 2);
        assert_eq!(&bytes[bytes.len() - 3..], [Op::Position2 as u8, Op::LoadK as u8, 3]);
        assert_eq!(decode_register_code(&bytes, &kinded(&consts)).unwrap(), code);
    }

    #[test]
    fn what_is_not_canonical_is_written_raw() {
        let consts = [1.0, 2.0];
        for code in [
            // Constants out of order, a window not at R0, a LOADKX for a
            // small index, a load past the pool, a WAIT's stray bits.
            vec![Insn::abx(Op::LoadK, 0, 1), Insn::abx(Op::LoadK, 1, 0), Insn::r(Op::Size, 0)],
            vec![Insn::abx(Op::LoadK, 1, 0), Insn::abx(Op::LoadK, 2, 1), Insn::r(Op::Size, 1)],
            vec![Insn::abc(Op::LoadKX, 0, 0, 0), Insn::ax(Op::ExtraArg, 0)],
            vec![Insn::abx(Op::LoadK, 0, 0), Insn::abx(Op::LoadK, 0, 1), Insn::abx(Op::LoadK, 0, 2)],
            vec![Insn(Op::Neg as u32 | 7 << 24), Insn(Op::Halt as u32 | 1 << 8)],
        ] {
            let bytes = encode_register_code(&code, &consts);
            assert_eq!(decode_register_code(&bytes, &kinded(&consts)).unwrap(), code, "{code:?}");
        }
        // Only the first command of constants in order is one byte.
        let code = [Insn::abx(Op::LoadK, 0, 0), Insn::abx(Op::LoadK, 1, 1), Insn::r(Op::Size, 0)];
        assert_eq!(encode_register_code(&code, &consts), [Op::Size as u8]);
        assert_eq!(encode_register_code(&code, &consts[..1]), [2, 0, 0xff, 2, 1, 1, 0, 0xff, Op::Size as u8, 0, 0, 0]);
    }

    #[test]
    fn bad_tokens_are_errors() {
        let consts = kinded(&[1.0]);
        // A command past the constants, a load without its register, a WAIT
        // without (or beyond) its operand, a short ADD, a CALL token.
        for bytes in [
            &[Op::Size as u8][..],
            &[Op::LoadK as u8],
            &[Op::Wait as u8],
            &[Op::Wait as u8, 0x80, 0x80, 0x80, 0x08],
            &[Op::Add as u8, 1, 2],
            &[Op::Call as u8],
        ] {
            assert!(decode_register_code(bytes, &consts).is_err(), "{bytes:?}");
        }
    }

    fn any_insn() -> impl Strategy<Value = Insn> {
        let l = |a: u8, k: u16| Insn::abx(Op::LoadK, a, k);
        prop_oneof![
            any::<u32>().prop_map(Insn),
            (0u8..5, 0u16..12).prop_map(move |(a, k)| l(a, k)),
            (0u8..5).prop_map(|a| Insn::abc(Op::LoadKX, a, 0, 0)),
            (0u32..12).prop_map(|k| Insn::ax(Op::ExtraArg, k)),
            prop::sample::select(Op::ALL.to_vec()).prop_map(|op| Insn::r(op, 0)),
            prop::sample::select(vec![Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Neg, Op::Move]).prop_flat_map(|op| (
                0u8..8,
                0u8..8,
                0u8..8
            )
                .prop_map(move |(a, b, c)| Insn::abc(op, a, b, c))),
            (0u32..=MAX_AX).prop_map(|d| Insn::ax(Op::Wait, d)),
            Just(Insn::ax(Op::Halt, 0)),
        ]
    }

    /// Code shaped like the SLAP lowering's: commands of in-order loads.
    fn commands() -> impl Strategy<Value = (Vec<Insn>, usize)> {
        let ops = vec![
            Op::Action,
            Op::Direction,
            Op::Position2,
            Op::Position3,
            Op::ActorColor,
            Op::Size,
            Op::CamPos,
            Op::CamDir,
            Op::CamAngles,
            Op::CamLookAt,
            Op::CamFollow,
            Op::CamMove,
        ];
        prop::collection::vec((prop::sample::select(ops), 0u32..3), 0..40).prop_map(|cmds| {
            let mut code = Vec::new();
            let mut k = 0u16;
            for (op, wait) in cmds {
                for r in 0..op.info().block.len() {
                    code.push(Insn::abx(Op::LoadK, r as u8, k));
                    k += 1;
                }
                code.push(Insn::r(op, 0));
                if wait > 0 {
                    code.push(Insn::ax(Op::Wait, wait));
                }
            }
            code.push(Insn::ax(Op::Halt, 0));
            (code, k as usize)
        })
    }

    proptest! {
        #[test]
        fn any_code_round_trips(code in prop::collection::vec(any_insn(), 0..60), n in 0usize..12) {
            let consts: Vec<f64> = (0..n).map(|i| i as f64 * 0.5).collect();
            let bytes = encode_register_code(&code, &consts);
            prop_assert_eq!(decode_register_code(&bytes, &kinded(&consts)).unwrap(), code);
        }

        #[test]
        fn folded_commands_are_one_byte_each((code, n) in commands()) {
            let consts: Vec<f64> = (0..n).map(|i| i as f64).collect();
            let bytes = encode_register_code(&code, &consts);
            let commands = code.iter().filter(|w| w.op().is_some_and(|o| o.info().format == Format::R)).count();
            let waits = code.iter().filter(|w| w.op() == Some(Op::Wait)).count();
            prop_assert_eq!(bytes.len(), commands + 2 * waits + 1);
            prop_assert_eq!(decode_register_code(&bytes, &kinded(&consts)).unwrap(), code);
        }
    }
}
