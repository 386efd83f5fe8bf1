//! Debug lines of sprite code: two bits per entry saying which predicted
//! position it is (the next frame's text, a `_pingpong` walking back, the
//! next state's first frame), the rest written out (see the module docs of
//! [`super`]).

use super::leb::{read_leb, write_leb, zigzag};
use super::lines::{read_line_col, write_line_col};
use super::sprite_code::{GROUP_EVENTS, entry_pcs, entry_pcs_into, is_op, next_group};
use crate::isa::{Insn, Op};
use crate::program::{LineEntry, State};

/// A written-out sprite debug position: like `write_pos` in `lines.rs`, with the pc
/// delta shifted over a set flag bit (a clear bit is a state start).
fn write_escape(out: &mut Vec<u8>, e: &LineEntry, prev: (i64, i64, i64)) {
    write_leb(out, (zigzag(e.pc as i64 - prev.0) << 1) | 1);
    write_line_col(out, e, prev);
}

/// Reads what [`write_escape`] wrote.
fn read_escape(bytes: &[u8], i: &mut usize, prev: (i64, i64, i64)) -> Result<LineEntry, String> {
    let v = read_leb(bytes, i).ok_or("truncated entry")?;
    read_line_col(bytes, i, prev, v >> 1)
}

/// Where the first frame of the state after `prev`'s group would be:
/// `Name[Category]: ` then the frame, on `prev`'s line (to be moved down).
fn state_start(
    prev: &LineEntry,
    code: &[Insn],
    by_entry: &[(u32, usize)],
    states: &[State],
    widths: &[u32],
) -> Option<LineEntry> {
    let pc = u32::try_from(next_group(code, prev.pc as usize)).ok()?;
    let k = by_entry.partition_point(|&(e, _)| e < pc);
    let st = by_entry.get(k).filter(|&&(e, _)| e == pc).and_then(|&(_, i)| states.get(i))?;
    let chars = |id: u32| widths.get(id as usize).copied().unwrap_or(0);
    let mut col = (1 + chars(st.name)).saturating_add(2);
    if st.category != st.name {
        col = col.saturating_add(2 + chars(st.category));
    }
    Some(LineEntry { pc, line: prev.line, col })
}

/// `(entry, state index)` sorted: the first state entering at a pc is
/// found by binary search (a hostile bundle may have a million states).
fn states_by_entry(states: &[State]) -> Vec<(u32, usize)> {
    let mut v = Vec::new();
    states_by_entry_into(states, &mut v);
    v
}

/// [`states_by_entry`] into a reused buffer.
fn states_by_entry_into(states: &[State], v: &mut Vec<(u32, usize)>) {
    v.clear();
    v.extend(states.iter().enumerate().map(|(i, s)| (s.entry, i)));
    v.sort_unstable();
}

/// The tables [`decode_sprite_lines_with`] rebuilds for every module,
/// kept between modules so that decoding allocates once per module (the
/// positions themselves), not once per table.
#[derive(Default)]
pub(super) struct LineScratch {
    entries: Vec<u32>,
    by_entry: Vec<(u32, usize)>,
}

/// How far back [`predict_pos`] looks for the frame a `_pingpong` revisits.
const MIRROR_WINDOW: usize = 256;

/// Decimal digits of `v` (a wait or a sprite index, nearly always under
/// 1000: compared, not divided).
#[inline]
fn digits(v: u32) -> u32 {
    if v < 10 {
        1
    } else if v < 100 {
        2
    } else if v < 1000 {
        3
    } else {
        v.checked_ilog10().map_or(1, |d| d + 1)
    }
}

/// Where the next debug position of sprite code probably is, given the
/// previous one: the compiler gives every frame the position of its text,
/// so the next frame starts after `D[|I][|event...], ` on the same line
/// (candidates 0 and 1, without and with an explicit sprite index), and the
/// reverse pass of a `_pingpong` revisits the forward frames backwards
/// (candidate 2).
fn predict_pos(prev: &LineEntry, seen: &[LineEntry], code: &[Insn], widths: &[u32], which: u8) -> Option<LineEntry> {
    Prediction::new(prev, code, widths)?.candidate(prev, seen, which)
}

/// What [`predict_pos`] works out once per previous entry.
struct Prediction {
    /// Where the next group starts.
    pc: u32,
    /// Columns of `D|events, ` when the group is a frame.
    plain: Option<u32>,
    /// The sprite it sets, if any.
    sprite: Option<u32>,
}

