//! SLAP's authoring comforts in the checker: the built-in functions
//! (values, folding, nesting) and the spec's one-line camera form
//! (`camera X Y Z DX DY DZ`, `camera campos camdir`). Their error
//! messages are UI cases (`tests/ui/slap/functions*.slap`,
//! `camera_line.slap`).

use animkit_compiler::diagnostic::render;
use animkit_compiler::slap::front;
use animkit_compiler::slap::ir::{CameraAttr, Command, Expr, SceneIr};

fn scene(src: &str) -> SceneIr {
    match front(src) {
        Ok(c) => c.ir,
        Err(d) => panic!("{src:?} did not check:\n{}", render("t.slap", src, &d)),
    }
}

/// The values of `actor 1 position A B C` after `defines`, and their IR.
fn position(defines: &str, args: &str) -> Vec<(f64, Expr)> {
    let ir = scene(&format!("{defines}\nactor 1 position {args}\n"));
    match &ir.commands[0].command {
        Command::Actor { args, .. } => args.iter().map(|a| (a.value, a.expr.clone())).collect(),
        c => panic!("{c:?}"),
    }
}

#[test]
fn functions_compute_rusts_f64_methods() {
    #[allow(clippy::approx_constant)]
    let pi = 3.1416f64;
    let got = position("define PI 3.1416", "sin(PI/4) cos(PI) tan(1)");
    assert_eq!(
        got.iter().map(|g| g.0.to_bits()).collect::<Vec<_>>(),
        [(pi / 4.0).sin().to_bits(), pi.cos().to_bits(), 1f64.tan().to_bits()]
    );
    let got = position("", "atan2(1, -1) sqrt(2) abs(-0.5)");
    assert_eq!(got.iter().map(|g| g.0).collect::<Vec<_>>(), [1f64.atan2(-1.0), 2f64.sqrt(), 0.5]);
    let got = position("define a 3", "min(a, -a) max(a,-a) floor(-2.5)");
    assert_eq!(got.iter().map(|g| g.0).collect::<Vec<_>>(), [-3.0, 3.0, -3.0]);
    // sqrt of -0 is -0, not an error.
    assert_eq!(position("", "sqrt(-0) 0 0")[0].0.to_bits(), (-0f64).to_bits());
}

#[test]
fn a_call_is_folded_into_one_number_and_the_arithmetic_around_it_kept() {
    let got = position("", "2*sqrt(4)+1 (min(1, 2) * -abs(-3)) 0");
    // `2*sqrt(4)+1`: the call is a number of the IR, the operators stay.
    assert_eq!(got[0].0, 5.0);
    let Expr::Bin(_, l, _) = &got[0].1 else { panic!("{:?}", got[0].1) };
    let Expr::Bin(_, _, call) = &**l else { panic!("{l:?}") };
    assert_eq!(**call, Expr::Num(2.0));
    assert_eq!(got[1].0, -3.0);
    assert_eq!(got[1].1.numbers(), 2);
}

#[test]
fn functions_in_defines_and_times() {
    let ir = scene("define r sqrt(2)\ndefine h atan2(r, r)\ntime floor(10.7)\nactor 1 direction h\n");
    assert_eq!(ir.commands[0].frame, 10);
    match &ir.commands[0].command {
        Command::Actor { args, .. } => assert_eq!(args[0].value, 2f64.sqrt().atan2(2f64.sqrt())),
        c => panic!("{c:?}"),
    }
    // A name `sin` is a define; `sin(...)` still the function.
    let got = position("define sin 5", "sin sin(0) 1");
    assert_eq!((got[0].0, got[1].0), (5.0, 0.0));
}

#[test]
fn the_one_line_camera_is_a_position_then_a_look_vector() {
    for src in [
        "camera 0 3 10 0 -1 -3\n",
        "define campos 0 3 10\ndefine camdir 0 -1 -3\ncamera campos camdir\n",
        "define campos 0 3 10\ncamera campos 0 -1 -3\n",
        "define y 3\ncamera 0 y 10 0 -1 (-y)\n",
    ] {
        let ir = scene(src);
        let cmds: Vec<_> = ir
            .commands
            .iter()
            .map(|c| match &c.command {
                Command::Camera { attr, args } => (*attr, args.iter().map(|a| a.value).collect::<Vec<_>>()),
                c => panic!("{c:?}"),
            })
            .collect();
        assert_eq!(
            cmds,
            [(CameraAttr::Position, vec![0.0, 3.0, 10.0]), (CameraAttr::DirectionVector, vec![0.0, -1.0, -3.0])],
            "{src:?}"
        );
        // Both commands carry the directive's span.
        assert_eq!(ir.commands[0].span, ir.commands[1].span);
    }
}

#[test]
fn attribute_keywords_win_over_defines_of_the_same_name() {
    // `position` is the attribute even when it is defined.
    let ir = scene("define position 1 2 3\ncamera position 4 5 6\n");
    assert_eq!(ir.commands.len(), 1);
    assert!(matches!(&ir.commands[0].command, Command::Camera { attr: CameraAttr::Position, .. }));
}
