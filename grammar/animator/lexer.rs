//! The Animator lexer (logos, over bytes).
//!
//! Input is freeform: tokens are separated by ASCII whitespace (space, tab,
//! `\n`, `\r`, vertical tab, form feed, as C's `isspace` in the C locale);
//! other Unicode spaces are ordinary characters of a word.
//!
//! | token | written as |
//! | --- | --- |
//! | [`Tok::Keyword`] | one of the 53 command names, case-sensitive (`line`, not `Line`) |
//! | [`Tok::Number`] | every form C's `printf` writes: `3`, `-0.5`, `.5`, `5.`, `+2`, `25.000000`, `1e-3`, `1E+05`, hex integers `0xffff` (`%#x`), hex floats `0x1.8p+1` (`%a`), and `inf`/`nan` in any case and sign |
//! | [`Tok::Str`] | `"..."` with the escapes `\"`, `\\`, `\n`, `\t`, `\r`, `\b`, `\f`; any other escaped character stands for itself (`\q` is `q`) |
//! | [`Tok::Sep`] | a lone `-` (`rect x1 y1 - x2 y2`) |
//! | [`Tok::Dot`] | a lone `.` (ends `echopt`) |
//! | [`Tok::Word`] | anything else up to whitespace, `!` or `"`: a context word (`on`, `left`, ...), a colour name, `#rrggbb`, or an unquoted one-word string |
//!
//! Rules a user meets:
//! - `!` outside a quoted string starts a comment that runs to the end of the
//!   line, **also in the middle of a word**: `red!comment` is the word `red`
//!   followed by a comment. Bytes inside a comment are ignored, not checked.
//! - A quoted string ends at its closing quote, and cannot span lines: a raw
//!   line break inside quotes makes [`Tok::Unterminated`] (write `\n`
//!   instead). This keeps one stray quote from swallowing the rest of a
//!   stream. Text glued after the closing quote is the next token.
//! - A word ends at whitespace, `!` or `"` and nothing else, so a number glued
//!   to other characters is a word, not a number: `0-`, `1.2.3`, `12abc`.
//!   The reader then reports "expected a number, found `0-`".
//! - `inf` and `nan` lex as numbers, so that the reader can say "not a finite
//!   number" rather than treating them as strings.
//!
//! The lexer works on bytes so that a stream can be cut anywhere, even inside
//! a UTF-8 sequence; the reader checks that words and strings are UTF-8
//! ([`check_utf8`]) once they are complete.

use crate::Span;
use logos::Logos;
use std::fmt;

