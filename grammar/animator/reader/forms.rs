//! The table of command signatures and the building of commands from the
//! arguments of a matched form.

use super::{Arg, Reader};
use crate::Span;
use crate::animator::ast::{Align, Char, Cmd, Color, HAlign, Int, Num, Point, Str, VAlign};
use crate::animator::lexer::{Keyword, Tok, whole};

pub(super) use super::elem::*;

pub(super) type Form = &'static [Elem];

/// `signature` and `usage` from the command table (`commands.rs`), whose
/// `forms` column is written with the names above.
macro_rules! forms_from_table {
    ($($k:ident $kw:tt { cmds: $cmds:tt, macro_body: $m:tt, usage: $u:literal, forms: [$([$($e:expr),*]),*], lower: $lower:tt, ops: $ops:tt })*) => {
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

    /// A colour in the form `elems` has at element `e`, and the elements
    /// it takes: a name or `#` (one), a grey level (one number) or red green
    /// blue (three numbers).
    fn color(&mut self, elems: Form, e: usize) -> (Color, usize) {
        match (elems.get(e), elems.get(e + 1)) {
            (Some(&N), Some(&N)) => (Color::Rgb(self.num(), self.num(), self.num()), 3),
            (Some(&N), _) => (Color::Gray(self.num()), 1),
            _ => {
                let s = self.str();
                (if s.text.starts_with('#') { Color::Hex(s) } else { Color::Name(s) }, 1)
            }
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

/// The value of one field of kind `$kind` (the table's `cmds` column),
/// taken from `$a`; `$e` counts the form elements taken, so that an
/// optional field is there exactly when the form (`$elems`) has it.
macro_rules! build_field {
    ($a:ident $elems:ident $e:ident; Num) => {{
        $e += 1;
        $a.num()
    }};
    ($a:ident $elems:ident $e:ident; Int) => {{
        $e += 1;
        $a.int()
    }};
    ($a:ident $elems:ident $e:ident; Bits) => {
        build_field!($a $elems $e; Int)
    };
    ($a:ident $elems:ident $e:ident; Str) => {{
        $e += 1;
        $a.str()
    }};
    ($a:ident $elems:ident $e:ident; Name) => {
        build_field!($a $elems $e; Str)
    };
    ($a:ident $elems:ident $e:ident; Hex) => {
        build_field!($a $elems $e; Str)
    };
    ($a:ident $elems:ident $e:ident; OptStr) => {{
        $e += 1;
        let s = $a.str();
        if s.text == "-" { None } else { Some(s) }
    }};
    ($a:ident $elems:ident $e:ident; Point) => {{
        $e += 2;
        $a.point()
    }};
    ($a:ident $elems:ident $e:ident; Points) => {{
        $e += 1;
        $a.points()
    }};
    ($a:ident $elems:ident $e:ident; Nums $n:literal) => {{
        let nums = std::array::from_fn(|_| $a.num());
        $e += nums.len();
        nums
    }};
    ($a:ident $elems:ident $e:ident; OptNum) => {
        if $elems.get($e) == Some(&N) {
            $e += 1;
            Some($a.num())
        } else {
            None
        }
    };
    ($a:ident $elems:ident $e:ident; On) => {{
        $e += 1;
        $a.on()
    }};
    ($a:ident $elems:ident $e:ident; Flag $w:literal) => {
        if $elems.get($e) == Some(&Word($w)) {
            $e += 1;
            $a.take();
            true
        } else {
            false
        }
    };
    ($a:ident $elems:ident $e:ident; Color) => {{
        let (color, taken) = $a.color($elems, $e);
        $e += taken;
        color
    }};
    ($a:ident $elems:ident $e:ident; Char) => {{
        $e += 1;
        $a.char()
    }};
    ($a:ident $elems:ident $e:ident; OptAlign) => {
        if $elems.get($e) == Some(&HAl) {
            $e += 2;
            Some($a.align())
        } else {
            None
        }
    };
}

/// Whether `lists` (each variant's form numbers) name every form number
/// below `forms` exactly once.
const fn covers(lists: &[u8], forms: usize) -> bool {
    let mut seen = [false; 256];
    let mut i = 0;
    while i < lists.len() {
        let f = lists[i] as usize;
        if f >= forms || seen[f] {
            return false;
        }
        seen[f] = true;
        i += 1;
    }
    lists.len() == forms
}

/// `()` for anything: counts a repetition.
macro_rules! unit {
    ($($t:tt)*) => {
        ()
    };
}

/// [`build`] from the table's `cmds` column: each variant's forms and
/// fields, in the order written.
macro_rules! build_from_table {
    ($($k:ident $kw:tt {
        cmds: [$($(#[$vm:meta])* $v:ident ($($fi:literal),*) {
            $($(#[$fm:meta])* $f:ident : $($pre:literal)? $kind:ident $(($karg:literal))? $($post:literal)?),*
        }),*],
        macro_body: $m:tt,
        usage: $u:literal,
        forms: [$([$($el:expr),*]),*],
        $($rest:tt)*
    })*) => {
        /// Turns the arguments of a matched form into the command (the second half
        /// of the signature table: form numbers are indexes into [`signature`]).
        #[allow(unused_variables, unused_mut, unused_assignments, clippy::manual_range_patterns)]
        pub(super) fn build(kw: Keyword, form: u8, a: &mut Args<'_>) -> Cmd {
            match kw {
                $(Keyword::$k => {
                    let elems: Form = signature(Keyword::$k).get(usize::from(form)).copied().unwrap_or(&[]);
                    match form {
                        $($($fi)|* => {
                            let mut e = 0usize;
                            Cmd::$v {
                                $($f: {
                                    $(
                                        let _: &str = $pre;
                                        a.take();
                                        e += 1;
                                    )?
                                    let value = build_field!(a elems e; $kind $($karg)?);
                                    $(
                                        let _: &str = $post;
                                        a.take();
                                        e += 1;
                                    )?
                                    value
                                }),*
                            }
                        })*
                        // Unreachable: the form matched is one of the row's,
                        // and the row's variants cover its forms (checked below).
                        _ => Cmd::Quit,
                    }
                })*
            }
        }

        $(
            const _: () = assert!(
                covers(&[$($($fi),*),*], [$(unit!($($el),*)),*].len()),
                concat!("`", $kw, "`: the variants' form numbers must name each form once")
            );
        )*
    };
}

crate::animator_commands!(build_from_table);

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
                        cmds: [Arc(0) { center: Point, radius: Num, from: Num, to: Num, vertices: Int }],
                        macro_body: 28,
                        usage: "3 numbers, 2 angles and a whole number, x y r from to verts",
                        forms: [[N, N, N, N, N, I]],
                        lower: [Arc],
                        ops: [Arc = 0x65, "ARC", K, Count(5), PLAIN, &[Num, Num, Num, Num, Num, Max(MAX_CIRCLE_VERTICES)],
                            "host.arc(pen, M, x y r from to, n vertices)", {canvas.arc(pen, matrix, num 0, num 1, num 2, num 3, num 4, uint 5)};]
                    }
                );
            };
        }
        with_arc!(lexer_from_table);
        with_arc!(macro_body_from_table);
        with_arc!(forms_from_table);

        /// The `cmds` column as `build_from_table` reads it: each row's
        /// keyword, whether its variants' form numbers cover its forms,
        /// and its fields.
        macro_rules! cmds_column {
            ($($k:ident $kw:tt {
                cmds: [$($(#[$vm:meta])* $v:ident ($($fi:literal),*) {
                    $($(#[$fm:meta])* $f:ident : $($pre:literal)? $kind:ident $(($karg:literal))? $($post:literal)?),*
                }),*],
                macro_body: $m:tt,
                usage: $u:literal,
                forms: [$([$($el:expr),*]),*],
                $($rest:tt)*
            })*) => {
                const CMDS: [(&str, bool, &[&str]); Keyword::ALL.len()] = [$((
                    $kw,
                    super::super::covers(&[$($($fi),*),*], [$(unit!($($el),*)),*].len()),
                    &[$($(concat!(stringify!($f), ": ", stringify!($kind))),*),*],
                )),*];
            };
        }
        with_arc!(cmds_column);

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

        #[test]
        fn a_row_gives_its_variants_fields_and_the_forms_they_are_read_from() {
            assert!(CMDS.iter().all(|row| row.1), "{CMDS:?}");
            let arc = CMDS.last().map(|row| (row.0, row.2));
            let fields: &[&str] = &["center: Point", "radius: Num", "from: Num", "to: Num", "vertices: Int"];
            assert_eq!(arc, Some(("arc", fields)));
            let rect = CMDS.iter().find(|row| row.0 == "rect").map(|row| row.2);
            let fields: &[&str] = &["corner: Point", "width: Num", "height: Num", "from: Point", "to: Point"];
            assert_eq!(rect, Some(fields));
        }

        #[test]
        fn form_numbers_must_name_each_form_once() {
            use super::super::covers;
            assert!(covers(&[1, 0], 2) && covers(&[0, 1, 2], 3) && covers(&[], 0));
            assert!(!covers(&[0, 0], 2), "a form twice");
            assert!(!covers(&[0], 2), "a form left out");
            assert!(!covers(&[1, 2], 2), "a form that is not there");
        }
    }
}
