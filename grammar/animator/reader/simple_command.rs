//! The fast path for simple commands (see the reader's module docs).

use super::Reader;
use crate::Span;
use crate::animator::ast::{Cmd, Color, Command, Int, Num, Point};
use crate::animator::lexer::{Keyword, parse_number};

impl Reader {
    /// The next command when it is a simple one that has wholly arrived:
    /// a keyword of [`fast_shape`] and its plain decimal numbers, each token
    /// followed by whitespace (so each is whole and, the last one included,
    /// certainly complete), nothing else in between. It is exactly what the
    /// general path would return (the same command, spans and position) and
    /// leaves the reader as the general path would; anything else (a
    /// comment, a quote, another form, a hexadecimal or long number, the end
    /// of the input so far) returns `None` having changed nothing, and the
    /// general path reads the command.
    pub(super) fn fast_command(&mut self) -> Option<Command> {
        /// Longest command the fast path reads (the limits are far above).
        const MAX_FAST: usize = 1024;
        let rest = &self.buf[self.cur..];
        let rest = &rest[..rest.len().min(MAX_FAST)];
        let mut i = skip_space(rest, 0);
        let kw_start = i;
        while let Some(&b) = rest.get(i) {
            if b.is_ascii_lowercase() || b == b'_' {
                i += 1;
            } else {
                break;
            }
        }
        if !is_space(*rest.get(i)?) {
            return None;
        }
        let (kw, shape) = fast_shape(&rest[kw_start..i])?;
        let at = self.base + self.cur;
        let mut nums = [Num { value: 0.0, span: Span::default() }; 4];
        let mut ints = [0i64; 4];
        // Whether a newline separates two of its tokens.
        let mut newline = false;
        for (k, num) in nums.iter_mut().enumerate().take(shape.count as usize) {
            while let Some(&b) = rest.get(i).filter(|&&b| is_space(b)) {
                newline |= b == b'\n';
                i += 1;
            }
            let (value, len, integer) = fast_number(&rest[i..])?;
            if shape.ints & (1 << k) != 0 {
                // Whole numbers written with a point or an exponent take the
                // general path (`whole`).
                ints[k] = integer?;
            }
            *num = Num { value, span: Span::new(at + i, at + i + len) };
            i += len;
        }
        let span =
            Span::new(at + kw_start, if shape.count == 0 { at + i } else { nums[shape.count as usize - 1].span.end });
        let int = |k: usize| Int::new(ints[k], nums[k].span);
        let point = |k: usize| Point { x: nums[k], y: nums[k + 1] };
        let kind = match kw {
            Keyword::Line => Cmd::Line { from: point(0), to: point(2) },
            Keyword::Arrow => Cmd::Arrow { from: point(0), to: point(2) },
            Keyword::Fillcircle => Cmd::FillCircle { center: point(0), radius: nums[2], vertices: int(3) },
            Keyword::Circle => Cmd::Circle { center: point(0), radius: nums[2], vertices: int(3) },
            Keyword::Color => Cmd::Color { color: Color::Rgb(nums[0], nums[1], nums[2]) },
            Keyword::Bg => Cmd::Bg { color: Color::Rgb(nums[0], nums[1], nums[2]) },
            Keyword::Rect => Cmd::Rect { corner: point(0), width: nums[2], height: nums[3] },
            Keyword::Fillrect => Cmd::FillRect { corner: point(0), width: nums[2], height: nums[3] },
            Keyword::Clip => Cmd::Clip { left: nums[0], bottom: nums[1], width: nums[2], height: nums[3] },
            Keyword::Dot => Cmd::Dot { at: point(0) },
            Keyword::Shift => Cmd::Shift { x: nums[0], y: nums[1] },
            Keyword::Scale => Cmd::Scale { x: nums[0], y: Some(nums[1]) },
            Keyword::Warp => Cmd::Warp { at: point(0) },
            Keyword::Rotate => Cmd::Rotate { degrees: nums[0] },
            Keyword::Alpha => Cmd::Alpha { alpha: nums[0] },
            Keyword::Sleep => Cmd::Sleep { seconds: nums[0] },
            Keyword::Flushdelay => Cmd::Flushdelay { seconds: nums[0] },
            Keyword::Thick => Cmd::Thick { pixels: int(0) },
            Keyword::Dash => Cmd::Dash { pattern: int(0) },
            Keyword::Resize => Cmd::Resize { width: int(0), height: int(1) },
            Keyword::Frame => Cmd::Frame,
            Keyword::Flush => Cmd::Flush,
            Keyword::Push => Cmd::Push,
            Keyword::Pop => Cmd::Pop,
            Keyword::Ident => Cmd::Ident,
            Keyword::Quit => Cmd::Quit,
            Keyword::Killareas => Cmd::Killareas,
            Keyword::Endmacro => Cmd::Endmacro,
            Keyword::Forget => Cmd::Forget,
            _ => return None,
        };
        // As `begin` and `emit` leave the reader: the command consumed up to
        // its last token, its position tracked.
        self.cur += span.end - at;
        let pos = self.track(span.start);
        if !newline {
            // Keyword, numbers and the spaces between: one column a byte.
            self.plain_end = span.end;
        }
        Some(Command { kind, span, pos })
    }
}

