//! One test per verifier rule (see `animkit_vm::engine::verify`): a minimal program
//! that breaks exactly that rule is rejected with the rule's name, and the
//! same program with the fault fixed is accepted.

use animkit_vm::engine::isa::{Insn, Op};
use animkit_vm::engine::program::*;
use animkit_vm::engine::verify::verify_program;

fn animator(code: Vec<Insn>, consts: Vec<(f64, ConstKind)>) -> Program {
    Program {
        strings: vec!["m".into(), "main".into(), "hello".into()],
        modules: vec![Module {
            name: 0,
            language: Language::Animator,
            functions: vec![Function {
                name: 1,
                nregs: 2,
                code,
                consts: consts.iter().map(|c| c.0).collect(),
                kinds: consts.iter().map(|c| c.1).collect(),
                lines: vec![],
            }],
            states: vec![],
            entry: Some(0),
            source: None,
        }],
    }
}

/// A SLAP module: one entry function with `nregs` registers.
fn slap(code: Vec<Insn>, nregs: u8) -> Program {
    let mut p = animator(code, vec![(1.0, ConstKind::Num)]);
    p.modules[0].language = Language::Slap;
    p.modules[0].functions[0].nregs = nregs;
    p
}

fn sprite(code: Vec<Insn>, entries: &[u32]) -> Program {
    Program {
        strings: vec!["m".into(), "S0".into(), "S1".into(), "ev".into()],
        modules: vec![Module {
            name: 0,
            language: Language::Sprite,
            functions: vec![Function { name: 0, code, ..Function::default() }],
            states: entries
                .iter()
                .enumerate()
                .map(|(i, &e)| State { name: 1 + i as u32, category: 1, entry: e })
                .collect(),
            entry: None,
            source: None,
        }],
    }
}

fn rule(p: &Program) -> &'static str {
    verify_program(p).map(|_| "ok").unwrap_or_else(|e| e.rule)
}

const HALT: Insn = Insn::abc(Op::Halt, 0, 0, 0);
const N: ConstKind = ConstKind::Num;
const S: ConstKind = ConstKind::Str;

#[test]
fn strings() {
    let mut p = animator(vec![Insn::ax(Op::Echo, 0), HALT], vec![(2.0, S)]);
    assert_eq!(rule(&p), "ok");
    p.modules[0].functions[0].consts[0] = 3.0;
    assert_eq!(rule(&p), "strings");
    let mut p = sprite(vec![Insn::ax(Op::Event, 3), Insn::ax(Op::Wait, 1), HALT], &[0]);
    assert_eq!(rule(&p), "ok");
    p.modules[0].functions[0].code[0] = Insn::ax(Op::Event, 4);
    assert_eq!(rule(&p), "strings");
    let mut p = sprite(vec![HALT], &[0]);
    p.modules[0].states[0].category = 99;
    assert_eq!(rule(&p), "strings");
    let mut p = sprite(vec![HALT], &[0]);
    p.modules[0].states[0].name = 99;
    assert_eq!(rule(&p), "strings");
    let mut p = animator(vec![HALT], vec![]);
    p.modules[0].name = 3;
    assert_eq!(rule(&p), "strings");
    let mut p = animator(vec![HALT], vec![]);
    p.modules[0].functions[0].name = 3;
    assert_eq!(rule(&p), "strings");
    // A string constant must be a whole number below the table's length.
    let mut p = animator(vec![Insn::ax(Op::Echo, 0), HALT], vec![(2.5, S)]);
    assert_eq!(rule(&p), "strings");
    p.modules[0].functions[0].consts[0] = -1.0;
    assert_eq!(rule(&p), "strings");
}

