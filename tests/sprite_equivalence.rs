//! Property tests for the sprite DSL: formatter round trip, and the
//! reference interpreter (`tests/reference/sprite.rs`, written from the
//! spec over the AST) against the VM on the compiled bundle, tick by tick,
//! with `set_state` / `restart_state` calls at random ticks, before and
//! after a round trip through bundle bytes.
//!
//! Cases per property: 256 by default; set `PROPTEST_CASES` for more
//! (`tests/common/equivalence.rs`).

use crate::common;
use crate::reference::sprite as reference;

use animkit_compiler::sprite::format::format;
use animkit_compiler::{Options, Source, compile};
use animkit_grammar::Span;
use animkit_grammar::sprite::ast::{File, Frame, Name, Number, State};
use animkit_vm::engine::sprite::Sprites;
use proptest::prelude::*;
use reference::{RefInstance, RefTick};
use std::sync::Arc;

const STATES: [&str; 6] = ["Idle", "Walk", "Jump", "Fall", "Hit", "Run"];
const CATEGORIES: [&str; 3] = ["Jump", "Sheet", "Run"];
const EVENTS: [&str; 4] = ["a", "b", "step", "sfx"];

fn name(t: &str) -> Name {
    Name { text: t.to_string(), span: Span::default() }
}

fn number(v: u32) -> Number {
    Number { text: v.to_string(), negative: false, span: Span::default() }
}

#[derive(Clone, Debug)]
enum End {
    Loop,
    Wait,
    PingPong,
    Goto(usize),
}

fn frame_strategy() -> impl Strategy<Value = Frame> {
    (
        prop_oneof![1 => Just(0u32), 4 => 1u32..5],
        proptest::option::weighted(0.3, 0u32..9),
        proptest::collection::vec(0..EVENTS.len(), 0..3),
    )
        .prop_map(|(d, i, ev)| Frame::Timed {
            duration: number(d),
            index: i.map(number),
            events: ev.into_iter().map(|e| name(EVENTS[e])).collect(),
            span: Span::default(),
        })
}

fn state_strategy(n: usize) -> impl Strategy<Value = (Option<usize>, Vec<Frame>, End, Vec<usize>)> {
    (
        proptest::option::weighted(0.3, 0..CATEGORIES.len()),
        proptest::collection::vec(frame_strategy(), 1..6),
        prop_oneof![Just(End::Loop), Just(End::Wait), Just(End::PingPong), (0..n).prop_map(End::Goto)],
        proptest::collection::vec(0..EVENTS.len(), 0..2),
    )
}

fn file_strategy() -> impl Strategy<Value = File> {
    (1..=STATES.len())
        .prop_flat_map(|n| proptest::collection::vec(state_strategy(n), n))
        .prop_map(|states| {
            let states = states
                .into_iter()
                .enumerate()
                .map(|(i, (cat, mut frames, end, end_events))| {
                    let head = match end {
                        End::Loop => "_loop",
                        End::Wait => "_wait",
                        End::PingPong => "_pingpong",
                        End::Goto(t) => STATES[t],
                    };
                    frames.push(Frame::Control {
                        head: name(head),
                        events: end_events.into_iter().map(|e| name(EVENTS[e])).collect(),
                        span: Span::default(),
                    });
                    State {
                        name: name(STATES[i]),
                        category: cat.map(|c| name(CATEGORIES[c])),
                        frames,
                        span: Span::default(),
                    }
                })
                .collect();
            File { states, comments: Vec::new() }
        })
        // Only programs the compiler accepts (no state that spins within a
        // tick, `_pingpong` with two frames or more).
        .prop_filter("rejected by the checker", |f| animkit_compiler::sprite::check::check(f).is_ok())
}

/// `(tick, state index, restart?)` changes to apply before ticks.
fn changes_strategy() -> impl Strategy<Value = Vec<(usize, usize, bool)>> {
    proptest::collection::vec((0usize..80, 0..STATES.len(), any::<bool>()), 0..4)
}

fn compile_text(text: &str) -> animkit_vm::engine::verify::Verified<animkit_vm::Program> {
    let program =
        compile(&[Source::new("p.anim", text)], &Options::default()).unwrap_or_else(|e| panic!("{e}\n{text}"));
    animkit_vm::engine::verify::verify(program).unwrap()
}

fn vm_trace(sprites: &Sprites, start: &str, changes: &[(usize, usize, bool)], ticks: usize) -> Vec<RefTick> {
    let mut inst = sprites.instance(start).unwrap();
    let mut out = Vec::new();
    for t in 0..ticks {
        for &(at, s, restart) in changes {
            if at == t && s < sprites.state_count() {
                let name = sprites.state_name(s as u16).to_string();
                if restart { inst.restart_state(&name).unwrap() } else { inst.set_state(&name).unwrap() }
            }
        }
        inst.tick();
        let events = inst.drain_events().map(|e| sprites.event_name(e).to_string()).collect();
        out.push(RefTick {
            state: inst.state_name().into(),
            category: inst.category().into(),
            frame: inst.frame(),
            events,
        });
    }
    out
}