/// What the fast path reads after a keyword: `count` plain numbers, those
/// whose bit is set in `ints` whole.
#[derive(Clone, Copy)]
struct FastShape {
    count: u8,
    ints: u8,
}

/// The keyword spelt `word` and its shape, for the commands the fast path
/// reads: those whose only way to be complete with these many numbers is
/// the form the fast path builds (`color` with three numbers, `scale` with
/// two, `rect` with four, ...).
#[inline]
fn fast_shape(word: &[u8]) -> Option<(Keyword, FastShape)> {
    use Keyword as K;
    let nums = |count| FastShape { count, ints: 0 };
    Some(match word {
        b"line" => (K::Line, nums(4)),
        b"fillcircle" => (K::Fillcircle, FastShape { count: 4, ints: 1 << 3 }),
        b"color" => (K::Color, nums(3)),
        b"circle" => (K::Circle, FastShape { count: 4, ints: 1 << 3 }),
        b"dot" => (K::Dot, nums(2)),
        b"rect" => (K::Rect, nums(4)),
        b"fillrect" => (K::Fillrect, nums(4)),
        b"arrow" => (K::Arrow, nums(4)),
        b"thick" => (K::Thick, FastShape { count: 1, ints: 1 }),
        b"alpha" => (K::Alpha, nums(1)),
        b"push" => (K::Push, nums(0)),
        b"pop" => (K::Pop, nums(0)),
        b"shift" => (K::Shift, nums(2)),
        b"rotate" => (K::Rotate, nums(1)),
        b"scale" => (K::Scale, nums(2)),
        b"frame" => (K::Frame, nums(0)),
        b"flush" => (K::Flush, nums(0)),
        b"dash" => (K::Dash, FastShape { count: 1, ints: 1 }),
        b"bg" => (K::Bg, nums(3)),
        b"clip" => (K::Clip, nums(4)),
        b"ident" => (K::Ident, nums(0)),
        b"warp" => (K::Warp, nums(2)),
        b"sleep" => (K::Sleep, nums(1)),
        b"flushdelay" => (K::Flushdelay, nums(1)),
        b"resize" => (K::Resize, FastShape { count: 2, ints: 0b11 }),
        b"quit" => (K::Quit, nums(0)),
        b"killareas" => (K::Killareas, nums(0)),
        b"endmacro" => (K::Endmacro, nums(0)),
        b"forget" => (K::Forget, nums(0)),
        _ => return None,
    })
}

/// ASCII whitespace, as the lexer skips it.
#[inline]
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// The index of the first byte at or after `i` that is not whitespace.
#[inline]
fn skip_space(bytes: &[u8], mut i: usize) -> usize {
    while bytes.get(i).is_some_and(|&b| is_space(b)) {
        i += 1;
    }
    i
}