#[test]
fn module_shape() {
    let mut p = sprite(vec![HALT], &[0]);
    p.modules[0].states.clear();
    assert_eq!(rule(&p), "module-shape");
    let mut p = animator(vec![HALT], vec![]);
    p.modules[0].entry = Some(1);
    assert_eq!(rule(&p), "module-shape");
    let mut p = animator(vec![HALT], vec![]);
    p.modules[0].entry = None;
    assert_eq!(rule(&p), "module-shape");
    // At most MAX_STATES states (ids are 16-bit).
    let max = animkit_vm::engine::limits::MAX_STATES;
    let mut p = sprite(vec![HALT], &[0]);
    p.strings = (0..=max + 1).map(|i| format!("s{i}")).collect();
    p.modules[0].states = (0..max).map(|i| State { name: i as u32 + 1, category: 1, entry: 0 }).collect();
    assert_eq!(rule(&p), "ok");
    p.modules[0].states.push(State { name: max as u32 + 1, category: 1, entry: 0 });
    assert_eq!(rule(&p), "module-shape");
    let mut p = sprite(vec![HALT], &[0]);
    p.modules[0].functions.push(Function { name: 0, code: vec![HALT], ..Function::default() });
    assert_eq!(rule(&p), "module-shape");
    let mut p = sprite(vec![HALT], &[0]);
    p.modules[0].entry = Some(0);
    assert_eq!(rule(&p), "module-shape");
    let mut p = animator(vec![HALT], vec![]);
    p.modules[0].states.push(State { name: 0, category: 0, entry: 0 });
    assert_eq!(rule(&p), "module-shape");
}

#[test]
fn state_entry() {
    assert_eq!(rule(&sprite(vec![HALT], &[1])), "state-entry");
    let mut p = sprite(vec![HALT, HALT], &[0, 1]);
    assert_eq!(rule(&p), "ok");
    p.modules[0].states[1].name = 1;
    assert_eq!(rule(&p), "state-entry");
}

#[test]
fn consts() {
    let mut p = animator(vec![HALT], vec![(1.0, N)]);
    p.modules[0].functions[0].kinds.clear();
    assert_eq!(rule(&p), "consts");
}

#[test]
fn lines() {
    let mut p = animator(vec![HALT, HALT], vec![]);
    p.modules[0].functions[0].lines = vec![LineEntry { pc: 1, line: 1, col: 1 }, LineEntry { pc: 0, line: 1, col: 1 }];
    assert_eq!(rule(&p), "lines");
    p.modules[0].functions[0].lines = vec![LineEntry { pc: 2, line: 1, col: 1 }];
    assert_eq!(rule(&p), "lines");
}

#[test]
fn opcode() {
    assert_eq!(rule(&animator(vec![Insn(0xfe), HALT], vec![])), "opcode");
}

#[test]
fn op_class() {
    assert_eq!(rule(&animator(vec![Insn::ax(Op::Sprite, 1), HALT], vec![])), "op-class");
    assert_eq!(rule(&sprite(vec![Insn::abc(Op::Frame, 0, 0, 0), HALT], &[0])), "op-class");
    assert_eq!(rule(&sprite(vec![Insn::abc(Op::Ret, 0, 0, 0)], &[0])), "op-class");
    // SLAP: generic and SLAP ops only, and SLAP ops nowhere else.
    let generic = vec![Insn::abx(Op::LoadK, 0, 0), Insn::abc(Op::Add, 1, 0, 0), Insn::ax(Op::Wait, 1)];
    let mut code = generic.clone();
    code.extend([Insn::r(Op::Size, 0), Insn::r(Op::CamAngles, 0), HALT]);
    assert_eq!(rule(&slap(code, 4)), "ok");
    assert_eq!(rule(&slap(vec![Insn::ax(Op::Frame, 0), HALT], 4)), "op-class");
    assert_eq!(rule(&slap(vec![Insn::ax(Op::Line, 0), HALT], 4)), "op-class");
    assert_eq!(rule(&slap(vec![Insn::ax(Op::Sprite, 0), HALT], 4)), "op-class");
    let mut p = animator(vec![Insn::r(Op::Action, 0), HALT], vec![]);
    assert_eq!(rule(&p), "op-class");
    p.modules[0].functions[0].code[0] = Insn::r(Op::CamPos, 0);
    assert_eq!(rule(&p), "op-class");
    let e = verify_program(&p).unwrap_err();
    assert_eq!(
        e.to_string(),
        "module 0, function 0, instruction 0: CAMPOS is not allowed in an animator module [rule op-class]"
    );
    assert_eq!(rule(&sprite(vec![Insn::r(Op::Action, 0), HALT], &[0])), "op-class");
    // The camera extensions' ops: SLAP modules only, like the others.
    for op in [Op::CamLookAt, Op::CamFollow, Op::CamMove] {
        assert_eq!(rule(&slap(vec![Insn::r(op, 0), HALT], 4)), "ok", "{op}");
        assert_eq!(rule(&animator(vec![Insn::r(op, 0), HALT], vec![])), "op-class", "{op}");
        assert_eq!(rule(&sprite(vec![Insn::r(op, 0), HALT], &[0])), "op-class", "{op}");
    }
    let e = verify_program(&animator(vec![Insn::r(Op::CamFollow, 0), HALT], vec![])).unwrap_err();
    assert_eq!(
        e.to_string(),
        "module 0, function 0, instruction 0: CAMFOLLOW is not allowed in an animator module [rule op-class]"
    );
}

