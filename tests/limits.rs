//! Every resource limit, with its exact error message and position: the
//! compiler's (sources; SLAP's too, with hostile lines that must stay
//! linear), the Animator reader's (pending command), the
//! stream's (what a long session keeps) and the interpreter's (runaway
//! execution). The list, with where each is enforced, is in
//! `tests/README.md`.

use animkit_compiler::{Options, Source, compile};
use animkit_runtime::stream::{Status, Stream, StreamLimits};
use animkit_vm::engine::animator::Canvas;
use animkit_vm::engine::animator::record::{Call, Recorder};
use animkit_vm::engine::interp::Limits;

/// A canvas that does nothing (so that long runs record nothing).
struct Null;
impl Canvas for Null {}

/// The rendered diagnostics of compiling `text` as `path`.
fn compile_errors(path: &str, text: String) -> String {
    match compile(&[Source::new(path, text)], &Options::default()) {
        Ok(_) => panic!("`{path}` compiled"),
        Err(e) => e.to_string(),
    }
}

/// The first diagnostic's header: `error: MESSAGE` and `--> FILE:LINE:COL`.
fn first_error(rendered: &str) -> String {
    rendered.lines().take(2).map(str::trim).collect::<Vec<_>>().join("\n")
}

/// Runs `input` through a stream over `canvas` (pushed in `chunk`-byte
/// pieces) and returns the canvas and the error lines.
fn stream<C: Canvas>(canvas: C, input: &[u8], chunk: usize, setup: impl FnOnce(&mut Stream<C>)) -> (Stream<C>, String) {
    let mut s = Stream::new(canvas, "<stdin>");
    setup(&mut s);
    let mut errors = Vec::new();
    for piece in input.chunks(chunk.max(1)) {
        s.push(piece);
        assert_eq!(s.run(&mut errors), Status::NeedInput);
    }
    s.finish();
    assert_eq!(s.run(&mut errors), Status::Done);
    (s, String::from_utf8(errors).unwrap())
}

fn echoes(calls: &[Call]) -> Vec<&str> {
    calls
        .iter()
        .filter_map(|c| match c {
            Call::Echo(t) => Some(t.as_str()),
            _ => None,
        })
        .collect()
}

// ---- the compiler: Animator -------------------------------------------

#[test]
fn animator_sizes_and_counts() {
    let cases = [
        ("circle 0 0 1 65537\n", "error: vertex count 65537 is out of range\n--> t.draw:1:14"),
        ("\n  fillcircle 0 0 1 70000\n", "error: vertex count 70000 is out of range\n--> t.draw:2:20"),
        ("resize 16385 10\n", "error: width 16385 is out of range\n--> t.draw:1:8"),
        ("resize 10 16385\n", "error: height 16385 is out of range\n--> t.draw:1:11"),
        ("image 10 8193 big\n", "error: image height 8193 is out of range\n--> t.draw:1:10"),
        ("image 10 10 i\nimage_set i 8193 0 x\n", "error: column 8193 is out of range\n--> t.draw:2:13"),
        ("thick 1025\n", "error: thickness 1025 is out of range\n--> t.draw:1:7"),
        ("dash 65536\n", "error: dash pattern 65536 is out of range\n--> t.draw:1:6"),
    ];
    for (src, expected) in cases {
        assert_eq!(first_error(&compile_errors("t.draw", src.into())), expected, "{src}");
    }
    // The values just inside the limits compile.
    let ok = "circle 0 0 1 65536\nresize 16384 16384\nimage 8192 8192 big\nthick 1024\ndash 65535\n";
    compile(&[Source::new("t.draw", ok)], &Options::default()).unwrap();
}

#[test]
fn animator_numbers_that_overflow_the_format() {
    let cases = [
        ("rotate 1e309\n", "error: expected a number, found `1e309` (not a finite number)\n--> t.draw:1:8"),
        ("dash 1e30\n", "error: expected a whole number, found `1e30` (out of range)\n--> t.draw:1:6"),
        (
            "thick 99999999999999999999\n",
            "error: expected a whole number, found `99999999999999999999` (out of range)\n--> t.draw:1:7",
        ),
        (
            "circle 0 0 1 0x10000000000000000\n",
            "error: expected a whole number, found `0x10000000000000000` (out of range)\n--> t.draw:1:14",
        ),
    ];
    for (src, expected) in cases {
        assert_eq!(first_error(&compile_errors("t.draw", src.into())), expected, "{src}");
    }
    // Large finite numbers are fine: they are f64 in the bundle.
    compile(&[Source::new("t.draw", "dot 1e308 -1e308\n")], &Options::default()).unwrap();
}

