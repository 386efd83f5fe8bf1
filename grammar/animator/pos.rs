//! Positions in Animator source: a 1-based line and column ([`Pos`]),
//! counted in characters, and how they advance over bytes.

/// A line and column, both 1-based; the column counts characters (a tab is
/// one), not bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos {
    /// Line, counting `\n`s.
    pub line: u32,
    /// Character on that line.
    pub col: u32,
}

impl Pos {
    /// The first character of an input.
    pub const START: Pos = Pos { line: 1, col: 1 };

    /// The position of byte `offset` of `src` (clamped to its length).
    ///
    /// ```
    /// use animkit_grammar::animator::ast::Pos;
    /// assert_eq!(Pos::of("frame\n  éflush", 9), Pos { line: 2, col: 4 });
    /// ```
    pub fn of(src: &str, offset: usize) -> Pos {
        let mut pos = Pos::START;
        pos.advance(&src.as_bytes()[..offset.min(src.len())]);
        pos
    }

    /// Moves past `bytes`: each `\n` starts a new line, and every byte that
    /// starts a UTF-8 sequence (or is not valid UTF-8) counts as a column.
    pub fn advance(&mut self, bytes: &[u8]) {
        if bytes.len() < 16 {
            // A few bytes (the end of a line and the next one's indent):
            // one at a time.
            for &b in bytes {
                if b == b'\n' {
                    self.line = self.line.saturating_add(1);
                    self.col = 1;
                } else if (b as i8) >= -0x40 {
                    self.col = self.col.saturating_add(1);
                }
            }
            return;
        }
        let lines = count(bytes, |b| b == b'\n');
        if lines == 0 {
            self.col = self.col.saturating_add(count_chars(bytes));
            return;
        }
        let last = bytes.iter().rposition(|&b| b == b'\n').unwrap_or(0);
        self.line = self.line.saturating_add(lines);
        self.col = 1 + count_chars(&bytes[last + 1..]);
    }
}

/// How many bytes satisfy `pred`, counted in runs of at most 255 with a
/// byte-wide sum, which the compiler vectorises (16 bytes a step with
/// SSE2): positions are tracked over every byte of a stream.
#[inline]
fn count(bytes: &[u8], pred: impl Fn(u8) -> bool) -> u32 {
    let mut total: u32 = 0;
    for run in bytes.chunks(255) {
        let n = run.iter().fold(0u8, |n, &b| n.wrapping_add(pred(b) as u8));
        total = total.saturating_add(u32::from(n));
    }
    total
}

fn count_chars(bytes: &[u8]) -> u32 {
    // Continuation bytes are 0b10xx_xxxx.
    count(bytes, |b| (b as i8) >= -0x40)
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// Advancing over any bytes, short or long, in any pieces, counts
        /// as a byte-at-a-time reference does: a `\n` starts a line, every
        /// byte but a UTF-8 continuation byte is a column.
        #[test]
        fn advance_counts_as_one_byte_at_a_time(
            bytes in proptest::collection::vec(proptest::prop_oneof![Just(b'\n'), Just(b' '), Just(b'a'), Just(0xc3u8), Just(0xa9u8), proptest::prelude::any::<u8>()], 0..700),
            cuts in proptest::collection::vec(0usize..700, 0..6),
        ) {
            let mut want = Pos::START;
            for &b in &bytes {
                if b == b'\n' {
                    want = Pos { line: want.line + 1, col: 1 };
                } else if (b as i8) >= -0x40 {
                    want.col += 1;
                }
            }
            let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(bytes.len())).collect();
            cuts.push(0);
            cuts.push(bytes.len());
            cuts.sort_unstable();
            let mut got = Pos::START;
            for w in cuts.windows(2) {
                got.advance(&bytes[w[0]..w[1]]);
            }
            proptest::prop_assert_eq!(got, want);
        }
    }

    use proptest::prelude::Just;

    #[test]
    fn positions_count_characters() {
        assert_eq!(Pos::of("", 0), Pos::START);
        assert_eq!(Pos::of("ab\ncd", 4), Pos { line: 2, col: 2 });
        assert_eq!(Pos::of("é\té", 5), Pos { line: 1, col: 4 });
        assert_eq!(Pos::of("a\n\n", 3), Pos { line: 3, col: 1 });
        assert_eq!(Pos::of("a", 99), Pos { line: 1, col: 2 });
    }

    #[test]
    fn advance_counts_lines_and_characters() {
        // Against a character-by-character count, over runs longer than the
        // 255-byte blocks and with multi-byte and invalid UTF-8.
        let naive = |start: Pos, bytes: &[u8]| {
            let mut p = start;
            for &b in bytes {
                if b == b'\n' {
                    p = Pos { line: p.line + 1, col: 1 };
                } else if (b as i8) >= -0x40 {
                    p.col += 1;
                }
            }
            p
        };
        let mut x = 7u32;
        for len in [0, 1, 5, 254, 255, 256, 600, 2000] {
            for lines in [true, false] {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| {
                        x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                        let k = (x >> 16) as usize % 7;
                        [b'\n', b'a', 0xc3, 0xa9, 0xff, b' ', 0x80][if lines { k } else { k.max(1) }]
                    })
                    .collect();
                for start in [Pos::START, Pos { line: 3, col: 9 }] {
                    let mut p = start;
                    p.advance(&bytes);
                    assert_eq!(p, naive(start, &bytes), "{len}");
                }
            }
        }
    }
}
