//! The SLAP checker as an evaluator: precedence, associativity, unary
//! minus, defines (nested, multi-valued, redefined), expansion counts,
//! times (rounding, relative forms, out-of-order absolute times, stable
//! ordering, length), the IR's values against its own expressions, and
//! every limit with its exact message and position (at lowered limits, and
//! at the real ones where a file of that size is quick to check).

use animkit_compiler::diagnostic::render;
use animkit_compiler::slap::check::SlapLimits;
use animkit_compiler::slap::ir::{self, ActorAttr, BinOp, CameraAttr, Command, Expr, SceneIr, TimedCommand};
use animkit_compiler::slap::{front, front_with};

fn scene(src: &str) -> SceneIr {
    match front(src) {
        Ok(c) => c.ir,
        Err(d) => panic!("{src:?} did not check:\n{}", render("t.slap", src, &d)),
    }
}

fn errors(src: &str) -> String {
    errors_with(src, &SlapLimits::default())
}

fn errors_with(src: &str, limits: &SlapLimits) -> String {
    match front_with(src, limits) {
        Ok(_) => panic!("{src:?} checked"),
        Err(d) => render("t.slap", src, &d),
    }
}

/// The first diagnostic's header: `error: MESSAGE` and `--> FILE:LINE:COL`.
fn first(rendered: &str) -> String {
    rendered.lines().take(2).map(str::trim).collect::<Vec<_>>().join("\n")
}

/// The value of `actor 1 direction EXPR` after `defines`.
fn value(defines: &str, expr: &str) -> f64 {
    let ir = scene(&format!("{defines}\nactor 1 direction {expr}\n"));
    match &ir.commands[0].command {
        Command::Actor { args, .. } => {
            // The IR's value is its expression evaluated.
            assert_eq!(args[0].value.to_bits(), args[0].expr.eval().to_bits(), "{expr}");
            args[0].value
        }
        c => panic!("{c:?}"),
    }
}

fn actor_args(c: &TimedCommand) -> Vec<f64> {
    match &c.command {
        Command::Actor { args, .. } | Command::Camera { args, .. } => args.iter().map(|a| a.value).collect(),
    }
}

#[test]
fn precedence_and_associativity() {
    assert_eq!(value("", "1+2*3"), 7.0);
    assert_eq!(value("", "(1+2)*3"), 9.0);
    assert_eq!(value("", "10-4-3"), 3.0);
    assert_eq!(value("", "64/4/2"), 8.0);
    assert_eq!(value("", "2*3/4"), 1.5);
    assert_eq!(value("", "1-2+3"), 2.0);
    assert_eq!(value("", "(1 - 2 + 3)*2"), 4.0);
    assert_eq!(value("", "8/(4/2)"), 4.0);
    // Left to right, in f64: (0.1 + 0.2) + 0.3 is not 0.1 + (0.2 + 0.3).
    assert_eq!(value("", "0.1+0.2+0.3").to_bits(), ((0.1f64 + 0.2) + 0.3).to_bits());
    assert_ne!(value("", "0.1+0.2+0.3").to_bits(), (0.1f64 + (0.2 + 0.3)).to_bits());
}

#[test]
fn unary_minus() {
    assert_eq!(value("", "-2*3"), -6.0);
    assert_eq!(value("", "2*-3"), -6.0);
    assert_eq!(value("", "2--3"), 5.0);
    assert_eq!(value("", "--2"), 2.0);
    assert_eq!(value("", "-(1+2)"), -3.0);
    assert_eq!(value("define PI 3.2", "-PI/2"), -1.6);
    assert!(value("", "-0").is_sign_negative());
    // `-a+b` negates `a` only.
    assert_eq!(value("define a 1", "-a+3"), 2.0);
}

#[test]
fn numbers() {
    assert_eq!(value("", "3."), 3.0);
    assert_eq!(value("", ".9"), 0.9);
    assert_eq!(value("", "1e3"), 1000.0);
    assert_eq!(value("", "2.5E-2"), 0.025);
    assert_eq!(value("", "1e-400"), 0.0);
}