#[test]
fn animator_string_length() {
    let text = format!("echo \"{}\"\n", "x".repeat(animkit_vm::engine::limits::MAX_STRING + 1));
    assert_eq!(
        first_error(&compile_errors("t.draw", text)),
        "error: string of 1048577 bytes is too long\n--> t.draw:1:6"
    );
    let text = format!("echo \"{}\"\n", "x".repeat(animkit_vm::engine::limits::MAX_STRING));
    compile(&[Source::new("t.draw", text)], &Options::default()).unwrap();
}

#[test]
fn animator_point_lists() {
    let max = animkit_vm::engine::limits::MAX_POINTS;
    let mut text = String::from("frame\n  lines");
    for _ in 0..=max {
        text.push_str(" 0 0");
    }
    text.push_str("\nflush\n");
    let rendered = compile_errors("t.draw", text);
    assert_eq!(first_error(&rendered), "error: `lines` has more than 1000000 points\n--> t.draw:2:3");
    assert_eq!(rendered.matches("error:").count(), 1, "one error");
    assert!(rendered.contains("\n  |   ^^^^^ too many points\n"));
}

#[test]
fn reader_tokens_and_commands() {
    use animkit_grammar::animator::parse_with_pos;
    use animkit_grammar::animator::reader::{MAX_COMMAND, MAX_POINTS, MAX_TOKEN};
    assert_eq!((MAX_TOKEN, MAX_COMMAND, MAX_POINTS), (4 << 20, 64 << 20, animkit_vm::engine::limits::MAX_POINTS));
    // A word and a string longer than the token limit.
    let text = format!("frame\necho {}\nflush\n", "w".repeat(MAX_TOKEN + 1));
    assert_eq!(first_error(&compile_errors("t.draw", text)), "error: word longer than 4194304 bytes\n--> t.draw:2:6");
    let text = format!("frame\n  title \"{}\"\nflush\n", "s".repeat(MAX_TOKEN));
    let (commands, errors) = parse_with_pos(&text);
    assert_eq!(commands.len(), 2);
    assert_eq!(errors[0].to_string(), "2:9: string longer than 4194304 bytes");
    // A command longer than the command limit (a long comment inside it).
    let text = format!("frame\nline 0 0 ! {}\n 1 1\nflush\n", "c".repeat(MAX_COMMAND));
    let (commands, errors) = parse_with_pos(&text);
    assert_eq!(commands.len(), 2);
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].to_string(), "2:1: `line` command longer than 67108864 bytes");
}

// ---- the compiler: sprites ----------------------------------------------

#[test]
fn sprite_numbers_and_states() {
    let cases = [
        ("Idle: 16777216, _loop\n", "error: duration `16777216` is too large\n--> t.anim:1:7"),
        ("Idle: 1|16777216, _loop\n", "error: frame index `16777216` is too large\n--> t.anim:1:9"),
        ("Idle: 1|16777215, 1, _loop\n", "error: automatic frame index 16777216 is too large\n--> t.anim:1:19"),
        (
            "Idle: 99999999999999999999999, _loop\n",
            "error: duration `99999999999999999999999` is too large\n--> t.anim:1:7",
        ),
    ];
    for (src, expected) in cases {
        assert_eq!(first_error(&compile_errors("t.anim", src.into())), expected, "{src}");
    }
    let max = animkit_compiler::sprite::check::MAX_STATES;
    let mut text = String::new();
    for i in 0..=max {
        text.push_str(&format!("S{i}: 1, _loop\n"));
    }
    assert_eq!(
        first_error(&compile_errors("t.anim", text)),
        "error: too many states: at most 65535 fit in one sprite file\n--> t.anim:65536:1"
    );
}

#[test]
#[ignore = "parses an 8 MB sprite file (10 s in a debug build; the check itself is unit-tested in compiler/src/sprite/check.rs); run with --ignored"]
fn sprite_code_size() {
    // `_pingpong` replays the first frame's events: 2^22 events make
    // 2^23 + 5 instructions, five more than a jump can span.
    let n = 1 << 22;
    let mut text = String::with_capacity(2 * n + 40);
    text.push_str("Idle: 1");
    for _ in 0..n {
        text.push_str("|e");
    }
    text.push_str(", 1, _pingpong\n");
    assert_eq!(
        first_error(&compile_errors("t.anim", text)),
        "error: the sprite file is too large: its states need more than 8388608 instructions\n--> t.anim:1:"
            .to_string()
            + &(2 * n + 13).to_string()
    );
}

