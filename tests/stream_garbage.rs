//! A streamed Animator session survives any garbage and keeps executing
//! the good commands around it: random bytes (invalid UTF-8, stray quotes,
//! comments, backslashes, huge numbers) and broken commands (bad
//! arguments, missing arguments, runtime failures) interleaved with good
//! commands, pushed in random pieces. Every good command runs, in order,
//! with exactly its effect, and the garbage has none.
//!
//! `GARBAGE_ROUNDS=N` runs more rounds (default 150).

use animkit_runtime::stream::{REPEAT_SUMMARY, Status, Stream, StreamLimits};
use animkit_vm::engine::animator::canvas::{HAlign, Pen, VAlign};
use animkit_vm::engine::animator::record::{Call, Recorder};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Bytes that never spell a command keyword (keywords are lower case).
const NOISE: &[u8] =
    b"ABCXYZ0123456789 \t\r\x0b\x0c\"\"!!\\\\-+.,:;#%&*()[]{}<>/?'|=~`_^@$\x00\x01\x7f\x80\xc3\xa9\xe2\x82\xff\xfe";

/// Broken commands: each is an error (when read, lowered or run) with no
/// effect whatever follows it. (A command cut short, such as `echo` or
/// `line 1 2` or `echo "open`, is not garbage: the noise after it can
/// complete it. Unterminated strings come from the noise.)
const BROKEN: &[&str] = &[
    "line 1 2 x",
    "circle 0 0 1 2.5",
    "circle 0 0 1 70000",
    "color notacolour",
    "rotate inf",
    "scale nan",
    "dot 1e309 0",
    "thick 5000",
    "dash -1",
    "resize 0 0",
    "viewport 0 0 0 0",
    "endmacro",
    "pop",
    "invoke nothere",
    "invoke 1 2 nothere",
    "viewport nothere",
    "image_set nothere 0 0 xx",
    "blit 0 0 nothere",
    "setcursor nothere",
    "warp area nothere",
    "defcursor c 12 34 0 0",
    "image 0 0 img",
    "colormap xx red",
    "! only a comment",
    "\"a string alone\"",
    "keepalive maybe",
    "text left middle 0 0 t",
    "fillcircle 0 0 1 -3",
    "lien 0 0 1 1",
    "Frame",
    "imgpoly nothere 0 0 1 0 1 1",
];

/// A good command and the call it must make.
fn good(rng: &mut Rng, n: usize) -> (String, Call) {
    match rng.below(4) {
        0 => (format!("echo good{n}"), Call::Echo(format!("good{n}"))),
        1 => (format!("dot {n} -{n}.5"), Call::Dot(Pen::default(), [n as f64, -(n as f64) - 0.5])),
        2 => (
            format!("text right top {n} 0 \"t {n}\""),
            Call::Text(Pen::default(), [n as f64, 0.0], HAlign::Right, VAlign::Top, format!("t {n}")),
        ),
        _ => (format!("line 0 0 {n} 1"), Call::Stroke(Pen::default(), vec![[0.0, 0.0], [n as f64, 1.0]], false)),
    }
}

fn garbage(rng: &mut Rng) -> Vec<u8> {
    let mut g = Vec::new();
    for _ in 0..1 + rng.below(3) {
        if rng.below(2) == 0 {
            for _ in 0..rng.below(40) {
                g.push(NOISE[rng.below(NOISE.len())]);
            }
        } else {
            g.extend_from_slice(BROKEN[rng.below(BROKEN.len())].as_bytes());
        }
        g.push(b' ');
    }
    g.push(b'\n');
    g
}

fn run_round(seed: u64) {
    let mut rng = Rng(seed | 1);
    let mut input = Vec::new();
    let mut expected = Vec::new();
    for n in 0..20 {
        input.extend(garbage(&mut rng));
        let (text, call) = good(&mut rng, n);
        input.extend_from_slice(text.as_bytes());
        input.push(b'\n');
        expected.push(call);
    }
    input.extend(garbage(&mut rng));
    let mut s = Stream::new(Recorder::default(), "<stdin>");
    let mut errors = Vec::new();
    let mut rest = &input[..];
    while !rest.is_empty() {
        let n = (1 + rng.below(64)).min(rest.len());
        s.push(&rest[..n]);
        rest = &rest[n..];
        assert_eq!(s.run(&mut errors), Status::NeedInput);
    }
    s.finish();
    assert_eq!(s.run(&mut errors), Status::Done);
    let calls = &s.canvas().calls;
    if calls != &expected {
        let i = calls.iter().zip(&expected).take_while(|(a, b)| a == b).count();
        panic!(
            "seed {seed}: good command {i} did not run as expected: {:?} instead of {:?}\ninput:\n{}\nerrors:\n{}",
            calls.get(i),
            expected.get(i),
            String::from_utf8_lossy(&input),
            String::from_utf8_lossy(&errors)
        );
    }
    // Each error is one line on the error output, or counted in the note
    // that sums up repeats of the one before it.
    assert_eq!(reported(&String::from_utf8_lossy(&errors)), s.error_count(), "seed {seed}");
}

