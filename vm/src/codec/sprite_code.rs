//! Code of sprite modules: one token byte per frame group (`SPRITE i;
//! EVENT e*; WAIT d` with the sprite and the wait predicted), one byte for
//! a `_loop` or `_pingpong` jump (see the module docs of [`super`]).

use super::leb::{read_leb, unzigzag, write_leb, zigzag};
use crate::isa::{Insn, MAX_AX, MAX_SJ, MIN_SJ, Op};
use crate::program::State;

// Sprite code tokens. A byte below 0x80 is a *frame group*: an optional
// SPRITE, up to six EVENTs (seven: a count follows) and an optional WAIT, the
// shape the sprite lowering emits for every frame:
//   bits 6-5 sprite: 0 none, 1 previous + 1, 2 previous - 1, 3 operand follows
//   bits 4-3 wait:   0 none, 1 same as the previous WAIT, 2 operand follows,
//                    3 the wait before the previous one (of two that differ)
//   bits 2-0 events: count (7: the count follows), then each string id
// "Previous" sprite restarts at each segment of the code (0 and after each
// JMP, ENTER or HALT: a state, as the compiler lays them out), where
// previous + 1 is 0.
// Operands are LEB128. Other instructions are one token each.
const T_JMP: u8 = 0x80;
const T_ENTER: u8 = 0x81;
const T_HALT: u8 = 0x82;
const T_NOP: u8 = 0x83;
const T_RAW: u8 = 0x84;
/// `JMP` to the current state's entry (`_loop`).
const T_LOOP: u8 = 0x85;
/// `JMP` to the second frame group of the current state (`_pingpong`).
const T_TURN: u8 = 0x86;

/// Most events the predictors look at in one frame group: a hostile bundle
/// of one huge group and many tokens pointing into it stays linear.
pub(super) const GROUP_EVENTS: usize = 64;

/// The pc after the frame group (`SPRITE? EVENT* WAIT?`) at `pc`, or after
/// the one instruction there when it starts no group.
pub(super) fn next_group(code: &[Insn], pc: usize) -> usize {
    let n = code.len();
    let mut q = pc;
    if q < n && is_op(code[q], Op::Sprite) {
        q += 1;
    }
    let events_end = q.saturating_add(GROUP_EVENTS);
    while q < n && q < events_end && is_op(code[q], Op::Event) {
        q += 1;
    }
    if q < n && is_op(code[q], Op::Wait) {
        q += 1;
    }
    if q == pc { pc + 1 } else { q }
}

/// True when `w` is an `op` instruction (whatever its operands).
#[inline]
pub(super) fn is_op(w: Insn, op: Op) -> bool {
    w.op_byte() == op as u8
}

/// Entry pcs, sorted, as the code codec's prediction resets.
pub(super) fn entry_pcs(states: &[State]) -> Vec<u32> {
    let mut v = Vec::new();
    entry_pcs_into(states, &mut v);
    v
}

/// [`entry_pcs`] into a reused buffer.
pub(super) fn entry_pcs_into(states: &[State], v: &mut Vec<u32>) {
    v.clear();
    v.extend(states.iter().map(|s| s.entry));
    v.sort_unstable();
    v.dedup();
}

/// True for the instructions that end a *segment* of sprite code (a state,
/// as the compiler lays them out): the next instruction starts another.
fn ends_segment(w: Insn) -> bool {
    is_op(w, Op::Jmp) || is_op(w, Op::Enter) || is_op(w, Op::Halt)
}

/// Where each segment of `code` starts: 0 and after each [`ends_segment`]
/// that is not the last instruction.
pub(super) fn segment_starts(code: &[Insn]) -> Vec<u32> {
    let mut v = Vec::new();
    segment_starts_into(code, &mut v);
    v
}

/// [`segment_starts`] into a reused buffer.
pub(super) fn segment_starts_into(code: &[Insn], v: &mut Vec<u32>) {
    v.clear();
    v.push(0);
    v.extend(
        code.iter().enumerate().filter(|&(pc, w)| ends_segment(*w) && pc + 1 < code.len()).map(|(pc, _)| pc as u32 + 1),
    );
}

