//! The work the interpreter counts for each Animator op is what the op's
//! row of the ISA table says (`crate::isa::Work`), and only a row that says
//! so charges nothing.

use super::Machine;
use super::machine::HEAVY_WORK;
use super::record::Recorder;
use crate::interp::{Bindings, Fiber, Limits, run};
use crate::isa::{Arg, Insn, Op, OpClass, Work};
use crate::program::{ConstKind, Function, Language, Module, Program};

/// The one string every `Str` argument names: 200 bytes.
const TEXT_BYTES: usize = 200;
/// Every `Points` argument's point count.
const POINTS: usize = 5;
/// Every whole-number argument's value, or its maximum if smaller.
const WHOLE: u32 = 300;

/// A block for `op`'s signature: numbers 1, whole numbers [`WHOLE`] (or
/// their maximum), flags 1, the string, [`POINTS`] points.
fn block(op: Op) -> (Vec<f64>, Vec<ConstKind>) {
    let (mut values, mut kinds) = (Vec::new(), Vec::new());
    for arg in op.info().block {
        match *arg {
            Arg::Num => values.push(1.0),
            Arg::UInt => values.push(WHOLE as f64),
            Arg::Max(max) => values.push(WHOLE.min(max) as f64),
            Arg::Bool => values.push(1.0),
            Arg::Str => {
                values.push(0.0);
                kinds.push(ConstKind::Str);
                continue;
            }
            Arg::Points => {
                values.push(POINTS as f64);
                values.extend((0..2 * POINTS).map(|i| i as f64));
                kinds.resize(values.len() - 1, ConstKind::Num);
            }
            Arg::Func => values.push(0.0),
        }
        kinds.resize(values.len(), ConstKind::Num);
    }
    (values, kinds)
}

/// What the row says `op` costs on [`block`]'s arguments, worked out from
/// the numbers above.
fn row_says(op: Op) -> u64 {
    let points = if op.info().block.contains(&Arg::Points) { POINTS as u64 } else { 0 };
    let whole = |i: u8| match op.info().block[i as usize] {
        Arg::Max(max) => WHOLE.min(max) as u64,
        _ => WHOLE as u64,
    };
    points
        + match op.info().work {
            Work::Free | Work::Measured => 0,
            Work::Text(_) => (TEXT_BYTES / 64) as u64,
            Work::Bytes(_) => TEXT_BYTES as u64,
            Work::Count(i) => whole(i),
            Work::Heavy => HEAVY_WORK,
            Work::Pixels(w, h) => (whole(w) * whole(h) / 16).max(HEAVY_WORK),
        }
}

/// Runs `op` on [`block`]'s arguments, then `HALT`, under a whole-run
/// budget: the work counted beyond one unit per instruction.
fn charged(op: Op) -> u64 {
    let (consts, kinds) = block(op);
    let function = Function {
        name: 0,
        nregs: 0,
        code: vec![Insn::ax(op, 0), Insn::ax(Op::Halt, 0)],
        consts,
        kinds,
        lines: vec![],
    };
    let module = Module {
        name: 0,
        language: Language::Animator,
        functions: vec![function],
        states: vec![],
        entry: Some(0),
        source: None,
    };
    let program = Program { strings: vec!["x".repeat(TEXT_BYTES)], modules: vec![module] };
    let program = crate::verify::verify(program).unwrap_or_else(|e| panic!("{op}: {e:?}"));
    let code = program.code(0).expect("module 0");
    let limits = Limits { whole_run: true, ..Limits::default() };
    let mut fiber = Fiber::new(code, 0).with_limits(limits);
    let mut machine = Machine::new(Recorder::default());
    // Some ops fail on these arguments (a viewport with no width, a
    // cursor bitmap of the wrong length): the work is charged first.
    let _ = run(&mut fiber, code, &mut Bindings::default(), &mut machine);
    fiber.work() - fiber.instructions()
}

#[test]
fn every_animator_op_is_charged_what_its_row_says() {
    let ops: Vec<Op> = Op::ALL.iter().copied().filter(|op| op.info().class == OpClass::Animator).collect();
    assert_eq!(ops.len(), 0x64 - 0x30 + 1);
    for op in ops {
        let work = charged(op);
        assert_eq!(work, row_says(op), "{op}");
        let free = matches!(op.info().work, Work::Free | Work::Measured) && !op.info().block.contains(&Arg::Points);
        assert_eq!(work == 0, free, "{op} is charged {work}");
    }
}

#[test]
fn the_rows_charge_what_the_machine_always_charged() {
    // Today's charges, op by op (issue 43 moved them into the table).
    assert_eq!(charged(Op::Frame), HEAVY_WORK);
    assert_eq!(charged(Op::Resize), HEAVY_WORK);
    assert_eq!(charged(Op::Circle), 300);
    assert_eq!(charged(Op::Text), 3);
    assert_eq!(charged(Op::EchoPt), 3 + 5);
    assert_eq!(charged(Op::ImageSet), 200);
    assert_eq!(charged(Op::ImageNew), 300 * 300 / 16);
    assert_eq!(charged(Op::Area), 5);
    assert_eq!(charged(Op::Line), 0);
    assert_eq!(charged(Op::ViewportMacro), 0);
}

/// `viewport NAME` ([`Work::Measured`]) costs nothing of its own: it is
/// charged what measuring took, the measuring run charging each op of the
/// macro its own row's work.
#[test]
fn a_measured_macro_is_charged_its_rows() {
    let lines: Vec<f64> = std::iter::once(POINTS as f64).chain((0..2 * POINTS).map(|i| i as f64)).collect();
    let entry = Function {
        name: 0,
        nregs: 0,
        // BIND name := [function 1]; VIEWPORTM name, no aspect; HALT.
        code: vec![Insn::ax(Op::Bind, 0), Insn::ax(Op::ViewportMacro, 2), Insn::ax(Op::Halt, 0)],
        consts: vec![0.0, 1.0, 0.0, 0.0],
        kinds: vec![ConstKind::Str, ConstKind::Num, ConstKind::Str, ConstKind::Num],
        lines: vec![],
    };
    let body = Function {
        name: 0,
        nregs: 0,
        code: vec![Insn::ax(Op::Lines, 0), Insn::ax(Op::Ret, 0)],
        kinds: vec![ConstKind::Num; lines.len()],
        consts: lines,
        lines: vec![],
    };
    let module = Module {
        name: 0,
        language: Language::Animator,
        functions: vec![entry, body],
        states: vec![],
        entry: Some(0),
        source: None,
    };
    let program = Program { strings: vec!["m".into()], modules: vec![module] };
    let program = crate::verify::verify(program).expect("verified");
    let code = program.code(0).expect("module 0");
    let limits = Limits { whole_run: true, ..Limits::default() };
    let mut fiber = Fiber::new(code, 0).with_limits(limits);
    let mut machine = Machine::new(Recorder::default());
    let exit = run(&mut fiber, code, &mut Bindings::default(), &mut machine);
    assert!(exit.is_ok(), "{exit:?}");
    // Measuring: one unit to copy the one binding, then LINES (1 + its 5
    // points) and RET.
    assert_eq!(fiber.work() - fiber.instructions(), 1 + (1 + POINTS as u64) + 1);
    assert_eq!(fiber.instructions(), 3);
}