#[test]
fn unused_bits() {
    assert_eq!(rule(&animator(vec![Insn::abc(Op::Halt, 1, 0, 0)], vec![])), "unused-bits");
    assert_eq!(rule(&animator(vec![Insn::abc(Op::Move, 0, 1, 1), HALT], vec![])), "unused-bits");
    // A register window uses `A` only: B and C must be zero.
    assert_eq!(rule(&slap(vec![Insn::abc(Op::Action, 0, 0, 0), HALT], 2)), "ok");
    assert_eq!(rule(&slap(vec![Insn::abc(Op::Action, 0, 1, 0), HALT], 2)), "unused-bits");
    assert_eq!(rule(&slap(vec![Insn::abc(Op::Action, 0, 0, 1), HALT], 2)), "unused-bits");
}

#[test]
fn window() {
    // ACTION reads R[A], R[A+1]: the window must lie inside the registers.
    assert_eq!(rule(&slap(vec![Insn::r(Op::Action, 0), HALT], 2)), "ok");
    assert_eq!(rule(&slap(vec![Insn::r(Op::Action, 2), HALT], 4)), "ok");
    // One register short: the window's last element is missing.
    assert_eq!(rule(&slap(vec![Insn::r(Op::Action, 0), HALT], 1)), "window");
    assert_eq!(rule(&slap(vec![Insn::r(Op::Action, 3), HALT], 4)), "window");
    // The first register itself outside.
    assert_eq!(rule(&slap(vec![Insn::r(Op::Action, 4), HALT], 4)), "window");
    // The window's length comes from each op's signature.
    for (op, len) in [
        (Op::Position2, 3),
        (Op::Position3, 4),
        (Op::ActorColor, 4),
        (Op::CamDir, 3),
        (Op::CamAngles, 2),
        (Op::CamLookAt, 3),
        (Op::CamFollow, 3),
        (Op::CamMove, 4),
    ] {
        assert_eq!(rule(&slap(vec![Insn::r(op, 1), HALT], 1 + len)), "ok", "{op}");
        assert_eq!(rule(&slap(vec![Insn::r(op, 1), HALT], len)), "window", "{op}");
    }
    // No overflow at the top of the register file: 254 + 4 > 255.
    assert_eq!(rule(&slap(vec![Insn::r(Op::Position3, 252), HALT], 255)), "window");
    assert_eq!(rule(&slap(vec![Insn::r(Op::Position3, 251), HALT], 255)), "ok");
    assert_eq!(rule(&slap(vec![Insn::r(Op::Position3, 255), HALT], 255)), "window");
    let e = verify_program(&slap(vec![Insn::r(Op::Position3, 1), HALT], 4)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "module 0, function 0, instruction 0: POSITION3 reads registers 1..=4 (a window of 4), the function has 4 [rule window]"
    );
}

#[test]
fn registers() {
    assert_eq!(rule(&animator(vec![Insn::abc(Op::Add, 0, 1, 1), HALT], vec![])), "ok");
    assert_eq!(rule(&animator(vec![Insn::abc(Op::Add, 0, 1, 2), HALT], vec![])), "registers");
}