#[test]
fn the_ir_keeps_the_arithmetic_with_names_replaced() {
    let ir = scene("define PI 3.2\ndefine halfpi PI/2\nactor 1 direction -(halfpi)*2\n");
    let Command::Actor { attr: ActorAttr::Direction, args, .. } = &ir.commands[0].command else { panic!() };
    assert_eq!(
        args[0].expr,
        Expr::Bin(BinOp::Mul, Box::new(Expr::Neg(Box::new(Expr::Num(1.6)))), Box::new(Expr::Num(2.0)))
    );
}

#[test]
fn defines_are_evaluated_when_read() {
    // No textual-macro trap: `left` is -(PI/2), whatever follows.
    assert_eq!(value("define PI 3\ndefine halfpi PI/2\ndefine left -halfpi", "left*2"), -3.0);
    assert_eq!(value("define a 1+1", "a*a"), 4.0);
    // Nested three deep.
    assert_eq!(value("define a 2\ndefine b a*3\ndefine c b-a", "c/2"), 2.0);
    // A define may use its own old value.
    assert_eq!(value("define x 1\ndefine x x+1\ndefine x x*10", "x"), 20.0);
}

#[test]
fn redefinition_takes_effect_from_its_line() {
    let ir = scene("define s 1\ndefine t s\nactor 1 size s\ndefine s 2\nactor 1 size s\nactor 1 size t\n");
    let sizes: Vec<f64> = ir.commands.iter().flat_map(actor_args).collect();
    assert_eq!(sizes, [1.0, 2.0, 1.0]);
    // A redefinition may change the number of values.
    let ir = scene("define c 1\nactor 1 size c\ndefine c 1 0 0\nactor 1 color c\n");
    assert_eq!(actor_args(&ir.commands[1]), [1.0, 0.0, 0.0]);
}

#[test]
fn names_stand_wherever_an_argument_stands() {
    let ir = scene("define mommy 7\ndefine t 10\ndefine swagger 2\ntime t\nactor mommy action swagger\n");
    assert_eq!(ir.commands[0].frame, 10);
    let Command::Actor { id, attr: ActorAttr::Action, args } = &ir.commands[0].command else { panic!() };
    assert_eq!((id.value, args[0].value), (7.0, 2.0));
    // Keywords are not substituted: a define named like one changes nothing.
    let ir = scene("define actor 3\ndefine color 5\nactor actor color color color color\n");
    assert_eq!(actor_args(&ir.commands[0]), [5.0, 5.0, 5.0]);
}

#[test]
fn expansion_counts() {
    let ir = scene(
        "define red 1 0 0\ndefine xz 2 3\ndefine y 9\nactor 1 color red\nactor 1 position xz\nactor 1 position xz y\nactor 1 position y xz\n",
    );
    let got: Vec<(ActorAttr, Vec<f64>)> = ir
        .commands
        .iter()
        .map(|c| match &c.command {
            Command::Actor { attr, args, .. } => (*attr, args.iter().map(|a| a.value).collect()),
            c => panic!("{c:?}"),
        })
        .collect();
    assert_eq!(
        got,
        [
            (ActorAttr::Color, vec![1.0, 0.0, 0.0]),
            (ActorAttr::Position2, vec![2.0, 3.0]),
            (ActorAttr::Position3, vec![2.0, 3.0, 9.0]),
            (ActorAttr::Position3, vec![9.0, 2.0, 3.0]),
        ]
    );
    // Every expanded value points at the name.
    let src = "define red 1 0 0\nactor 1 color red\n";
    let ir = scene(src);
    let Command::Actor { args, .. } = &ir.commands[0].command else { panic!() };
    assert!(args.iter().all(|a| &src[a.span.range()] == "red"));
    // Multi-value defines made of multi-value defines.
    let ir = scene("define xy 1 2\ndefine xyz xy 3\ncamera position xyz\ncamera direction xy\n");
    assert_eq!(actor_args(&ir.commands[0]), [1.0, 2.0, 3.0]);
    assert!(matches!(ir.commands[0].command, Command::Camera { attr: CameraAttr::Position, .. }));
    assert!(matches!(ir.commands[1].command, Command::Camera { attr: CameraAttr::DirectionAngles, .. }));
}

