//! Lowers [`SpriteIr`] to one function of straight-line code per module:
//!
//! ```text
//! state entry:  SPRITE 0            ; only if the first frame sets no sprite
//! frame k:      SPRITE i  EVENT e*  WAIT d   ; parts omitted when absent
//! _loop:        EVENT e*  JMP first frame
//! _wait:        EVENT e*  HALT
//! Name:         EVENT e*  ENTER Name
//! _pingpong:    EVENT e*  frames n-2 .. 0  JMP frame 1
//! ```
//!
//! `_pingpong` thus becomes the reverse pass plus a jump back into the
//! forward pass: 0 1 2 3 (turn) 2 1 0 1 2 3 (turn) 2 1 0 ..., and its own
//! events fire at every turn at the end.

use super::ir::{End, IrFrame, IrState, SpriteIr};
use crate::builder::{FunctionBuilder, ProgramBuilder};
use crate::diagnostic::LineIndex;
use animkit_grammar::Span;
use animkit_vm::isa::{Insn, MAX_SJ, MIN_SJ, Op};
use animkit_vm::program::{Language, Module, State};

/// Lowers `ir` into a module named `name` of the program being built.
/// `lines` maps spans to positions for debug info (`None` = strip).
pub fn lower(ir: &SpriteIr, name: &str, b: &mut ProgramBuilder, lines: Option<&LineIndex<'_>>) -> Module {
    let fname = b.intern("states");
    let mut f = FunctionBuilder::new(fname);
    let pos = |s: Span| lines.map(|l| l.line_col(s.start));
    let mut entries = Vec::with_capacity(ir.states.len());
    for s in &ir.states {
        entries.push(f.pc());
        if s.frames.first().is_none_or(|fr| fr.sprite.is_none()) {
            f.emit(Insn::ax(Op::Sprite, 0), s.frames.first().map_or(pos(s.end_span), |fr| pos(fr.span)));
        }
        let mut starts = Vec::with_capacity(s.frames.len());
        for fr in &s.frames {
            starts.push(f.pc());
            frame(&mut f, b, fr, pos(fr.span));
        }
        let end_pos = pos(s.end_span);
        for e in &s.end_events {
            let id = b.intern(e);
            f.emit(Insn::ax(Op::Event, id), end_pos);
        }
        match s.end {
            End::Loop => {
                let target = starts.first().copied().unwrap_or(f.pc());
                jump(&mut f, target, end_pos);
            }
            End::Wait => {
                f.emit(Insn::ax(Op::Halt, 0), end_pos);
            }
            End::Goto(t) => {
                f.emit(Insn::ax(Op::Enter, t as u32), end_pos);
            }
            End::PingPong => {
                let n = s.frames.len();
                for fr in s.frames[..n.saturating_sub(1)].iter().rev() {
                    frame(&mut f, b, fr, pos(fr.span));
                }
                let target = starts.get(1).copied().unwrap_or(f.pc());
                jump(&mut f, target, end_pos);
            }
        }
    }
    debug_assert_eq!(f.pc() as u64, ir.states.iter().map(state_code_len).sum::<u64>());
    let module_name = b.intern(name);
    let states = ir
        .states
        .iter()
        .zip(&entries)
        .map(|(s, &entry)| State { name: b.intern(&s.name), category: b.intern(&s.category), entry })
        .collect();
    Module {
        name: module_name,
        language: Language::Sprite,
        functions: vec![f.finish()],
        states,
        entry: None,
        source: None,
    }
}

/// The number of instructions [`lower`] emits for state `s` (the checker
/// uses it to keep modules within jump range).
pub fn state_code_len(s: &IrState) -> u64 {
    let frame_len = |fr: &IrFrame| fr.sprite.is_some() as u64 + fr.events.len() as u64 + (fr.duration > 0) as u64;
    let mut n = s.frames.first().is_none_or(|fr| fr.sprite.is_none()) as u64;
    n += s.frames.iter().map(frame_len).sum::<u64>();
    n += s.end_events.len() as u64;
    n += 1;
    if s.end == End::PingPong {
        let k = s.frames.len().saturating_sub(1);
        n += s.frames[..k].iter().map(frame_len).sum::<u64>();
    }
    n
}

fn frame(f: &mut FunctionBuilder, b: &mut ProgramBuilder, fr: &IrFrame, pos: Option<(u32, u32)>) {
    if let Some(s) = fr.sprite {
        f.emit(Insn::ax(Op::Sprite, s), pos);
    }
    for e in &fr.events {
        let id = b.intern(e);
        f.emit(Insn::ax(Op::Event, id), pos);
    }
    if fr.duration > 0 {
        f.emit(Insn::ax(Op::Wait, fr.duration), pos);
    }
}

fn jump(f: &mut FunctionBuilder, target: u32, pos: Option<(u32, u32)>) {
    let offset = target as i64 - (f.pc() as i64 + 1);
    // The checker keeps sprite modules within 2^23 instructions
    // (`check::MAX_CODE`), so the offset always fits.
    let offset = offset.clamp(MIN_SJ as i64, MAX_SJ as i64) as i32;
    f.emit(Insn::sj(Op::Jmp, offset), pos);
}
