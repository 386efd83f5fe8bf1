//! Animator through the VM against a recording canvas: every command and
//! variant reaches the host with the coordinates the spec implies, and a
//! script streamed makes exactly the same calls as the script compiled.

use animkit_compiler::{Options, Source, compile};
use animkit_runtime::script::Script;
use animkit_runtime::stream::{Status, Stream};
use animkit_vm::engine::animator::record::{Call, Recorder};
use animkit_vm::engine::animator::{HAlign, Matrix, Pen, VAlign};

/// Runs `src` streamed (fed in small chunks) and compiled; checks both give
/// the same calls and error lines; returns the calls and the error text.
fn run(src: &str) -> (Vec<Call>, String) {
    let mut stream_errors = Vec::new();
    let mut stream = Stream::new(Recorder::default(), "t.draw");
    let mut status = Status::NeedInput;
    for chunk in src.as_bytes().chunks(7) {
        stream.push(chunk);
        status = stream.run(&mut stream_errors);
        if status == Status::Quit {
            break;
        }
        assert_eq!(status, Status::NeedInput);
    }
    if status != Status::Quit {
        stream.finish();
        status = stream.run(&mut stream_errors);
    }
    assert!(matches!(status, Status::Done | Status::Quit));
    let streamed = stream.canvas().calls.clone();
    let stream_errors = String::from_utf8(stream_errors).unwrap();
    if let Ok(program) = compile(&[Source::new("t.draw", src)], &Options::default()) {
        let bytes = animkit_vm::engine::codec::encode(&program);
        let program = animkit_vm::engine::codec::load(&bytes).unwrap();
        let mut script = Script::new(program, 0, Recorder::default()).unwrap();
        let mut errors = Vec::new();
        script.run(&mut errors);
        assert_eq!(script.canvas().calls, streamed, "compiled and streamed calls differ for:\n{src}");
        assert_eq!(String::from_utf8(errors).unwrap(), stream_errors, "error lines differ");
    }
    (streamed, stream_errors)
}

fn calls(src: &str) -> Vec<Call> {
    let (c, e) = run(src);
    assert_eq!(e, "", "unexpected errors for:\n{src}");
    c
}

fn pen(rgb: [f64; 3], alpha: f64, thick: f64, dash: u16) -> Pen {
    Pen { rgb, alpha, thick, dash }
}

const BLACK: Pen = Pen { rgb: [0.0; 3], alpha: 1.0, thick: 1.0, dash: 0xffff };

fn close(a: [f64; 2], b: [f64; 2]) -> bool {
    (a[0] - b[0]).abs() < 1e-12 && (a[1] - b[1]).abs() < 1e-12
}

#[test]
fn general_commands() {
    assert_eq!(
        calls(
            "keepalive off\nkeepalive on\nevents on\nresize 320 200\nresize 25.000000 10\ntitle \"my window\"\necho hello\necho \"two words\"\nquit\necho never\n"
        ),
        [
            Call::Keepalive(false),
            Call::Keepalive(true),
            Call::Events(true, Matrix::IDENTITY),
            Call::Resize(320, 200),
            Call::Resize(25, 10),
            Call::Title("my window".into()),
            Call::Echo("hello".into()),
            Call::Echo("two words".into()),
            Call::Quit,
        ]
    );
}

#[test]
fn events_on_saves_the_current_matrix() {
    let c = calls("scale 2\nshift 1 0\nevents on\nevents off\n");
    let m = Matrix::scaling(2.0, 2.0).then(&Matrix::translation(1.0, 0.0));
    assert_eq!(c, [Call::Events(true, m), Call::Events(false, m)]);
}

#[test]
fn warp_echopt_and_areas_use_transformed_points() {
    let c = calls(
        "scale 0.5\nwarp 1 1\narea box 0 0 1 0 1 1 0 1\nwarp area box\necho \"pts\"\nechopt here 1 0 0 1 .\ndelarea box\nkillareas\n",
    );
    assert_eq!(
        c,
        [
            Call::Warp([0.5, 0.5]),
            Call::Area("box".into(), vec![[0.0, 0.0], [0.5, 0.0], [0.5, 0.5], [0.0, 0.5]]),
            Call::WarpArea("box".into()),
            Call::Echo("pts".into()),
            Call::EchoPoints("here".into(), vec![[0.5, 0.0], [0.0, 0.5]]),
            Call::DeleteArea("box".into()),
            Call::KillAreas,
        ]
    );
}