#[test]
fn times_round_to_the_nearest_frame() {
    let frames = |src: &str| scene(src).commands.iter().map(|c| c.frame).collect::<Vec<_>>();
    assert_eq!(frames("time 2.4\nactor 1 size 1\ntime 2.5\nactor 1 size 1\ntime 3.5\nactor 1 size 1\n"), [2, 3, 4]);
    // Relative times add to the unrounded value of the last time.
    assert_eq!(frames("time 0.4\nactor 1 size 1\ntime +0.4\nactor 1 size 1\ntimep 0.4\nactor 1 size 1\n"), [0, 1, 1]);
    assert_eq!(frames("define sec 30\ntimep sec/2\nactor 1 size 1\ntimep 2*sec\nactor 1 size 1\n"), [15, 75]);
    // Commands before any time are at frame 0.
    assert_eq!(frames("actor 1 size 1\ntime 5\n"), [0]);
}

#[test]
fn out_of_order_times_are_ordered_stably_with_a_warning() {
    let src = "time 10\nactor 1 size 1\nactor 2 size 1\ntime 5\nactor 3 size 1\ntime 10\nactor 4 size 1\ntime +0\nactor 5 size 1\ntime 0\nactor 6 size 1\n";
    let checked = front(src).unwrap();
    let order: Vec<(u32, f64)> = checked
        .ir
        .commands
        .iter()
        .map(|c| match &c.command {
            Command::Actor { id, .. } => (c.frame, id.value),
            c => panic!("{c:?}"),
        })
        .collect();
    assert_eq!(order, [(0, 6.0), (5, 3.0), (10, 1.0), (10, 2.0), (10, 4.0), (10, 5.0)]);
    // Two warnings: `time 5` after 10, `time 0` after 10.
    let warnings = render("t.slap", src, &checked.warnings);
    assert_eq!(checked.warnings.len(), 2, "{warnings}");
    assert!(
        warnings.starts_with("warning: time 5 is earlier than the current time 10\n --> t.slap:4:6\n"),
        "{warnings}"
    );
    // Equal is not earlier.
    assert!(front("time 5\ntime 5\n").unwrap().warnings.is_empty());
}

#[test]
fn length_is_the_last_time_point() {
    assert_eq!(scene("actor 1 size 1\n").length, 0);
    assert_eq!(scene("time 100\nactor 1 size 1\ntime +50\n").length, 150);
    assert_eq!(scene("time 100\ntime 20\nactor 1 size 1\n").length, 100);
    assert_eq!(scene("time 9.5\n").length, 10);
    assert_eq!(scene("time 16777215\n").length, 16_777_215);
    assert!(scene("time 40\n").commands.is_empty());
}

#[test]
fn spans_point_at_the_directive_line() {
    let src = "# c\n  actor 1 size 2*3   # big\n";
    let ir = scene(src);
    assert_eq!(&src[ir.commands[0].span.range()], "actor 1 size 2*3");
    let Command::Actor { args, .. } = &ir.commands[0].command else { panic!() };
    assert_eq!(&src[args[0].span.range()], "2*3");
}