#[test]
#[ignore = "compiles 16.7 million distinct event names (minutes, gigabytes); run with --ignored"]
fn sprite_event_ids() {
    let n = (1 << 24) + 1;
    let mut text = String::from("Idle: 1");
    for i in 0..n {
        text.push_str(&format!("|e{i:x}"));
    }
    text.push_str(", _loop\n");
    let e = compile_errors("t.anim", text);
    assert!(e.starts_with("error: the sources use 16777"), "{e}");
}

// ---- the compiler: SLAP ------------------------------------------------------

/// `animc --check`'s rendering of a SLAP source's diagnostics as `t.slap`
/// (the front end and the renderer the driver uses).
fn slap_errors(text: &str) -> String {
    match animkit_compiler::slap::front(text) {
        Ok(_) => panic!("the scene checked"),
        Err(d) => animkit_compiler::diagnostic::render("t.slap", text, &d),
    }
}

fn slap_checks(text: &str) {
    if let Err(d) = animkit_compiler::slap::front(text) {
        panic!("{}", animkit_compiler::diagnostic::render("t.slap", text, &d));
    }
}

/// The diagnostics of a SLAP source, unrendered (for lines too long to
/// print in a test).
fn slap_diagnostics(text: &str) -> Vec<animkit_compiler::diagnostic::Diagnostic> {
    animkit_compiler::slap::front(text).err().unwrap_or_default()
}

const TOO_DEEP: &str = "error: expression nested more than 64 levels deep";

#[test]
fn slap_expression_nesting() {
    use animkit_vm::engine::limits::MAX_SLAP_NESTING;
    assert_eq!(MAX_SLAP_NESTING, 64);
    let parens = |n: usize| format!("actor 1 size {}1{}\n", "(".repeat(n), ")".repeat(n));
    let sums = |n: usize| format!("actor 1 size 1{}\n", "+1".repeat(n));
    let minuses = |n: usize| format!("actor 1 size {}1\n", "-".repeat(n));
    for text in [parens(64), sums(64), minuses(64), format!("time +{}1{}\n", "-(".repeat(32), ")".repeat(32))] {
        slap_checks(&text);
    }
    // The 65th open parenthesis (the lexer's limit), the 65th operator
    // from the inside (the grammar's): for `+`, the last one; for unary
    // minus, the first one written.
    assert_eq!(first_error(&slap_errors(&parens(65))), format!("{TOO_DEEP}\n--> t.slap:1:78"));
    assert_eq!(first_error(&slap_errors(&sums(65))), format!("{TOO_DEEP}\n--> t.slap:1:143"));
    assert_eq!(first_error(&slap_errors(&minuses(65))), format!("{TOO_DEEP}\n--> t.slap:1:14"));
    // `-(` is two levels: the 33rd pair from the inside goes over at its
    // parenthesis.
    let rendered = slap_errors(&format!("\ntime 1\n  camera position 0 0 {}1{}\n", "-(".repeat(33), ")".repeat(33)));
    assert_eq!(first_error(&rendered), format!("{TOO_DEEP}\n--> t.slap:3:24"));
    assert_eq!(rendered.matches("error:").count(), 1, "{rendered}");
}

#[test]
fn slap_deep_nesting_stays_linear() {
    // A million parentheses, unary minuses, operators, unclosed and
    // unmatched parentheses on one line: one error each, at the level
    // that goes over, in about a second each in a debug build (a
    // quadratic pass would take hours).
    let n = 1_000_000;
    let cases = [
        (format!("actor 1 size {}1{}\n", "(".repeat(n), ")".repeat(n)), "1:78"),
        (format!("actor 1 size {}1\n", "(".repeat(n)), "1:78"),
        (format!("actor 1 size {}1\n", "-".repeat(60_000)), "1:59949"),
        (format!("actor 1 size 1{}\n", "+1".repeat(n)), "1:143"),
        (format!("actor 1 size 1{}\n", "*-1".repeat(n)), "1:204"),
    ];
    let t = animkit_test_support::cpu::ThreadTimer::start();
    for (text, at) in &cases {
        let d = slap_diagnostics(text);
        assert_eq!(d.len(), 1, "{at}: {:?}", d.iter().map(|d| &d.message).collect::<Vec<_>>());
        let rendered = slap_errors(text);
        assert_eq!(first_error(&rendered), format!("{TOO_DEEP}\n--> t.slap:{at}"));
    }
    let text = format!("actor 1 size 1{}\n", ")".repeat(n));
    assert_eq!(first_error(&slap_errors(&text)), "error: unmatched `)`\n--> t.slap:1:15");
    assert!(t.elapsed().as_secs() < 120, "{:?}", t.elapsed());
}