/// The lexer's token enum and the keyword enum, from the command table
/// (`commands.rs`): logos reads the `#[token]` attributes after this macro
/// has written them, so every row's keyword is a token and no token is
/// outside the table.
macro_rules! lexer_from_table {
    ($($k:ident $kw:tt { $($rest:tt)* })*) => {
        /// One Animator token. Tokens carry no text: their span indexes the input,
        /// so lexing allocates nothing.
        #[derive(Logos, Clone, Copy, Debug, PartialEq, Eq)]
        #[logos(utf8 = false)]
        #[logos(skip r"[ \t\n\r\x0B\x0C]+")]
        pub enum Tok {
            /// A command name.
            $(#[token($kw, |_| Keyword::$k)])*
            Keyword(Keyword),
            /// A number in any `printf` form (see the module docs), including
            /// `inf` and `nan`; [`parse_number`] gives its value.
            #[regex(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?", priority = 5)]
            #[regex(r"[+-]?0[xX]([0-9a-fA-F]+(\.[0-9a-fA-F]*)?|\.[0-9a-fA-F]+)([pP][+-]?[0-9]+)?", priority = 5)]
            #[regex(r"[+-]?([iI][nN][fF]([iI][nN][iI][tT][yY])?|[nN][aA][nN])", priority = 5)]
            Number,
            /// A complete double-quoted string, quotes included; [`unescape`] gives
            /// its text.
            #[regex(r#"(?-u)"([^"\\\n]|\\[^\n])*""#)]
            Str,
            /// A double-quoted string without its closing quote: at the end of the
            /// input so far (more may come) or before a line break (an error).
            #[regex(r#"(?-u)"([^"\\\n]|\\[^\n])*\\?"#)]
            Unterminated,
            /// A lone `-`, the separator of the two-corner forms.
            #[token("-")]
            Sep,
            /// A lone `.`, the end of an `echopt` point list.
            #[token(".")]
            Dot,
            /// `!` and the rest of its line (without the line break).
            #[regex(r"(?-u)![^\n]*", allow_greedy = true)]
            Comment,
            /// Any other run of characters up to whitespace, `!` or `"`.
            #[regex(r#"(?-u)[^ \t\n\r\x0B\x0C!"]+"#, priority = 1)]
            Word,
        }

        /// The command names, one per command of `animator.md` (one per row
        /// of the command table).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Keyword {
            $(#[doc = concat!("`", $kw, "`")] $k,)*
        }

        /// How many keywords there are.
        const KEYWORDS: usize = [$($kw),*].len();

        impl Keyword {
            /// Every keyword, in the order of the spec.
            pub const ALL: [Keyword; KEYWORDS] = [$(Keyword::$k),*];

            /// The keyword as written.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(Keyword::$k => $kw,)*
                }
            }
        }
    };
}

crate::animator_commands!(lexer_from_table);
#[cfg(test)]
pub(crate) use lexer_from_table;

impl Keyword {
    /// The keyword spelt exactly `word`, if any.
    ///
    /// ```
    /// use animkit_grammar::animator::lexer::Keyword;
    /// assert_eq!(Keyword::from_word("fillcircle"), Some(Keyword::Fillcircle));
    /// assert_eq!(Keyword::from_word("Line"), None);
    /// ```
    pub fn from_word(word: &str) -> Option<Keyword> {
        let mut lex = Tok::lexer(word.as_bytes());
        match lex.next() {
            Some(Ok(Tok::Keyword(k))) if lex.span() == (0..word.len()) => Some(k),
            _ => None,
        }
    }
}

impl fmt::Display for Keyword {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Tok {
    /// True for a token that more input could still extend, so the reader
    /// must see the byte after it (or the end of input) before using it.
    /// A complete quoted string cannot grow: its closing quote ends it.
    pub const fn needs_delimiter(self) -> bool {
        !matches!(self, Tok::Str)
    }
}

/// Every token of a whole input, with its span, comments left out.
///
/// The streaming reader lexes one token at a time itself; this is for tools
/// and tests that have the whole text.
///
/// ```
/// use animkit_grammar::animator::lexer::{tokens, Keyword, Tok};
/// let toks: Vec<Tok> = tokens(b"rect 0 .5 - 1e3 2 ! corners").map(|(t, _)| t).collect();
/// assert_eq!(
///     toks,
///     [Tok::Keyword(Keyword::Rect), Tok::Number, Tok::Number, Tok::Sep, Tok::Number, Tok::Number]
/// );
/// ```
pub fn tokens(src: &[u8]) -> impl Iterator<Item = (Tok, Span)> + '_ {
    let mut lex = Tok::lexer(src);
    std::iter::from_fn(move || {
        loop {
            // Every byte belongs to some token, so logos never fails here;
            // a failure would still only make a word, never a panic.
            let tok = lex.next()?.unwrap_or(Tok::Word);
            if tok != Tok::Comment {
                return Some((tok, Span::from(lex.span())));
            }
        }
    })
}