#[test]
fn nesting_limit_agrees_with_the_vm() {
    assert_eq!(animkit_grammar::slap::MAX_NESTING, animkit_vm::engine::limits::MAX_SLAP_NESTING);
    let ok = format!("actor 1 size {}1{}", "(".repeat(64), ")".repeat(64));
    scene(&ok);
    let deep = format!("actor 1 size {}1{}", "(".repeat(65), ")".repeat(65));
    assert_eq!(first(&errors(&deep)), "error: expression nested more than 64 levels deep\n--> t.slap:1:78");
    // Long operator chains and minus chains on a long line do not recurse.
    let long = format!("actor 1 size 1{}\n", "+1".repeat(1_000_000));
    assert_eq!(first(&errors(&long)), "error: expression nested more than 64 levels deep\n--> t.slap:1:143");
    let minus = format!("actor 1 size {}1\n", "-".repeat(60_000));
    assert_eq!(first(&errors(&minus)), "error: expression nested more than 64 levels deep\n--> t.slap:1:59949");
    // Past `MAX_LINE_TOKENS`, an error the cut may have caused (here the
    // missing operand of the last minus read) gives way to the line's length.
    let minus = format!("actor 1 size {}1\n", "-".repeat(1_000_000));
    assert_eq!(first(&errors(&minus)), "error: this line has more than 65536 tokens\n--> t.slap:1:65544");
    let parens = format!("actor 1 size {}\n", "(".repeat(1_000_000));
    assert_eq!(first(&errors(&parens)), "error: expression nested more than 64 levels deep\n--> t.slap:1:78");
}

#[test]
fn frame_limit() {
    scene("time 16777215.4\n");
    assert_eq!(
        errors("time 16777215.5\n"),
        "error: frame 16777216 is past the last frame a scene may have\n --> t.slap:1:6\n  |\n1 | time 16777215.5\n  |      ^^^^^^^^^^ at most 16777215\n  |\n  = note: the time here is 16777215.5; a scene ends by frame 16777215\n\n"
    );
    assert_eq!(
        first(&errors("time 16777000\ntimep 215\ntimep 1\n")),
        "error: frame 16777216 is past the last frame a scene may have\n--> t.slap:3:7"
    );
    assert_eq!(
        first(&errors("time 1e300\n")),
        "error: frame 1e300 is past the last frame a scene may have\n--> t.slap:1:6"
    );
}

fn small() -> SlapLimits {
    SlapLimits { actors: 3, defines: 2, define_values: 4, time_points: 2, frame: 100, constants: 12, strict: false }
}

#[test]
fn constant_limit() {
    // Every number of the arithmetic counts (what lowering with folding
    // off needs): 2, then 1 + 3 + 1, then 4 make 11; 4 more go over 12.
    let src = "define red 1 0 0\nactor 1 size 2\nactor 1 position (1+2)*3 4\nactor 1 color red\nactor 2 color red\nactor 3 size 1\n";
    assert_eq!(
        errors_with(src, &small()),
        "error: too many numbers: the commands of a scene may hold at most 12\n --> t.slap:5:1\n  |\n5 | actor 2 color red\n  | ^^^^^ this command goes over\n  |\n  = note: every number in an argument counts, literal or a name's value; split the scene\n\n"
    );
    assert!(front_with("actor 1 size 2\nactor 1 position (1+2)*3 4\nactor 1 color 1 0 0\n", &small()).is_ok());
}

#[test]
fn actor_limit() {
    let src = "actor 0 size 1\nactor 1 size 1\nactor 0 size 1\nactor 2 size 1\nactor 3 size 1\nactor 4 size 1\n";
    assert_eq!(
        errors_with(src, &small()),
        "error: too many actors: a scene may name at most 3\n --> t.slap:5:7\n  |\n5 | actor 3 size 1\n  |       ^ actor 4 is one too many\n\n"
    );
    // Ids already named stay fine after the limit.
    errors_with("actor 0 size 1\nactor 1 size 1\nactor 2 size 1\nactor 9 size 1\nactor 2 size 1\n", &small());
}

#[test]
fn define_limit() {
    // Redefinitions do not count; names past the limit are not reported
    // as undefined where they are used.
    let src = "define a 1\ndefine a 2\ndefine b 1\ndefine c 1\ndefine d 1\nactor c size d\n";
    assert_eq!(
        errors_with(src, &small()),
        "error: too many defines: a scene may define at most 2 names\n --> t.slap:4:8\n  |\n4 | define c 1\n  |        ^ name 3 is one too many\n\n"
    );
    let values = "define v 1 2 3 4\ndefine w v 5\n";
    assert_eq!(
        first(&errors_with(values, &small())),
        "error: `w` would hold 5 values, more than the 4 a define may hold\n--> t.slap:2:10"
    );
}

