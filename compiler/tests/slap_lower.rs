//! The SLAP lowering: exact listings with constant folding on and off, the
//! timeline's `WAIT`s (frame 0, gaps, the trailing `WAIT` that keeps the
//! length, out-of-order times), `LOADKX` beyond 65 535 constants, the
//! register bound at the nesting limit, debug positions of runtime errors,
//! and the driver options (`--strip`, `--no-fold`) through `animc`.

// Scenes define PI as the spec's scripts do (3.1416).
#![allow(clippy::approx_constant)]

use animkit_compiler::{Options, Source, compile};
use animkit_vm::engine::isa::{Insn, Op};
use animkit_vm::engine::program::{Function, Program};
use animkit_vm::engine::slap::SceneSim;
use std::sync::Arc;

fn program(src: &str, options: &Options) -> Program {
    compile(&[Source::new("s.slap", src)], options).unwrap_or_else(|e| panic!("{e}"))
}

fn folded(src: &str) -> Program {
    program(src, &Options::default())
}

fn unfolded(src: &str) -> Program {
    program(src, &Options { strip: false, fold: false, strict: false })
}

fn main_fn(p: &Program) -> &Function {
    &p.modules[0].functions[0]
}

/// The listing of the entry function's instructions, one per line, without
/// the header.
fn listing(p: &Program) -> String {
    let text = animkit_vm::engine::disasm::disassemble(p);
    let body: Vec<&str> = text.lines().skip_while(|l| !l.starts_with("function")).skip(1).collect();
    norm(&body.join("\n"))
}

/// `text` with each line trimmed and blank lines dropped.
fn norm(text: &str) -> String {
    text.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join("\n")
}

const SMALL: &str = "define PI 3.1416
actor 1 position 2 (1+2)*-3 # x
time 5
camera direction PI/2 -0.1
time 9
";

#[test]
fn folded_listing() {
    let p = folded(SMALL);
    assert_eq!(
        listing(&p),
        norm(
            "
     0  LOADK       0 0         ; 2:1  1
     1  LOADK       1 1         ; 2:1  2
     2  LOADK       2 2         ; 2:1  -9
     3  POSITION2   R0..R2      ; 2:1
     4  WAIT        5           ; 2:1
     5  LOADK       0 3         ; 4:1  1.5708
     6  LOADK       1 4         ; 4:1  -0.1
     7  CAMANGLES   R0..R1      ; 4:1
     8  WAIT        4           ; 4:1
     9  HALT                    ; 4:1"
        )
    );
    assert_eq!(main_fn(&p).nregs, 3);
    assert_eq!(main_fn(&p).consts, [1.0, 2.0, -9.0, 3.1416 / 2.0, -0.1]);
}

#[test]
fn unfolded_listing_computes_with_temporaries_above_the_window() {
    let p = unfolded(SMALL);
    assert_eq!(
        listing(&p),
        norm(
            "
     0  LOADK       0 0         ; 2:1  1
     1  LOADK       1 1         ; 2:1  2
     2  LOADK       2 2         ; 2:1  1
     3  LOADK       3 3         ; 2:1  2
     4  ADD         2 2 3       ; 2:1
     5  LOADK       3 4         ; 2:1  3
     6  NEG         3 3         ; 2:1
     7  MUL         2 2 3       ; 2:1
     8  POSITION2   R0..R2      ; 2:1
     9  WAIT        5           ; 2:1
    10  LOADK       0 5         ; 4:1  3.1416
    11  LOADK       2 6         ; 4:1  2
    12  DIV         0 0 2       ; 4:1
    13  LOADK       1 7         ; 4:1  0.1
    14  NEG         1 1         ; 4:1
    15  CAMANGLES   R0..R1      ; 4:1
    16  WAIT        4           ; 4:1
    17  HALT                    ; 4:1"
        )
    );
    assert_eq!(main_fn(&p).nregs, 4);
}