/// The span of every comment of a whole input, from its `!` to the end of
/// its line (the line break excluded), in order. Tools that rewrite a text
/// (the formatter) use it to keep comments, which the AST does not hold.
///
/// ```
/// use animkit_grammar::animator::lexer::comments;
/// let src = "! head\necho \"a!b\" ! tail\nred!x\n";
/// let texts: Vec<&str> = comments(src.as_bytes()).map(|s| &src[s.range()]).collect();
/// assert_eq!(texts, ["! head", "! tail", "!x"]);
/// ```
pub fn comments(src: &[u8]) -> impl Iterator<Item = Span> + '_ {
    let mut lex = Tok::lexer(src);
    std::iter::from_fn(move || {
        loop {
            if lex.next()? == Ok(Tok::Comment) {
                return Some(Span::from(lex.span()));
            }
        }
    })
}

/// The value of a [`Tok::Number`]'s text. Infinite and NaN values come back
/// as such (the reader rejects them); text that is not a number gives NaN.
///
/// ```
/// use animkit_grammar::animator::lexer::parse_number;
/// assert_eq!(parse_number(b"25.000000"), 25.0);
/// assert_eq!(parse_number(b"-.5"), -0.5);
/// assert_eq!(parse_number(b"1E+05"), 100000.0);
/// assert_eq!(parse_number(b"0xffff"), 65535.0);
/// assert_eq!(parse_number(b"0x1.8p+1"), 3.0);
/// assert!(parse_number(b"-inf").is_infinite());
/// ```
pub fn parse_number(text: &[u8]) -> f64 {
    let (negative, unsigned) = match text {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        _ => (false, text),
    };
    let magnitude = match unsigned {
        [b'0', b'x' | b'X', hex @ ..] => parse_hex_float(hex),
        _ => match short_decimal(unsigned)
            .or_else(|| std::str::from_utf8(unsigned).ok().and_then(|s| s.parse::<f64>().ok()))
        {
            Some(v) => v,
            None if unsigned.eq_ignore_ascii_case(b"inf") || unsigned.eq_ignore_ascii_case(b"infinity") => {
                f64::INFINITY
            }
            None => f64::NAN,
        },
    };
    if negative { -magnitude } else { magnitude }
}

/// The fast path for what `printf` usually writes (`25.000000`, `1e-3`):
/// at most 15 significant digits and a small power of ten. Both the digits
/// and the power of ten are then exact doubles, so one IEEE multiplication
/// or division rounds correctly (Clinger's fast path), giving exactly what
/// `str::parse` gives. Anything else returns `None`.
fn short_decimal(text: &[u8]) -> Option<f64> {
    const POW10: [f64; 23] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
        1e20, 1e21, 1e22,
    ];
    let mut mantissa: u64 = 0;
    let mut digits = 0;
    let mut scale: i32 = 0;
    let mut i = 0;
    while let Some(&b) = text.get(i) {
        if !b.is_ascii_digit() {
            break;
        }
        mantissa = mantissa * 10 + u64::from(b - b'0');
        digits += 1;
        if digits > 15 {
            return None;
        }
        i += 1;
    }
    if text.get(i) == Some(&b'.') {
        i += 1;
        while let Some(&b) = text.get(i) {
            if !b.is_ascii_digit() {
                break;
            }
            mantissa = mantissa * 10 + u64::from(b - b'0');
            digits += 1;
            scale -= 1;
            if digits > 15 {
                return None;
            }
            i += 1;
        }
    }
    if digits == 0 {
        return None;
    }
    if let Some(b'e' | b'E') = text.get(i) {
        let (negative, mut j) = match text.get(i + 1) {
            Some(b'-') => (true, i + 2),
            Some(b'+') => (false, i + 2),
            _ => (false, i + 1),
        };
        let mut exponent: i32 = 0;
        let start = j;
        while let Some(&b) = text.get(j) {
            // Only digits may follow; long exponents take the slow path.
            if !b.is_ascii_digit() || j - start >= 4 {
                return None;
            }
            exponent = exponent * 10 + i32::from(b - b'0');
            j += 1;
        }
        if j == start {
            return None;
        }
        scale += if negative { -exponent } else { exponent };
        i = j;
    }
    if i != text.len() {
        return None;
    }
    let m = mantissa as f64;
    match scale {
        0..=22 => Some(m * POW10[scale as usize]),
        -22..=-1 => Some(m / POW10[(-scale) as usize]),
        _ => None,
    }
}