/// Sprite code as tokens (see the comment on the tokens above).
pub(super) fn encode_sprite_code(code: &[Insn]) -> Vec<u8> {
    let mut out = Vec::with_capacity(code.len());
    let (mut prev_sprite, mut prev_wait, mut older_wait) = (MAX_AX, 0u32, 0u32);
    // Start of the current segment: predictions restart there.
    let mut seg = 0usize;
    let mut p = 0;
    while p < code.len() {
        if p == seg {
            prev_sprite = MAX_AX;
        }
        let w = code[p];
        // A group holds no segment end, so it never runs across a start.
        let inside = |q: usize| q < code.len();
        if is_op(w, Op::Sprite) || is_op(w, Op::Event) || is_op(w, Op::Wait) {
            let mut tag = 0u8;
            let at = out.len();
            out.push(0);
            if is_op(code[p], Op::Sprite) {
                let v = code[p].ax_field();
                if v == (prev_sprite + 1) & MAX_AX {
                    tag |= 1 << 5;
                } else if v == prev_sprite.wrapping_sub(1) & MAX_AX {
                    tag |= 2 << 5;
                } else {
                    tag |= 3 << 5;
                    write_leb(&mut out, v as u64);
                }
                prev_sprite = v;
                p += 1;
            }
            let ev_start = p;
            while inside(p) && is_op(code[p], Op::Event) {
                p += 1;
            }
            let events = &code[ev_start..p];
            let mut ev_bytes = Vec::new();
            if events.len() >= 7 {
                tag |= 7;
                write_leb(&mut ev_bytes, events.len() as u64);
            } else {
                tag |= events.len() as u8;
            }
            for e in events {
                write_leb(&mut ev_bytes, e.ax_field() as u64);
            }
            let mut wait_bytes = Vec::new();
            if inside(p) && is_op(code[p], Op::Wait) {
                let v = code[p].ax_field();
                if v == prev_wait {
                    tag |= 1 << 3;
                } else if v == older_wait {
                    tag |= 3 << 3;
                } else {
                    tag |= 2 << 3;
                    write_leb(&mut wait_bytes, v as u64);
                }
                if v != prev_wait {
                    (older_wait, prev_wait) = (prev_wait, v);
                }
                p += 1;
            }
            out[at] = tag;
            out.extend_from_slice(&ev_bytes);
            out.extend_from_slice(&wait_bytes);
            continue;
        }
        p += 1;
        let target = p as i64 + w.sj_field() as i64;
        let cur = seg;
        if ends_segment(w) {
            seg = p;
        }
        if is_op(w, Op::Jmp) && cur as i64 == target {
            out.push(T_LOOP);
        } else if is_op(w, Op::Jmp) && next_group(&code[..p], cur) as i64 == target {
            out.push(T_TURN);
        } else if is_op(w, Op::Jmp) {
            out.push(T_JMP);
            write_leb(&mut out, zigzag(w.sj_field() as i64));
        } else if is_op(w, Op::Enter) {
            out.push(T_ENTER);
            write_leb(&mut out, w.ax_field() as u64);
        } else if w == Insn(Op::Halt as u32) {
            out.push(T_HALT);
        } else if w == Insn(Op::Nop as u32) {
            out.push(T_NOP);
        } else {
            out.push(T_RAW);
            out.extend_from_slice(&w.0.to_le_bytes());
        }
    }
    out
}

/// Reads what [`encode_sprite_code`] wrote into `out` (cleared first).
#[cfg(test)]
pub(super) fn decode_sprite_code(bytes: &[u8], out: &mut Vec<Insn>) -> Result<(), String> {
    decode_sprite_code_with(bytes, out, &mut Vec::new())
}