#[test]
fn frame_commands() {
    let c = calls(
        "frame\nflush\nscreenshot shot.png\nscreenshot \"/dev/stdout\"\nscreendump -\nscreendump dump.raw\nsleep 0.25\nflushdelay 0.0166666\naspect off\naspect on\nbg 0.5\n",
    );
    assert_eq!(
        c,
        [
            Call::Frame,
            Call::Flush,
            Call::Screenshot("shot.png".into()),
            Call::Screenshot("/dev/stdout".into()),
            Call::Screendump(None),
            Call::Screendump(Some("dump.raw".into())),
            Call::Sleep(0.25),
            Call::FlushDelay(0.0166666),
            Call::Aspect(false),
            Call::Aspect(true),
            Call::Background([0.5, 0.5, 0.5]),
        ]
    );
}

#[test]
fn frame_resets_pen_but_keeps_matrices() {
    let c = calls("color red\nthick 3\ndash 0x00ff\nalpha 0.5\nshift 1 1\nframe\ndot 0 0\n");
    assert_eq!(c, [Call::Frame, Call::Dot(BLACK, [1.0, 1.0])]);
}

#[test]
fn every_colour_form() {
    let c = calls(
        "color darkgreen\ncolor LightGrey\ncolor #ff8000\ncolor #f80\ncolor #80\ncolor #8\ncolor 0.25 0.5 1\ncolor 0.75\ndot 0 0\nbg red\n",
    );
    let rgbs: Vec<[f64; 3]> = vec![[0.0, 100.0 / 255.0, 0.0]];
    let _ = rgbs;
    assert_eq!(c.len(), 2);
    let Call::Dot(p, _) = c[0] else { panic!() };
    assert_eq!(p.rgb, [0.75, 0.75, 0.75]);
    assert_eq!(c[1], Call::Background([1.0, 0.0, 0.0]));
    // Each form, checked through a dot drawn after it.
    for (form, rgb) in [
        ("darkgreen", [0.0, 100.0 / 255.0, 0.0]),
        ("LightGrey", [211.0 / 255.0; 3]),
        ("#ff8000", [1.0, 128.0 / 255.0, 0.0]),
        ("#f80", [1.0, 136.0 / 255.0, 0.0]),
        ("#80", [128.0 / 255.0; 3]),
        ("#8", [136.0 / 255.0; 3]),
        ("0.25 0.5 1", [0.25, 0.5, 1.0]),
        ("0.75", [0.75; 3]),
    ] {
        let c = calls(&format!("color {form}\ndot 0 0\n"));
        assert_eq!(c, [Call::Dot(pen(rgb, 1.0, 1.0, 0xffff), [0.0, 0.0])], "color {form}");
    }
}

#[test]
fn pen_commands() {
    let c = calls("color 1 0 0\nalpha 0.5\nthick 4\ndash 0xf0f0\nline 0 0 1 1\n");
    assert_eq!(c, [Call::Stroke(pen([1.0, 0.0, 0.0], 0.5, 4.0, 0xf0f0), vec![[0.0, 0.0], [1.0, 1.0]], false)]);
}

#[test]
fn drawing_commands() {
    let c = calls(
        "dot 0.5 0.5\nline 0 0 1 0\narrow 0 0 0 1\nrect 0 0 2 1\nrect 0 0 - 2 1\nfillrect 0 0 2 1\nfillrect 2 1 - 0 0\nlines 0 0 1 0 1 1\npoly 0 0 1 0 1 1 0 1\n",
    );
    let rect = vec![[0.0, 0.0], [2.0, 0.0], [2.0, 1.0], [0.0, 1.0]];
    assert_eq!(
        c,
        [
            Call::Dot(BLACK, [0.5, 0.5]),
            Call::Stroke(BLACK, vec![[0.0, 0.0], [1.0, 0.0]], false),
            Call::Arrow(BLACK, [0.0, 0.0], [0.0, 1.0]),
            Call::Stroke(BLACK, rect.clone(), true),
            Call::Stroke(BLACK, rect.clone(), true),
            Call::Fill(BLACK, rect.clone(), true),
            Call::Fill(BLACK, vec![[2.0, 1.0], [0.0, 1.0], [0.0, 0.0], [2.0, 0.0]], true),
            Call::Stroke(BLACK, vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]], false),
            Call::Fill(BLACK, vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], false),
        ]
    );
}