#[test]
fn loadk() {
    assert_eq!(rule(&animator(vec![Insn::abx(Op::LoadK, 0, 0), HALT], vec![(1.0, N)])), "ok");
    assert_eq!(rule(&animator(vec![Insn::abx(Op::LoadK, 0, 1), HALT], vec![(1.0, N)])), "loadk");
    assert_eq!(rule(&animator(vec![Insn::abx(Op::LoadK, 0, 0), HALT], vec![(2.0, S)])), "loadk");
    // LOADKX takes its constant index from the EXTRAARG after it.
    let wide = |k: u32, kind: ConstKind| {
        let mut pool = vec![(0.0, N); 70_000];
        pool.push((2.0, kind));
        rule(&animator(vec![Insn::abc(Op::LoadKX, 1, 0, 0), Insn::ax(Op::ExtraArg, k), HALT], pool))
    };
    assert_eq!(wide(69_999, N), "ok");
    assert_eq!(wide(70_000, N), "ok");
    assert_eq!(wide(70_000, S), "loadk");
    assert_eq!(wide(70_001, N), "loadk");
    let k = vec![(1.0, N)];
    assert_eq!(rule(&animator(vec![Insn::abc(Op::LoadKX, 0, 0, 0), Insn::ax(Op::Wait, 0), HALT], k.clone())), "loadk");
    assert_eq!(rule(&animator(vec![Insn::abc(Op::LoadKX, 0, 0, 0)], k.clone())), "loadk");
    // Its register is checked like any other.
    assert_eq!(rule(&animator(vec![Insn::abc(Op::LoadKX, 2, 0, 0), Insn::ax(Op::ExtraArg, 0), HALT], k)), "registers");
}

#[test]
fn jump() {
    assert_eq!(rule(&animator(vec![Insn::sj(Op::Jmp, 0), HALT], vec![])), "ok");
    assert_eq!(rule(&animator(vec![Insn::sj(Op::Jmp, 1), HALT], vec![])), "jump");
    assert_eq!(rule(&animator(vec![Insn::sj(Op::Jmp, -2), HALT], vec![])), "jump");
}

#[test]
fn call() {
    assert_eq!(rule(&animator(vec![Insn::ax(Op::Call, 0), HALT], vec![])), "ok");
    assert_eq!(rule(&animator(vec![Insn::ax(Op::Call, 1), HALT], vec![])), "call");
    let e = verify_program(&animator(vec![Insn::ax(Op::Call, 1), HALT], vec![])).unwrap_err();
    assert_eq!(e.to_string(), "module 0, function 0, instruction 0: CALL 1: the module has 1 functions [rule call]");
}

#[test]
fn wait() {
    assert_eq!(rule(&sprite(vec![Insn::ax(Op::Wait, 0), HALT], &[0])), "wait");
}

#[test]
fn enter() {
    assert_eq!(rule(&sprite(vec![Insn::ax(Op::Wait, 1), Insn::ax(Op::Enter, 0)], &[0])), "ok");
    assert_eq!(rule(&sprite(vec![Insn::ax(Op::Wait, 1), Insn::ax(Op::Enter, 1)], &[0])), "enter");
    let e = verify_program(&sprite(vec![Insn::ax(Op::Wait, 1), Insn::ax(Op::Enter, 1)], &[0])).unwrap_err();
    assert_eq!(e.to_string(), "module 0, function 0, instruction 1: ENTER 1: the module has 1 states [rule enter]");
}