#[test]
fn slap_counts() {
    use animkit_vm::engine::limits::{MAX_SLAP_DEFINE_VALUES, MAX_SLAP_DEFINES};
    // Defines: 65 536 names, the 65 537th refused at its name.
    let mut text = String::new();
    for i in 0..MAX_SLAP_DEFINES {
        text.push_str(&format!("define d{i} 1\n"));
    }
    text.push_str("define d0 2\nactor d65535 size d0\n");
    slap_checks(&text);
    text.push_str("define  one_more 1\n");
    assert_eq!(
        first_error(&slap_errors(&text)),
        "error: too many defines: a scene may define at most 65536 names\n--> t.slap:65539:9"
    );
    // Values of one define: 64, counted after expansion, the 65th refused.
    let values = |n: usize| format!("define x{}\n", " 1".repeat(n));
    slap_checks(&values(MAX_SLAP_DEFINE_VALUES));
    assert_eq!(
        first_error(&slap_errors(&values(65))),
        "error: `x` would hold 65 values, more than the 64 a define may hold\n--> t.slap:1:10"
    );
    let expanded = format!("define eight{}\ndefine x{}\n", " 1".repeat(8), " eight".repeat(8) + " 1");
    assert_eq!(
        first_error(&slap_errors(&expanded)),
        "error: `x` would hold 65 values, more than the 64 a define may hold\n--> t.slap:2:10"
    );
}

#[test]
fn slap_frames() {
    use animkit_vm::engine::limits::MAX_SLAP_FRAME;
    assert_eq!(MAX_SLAP_FRAME, 16_777_215);
    slap_checks("time 16777215\nactor 1 size 1\ntime 16777215.4\ntime +0.09\n");
    let past = "error: frame 16777216 is past the last frame a scene may have";
    assert_eq!(first_error(&slap_errors("time 16777216\n")), format!("{past}\n--> t.slap:1:6"));
    assert_eq!(first_error(&slap_errors("time 16777215.5\n")), format!("{past}\n--> t.slap:1:6"));
    assert_eq!(first_error(&slap_errors("time 16777215\n  time +1\n")), format!("{past}\n--> t.slap:2:8"));
    assert_eq!(
        first_error(&slap_errors("define sec 1e7\ntimep 2*sec\n")),
        format!("error: frame 20000000 is past the last frame a scene may have\n--> t.slap:2:7")
    );
    assert_eq!(
        first_error(&slap_errors("time 1e300\n")),
        "error: frame 1e300 is past the last frame a scene may have\n--> t.slap:1:6"
    );
}

#[test]
#[ignore = "a million SLAP actors and 16.7 million time directives (tens of seconds, gigabytes in a debug build); run with --release --ignored"]
fn slap_actors_and_time_points() {
    use animkit_vm::engine::limits::{MAX_SLAP_ACTORS, MAX_SLAP_TIME_POINTS};
    let mut text = String::with_capacity(24 * MAX_SLAP_ACTORS);
    for i in 0..MAX_SLAP_ACTORS {
        text.push_str(&format!("actor {i} size 1\n"));
    }
    text.push_str("actor 0 size 2\n");
    slap_checks(&text);
    text.push_str("actor 4294967295 size 1\n");
    assert_eq!(
        first_error(&slap_errors(&text)),
        "error: too many actors: a scene may name at most 1048576\n--> t.slap:1048578:7"
    );
    let mut text = "timep 0\n".repeat(MAX_SLAP_TIME_POINTS);
    slap_checks(&text);
    text.push_str("time 1\n");
    assert_eq!(
        first_error(&slap_errors(&text)),
        "error: too many time directives: a scene may have at most 16777216\n--> t.slap:16777217:1"
    );
}

/// Lines of 50 MB whose cost is their bytes: a name, a number, a comment,
/// spaces, a fraction. Checked in linear time and a few times their size
/// in memory (`tests/slap_alloc.rs` counts).
#[test]
fn slap_50_mb_lines() {
    let mb = 50 << 20;
    let t = animkit_test_support::cpu::ThreadTimer::start();
    let name = "a".repeat(mb);
    let d = slap_diagnostics(&format!("{name}\ntime 1\n"));
    assert_eq!(d.len(), 1);
    assert_eq!((d[0].message.len(), &d[0].message[..20]), (mb + 20, "unknown directive `a"));
    assert_eq!((d[0].span.start, d[0].span.end), (0, mb));
    let d = slap_diagnostics(&format!("actor 1 size {}\n", "1".repeat(mb)));
    assert_eq!(d.len(), 1);
    assert!(d[0].message.starts_with("number `111") && d[0].message.ends_with("` is too large"));
    drop(d);
    slap_checks(&format!("actor 1 size 1 # {name}\n"));
    slap_checks(&format!("actor 1 size 1.{}1\n", "0".repeat(mb)));
    slap_checks(&format!("actor 1 size{}1\n", " \t".repeat(mb / 2)));
    slap_checks(&format!("define {name} 1\nactor 1 size ({name} + 1)\n"));
    assert!(t.elapsed().as_secs() < 120, "{:?}", t.elapsed());
}