/// Where two traces first differ, with a few ticks of context, in a
/// compact form a person can read.
fn difference(vm: &[RefTick], reference: &[RefTick]) -> Option<String> {
    let line = |t: &RefTick| format!("{}[{}] frame {} events {:?}", t.state, t.category, t.frame, t.events);
    common::equivalence::first_difference(vm, reference, "tick", ("vm", "ref"), line, |a, b| a == b)
}

fn ref_trace(file: &File, start: &str, changes: &[(usize, usize, bool)], ticks: usize) -> Vec<RefTick> {
    let mut inst = RefInstance::new(file, start);
    let mut out = Vec::new();
    for t in 0..ticks {
        for &(at, s, restart) in changes {
            if at == t && s < file.states.len() {
                let name = &file.states[s].name.text;
                if restart { inst.restart_state(name) } else { inst.set_state(name) }
            }
        }
        out.push(inst.tick());
    }
    out
}

proptest! {
    #![proptest_config(common::equivalence::config())]

    #[test]
    fn format_then_parse_gives_the_same_tree(file in file_strategy()) {
        let text = format(&file, None);
        let (parsed, errors) = animkit_grammar::sprite::parse(&text);
        prop_assert!(errors.is_empty(), "{errors:?}\n{text}");
        prop_assert_eq!(parsed.without_spans(), file.without_spans());
        // Formatting is idempotent.
        prop_assert_eq!(format(&parsed, Some(&text)), text);
    }

    #[test]
    fn vm_matches_the_reference_tick_by_tick(file in file_strategy(), start in 0..STATES.len(), changes in changes_strategy()) {
        let start = &file.states[start % file.states.len()].name.text;
        let text = format(&file, None);
        let program = Arc::new(compile_text(&text));
        let sprites = Sprites::new(program.clone(), "p").unwrap();
        let expected = ref_trace(&file, start, &changes, 100);
        let got = vm_trace(&sprites, start, &changes, 100);
        prop_assert!(got == expected, "program:\n{text}start {start}, changes {changes:?}\n{}", difference(&got, &expected).unwrap_or_default());
        // The same after the bundle's bytes round trip.
        let loaded = Arc::new(animkit_vm::engine::codec::load(&animkit_vm::engine::codec::encode(&program)).unwrap());
        let sprites = Sprites::new(loaded, "p").unwrap();
        prop_assert!(vm_trace(&sprites, start, &changes, 100) == expected, "after a bundle round trip");
    }
}

/// Regressions and corner cases, kept as fixed cases.
#[test]
fn fixed_cases_match_the_reference() {
    let cases: [(&str, &str); 6] = [
        ("P: 0|a, 2, 0|b, _pingpong|t\n", "P"),
        ("A: 0|x, B\nB: 1|1, 0|y, _pingpong\n", "A"),
        ("A: 3|7, B\nB: 0|x, _wait\n", "A"),
        ("A: 0|2|e, 1, _loop|l\n", "A"),
        ("A: 2, 0|5, B|t\nB[A]: 0|u, 1, A\n", "A"),
        ("W: 1|s, 0|4, 2|1|t, _pingpong\n", "W"),
    ];
    for (text, start) in cases {
        let (file, errors) = animkit_grammar::sprite::parse(text);
        assert!(errors.is_empty());
        let program = Arc::new(compile_text(text));
        let sprites = Sprites::new(program, "p").unwrap();
        let changes = [(7, 0, false), (19, 0, true)];
        let (got, expected) = (vm_trace(&sprites, start, &changes, 60), ref_trace(&file, start, &changes, 60));
        assert!(got == expected, "{text}{}", difference(&got, &expected).unwrap_or_default());
    }
}

// ----- issue 17 §6: debug info stripped, events drained every k ticks,
// `is_waiting` every tick ---------------------------------------------------

/// What a host sees when it drains events only every `k` ticks: each tick's
/// state, category, frame and `is_waiting`, and the events of each drain
/// with the tick it came at (the last drain after the last tick).
#[derive(Debug, PartialEq, Eq)]
struct Observed {
    ticks: Vec<(String, String, u32, bool)>,
    drains: Vec<(usize, Vec<String>)>,
}