/// `h.hhhp±d` after `0x`: hex digits with an optional point and an optional
/// binary exponent, as `%a` prints them.
fn parse_hex_float(text: &[u8]) -> f64 {
    let mut mantissa: u64 = 0;
    let mut exponent: i64 = 0;
    let mut after_point = false;
    let mut rest = text;
    while let [b, tail @ ..] = rest {
        let digit = match b {
            b'.' => {
                after_point = true;
                rest = tail;
                continue;
            }
            b'p' | b'P' => break,
            _ => match (*b as char).to_digit(16) {
                Some(d) => u64::from(d),
                None => return f64::NAN,
            },
        };
        if mantissa < 1 << 59 {
            mantissa = mantissa * 16 + digit;
            if after_point {
                exponent -= 4;
            }
        } else if !after_point {
            // Digits past 60 bits of precision only scale the value.
            exponent += 4;
        }
        rest = tail;
    }
    if let [_, power @ ..] = rest {
        let (sign, digits) = match power {
            [b'-', d @ ..] => (-1, d),
            [b'+', d @ ..] => (1, d),
            d => (1, d),
        };
        let mut p: i64 = 0;
        for d in digits {
            p = (p * 10 + i64::from(d.wrapping_sub(b'0'))).min(100_000);
        }
        exponent += sign * p;
    }
    let exponent = exponent.clamp(-100_000, 100_000) as i32;
    // Two steps keep 2^exponent from underflowing before the product would.
    let half = exponent / 2;
    mantissa as f64 * 2f64.powi(half) * 2f64.powi(exponent - half)
}