/// Lines of many tokens: 1 MB by default (`--ignored` runs them at 50 MB).
/// A line holds at most `MAX_LINE_TOKENS` (65 536) tokens: past them it is
/// one error at the first token too many, and the rest of the line is
/// read without being kept, so its cost does not grow with its length.
fn slap_many_token_lines(mb: usize) {
    use animkit_grammar::slap::MAX_LINE_TOKENS;
    let n = mb << 20;
    let t = animkit_test_support::cpu::ThreadTimer::start();
    let found = |text: String| {
        let d = slap_diagnostics(&text);
        assert_eq!(d.len(), 1, "{:?}", d.iter().map(|d| &d.message).collect::<Vec<_>>());
        (d[0].message.clone(), d[0].span.start)
    };
    let too_many = format!("this line has more than {MAX_LINE_TOKENS} tokens");
    let values = n / 2;
    // `actor`, a space, `1`, a space, `color`: the 65 537th token is a `1`.
    assert_eq!(found(format!("actor 1 color{}\n", " 1".repeat(values))), (too_many.clone(), 65_544));
    assert_eq!(found(format!("define x{}\n", " 1".repeat(values))), (too_many.clone(), 65_541));
    // Under the limit, the checker counts them.
    assert_eq!(
        found(format!("actor 1 color{}\n", " 1".repeat(30_000))),
        ("`color` takes 3 values (`r g b`), found 30000".to_string(), 14)
    );
    assert_eq!(
        found(format!("define x{}\n", " 1".repeat(30_000))),
        ("`x` would hold 30000 values, more than the 64 a define may hold".to_string(), 9)
    );
    assert_eq!(found(format!("actor 1 color{}\n", " (1)".repeat(n / 4))), (too_many.clone(), 65_544));
    let minus = n / 3;
    assert_eq!(found(format!("actor 1 size {}\n", "1 -".repeat(minus))), (too_many.clone(), 65_544));
    assert_eq!(
        found(format!("actor 1 size {}\n", "1 -".repeat(10_000))),
        ("expected a number, a name or `(` after `-`, found end of line".to_string(), 13 + 3 * 10_000 - 1)
    );
    // An error before the cut is the line's error, as if it were read whole.
    assert_eq!(
        found(format!("actor 1 size 1 - 2{}\n", " 1".repeat(values))),
        ("`-` between spaces is not an argument".to_string(), 15)
    );
    assert_eq!(found(format!("actor 1 size {}\n", ";".repeat(n))), ("unexpected character `;`".to_string(), 13));
    assert!(t.elapsed().as_secs() < 60 * mb as u64, "{:?}", t.elapsed());
}

#[test]
fn slap_long_lines_of_many_tokens() {
    slap_many_token_lines(1);
}

#[test]
#[ignore = "50 MB lines of 13 to 50 million tokens (minutes and about 8 GB in a debug build); run with --release --ignored"]
fn slap_50_mb_lines_of_many_tokens() {
    slap_many_token_lines(50);
}

// ---- streams --------------------------------------------------------------

#[test]
fn reader_limits_in_a_stream_keep_memory_bounded() {
    use animkit_grammar::animator::reader::{MAX_COMMAND, MAX_TOKEN};
    // An endless word, an endless string and an endless comment, each
    // arriving in 64 KiB pieces between good commands: the reader never
    // holds much more than one token, and every good command runs.
    let mut input = b"echo 1\n".to_vec();
    input.extend(std::iter::repeat_n(b'w', 3 * MAX_TOKEN));
    input.extend_from_slice(b"\necho 2\necho \"");
    input.extend(std::iter::repeat_n(b's', 3 * MAX_TOKEN));
    input.extend_from_slice(b"\\\"\"\necho 3\n!");
    input.extend(std::iter::repeat_n(b'c', 3 * MAX_TOKEN));
    input.extend_from_slice(b"\necho 4\nline 0 0");
    for _ in 0..MAX_COMMAND / 32 {
        input.extend_from_slice(b" ! long comment inside a command\n");
    }
    input.extend_from_slice(b"1 1\necho 5\n");
    let mut most = 0;
    let mut s = Stream::new(Recorder::default(), "<stdin>");
    let mut errors = Vec::new();
    for piece in input.chunks(64 << 10) {
        s.push(piece);
        s.run(&mut errors);
        most = most.max(s.buffered());
    }
    s.finish();
    s.run(&mut errors);
    assert!(most < MAX_COMMAND + (1 << 20), "the reader held {most} bytes");
    assert_eq!(echoes(&s.canvas().calls), ["1", "2", "3", "4", "5"]);
    assert_eq!(
        String::from_utf8(errors).unwrap(),
        "<stdin>:2:1: error: word longer than 4194304 bytes\n\
         <stdin>:4:6: error: string longer than 4194304 bytes\n\
         <stdin>:8:1: error: `line` command longer than 67108864 bytes\n"
    );
}

