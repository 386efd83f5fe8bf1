//! A readable listing of a program, in the notation of the ISA table
//! (`animc --emit asm`).
//!
//! ```
//! # let program = animkit_vm::engine::sprite::doc_program();
//! let text = animkit_vm::engine::disasm::disassemble(&program);
//! assert!(text.contains("EVENT       2           ; \"step\""), "{text}");
//! ```

use crate::isa::{Arg, Format, Insn, Op, animator_ops, register_non_ax_ops, slap_ops};
use crate::program::{ConstKind, Function, Module, Program};
use std::fmt::Write;

/// The listing of every module of `program`.
pub fn disassemble(program: &Program) -> String {
    let mut out = String::new();
    for m in &program.modules {
        module(&mut out, program, m);
    }
    out
}

fn quoted(s: &str) -> String {
    format!("{s:?}")
}

fn module(out: &mut String, p: &Program, m: &Module) {
    let _ = writeln!(
        out,
        "module {} ({}): {} function{}, {} state{}{}",
        quoted(p.string(m.name)),
        m.language,
        m.functions.len(),
        if m.functions.len() == 1 { "" } else { "s" },
        m.states.len(),
        if m.states.len() == 1 { "" } else { "s" },
        m.source.as_deref().map(|s| format!(", from {s}")).unwrap_or_default()
    );
    for (i, s) in m.states.iter().enumerate() {
        let _ = writeln!(out, "  state {i} {} [{}] at {}", p.string(s.name), p.string(s.category), s.entry);
    }
    if let Some(e) = m.entry {
        let _ = writeln!(out, "  entry function {e}");
    }
    for (fi, f) in m.functions.iter().enumerate() {
        function(out, p, m, fi, f);
    }
    out.push('\n');
}

fn function(out: &mut String, p: &Program, m: &Module, fi: usize, f: &Function) {
    let _ = writeln!(
        out,
        "\nfunction {fi} {} ({} registers, {} constants, {} instructions)",
        quoted(p.string(f.name)),
        f.nregs,
        f.consts.len(),
        f.code.len()
    );
    for (pc, &w) in f.code.iter().enumerate() {
        for (si, s) in m.states.iter().enumerate() {
            if m.language.code() == crate::program::CodeForm::Sprite && s.entry as usize == pc {
                let _ = writeln!(out, "  ; state {si} {}", p.string(s.name));
            }
        }
        let (operands, comment) = operands(p, m, f, pc, w);
        let mut notes: Vec<String> = Vec::new();
        if let Some((l, c)) = f.position(pc as u32) {
            notes.push(format!("{l}:{c}"));
        }
        if !comment.is_empty() {
            notes.push(comment);
        }
        let mn = w.op().map_or("???", Op::mnemonic);
        let text = format!("{pc:6}  {mn:<11} {operands}");
        if notes.is_empty() {
            let _ = writeln!(out, "{}", text.trim_end());
        } else {
            let _ = writeln!(out, "{text:<32}; {}", notes.join("  "));
        }
    }
}

fn constant(p: &Program, f: &Function, k: usize) -> String {
    match (f.consts.get(k), f.kinds.get(k)) {
        (Some(v), Some(ConstKind::Str)) => quoted(p.string(*v as u32)),
        (Some(v), _) => format!("{v}"),
        _ => "?".into(),
    }
}

fn operands(p: &Program, m: &Module, f: &Function, pc: usize, w: Insn) -> (String, String) {
    let Some(op) = w.op() else {
        return (format!("{:#010x}", w.0), "unknown opcode".into());
    };
    match op.info().format {
        Format::None => (String::new(), String::new()),
        Format::A if op == Op::LoadKX => {
            let k = f.code.get(pc + 1).filter(|x| x.op() == Some(Op::ExtraArg)).map(|x| x.ax_field() as usize);
            (format!("{}", w.a()), k.map(|k| constant(p, f, k)).unwrap_or_default())
        }
        Format::A => (format!("{}", w.a()), String::new()),
        Format::AB => (format!("{} {}", w.a(), w.b()), String::new()),
        Format::ABC => (format!("{} {} {}", w.a(), w.b(), w.c()), String::new()),
        Format::ABx => (format!("{} {}", w.a(), w.bx()), constant(p, f, w.bx() as usize)),
        Format::AsBx => (format!("{} {}", w.a(), w.sbx()), String::new()),
        Format::SJ => {
            let target = pc as i64 + 1 + w.sj_field() as i64;
            (format!("{}", w.sj_field()), format!("to {target}"))
        }
        Format::Ax => {
            let ax = w.ax_field();
            let comment = match op {
                Op::Event => quoted(p.string(ax)),
                Op::Enter => {
                    m.states.get(ax as usize).map(|s| format!("state {}", p.string(s.name))).unwrap_or_default()
                }
                Op::Call => m.functions.get(ax as usize).map(|g| quoted(p.string(g.name))).unwrap_or_default(),
                // A tick count, a sprite index, a constant index: the
                // number says it all.
                Op::Wait | Op::Sprite | Op::ExtraArg => String::new(),
                // Not `Ax` format: not reached. A new generic op is in no
                // pattern until one names it (a compile error here); no
                // Animator or SLAP op is `Ax` (the verifier's
                // `every_ax_op_is_named_in_the_ax_rules`).
                Op::Nop | Op::Jmp | Op::Halt | register_non_ax_ops!() | animator_ops!() | slap_ops!() => String::new(),
            };
            (format!("{ax}"), comment)
        }
        Format::K => {
            let start = w.ax_field() as usize;
            let mut k = start;
            let mut parts = Vec::new();
            for arg in op.info().block {
                if *arg == Arg::Points {
                    let n = f.consts.get(k).copied().unwrap_or(0.0) as usize;
                    let pts: Vec<String> = (0..n)
                        .map(|i| format!("({} {})", constant(p, f, k + 1 + 2 * i), constant(p, f, k + 2 + 2 * i)))
                        .collect();
                    parts.push(format!("[{}]", pts.join(" ")));
                    k += 1 + 2 * n;
                } else {
                    parts.push(constant(p, f, k));
                    k += 1;
                }
            }
            (format!("K{start}"), parts.join(" "))
        }
        Format::R => {
            // The window in the table's notation: `R3..R5` is R[3], R[4], R[5].
            let (first, len) = (w.a() as usize, op.info().block.len());
            (format!("R{first}..R{}", first + len.max(1) - 1), String::new())
        }
    }
}
