//! Debug lines of Animator and SLAP code: a script puts one command on
//! each line, so runs of "next instruction, next line" cost one LEB128
//! (see the module docs of [`super`]).

use super::leb::{read_leb, unzigzag, write_leb, zigzag};
use crate::program::LineEntry;

/// Debug lines of register code of `code_len` instructions (see the module
/// docs). Only entries inside the code are written as runs or steps, so a
/// few bytes never stand for more entries than the code has instructions.
pub(super) fn encode_lines(lines: &[LineEntry], code_len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(lines.len() / 4 + 4);
    let mut prev = (0i64, 0i64, 0i64);
    let mut run = 0u64;
    for e in lines {
        let (pc, line, col) = (e.pc as i64, e.line as i64, e.col as i64);
        let (dpc, dline) = (pc - prev.0, line - prev.1);
        let inside = (e.pc as usize) < code_len;
        if inside && col == prev.2 && dpc == 1 && dline == 1 {
            run += 1;
        } else {
            if run > 0 {
                write_leb(&mut out, (run - 1) << 2);
                run = 0;
            }
            if inside && col == prev.2 && dpc == 1 && dline >= 2 {
                write_leb(&mut out, ((dline - 2) as u64) << 2 | LINES_DOWN);
            } else if inside && col == prev.2 && dline == 1 && dpc >= 2 {
                write_leb(&mut out, ((dpc - 2) as u64) << 2 | LINES_PC_ON);
            } else {
                out.push(LINES_EXPLICIT as u8);
                write_pos(&mut out, e, prev);
            }
        }
        prev = (pc, line, col);
    }
    if run > 0 {
        write_leb(&mut out, (run - 1) << 2);
    }
    out
}

/// Debug line tokens of register code (the low two bits of a LEB128; `00`
/// is a run of next-instruction, next-line entries).
const LINES_DOWN: u64 = 0b01;
const LINES_PC_ON: u64 = 0b10;
const LINES_EXPLICIT: u64 = 0b11;

/// Reads what [`encode_lines`] wrote for code of `code_len` instructions.
pub(super) fn decode_lines(bytes: &[u8], code_len: usize) -> Result<Vec<LineEntry>, String> {
    let mut out = Vec::with_capacity(bytes.len() + 1);
    let (mut i, mut prev) = (0usize, (0i64, 0i64, 0i64));
    while i < bytes.len() {
        let v = read_leb(bytes, &mut i).ok_or("truncated entry")?;
        let (pc, line, col) = prev;
        let (n, dpc, dline) = match v & 3 {
            0 => ((v >> 2).checked_add(1).ok_or("run too long")?, 1, 1),
            LINES_DOWN => (1, 1, (v >> 2) as i64 + 2),
            LINES_PC_ON => (1, (v >> 2) as i64 + 2, 1),
            _ => {
                if v != LINES_EXPLICIT {
                    return Err("bad entry token".into());
                }
                let e = read_pos(bytes, &mut i, prev)?;
                prev = (e.pc as i64, e.line as i64, e.col as i64);
                out.push(e);
                continue;
            }
        };
        // Steps stay inside the code, so `n` is bounded by its length.
        if n.saturating_mul(dpc as u64).saturating_add(pc as u64) >= code_len as u64 {
            return Err("positions past the end of the code".into());
        }
        let (mut pc, mut line) = (pc, line);
        for _ in 0..n {
            pc += dpc;
            line = line.checked_add(dline).filter(|l| (0..=u32::MAX as i64).contains(l)).ok_or("line out of range")?;
            if !(1..=u32::MAX as i64).contains(&col) || line < 1 {
                return Err("line or column out of range".into());
            }
            out.push(LineEntry { pc: pc as u32, line: line as u32, col: col as u32 });
        }
        prev = (pc, line, col);
    }
    Ok(out)
}

