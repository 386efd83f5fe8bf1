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

use super::flat::{FlatFrame, FlatIr, NO_SPRITE};
use super::ir::{End, IrFrame, SpriteIr};
use super::sizes::state_code_len;
use crate::builder::{FunctionBuilder, ProgramBuilder};
use crate::diagnostic::LineIndex;
use animkit_grammar::Span;
use animkit_vm::engine::isa::{Insn, MAX_SJ, MIN_SJ, Op};
use animkit_vm::engine::program::{Language, Module, State};

/// Lowers `ir` into a module named `name` of the program being built:
/// the same module, code and string table as [`lower`] of the
/// [`SpriteIr`] it was made from (`FlatIr::from_ir`). Each of the file's
/// names is interned into the program once, when first used (so string
/// ids come in the order [`lower`] gives them).
/// `src` is the source, for debug positions (`None` = strip).
pub fn lower_flat(ir: &FlatIr, name: &str, b: &mut ProgramBuilder, src: Option<&str>) -> Module {
    let fname = b.intern("states");
    let mut f = FunctionBuilder::new(fname);
    let code = usize::try_from(ir.code_len).unwrap_or(0);
    f.reserve(code, 0, if src.is_some() { ir.frames.len() + ir.states.len() } else { 0 });
    let cursor = std::cell::RefCell::new(Cursor::new(src.unwrap_or("")));
    let pos = |o: u32| src.map(|_| cursor.borrow_mut().line_col(o as usize));
    let mut ids = vec![u32::MAX; ir.names()];
    let mut id = |b: &mut ProgramBuilder, n: u32| {
        let slot = &mut ids[n as usize];
        if *slot == u32::MAX {
            *slot = b.intern(ir.name(n));
        }
        *slot
    };
    let mut entries = Vec::with_capacity(ir.states.len());
    let mut starts = Vec::new();
    let mut positions = Vec::new();
    for s in &ir.states {
        entries.push(f.pc());
        let first = ir.frames_of(s).next();
        if first.is_none_or(|(fr, _)| fr.sprite == NO_SPRITE) {
            f.emit(Insn::ax(Op::Sprite, 0), first.map_or(pos(s.end_pos), |(fr, _)| pos(fr.pos)));
        }
        starts.clear();
        positions.clear();
        for (fr, events) in ir.frames_of(s) {
            starts.push(f.pc());
            let p = pos(fr.pos);
            positions.push(p);
            flat_frame(&mut f, b, &mut id, fr, events, p);
        }
        let end_pos = pos(s.end_pos);
        for &e in ir.end_events(s) {
            let e = id(b, e);
            f.emit(Insn::ax(Op::Event, e), end_pos);
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
                f.emit(Insn::ax(Op::Enter, t), end_pos);
            }
            End::PingPong => {
                let n = (s.frames.1 - s.frames.0) as usize;
                // The way back: the positions of the way there.
                for ((fr, events), &p) in ir.frames_of(s).zip(&positions).take(n.saturating_sub(1)).rev() {
                    flat_frame(&mut f, b, &mut id, fr, events, p);
                }
                let target = starts.get(1).copied().unwrap_or(f.pc());
                jump(&mut f, target, end_pos);
            }
        }
    }
    debug_assert_eq!(f.pc() as u64, ir.code_len);
    let module_name = b.intern(name);
    let states = ir
        .states
        .iter()
        .zip(&entries)
        .map(|(s, &entry)| State { name: id(b, s.name), category: id(b, s.category), entry })
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

/// `(line, column)` of byte offsets, as [`LineIndex::line_col`] gives
/// them, counted on from the last offset asked for: lowering asks in
/// source order (a `_pingpong`'s way back reuses the positions of the way
/// there), so the positions of a file cost one pass over it, without a
/// table of its lines.
struct Cursor<'s> {
    src: &'s str,
    /// Columns are bytes (most sources).
    ascii: bool,
    /// The last offset asked for, its line and column (0-based), and the
    /// start of its line.
    offset: usize,
    line: usize,
    col: usize,
    line_start: usize,
}

impl<'s> Cursor<'s> {
    fn new(src: &'s str) -> Cursor<'s> {
        Cursor { src, ascii: src.is_ascii(), offset: 0, line: 0, col: 0, line_start: 0 }
    }

    fn chars(&self, from: usize, to: usize) -> usize {
        if self.ascii {
            return to - from;
        }
        self.src.get(from..to).map_or(to - from, |s| s.chars().count())
    }

    fn line_col(&mut self, offset: usize) -> (u32, u32) {
        let offset = offset.min(self.src.len());
        if offset < self.line_start {
            // Back to an earlier line: count from the top.
            (self.offset, self.line, self.col, self.line_start) = (0, 0, 0, 0);
        }
        if offset >= self.offset {
            // Counted without a branch per byte (it vectorises); the last
            // line break searched for only when there is one.
            let seg = &self.src.as_bytes()[self.offset..offset];
            let breaks = seg.iter().fold(0usize, |n, &c| n + (c == b'\n') as usize);
            self.line += breaks;
            let newline = if breaks == 0 { None } else { seg.iter().rposition(|&c| c == b'\n') };
            match newline {
                Some(k) => {
                    self.line_start = self.offset + k + 1;
                    self.col = self.chars(self.line_start, offset);
                }
                None => self.col += self.chars(self.offset, offset),
            }
        } else {
            // Back on the same line.
            self.col = self.chars(self.line_start, offset);
        }
        self.offset = offset;
        (self.line as u32 + 1, self.col as u32 + 1)
    }
}

fn flat_frame(
    f: &mut FunctionBuilder,
    b: &mut ProgramBuilder,
    id: &mut impl FnMut(&mut ProgramBuilder, u32) -> u32,
    fr: &FlatFrame,
    events: &[u32],
    pos: Option<(u32, u32)>,
) {
    if fr.sprite != NO_SPRITE {
        f.emit(Insn::ax(Op::Sprite, fr.sprite), pos);
    }
    for &e in events {
        let e = id(b, e);
        f.emit(Insn::ax(Op::Event, e), pos);
    }
    if fr.duration > 0 {
        f.emit(Insn::ax(Op::Wait, fr.duration), pos);
    }
}

/// Lowers `ir` into a module named `name` of the program being built.
/// `lines` maps spans to positions for debug info (`None` = strip). The
/// reference for [`lower_flat`], which the compiler uses.
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
                f.emit(Insn::ax(Op::Enter, t), end_pos);
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