#[test]
fn circles_have_the_given_vertex_count() {
    let c = calls("circle 1 0 2 4\nfillcircle 0 0 1 25.000000\n");
    let Call::Stroke(_, pts, true) = &c[0] else { panic!("{c:?}") };
    assert_eq!(pts.len(), 4);
    for (p, q) in pts.iter().zip([[3.0, 0.0], [1.0, 2.0], [-1.0, 0.0], [1.0, -2.0]]) {
        assert!(close(*p, q), "{p:?} {q:?}");
    }
    let Call::Fill(_, pts, true) = &c[1] else { panic!() };
    assert_eq!(pts.len(), 25);
}

#[test]
fn text_and_blit_with_and_without_alignment() {
    let c = calls(
        "image 2 2 img\ntext 0 0 hello\ntext left top 0.5 0.5 \"a\\nb\"\ntext right bottom 0 0 x\nblit 0 0 img\nblit center top 1 1 img\n",
    );
    assert_eq!(
        c,
        [
            Call::CreateImage("img".into(), 2, 2),
            Call::Text(BLACK, [0.0, 0.0], HAlign::Center, VAlign::Center, "hello".into()),
            Call::Text(BLACK, [0.5, 0.5], HAlign::Left, VAlign::Top, "a\nb".into()),
            Call::Text(BLACK, [0.0, 0.0], HAlign::Right, VAlign::Bottom, "x".into()),
            Call::Blit(BLACK, [0.0, 0.0], HAlign::Center, VAlign::Center, "img".into()),
            Call::Blit(BLACK, [1.0, 1.0], HAlign::Center, VAlign::Top, "img".into()),
        ]
    );
}

#[test]
fn images_colormap_and_image_set() {
    let c = calls(
        "image pic art/pic.png\nimage 4 3 blank\ncolormap r red\ncolormap '.' #000\ncolormap \"g\" 0 1 0\nimage_set blank 1 2 \"r.gx\"\n",
    );
    assert_eq!(
        c,
        [
            Call::LoadImage("pic".into(), "art/pic.png".into()),
            Call::CreateImage("blank".into(), 4, 3),
            Call::SetPixels(
                "blank".into(),
                1,
                2,
                vec![Some([1.0, 0.0, 0.0]), Some([0.0, 0.0, 0.0]), Some([0.0, 1.0, 0.0]), None]
            ),
        ]
    );
}

#[test]
fn imgpoly_in_all_four_forms() {
    let poly = "0 0 2 0 2 2 0 2";
    let c = calls(&format!(
        "image 1 1 t\nimgpoly 1 1 2 0 0 3 t {poly}\nimgpoly 2 0 0 3 t {poly}\nimgpoly 2 3 t {poly}\nimgpoly t {poly}\n"
    ));
    let pts = vec![[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]];
    assert_eq!(
        c[1..],
        [
            Call::ImagePolygon(BLACK, "t".into(), [1.0, 1.0], [2.0, 0.0], [0.0, 3.0], pts.clone()),
            Call::ImagePolygon(BLACK, "t".into(), [0.0, 0.0], [2.0, 0.0], [0.0, 3.0], pts.clone()),
            Call::ImagePolygon(BLACK, "t".into(), [0.0, 0.0], [2.0, 0.0], [0.0, 3.0], pts.clone()),
            Call::ImagePolygon(BLACK, "t".into(), [0.0, 0.0], [1.0, 0.0], [0.0, 1.0], pts.clone()),
        ]
    );
    // Under a transformation the anchor moves and the edges turn.
    let c = calls(&format!("image 1 1 t\nshift 10 0\nrotate 90\nimgpoly 1 1 2 0 0 3 t {poly}\n"));
    let Call::ImagePolygon(_, _, a, u, v, _) = &c[1] else { panic!() };
    assert!(close(*a, [9.0, 1.0]) && close(*u, [0.0, 2.0]) && close(*v, [-3.0, 0.0]), "{a:?} {u:?} {v:?}");
}