#[test]
fn block() {
    let line = |consts: Vec<(f64, ConstKind)>| rule(&animator(vec![Insn::ax(Op::Line, 0), HALT], consts));
    assert_eq!(line(vec![(0.0, N), (0.0, N), (1.0, N), (1.0, N)]), "ok");
    assert_eq!(line(vec![(0.0, N), (0.0, N), (1.0, N)]), "block");
    assert_eq!(line(vec![(0.0, N), (0.0, N), (1.0, N), (f64::NAN, N)]), "block");
    assert_eq!(line(vec![(0.0, N), (0.0, N), (1.0, N), (2.0, S)]), "block");
    let lines = |consts: Vec<(f64, ConstKind)>| rule(&animator(vec![Insn::ax(Op::Lines, 0), HALT], consts));
    assert_eq!(lines(vec![(1.0, N), (0.0, N), (0.0, N)]), "ok");
    assert_eq!(lines(vec![(2.0, N), (0.0, N), (0.0, N)]), "block");
    assert_eq!(lines(vec![(1e300, N), (0.0, N), (0.0, N)]), "block");
    assert_eq!(lines(vec![(0.5, N), (0.0, N), (0.0, N)]), "block");
    let dash = |v: f64| rule(&animator(vec![Insn::ax(Op::Dash, 0), HALT], vec![(v, N)]));
    assert_eq!(dash(65535.0), "ok");
    assert_eq!(dash(-1.0), "block");
    assert_eq!(dash(1.5), "block");
    let keep = |v: f64| rule(&animator(vec![Insn::ax(Op::Keepalive, 0), HALT], vec![(v, N)]));
    assert_eq!(keep(1.0), "ok");
    assert_eq!(keep(2.0), "block");
    let bind = |v: f64| rule(&animator(vec![Insn::ax(Op::Bind, 0), HALT], vec![(2.0, S), (v, N)]));
    assert_eq!(bind(0.0), "ok");
    assert_eq!(bind(1.0), "block");
    assert_eq!(rule(&animator(vec![Insn::ax(Op::Line, 1 << 20), HALT], vec![])), "block");
    // `Max(n)`: sizes and counts the runtime allocates for.
    let circle =
        |n: f64| rule(&animator(vec![Insn::ax(Op::Circle, 0), HALT], vec![(0.0, N), (0.0, N), (1.0, N), (n, N)]));
    assert_eq!(circle(65536.0), "ok");
    assert_eq!(circle(65537.0), "block");
    assert_eq!(circle(2147483647.0), "block");
    let resize = |w: f64, h: f64| rule(&animator(vec![Insn::ax(Op::Resize, 0), HALT], vec![(w, N), (h, N)]));
    assert_eq!(resize(16384.0, 16384.0), "ok");
    assert_eq!(resize(16385.0, 1.0), "block");
    assert_eq!(resize(1.0, 16385.0), "block");
    let image = |w: f64| rule(&animator(vec![Insn::ax(Op::ImageNew, 0), HALT], vec![(w, N), (1.0, N), (2.0, S)]));
    assert_eq!(image(8192.0), "ok");
    assert_eq!(image(8193.0), "block");
    let set =
        |x: f64| rule(&animator(vec![Insn::ax(Op::ImageSet, 0), HALT], vec![(2.0, S), (x, N), (0.0, N), (2.0, S)]));
    assert_eq!(set(8192.0), "ok");
    assert_eq!(set(8193.0), "block");
    let text = |h: f64| {
        rule(&animator(vec![Insn::ax(Op::Text, 0), HALT], vec![(h, N), (2.0, N), (0.0, N), (0.0, N), (2.0, S)]))
    };
    assert_eq!(text(2.0), "ok");
    assert_eq!(text(3.0), "block");
    let colormap =
        |c: f64| rule(&animator(vec![Insn::ax(Op::Colormap, 0), HALT], vec![(c, N), (0.0, N), (0.0, N), (0.0, N)]));
    assert_eq!(colormap(0x10ffff as f64), "ok");
    assert_eq!(colormap(0x110000 as f64), "block");
    let hot = |c: f64| {
        let k = vec![(2.0, S), (2.0, S), (2.0, S), (c, N), (0.0, N)];
        rule(&animator(vec![Insn::ax(Op::DefCursor, 0), HALT], k))
    };
    assert_eq!(hot(31.0), "ok");
    assert_eq!(hot(32.0), "block");
    assert_eq!(dash(65536.0), "block");
    // `UInt`: whole numbers up to i32::MAX; `Func`: function indices.
    assert_eq!(keep(-0.0), "ok");
    assert_eq!(bind(-1.0), "block");
    // `Str`: a string constant, in range.
    assert_eq!(rule(&animator(vec![Insn::ax(Op::Echo, 0), HALT], vec![(2.0, N)])), "block");
    // A point count above MAX_POINTS, even with a pool that big.
    let max = animkit_vm::engine::limits::MAX_POINTS;
    let mut pool = vec![((max + 1) as f64, N)];
    pool.extend(std::iter::repeat_n((0.0, N), 2 * (max + 1)));
    assert_eq!(lines(pool.clone()), "block");
    pool[0].0 = max as f64;
    assert_eq!(lines(pool), "ok");
}

#[test]
fn block_checks_shared_point_lists_in_linear_time() {
    // 100 000 instructions all drawing the same list of 50 000 points:
    // checked once each in constant time, not 5e9 constant reads.
    let n = 50_000;
    let mut consts = vec![(n as f64, N)];
    consts.extend(std::iter::repeat_n((1.0, N), 2 * n));
    let mut code = vec![Insn::ax(Op::Poly, 0); 100_000];
    code.push(HALT);
    let t = animkit_test_support::cpu::ThreadTimer::start();
    assert_eq!(rule(&animator(code.clone(), consts.clone())), "ok");
    // The last number being NaN is found, and named.
    consts[2 * n].0 = f64::NAN;
    let e = verify_program(&animator(code, consts)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "module 0, function 0, instruction 0: POLY: constant 100000 is not a finite number [rule block]"
    );
    assert!(t.elapsed().as_secs() < 10, "{:?}", t.elapsed());
}

