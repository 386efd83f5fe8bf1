//! A fiber is bound to the verified code it was started on, and the
//! register interpreter trusts that code: the checks it no longer makes
//! (an unknown opcode, running past the end of a function, a call of a
//! missing function, a `LOADKX` without its `EXTRAARG`) are verifier
//! rules, and a hostile bundle breaking each is refused by the loader.
//! See ARCHITECTURE.md, "Nothing downstream of the verifier re-checks
//! structure".

use animkit_vm::engine::codec::{self, LoadError};
use animkit_vm::engine::interp::{Args, Bindings, Domain, Env, Exit, Fiber, Flow, run};
use animkit_vm::engine::isa::{Insn, Op};
use animkit_vm::engine::program::*;
use animkit_vm::engine::verify::{LiveModule, verify};

/// Logs each domain op; `ECHO` suspends (as a `sleep` would).
#[derive(Default)]
struct Log(Vec<String>);

impl Domain for Log {
    type Error = std::convert::Infallible;
    fn op(&mut self, op: Op, args: Args<'_>, _env: &Env<'_>) -> Result<Flow, Self::Error> {
        self.0.push(format!("{op} {}", args.str(0)));
        Ok(if op == Op::Echo { Flow::Suspend(1.0) } else { Flow::Continue })
    }
}

const HALT: Insn = Insn::abc(Op::Halt, 0, 0, 0);

/// `ECHO "hello"; HALT` (string 1).
fn echo() -> Function {
    Function {
        name: 0,
        code: vec![Insn::ax(Op::Echo, 0), HALT],
        consts: vec![1.0],
        kinds: vec![ConstKind::Str],
        ..Function::default()
    }
}

fn animator(functions: Vec<Function>) -> Program {
    Program {
        strings: vec!["main".into(), "hello".into()],
        modules: vec![Module {
            name: 0,
            language: Language::Animator,
            functions,
            states: vec![],
            entry: Some(0),
            source: None,
        }],
    }
}

#[test]
fn a_fiber_from_module_a_is_refused_on_module_b() {
    let a = verify(animator(vec![echo()])).unwrap();
    // The same code, verified apart: still other code.
    let b = verify(animator(vec![echo()])).unwrap();
    let (ca, cb) = (a.code(0).unwrap(), b.code(0).unwrap());
    let mut log = Log::default();
    let mut fiber = Fiber::new(ca, 0);
    assert_eq!(run(&mut fiber, ca, &mut Bindings::default(), &mut log), Ok(Exit::Suspended(1.0)));
    let err = run(&mut fiber, cb, &mut Bindings::default(), &mut log).unwrap_err();
    assert_eq!(err.message, "this fiber was started on other code than it is run on");
    assert_eq!((err.function, err.pc, err.position), (0, 1, None));
    assert_eq!(err.to_string(), "function 0 instruction 1: this fiber was started on other code than it is run on");
    // The fiber is finished (a caller looping on errors stops), and ran
    // nothing of module B.
    assert!(fiber.is_finished());
    assert_eq!(log.0, ["ECHO hello"]);
    assert_eq!(run(&mut fiber, cb, &mut Bindings::default(), &mut log), Ok(Exit::Halted));
    // A clone of the proof is the same code; restarting binds anew.
    let a2 = a.clone();
    let mut fiber = Fiber::new(ca, 0);
    assert_eq!(run(&mut fiber, ca, &mut Bindings::default(), &mut log), Ok(Exit::Suspended(1.0)));
    assert_eq!(run(&mut fiber, a2.code(0).unwrap(), &mut Bindings::default(), &mut log), Ok(Exit::Halted));
    fiber.restart(cb, 0);
    assert_eq!(run(&mut fiber, cb, &mut Bindings::default(), &mut log), Ok(Exit::Suspended(1.0)));
}

#[test]
fn a_fiber_is_refused_on_another_module_of_its_program() {
    let mut p = animator(vec![echo()]);
    let second = p.modules[0].clone();
    p.modules.push(second);
    let p = verify(p).unwrap();
    let mut fiber = Fiber::new(p.code(0).unwrap(), 0);
    let err = run(&mut fiber, p.code(1).unwrap(), &mut Bindings::default(), &mut Log::default()).unwrap_err();
    assert_eq!(err.message, "this fiber was started on other code than it is run on");
}