/// An LEB128 operand of at most 24 bits: one byte inline, the rest through
/// [`read_leb`].
#[inline(always)]
fn read_ax(bytes: &[u8], i: &mut usize) -> Result<u32, String> {
    if let Some(&b) = bytes.get(*i) {
        if b < 0x80 {
            *i += 1;
            return Ok(b as u32);
        }
    }
    match read_leb(bytes, i) {
        Some(v) if v <= MAX_AX as u64 => Ok(v as u32),
        Some(v) => Err(format!("operand {v} above 24 bits")),
        None => Err("truncated operand".into()),
    }
}

/// [`decode_sprite_code`], also writing the code's segment starts into
/// `segs` (cleared first), exactly as [`segment_starts`] would find them,
/// so that the states' decoder need not scan the code again. One pass,
/// no allocation but `out`'s and `segs`' growth.
pub(super) fn decode_sprite_code_with(bytes: &[u8], out: &mut Vec<Insn>, segs: &mut Vec<u32>) -> Result<(), String> {
    out.clear();
    segs.clear();
    segs.push(0);
    let (mut prev_sprite, mut prev_wait, mut older_wait) = (MAX_AX, 0u32, 0u32);
    // Start of the current segment (see `encode_sprite_code`).
    let mut seg = 0usize;
    let mut i = 0;
    const SPRITE: u32 = Op::Sprite as u32;
    const EVENT: u32 = Op::Event as u32;
    const WAIT: u32 = Op::Wait as u32;
    while i < bytes.len() {
        if out.len() == seg {
            prev_sprite = MAX_AX;
        }
        let t = bytes[i];
        i += 1;
        if t < 0x80 {
            // In byte order: the sprite's operand, the event count, the
            // events, the wait's operand.
            match (t >> 5) & 3 {
                0 => {}
                mode => {
                    prev_sprite = match mode {
                        1 => (prev_sprite + 1) & MAX_AX,
                        2 => prev_sprite.wrapping_sub(1) & MAX_AX,
                        _ => read_ax(bytes, &mut i)?,
                    };
                    out.push(Insn(SPRITE | prev_sprite << 8));
                }
            }
            let n = match t & 7 {
                7 => read_leb(bytes, &mut i).ok_or("truncated event count")?,
                n => n as u64,
            };
            if n > (bytes.len() - i) as u64 {
                return Err(format!("{n} events cannot fit in the bytes left"));
            }
            for _ in 0..n {
                out.push(Insn(EVENT | read_ax(bytes, &mut i)? << 8));
            }
            let wait = match (t >> 3) & 3 {
                0 => continue,
                1 => prev_wait,
                2 => read_ax(bytes, &mut i)?,
                _ => older_wait,
            };
            if wait != prev_wait {
                (older_wait, prev_wait) = (prev_wait, wait);
            }
            out.push(Insn(WAIT | wait << 8));
            // A frame group ends no segment.
            continue;
        }
        let w = match t {
            T_JMP => {
                let z = read_leb(bytes, &mut i).ok_or("truncated jump")?;
                let sj = unzigzag(z);
                if !(MIN_SJ as i64..=MAX_SJ as i64).contains(&sj) {
                    return Err(format!("jump offset {sj} out of range"));
                }
                Insn::sj(Op::Jmp, sj as i32)
            }
            T_ENTER => Insn::ax(Op::Enter, read_ax(bytes, &mut i)?),
            T_LOOP | T_TURN => {
                let target = if t == T_LOOP { seg } else { next_group(out, seg) };
                Insn::sj(Op::Jmp, (target as i64 - out.len() as i64 - 1) as i32)
            }
            T_HALT => Insn(Op::Halt as u32),
            T_NOP => Insn(Op::Nop as u32),
            T_RAW => {
                let raw = bytes.get(i..i + 4).ok_or("truncated raw instruction")?;
                i += 4;
                Insn(u32::from_le_bytes([raw[0], raw[1], raw[2], raw[3]]))
            }
            t => return Err(format!("unknown code token {t:#04x}")),
        };
        out.push(w);
        if ends_segment(w) {
            seg = out.len();
            segs.push(seg as u32);
        }
    }
    // A segment end that is the last instruction starts no segment.
    if segs.len() > 1 && segs.last() == Some(&(out.len() as u32)) {
        segs.pop();
    }
    Ok(())
}