#[test]
fn stream_macro_memory() {
    let limits = StreamLimits { macro_size: 100, macro_strings: 1000 };
    // Macro code: 4 numbers + 1 instruction per `line`, 20 lines fill it.
    let mut src = String::from("macro big\n");
    for _ in 0..25 {
        src.push_str("line 0 0 1 1\n");
    }
    src.push_str("endmacro\ninvoke big\necho after\n");
    let (s, errors) = stream(Recorder::default(), src.as_bytes(), 7, |s| s.set_stream_limits(limits));
    let lines = s.canvas().calls.iter().filter(|c| matches!(c, Call::Stroke(..))).count();
    assert_eq!(lines, 20, "the body keeps the commands that fit (20 * 5)");
    assert_eq!(echoes(&s.canvas().calls), ["after"]);
    let first = "<stdin>:22:1: error: macros would hold more than 100 instructions and constants, or 1000 bytes of strings, in all; this command is left out of macro `big` (`forget` frees macros)";
    assert_eq!(errors.lines().next(), Some(first));
    // The four repeats of it are summed up in one line (issue 41 §2).
    assert_eq!(errors.lines().nth(1), Some("<stdin>: note: the same error 4 more times, the last at 26:1, not shown"));
    assert_eq!(errors.lines().count(), 2);
    // Strings: texts inside macro bodies and macro names.
    let long = "t".repeat(600);
    let src = format!("macro a\ntext 0 0 {long}\ntext 0 0 {long}x\nendmacro\nmacro {long}y\nendmacro\n");
    let (_, errors) = stream(Recorder::default(), src.as_bytes(), 100, |s| s.set_stream_limits(limits));
    assert_eq!(
        errors,
        "<stdin>:3:1: error: macros would hold more than 100 instructions and constants, or 1000 bytes of strings, in all; this command is left out of macro `a` (`forget` frees macros)\n\
         <stdin>:5:1: error: macros would hold more than 1000 bytes of strings in all; macro `".to_string()
            + &long
            + "y` is not defined (`forget` frees macros)\n<stdin>:6:1: error: `endmacro` without `macro`\n"
    );
    // `forget` frees the room again.
    let src = format!("macro a\ntext 0 0 {long}\nendmacro\nforget\nmacro b\ntext 0 0 {long}z\nendmacro\ninvoke b\n");
    let (s, errors) = stream(Recorder::default(), src.as_bytes(), 100, |s| s.set_stream_limits(limits));
    assert_eq!(errors, "");
    assert_eq!(s.canvas().calls.len(), 1);
    assert_eq!(StreamLimits::default(), StreamLimits { macro_size: 1 << 24, macro_strings: 64 << 20 });
}

#[test]
fn stream_names_are_cleaned_up() {
    // `invoke` of ever new names (each an error) and ever new macro names
    // do not make the stream keep ever more strings.
    let mut src = String::new();
    for i in 0..20_000 {
        src.push_str(&format!("invoke never_defined_{i}\nmacro m{i}\ndot 0 0\nendmacro\nforget\n"));
    }
    let (s, errors) = stream(Null, src.as_bytes(), 4096, |_| {});
    assert_eq!(errors.lines().count(), 20_000);
    let (count, bytes) = s.retained_strings();
    assert!(count <= 4 * 1024 + 10 && bytes < 4 << 20, "kept {count} strings, {bytes} bytes");
    assert_eq!(s.macro_size(), 0);
}

// ---- the interpreter ------------------------------------------------------

#[test]
fn call_depth() {
    let (_, errors) = stream(Null, b"macro r\ninvoke r\nendmacro\n\n  invoke r\necho done\n", 64, |_| {});
    assert_eq!(errors, "<stdin>:2:1: error: macro `r` nested more than 1000 invocations deep (unbounded recursion?)\n");
}

