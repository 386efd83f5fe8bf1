//! The table of command signatures and the building of commands from the
//! arguments of a matched form.

use super::{Arg, Reader};
use crate::Span;
use crate::animator::ast::{Align, Char, Cmd, Color, HAlign, Int, Num, Point, Str, VAlign};
use crate::animator::lexer::{Keyword, Tok, whole};

/// What one argument position takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Elem {
    /// A finite number.
    Num,
    /// A whole number (an integer-valued float such as `25.000000` included).
    Int,
    /// A string: quoted, or a bare word (or number, `-`, `.`) that is not a
    /// command keyword. The text names it in messages.
    Str(&'static str),
    /// A context word, bare.
    Word(&'static str),
    /// `on` or `off`.
    OnOff,
    /// `left`, `center` or `right`.
    HAlign,
    /// `bottom`, `center` or `top`.
    VAlign,
    /// A lone `-`.
    Sep,
    /// A lone `.`.
    Dot,
    /// Pairs of numbers, at least this many pairs, as many as follow.
    Points(u8),
    /// One character: the whole token, a quoted string's text, or `'c'`.
    Char,
    /// A colour name or `#` and 1, 2, 3 or 6 hex digits (the numeric colour
    /// forms are forms of their own).
    ColorName,
    /// 32x32 bits: 256 hex digits.
    Hex256,
}

use Elem::{
    ColorName, Dot, HAlign as HAl, Hex256, Int as I, Num as N, OnOff, Points, Sep, Str as S, VAlign as VAl, Word,
};

pub(super) type Form = &'static [Elem];

const IMAGE: Elem = S("an image name");
const MACRO: Elem = S("a macro name");
const AREA: Elem = S("an area name");
const CURSOR: Elem = S("a cursor name");
const STRING: Elem = S("a string");
const FILE: Elem = S("a file name");
const FILE_OR_DASH: Elem = S("a file name or `-`");

/// `signature` and `usage` from the command table (`commands.rs`), whose
/// `forms` column is written with the names above.
macro_rules! forms_from_table {
    ($($k:ident $kw:tt { cmds: $cmds:tt, macro_body: $m:tt, usage: $u:literal, forms: [$([$($e:expr),*]),*], lower: $lower:tt })*) => {
        /// The table of command signatures: every form of every command, in the
        /// words of `animator.md`. [`build`] turns a matched form into a [`Cmd`].
        pub(super) fn signature(kw: Keyword) -> &'static [Form] {
            match kw {
                $(Keyword::$k => &[$(&[$($e),*]),*],)*
            }
        }

        /// What a command takes, for the error at a command cut short: how many
        /// arguments of which kind, then the spec's own syntax (`` `line` takes 4
        /// numbers, x1 y1 x2 y2; found 3 ``). Commands without arguments take
        /// "nothing" and are never cut short.
        pub(super) fn usage(kw: Keyword) -> &'static str {
            match kw {
                $(Keyword::$k => $u,)*
            }
        }
    };
}

crate::animator_commands!(forms_from_table);

/// What an argument kind is called in messages.
pub(super) fn describe(e: Elem) -> &'static [&'static str] {
    match e {
        N | Points(_) => &["a number"],
        I => &["a whole number"],
        S("a string") => &["a string"],
        S("a file name") => &["a file name"],
        S("a file name or `-`") => &["a file name or `-`"],
        S("an image name") => &["an image name"],
        S("a macro name") => &["a macro name"],
        S("an area name") => &["an area name"],
        S("a cursor name") => &["a cursor name"],
        S(_) => &["a string"],
        Word("area") => &["`area`"],
        Word("aspect") => &["`aspect`"],
        Word("push") => &["`push`"],
        Word(_) => &["a word"],
        OnOff => &["`on`", "`off`"],
        HAl => &["`left`", "`center`", "`right`"],
        VAl => &["`bottom`", "`center`", "`top`"],
        Sep => &["`-`"],
        Dot => &["`.`"],
        Elem::Char => &["a single character"],
        ColorName => &["a colour"],
        Hex256 => &["256 hex digits"],
    }
}