impl Prediction {
    #[inline]
    fn new(prev: &LineEntry, code: &[Insn], widths: &[u32]) -> Option<Prediction> {
        let n = code.len();
        let start = prev.pc as usize;
        let mut q = start;
        let mut sprite = None;
        let mut wait = None;
        let mut text = 0u32;
        if q < n && is_op(code[q], Op::Sprite) {
            sprite = Some(code[q].ax_field());
            q += 1;
        }
        let events_end = q.saturating_add(GROUP_EVENTS);
        while q < n && q < events_end && is_op(code[q], Op::Event) {
            text = text.saturating_add(1 + widths.get(code[q].ax_field() as usize).copied().unwrap_or(0));
            q += 1;
        }
        if q < n && is_op(code[q], Op::Wait) {
            wait = Some(code[q].ax_field());
            q += 1;
        }
        let frame = q > start;
        let pc = u32::try_from(if frame { q } else { start + 1 }).ok()?;
        let plain = frame.then(|| text.saturating_add(wait.map_or(1, digits) + 2));
        Some(Prediction { pc, plain, sprite })
    }

    #[inline]
    fn candidate(&self, prev: &LineEntry, seen: &[LineEntry], which: u8) -> Option<LineEntry> {
        let pc = self.pc;
        let col = match which {
            0 => prev.col.checked_add(self.plain?)?,
            1 => prev.col.checked_add(self.plain?.saturating_add(1 + digits(self.sprite?)))?,
            _ => {
                // Bounded, so that a state of a million frames stays linear.
                let from = seen.len().saturating_sub(MIRROR_WINDOW);
                let k = seen[from..].iter().position(|p| (p.line, p.col) == (prev.line, prev.col))? + from;
                if k == from {
                    return None;
                }
                return Some(LineEntry { pc, line: seen[k - 1].line, col: seen[k - 1].col });
            }
        };
        Some(LineEntry { pc, line: prev.line, col })
    }
}

/// Columns taken by each string (names are written in the source as they
/// are stored), for [`predict_pos`] and [`state_start`].
pub(super) fn widths(strings: &[String]) -> Vec<u32> {
    strings.iter().map(|s| if s.is_ascii() { s.len() as u32 } else { s.chars().count() as u32 }).collect()
}

/// Debug positions of sprite code: the entry count, then two bits per
/// entry (which [`predict_pos`] candidate it is, or 3: written out), four
/// to a byte, then the written-out entries as `write_pos` (in `lines.rs`) writes them.
/// A state's frames on one line cost two bits each.
pub(super) fn encode_sprite_lines(lines: &[LineEntry], code: &[Insn], states: &[State], strings: &[u32]) -> Vec<u8> {
    if lines.is_empty() {
        return Vec::new();
    }
    let entries = entry_pcs(states);
    let by_entry = states_by_entry(states);
    let mut out = Vec::with_capacity(2 + lines.len() / 2);
    write_leb(&mut out, lines.len() as u64);
    let at = out.len();
    out.resize(at + lines.len().div_ceil(4), 0);
    // The positions since the last state start: `lines[seen..k]`.
    let mut seen = 0usize;
    let mut prev: Option<LineEntry> = None;
    for (k, e) in lines.iter().enumerate() {
        let c = prev
            .as_ref()
            .and_then(|p| {
                let pr = Prediction::new(p, code, strings)?;
                (0..3u8).find(|&w| pr.candidate(p, &lines[seen..k], w).as_ref() == Some(e))
            })
            .unwrap_or(3);
        out[at + k / 4] |= c << (2 * (k % 4));
        if c == 3 {
            match prev.as_ref().and_then(|p| state_start(p, code, &by_entry, states, strings)) {
                // The first frame of the next state, some lines down.
                Some(g) if (g.pc, g.col) == (e.pc, e.col) && e.line >= g.line => {
                    write_leb(&mut out, ((e.line - g.line) as u64) << 1);
                }
                _ => {
                    let p = prev.map_or((0, 0, 0), |p| (p.pc as i64, p.line as i64, p.col as i64));
                    write_escape(&mut out, e, p);
                }
            }
        }
        if entries.binary_search(&e.pc).is_ok() {
            seen = k;
        }
        prev = Some(*e);
    }
    out
}