/// Writes one debug position relative to the previous one, as
/// [`encode_lines`] does: the pc delta (zigzag), then either
/// `zigzag(column delta) << 1` on the same line, or `zigzag(line delta) << 1
/// | 1` followed by the column: two bytes for a frame on the line of the
/// previous one.
fn write_pos(out: &mut Vec<u8>, e: &LineEntry, prev: (i64, i64, i64)) {
    write_leb(out, zigzag(e.pc as i64 - prev.0));
    write_line_col(out, e, prev);
}

pub(super) fn write_line_col(out: &mut Vec<u8>, e: &LineEntry, prev: (i64, i64, i64)) {
    let (_, line, col) = prev;
    if e.line as i64 == line {
        write_leb(out, zigzag(e.col as i64 - col) << 1);
    } else {
        write_leb(out, (zigzag(e.line as i64 - line) << 1) | 1);
        write_leb(out, e.col as u64);
    }
}

/// Reads what [`write_pos`] wrote.
fn read_pos(bytes: &[u8], i: &mut usize, prev: (i64, i64, i64)) -> Result<LineEntry, String> {
    let dpc = read_leb(bytes, i).ok_or("truncated entry")?;
    read_line_col(bytes, i, prev, dpc)
}

/// The rest of a position after its zigzag pc delta `dpc`.
pub(super) fn read_line_col(bytes: &[u8], i: &mut usize, prev: (i64, i64, i64), dpc: u64) -> Result<LineEntry, String> {
    let (pc, mut line, mut col) = prev;
    let pos = read_leb(bytes, i).ok_or("truncated entry")?;
    let pc = pc.checked_add(unzigzag(dpc)).filter(|p| (0..=u32::MAX as i64).contains(p)).ok_or("pc out of range")?;
    if pos & 1 == 0 {
        col = col.checked_add(unzigzag(pos >> 1)).ok_or("column overflow")?;
    } else {
        line = line.checked_add(unzigzag(pos >> 1)).ok_or("line overflow")?;
        col = read_leb(bytes, i).ok_or("truncated entry")?.min(u32::MAX as u64 + 1) as i64;
    }
    let range = 1..=u32::MAX as i64;
    if !range.contains(&line) || !range.contains(&col) {
        return Err("line or column out of range".into());
    }
    Ok(LineEntry { pc: pc as u32, line: line as u32, col: col as u32 })
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #[test]
        fn any_lines_round_trip(raw in proptest::collection::vec((proptest::prelude::any::<u32>(), 1u32.., 1u32..), 0..20)) {
            let lines: Vec<LineEntry> = raw.iter().map(|&(pc, line, col)| LineEntry { pc, line, col }).collect();
            for code_len in [0, 40, 1 << 20] {
                proptest::prop_assert_eq!(&decode_lines(&encode_lines(&lines, code_len), code_len).unwrap(), &lines);
            }
        }
    }

    #[test]
    fn lines_round_trip() {
        let lines = vec![
            LineEntry { pc: 0, line: 3, col: 1 },
            LineEntry { pc: 4, line: 2, col: 9 },
            LineEntry { pc: 9, line: 700, col: 1 },
        ];
        assert_eq!(decode_lines(&encode_lines(&lines, 10), 10).unwrap(), lines);
    }

    #[test]
    fn script_lines_cost_a_byte_per_run() {
        // One command a line from line 3, a blank line, then an `invoke X Y`
        // of four instructions.
        let mut lines: Vec<LineEntry> = (0..100).map(|k| LineEntry { pc: k, line: 3 + k, col: 1 }).collect();
        lines.push(LineEntry { pc: 100, line: 104, col: 1 });
        lines.push(LineEntry { pc: 104, line: 105, col: 1 });
        lines.push(LineEntry { pc: 105, line: 106, col: 1 });
        let bytes = encode_lines(&lines, 106);
        // The first entry written out (4), the run of 99 (2), two lines
        // down (1), four instructions on (1), a run of one (1).
        assert_eq!(bytes.len(), 4 + 2 + 1 + 1 + 1, "{bytes:?}");
        assert_eq!(decode_lines(&bytes, 106).unwrap(), lines);
        // Runs may not reach past the code.
        assert!(decode_lines(&bytes, 105).is_err());
    }
}
