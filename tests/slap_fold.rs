//! Constant folding changes no result: every example and many generated
//! scenes, compiled with folding on and off, with and without debug info,
//! through bundle bytes, give the same `SceneSim` state bit for bit at every
//! frame (actors with their poses, the camera, the runtime errors), and
//! the same as the IR's own values. A proptest property does the same for
//! random arithmetic (negative zero, divisions that round, long chains).

use crate::common;
use animkit_compiler::{Options, Source, compile};
use animkit_vm::engine::slap::SceneSim;
use proptest::prelude::*;
use std::fmt::Write;
use std::sync::Arc;

/// The scene of `src` compiled with `options`, through bundle bytes.
fn scene(src: &str, options: &Options) -> SceneSim {
    let program = compile(&[Source::new("s.slap", src)], options).unwrap_or_else(|e| panic!("{e}\n{src}"));
    let program = animkit_vm::engine::codec::load(&animkit_vm::engine::codec::encode(&program)).unwrap();
    SceneSim::with_index(Arc::new(program), 0).unwrap()
}

/// Everything an observer sees at the scene's frame, `Debug`-printed so
/// that `-0.0` and `0.0` differ (a bit-for-bit comparison). Error messages
/// without their position (stripped bundles have none).
fn state(s: &SceneSim) -> String {
    let actors: Vec<_> = s.actors().collect();
    let errors: Vec<String> = s.errors().iter().map(|e| format!("{} {}", e.frame, e.error.message)).collect();
    format!("{actors:?}\n{:?}\n{errors:?}", s.camera())
}

/// Plays `src` in every way and asserts the states agree every frame.
fn same_every_frame(src: &str) {
    let options = [
        Options { strip: false, fold: true, strict: false },
        Options { strip: false, fold: false, strict: false },
        Options { strip: true, fold: true, strict: false },
        Options { strip: true, fold: false, strict: false },
    ];
    let mut scenes: Vec<SceneSim> = options.iter().map(|o| scene(src, o)).collect();
    let last = scenes[0].length() + 3;
    for frame in 0..=last {
        let states: Vec<String> = scenes.iter().map(state).collect();
        for (o, s) in options.iter().zip(&states).skip(1) {
            assert_eq!(&states[0], s, "frame {frame}, {o:?}\n{src}");
        }
        for s in &mut scenes {
            s.step();
        }
    }
}

#[test]
fn the_examples_fold_to_the_same_trace() {
    for name in ["two_actors", "story"] {
        let src = std::fs::read_to_string(common::path(format!("examples/{name}.slap"))).unwrap();
        same_every_frame(&src);
    }
}

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

/// A random arithmetic argument over the defines `a`, `b`, `c` (nonzero):
/// no spaces outside parentheses.
fn arith(rng: &mut Rng, depth: u32) -> String {
    if depth == 0 || rng.below(3) == 0 {
        return rng.pick(&["a", "b", "c", "0.1", "3", ".7", "1e-3", "PI", "0"]).to_string();
    }
    let l = arith(rng, depth - 1);
    let r = arith(rng, depth - 1);
    match rng.below(6) {
        0 => format!("({l} + {r})"),
        1 => format!("({l} - {r})"),
        2 => format!("({l} * {r})"),
        3 => format!("({l})/c"),
        4 => format!("-({l})"),
        _ => format!("({l})*{}", rng.pick(&["a", "-b", "0.3"])),
    }
}