/// A plain decimal number token at the start of `bytes` (what the lexer's
/// first number pattern matches, `[+-]?(d+(.d*)?|.d+)([eE][+-]?d+)?`),
/// followed by whitespace: its value (exactly what [`parse_number`] gives),
/// its length, and its value as a whole number when it is written as one
/// (digits only, at most 15 of them).
#[inline]
fn fast_number(bytes: &[u8]) -> Option<(f64, usize, Option<i64>)> {
    const POW10: [f64; 23] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
        1e20, 1e21, 1e22,
    ];
    let (negative, mut i) = match bytes.first()? {
        b'-' => (true, 1),
        b'+' => (false, 1),
        _ => (false, 0),
    };
    let (mut mantissa, mut digits, mut scale) = (0u64, 0u32, 0i32);
    let mut plain = true;
    while let Some(&b) = bytes.get(i).filter(|b| b.is_ascii_digit()) {
        mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(b - b'0'));
        digits += 1;
        i += 1;
    }
    if bytes.get(i) == Some(&b'.') {
        plain = false;
        i += 1;
        while let Some(&b) = bytes.get(i).filter(|b| b.is_ascii_digit()) {
            mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(b - b'0'));
            digits += 1;
            scale -= 1;
            i += 1;
        }
    }
    if digits == 0 {
        return None;
    }
    let mut slow = digits > 15;
    if let Some(b'e' | b'E') = bytes.get(i) {
        plain = false;
        let (exp_negative, start) = match bytes.get(i + 1) {
            Some(b'-') => (true, i + 2),
            Some(b'+') => (false, i + 2),
            _ => (false, i + 1),
        };
        let (mut exponent, mut j) = (0i32, start);
        while let Some(&b) = bytes.get(j).filter(|b| b.is_ascii_digit()) {
            exponent = exponent.saturating_mul(10).saturating_add(i32::from(b - b'0'));
            j += 1;
        }
        if j == start {
            return None;
        }
        slow |= j - start > 4;
        scale += if exp_negative { -exponent } else { exponent };
        i = j;
    }
    if !is_space(*bytes.get(i)?) {
        return None;
    }
    let m = mantissa as f64;
    let magnitude = match scale {
        _ if slow => return Some((parse_number(&bytes[..i]), i, None)).filter(|(v, ..)| v.is_finite()),
        0..=22 => m * POW10[scale as usize],
        -22..=-1 => m / POW10[(-scale) as usize],
        _ => return Some((parse_number(&bytes[..i]), i, None)).filter(|(v, ..)| v.is_finite()),
    };
    let whole = (plain && !slow).then(|| if negative { -(mantissa as i64) } else { mantissa as i64 });
    Some((if negative { -magnitude } else { magnitude }, i, whole))
}

#[cfg(test)]
mod tests {
    use super::super::ReadError;
    use super::*;

    /// Every result of `text` pushed in pieces of the given sizes, with the
    /// piece after which it came.
    pub(super) fn read_all(text: &[u8], pieces: &[usize], fast: bool) -> Vec<(usize, Result<Command, ReadError>)> {
        let mut r = Reader::new();
        r.set_fast_path(fast);
        let mut out = Vec::new();
        let mut rest = text;
        let mut k = 0;
        while !rest.is_empty() {
            let n = pieces.get(k % pieces.len().max(1)).copied().unwrap_or(rest.len()).clamp(1, rest.len());
            r.push(&rest[..n]);
            rest = &rest[n..];
            while let Some(item) = r.next() {
                out.push((k, item));
            }
            k += 1;
        }
        r.finish();
        while let Some(item) = r.next() {
            out.push((k, item));
        }
        out
    }

