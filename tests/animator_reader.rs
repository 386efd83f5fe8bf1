//! The Animator front end end to end: every command and form with exact AST
//! values, the lexical rules, every error message with its position (the
//! reader's and, for values as written, the checker's: the reader records
//! them and `animkit_compiler::animator::check` explains them), recovery,
//! and streaming (byte by byte, random chunks, proptest).

// The reader hands out `Result<Command, ReadError>` items by value, as
// its API does; boxing them here would only test a different shape.
#![allow(clippy::result_large_err)]

use animkit_compiler::animator::check::{self, Checker, Text};
use animkit_grammar::Span;
use animkit_grammar::animator::ast::*;
use animkit_grammar::animator::{ReadError, Reader, parse, parse_with_pos};
use proptest::prelude::*;

// ----- helpers -----------------------------------------------------------

/// The whitespace-separated words of a simple source (no quoted spaces), to
/// build expected values independently of the lexer.
struct W<'a> {
    src: &'a str,
    words: Vec<Span>,
}

impl<'a> W<'a> {
    fn new(src: &'a str) -> W<'a> {
        let mut words = Vec::new();
        let mut start = None;
        for (i, b) in src.bytes().enumerate().chain([(src.len(), b' ')]) {
            match (b.is_ascii_whitespace(), start) {
                (false, None) => start = Some(i),
                (true, Some(s)) => {
                    words.push(Span::new(s, i));
                    start = None;
                }
                _ => {}
            }
        }
        W { src, words }
    }
    fn span(&self, i: usize) -> Span {
        self.words[i]
    }
    fn text(&self, i: usize) -> &str {
        &self.src[self.words[i].range()]
    }
    fn num(&self, i: usize) -> Num {
        Num { value: self.text(i).parse().unwrap(), span: self.span(i) }
    }
    fn int(&self, i: usize) -> Int {
        Int::new(self.text(i).parse::<f64>().unwrap() as i64, self.span(i))
    }
    fn pt(&self, i: usize) -> Point {
        Point { x: self.num(i), y: self.num(i + 1) }
    }
    fn pts(&self, first: usize, n: usize) -> Vec<Point> {
        (0..n).map(|k| self.pt(first + 2 * k)).collect()
    }
    fn s(&self, i: usize) -> Str {
        Str { text: self.text(i).to_string(), span: self.span(i) }
    }
}

/// The only command of `src`, which must have no errors.
fn one(src: &str) -> Command {
    let (commands, errors) = parse(src);
    assert!(errors.is_empty(), "{src:?}: {errors:?}");
    assert_eq!(commands.len(), 1, "{src:?}: {commands:?}");
    commands.into_iter().next().unwrap()
}

fn cmd(src: &str) -> Cmd {
    one(src).kind
}

fn str_at(text: &str, start: usize, end: usize) -> Str {
    Str { text: text.to_string(), span: Span::new(start, end) }
}

/// Every result of reading `src` in pieces of the given sizes (cycled).
fn read_chunked(src: &[u8], sizes: &[usize]) -> Vec<Result<Command, ReadError>> {
    let mut reader = Reader::new();
    let mut out = Vec::new();
    let mut at = 0;
    let mut k = 0;
    while at < src.len() {
        let n = sizes[k % sizes.len()].max(1).min(src.len() - at);
        k += 1;
        reader.push(&src[at..at + n]);
        at += n;
        while let Some(item) = reader.next() {
            out.push(item);
        }
    }
    reader.finish();
    while let Some(item) = reader.next() {
        out.push(item);
    }
    out
}

/// `parse_with_pos`, as one stream of results in order.
fn read_whole(src: &str) -> Vec<Result<Command, ReadError>> {
    read_chunked(src.as_bytes(), &[usize::MAX])
}

/// Each result of `src` fed one byte at a time, with the number of bytes
/// pushed when it came (`src.len() + 1`: only at `finish`).
fn read_bytewise(src: &str) -> Vec<(usize, Result<Command, ReadError>)> {
    let mut reader = Reader::new();
    let mut out = Vec::new();
    for (i, b) in src.bytes().enumerate() {
        reader.push(&[b]);
        while let Some(item) = reader.next() {
            out.push((i + 1, item));
        }
    }
    reader.finish();
    while let Some(item) = reader.next() {
        out.push((src.len() + 1, item));
    }
    out
}

/// An error of the whole front end.
#[derive(Clone, Debug, PartialEq)]
struct FrontError {
    message: String,
    pos: Pos,
    span: Span,
    secondary: Option<(Span, String)>,
}

/// What `src` is to the whole front end, as `animc` and a stream see it:
/// the reader, then the checker on each command it returns. The commands
/// the checker accepted, and every error (read errors with their
/// suggestions) in stream order.
fn front(src: &str) -> (Vec<Command>, Vec<FrontError>) {
    let text = Text::of(src);
    let mut checker = Checker::for_stream();
    let (mut commands, mut errors) = (Vec::new(), Vec::new());
    for item in read_whole(src) {
        match item {
            Ok(cmd) => match checker.check(&cmd, text) {
                Ok(_) => commands.push(cmd),
                Err(r) => errors.push(FrontError {
                    message: r.diagnostic.message,
                    pos: r.pos,
                    span: r.diagnostic.span,
                    secondary: r.diagnostic.secondary.first().cloned(),
                }),
            },
            Err(e) => {
                let d = check::read_error(&e, text);
                errors.push(FrontError { message: d.message, pos: e.pos, span: e.span, secondary: e.secondary })
            }
        }
    }
    (commands, errors)
}

/// The single error of `src` (reader and checker): message, line, column;
/// plus the keywords of the commands read around it.
fn error_of(src: &str) -> (String, u32, u32, Vec<&'static str>) {
    let (commands, errors) = front(src);
    assert_eq!(errors.len(), 1, "{src:?}: {errors:?}");
    let e = &errors[0];
    assert_eq!(e.pos, Pos::of(src, e.span.start), "{src:?}");
    (e.message.clone(), e.pos.line, e.pos.col, commands.iter().map(|c| c.kind.keyword()).collect())
}

// ----- every command and form --------------------------------------------

#[test]
fn general_commands() {
    assert_eq!(cmd("quit"), Cmd::Quit);
    assert_eq!(cmd("keepalive on"), Cmd::Keepalive { on: true });
    assert_eq!(cmd("keepalive off"), Cmd::Keepalive { on: false });
    assert_eq!(cmd("events on"), Cmd::Events { on: true });
    assert_eq!(cmd("events off"), Cmd::Events { on: false });
    let w = W::new("resize 640 480");
    assert_eq!(cmd(w.src), Cmd::Resize { width: w.int(1), height: w.int(2) });
    let w = W::new("resize 640.000000 480.000000");
    assert_eq!(cmd(w.src), Cmd::Resize { width: w.int(1), height: w.int(2) });
    assert_eq!(w.int(1).value, 640);
    let w = W::new("warp 0.5 -0.5");
    assert_eq!(cmd(w.src), Cmd::Warp { at: w.pt(1) });
    let w = W::new("warp area box");
    assert_eq!(cmd(w.src), Cmd::WarpArea { area: w.s(2) });
    let w = W::new("echo hello");
    assert_eq!(cmd(w.src), Cmd::Echo { text: w.s(1) });
    assert_eq!(cmd("echo \"hello world\""), Cmd::Echo { text: str_at("hello world", 5, 18) });
    let w = W::new("echopt p 1 2 3 4 .");
    assert_eq!(cmd(w.src), Cmd::Echopt { text: w.s(1), points: w.pts(2, 2) });
    let w = W::new("echopt p .");
    assert_eq!(cmd(w.src), Cmd::Echopt { text: w.s(1), points: vec![] });
    assert_eq!(cmd("title \"My window\""), Cmd::Title { text: str_at("My window", 6, 17) });
    let w = W::new("title animator");
    assert_eq!(cmd(w.src), Cmd::Title { text: w.s(1) });
}

/// `warp "area" x` is not `warp area x`: quoted, `area` is no context word,
/// and no form of `warp` takes a string first.
#[test]
fn quoted_context_word_is_not_the_context_word() {
    let (message, line, col, commands) = error_of("warp \"area\" x");
    assert_eq!(message, "expected a number or `area`, found `\"area\"`");
    assert_eq!((line, col), (1, 6));
    assert!(commands.is_empty());
}

#[test]
fn frame_management_commands() {
    assert_eq!(cmd("frame"), Cmd::Frame);
    assert_eq!(cmd("flush"), Cmd::Flush);
    assert_eq!(cmd("screenshot \"/dev/stdout\""), Cmd::Screenshot { file: str_at("/dev/stdout", 11, 24) });
    let w = W::new("screenshot out.png");
    assert_eq!(cmd(w.src), Cmd::Screenshot { file: w.s(1) });
    assert_eq!(cmd("screendump -"), Cmd::Screendump { file: None });
    assert_eq!(cmd("screendump \"-\""), Cmd::Screendump { file: None });
    let w = W::new("screendump dump.raw");
    assert_eq!(cmd(w.src), Cmd::Screendump { file: Some(w.s(1)) });
    let w = W::new("sleep 0.5");
    assert_eq!(cmd(w.src), Cmd::Sleep { seconds: w.num(1) });
    let w = W::new("flushdelay 0.0166666");
    assert_eq!(cmd(w.src), Cmd::Flushdelay { seconds: w.num(1) });
    assert_eq!(cmd("aspect on"), Cmd::Aspect { on: true });
    assert_eq!(cmd("aspect off"), Cmd::Aspect { on: false });
    let w = W::new("bg white");
    assert_eq!(cmd(w.src), Cmd::Bg { color: Color::Name(w.s(1)) });
    let w = W::new("bg #fff");
    assert_eq!(cmd(w.src), Cmd::Bg { color: Color::Hex(w.s(1)) });
    let w = W::new("bg 0.5");
    assert_eq!(cmd(w.src), Cmd::Bg { color: Color::Gray(w.num(1)) });
    let w = W::new("bg 1 0 0.5");
    assert_eq!(cmd(w.src), Cmd::Bg { color: Color::Rgb(w.num(1), w.num(2), w.num(3)) });
}

#[test]
fn transformation_commands() {
    let w = W::new("rotate 45");
    assert_eq!(cmd(w.src), Cmd::Rotate { degrees: w.num(1) });
    let w = W::new("scale 2");
    assert_eq!(cmd(w.src), Cmd::Scale { x: w.num(1), y: None });
    let w = W::new("scale 2 -3");
    assert_eq!(cmd(w.src), Cmd::Scale { x: w.num(1), y: Some(w.num(2)) });
    let w = W::new("shift 1 2");
    assert_eq!(cmd(w.src), Cmd::Shift { x: w.num(1), y: w.num(2) });
    let w = W::new("viewport 0 0 100000 50000");
    assert_eq!(cmd(w.src), Cmd::Viewport { left: w.num(1), bottom: w.num(2), width: w.num(3), height: w.num(4) });
    let w = W::new("viewport -1 -2 - 3 4");
    assert_eq!(cmd(w.src), Cmd::ViewportCorners { left: w.num(1), bottom: w.num(2), right: w.num(4), top: w.num(5) });
    let w = W::new("viewport m");
    assert_eq!(cmd(w.src), Cmd::ViewportMacro { name: w.s(1), keep_aspect: false });
    let w = W::new("viewport aspect m");
    assert_eq!(cmd(w.src), Cmd::ViewportMacro { name: w.s(2), keep_aspect: true });
    assert_eq!(cmd("viewport \"aspect\""), Cmd::ViewportMacro { name: str_at("aspect", 9, 17), keep_aspect: false });
    assert_eq!(cmd("viewport \"3\""), Cmd::ViewportMacro { name: str_at("3", 9, 12), keep_aspect: false });
    let w = W::new("mult 1 0 0.5 0 1 0 0 0 1");
    assert_eq!(cmd(w.src), Cmd::Mult { matrix: std::array::from_fn(|i| w.num(i + 1)) });
    assert_eq!(cmd("push"), Cmd::Push);
    assert_eq!(cmd("pop"), Cmd::Pop);
    assert_eq!(cmd("ident"), Cmd::Ident);
}

#[test]
fn clipping_commands() {
    let w = W::new("clip 0 0 10 20");
    assert_eq!(cmd(w.src), Cmd::Clip { left: w.num(1), bottom: w.num(2), width: w.num(3), height: w.num(4) });
    let w = W::new("clip 0 0 - 10 20");
    assert_eq!(cmd(w.src), Cmd::ClipCorners { left: w.num(1), bottom: w.num(2), right: w.num(4), top: w.num(5) });
}

#[test]
fn drawing_commands() {
    let w = W::new("color black");
    assert_eq!(cmd(w.src), Cmd::Color { color: Color::Name(w.s(1)) });
    assert_eq!(cmd("color \"dark green\""), Cmd::Color { color: Color::Name(str_at("dark green", 6, 18)) });
    for hex in ["#ff0000", "#f00", "#80", "#8", "#AbCdEf"] {
        let src = format!("color {hex}");
        let w = W::new(&src);
        assert_eq!(cmd(&src), Cmd::Color { color: Color::Hex(w.s(1)) });
    }
    assert_eq!(cmd("color \"#ff0000\""), Cmd::Color { color: Color::Hex(str_at("#ff0000", 6, 15)) });
    let w = W::new("color 0.1 0.2 0.3");
    assert_eq!(cmd(w.src), Cmd::Color { color: Color::Rgb(w.num(1), w.num(2), w.num(3)) });
    let w = W::new("color 0.25");
    assert_eq!(cmd(w.src), Cmd::Color { color: Color::Gray(w.num(1)) });
    let w = W::new("alpha 0.5");
    assert_eq!(cmd(w.src), Cmd::Alpha { alpha: w.num(1) });
    let w = W::new("thick 3");
    assert_eq!(cmd(w.src), Cmd::Thick { pixels: w.int(1) });
    let w = W::new("dash 0xffff");
    assert_eq!(cmd(w.src), Cmd::Dash { pattern: Int::new(0xffff, w.span(1)) });
    let w = W::new("dash 255.000000");
    assert_eq!(cmd(w.src), Cmd::Dash { pattern: Int::new(255, w.span(1)) });
    let w = W::new("dot 1 2");
    assert_eq!(cmd(w.src), Cmd::Dot { at: w.pt(1) });
    let w = W::new("line 0 0 1 1");
    assert_eq!(cmd(w.src), Cmd::Line { from: w.pt(1), to: w.pt(3) });
    let w = W::new("arrow 0 0 -1 .5");
    assert_eq!(cmd(w.src), Cmd::Arrow { from: w.pt(1), to: w.pt(3) });
    let w = W::new("rect 0 0 2 3");
    assert_eq!(cmd(w.src), Cmd::Rect { corner: w.pt(1), width: w.num(3), height: w.num(4) });
    let w = W::new("rect 0 0 - 2 3");
    assert_eq!(cmd(w.src), Cmd::RectCorners { from: w.pt(1), to: w.pt(4) });
    let w = W::new("fillrect 0 0 2 3");
    assert_eq!(cmd(w.src), Cmd::FillRect { corner: w.pt(1), width: w.num(3), height: w.num(4) });
    let w = W::new("fillrect 0 0 - 2 3");
    assert_eq!(cmd(w.src), Cmd::FillRectCorners { from: w.pt(1), to: w.pt(4) });
    let w = W::new("text 0 0 hello");
    assert_eq!(cmd(w.src), Cmd::Text { align: None, at: w.pt(1), text: w.s(3) });
    assert_eq!(
        cmd("text 1 2 \"two words\""),
        Cmd::Text { align: None, at: W::new("text 1 2").pt(1), text: str_at("two words", 9, 20) }
    );
    for (h, hv, v, vv) in [
        ("left", HAlign::Left, "top", VAlign::Top),
        ("center", HAlign::Center, "center", VAlign::Center),
        ("right", HAlign::Right, "bottom", VAlign::Bottom),
    ] {
        let src = format!("text {h} {v} 0 0 hi");
        let w = W::new(&src);
        let align = Some(Align { h: hv, v: vv, span: w.span(1).to(w.span(2)) });
        assert_eq!(cmd(&src), Cmd::Text { align, at: w.pt(3), text: w.s(5) });
        let src = format!("blit {h} {v} 0 0 img");
        let w = W::new(&src);
        let align = Some(Align { h: hv, v: vv, span: w.span(1).to(w.span(2)) });
        assert_eq!(cmd(&src), Cmd::Blit { align, at: w.pt(3), image: w.s(5) });
    }
    let w = W::new("blit 0 0 img");
    assert_eq!(cmd(w.src), Cmd::Blit { align: None, at: w.pt(1), image: w.s(3) });
    let w = W::new("text \"left\" \"top\" 0 0 hi");
    assert!(matches!(cmd(w.src), Cmd::Text { align: Some(Align { h: HAlign::Left, v: VAlign::Top, .. }), .. }));
    let w = W::new("lines 0 0 1 1");
    assert_eq!(cmd(w.src), Cmd::Lines { points: w.pts(1, 2) });
    let w = W::new("lines 0 0 1 1 2 0 3 1");
    assert_eq!(cmd(w.src), Cmd::Lines { points: w.pts(1, 4) });
    let w = W::new("poly 0 0 1 0 1 1");
    assert_eq!(cmd(w.src), Cmd::Poly { points: w.pts(1, 3) });
    let w = W::new("poly 0 0 1 0 1 1 0 1");
    assert_eq!(cmd(w.src), Cmd::Poly { points: w.pts(1, 4) });
    let w = W::new("circle 0 0 1 25.000000");
    assert_eq!(cmd(w.src), Cmd::Circle { center: w.pt(1), radius: w.num(3), vertices: w.int(4) });
    let w = W::new("fillcircle 1 2 0.5 12");
    assert_eq!(cmd(w.src), Cmd::FillCircle { center: w.pt(1), radius: w.num(3), vertices: w.int(4) });
}

#[test]
fn image_commands() {
    let w = W::new("image img pic.png");
    assert_eq!(cmd(w.src), Cmd::ImageLoad { name: w.s(1), path: w.s(2) });
    assert_eq!(
        cmd("image \"7\" seven.png"),
        Cmd::ImageLoad { name: str_at("7", 6, 9), path: str_at("seven.png", 10, 19) }
    );
    let w = W::new("image 32 16.000000 img");
    assert_eq!(cmd(w.src), Cmd::ImageNew { width: w.int(1), height: w.int(2), name: w.s(3) });
    for (src, ch, span) in [
        ("colormap x red", 'x', Span::new(9, 10)),
        ("colormap 'x' red", 'x', Span::new(9, 12)),
        ("colormap \"x\" red", 'x', Span::new(9, 12)),
        ("colormap . red", '.', Span::new(9, 10)),
        ("colormap - red", '-', Span::new(9, 10)),
        ("colormap 1 red", '1', Span::new(9, 10)),
        ("colormap ' red", '\'', Span::new(9, 10)),
        ("colormap \" \" red", ' ', Span::new(9, 12)),
        ("colormap é red", 'é', Span::new(9, 11)),
        ("colormap \"!\" red", '!', Span::new(9, 12)),
        ("colormap \"\\\"\" red", '"', Span::new(9, 13)),
    ] {
        let Cmd::Colormap { ch: got, color: Color::Name(name) } = cmd(src) else { panic!("{src}") };
        assert_eq!(got, Char { value: ch, span }, "{src}");
        assert_eq!(name.text, "red");
    }
    let w = W::new("colormap x 0.5");
    assert_eq!(cmd(w.src), Cmd::Colormap { ch: Char { value: 'x', span: w.span(1) }, color: Color::Gray(w.num(2)) });
    let w = W::new("colormap x 1 0 0");
    assert_eq!(
        cmd(w.src),
        Cmd::Colormap { ch: Char { value: 'x', span: w.span(1) }, color: Color::Rgb(w.num(2), w.num(3), w.num(4)) }
    );
    let w = W::new("colormap # #fff");
    assert_eq!(cmd(w.src), Cmd::Colormap { ch: Char { value: '#', span: w.span(1) }, color: Color::Hex(w.s(2)) });
    let w = W::new("image_set img 0 1.000000 xx..x");
    assert_eq!(cmd(w.src), Cmd::ImageSet { image: w.s(1), x: w.int(2), y: w.int(3), pixels: w.s(4) });
    let w = W::new("imgpoly 0 0 1 0 0 1 tex 0 0 1 0 1 1");
    assert_eq!(
        cmd(w.src),
        Cmd::ImgPoly { anchor: w.pt(1), u: w.pt(3), v: w.pt(5), image: w.s(7), points: w.pts(8, 3) }
    );
    let w = W::new("imgpoly 1 0 0 1 tex 0 0 1 0 1 1 0 1");
    assert_eq!(cmd(w.src), Cmd::ImgPolyEdges { u: w.pt(1), v: w.pt(3), image: w.s(5), points: w.pts(6, 4) });
    let w = W::new("imgpoly 2 3 tex 0 0 1 0 1 1");
    assert_eq!(cmd(w.src), Cmd::ImgPolyAxes { ux: w.num(1), vy: w.num(2), image: w.s(3), points: w.pts(4, 3) });
    let w = W::new("imgpoly tex 0 0 1 0 1 1");
    assert_eq!(cmd(w.src), Cmd::ImgPolyUnit { image: w.s(1), points: w.pts(2, 3) });
}

#[test]
fn area_macro_and_cursor_commands() {
    let w = W::new("area a 0 0 1 0 1 1");
    assert_eq!(cmd(w.src), Cmd::Area { name: w.s(1), points: w.pts(2, 3) });
    let w = W::new("delarea a");
    assert_eq!(cmd(w.src), Cmd::Delarea { name: w.s(1) });
    assert_eq!(cmd("killareas"), Cmd::Killareas);
    let w = W::new("macro m");
    assert_eq!(cmd(w.src), Cmd::Macro { name: w.s(1), push: false });
    let w = W::new("macro push m");
    assert_eq!(cmd(w.src), Cmd::Macro { name: w.s(2), push: true });
    assert_eq!(cmd("macro \"push\""), Cmd::Macro { name: str_at("push", 6, 12), push: false });
    assert_eq!(cmd("endmacro"), Cmd::Endmacro);
    let w = W::new("invoke m");
    assert_eq!(cmd(w.src), Cmd::Invoke { name: w.s(1) });
    let w = W::new("invoke 1 2 m");
    assert_eq!(cmd(w.src), Cmd::InvokeAt { at: w.pt(1), name: w.s(3) });
    assert_eq!(cmd("invoke \"1\""), Cmd::Invoke { name: str_at("1", 7, 10) });
    assert_eq!(cmd("forget"), Cmd::Forget);

    // The example of animator.md, verbatim.
    let data = "000000000007f00000388e0000e1d38001dd9bc003fd8fe007f119700ff000380fe03c381fc07ffc1c207fd41800ffe42c007ffa24003ff222c003f221e003e223f801e223fc01ca21fc03d210f803d410f0038410700304086000080820000804200010021000200100004000c98180003ffe000007f0000000000000000000";
    let mask = "000000000007f000003ffe0000ffff8001ffffc003ffffe007fffff00ffffff80ffffff81ffffffc1ffffffc1ffffffc3ffffffe3ffffffe3ffffffe3ffffffe3ffffffe3ffffffe3ffffffe1ffffffc1ffffffc1ffffffc0ffffff80ffffff807fffff003ffffe001ffffc000ffff80003ffe000007f0000000000000000000";
    let src = format!("defcursor \"earth\"\n  \"{data}\"\n  \"{mask}\"\n  16 15\nsetcursor \"earth\"\n");
    let (commands, errors) = parse(&src);
    assert!(errors.is_empty(), "{errors:?}");
    let data_at = src.find(data).unwrap() - 1;
    let mask_at = src.find(mask).unwrap() - 1;
    let w = W::new(&src);
    assert_eq!(
        commands[0].kind,
        Cmd::Defcursor {
            name: str_at("earth", 10, 17),
            data: str_at(data, data_at, data_at + 258),
            mask: str_at(mask, mask_at, mask_at + 258),
            hot_col: w.int(4),
            hot_row: w.int(5),
        }
    );
    assert_eq!(commands[1].kind, Cmd::Setcursor { name: str_at("earth", src.len() - 8, src.len() - 1) });
    assert_eq!(commands[1].pos, Pos { line: 5, col: 1 });
    // Unquoted digits work too, even when they lex as a number.
    let zeros = "0".repeat(256);
    let src = format!("defcursor c {zeros} {zeros} 0 0");
    let Cmd::Defcursor { data, .. } = cmd(&src) else { panic!() };
    assert_eq!(data.text, zeros);
}

#[test]
fn command_spans_and_positions() {
    let src = "frame\n  line 0 0 1 1 ! diagonal\n\tcolor \"é\" flush";
    let (commands, errors) = parse(src);
    assert!(errors.is_empty());
    let got: Vec<(Span, Pos)> = commands.iter().map(|c| (c.span, c.pos)).collect();
    assert_eq!(
        got,
        [
            (Span::new(0, 5), Pos { line: 1, col: 1 }),
            (Span::new(8, 20), Pos { line: 2, col: 3 }),
            (Span::new(33, 43), Pos { line: 3, col: 2 }),
            (Span::new(44, 49), Pos { line: 3, col: 12 }),
        ]
    );
}

// ----- lexical rules -----------------------------------------------------

#[test]
fn every_number_form() {
    for (text, value) in [
        ("3", 3.0),
        ("-0.5", -0.5),
        (".5", 0.5),
        ("-.5", -0.5),
        ("+2", 2.0),
        ("5.", 5.0),
        ("25.000000", 25.0),
        ("-0.000000", -0.0),
        ("1e-3", 0.001),
        ("1E+05", 100000.0),
        ("1.500000e+00", 1.5),
        ("100300", 100300.0),
        ("0xffff", 65535.0),
        ("0X1F", 31.0),
        ("-0x10", -16.0),
        ("0x1.8p+1", 3.0),
    ] {
        let src = format!("sleep {text}");
        assert_eq!(cmd(&src), Cmd::Sleep { seconds: Num { value, span: Span::new(6, src.len()) } }, "{text}");
    }
}

#[test]
fn string_escapes() {
    let src = r#"echo "q\"b\\n\nt\tr\rb\bf\fx\q""#;
    assert_eq!(cmd(src), Cmd::Echo { text: str_at("q\"b\\n\nt\tr\rb\u{8}f\u{c}xq", 5, src.len()) });
    assert_eq!(cmd(r#"echo """#), Cmd::Echo { text: str_at("", 5, 7) });
    assert_eq!(cmd("echo \"a ! not a comment\""), Cmd::Echo { text: str_at("a ! not a comment", 5, 24) });
    assert_eq!(cmd("echo \"héllo wörld\""), Cmd::Echo { text: str_at("héllo wörld", 5, 20) });
}

#[test]
fn comments() {
    let (commands, errors) =
        parse("! a comment line\nframe ! after\nflush!glued\nline 0 0 ! inside a command\n 1 1\n!");
    assert!(errors.is_empty(), "{errors:?}");
    let kinds: Vec<&str> = commands.iter().map(|c| c.kind.keyword()).collect();
    assert_eq!(kinds, ["frame", "flush", "line"]);
    assert_eq!(cmd("echo hi!there"), Cmd::Echo { text: str_at("hi", 5, 7) });
}

#[test]
fn unquoted_strings() {
    for word in ["hello", "/tmp/out.png", "a-b", "on", "left", "#fff", "x.y", "Frame", "0-", "1.2.3", "é"] {
        let src = format!("echo {word}");
        assert_eq!(cmd(&src), Cmd::Echo { text: str_at(word, 5, src.len()) }, "{word}");
    }
    // A number, `-` or `.` where a string is expected is its raw text.
    for word in ["25.000000", "-", ".", "0xff", "1e3"] {
        let src = format!("title {word}");
        assert_eq!(cmd(&src), Cmd::Title { text: str_at(word, 6, src.len()) }, "{word}");
    }
}

#[test]
fn keywords_are_strings_only_quoted() {
    assert_eq!(cmd("echo \"frame\""), Cmd::Echo { text: str_at("frame", 5, 12) });
    // `echo` is cut short by the command `frame`: the error is at `echo`,
    // and the label at `frame` says how to make it a string.
    let (commands, errors) = parse_with_pos("echo frame");
    assert_eq!(errors[0].message, "`echo` takes a string; found nothing");
    assert_eq!(errors[0].pos, Pos { line: 1, col: 1 });
    assert_eq!(errors[0].span, Span::new(0, 4));
    let hint = "`frame` starts the next command; quote it to use it as a string";
    assert_eq!(errors[0].secondary, Some((Span::new(5, 10), hint.to_string())));
    // The keyword then starts the next command.
    assert_eq!(commands.len(), 1);
    assert_eq!(commands[0].kind, Cmd::Frame);
    let (message, ..) = error_of("image img frame");
    assert_eq!(
        message,
        "`image` takes an image name and a file name, or 2 whole numbers and an image name, width height name; found 1"
    );
}

#[test]
fn integer_parameters_take_integer_valued_floats() {
    let w = W::new("circle 0 0 1 25.000000");
    assert_eq!(cmd(w.src), Cmd::Circle { center: w.pt(1), radius: w.num(3), vertices: w.int(4) });
    assert!(matches!(
        cmd("resize 1e3 7.5e2"),
        Cmd::Resize { width: Int { value: 1000, .. }, height: Int { value: 750, .. } }
    ));
    assert!(matches!(cmd("thick -2.000"), Cmd::Thick { pixels: Int { value: -2, .. } }));
    assert!(matches!(cmd("dash 9007199254740993"), Cmd::Dash { pattern: Int { value: 9007199254740993, .. } }));
    for (src, col) in [
        ("circle 0 0 1 2.5", 14),
        ("fillcircle 0 0 1 2.5", 18),
        ("resize 2.5 3", 8),
        ("image 2.5 3 img", 7),
        ("image_set img 0 2.5 xx", 17),
        ("thick 2.5", 7),
        ("dash 2.5", 6),
    ] {
        let (message, line, c, _) = error_of(src);
        assert_eq!((message.as_str(), line, c), ("expected a whole number, found `2.5`", 1, col), "{src}");
    }
    let (message, ..) = error_of("thick 1e30");
    assert_eq!(message, "expected a whole number, found `1e30` (out of range)");
    let (message, ..) = error_of("thick inf");
    assert_eq!(message, "expected a whole number, found `inf` (not a finite number)");
}

// ----- errors --------------------------------------------------------------

#[test]
fn every_error_message_and_position() {
    let cursor = "0".repeat(256);
    let bad_digit = format!("00g{}", "0".repeat(253));
    let short = "0".repeat(255);
    #[rustfmt::skip]
    let cases: Vec<(String, &str, u32, u32, Vec<&str>)> = vec![
        ("lien 0 0 1 1".into(), "expected a command, found `lien` (did you mean `line`?)", 1, 1, vec![]),
        ("Frame".into(), "expected a command, found `Frame` (did you mean `frame`?)", 1, 1, vec![]),
        ("xyzzy 1".into(), "expected a command, found `xyzzy`", 1, 1, vec![]),
        ("line 0 0 1 1 5\nflush".into(), "expected a command, found `5`", 1, 14, vec!["line", "flush"]),
        ("frame\n\"x\"".into(), "expected a command, found `\"x\"`", 2, 1, vec!["frame"]),
        ("frame\nline 0 0 1\nflush".into(), "`line` takes 4 numbers, x1 y1 x2 y2; found 3", 2, 1, vec!["frame", "flush"]),
        ("line 0- 1 2 3".into(), "expected a number, found `0-`", 1, 6, vec![]),
        ("line 0 0 1 1.2.3".into(), "expected a number, found `1.2.3`", 1, 12, vec![]),
        ("dot 12abc 1".into(), "expected a number, found `12abc`", 1, 5, vec![]),
        ("sleep inf".into(), "expected a number, found `inf` (not a finite number)", 1, 7, vec![]),
        ("rotate -nan".into(), "expected a number, found `-nan` (not a finite number)", 1, 8, vec![]),
        ("alpha 1e999".into(), "expected a number, found `1e999` (not a finite number)", 1, 7, vec![]),
        ("resize 640".into(), "`resize` takes 2 whole numbers, width height; found 1", 1, 1, vec![]),
        ("scale".into(), "`scale` takes 1 or 2 numbers, x [y]; found nothing", 1, 1, vec![]),
        ("mult 1 2 3".into(), "`mult` takes 9 numbers, a 3x3 matrix row by row; found 3", 1, 1, vec![]),
        ("color".into(), "`color` takes a colour: a name, `#` and hex digits, a grey level or red green blue; found nothing", 1, 1, vec![]),
        ("color #12345".into(), "expected a colour, found `#12345` (`#` takes 1, 2, 3 or 6 hex digits)", 1, 7, vec![]),
        ("bg #ggg".into(), "expected a colour, found `#ggg` (`#` takes 1, 2, 3 or 6 hex digits)", 1, 4, vec![]),
        ("color 0.5 0.5 frame".into(), "`color` takes a colour: a name, `#` and hex digits, a grey level or red green blue; found 2", 1, 1, vec!["frame"]),
        ("lines 0 0 1 1 2\nflush".into(), "`lines` takes at least 2 points, x1 y1 x2 y2 [x3 y3]...; found 5 (the last point has no y coordinate)", 1, 1, vec!["flush"]),
        ("poly 0 0 1 1\nflush".into(), "`poly` takes at least 3 points, x1 y1 x2 y2 x3 y3 [x4 y4]...; found 4", 1, 1, vec!["flush"]),
        ("poly 0 0 1 1 x".into(), "expected a number, found `x` (`poly` takes at least 3 points)", 1, 14, vec![]),
        ("lines 0 0".into(), "`lines` takes at least 2 points, x1 y1 x2 y2 [x3 y3]...; found 2", 1, 1, vec![]),
        ("area a 0 0 1 0 1".into(), "`area` takes an area name and at least 3 points, name x1 y1 x2 y2 x3 y3 [x4 y4]...; found 6 (the last point has no y coordinate)", 1, 1, vec![]),
        ("echopt p 1 2 3 .".into(), "expected a number, found `.` (the last point has no y coordinate)", 1, 16, vec![]),
        ("echopt p 1 2 x".into(), "expected a number or `.`, found `x`", 1, 14, vec![]),
        ("echopt p 1 2".into(), "`echopt` takes a string, points and `.`, string [x y]* .; found 3", 1, 1, vec![]),
        ("keepalive yes".into(), "expected `on` or `off`, found `yes`", 1, 11, vec![]),
        ("events".into(), "`events` takes `on` or `off`; found nothing", 1, 1, vec![]),
        ("text".into(), "`text` takes 2 numbers and a string, [h v] x y text; found nothing", 1, 1, vec![]),
        ("text left 0 0 hi".into(), "expected `bottom`, `center` or `top`, found `0`", 1, 11, vec![]),
        ("text top left 0 0 hi".into(), "expected a number, `left`, `center` or `right`, found `top`", 1, 6, vec![]),
        ("viewport".into(), "`viewport` takes 4 numbers, left bottom width height or left bottom - right top, or a macro name, [aspect] name; found nothing", 1, 1, vec![]),
        ("viewport 1 2 x".into(), "expected a number or `-`, found `x`", 1, 14, vec![]),
        ("viewport aspect\nframe".into(), "`viewport` takes 4 numbers, left bottom width height or left bottom - right top, or a macro name, [aspect] name; found 1", 1, 1, vec!["frame"]),
        ("rect 0 0 - x 1".into(), "expected a number, found `x`", 1, 12, vec![]),
        ("warp x y".into(), "expected a number or `area`, found `x`", 1, 6, vec![]),
        ("macro push\nframe".into(), "`macro` takes a macro name, [push] name; found 1", 1, 1, vec!["frame"]),
        ("image 1 foo.png".into(), "expected a whole number, found `foo.png`", 1, 9, vec![]),
        ("imgpoly 1 2 3 tex 0 0 1 0 1 1".into(), "expected a number, found `tex`", 1, 15, vec![]),
        ("imgpoly tex 0 0 1 0".into(), "`imgpoly` takes an image name and at least 3 points, [[ax ay] ux uy vx vy | ux vy] image x1 y1 x2 y2 x3 y3...; found 5", 1, 1, vec![]),
        ("colormap ab red".into(), "expected a single character, found `ab`", 1, 10, vec![]),
        ("colormap 'ab' red".into(), "expected a single character, found `'ab'`", 1, 10, vec![]),
        ("colormap x".into(), "`colormap` takes a character and a colour, c color; found 1", 1, 1, vec![]),
        ("screendump".into(), "`screendump` takes a file name or `-`; found nothing", 1, 1, vec![]),
        (format!("defcursor c {short} {cursor} 1 1"), "expected 256 hex digits, found 255 characters", 1, 13, vec![]),
        (format!("defcursor c {cursor} {bad_digit} 1 1"), "expected 256 hex digits, found `g` at character 3", 1, 270, vec![]),
        (format!("defcursor c {cursor} {cursor} 1.5 1"), "expected a whole number, found `1.5`", 1, 527, vec![]),
        ("echo \"abc\nflush".into(), "expected `\"` to close the string, found end of line", 1, 6, vec!["flush"]),
        ("echo \"abc".into(), "expected `\"` to close the string, found end of input", 1, 6, vec![]),
        ("flush \"abc\\".into(), "expected `\"` to close the string, found end of input", 1, 7, vec!["flush"]),
        ("title \"héllo\" lien".into(), "expected a command, found `lien` (did you mean `line`?)", 1, 15, vec!["title"]),
        ("\tframe\n\t  lien".into(), "expected a command, found `lien` (did you mean `line`?)", 2, 4, vec!["frame"]),
    ];
    for (src, message, line, col, commands) in cases {
        let got = error_of(&src);
        assert_eq!(got, (message.to_string(), line, col, commands), "{src:?}");
    }
}

#[test]
fn error_spans_point_at_the_offending_token() {
    let (_, errors) = parse_with_pos("line 0 0 1 1.2.3\nsleep");
    assert_eq!(errors[0].span, Span::new(11, 16));
    assert!(!errors[0].label.is_empty());
    // A command cut short is the command, with the end of input beside it.
    assert_eq!(errors[1].span, Span::new(17, 22));
    assert_eq!(errors[1].message, "`sleep` takes a number, the seconds to sleep; found nothing");
    assert_eq!(errors[1].label, "missing a number");
    assert_eq!(errors[1].secondary, Some((Span::new(22, 22), "the input ends here".to_string())));
}

#[test]
fn invalid_utf8_is_an_error_not_a_panic() {
    let src: &[u8] = b"frame\necho ab\xffcd\nflush\ntitle \"\xc3(\"\nframe ! \xff in a comment is ignored\n";
    let items = read_chunked(src, &[usize::MAX]);
    let summary: Vec<String> = items
        .iter()
        .map(|i| match i {
            Ok(c) => c.kind.keyword().to_string(),
            Err(e) => format!("{} {} {:?}", e.pos, e.message, e.span),
        })
        .collect();
    assert_eq!(
        summary,
        [
            "frame",
            "2:8 expected UTF-8 text, found byte 0xFF Span { start: 13, end: 14 }",
            "flush",
            "4:8 expected UTF-8 text, found byte 0xC3 Span { start: 30, end: 31 }",
            "frame",
        ]
    );
    // Split inside a valid multi-byte character, it is still fine.
    let items = read_chunked("echo é".as_bytes(), &[6, 1]);
    assert!(matches!(&items[..], [Ok(Command { kind: Cmd::Echo { text }, .. })] if text.text == "é"));
}

#[test]
fn recovery_returns_the_good_commands_around_a_bad_one() {
    // The error is at the offending token, or at the command itself when
    // the next one cuts it short (reader, then checker).
    for (bad, error_line) in [
        ("lien 0 0 1 1", 2),
        ("line 0 0 1", 2),
        ("line 0 0 1 x", 2),
        ("sleep nan", 2),
        ("color #1234", 2),
        ("lines 0 0 1 1 2", 2),
        ("poly 0 0 1 1", 2),
        ("circle 0 0 1 2.5", 2),
        ("42", 2),
        ("echo \"unterminated", 2),
        ("colormap xy red", 2),
        ("text left 0 0 hi", 2),
    ] {
        let src = format!("line 0 0 1 1\n{bad}\nline 1 1 2 2\n");
        let (commands, errors) = front(&src);
        let shape: Vec<&str> = commands.iter().map(|c| c.kind.keyword()).collect();
        assert_eq!((shape, errors.len()), (vec!["line", "line"], 1), "{bad}");
        assert_eq!(errors[0].pos.line, error_line, "{bad}");
        assert_eq!(commands[1].pos, Pos { line: 3, col: 1 });
    }
}

/// Issue 17 §4: a command cut short is reported where rustc would, at the
/// command (keyword to last argument) saying what it takes, with the token
/// that ended it as a second label; streamed, byte by byte, it is reported
/// as soon as that token is whole, at the command's line.
#[test]
fn a_command_cut_short_is_reported_at_the_command() {
    let src = "frame\n  line 0 0 1\necho after\nline 0 0 1";
    let got: Vec<(usize, String)> = read_bytewise(src)
        .into_iter()
        .map(|(at, item)| match item {
            Ok(c) => (at, c.kind.keyword().to_string()),
            Err(e) => (at, format!("{e} {:?} {:?}", e.span, e.secondary)),
        })
        .collect();
    let echo = src.find("echo").unwrap();
    assert_eq!(
        got,
        [
            (6, "frame".to_string()),
            (
                echo + 5,
                "2:3: `line` takes 4 numbers, x1 y1 x2 y2; found 3 Span { start: 8, end: 18 } Some((Span { start: 19, end: 23 }, \"`echo` starts the next command\"))".to_string()
            ),
            (src.len() - "line 0 0 1".len(), "echo".to_string()),
            (
                src.len() + 1,
                format!(
                    "4:1: `line` takes 4 numbers, x1 y1 x2 y2; found 3 Span {{ start: {}, end: {} }} Some((Span {{ start: {2}, end: {2} }}, \"the input ends here\"))",
                    src.len() - 10,
                    src.len(),
                    src.len()
                ),
            ),
        ]
    );
    let (_, errors) = parse_with_pos("frame\n  line 0 0 1\necho after\n");
    assert_eq!(errors[0].kind, animkit_grammar::animator::ReadErrorKind::Incomplete);
    assert_eq!(errors[0].label, "missing a number");
}

#[test]
fn a_bad_command_yields_one_error_however_long() {
    let (commands, errors) = parse("lien 0 0 1 1 2 3 4 5 \"x\" y z - . 0-\nframe");
    assert_eq!(errors.len(), 1);
    assert_eq!(commands.len(), 1);
}

// ----- streaming -----------------------------------------------------------

#[test]
fn byte_by_byte_commands_come_exactly_when_complete() {
    let src = "flush\nline 0 0 1 1\nscale 2\nframe\necho \"hi\" lines 0 0 1 1\ninvoke m\ncolor 0.5\n-0.25 1\nsleep 1\npoly 0 0 1 0 1 1";
    let end_of = |s: &str| src.find(s).unwrap() + s.len();
    let got: Vec<(usize, &str)> = read_bytewise(src)
        .iter()
        .map(|(at, item)| (*at, item.as_ref().map(|c| c.kind.keyword()).unwrap_or("error")))
        .collect();
    assert_eq!(
        got,
        [
            // Fixed arity: at the whitespace after the last token.
            (end_of("flush\n"), "flush"),
            (end_of("line 0 0 1 1\n"), "line"),
            // `scale x [y]`: when the `f` of `frame` rules out a number.
            (end_of("scale 2\nf"), "scale"),
            (end_of("frame\n"), "frame"),
            // A quoted string is whole at its closing quote.
            (end_of("echo \"hi\""), "echo"),
            // A point list: `i` could still be `inf`, `inv` cannot.
            (end_of("invoke m\n") - "oke m\n".len(), "lines"),
            (end_of("invoke m\n"), "invoke"),
            // `color g` could be `color r g b`: `-` could be `-5`, and is.
            (end_of("-0.25 1\n"), "color"),
            (end_of("sleep 1\n"), "sleep"),
            // The last one, variadic, completes at `finish`.
            (src.len() + 1, "poly"),
        ]
    );
}

#[test]
fn finish_completes_the_last_command() {
    for (src, keyword) in [("flush", "flush"), ("line 0 0 1 1", "line"), ("scale 2", "scale"), ("echo hi", "echo")] {
        let got = read_bytewise(src);
        assert_eq!(got.len(), 1, "{src}");
        assert_eq!(got[0].0, src.len() + 1, "{src}");
        assert_eq!(got[0].1.as_ref().unwrap().kind.keyword(), keyword);
    }
    let mut reader = Reader::new();
    reader.push(b"frame");
    assert!(reader.next().is_none());
    reader.finish();
    assert_eq!(reader.next().unwrap().unwrap().kind, Cmd::Frame);
    assert!(reader.next().is_none());
    reader.push(b" flush ");
    assert!(reader.next().is_none(), "input after finish is ignored");
}

#[test]
fn fixed_arity_commands_do_not_wait_for_the_next_command() {
    let mut reader = Reader::new();
    reader.push(b"frame\nline 0 0 1 1\nflush\n");
    let kinds: Vec<&str> = std::iter::from_fn(|| reader.next()).map(|c| c.unwrap().kind.keyword()).collect();
    assert_eq!(kinds, ["frame", "line", "flush"]);
    reader.push(b"echopt p 1 2 . ");
    assert!(matches!(reader.next(), Some(Ok(Command { kind: Cmd::Echopt { .. }, .. }))));
}

/// A script with every command, some errors, comments, quotes and non-ASCII
/// text, for the chunking tests.
const RICH: &str = "! rich script\nkeepalive off events on resize 640 480 warp 0 0 warp area a\necho \"hi there\\n\" echopt p 1 2 3 4 . title é\nframe flush screenshot \"/dev/stdout\" screendump - sleep 0 flushdelay 0.016\naspect off bg #fff rotate 45 scale 2 scale 2 3 shift 1 1\nviewport 0 0 100000 100000 viewport 0 0 - 1 1 viewport m viewport aspect m\nmult 1 0 0 0 1 0 0 0 1 push pop ident clip 0 0 1 1 clip 0 0 - 1 1\ncolor red color 0.5 color 1 0 0 color \"dark green\" alpha 0.5 thick 2.000000 dash 0xffff\ndot 0 0 line 0 0 1 1 arrow 0 0 1 1 rect 0 0 1 1 rect 0 0 - 1 1 fillrect 0 0 1 1 fillrect 0 0 - 1 1\ntext 0 0 hi text left top 0 0 \"hé llo\" blit 0 0 img blit right bottom 0 0 img\nlines 0 0 1 1 2 2 poly 0 0 1 0 1 1 circle 0 0 1 25.000000 fillcircle 0 0 1 12\nimage img a.png image 8 8 img colormap 'x' red colormap . 0 0 0 image_set img 0 0 x.x\nimgpoly 0 0 1 0 0 1 tex 0 0 1 0 1 1 imgpoly 1 0 0 1 tex 0 0 1 0 1 1\nimgpoly 1 1 tex 0 0 1 0 1 1 imgpoly tex 0 0 1 0 1 1 area a 0 0 1 0 1 1 delarea a killareas\nmacro m line 0 0 1 1 endmacro macro push m endmacro invoke m invoke 1 1 m forget\nlien 0 0 1 1 line 0 0 1 circle 0 0 1 2.5 color #12345 lines 0 0 1\necho \"open\nsetcursor c quit";

#[test]
fn random_chunk_sizes_give_the_same_results_as_parse() {
    let (commands, errors) = parse_with_pos(RICH);
    // `circle 0 0 1 2.5` and `color #12345` are read as written; the
    // checker rejects them.
    assert_eq!(commands.len(), 76);
    assert_eq!(errors.len(), 4, "{errors:?}");
    let (checked, all_errors) = front(RICH);
    assert_eq!((checked.len(), all_errors.len()), (74, 6), "{all_errors:?}");
    let whole = read_whole(RICH);
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..200 {
        let sizes: Vec<usize> = (0..32)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                1 + (seed % 23) as usize
            })
            .collect();
        assert_eq!(read_chunked(RICH.as_bytes(), &sizes), whole, "{sizes:?}");
    }
    let bytewise: Vec<_> = read_bytewise(RICH).into_iter().map(|(_, i)| i).collect();
    assert_eq!(bytewise, whole);
    // And the same as `parse`, in order.
    let oks: Vec<Command> = whole.iter().filter_map(|i| i.clone().ok()).collect();
    let errs: Vec<ReadError> = whole.iter().filter_map(|i| i.clone().err()).collect();
    assert_eq!((oks, errs), (commands, errors));
}

#[test]
fn read_from_an_io_reader() {
    let mut input: &[u8] = b"frame\nline 0 0 1 1\nflush\n";
    let mut reader = Reader::new();
    let mut kinds = Vec::new();
    loop {
        let n = reader.read_from(&mut input).unwrap();
        while let Some(item) = reader.next() {
            kinds.push(item.unwrap().kind.keyword());
        }
        if n == 0 {
            break;
        }
    }
    reader.finish();
    assert!(reader.next().is_none());
    assert_eq!(kinds, ["frame", "line", "flush"]);
}

// ----- scale ---------------------------------------------------------------

/// 10 000 lines as an Emacs binding prints them: every number `%f`.
fn printf_script() -> String {
    let mut src = String::from("viewport 0.000000 0.000000 100000.000000 100000.000000\n");
    for i in 0..10_000 {
        let x = i as f64 * 9.75;
        if i % 2 == 0 {
            src.push_str(&format!("line {:.6} {:.6} {:.6} {:.6}\n", x, 100000.0 - x, x + 0.5, -x));
        } else {
            src.push_str(&format!("fillcircle {:.6} {:.6} {:.6} {:.6}\n", x, x, 2.5, 25.0));
        }
    }
    src
}

#[test]
fn ten_thousand_printf_lines() {
    let src = printf_script();
    let (commands, errors) = parse(&src);
    assert!(errors.is_empty());
    assert_eq!(commands.len(), 10_001);
    assert!(matches!(&commands[0].kind, Cmd::Viewport { width, .. } if width.value == 100000.0));
    let Cmd::Line { from, to } = &commands[1].kind else { panic!() };
    assert_eq!((from.x.value, from.y.value, to.x.value, to.y.value), (0.0, 100000.0, 0.5, -0.0));
    let Cmd::FillCircle { center, radius, vertices } = &commands[10_000].kind else { panic!() };
    assert_eq!((center.x.value, radius.value, vertices.value), (9999.0 * 9.75, 2.5, 25));
    assert_eq!(commands[10_000].pos, Pos { line: 10_001, col: 1 });
}

#[test]
fn memory_stays_bounded_by_the_longest_command() {
    let src = printf_script();
    let mut reader = Reader::new();
    let mut count = 0;
    let mut most = 0;
    for chunk in src.as_bytes().chunks(64) {
        reader.push(chunk);
        while let Some(item) = reader.next() {
            item.unwrap();
            count += 1;
        }
        most = most.max(reader.buffered());
    }
    reader.finish();
    count += std::iter::from_fn(|| reader.next()).count();
    assert_eq!(count, 10_001);
    // The longest line is about 60 bytes; chunks are 64.
    assert!(most <= 2 * (64 + 64), "{most}");
}

#[test]
fn many_macro_push_endmacro_blocks() {
    let mut src = String::new();
    for i in 0..1000 {
        src.push_str(&format!("macro push m{i}\nendmacro\n"));
    }
    src.push_str("macro push m0\n  line 0 0 1 1\n  invoke m1\nendmacro\nframe\ninvoke m0\nflush\n");
    let (commands, errors) = parse(&src);
    assert!(errors.is_empty());
    assert_eq!(commands.len(), 2007);
    for (i, pair) in commands[..2000].chunks(2).enumerate() {
        let name_at = pair[0].span.start + "macro push ".len();
        let name = str_at(&format!("m{i}"), name_at, pair[0].span.end);
        assert_eq!(pair[0].kind, Cmd::Macro { name, push: true });
        assert_eq!(pair[1].kind, Cmd::Endmacro);
    }
    let kinds: Vec<&str> = commands[2000..].iter().map(|c| c.kind.keyword()).collect();
    assert_eq!(kinds, ["macro", "line", "invoke", "endmacro", "frame", "invoke", "flush"]);
}

// ----- property ------------------------------------------------------------

/// Lines to build scripts from: good, bad, non-ASCII, invalid UTF-8.
const PIECES: &[&[u8]] = &[
    b"frame\n",
    b"flush ",
    b"line 0 0 1 1\n",
    b"lines 0 0 1 1 2 2 ",
    b"poly 0 0 1 0 1 1",
    b"scale 2 ",
    b"scale -2 .5\n",
    b"color 0.5 ",
    b"color 1 0 0\n",
    b"color #ff0000 ",
    b"text left top 0 0 \"h\xc3\xa9 \\\"x\\\"\"\n",
    b"echo h\xc3\xa9llo ",
    b"echopt p 1 2 . ",
    b"! comment \xff\n",
    b"circle 0 0 1 25.000000\n",
    b"circle 0 0 1 2.5\n",
    b"lien 0 0 1 1\n",
    b"line 0 0 1\n",
    b"echo \"open\n",
    b"echo \xff\xfe\n",
    b"imgpoly 1 1 tex 0 0 1 0 1 1 ",
    b"viewport aspect m ",
    b"macro push m endmacro ",
    b"0- ",
    b"inf ",
    b"-",
    b".",
    b"\"",
    b"!",
    b"\t",
];

proptest! {
    #[test]
    fn chunking_never_changes_the_result(
        picks in proptest::collection::vec(0..PIECES.len(), 0..40),
        cuts in proptest::collection::vec(1usize..40, 1..16),
    ) {
        let src: Vec<u8> = picks.iter().flat_map(|&i| PIECES[i].iter().copied()).collect();
        let whole = read_chunked(&src, &[usize::MAX]);
        prop_assert_eq!(read_chunked(&src, &cuts), whole.clone());
        prop_assert_eq!(read_chunked(&src, &[1]), whole);
    }
}

/// Throughput of lexing and reading alone, for profiling:
/// `cargo test --release -p animkit-tests --test toolchain -- --ignored --nocapture animator_reader::throughput`.
#[test]
#[ignore = "a measurement, not a check; run it in release mode"]
fn throughput() {
    let mut src = String::new();
    for i in 0..1_000_000 {
        let x = (i % 1000) as f64 * 0.001;
        match i % 4 {
            0 => src.push_str(&format!("line {x:.3} {:.3} {:.3} {:.3}\n", x + 0.1, -x, 0.5)),
            1 => src.push_str("color 0.5 0.2 0.1\n"),
            2 => src.push_str("push\n"),
            _ => src.push_str(&format!("fillcircle {x:.6} {x:.6} 0.100000 25.000000\n")),
        }
    }
    let started = std::time::Instant::now();
    let mut reader = Reader::new();
    let mut n = 0;
    for chunk in src.as_bytes().chunks(64 * 1024) {
        reader.push(chunk);
        while let Some(item) = reader.next() {
            item.unwrap();
            n += 1;
        }
    }
    reader.finish();
    n += std::iter::from_fn(|| reader.next()).count();
    let seconds = started.elapsed().as_secs_f64();
    println!("{n} commands, {} MB: {:.2} M commands/s", src.len() / 1_000_000, n as f64 / seconds / 1e6);
}

/// Bytes to build arbitrary inputs from: every kind of token boundary.
const ALPHABET: &[&[u8]] = &[
    b" ",
    b"\n",
    b"\t",
    b"\r",
    b"!",
    b"\"",
    b"\\",
    b"-",
    b"+",
    b".",
    b"0",
    b"1",
    b"5",
    b"e",
    b"x",
    b"f",
    b"#",
    b"'",
    b"i",
    b"n",
    b"a",
    b"\xc3\xa9",
    b"\xc3",
    b"\xff",
    b"line",
    b"lines",
    b"echopt",
    b"color",
    b"text",
    b"left",
    b"top",
    b"macro",
    b"push",
    b"viewport",
    b"aspect",
    b"imgpoly",
    b"colormap",
    b"scale",
    b"inf",
];

proptest! {
    #[test]
    fn arbitrary_input_never_panics_and_chunking_is_invisible(
        picks in proptest::collection::vec(0..ALPHABET.len(), 0..80),
        cuts in proptest::collection::vec(1usize..9, 1..8),
    ) {
        let src: Vec<u8> = picks.iter().flat_map(|&i| ALPHABET[i].iter().copied()).collect();
        let whole = read_chunked(&src, &[usize::MAX]);
        for item in &whole {
            let span = match item {
                Ok(c) => c.span,
                Err(e) => e.span,
            };
            prop_assert!(span.start <= span.end && span.end <= src.len());
            if let Ok(text) = std::str::from_utf8(&src) {
                let pos = match item {
                    Ok(c) => c.pos,
                    Err(e) => e.pos,
                };
                prop_assert_eq!(pos, Pos::of(text, span.start));
            }
        }
        prop_assert_eq!(read_chunked(&src, &cuts), whole);
    }
}