/// A scene with arithmetic everywhere, multi-value and redefined defines,
/// both time forms, out-of-order absolute times, every attribute and
/// runtime errors (sizes that are not above 0).
fn generated(rng: &mut Rng) -> String {
    let mut s = String::from("define PI 3.14159265358979\ndefine a 0.1\ndefine b -2.5\ndefine c 3\n");
    s.push_str("define red 1 0 0\ndefine pos a b\n");
    let mut time = 0u64;
    for _ in 0..20 + rng.below(30) {
        match rng.below(10) {
            0 => {
                time += rng.below(20);
                let _ = writeln!(s, "time +{}", rng.below(20));
            }
            1 => {
                let _ = writeln!(s, "timep (c * {})", rng.below(5));
            }
            2 => {
                let t = rng.below(time + 40);
                let _ = writeln!(s, "time {t}");
                time = t;
            }
            3 => {
                let _ = writeln!(s, "define a {}", arith(rng, 2));
            }
            _ => {}
        }
        let id = rng.below(4);
        let e = |rng: &mut Rng| arith(rng, 3);
        let line = match rng.below(12) {
            0 => format!("actor {id} action {}", rng.below(12)),
            1 => format!("actor {id} direction {}", e(rng)),
            2 => format!("actor {id} position {} {}", e(rng), e(rng)),
            3 => format!("actor {id} position {} {} {}", e(rng), e(rng), e(rng)),
            4 => format!("actor {id} position pos"),
            5 => format!("actor {id} color {} {} {}", e(rng), e(rng), e(rng)),
            6 => format!("actor {id} color red"),
            7 => format!("actor {id} size {}", e(rng)),
            8 => format!("camera position {} {} {}", e(rng), e(rng), e(rng)),
            9 => format!("camera direction {} {} 1", e(rng), e(rng)),
            10 => format!("camera direction {} {}", e(rng), e(rng)),
            _ => format!("actor {id} action {}", rng.pick(&["2", "10", "(c*3)", "(c+1)"])),
        };
        let _ = writeln!(s, "{line}");
    }
    s
}

#[test]
fn generated_scenes_fold_to_the_same_trace() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut checked = 0;
    while checked < 200 {
        let src = generated(&mut rng);
        // Some generated scenes divide by zero or overflow: the checker's
        // business, not this test's.
        if animkit_compiler::slap::front(&src).is_err() {
            continue;
        }
        same_every_frame(&src);
        checked += 1;
    }
}

/// A random expression without names, as SLAP text, with spaces inside
/// parentheses only.
fn expr() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("0".to_string()),
        Just("1".to_string()),
        Just(".1".to_string()),
        Just("3".to_string()),
        Just("1e-7".to_string()),
        Just("123456.789".to_string()),
        (1u32..1000).prop_map(|n| n.to_string()),
    ];
    leaf.prop_recursive(6, 40, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone(), prop_oneof![Just('+'), Just('-'), Just('*'), Just('/')])
                .prop_map(|(l, r, op)| format!("({l} {op} {r})")),
            inner.clone().prop_map(|e| format!("-({e})")),
            (inner.clone(), inner.clone()).prop_map(|(l, r)| format!("{l}*-{r}")),
            // Calls are folded whatever the option; the VM computes the
            // arithmetic around them.
            (inner.clone(), inner.clone(), prop_oneof![Just("atan2"), Just("min"), Just("max")])
                .prop_map(|(l, r, f)| format!("{f}({l}, {r})")),
            (inner, prop_oneof![Just("sin"), Just("cos"), Just("tan"), Just("abs"), Just("floor"), Just("sqrt")])
                .prop_map(|(e, f)| format!("{f}({e})")),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn arithmetic_folds_to_the_same_bits(x in expr(), y in expr(), z in expr()) {
        let src = format!("actor 1 position {x} {y} {z}\nactor 2 color {z} {x} {y}\ncamera position {y} {z} {x}\n");
        let Ok(checked) = animkit_compiler::slap::front(&src) else {
            // A division by zero or an overflow: nothing to lower.
            return Ok(());
        };
        let on = scene(&src, &Options::default());
        let off = scene(&src, &Options { strip: false, fold: false, strict: false });
        prop_assert_eq!(state(&on), state(&off));
        // And both are the IR's values, bit for bit (the camera keeps its
        // position as given; an actor's goes through the motion formula,
        // which turns -0 into 0).
        let values: Vec<u64> = checked.ir.commands[2].args().iter().map(|v| v.value.to_bits()).collect();
        let p = off.camera().position;
        prop_assert_eq!(values, p.iter().map(|v| v.to_bits()).collect::<Vec<_>>());
    }
}

/// The arguments of a command, for the property above.
trait Args {
    fn args(&self) -> &[animkit_compiler::slap::ir::Value];
}

impl Args for animkit_compiler::slap::ir::TimedCommand {
    fn args(&self) -> &[animkit_compiler::slap::ir::Value] {
        match &self.command {
            animkit_compiler::slap::ir::Command::Actor { args, .. } => args,
            animkit_compiler::slap::ir::Command::Camera { args, .. } => args,
        }
    }
}
