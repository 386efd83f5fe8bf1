//! "Did you mean ...?": the one edit distance of the project, and the rule
//! for quoting a name in a message. The compiler's suggestions (sprite
//! states, SLAP names, Animator keywords and colour names) and the game
//! API's (`Bundle::sprite`, `SpriteModule::state`) all go through
//! [`distance_within`], so every search is bounded the same way:
//!
//! - a word longer than [`MAX_SUGGEST_LEN`] characters gets no suggestion
//!   (its length is found without reading past that many characters);
//! - a candidate whose length differs from the word's by more than the
//!   allowed distance is skipped without a table;
//! - the table fills only the band of cells that can stay within the
//!   limit, and stops once every cell of a row (and of the row before it,
//!   since a swap steps over a row) is over it.
//!
//! So a 4 MB unknown name costs one pass to find that it is long, never a
//! table: at most `MAX_SUGGEST_LEN` x ([`MAX_SUGGEST_LEN`] + limit) cells
//! per candidate, and memory linear in the candidate's length.

use std::fmt;

/// Longest word (in characters) for which suggestions are searched; a
/// longer one gets none.
pub const MAX_SUGGEST_LEN: usize = 64;

/// The longest name a message quotes whole (characters); a longer one is
/// quoted as its first [`QUOTE_HEAD_CHARS`] characters, `…` and its length
/// in bytes (see [`Quoted`]).
pub const MAX_QUOTE_CHARS: usize = 64;

/// How many characters of a long name a message keeps.
pub const QUOTE_HEAD_CHARS: usize = 32;

/// What each edit costs in [`distance_within`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Costs {
    /// Inserting or deleting a character, or swapping two neighbours.
    pub edit: usize,
    /// Replacing a character by another.
    pub substitute: usize,
}

impl Costs {
    /// Every edit costs one (optimal string alignment).
    pub const UNIT: Costs = Costs { edit: 1, substitute: 1 };
}

/// The number of characters of `s`, or `None` if it has more than `max`
/// (found without reading past `max + 1` characters).
pub fn char_count_within(s: &str, max: usize) -> Option<usize> {
    if s.len() <= max {
        return Some(s.chars().count());
    }
    let n = s.chars().take(max + 1).count();
    (n <= max).then_some(n)
}

/// The edit distance between `a` and `b` (by characters) with the given
/// cost per edit, if it is at most `limit`; `None` if it is over.
/// An insertion, deletion or swap of two neighbours costs `costs.edit`, a
/// substitution `costs.substitute` (optimal string alignment, so `Idel` is
/// one edit from `Idle`).
///
/// Bounded: strings whose lengths differ by more than `limit / costs.edit`
/// get `None` at once, only the cells within that band of the diagonal are
/// computed, and the table stops at the first two rows running over the
/// limit (a swap may step over one row). Time is
/// at most `len(a) x (2 x limit / costs.edit + 1)` cells; memory is linear
/// in `len(b)`.
///
/// ```
/// use animkit_vm::engine::suggest::{Costs, distance_within};
/// assert_eq!(distance_within("Idel", "Idle", Costs::UNIT, 1), Some(1));
/// assert_eq!(distance_within("kitten", "sitting", Costs::UNIT, 3), Some(3));
/// assert_eq!(distance_within("kitten", "sitting", Costs::UNIT, 2), None);
/// let long = "x".repeat(4_000_000);
/// assert_eq!(distance_within(&long, "red", Costs::UNIT, 6), None);
/// ```
pub fn distance_within(a: &str, b: &str, costs: Costs, limit: usize) -> Option<usize> {
    let edit = costs.edit.max(1);
    // Each character of length difference costs at least one edit.
    let band = limit / edit;
    let la = char_count_within(a, b.len().saturating_add(band))?;
    let lb = char_count_within(b, la.saturating_add(band))?;
    if la.abs_diff(lb) > band {
        return None;
    }
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Over the limit: any value above it is as good as another, and it
    // cannot overflow when costs are added.
    let over = limit.saturating_add(1);
    let cap = |v: usize| v.min(over);
    // Three rows of the table (a swap looks two rows back).
    let w = lb + 1;
    let mut two_up: Vec<usize> = vec![over; w];
    let mut up: Vec<usize> = (0..w).map(|j| cap(j.saturating_mul(edit))).collect();
    let mut row: Vec<usize> = vec![over; w];
    // Whether the row before was over the limit in every cell.
    let mut last_over = false;
    for i in 1..=la {
        // Cells outside the band |i - j| <= band are over the limit (the
        // buffers hold only band cells, and values over the limit beyond).
        let lo = i.saturating_sub(band).max(1);
        let hi = i.saturating_add(band).min(lb);
        let mut row_min = over;
        if lo == 1 {
            row[0] = cap(i.saturating_mul(edit));
            row_min = row[0];
        } else {
            row[lo - 1] = over;
        }
        for j in lo..=hi {
            let cost = if a[i - 1] == b[j - 1] { 0 } else { costs.substitute };
            let mut v =
                up[j].saturating_add(edit).min(row[j - 1].saturating_add(edit)).min(up[j - 1].saturating_add(cost));
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(two_up[j - 2].saturating_add(edit));
            }
            row[j] = cap(v);
            row_min = row_min.min(row[j]);
        }
        // A path through the table steps down one row, or two for a swap,
        // and never gets cheaper: once two rows running are over the
        // limit in every cell, so is the last cell.
        if row_min > limit {
            if last_over {
                return None;
            }
            last_over = true;
        } else {
            last_over = false;
        }
        std::mem::swap(&mut two_up, &mut up);
        std::mem::swap(&mut up, &mut row);
    }
    let d = up[lb];
    (d <= limit).then_some(d)
}