#[test]
fn transformations() {
    let cases: [(&str, [f64; 2]); 9] = [
        ("rotate 90", [-2.0, 1.0]),
        ("scale 2", [2.0, 4.0]),
        ("scale 2 3", [2.0, 6.0]),
        ("shift 1 -1", [2.0, 1.0]),
        ("viewport 0 0 4 4", [-0.5, 0.0]),
        ("viewport 0 0 - 4 4", [-0.5, 0.0]),
        ("mult 2 0 1 0 1 0 0 0 1", [3.0, 2.0]),
        ("scale 5\nident", [1.0, 2.0]),
        ("scale 5\npush\nscale 3\npop", [5.0, 10.0]),
    ];
    for (t, expected) in cases {
        let c = calls(&format!("{t}\ndot 1 2\n"));
        let Call::Dot(_, p) = c[0] else { panic!() };
        assert!(close(p, expected), "{t}: {p:?} != {expected:?}");
    }
    // Transformations apply in the local system (post-multiplied).
    let c = calls("shift 1 0\nrotate 90\ndot 1 0\n");
    let Call::Dot(_, p) = c[0] else { panic!() };
    assert!(close(p, [1.0, 1.0]), "{p:?}");
}

#[test]
fn viewport_of_a_macro() {
    let c = calls(
        "macro shape\nrect 10 20 30 10\nendmacro\nviewport shape\ndot 10 20\ndot 40 30\nident\nviewport aspect shape\ndot 25 25\ndot 10 25\n",
    );
    let pts: Vec<[f64; 2]> = c.iter().map(|x| if let Call::Dot(_, p) = x { *p } else { panic!() }).collect();
    assert!(close(pts[0], [-1.0, -1.0]) && close(pts[1], [1.0, 1.0]), "{pts:?}");
    assert!(close(pts[2], [0.0, 0.0]) && close(pts[3], [-1.0, 0.0]), "{pts:?}");
}

#[test]
fn viewport_of_a_macro_measures_the_points_it_draws() {
    // A rotated line counts its two ends, not the corners of its box
    // (which would reach x = -0.5 here).
    let c = calls("macro l\nrotate 30\nline 0 0 1 1\nendmacro\nviewport l\ndot 0 0\n");
    let Call::Dot(_, p) = c[0] else { panic!() };
    assert!(close(p, [-1.0, -1.0]), "{p:?}");
    // One point has no size, even keeping its aspect.
    let (c, errors) = run("macro p\ndot 1 1\nendmacro\nviewport aspect p\ndot 2 2\n");
    assert_eq!(errors, "t.draw:4:1: error: macro `p` draws a single point (1 1), which has no size to fit\n");
    assert_eq!(c, [Call::Dot(BLACK, [2.0, 2.0])]);
    // Commands that fail inside a measured macro are skipped silently (they
    // are reported when the macro runs); `viewport aspect` inside one keeps
    // its aspect.
    let (c, errors) = run(
        "macro p\ninvoke nothing\npop\nrect 0 0 2 2\nendmacro\nmacro q\nviewport aspect p\ndot 0 0\nendmacro\nmacro w\nrect 0 0 4 1\nendmacro\nmacro v\nviewport aspect w\ndot 1 1\ndot 3 0\nendmacro\nviewport p\ndot 2 2\nident\nviewport v\ndot 0.5 0.5\n",
    );
    assert_eq!(errors, "");
    let pts: Vec<[f64; 2]> = c.iter().map(|x| if let Call::Dot(_, p) = x { *p } else { panic!() }).collect();
    assert!(close(pts[0], [1.0, 1.0]) && close(pts[1], [1.0, 2.0]), "{pts:?}");
}

#[test]
fn measuring_draws_and_reports_nothing() {
    // Only the drawing calls count (an area and a clip do not), nothing
    // reaches the canvas (not even the area); 16 levels of
    // measurement nest, a 17th does nothing.
    let (c, errors) =
        run("macro q\narea a 5 5 6 6 7 5\nclip 9 9 - 10 10\ndot 0 0\ntext 2 2 \"x\"\nendmacro\nviewport q\ndot 2 2\n");
    assert_eq!(errors, "");
    assert_eq!(c, [Call::Dot(BLACK, [1.0, 1.0])]);
    // Each m(k) fits m(k-1) to -1..1 and draws 0 0 - 2 2 in the fitted
    // coordinates: the boxes alternate between 0..2 (even k) and -1..1 (odd
    // k), and a level that is skipped (drawn unfitted) flips the parity of
    // every level above it.
    let mut src = String::from("macro m0\nline 0 0 2 2\nendmacro\n");
    for k in 1..=16 {
        src.push_str(&format!("macro m{k}\nviewport m{}\nline 0 0 2 2\nendmacro\n", k - 1));
    }
    src.push_str("viewport m14\ndot 2 2\nident\nviewport m15\ndot 2 2\nident\nviewport m16\ndot 2 2\n");
    let (c, errors) = run(&src);
    assert_eq!(errors, "");
    let pts: Vec<[f64; 2]> = c.iter().map(|x| if let Call::Dot(_, p) = x { *p } else { panic!() }).collect();
    // m14 (box 0..2) and m15 (box -1..1, 16 levels) measure in full; in m16
    // the 17th level is skipped, so its box is -1..1 instead of 0..2.
    assert!(close(pts[0], [1.0, 1.0]) && close(pts[1], [2.0, 2.0]) && close(pts[2], [2.0, 2.0]), "{pts:?}");
}