#[test]
fn every_attribute_has_its_op_and_window() {
    let src = "actor 1 action 2\nactor 1 direction 1\nactor 1 position 1 2\nactor 1 position 1 2 3\nactor 1 color 1 0 0\nactor 1 size 2\ncamera position 0 1 2\ncamera direction 0 0 -1\ncamera direction 0 0\ncamera lookat 1 0 0\ncamera follow 1\ncamera follow 1 3 1\ncamera move 1 2 3 over 4\n";
    let f = main_fn(&folded(src)).clone();
    let ops: Vec<(Op, u8)> =
        f.code.iter().filter_map(|w| w.op().map(|o| (o, w.a()))).filter(|(o, _)| *o != Op::LoadK).collect();
    use Op::*;
    assert_eq!(
        ops,
        [
            (Action, 0),
            (Direction, 0),
            (Position2, 0),
            (Position3, 0),
            (ActorColor, 0),
            (Size, 0),
            (CamPos, 0),
            (CamDir, 0),
            (CamAngles, 0),
            (CamLookAt, 0),
            (CamFollow, 0),
            (CamFollow, 0),
            (CamMove, 0),
            (Halt, 0)
        ]
    );
    // One LOADK per value, into R0, R1, ... (ids included), constants in order.
    let loads = f.code.iter().filter(|w| w.op() == Some(LoadK)).count();
    assert_eq!(loads, 2 + 2 + 3 + 4 + 4 + 2 + 3 + 3 + 2 + 3 + 3 + 3 + 4);
    assert_eq!(f.consts.len(), loads);
    assert_eq!(f.nregs, 4);
}

#[test]
fn the_timeline_is_waits_between_time_points() {
    // Frame 0 has no WAIT; time points without commands in between merge
    // into one WAIT; a trailing WAIT keeps the length.
    let p = folded("actor 1 size 1\ntime 10\ntime 20\nactor 1 size 2\ntime 30\ntime +15\n");
    let waits: Vec<u32> = main_fn(&p).code.iter().filter(|w| w.op() == Some(Op::Wait)).map(|w| w.ax_field()).collect();
    assert_eq!(waits, [20, 25]);
    let scene = SceneSim::with_index(Arc::new(animkit_vm::engine::verify::verify(p).unwrap()), 0).unwrap();
    assert_eq!(scene.length(), 45);
    // No trailing WAIT when the last time point has commands.
    let p = folded("time 7\nactor 1 size 1\n");
    let code = &main_fn(&p).code;
    assert_eq!(code.last().and_then(|w| w.op()), Some(Op::Halt));
    assert_eq!(code.iter().filter(|w| w.op() == Some(Op::Wait)).count(), 1);
    // A scene without commands is its length alone.
    let p = folded("time 12\n");
    assert_eq!(main_fn(&p).code, [Insn::ax(Op::Wait, 12), Insn::ax(Op::Halt, 0)]);
    let p = folded("# nothing\n");
    assert_eq!(main_fn(&p).code, [Insn::ax(Op::Halt, 0)]);
}

#[test]
fn out_of_order_times_run_in_frame_order() {
    let p = folded("time 500\nactor 1 size 2\ntime 10\nactor 1 size 3\nactor 2 size 4\n");
    assert_eq!(
        listing(&p),
        norm(
            "
     0  WAIT        10
     1  LOADK       0 0         ; 4:1  1
     2  LOADK       1 1         ; 4:1  3
     3  SIZE        R0..R1      ; 4:1
     4  LOADK       0 2         ; 5:1  2
     5  LOADK       1 3         ; 5:1  4
     6  SIZE        R0..R1      ; 5:1
     7  WAIT        490         ; 5:1
     8  LOADK       0 4         ; 2:1  1
     9  LOADK       1 5         ; 2:1  2
    10  SIZE        R0..R1      ; 2:1
    11  HALT                    ; 2:1"
        )
    );
}

#[test]
fn constants_beyond_65535_are_loaded_with_loadkx() {
    let mut src = String::new();
    for i in 0..33_000 {
        src.push_str(&format!("actor {i} size {}\n", 1 + i % 3));
    }
    for (p, fold) in [(folded(&src), true), (unfolded(&src), false)] {
        let f = main_fn(&p);
        assert_eq!(f.consts.len(), 66_000, "fold {fold}");
        // Command 32 768 has its id in constant 65 536.
        let at = f.code.iter().position(|w| w.op() == Some(Op::LoadKX)).unwrap();
        assert_eq!(at, 32_768 * 3);
        assert_eq!(f.code[at + 1], Insn::ax(Op::ExtraArg, 65_536));
        assert_eq!(f.code[at - 2], Insn::abx(Op::LoadK, 1, 65_535));
        let mut scene = SceneSim::with_index(Arc::new(animkit_vm::engine::verify::verify(p).unwrap()), 0).unwrap();
        scene.seek(0);
        assert_eq!(scene.actors().len(), 33_000);
        assert_eq!(scene.actor(32_999).unwrap().size, (1 + 32_999 % 3) as f64);
        assert_eq!(scene.actor(32_768).unwrap().size, (1 + 32_768 % 3) as f64);
    }
}