/// The text of a complete quoted string token (quotes included): escapes
/// `\"`, `\\`, `\n`, `\t`, `\r`, `\b`, `\f` are replaced by their character;
/// any other escaped character stands for itself (`\q` is `q`, `\'` is `'`).
///
/// ```
/// use animkit_grammar::animator::lexer::unescape;
/// assert_eq!(unescape(r#""a\"b\\c\n\q""#), "a\"b\\c\nq");
/// ```
pub fn unescape(quoted: &str) -> String {
    let inner = quoted.strip_prefix('"').unwrap_or(quoted);
    let inner = inner.strip_suffix('"').unwrap_or(inner);
    if !inner.contains('\\') {
        return inner.to_string();
    }
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

/// The text of a token, or the span (relative to `bytes`) of its first
/// invalid UTF-8 sequence.
pub fn check_utf8(bytes: &[u8]) -> Result<&str, std::ops::Range<usize>> {
    std::str::from_utf8(bytes).map_err(|e| {
        let start = e.valid_up_to();
        start..start + e.error_len().unwrap_or(bytes.len() - start)
    })
}

/// The whole number a number token stands for, when it is one that fits
/// an `i64`: exact for integer text (`9007199254740993`, `0xffff`), else
/// from the float when it has no fraction (`25.000000`, `1e2`).
pub(crate) fn whole(v: f64, text: &[u8]) -> Option<i64> {
    if !v.is_finite() {
        return None;
    }
    if let Some(i) = std::str::from_utf8(text).ok().and_then(|s| s.parse::<i64>().ok()) {
        return Some(i);
    }
    let (negative, unsigned) = match text {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        _ => (false, text),
    };
    if let [b'0', b'x' | b'X', digits @ ..] = unsigned {
        if let Some(u) = std::str::from_utf8(digits).ok().and_then(|d| u64::from_str_radix(d, 16).ok()) {
            let i = i64::try_from(u).ok()?;
            return Some(if negative { -i } else { i });
        }
    }
    // i64::MAX as f64 rounds up to 2^63, which is out of range.
    (v.fract() == 0.0 && v.abs() < 9_223_372_036_854_775_808.0).then_some(v as i64)
}

/// A quoted token's text between the quotes, as bytes.
pub(crate) fn unquoted(text: &[u8]) -> &[u8] {
    text.strip_prefix(b"\"").and_then(|t| t.strip_suffix(b"\"")).unwrap_or(text)
}

/// The one character of `c`, `'c'` or `"c"` (already unquoted).
pub(crate) fn single_char(text: &str) -> Option<char> {
    let text = match text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')) {
        Some(inner) if !inner.is_empty() => inner,
        _ => text,
    };
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Some(c),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<(Tok, &str)> {
        tokens(src.as_bytes()).map(|(t, s)| (t, &src[s.range()])).collect()
    }

    #[test]
    fn every_printf_number_form_is_one_number_token() {
        for n in [
            "3",
            "-0.5",
            ".5",
            "+2",
            "5.",
            "25.000000",
            "-0.000000",
            "1e-3",
            "1E+05",
            "1.000000e+00",
            "100300",
            "0xffff",
            "0XFF",
            "-0x10",
            "0x1.8p+1",
            "0x1p-3",
            "inf",
            "-inf",
            "INF",
            "nan",
            "-nan",
            "NaN",
            "infinity",
        ] {
            assert_eq!(kinds(n), [(Tok::Number, n)], "{n}");
        }
    }

    #[test]
    fn numbers_glued_to_other_characters_are_words() {
        for w in ["0-", "1.2.3", "12abc", "1e", "-.", "--", "+", "0x", "0xg", "infx", "..", "-1-"] {
            assert_eq!(kinds(w), [(Tok::Word, w)], "{w}");
        }
    }

    #[test]
    fn lone_minus_and_dot_are_separators() {
        assert_eq!(kinds("- ."), [(Tok::Sep, "-"), (Tok::Dot, ".")]);
        assert_eq!(kinds("-5 .5"), [(Tok::Number, "-5"), (Tok::Number, ".5")]);
    }

    #[test]
    fn keywords_are_exact_and_case_sensitive() {
        assert_eq!(
            kinds("line lines Line linex image_set"),
            [
                (Tok::Keyword(Keyword::Line), "line"),
                (Tok::Keyword(Keyword::Lines), "lines"),
                (Tok::Word, "Line"),
                (Tok::Word, "linex"),
                (Tok::Keyword(Keyword::ImageSet), "image_set"),
            ]
        );
        for k in Keyword::ALL {
            assert_eq!(Keyword::from_word(k.as_str()), Some(k));
        }
    }

    #[test]
    fn comments_run_to_end_of_line_even_inside_words() {
        assert_eq!(
            kinds("red!x y\nblue ! z\n\"a!b\""),
            [(Tok::Word, "red"), (Tok::Word, "blue"), (Tok::Str, "\"a!b\"")]
        );
    }

    #[test]
    fn strings_end_at_their_quote_and_not_at_line_breaks() {
        assert_eq!(kinds(r#""a\"b"c"#), [(Tok::Str, r#""a\"b""#), (Tok::Word, "c")]);
        assert_eq!(kinds("\"ab\ncd"), [(Tok::Unterminated, "\"ab"), (Tok::Word, "cd")]);
        assert_eq!(kinds("\"ab\\"), [(Tok::Unterminated, "\"ab\\")]);
        assert_eq!(kinds("x\"y\""), [(Tok::Word, "x"), (Tok::Str, "\"y\"")]);
    }

    #[test]
    fn escapes() {
        assert_eq!(unescape(r#""\"\\\n\t\r\b\f""#), "\"\\\n\t\r\u{8}\u{c}");
        assert_eq!(unescape(r#""\x\'é""#), "x'é");
        assert_eq!(unescape(r#""plain""#), "plain");
    }

    #[test]
    fn number_values() {
        assert_eq!(parse_number(b"+2"), 2.0);
        assert_eq!(parse_number(b".5"), 0.5);
        assert_eq!(parse_number(b"5."), 5.0);
        assert_eq!(parse_number(b"1e-3"), 0.001);
        assert_eq!(parse_number(b"100300"), 100300.0);
        assert_eq!(parse_number(b"-0x10"), -16.0);
        assert_eq!(parse_number(b"0x.8"), 0.5);
        assert_eq!(parse_number(b"0x1p-3"), 0.125);
        assert_eq!(parse_number(b"0xffffffffffffffffffff"), 2f64.powi(80) - 1.0);
        assert!(parse_number(b"nan").is_nan());
        assert_eq!(parse_number(b"-INF"), f64::NEG_INFINITY);
        assert!(parse_number(b"1e400").is_infinite());
    }

    #[test]
    fn invalid_utf8_bytes_stay_inside_their_token() {
        let toks: Vec<(Tok, Span)> = tokens(b"ab\xffcd \"x\xc3(\" !\xff\nz").collect();
        assert_eq!(toks, [(Tok::Word, Span::new(0, 5)), (Tok::Str, Span::new(6, 11)), (Tok::Word, Span::new(15, 16))]);
    }

    #[test]
    fn the_fast_path_agrees_with_str_parse() {
        let mut cases: Vec<String> = [
            "0",
            "1",
            "25.000000",
            "0.1",
            "0.3",
            "123456789012345",
            "1234567890123456",
            "9.999999999999999",
            "1e22",
            "1e23",
            "1e-22",
            "1.5e-23",
            "5.",
            ".5",
            "0.000001",
            "100000.000000",
            "1E+05",
            "1e0005",
            "12345.678901234",
            "0.30000000000000004",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let mut x = 0.1f64;
        for _ in 0..2000 {
            x = (x * 7919.123).fract() * 10f64.powi((x * 1e6) as i32 % 12 - 4);
            cases.push(format!("{x:.6}"));
            cases.push(format!("{x:e}"));
            cases.push(format!("{x}"));
        }
        for c in cases {
            let want: f64 = c.parse().unwrap();
            assert_eq!(parse_number(c.as_bytes()).to_bits(), want.to_bits(), "{c}");
            assert_eq!(parse_number(format!("-{c}").as_bytes()).to_bits(), (-want).to_bits(), "-{c}");
        }
    }

    #[test]
    fn invalid_utf8_is_located() {
        assert_eq!(check_utf8(b"ab\xffcd"), Err(2..3));
        assert_eq!(check_utf8(b"ab\xe2\x82"), Err(2..4));
        assert_eq!(check_utf8("é".as_bytes()), Ok("é"));
    }

    #[test]
    fn whole_numbers() {
        assert_eq!(whole(25.0, b"25.000000"), Some(25));
        assert_eq!(whole(-3.0, b"-3"), Some(-3));
        assert_eq!(whole(65535.0, b"0xffff"), Some(65535));
        assert_eq!(whole(-16.0, b"-0x10"), Some(-16));
        assert_eq!(whole(100.0, b"1e2"), Some(100));
        assert_eq!(whole(9007199254740993.0, b"9007199254740993"), Some(9007199254740993));
        assert_eq!(whole(9223372036854775807.0, b"9223372036854775807"), Some(i64::MAX));
        assert_eq!(whole(2.5, b"2.5"), None);
        assert_eq!(whole(1e30, b"1e30"), None);
        assert_eq!(whole(18446744073709551615.0, b"0xffffffffffffffff"), None);
        assert_eq!(whole(f64::INFINITY, b"inf"), None);
    }

    #[test]
    fn characters() {
        assert_eq!(single_char("x"), Some('x'));
        assert_eq!(single_char("'x'"), Some('x'));
        assert_eq!(single_char("'"), Some('\''));
        assert_eq!(single_char("''"), None);
        assert_eq!(single_char("'é'"), Some('é'));
        assert_eq!(single_char("ab"), None);
    }
}