    const VOCABULARY: &[&str] = &[
        // 28 keywords of the fast path (some with a sleep to keep them short).
        "line",
        "fillcircle",
        "color",
        "circle",
        "dot",
        "rect",
        "fillrect",
        "arrow",
        "thick",
        "alpha",
        "push",
        "pop",
        "shift",
        "rotate",
        "scale",
        "frame",
        "flush",
        "dash",
        "bg",
        "clip",
        "ident",
        "warp",
        "sleep",
        "resize",
        "quit",
        "killareas",
        "endmacro",
        "forget",
        // 9 other words.
        "lines",
        "echo",
        "invoke",
        "text",
        "viewport",
        "Line",
        "linex",
        "image_set",
        "macro",
        // 27 numbers and almost-numbers.
        "0",
        "1",
        "-2",
        "+3",
        "12",
        "0.5",
        "-.25",
        "5.",
        ".5",
        "1e3",
        "-1E-2",
        "2.5e+1",
        "1e",
        "1.2.3",
        "0x10",
        "-0xff",
        "inf",
        "-nan",
        "00012",
        "123456789012345678",
        "0.1234567890123456789",
        "1e400",
        "1e-400",
        "3.000000",
        "25.000000",
        "1e00005",
        "-0",
        // The rest.
        "-",
        ".",
        "+",
        "-.",
        "red",
        "#ff0000",
        "\"s\"",
        "\"a b",
        "!c",
        "! d\n",
        "aspect",
        "on",
        "area",
        "é",
        "\u{00a0}",
        "2x",
    ];
    const SPACES: &[&str] = &[" ", " ", " ", "\n", "\n", "\t", "  ", "\r\n", "\x0b", "\x0c", "", "!x\n"];

    /// Indexes into [`VOCABULARY`]: the keywords come first, then numbers
    /// from index [`FIRST_NUMBER`] on.
    const KEYWORDS: usize = 28;
    const FIRST_NUMBER: usize = 37;
    const NUMBERS: usize = 27;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1024))]
        #[test]
        fn the_fast_path_reads_what_the_general_path_reads(
            // Commands: a keyword, then 0 to 5 tokens, mostly numbers; now
            // and then any word of the vocabulary.
            commands in proptest::collection::vec(
                (0..KEYWORDS, proptest::collection::vec((0..100usize, 0..SPACES.len()), 0..6), 0..SPACES.len()),
                0..25,
            ),
            pieces in proptest::collection::vec(1usize..40, 1..6),
        ) {
            let mut text = String::new();
            for (kw, args, sp) in commands {
                text.push_str(VOCABULARY[kw]);
                text.push_str(SPACES[sp]);
                for (a, sp) in args {
                    let word = if a < 90 { FIRST_NUMBER + a % NUMBERS } else { a * 7 % VOCABULARY.len() };
                    text.push_str(if sp % 3 == 0 { " " } else { SPACES[sp] });
                    text.push_str(VOCABULARY[word]);
                }
                text.push_str(SPACES[sp % 4]);
            }
            let fast = read_all(text.as_bytes(), &pieces, true);
            let general = read_all(text.as_bytes(), &pieces, false);
            proptest::prop_assert_eq!(fast, general, "{:?}", text);
        }
    }

    #[test]
    pub(super) fn the_fast_path_reads_printf_output_like_the_general_path() {
        let mut text = String::new();
        let mut x = 0.3f64;
        for i in 0..3000 {
            x = (x * 7919.123).fract();
            let y = x * 2.0 - 1.0;
            match i % 6 {
                0 => text.push_str(&format!("line {x:.6} {y:.6} {:.6} {:.3e}\n", -x, y * 1e-3)),
                1 => text.push_str(&format!("fillcircle {y:.6} {x:.6} {:.6} {}\n", x / 10.0, 3 + i % 50)),
                2 => text.push_str(&format!("color {x:.6} {:.6} {y}\nthick {}\n", 1.0 - x, i % 4)),
                3 => text
                    .push_str(&format!("push\nshift {y:.6} {x}\nrotate {:.2}\nscale {x:.6} {y:.6}\npop\n", x * 360.0)),
                4 => text.push_str(&format!("rect {y} {x} {:.6} {:.6}\tfillrect {x} {y} {x} {y}\n", x / 2.0, y / 3.0)),
                _ => text.push_str(&format!("dot {x:e} {y:E}\nflush\nframe\nalpha {x}\ndash {}\n", i % 65536)),
            }
        }
        for pieces in [vec![1 << 20], vec![1], vec![7, 64, 3], vec![4096]] {
            let fast = read_all(text.as_bytes(), &pieces, true);
            let general = read_all(text.as_bytes(), &pieces, false);
            assert_eq!(fast.len(), general.len());
            assert!(fast.iter().all(|(_, r)| r.is_ok()));
            assert_eq!(fast, general);
        }
    }
}