#[cfg(test)]
pub(super) fn decode_sprite_lines(
    bytes: &[u8],
    code: &[Insn],
    states: &[State],
    strings: &[u32],
) -> Result<Vec<LineEntry>, String> {
    decode_sprite_lines_with(bytes, code, states, strings, &mut LineScratch::default())
}

/// [`decode_sprite_lines`] with reused tables.
pub(super) fn decode_sprite_lines_with(
    bytes: &[u8],
    code: &[Insn],
    states: &[State],
    strings: &[u32],
    scratch: &mut LineScratch,
) -> Result<Vec<LineEntry>, String> {
    if bytes.is_empty() {
        return Ok(Vec::new());
    }
    let LineScratch { entries, by_entry } = scratch;
    entry_pcs_into(states, entries);
    states_by_entry_into(states, by_entry);
    let (entries, by_entry) = (&*entries, &*by_entry);
    let mut i = 0;
    let n = read_leb(bytes, &mut i).ok_or("truncated count")?;
    if n.div_ceil(4) > (bytes.len() - i) as u64 {
        return Err(format!("{n} entries cannot fit in {} bytes", bytes.len()));
    }
    let n = n as usize;
    let codes = &bytes[i..i + n.div_ceil(4)];
    i += codes.len();
    let mut out: Vec<LineEntry> = Vec::with_capacity(n);
    // Positions come in pc order, so whether one starts a state is found
    // by walking `entries` along with them; a position behind the last one
    // (only a hand-made bundle has those) starts the walk over where it is.
    let mut cursor = 0usize;
    // The positions since the last state start are `out[seen..]`: the
    // window a `_pingpong` prediction looks back over, with no copy.
    let mut seen = 0usize;
    // The previous entry (valid once `k > 0`).
    let mut prev = LineEntry { pc: 0, line: 0, col: 0 };
    for k in 0..n {
        let c = (codes[k / 4] >> (2 * (k % 4))) & 3;
        let e = if c == 3 {
            let mut j = i;
            let v = read_leb(bytes, &mut j).ok_or("truncated entry")?;
            if v & 1 == 0 {
                i = j;
                let g = (k > 0)
                    .then(|| state_start(&prev, code, by_entry, states, strings))
                    .flatten()
                    .ok_or_else(|| format!("entry {k}: no state starts there"))?;
                let line = u32::try_from(v >> 1).ok().and_then(|d| g.line.checked_add(d)).ok_or("line out of range")?;
                LineEntry { line, ..g }
            } else {
                let p = if k > 0 { (prev.pc as i64, prev.line as i64, prev.col as i64) } else { (0, 0, 0) };
                read_escape(bytes, &mut i, p)?
            }
        } else if k == 0 {
            return Err("the first entry is predicted".into());
        } else {
            predict_pos(&prev, &out[seen..], code, strings, c)
                .ok_or_else(|| format!("entry {k}: predicted position {c} does not exist"))?
        };
        if e.pc < prev.pc {
            cursor = entries.partition_point(|&x| x < e.pc);
        }
        while cursor < entries.len() && entries[cursor] < e.pc {
            cursor += 1;
        }
        if cursor < entries.len() && entries[cursor] == e.pc {
            seen = out.len();
        }
        out.push(e);
        prev = e;
    }
    if i != bytes.len() {
        return Err(format!("{} bytes after the last entry", bytes.len() - i));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::sprite_code::arb_insn;
    use super::*;

    proptest::proptest! {
        #[test]
        fn any_sprite_lines_round_trip(
            code in proptest::collection::vec(arb_insn(), 0..30),
            raw in proptest::collection::vec((0u32..40, 1u32..4, 1u32..30), 0..30),
            entries in proptest::collection::vec(0u32..30, 0..4),
        ) {
            let strings: Vec<String> = ["m", "step", "hit", "x"].iter().map(|s| s.to_string()).collect();
            let strings = widths(&strings);
            let states: Vec<State> = entries.iter().map(|&e| State { name: 0, category: 0, entry: e }).collect();
            let lines: Vec<LineEntry> = raw.iter().map(|&(pc, line, col)| LineEntry { pc, line, col }).collect();
            let bytes = encode_sprite_lines(&lines, &code, &states, &strings);
            proptest::prop_assert_eq!(decode_sprite_lines(&bytes, &code, &states, &strings).unwrap(), lines);
        }
    }
}