/// The unit-cost edit distance of two short strings (see
/// [`distance_within`]); for names of unbounded length, use that.
///
/// ```
/// assert_eq!(animkit_vm::engine::suggest::distance("Idel", "Idle"), 1);
/// ```
pub fn distance(a: &str, b: &str) -> usize {
    distance_within(a, b, Costs::UNIT, usize::MAX).unwrap_or(usize::MAX)
}

/// The names closest to `name`, best first: at most `max` of them, each
/// within an edit distance of a third of the longer name (at least 1),
/// ties in the order given. A name longer than [`MAX_SUGGEST_LEN`]
/// characters gets none.
///
/// ```
/// use animkit_vm::engine::suggest::nearest;
/// let names = ["Idle", "Walk", "Run"];
/// assert_eq!(nearest("Wlak", names, 3), ["Walk"]);
/// assert_eq!(nearest(&"W".repeat(4_000_000), names, 3), Vec::<&str>::new());
/// ```
pub fn nearest<'a>(name: &str, names: impl IntoIterator<Item = &'a str>, max: usize) -> Vec<&'a str> {
    let Some(len) = char_count_within(name, MAX_SUGGEST_LEN) else {
        return Vec::new();
    };
    let mut scored: Vec<(usize, usize, &str)> = names
        .into_iter()
        .enumerate()
        .filter_map(|(i, n)| {
            // A third of the longer name: the candidate may be at most
            // half as long again as `name` to be in reach.
            let nlen = char_count_within(n, len + len / 2 + 1)?;
            let limit = (len.max(nlen) / 3).max(1);
            distance_within(name, n, Costs::UNIT, limit).map(|d| (d, i, n))
        })
        .collect();
    scored.sort_unstable();
    scored.into_iter().take(max).map(|(_, _, n)| n).collect()
}