#[test]
fn state_names_are_checked_in_linear_time() {
    let n = 60_000u32;
    let mut p = sprite(vec![Insn::ax(Op::Wait, 1), HALT], &[0]);
    p.strings = (0..n + 1).map(|i| format!("s{i}")).collect();
    p.modules[0].states = (1..=n).map(|i| State { name: i, category: 1, entry: 0 }).collect();
    let t = animkit_test_support::cpu::ThreadTimer::start();
    assert_eq!(rule(&p), "ok");
    p.modules[0].states[n as usize - 1].name = 1;
    assert_eq!(rule(&p), "state-entry");
    assert!(t.elapsed().as_secs() < 10, "{:?}", t.elapsed());
}

#[test]
fn fallthrough() {
    assert_eq!(rule(&animator(vec![Insn::abc(Op::Nop, 0, 0, 0)], vec![])), "fallthrough");
    // LOADKX continues after its EXTRAARG: there must be an instruction there.
    let k = vec![(1.0, N)];
    assert_eq!(
        rule(&animator(vec![Insn::abc(Op::LoadKX, 0, 0, 0), Insn::ax(Op::ExtraArg, 0)], k.clone())),
        "fallthrough"
    );
    // An EXTRAARG on its own (a jump target, say) does nothing.
    assert_eq!(
        rule(&animator(vec![Insn::sj(Op::Jmp, 1), Insn::abc(Op::LoadKX, 0, 0, 0), Insn::ax(Op::ExtraArg, 0), HALT], k)),
        "ok"
    );
    assert_eq!(rule(&animator(vec![], vec![])), "fallthrough");
    assert_eq!(rule(&sprite(vec![Insn::ax(Op::Sprite, 1)], &[0])), "fallthrough");
}

#[test]
fn progress() {
    // JMP to itself.
    assert_eq!(rule(&animator(vec![Insn::sj(Op::Jmp, -1)], vec![])), "progress");
    // A loop of events without a wait.
    assert_eq!(rule(&sprite(vec![Insn::ax(Op::Event, 3), Insn::sj(Op::Jmp, -2)], &[0])), "progress");
    // The same loop with a WAIT is fine.
    assert_eq!(rule(&sprite(vec![Insn::ax(Op::Wait, 1), Insn::sj(Op::Jmp, -2)], &[0])), "ok");
    // Two states entering each other with no wait.
    assert_eq!(rule(&sprite(vec![Insn::ax(Op::Enter, 1), Insn::ax(Op::Enter, 0)], &[0, 1])), "progress");
}

/// The verifier hands out what it learnt (`ModuleInfo`): a sprite
/// module's resume points are the pc after each `WAIT`, ascending, the
/// same whether it verified the program or the loader did; other modules
/// have none. A SLAP module's entry `WAIT`s are summed (`SceneSim::length`).
#[test]
fn module_info_holds_the_resume_points() {
    let wait = |n| Insn::ax(Op::Wait, n);
    let code = vec![Insn::ax(Op::Sprite, 0), wait(2), Insn::ax(Op::Sprite, 1), wait(3), Insn::sj(Op::Jmp, -5)];
    let p = sprite(code, &[0]);
    let verified = animkit_vm::engine::verify::verify(p.clone()).unwrap();
    assert_eq!(verified.info(0).unwrap().resume_points(), [2, 4]);
    assert!(verified.info(1).is_none());
    let loaded = animkit_vm::engine::codec::load(&animkit_vm::engine::codec::encode(&p)).unwrap();
    assert_eq!(loaded.info(0), verified.info(0));
    assert_eq!(verified.info(0).unwrap().entry_waits(), 0);
    // A SLAP module: no resume points; its entry's WAITs add up to its
    // scene's length.
    let slap =
        animkit_vm::engine::verify::verify(slap(vec![wait(1), Insn::ax(Op::Nop, 0), wait(40), HALT], 1)).unwrap();
    assert_eq!(slap.info(0).unwrap().resume_points(), [0u32; 0]);
    assert_eq!(slap.info(0).unwrap().entry_waits(), 41);
}