/// The deepest expression for temporaries at the nesting limit: `1+1*(...)`
/// repeated, each repetition three levels (`+`, `*`, the parentheses) and
/// two temporaries.
fn deep(levels: usize) -> String {
    let mut e = String::from("1");
    let mut depth = 0;
    while depth + 3 <= levels {
        e = format!("1+1*({e})");
        depth += 3;
    }
    if depth < levels {
        e = format!("-{e}");
    }
    e
}

#[test]
fn registers_stay_bounded_at_the_nesting_limit() {
    let limit = animkit_vm::engine::limits::MAX_SLAP_NESTING;
    let e = deep(limit);
    let src = format!("actor 1 color {e} {e} {e}\n");
    // 65 levels are refused, 64 taken.
    assert!(animkit_compiler::slap::front(&format!("actor 1 size -({e})\n")).is_err());
    let checked = animkit_compiler::slap::front(&src).unwrap();
    let p = unfolded(&src);
    let f = main_fn(&p);
    // 21 repetitions: 42 temporaries above the window of 4.
    let expected = animkit_compiler::slap::lower::registers_unfolded(match &checked.ir.commands[0].command {
        animkit_compiler::slap::ir::Command::Actor { args, .. } => args,
        _ => unreachable!(),
    });
    assert_eq!(expected, 3 + 42);
    assert_eq!(f.nregs as usize, 1 + expected);
    assert!((f.nregs as usize) <= 4 + limit);
    animkit_vm::engine::verify::verify_program(&p).unwrap();
    let folded_p = folded(&src);
    let (a, b) = (
        SceneSim::with_index(Arc::new(animkit_vm::engine::verify::verify(p).unwrap()), 0).unwrap(),
        SceneSim::with_index(Arc::new(animkit_vm::engine::verify::verify(folded_p).unwrap()), 0).unwrap(),
    );
    assert_eq!(format!("{:?}", a.actor(1)), format!("{:?}", b.actor(1)));
}

#[test]
fn runtime_errors_point_at_the_command() {
    // The compiler refuses a size at or below 0, so the bad values are
    // put into the bundle after compiling: 0.25 becomes 0, and 2 (of
    // `(2*3)`, or its folded 6) negative.
    let src = "actor 1 size 4\ntime 3\n  actor 1 size 0.25\nactor 1 size (2*3)\n";
    let spoil = |mut p: Program| {
        for k in &mut p.modules[0].functions[0].consts {
            *k = match *k {
                0.25 => 0.0,
                2.0 => -2.0,
                6.0 => -6.0,
                v => v,
            };
        }
        p
    };
    for fold in [true, false] {
        let p = spoil(program(src, &Options { strip: false, fold, strict: false }));
        let mut scene = SceneSim::with_index(Arc::new(animkit_vm::engine::verify::verify(p).unwrap()), 0).unwrap();
        scene.seek(3);
        let errors: Vec<String> = scene.errors().iter().map(|e| e.to_string()).collect();
        assert_eq!(
            errors,
            [
                "frame 3: 3:3: `actor 1 size 0`: the size must be a finite number above 0",
                "frame 3: 4:1: `actor 1 size -6`: the size must be a finite number above 0"
            ],
            "fold {fold}"
        );
        assert_eq!(scene.actor(1).unwrap().size, 4.0);
    }
    // Stripped: no position, the function and instruction instead.
    let p = spoil(program(src, &Options { strip: true, fold: true, strict: false }));
    assert!(main_fn(&p).lines.is_empty());
    let mut scene = SceneSim::with_index(Arc::new(animkit_vm::engine::verify::verify(p).unwrap()), 0).unwrap();
    scene.seek(3);
    assert_eq!(
        scene.errors()[0].to_string(),
        "frame 3: function 0 instruction 6: `actor 1 size 0`: the size must be a finite number above 0"
    );
}

#[test]
fn every_command_carries_its_directive_position() {
    let p = folded("# c\n\nactor 1 size 2\n   camera position 1 2 3\ntime 4\nactor 2 color 1 1 1\n");
    let lines: Vec<(u32, u32, u32)> = main_fn(&p).lines.iter().map(|e| (e.pc, e.line, e.col)).collect();
    assert_eq!(lines, [(0, 3, 1), (3, 4, 4), (8, 6, 1)]);
}