/// A name quoted in backquotes for a message: whole if it has at most
/// [`MAX_QUOTE_CHARS`] characters, else its first [`QUOTE_HEAD_CHARS`],
/// `…` and its length in bytes, so that a message about a 4 MB name stays
/// short.
///
/// ```
/// use animkit_vm::engine::suggest::Quoted;
/// assert_eq!(Quoted("Walk").to_string(), "`Walk`");
/// assert_eq!(Quoted(&"x".repeat(1000)).to_string(), format!("`{}…` (1000 bytes)", "x".repeat(32)));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Quoted<'a>(pub &'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if char_count_within(self.0, MAX_QUOTE_CHARS).is_some() {
            write!(f, "`{}`", self.0)
        } else {
            let head: String = self.0.chars().take(QUOTE_HEAD_CHARS).collect();
            write!(f, "`{head}…` ({} bytes)", self.0.len())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The full table, for comparison (small strings only).
    fn reference(a: &str, b: &str, costs: Costs) -> usize {
        let a: Vec<char> = a.chars().collect();
        let b: Vec<char> = b.chars().collect();
        let w = b.len() + 1;
        let mut d = vec![0usize; (a.len() + 1) * w];
        for i in 0..=a.len() {
            d[i * w] = i * costs.edit;
        }
        for (j, cell) in d.iter_mut().take(w).enumerate() {
            *cell = j * costs.edit;
        }
        for i in 1..=a.len() {
            for j in 1..=b.len() {
                let cost = if a[i - 1] == b[j - 1] { 0 } else { costs.substitute };
                let mut v = (d[(i - 1) * w + j] + costs.edit)
                    .min(d[i * w + j - 1] + costs.edit)
                    .min(d[(i - 1) * w + j - 1] + cost);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    v = v.min(d[(i - 2) * w + j - 2] + costs.edit);
                }
                d[i * w + j] = v;
            }
        }
        d[a.len() * w + b.len()]
    }

    #[test]
    fn bounded_distance_agrees_with_the_full_table() {
        let words = [
            "",
            "a",
            "ab",
            "ba",
            "abc",
            "Idle",
            "Idel",
            "Walk",
            "Wlak",
            "kitten",
            "sitting",
            "darkgren",
            "darkgreen",
            "darkgrey",
            "lien",
            "line",
            "aaaa",
            "bbbb",
            "abcdefgh",
            "hgfedcba",
            "grey50",
            "gray100",
            "é",
            "ée",
        ];
        for costs in [Costs::UNIT, Costs { edit: 2, substitute: 3 }] {
            for a in words {
                for b in words {
                    let full = reference(a, b, costs);
                    for limit in 0..=12 {
                        let want = (full <= limit).then_some(full);
                        assert_eq!(distance_within(a, b, costs, limit), want, "{a:?} {b:?} {costs:?} {limit}");
                    }
                    assert_eq!(distance_within(a, b, costs, usize::MAX), Some(full));
                }
            }
        }
    }

    #[test]
    fn weighted_distance_prefers_dropped_letters() {
        let costs = Costs { edit: 2, substitute: 3 };
        assert_eq!(distance_within("darkgren", "darkgreen", costs, 6), Some(2));
        assert_eq!(distance_within("darkgren", "darkgrey", costs, 6), Some(3));
        assert_eq!(distance_within("lien", "line", costs, 6), Some(2));
    }

    #[test]
    fn nearest_names() {
        let names = ["Idle", "Walk", "Run", "Jump", "Fall", "Land"];
        assert_eq!(nearest("walk", names, 3), ["Walk"]);
        assert_eq!(nearest("Jmp", names, 3), ["Jump"]);
        assert_eq!(nearest("Xyzzy", names, 3), Vec::<&str>::new());
        assert_eq!(nearest("Rum", names, 3), ["Run"]);
        assert_eq!(nearest("Wlak", names, 3), ["Walk"]);
        assert_eq!(nearest("Fand", names, 3), ["Land"]);
        // Ties in the order given, at most `max`.
        assert_eq!(nearest("Hat", ["Cat", "Bat", "Hat", "Rat"], 2), ["Hat", "Cat"]);
        assert_eq!(nearest("Hut", ["Cat", "Bat", "Hat"], 3), ["Hat"]);
        assert_eq!(nearest("Hot", ["Cat", "Bat", "Hut"], 3), ["Hut"]);
        assert_eq!(distance("", "abc"), 3);
    }

    #[test]
    fn long_names_are_refused_before_any_table() {
        let long = "W".repeat(4_000_000);
        let start = animkit_test_support::cpu::ThreadTimer::start();
        assert_eq!(nearest(&long, ["Walk", long.as_str()], 3), Vec::<&str>::new());
        // Two long equal strings: the band is one cell wide... but the word
        // is over MAX_SUGGEST_LEN, so none is computed at all.
        assert_eq!(distance_within(&long, "Walk", Costs::UNIT, 100), None);
        assert!(start.elapsed().as_secs() < 5);
        let just = "a".repeat(MAX_SUGGEST_LEN);
        assert_eq!(nearest(&just, [just.as_str()], 3), [just.as_str()]);
        let over = "a".repeat(MAX_SUGGEST_LEN + 1);
        assert_eq!(nearest(&over, [over.as_str()], 3), Vec::<&str>::new());
    }

    #[test]
    fn char_counts_stop_early() {
        assert_eq!(char_count_within("abc", 3), Some(3));
        assert_eq!(char_count_within("abcd", 3), None);
        assert_eq!(char_count_within("éé", 2), Some(2));
        assert_eq!(char_count_within("ééé", 2), None);
    }

    #[test]
    fn quotes_keep_the_start_of_long_names() {
        assert_eq!(Quoted(&"a".repeat(64)).to_string(), format!("`{}`", "a".repeat(64)));
        assert_eq!(Quoted(&"é".repeat(65)).to_string(), format!("`{}…` (130 bytes)", "é".repeat(32)));
    }
}