/// `a`, `a or b`, `a, b or c`.
pub(super) fn join(items: &[&str]) -> String {
    match items {
        [] => "nothing".to_string(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// The arguments of a complete command, taken in order by [`build`].
pub(super) struct Args<'r> {
    pub(super) reader: &'r Reader,
    pub(super) next: usize,
}

impl Args<'_> {
    /// The next argument: its token, where it is and its number value.
    fn take(&mut self) -> (Tok, Span, f64) {
        let a = self.reader.args.get(self.next).copied();
        self.next += 1;
        // The form matched, so the argument is there.
        a.map_or((Tok::Number, Span::default(), 0.0), |a| (a.tok, self.reader.arg_span(&a), self.reader.arg_num(&a)))
    }

    fn num(&mut self) -> Num {
        let (_, span, value) = self.take();
        Num { value, span }
    }

    /// A whole number as written: its exact value, or (a fraction, a
    /// number out of range or not finite) the value written, for the
    /// checker to explain.
    fn int(&mut self) -> Int {
        let (_, span, num) = self.take();
        match whole(num, self.reader.bytes(span)) {
            Some(value) => Int::new(value, span),
            None => Int { value: 0, span, not_int: Some(num) },
        }
    }

    /// The one character the reader found in the token.
    fn char(&mut self) -> Char {
        let (tok, span, _) = self.take();
        // The form took it as one character (the reader's offer).
        Char { value: crate::animator::lexer::single_char(&self.reader.string(tok, span)).unwrap_or('\0'), span }
    }

    fn point(&mut self) -> Point {
        Point { x: self.num(), y: self.num() }
    }

    fn str(&mut self) -> Str {
        let (tok, span, ..) = self.take();
        Str { text: self.reader.string(tok, span).into_owned(), span }
    }

    /// A bare word, unquoted if quoted.
    fn word(&mut self) -> &str {
        let (tok, span, ..) = self.take();
        let text = self.reader.text(span);
        if tok == Tok::Str { &text[1..text.len() - 1] } else { text }
    }

    fn points(&mut self) -> Vec<Point> {
        let args = &self.reader.args[self.next.min(self.reader.args.len())..];
        let n = args.iter().take_while(|a| a.tok == Tok::Number).count();
        let points = args[..n - n % 2]
            .chunks_exact(2)
            .map(|xy| {
                let num = |a: &Arg| Num { value: self.reader.arg_num(a), span: self.reader.arg_span(a) };
                Point { x: num(&xy[0]), y: num(&xy[1]) }
            })
            .collect();
        self.next += n;
        points
    }

    fn color(&mut self, form: u8) -> Color {
        match form {
            0 => {
                let s = self.str();
                if s.text.starts_with('#') { Color::Hex(s) } else { Color::Name(s) }
            }
            1 => Color::Gray(self.num()),
            _ => Color::Rgb(self.num(), self.num(), self.num()),
        }
    }

    fn align(&mut self) -> Align {
        let start = self.reader.arg_span(&self.reader.args[self.next]);
        let h = match self.word() {
            "left" => HAlign::Left,
            "right" => HAlign::Right,
            _ => HAlign::Center,
        };
        let v = match self.word() {
            "bottom" => VAlign::Bottom,
            "top" => VAlign::Top,
            _ => VAlign::Center,
        };
        Align { h, v, span: start.to(self.reader.arg_span(&self.reader.args[self.next - 1])) }
    }

    fn on(&mut self) -> bool {
        self.word() == "on"
    }
}

/// Turns the arguments of a matched form into the command (the second half
/// of the signature table: form numbers are indexes into [`signature`]).
pub(super) fn build(kw: Keyword, form: u8, a: &mut Args<'_>) -> Cmd {
    use Keyword as K;
    match kw {
        K::Quit => Cmd::Quit,
        K::Keepalive => Cmd::Keepalive { on: a.on() },
        K::Events => Cmd::Events { on: a.on() },
        K::Resize => Cmd::Resize { width: a.int(), height: a.int() },
        K::Warp if form == 0 => Cmd::Warp { at: a.point() },
        K::Warp => {
            a.take();
            Cmd::WarpArea { area: a.str() }
        }
        K::Echo => Cmd::Echo { text: a.str() },
        K::Echopt => Cmd::Echopt { text: a.str(), points: a.points() },
        K::Title => Cmd::Title { text: a.str() },
        K::Frame => Cmd::Frame,
        K::Flush => Cmd::Flush,
        K::Screenshot => Cmd::Screenshot { file: a.str() },
        K::Screendump => {
            let file = a.str();
            Cmd::Screendump { file: if file.text == "-" { None } else { Some(file) } }
        }
        K::Sleep => Cmd::Sleep { seconds: a.num() },
        K::Flushdelay => Cmd::Flushdelay { seconds: a.num() },
        K::Aspect => Cmd::Aspect { on: a.on() },
        K::Bg => Cmd::Bg { color: a.color(form) },
        K::Rotate => Cmd::Rotate { degrees: a.num() },
        K::Scale => Cmd::Scale { x: a.num(), y: if form == 1 { Some(a.num()) } else { None } },
        K::Shift => Cmd::Shift { x: a.num(), y: a.num() },
        K::Viewport => match form {
            0 => Cmd::Viewport { left: a.num(), bottom: a.num(), width: a.num(), height: a.num() },
            1 => {
                let (left, bottom) = (a.num(), a.num());
                a.take();
                Cmd::ViewportCorners { left, bottom, right: a.num(), top: a.num() }
            }
            2 => {
                a.take();
                Cmd::ViewportMacro { name: a.str(), keep_aspect: true }
            }
            _ => Cmd::ViewportMacro { name: a.str(), keep_aspect: false },
        },
        K::Mult => Cmd::Mult { matrix: std::array::from_fn(|_| a.num()) },
        K::Push => Cmd::Push,
        K::Pop => Cmd::Pop,
        K::Ident => Cmd::Ident,
        K::Clip if form == 0 => Cmd::Clip { left: a.num(), bottom: a.num(), width: a.num(), height: a.num() },
        K::Clip => {
            let (left, bottom) = (a.num(), a.num());
            a.take();
            Cmd::ClipCorners { left, bottom, right: a.num(), top: a.num() }
        }
        K::Color => Cmd::Color { color: a.color(form) },
        K::Alpha => Cmd::Alpha { alpha: a.num() },
        K::Thick => Cmd::Thick { pixels: a.int() },
        K::Dash => Cmd::Dash { pattern: a.int() },
        K::Dot => Cmd::Dot { at: a.point() },
        K::Line => Cmd::Line { from: a.point(), to: a.point() },
        K::Arrow => Cmd::Arrow { from: a.point(), to: a.point() },
        K::Rect | K::Fillrect => {
            let fill = kw == K::Fillrect;
            if form == 0 {
                let (corner, width, height) = (a.point(), a.num(), a.num());
                if fill { Cmd::FillRect { corner, width, height } } else { Cmd::Rect { corner, width, height } }
            } else {
                let from = a.point();
                a.take();
                let to = a.point();
                if fill { Cmd::FillRectCorners { from, to } } else { Cmd::RectCorners { from, to } }
            }
        }
        K::Text | K::Blit => {
            let align = if form == 1 { Some(a.align()) } else { None };
            let (at, s) = (a.point(), a.str());
            if kw == K::Text { Cmd::Text { align, at, text: s } } else { Cmd::Blit { align, at, image: s } }
        }
        K::Lines => Cmd::Lines { points: a.points() },
        K::Poly => Cmd::Poly { points: a.points() },
        K::Circle => Cmd::Circle { center: a.point(), radius: a.num(), vertices: a.int() },
        K::Fillcircle => Cmd::FillCircle { center: a.point(), radius: a.num(), vertices: a.int() },
        K::Image if form == 0 => Cmd::ImageNew { width: a.int(), height: a.int(), name: a.str() },
        K::Image => Cmd::ImageLoad { name: a.str(), path: a.str() },
        K::Colormap => Cmd::Colormap { ch: a.char(), color: a.color(form) },
        K::ImageSet => Cmd::ImageSet { image: a.str(), x: a.int(), y: a.int(), pixels: a.str() },
        K::Imgpoly => match form {
            0 => {
                let (anchor, u, v) = (a.point(), a.point(), a.point());
                Cmd::ImgPoly { anchor, u, v, image: a.str(), points: a.points() }
            }
            1 => {
                let (u, v) = (a.point(), a.point());
                Cmd::ImgPolyEdges { u, v, image: a.str(), points: a.points() }
            }
            2 => {
                let (ux, vy) = (a.num(), a.num());
                Cmd::ImgPolyAxes { ux, vy, image: a.str(), points: a.points() }
            }
            _ => Cmd::ImgPolyUnit { image: a.str(), points: a.points() },
        },
        K::Area => Cmd::Area { name: a.str(), points: a.points() },
        K::Delarea => Cmd::Delarea { name: a.str() },
        K::Killareas => Cmd::Killareas,
        K::Macro if form == 0 => {
            a.take();
            Cmd::Macro { name: a.str(), push: true }
        }
        K::Macro => Cmd::Macro { name: a.str(), push: false },
        K::Endmacro => Cmd::Endmacro,
        K::Invoke if form == 0 => Cmd::InvokeAt { at: a.point(), name: a.str() },
        K::Invoke => Cmd::Invoke { name: a.str() },
        K::Forget => Cmd::Forget,
        K::Defcursor => {
            Cmd::Defcursor { name: a.str(), data: a.str(), mask: a.str(), hot_col: a.int(), hot_row: a.int() }
        }
        K::Setcursor => Cmd::Setcursor { name: a.str() },
    }
}

/// The forms of `kw` written out, one per line of the signature table
/// (`line N N N N`; `N` a number, `INT` a whole number, `<...>` a string),
/// and what it takes in words: for an editor's hover.
///
/// ```
/// use animkit_grammar::animator::lexer::Keyword;
/// use animkit_grammar::animator::reader::command_signature;
/// let (forms, usage) = command_signature(Keyword::Invoke);
/// assert_eq!(forms, ["invoke N N <a macro name>", "invoke <a macro name>"]);
/// assert!(usage.contains("macro"));
/// ```
pub fn command_signature(kw: Keyword) -> (Vec<String>, &'static str) {
    let forms = signature(kw)
        .iter()
        .map(|form| {
            let mut s = kw.as_str().to_owned();
            for e in form.iter() {
                s.push(' ');
                match e {
                    Elem::Num => s.push('N'),
                    Elem::Int => s.push_str("INT"),
                    Elem::Str(what) => s.push_str(&format!("<{what}>")),
                    Elem::Word(w) => s.push_str(w),
                    Elem::OnOff => s.push_str("on|off"),
                    Elem::HAlign => s.push_str("left|center|right"),
                    Elem::VAlign => s.push_str("bottom|center|top"),
                    Elem::Sep => s.push('-'),
                    Elem::Dot => s.push('.'),
                    Elem::Points(n) => s.push_str(&format!("X Y... ({n} pairs or more)")),
                    Elem::Char => s.push_str("CHAR"),
                    Elem::ColorName => s.push_str("COLOR"),
                    Elem::Hex256 => s.push_str("HEX256"),
                }
            }
            s
        })
        .collect();
    (forms, usage(kw))
}

/// One valid example of each form of `kw`, in the order of
/// [`command_signature`]: numbers `1`, `2`, `3`... in order (so that no
/// rectangle is empty), whole numbers `8`, names `s`, the
/// first choice of each context word, `n` points (at least one), the
/// character `c`, the colour `red`, a full 256-digit bitmap. The tests
/// that walk the command table read, check and format these.
///
/// ```
/// use animkit_grammar::animator::lexer::Keyword;
/// use animkit_grammar::animator::reader::command_examples;
/// assert_eq!(command_examples(Keyword::Invoke), ["invoke 1 2 s", "invoke s"]);
/// assert_eq!(command_examples(Keyword::Lines), ["lines 0 0 1 0"]);
/// ```
pub fn command_examples(kw: Keyword) -> Vec<String> {
    signature(kw)
        .iter()
        .map(|form| {
            let mut s = kw.as_str().to_owned();
            let mut n = 0;
            for e in form.iter() {
                s.push(' ');
                match e {
                    Elem::Num => {
                        n += 1;
                        s.push_str(&n.to_string());
                    }
                    Elem::Int => s.push('8'),
                    Elem::Str(_) => s.push('s'),
                    Elem::Word(w) => s.push_str(w),
                    Elem::OnOff => s.push_str("on"),
                    Elem::HAlign => s.push_str("left"),
                    Elem::VAlign => s.push_str("top"),
                    Elem::Sep => s.push('-'),
                    Elem::Dot => s.push('.'),
                    Elem::Points(n) => {
                        let corners = ["0 0", "1 0", "1 1", "0 1"];
                        let n = usize::from(*n).clamp(1, corners.len());
                        s.push_str(&corners[..n].join(" "));
                    }
                    Elem::Char => s.push('c'),
                    Elem::ColorName => s.push_str("red"),
                    Elem::Hex256 => s.push_str(&"f".repeat(256)),
                }
            }
            s
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::MAX_FORMS;
    use super::*;

    #[test]
    fn every_keyword_has_forms_within_the_limit() {
        for k in Keyword::ALL {
            let forms = signature(k);
            assert!(!forms.is_empty() && forms.len() <= MAX_FORMS, "{k}");
            for f in forms {
                assert!(f.len() < 255, "{k}");
            }
        }
    }

    #[test]
    fn describe_names_every_string_kind() {
        for k in Keyword::ALL {
            for f in signature(k) {
                for &e in *f {
                    if let S(name) = e {
                        assert_eq!(describe(e), &[name], "{k}");
                    }
                }
            }
        }
    }

    #[test]
    fn every_command_with_arguments_has_a_usage() {
        for k in Keyword::ALL {
            let takes_nothing = signature(k) == [&[] as &[Elem]];
            assert_eq!(usage(k) == "nothing", takes_nothing, "{k}");
        }
    }

    /// A command added through the table alone gets its signature and
    /// usage: the throw-away row `arc` below is read by the same callback
    /// as the real rows.
    mod throw_away_row {
        use super::super::{
            AREA, CURSOR, ColorName, Dot, Elem, FILE, FILE_OR_DASH, Form, HAl, Hex256, I, IMAGE, MACRO, N, OnOff,
            Points, STRING, Sep, VAl, Word,
        };
        use crate::animator::commands::macro_body_from_table;
        use crate::animator::lexer::lexer_from_table;
        use logos::Logos;

        /// The real table with one more row, `arc`, through `$callback`.
        macro_rules! with_arc {
            ($callback:ident) => {
                crate::animator_commands!($callback;
                    Arc "arc" {
                        cmds: [Arc],
                        macro_body: 28,
                        usage: "3 numbers, 2 angles and a whole number, x y r from to verts",
                        forms: [[N, N, N, N, N, I]],
                        lower: [Arc]
                    }
                );
            };
        }
        with_arc!(lexer_from_table);
        with_arc!(macro_body_from_table);
        with_arc!(forms_from_table);

        #[test]
        fn a_row_alone_gives_the_token_the_macro_flag_the_signature_and_the_usage() {
            let mut lex = Tok::lexer(b"arc 1");
            assert_eq!(lex.next(), Some(Ok(Tok::Keyword(Keyword::Arc))));
            assert_eq!(Keyword::ALL.len(), crate::animator::lexer::Keyword::ALL.len() + 1);
            assert_eq!(Keyword::ALL.last(), Some(&Keyword::Arc));
            assert_eq!(Keyword::Arc.as_str(), "arc");
            assert!(Keyword::Arc.in_macro_body() && !Keyword::Frame.in_macro_body());
            assert_eq!(MACRO_PLACES.last(), Some(&(Keyword::Arc, 28)));
            let forms: &[Form] = &[&[N, N, N, N, N, I]];
            assert_eq!(signature(Keyword::Arc), forms);
            assert_eq!(usage(Keyword::Arc), "3 numbers, 2 angles and a whole number, x y r from to verts");
            assert_eq!(signature(Keyword::Line), [&[N, N, N, N] as &[Elem]]);
        }
    }
}
