//! Code of Animator and SLAP modules: one byte per instruction when its
//! operands are implied (see the module docs of [`super`]), else `0xff`
//! and the word.

use crate::isa::{Insn, MAX_AX, Op};
use crate::program::ConstKind;

/// The escape byte of register code: a raw instruction word follows.
const RAW_WORD: u8 = 0xff;

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

/// Register code (Animator, SLAP): see the module docs.
pub(super) fn encode_register_code(code: &[Insn], consts: &[f64]) -> Vec<u8> {
    let mut out = Vec::with_capacity(code.len() + 8);
    let mut cursor = 0usize;
    for &w in code {
        if let Some(op) = w.op().filter(|&op| op as u8 != RAW_WORD) {
            match op.info().format {
                crate::isa::Format::K if w.ax_field() as usize == cursor => {
                    if let Some(len) = block_len(op, consts.len(), |i| consts[i], cursor) {
                        out.push(op as u8);
                        cursor += len;
                        continue;
                    }
                }
                crate::isa::Format::None if w.0 == op as u32 => {
                    out.push(op as u8);
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

/// Reads what [`encode_register_code`] wrote.
pub(super) fn decode_register_code(bytes: &[u8], consts: &[(f64, ConstKind)]) -> Result<Vec<Insn>, String> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut cursor = 0usize;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        i += 1;
        if b == RAW_WORD {
            let w = bytes.get(i..i + 4).ok_or("truncated instruction word")?;
            out.push(Insn(u32::from_le_bytes([w[0], w[1], w[2], w[3]])));
            i += 4;
            continue;
        }
        let op = Op::from_u8(b).ok_or_else(|| format!("byte {}: unknown opcode {b:#04x}", i - 1))?;
        match op.info().format {
            crate::isa::Format::None => out.push(Insn(op as u32)),
            crate::isa::Format::K => {
                let len = block_len(op, consts.len(), |i| consts[i].0, cursor)
                    .ok_or_else(|| format!("byte {}: {op}'s constant block does not fit", i - 1))?;
                if cursor > MAX_AX as usize {
                    return Err(format!("byte {}: constant index above {MAX_AX}", i - 1));
                }
                out.push(Insn::ax(op, cursor as u32));
                cursor += len;
            }
            _ => return Err(format!("byte {}: {op} needs its operands written out", i - 1)),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(bytes.len(), 5 + 2 * 5, "{bytes:?}");
        let kinded: Vec<(f64, ConstKind)> = consts.iter().map(|&v| (v, ConstKind::Num)).collect();
        assert_eq!(decode_register_code(&bytes, &kinded).unwrap(), code);
        // A block that does not fit is an error, not a panic.
        assert!(decode_register_code(&[Op::Line as u8, Op::Line as u8, Op::Line as u8], &kinded).is_err());
    }
}