#[test]
fn work_per_call() {
    // 26 macros, each invoking the previous one twice: 2^26 dots from a
    // few hundred bytes. The call is stopped at the limit, at the
    // top-level `invoke`, and the stream goes on.
    let mut src = String::from("macro a0\ndot 0 0\nendmacro\n");
    for i in 1..26 {
        src.push_str(&format!("macro a{i}\ninvoke a{}\ninvoke a{}\nendmacro\n", i - 1, i - 1));
    }
    src.push_str("  invoke 1 2 a25\necho after\n");
    let t = animkit_test_support::cpu::ThreadTimer::start();
    let (s, errors) = stream(Null, src.as_bytes(), 4096, |_| {});
    assert_eq!(
        errors,
        "<stdin>:104:3: error: macro `a25` ran longer than 16777216 steps (instructions, points and vertices drawn); it was stopped\n"
    );
    assert!(t.elapsed().as_secs() < 60);
    drop(s);
    // With a small budget, points count too: 3 polygons of 4 points
    // cost 3 * (1 + 4) + the macro's own steps.
    let src =
        "macro p\npoly 0 0 1 0 1 1 0 1\npoly 0 0 1 0 1 1 0 1\npoly 0 0 1 0 1 1 0 1\nendmacro\ninvoke p\necho after\n";
    let limits = Limits { max_steps: 15, ..Limits::default() };
    let (s, errors) = stream(Recorder::default(), src.as_bytes(), 64, |s| s.set_limits(limits));
    assert_eq!(
        errors,
        "<stdin>:6:1: error: macro `p` ran longer than 15 steps (instructions, points and vertices drawn); it was stopped\n"
    );
    assert_eq!(echoes(&s.canvas().calls), ["after"]);
    assert_eq!(Limits::default(), Limits { max_depth: 1000, max_steps: 1 << 24, whole_run: false });
}

#[test]
fn measuring_macros_is_bounded() {
    // `viewport NAME` measures by running the macro: nested measurements
    // stop at 16 levels (the one too deep does nothing, like any failing
    // command inside a measured macro)...
    let mut src = String::from("macro m0\ndot 0 0\ndot 1 1\nendmacro\n");
    for i in 1..=17 {
        src.push_str(&format!("macro m{i}\nviewport m{}\ndot 0 0\ndot 1 1\nendmacro\n", i - 1));
    }
    src.push_str("viewport m17\n");
    let (_, errors) = stream(Null, src.as_bytes(), 4096, |_| {});
    assert_eq!(errors, "");
    assert_eq!(animkit_vm::engine::animator::machine::MAX_MEASURE_DEPTH, 16);
    // ... and within the caller's work budget.
    let mut src = String::from("macro a0\ndot 0 0\ndot 1 1\nendmacro\n");
    for i in 1..30 {
        src.push_str(&format!("macro a{i}\ninvoke a{}\ninvoke a{}\nendmacro\n", i - 1, i - 1));
    }
    src.push_str("macro v\nviewport a29\nendmacro\ninvoke v\necho after\n");
    let (s, errors) = stream(Recorder::default(), src.as_bytes(), 4096, |s| {
        s.set_limits(Limits { max_steps: 10_000, ..Limits::default() })
    });
    assert_eq!(
        errors,
        "<stdin>:122:1: error: viewport a29: measuring the macro took more than the 9968 steps left to this call\n\
         <stdin>:124:1: error: macro `v` ran longer than 10000 steps (instructions, points and vertices drawn); it was stopped\n"
    );
    assert_eq!(echoes(&s.canvas().calls), ["after"]);
}

#[test]
fn matrix_stack() {
    let mut src = "push\n".repeat(animkit_vm::engine::animator::machine::MAX_MATRIX_STACK - 1);
    src.push_str("push\necho ok\n");
    let (s, errors) = stream(Recorder::default(), src.as_bytes(), 1 << 16, |_| {});
    assert_eq!(errors, "<stdin>:65536:1: error: push: the matrix stack is full (65536 matrices)\n");
    assert_eq!(echoes(&s.canvas().calls), ["ok"]);
}