/// Any instruction, biased towards sprite code (for the codecs' properties).
#[cfg(test)]
pub(super) fn arb_insn() -> impl proptest::strategy::Strategy<Value = Insn> {
    use proptest::prelude::*;
    prop_oneof![
        (0u32..6).prop_map(|v| Insn::ax(Op::Sprite, v)),
        any::<u32>().prop_map(|v| Insn::ax(Op::Sprite, v)),
        (0u32..4).prop_map(|v| Insn::ax(Op::Event, v)),
        (0u32..4).prop_map(|v| Insn::ax(Op::Wait, v)),
        any::<u32>().prop_map(|v| Insn::ax(Op::Wait, v)),
        (-9i32..9).prop_map(|v| Insn::sj(Op::Jmp, v)),
        (0u32..3).prop_map(|v| Insn::ax(Op::Enter, v)),
        Just(Insn(Op::Halt as u32)),
        Just(Insn(Op::Nop as u32)),
        any::<u32>().prop_map(Insn),
    ]
}

#[cfg(test)]
mod tests {
    use super::super::states::{decode_states, encode_states};
    use super::*;

    proptest::proptest! {
        #[test]
        fn any_sprite_code_round_trips(
            code in proptest::collection::vec(arb_insn(), 0..60),
            raw_states in proptest::collection::vec((0u32..64, 0u32..300, proptest::prelude::any::<bool>()), 0..5),
        ) {
            let bytes = encode_sprite_code(&code);
            let mut back = Vec::new();
            let mut segs = Vec::new();
            decode_sprite_code_with(&bytes, &mut back, &mut segs).unwrap();
            proptest::prop_assert_eq!(&back, &code);
            proptest::prop_assert_eq!(&segs, &segment_starts(&code));
            let states: Vec<State> = raw_states
                .iter()
                .map(|&(e, n, same)| State { name: n, category: if same { n } else { n / 2 }, entry: e })
                .collect();
            // As the compiler lays them out: one state per segment, names in order.
            let canonical: Vec<State> = segment_starts(&code)
                .iter()
                .enumerate()
                .map(|(k, &e)| State { name: 8 + k as u32, category: 8 + k as u32, entry: e })
                .collect();
            for st in [&states, &canonical] {
                for name in [0u32, 7] {
                    let enc = encode_states(st, name, &code);
                    proptest::prop_assert_eq!(&decode_states(&enc, name, &code).unwrap(), st);
                }
            }
        }
    }

    #[test]
    fn an_explicit_sprite_comes_before_a_long_event_count() {
        // SPRITE 9 (not predicted), seven EVENTs (the count follows the
        // sprite's operand), WAIT 3, HALT: found by the fuzz smoke test.
        let mut code = vec![Insn::ax(Op::Sprite, 9)];
        code.extend((0..7).map(|e| Insn::ax(Op::Event, e)));
        code.extend([Insn::ax(Op::Wait, 3), Insn(Op::Halt as u32)]);
        let bytes = encode_sprite_code(&code);
        assert_eq!(bytes, [0x77, 9, 7, 0, 1, 2, 3, 4, 5, 6, 3, T_HALT]);
        let (mut back, mut segs) = (Vec::new(), Vec::new());
        decode_sprite_code_with(&bytes, &mut back, &mut segs).unwrap();
        assert_eq!(back, code);
        assert_eq!(segs, [0]);
    }

    #[test]
    fn a_frame_is_one_byte() {
        // Walk: 5, 5, 5, 5, _loop
        let mut code = vec![Insn::ax(Op::Sprite, 0), Insn::ax(Op::Wait, 5)];
        for s in 1..4 {
            code.extend([Insn::ax(Op::Sprite, s), Insn::ax(Op::Wait, 5)]);
        }
        code.push(Insn::sj(Op::Jmp, -9));
        let bytes = encode_sprite_code(&code);
        // Frame 0 (explicit wait), three predicted frames, the loop.
        assert_eq!(bytes, [0x30, 5, 0x28, 0x28, 0x28, T_LOOP]);
    }
}