#[test]
fn define_limit_at_full_size() {
    let mut src = String::new();
    for i in 0..=65_536 {
        src.push_str(&format!("define n{i} {i}\n"));
    }
    assert_eq!(
        first(&errors(&src)),
        "error: too many defines: a scene may define at most 65536 names\n--> t.slap:65537:8"
    );
}

#[test]
fn time_point_limit() {
    let src = "time 1\ntime 2\ntime 3\ntime 4\n";
    assert_eq!(
        errors_with(src, &small()),
        "error: too many time directives: a scene may have at most 2\n --> t.slap:3:1\n  |\n3 | time 3\n  | ^^^^ time directive 3 is one too many\n\n"
    );
    assert_eq!(
        first(&errors_with("time 101\n", &small())),
        "error: frame 101 is past the last frame a scene may have\n--> t.slap:1:6"
    );
}

/// The limits at their real sizes (16.7 million time directives, a million
/// actors): a minute of checking in a debug build.
#[test]
#[ignore]
fn actor_and_time_point_limits_at_full_size() {
    let mut src = String::new();
    for i in 0..=animkit_vm::engine::limits::MAX_SLAP_ACTORS {
        src.push_str(&format!("actor {i} size 1\n"));
    }
    let line = animkit_vm::engine::limits::MAX_SLAP_ACTORS + 1;
    assert_eq!(
        first(&errors(&src)),
        format!("error: too many actors: a scene may name at most 1048576\n--> t.slap:{line}:7")
    );
    let src = "time +0\n".repeat(animkit_vm::engine::limits::MAX_SLAP_TIME_POINTS + 1);
    assert_eq!(
        first(&errors(&src)),
        "error: too many time directives: a scene may have at most 16777216\n--> t.slap:16777217:1"
    );
}

#[test]
fn a_bad_line_is_reported_once() {
    // The define that failed to parse leaves `red` unknown, not undefined.
    let out = errors("define red 1 0 (0\nactor 1 color red\nactor 1 size red*2\n");
    assert_eq!(out.matches("error").count(), 1, "{out}");
    // An error in a define makes it unknown too.
    let out = errors("define a 1/0\ndefine b a+1\nactor 1 size b\n");
    assert_eq!(out.matches("error").count(), 1, "{out}");
    // After a bad time, relative times do not pile up errors or warnings.
    let out = errors("time 10\ntime 1/0\ntime +1\ntime 3\nactor 1 size 1\n");
    assert_eq!(out.matches("error").count() + out.matches("warning").count(), 1, "{out}");
    // Both operands are evaluated: two undefined names, two errors.
    let out = errors("actor 1 size a+b\n");
    assert_eq!(out.matches("undefined name").count(), 2, "{out}");
}

#[test]
fn camera_forms() {
    let ir = scene("define PI 3.1416\ncamera position 0 1.5 10\ncamera direction 0 0 -1\ncamera direction PI/2 -0.1\n");
    let attrs: Vec<CameraAttr> = ir
        .commands
        .iter()
        .map(|c| match c.command {
            Command::Camera { attr, .. } => attr,
            _ => panic!(),
        })
        .collect();
    assert_eq!(attrs, [CameraAttr::Position, CameraAttr::DirectionVector, CameraAttr::DirectionAngles]);
    // Angles may both be zero; a vector may not.
    scene("camera direction 0 0\n");
    scene("camera direction 0 -0 1e-300\n");
}