fn vm_observed(sprites: &Sprites, start: &str, changes: &[(usize, usize, bool)], ticks: usize, k: usize) -> Observed {
    let mut inst = sprites.instance(start).unwrap();
    let mut seen = Observed { ticks: Vec::new(), drains: Vec::new() };
    for t in 0..ticks {
        for &(at, s, restart) in changes {
            if at == t && s < sprites.state_count() {
                let name = sprites.state_name(s as u16).to_string();
                if restart { inst.restart_state(&name).unwrap() } else { inst.set_state(&name).unwrap() }
            }
        }
        inst.tick();
        seen.ticks.push((inst.state_name().into(), inst.category().into(), inst.frame(), inst.is_waiting()));
        if (t + 1) % k == 0 || t + 1 == ticks {
            seen.drains.push((t, inst.drain_events().map(|e| sprites.event_name(e).to_string()).collect()));
        }
    }
    seen
}

fn ref_observed(file: &File, start: &str, changes: &[(usize, usize, bool)], ticks: usize, k: usize) -> Observed {
    let mut inst = RefInstance::new(file, start);
    let mut seen = Observed { ticks: Vec::new(), drains: Vec::new() };
    let mut pending = Vec::new();
    for t in 0..ticks {
        for &(at, s, restart) in changes {
            if at == t && s < file.states.len() {
                let name = &file.states[s].name.text;
                if restart { inst.restart_state(name) } else { inst.set_state(name) }
            }
        }
        let tick = inst.tick();
        seen.ticks.push((tick.state, tick.category, tick.frame, inst.is_waiting()));
        pending.extend(tick.events);
        if (t + 1) % k == 0 || t + 1 == ticks {
            seen.drains.push((t, std::mem::take(&mut pending)));
        }
    }
    seen
}

/// The first tick or drain where two observations differ.
fn observed_difference(got: &Observed, want: &Observed) -> Option<String> {
    let tick = |t: &(String, String, u32, bool)| format!("{}[{}] frame {} waiting {}", t.0, t.1, t.2, t.3);
    let drain = |d: &(usize, Vec<String>)| format!("after tick {}: {:?}", d.0, d.1);
    common::equivalence::first_difference(&got.ticks, &want.ticks, "tick", ("vm", "ref"), tick, |a, b| a == b).or_else(
        || {
            common::equivalence::first_difference(&got.drains, &want.drains, "drain", ("vm", "ref"), drain, |a, b| {
                a == b
            })
        },
    )
}

proptest! {
    #![proptest_config(common::equivalence::config())]

    /// With and without debug info (`strip`), before and after the bundle's
    /// bytes round trip: the same states, frames and `is_waiting` every
    /// tick, and the same events however rarely the host drains them.
    #[test]
    fn vm_matches_the_reference_stripped_draining_every_k_ticks(
        file in file_strategy(),
        start in 0..STATES.len(),
        changes in changes_strategy(),
        strip in any::<bool>(),
        k in 1usize..12,
    ) {
        let start = &file.states[start % file.states.len()].name.text;
        let text = format(&file, None);
        let program = compile(&[Source::new("p.anim", &text)], &Options { strip, ..Options::default() })
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        let want = ref_observed(&file, start, &changes, 100, k);
        for (what, program) in [
            ("compiled", Arc::new(animkit_vm::engine::verify::verify(program.clone()).unwrap())),
            ("bundle", Arc::new(animkit_vm::engine::codec::load(&animkit_vm::engine::codec::encode(&program)).unwrap())),
        ] {
            let sprites = Sprites::new(program, "p").unwrap();
            let got = vm_observed(&sprites, start, &changes, 100, k);
            prop_assert!(
                got == want,
                "{what}, strip {strip}, drained every {k} ticks; program:\n{text}start {start}, changes {changes:?}\n{}",
                observed_difference(&got, &want).unwrap_or_default()
            );
        }
    }
}

/// `is_waiting` around `_wait`, `set_state` out of it and `restart_state`
/// into it, with events drained every 3 ticks, stripped and not.
#[test]
fn waiting_and_rare_drains_match_the_reference() {
    let cases: [(&str, &str); 3] = [
        ("A: 1|e, 2|f, _wait|w\nB: 0|x, A\n", "A"),
        ("W: 0|a, _wait|b\n", "W"),
        ("A: 2|7|s, B\nB[A]: 1|t, _wait\n", "A"),
    ];
    for (text, start) in cases {
        let (file, errors) = animkit_grammar::sprite::parse(text);
        assert!(errors.is_empty());
        for strip in [false, true] {
            let program = compile(&[Source::new("p.anim", text)], &Options { strip, ..Options::default() }).unwrap();
            let sprites = Sprites::new(Arc::new(animkit_vm::engine::verify::verify(program).unwrap()), "p").unwrap();
            let changes = [(6, 1 % file.states.len(), false), (9, 0, true), (15, 0, false)];
            let (got, want) =
                (vm_observed(&sprites, start, &changes, 30, 3), ref_observed(&file, start, &changes, 30, 3));
            assert!(got == want, "{text}strip {strip}\n{}", observed_difference(&got, &want).unwrap_or_default());
            assert!(want.ticks.iter().any(|t| t.3), "{text}: the case waits");
        }
    }
}