/// The errors an error output stands for: one an error line, N a note
/// `the same error N more times`.
fn reported(errors: &str) -> usize {
    errors
        .lines()
        .map(|l| match l.split_once(": note: the same error ") {
            Some((_, rest)) => rest.split(' ').next().and_then(|n| n.parse().ok()).unwrap_or(usize::MAX),
            None => 1,
        })
        .sum()
}

/// Issue 41 §2: a stream goes on after errors, so it has no error limit;
/// the same error again and again (every body command after a macro
/// outgrew its limit) is printed once, then summed up every
/// `REPEAT_SUMMARY` repeats and when another error comes.
#[test]
fn repeated_errors_collapse() {
    assert_eq!(REPEAT_SUMMARY, 1000);
    // 20 `line`s fill 100 units of macro code; the next 100 000 are each
    // left out of the body with the same error.
    let mut input = String::from("macro big\n");
    input.push_str(&"line 0 0 1 1\n".repeat(100_020));
    input.push_str("endmacro\nthick 2.5\nthick 2.5\necho after\n");
    let mut s = Stream::new(Recorder::default(), "<stdin>");
    s.set_stream_limits(StreamLimits { macro_size: 100, macro_strings: 1000 });
    let mut errors = Vec::new();
    for piece in input.as_bytes().chunks(65_536) {
        s.push(piece);
        assert_eq!(s.run(&mut errors), Status::NeedInput);
    }
    s.finish();
    assert_eq!(s.run(&mut errors), Status::Done);
    assert_eq!(s.canvas().calls.last(), Some(&Call::Echo("after".into())));
    assert_eq!(s.error_count(), 100_002);
    let errors = String::from_utf8(errors).unwrap();
    let lines: Vec<&str> = errors.lines().collect();
    // The first, 99 notes of 1 000, one of the last 999 when `thick 2.5`
    // comes, `thick 2.5` and its repeat.
    assert_eq!(lines.len(), 1 + 99 + 1 + 1 + 1, "{}", &errors[..2000.min(errors.len())]);
    assert_eq!(
        lines[0],
        "<stdin>:22:1: error: macros would hold more than 100 instructions and constants, or 1000 bytes of strings, in all; this command is left out of macro `big` (`forget` frees macros)"
    );
    assert_eq!(lines[1], "<stdin>: note: the same error 1000 more times, the last at 1022:1, not shown");
    assert_eq!(lines[99], "<stdin>: note: the same error 1000 more times, the last at 99022:1, not shown");
    assert_eq!(lines[100], "<stdin>: note: the same error 999 more times, the last at 100021:1, not shown");
    assert_eq!(lines[101], "<stdin>:100023:7: error: expected a whole number, found `2.5`");
    assert_eq!(lines[102], "<stdin>: note: the same error 1 more time, the last at 100024:7, not shown");
    assert!(errors.len() < 30_000, "{} bytes", errors.len());
    assert_eq!(reported(&errors), s.error_count());
}

#[test]
fn good_commands_survive_interleaved_garbage() {
    let rounds = std::env::var("GARBAGE_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(150);
    for round in 0..rounds {
        run_round(0x9e37_79b9_7f4a_7c15u64.wrapping_mul(round + 1));
    }
}

#[test]
fn good_commands_survive_long_garbage() {
    // Kilobytes of noise at a time, between good commands.
    let mut rng = Rng(77);
    let mut input = Vec::new();
    for n in 0..10 {
        for _ in 0..20_000 {
            input.push(NOISE[rng.below(NOISE.len())]);
        }
        input.extend_from_slice(format!("\necho good{n}\n").as_bytes());
    }
    let mut s = Stream::new(Recorder::default(), "<stdin>");
    let mut errors = Vec::new();
    for piece in input.chunks(4096) {
        s.push(piece);
        s.run(&mut errors);
    }
    s.finish();
    assert_eq!(s.run(&mut errors), Status::Done);
    let expected: Vec<Call> = (0..10).map(|n| Call::Echo(format!("good{n}"))).collect();
    assert_eq!(s.canvas().calls, expected);
}