#[test]
fn the_spec_examples_check() {
    for name in ["two_actors", "story"] {
        let path = format!("{}/../examples/{name}.slap", env!("CARGO_MANIFEST_DIR"));
        let src = std::fs::read_to_string(&path).unwrap();
        let checked = front(&src).unwrap_or_else(|d| panic!("{}", render(&path, &src, &d)));
        assert!(checked.warnings.is_empty(), "{}", render(&path, &src, &checked.warnings));
        assert!(!checked.ir.commands.is_empty());
    }
    let src = std::fs::read_to_string(format!("{}/../examples/two_actors.slap", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let ir = scene(&src);
    assert_eq!(ir.length, 1500);
    let last = ir.commands.last().unwrap();
    assert_eq!(last.frame, 1500);
    assert!(matches!(&last.command, Command::Actor { attr: ActorAttr::Action, args, .. } if args[0].value == 0.0));
}

#[test]
fn follow_fills_in_its_defaults_and_lookat_keeps_its_point() {
    let ir = scene(
        "define mommy 7\nactor mommy size 1\ncamera follow mommy\ncamera follow mommy 3 -1\ncamera lookat 1 (2) 3*2\n",
    );
    let cams: Vec<(CameraAttr, Vec<f64>)> = ir
        .commands
        .iter()
        .filter_map(|c| match &c.command {
            Command::Camera { attr, args } => Some((*attr, args.iter().map(|a| a.value).collect())),
            _ => None,
        })
        .collect();
    assert_eq!(
        cams,
        [
            (CameraAttr::Follow, vec![7.0, 6.0, 2.0]),
            (CameraAttr::Follow, vec![7.0, 3.0, -1.0]),
            (CameraAttr::LookAt, vec![1.0, 2.0, 6.0])
        ]
    );
    assert_eq!((ir::FOLLOW_DISTANCE, ir::FOLLOW_HEIGHT), (6.0, 2.0));
    // A follow names no new actor: it needs one on the stage.
    assert_eq!(first(&errors("camera follow 7\n")), "error: actor 7 is not in the scene at frame 0\n--> t.slap:1:15");
    // An out-of-order time puts a later line first: then the actor is there.
    scene("time 10\ncamera follow 2\ntime 5\nactor 2 size 1\n");
    // A look-at from where a follow left the camera is not known until run time.
    scene("actor 1 size 1\ncamera follow 1\ncamera lookat 0 2 -6\n");
}

fn strict(src: &str) -> Result<SceneIr, String> {
    let limits = SlapLimits { strict: true, ..SlapLimits::default() };
    front_with(src, &limits).map(|c| c.ir).map_err(|d| render("t.slap", src, &d))
}

#[test]
fn strict_accepts_the_spec_examples_and_refuses_each_extension() {
    // The spec's own scene is in the note's language; `story` uses
    // `timep`, a height and the camera's attribute forms.
    let path = format!("{}/../examples/two_actors.slap", env!("CARGO_MANIFEST_DIR"));
    strict(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let path = format!("{}/../examples/story.slap", env!("CARGO_MANIFEST_DIR"));
    let e = strict(&std::fs::read_to_string(&path).unwrap()).unwrap_err();
    assert_eq!(e.matches("refused by --strict").count(), 15, "{e}");
    let cases = [
        ("actor 1 size 1\ncamera follow 1\n", "`camera follow`", "2:8"),
        ("camera lookat 0 0 0\n", "`camera lookat`", "1:8"),
        ("camera position 0 1 2\n", "`camera position`", "1:8"),
        ("camera direction 0 1\n", "`camera direction`", "1:8"),
        ("actor 1 direction sin(1)\n", "the function `sin`", "1:19"),
        ("include <polly>\n", "`include`", "1:1"),
        ("timep 5\n", "`timep`", "1:1"),
        ("actor 1 position 0 1 2\n", "`actor ID position X Y Z`", "1:18"),
    ];
    for (src, what, at) in cases {
        let e = strict(src).unwrap_err();
        assert_eq!(
            first(&e),
            format!("error: {what} is an animkit extension, refused by --strict\n--> t.slap:{at}"),
            "{src}"
        );
        // Without --strict each is fine.
        front(src).unwrap_or_else(|d| panic!("{}", render("t.slap", src, &d)));
    }
    // The note's own forms pass.
    strict("define PI 3.1416\ntime 0\nactor 1 position 2 0\nactor 1 direction -PI/4\ncamera 0 3 10 0 -1 -3\ntime +(10 + 5)\n")
        .unwrap();
}