/// A live module keeps its identity while it only grows; any other change
/// (a new entry, a released or reused slot, renumbered strings) makes a
/// fiber started before it other code's.
#[test]
fn a_live_module_that_only_grows_keeps_its_fibers() {
    let strings: Vec<String> = vec!["main".into(), "hello".into()];
    let mut live = LiveModule::animator(0, None);
    live.set_entry(echo()).unwrap();
    let mut log = Log::default();
    let mut fiber = Fiber::new(live.code(&strings).unwrap(), 0);
    let exit = run(&mut fiber, live.code(&strings).unwrap(), &mut Bindings::default(), &mut log);
    assert_eq!(exit, Ok(Exit::Suspended(1.0)));
    let id = live.install(Function { code: vec![Insn::ax(Op::Ret, 0)], ..Function::default() }).unwrap();
    assert_eq!(id, 1);
    let exit = run(&mut fiber, live.code(&strings).unwrap(), &mut Bindings::default(), &mut log);
    assert_eq!(exit, Ok(Exit::Halted), "appending a function keeps the module's identity");

    let changes: [(&str, fn(&mut LiveModule)); 5] = [
        ("set_entry", |l| l.set_entry(echo()).unwrap()),
        ("take_entry", |l| {
            let e = l.take_entry();
            l.set_entry(e).unwrap();
        }),
        ("release", |l| {
            l.release(1).unwrap();
        }),
        ("install in a released slot", |l| {
            l.install(Function { code: vec![Insn::ax(Op::Ret, 0)], ..Function::default() }).unwrap();
        }),
        ("renumber_strings", |l| {
            l.renumber_strings(|s| s);
            l.set_entry(echo()).unwrap();
        }),
    ];
    for (what, change) in changes {
        let mut fiber = Fiber::new(live.code(&strings).unwrap(), 0);
        let exit = run(&mut fiber, live.code(&strings).unwrap(), &mut Bindings::default(), &mut log);
        assert_eq!(exit, Ok(Exit::Suspended(1.0)), "{what}");
        change(&mut live);
        let err = run(&mut fiber, live.code(&strings).unwrap(), &mut Bindings::default(), &mut log).unwrap_err();
        assert_eq!(err.message, "this fiber was started on other code than it is run on", "{what}");
        assert!(fiber.is_finished(), "{what}");
    }
}

/// A stale binding (one naming a function the module does not have) is
/// still checked, at the call: bindings outlive a module.
#[test]
fn a_binding_to_a_missing_function_is_an_error_at_the_call() {
    let p = animator(vec![Function {
        name: 0,
        code: vec![Insn::ax(Op::CallN, 0), HALT],
        consts: vec![1.0],
        kinds: vec![ConstKind::Str],
        ..Function::default()
    }]);
    let p = verify(p).unwrap();
    let code = p.code(0).unwrap();
    let mut bindings = Bindings::default();
    bindings.bind(1, 7);
    let mut fiber = Fiber::new(code, 0);
    let err = run(&mut fiber, code, &mut bindings, &mut Log::default()).unwrap_err();
    assert_eq!(err.message, "binding `hello` nested more than 1000 invocations deep (unbounded recursion?)");
    assert_eq!((err.function, err.pc), (0, 0));
    // The fiber goes on after the call.
    assert_eq!(run(&mut fiber, code, &mut bindings, &mut Log::default()), Ok(Exit::Halted));
    // A fiber restarted at a missing function is refused when it runs.
    let mut fiber = Fiber::new(code, 3);
    let err = run(&mut fiber, code, &mut bindings, &mut Log::default()).unwrap_err();
    assert_eq!(err.message, "call of missing function 3");
    assert!(fiber.is_finished());
}

/// Each check the interpreter no longer makes is a verifier rule: a
/// bundle breaking it is refused by the loader, naming the rule.
#[test]
fn hostile_bundles_the_interpreter_would_trust_are_refused() {
    let cases: [(&str, Vec<Insn>, &str); 5] = [
        ("unknown opcode", vec![Insn(0xfe), HALT], "opcode"),
        ("running past the end", vec![Insn::ax(Op::Nop, 0)], "fallthrough"),
        ("an empty function", vec![], "fallthrough"),
        ("a call of a missing function", vec![Insn::ax(Op::Call, 5), HALT], "call"),
        ("LOADKX without its EXTRAARG", vec![Insn::abc(Op::LoadKX, 0, 0, 0)], "loadk"),
    ];
    for (what, code, rule) in cases {
        let mut f = echo();
        f.code = code;
        f.nregs = 1;
        let p = animator(vec![f]);
        assert_eq!(animkit_vm::engine::verify::verify_program(&p).map_err(|e| e.rule), Err(rule), "{what}");
        let bytes = codec::encode(&p);
        match codec::load(&bytes) {
            Err(LoadError::Invalid(e)) => assert_eq!(e.rule, rule, "{what}"),
            // The decoder refuses an unassigned opcode byte first.
            Err(LoadError::Malformed(m)) => {
                assert!(rule == "opcode" && m.contains("unknown opcode 0xfe"), "{what}: {m}")
            }
            other => panic!("{what}: {other:?}"),
        }
    }
}