#[test]
fn clip_takes_the_transformed_corners_box() {
    let c = calls("scale 2\nclip 0 0 1 1\nclip 1 1 - -1 0\nrotate 90\nclip 0 0 1 1\n");
    assert_eq!(c[0], Call::Clip([0.0, 0.0], [2.0, 2.0]));
    assert_eq!(c[1], Call::Clip([-2.0, 0.0], [2.0, 2.0]));
    let Call::Clip(a, b) = c[2] else { panic!() };
    assert!(close(a, [-2.0, 0.0]) && close(b, [0.0, 2.0]), "{a:?} {b:?}");
}

#[test]
fn cursors() {
    let data = "0".repeat(255) + "1";
    let mask = "f".repeat(256);
    let c = calls(&format!("defcursor pointer \"{data}\" \"{mask}\" 16 15\nsetcursor pointer\n"));
    let Call::DefineCursor(name, d, m, hot) = &c[0] else { panic!() };
    assert_eq!((name.as_str(), d[127], d[0], m[5], *hot), ("pointer", 1, 0, 0xff, (16, 15)));
    assert_eq!(c[1], Call::SetCursor("pointer".into()));
}

#[test]
fn macros_invoke_push_and_redefinition() {
    let c = calls(
        "macro a\ndot 1 0\nendmacro\nmacro b\ninvoke a\nendmacro\ninvoke b\nmacro push a\ndot 2 0\nendmacro\ninvoke b\nmacro a\ndot 3 0\nendmacro\ninvoke b\ninvoke 10 0 a\ndot 0 0\n",
    );
    let xs: Vec<f64> = c.iter().map(|x| if let Call::Dot(_, p) = x { p[0] } else { panic!() }).collect();
    // b sees a's redefinitions because invoke looks macros up at run time.
    assert_eq!(xs, [1.0, 1.0, 2.0, 3.0, 13.0, 0.0]);
}

#[test]
fn macro_push_followed_by_endmacro_only_declares() {
    let c = calls("macro push m\nendmacro\ninvoke m\nmacro push m\ndot 1 1\nendmacro\ninvoke m\n");
    assert_eq!(c, [Call::Dot(BLACK, [1.0, 1.0])]);
}

#[test]
fn forget_drops_every_macro() {
    let (c, errors) = run("macro m\ndot 0 0\nendmacro\nforget\ninvoke m\necho done\n");
    assert_eq!(c, [Call::Echo("done".into())]);
    assert_eq!(errors, "t.draw:5:1: error: no macro named `m`\n");
}

#[test]
fn unbounded_recursion_is_a_runtime_error_naming_the_macro() {
    let (c, errors) = run("macro r\ndot 0 0\ninvoke r\nendmacro\ninvoke r\necho after\n");
    assert_eq!(errors, "t.draw:3:1: error: macro `r` nested more than 1000 invocations deep (unbounded recursion?)\n");
    assert_eq!(c.len(), 1001, "1000 dots, then the echo");
    assert_eq!(c.last(), Some(&Call::Echo("after".into())));
}

#[test]
fn pop_on_an_empty_stack_is_reported_and_ignored() {
    let (c, errors) = run("pop\ndot 1 1\n");
    assert_eq!(errors, "t.draw:1:1: error: pop without a matching push: the matrix stack holds only the root matrix\n");
    assert_eq!(c, [Call::Dot(BLACK, [1.0, 1.0])]);
}

#[test]
fn host_errors_name_the_command_and_the_program_goes_on() {
    let (c, errors) = run("blit 0 0 missing\nsetcursor nope\nwarp area nowhere\necho ok\n");
    assert_eq!(
        errors,
        "t.draw:1:1: error: no image named `missing`\nt.draw:2:1: error: no cursor named `nope`\nt.draw:3:1: error: no area named `nowhere`\n"
    );
    assert_eq!(c, [Call::Echo("ok".into())]);
}

