//! States of sprite modules: names as deltas from the ids the compiler
//! gives them, categories usually "the name", entries only when they are
//! not the starts of the code's segments (see the module docs of
//! [`super`]).

use super::leb::{leb_len, read_leb, unzigzag, write_leb, zigzag};
use super::sprite_code::{segment_starts, segment_starts_into};
use crate::isa::Insn;
use crate::program::State;

/// The name id the compiler gives the state after `prev` (state names are
/// interned in order, after the module's name, each then its category).
fn predicted_name(prev: Option<&State>, module_name: u32) -> i64 {
    prev.map_or(module_name as i64, |p| p.name.max(p.category) as i64) + 1
}

/// States: `count << 1 | canonical`, then per state `payload << 2 |
/// absolute << 1 | same`: the name as an id (`absolute`) or as a zigzag
/// delta from [`predicted_name`], `same` when the category is the name
/// (else the category id follows), and, unless `canonical` (the states
/// enter at the starts of the code's segments in order, as the compiler
/// lays them out), the entry as a zigzag delta from the previous state's.
pub(super) fn encode_states(states: &[State], module_name: u32, code: &[Insn]) -> Vec<u8> {
    let segs = segment_starts(code);
    let canonical = segs.len() == states.len() && states.iter().zip(&segs).all(|(s, &e)| s.entry == e);
    let mut out = Vec::with_capacity(1 + states.len() * 2);
    write_leb(&mut out, ((states.len() as u64) << 1) | canonical as u64);
    let mut entry = 0i64;
    let mut prev: Option<&State> = None;
    for s in states {
        let delta = zigzag(s.name as i64 - predicted_name(prev, module_name));
        let same = (s.category == s.name) as u64;
        if leb_len((s.name as u64) << 2) < leb_len(delta << 2) {
            write_leb(&mut out, ((s.name as u64) << 2) | 2 | same);
        } else {
            write_leb(&mut out, (delta << 2) | same);
        }
        if same == 0 {
            write_leb(&mut out, s.category as u64);
        }
        if !canonical {
            write_leb(&mut out, zigzag(s.entry as i64 - entry));
        }
        entry = s.entry as i64;
        prev = Some(s);
    }
    out
}

/// Reads what [`encode_states`] wrote for the module named `module_name`
/// whose code is `code`.
#[cfg(test)]
pub(super) fn decode_states(bytes: &[u8], module_name: u32, code: &[Insn]) -> Result<Vec<State>, String> {
    decode_states_with(bytes, module_name, code, &mut Vec::new(), false)
}

/// [`decode_states`] with a reused buffer for the code's segment starts;
/// when `segs_known`, `segs` already holds them (the sprite code decoder
/// found them on its way), else they are found here if needed.
pub(super) fn decode_states_with(
    bytes: &[u8],
    module_name: u32,
    code: &[Insn],
    segs: &mut Vec<u32>,
    segs_known: bool,
) -> Result<Vec<State>, String> {
    let mut i = 0;
    let head = read_leb(bytes, &mut i).ok_or("truncated count")?;
    let (n, canonical) = (head >> 1, head & 1 == 1);
    if n > bytes.len() as u64 {
        return Err(format!("{n} states cannot fit in {} bytes", bytes.len()));
    }
    if !canonical {
        segs.clear();
    } else if !segs_known {
        segment_starts_into(code, segs);
    }
    if canonical && segs.len() as u64 != n {
        return Err(format!("{n} states, but the code has {} segments", segs.len()));
    }
    let mut out: Vec<State> = Vec::with_capacity(n as usize);
    let mut entry = 0i64;
    let u32_of = |v: i64| u32::try_from(v).map_err(|_| format!("value {v} out of range"));
    let mut canon = segs.iter();
    for _ in 0..n {
        let v = read_leb(bytes, &mut i).ok_or("truncated state")?;
        let name = if v & 2 != 0 {
            u32_of((v >> 2) as i64)?
        } else {
            let d = unzigzag(v >> 2);
            u32_of(predicted_name(out.last(), module_name).checked_add(d).ok_or("overflow")?)?
        };
        let category = if v & 1 != 0 {
            name
        } else {
            u32_of(read_leb(bytes, &mut i).ok_or("truncated state")?.min(u64::MAX >> 1) as i64)?
        };
        let e = if let Some(&e) = canon.next() {
            e
        } else {
            entry = entry.checked_add(unzigzag(read_leb(bytes, &mut i).ok_or("truncated state")?)).ok_or("overflow")?;
            u32_of(entry)?
        };
        entry = e as i64;
        out.push(State { name, category, entry: e });
    }
    if i != bytes.len() {
        return Err(format!("{} bytes after the last state", bytes.len() - i));
    }
    Ok(out)
}