#[test]
fn what_a_program_holds_on_its_host() {
    use animkit_vm::engine::animator::machine::HostLimits;
    // Areas take their name plus 16 bytes a point: 49 bytes for 3 points.
    let small = HostLimits { areas: 3, area_bytes: 200, images: 2, cursors: 1, name_bytes: 10 };
    let zeros = "0".repeat(256);
    let src = format!(
        "area a 0 0 1 0 1 1\narea b 0 0 1 0 1 1\narea c 0 0 1 0 1 1\narea d 0 0 1 0 1 1\narea a 0 0 1 0 1 1 2 2\n\
         delarea b\narea e 0 0 1 0 1 1 2 2 3 3 4 4\n\
         image 1 1 i1\nimage 1 1 i2\nimage 1 1 i3\nimage 1 1 i1\nimage 1 1 longer_name\n\
         defcursor c {zeros} {zeros} 0 0\ndefcursor d {zeros} {zeros} 0 0\nsetcursor c\nsetcursor d\n"
    );
    let (s, errors) = stream(Recorder::default(), src.as_bytes(), 32, |s| s.set_host_limits(small));
    assert_eq!(
        errors,
        "<stdin>:4:1: error: area `d`: the program already holds 3 areas, the most it may (`delarea` and `killareas` free them)\n\
         <stdin>:7:1: error: area `e`: areas would take more than 200 bytes (`delarea` and `killareas` free them)\n\
         <stdin>:10:1: error: image `i3`: the program already holds 2 images, the most it may (images cannot be deleted; reuse names)\n\
         <stdin>:12:1: error: image `longer_name`: the program already holds 2 images, the most it may (images cannot be deleted; reuse names)\n\
         <stdin>:14:1: error: cursor `d`: the program already holds 1 cursors, the most it may (cursors cannot be deleted; reuse names)\n\
         <stdin>:16:1: error: no cursor named `d`\n"
    );
    let areas = s.canvas().calls.iter().filter(|c| matches!(c, Call::Area(..))).count();
    assert_eq!(areas, 4, "a, b, c and the new a");
    assert_eq!(s.canvas().images, ["i1", "i2"]);
    // The defaults.
    assert_eq!(
        HostLimits::default(),
        HostLimits { areas: 4096, area_bytes: 64 << 20, images: 1024, cursors: 1024, name_bytes: 16 << 20 }
    );
    let mut src = String::new();
    for i in 0..=4096 {
        src.push_str(&format!("area a{i} 0 0 1 0 1 1\n"));
    }
    src.push_str("killareas\narea again 0 0 1 0 1 1\n");
    let (s, errors) = stream(Null, src.as_bytes(), 1 << 16, |_| {});
    assert_eq!(
        errors,
        "<stdin>:4097:1: error: area `a4096`: the program already holds 4096 areas, the most it may (`delarea` and `killareas` free them)\n"
    );
    drop(s);
}

#[test]
fn sprite_checks_stay_fast_on_big_files() {
    // 65 535 states chained by zero-duration transitions (a cubic walk
    // before: hours), ending in a cycle so that the check reports it.
    let n = animkit_compiler::sprite::check::MAX_STATES;
    let mut text = String::new();
    for i in 0..n - 1 {
        text.push_str(&format!("S{i}: 0|e, S{}\n", i + 1));
    }
    text.push_str(&format!("S{}: 0|e, S{}\n", n - 1, n - 2));
    let t = animkit_test_support::cpu::ThreadTimer::start();
    let rendered = compile_errors("t.anim", text);
    assert_eq!(
        first_error(&rendered),
        "error: transitions S65533 -> S65534 -> S65533 would run forever within one tick\n--> t.anim:65534:14"
    );
    // Suggestions: names of 100 000 characters (an 80 GB table before) and
    // thousands of unknown names among thousands of states.
    let long = "B".repeat(100_000);
    let text = format!("{long}1: 1, _loop\nA: 1, {long}2\n");
    let rendered = compile_errors("t.anim", text);
    // The name is quoted as an excerpt: its start and its length.
    let excerpt = format!("error: unknown state `{}…` ({} bytes)", &long[..32], long.len() + 1);
    assert!(rendered.starts_with(&excerpt), "{}", &rendered[..rendered.len().min(300)]);
    assert!(rendered.len() < 2_000, "{} bytes of error", rendered.len());
    assert!(!rendered.contains("did you mean"));
    let mut text = String::new();
    for i in 0..5000 {
        text.push_str(&format!("State{i:05}: 1, Unknown{i:05}\n"));
    }
    let rendered = compile_errors("t.anim", text);
    // All 5 000 found, the first 100 printed (issue 41 §1).
    assert_eq!(rendered.matches("error: unknown state").count(), 100);
    assert!(rendered.ends_with("error: 4900 more errors not shown (at most 100 are printed)\n"), "{rendered}");
    assert!(t.elapsed().as_secs() < 30, "{:?}", t.elapsed());
}