#[test]
fn streams_recover_from_malformed_commands() {
    let mut errors = Vec::new();
    let mut s = Stream::new(Recorder::default(), "<stdin>");
    s.push(b"echo a\nrect 0 0- 1 1\necho a2\nlnie 0 0 1 1\ncircle 0 0\necho b\nblit 0 0 nope\nmacro x\nframe\nendmacro\ninvoke x\necho c\nscreenshot out.png\n");
    s.finish();
    assert_eq!(s.run(&mut errors), Status::Done);
    let errors = String::from_utf8(errors).unwrap();
    // `macro x` kept no command, so `x` exists but does nothing (its error
    // was reported once).
    assert_eq!(errors.lines().count(), 5, "{errors}");
    for (line, prefix) in errors.lines().zip([
        "<stdin>:2:8: error: expected a number, found `0-`",
        "<stdin>:4:1: error: expected a command, found `lnie`",
        "<stdin>:5:1: error: `circle` takes 3 numbers and a whole number, x y r verts; found 2",
        "<stdin>:7:1: error: no image named `nope`",
        "<stdin>:9:1: error: `frame` is not allowed inside a macro",
    ]) {
        assert!(line.starts_with(prefix), "{line:?} should start with {prefix:?}\n{errors}");
    }
    assert_eq!(
        s.canvas().calls,
        [
            Call::Echo("a".into()),
            Call::Echo("a2".into()),
            Call::Echo("b".into()),
            Call::Echo("c".into()),
            Call::Screenshot("out.png".into())
        ]
    );
    assert_eq!(s.error_count(), 5);
}

#[test]
fn a_command_runs_as_soon_as_its_last_token_arrives() {
    let mut errors = Vec::new();
    let mut s = Stream::new(Recorder::default(), "<stdin>");
    s.push(b"frame\nline 0 0 1 1\nflush");
    assert_eq!(s.run(&mut errors), Status::NeedInput);
    assert_eq!(s.canvas().calls.len(), 2, "flush waits for the byte after its last token");
    s.push(b"\n");
    s.run(&mut errors);
    assert_eq!(s.canvas().calls.len(), 3);
    s.push(b"lines 0 0 1 1");
    s.run(&mut errors);
    assert_eq!(s.canvas().calls.len(), 3, "a point list may go on");
    s.push(b" f");
    s.run(&mut errors);
    assert_eq!(s.canvas().calls.len(), 4, "the next token is not a number");
}

#[test]
fn keepalive_quit_and_eof() {
    let mut errors = Vec::new();
    let mut s = Stream::new(Recorder::default(), "<stdin>");
    s.push(b"echo 1\nquit\necho 2\n");
    assert_eq!(s.run(&mut errors), Status::Quit);
    assert_eq!(s.canvas().calls, [Call::Echo("1".into()), Call::Quit]);
    let mut s = Stream::new(Recorder::default(), "<stdin>");
    s.push(b"macro m\ndot 0 0\n");
    s.finish();
    assert_eq!(s.run(&mut errors), Status::Done);
    assert_eq!(
        String::from_utf8(errors).unwrap(),
        "<stdin>:1:1: error: macro `m` is never ended (input ended inside it)\n"
    );
}

#[test]
fn visualiser_like_streams() {
    // What real clients send: %f numbers, a large viewport, many macro push
    // blocks before the first frame, thousands of primitives.
    let mut src = String::from("viewport 0.000000 0.000000 - 100300.000000 80000.000000\n");
    for i in 0..200 {
        src += &format!("macro push layer{}\nendmacro\n", i % 7);
        src += &format!(
            "macro push layer{}\nline {}.000000 0.000000 {}.500000 100.000000\nendmacro\n",
            i % 7,
            i * 10,
            i * 10
        );
    }
    src += "frame\n";
    for i in 0..7 {
        src += &format!("invoke layer{i}\n");
    }
    for i in 0..3000 {
        let x = i as f64 * 33.3;
        src += &format!(
            "line {x:.6} {:.6} {:.6} {:.6}\nfillcircle {x:.6} 500.000000 25.000000 12.000000\n",
            x / 2.0,
            x + 10.0,
            x
        );
    }
    src += "flush\n";
    let c = calls(&src);
    assert_eq!(c.len(), 1 + 200 + 6000 + 1);
    let Call::Stroke(_, pts, false) = &c[1] else { panic!() };
    assert!(close(pts[0], [-1.0, -1.0]));
    assert!(matches!(c.last(), Some(Call::Flush)));
}
