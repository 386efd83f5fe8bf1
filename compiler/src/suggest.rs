//! "Did you mean ...?" suggestions by edit distance: the one edit distance
//! of the toolchain (sprite state names, Animator keywords and colour
//! names all go through [`distance_with`]).

/// What each edit costs in [`distance_with`].
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

/// Edit distance between two strings (by characters), counting an
/// insertion, deletion, substitution or swap of two neighbours as one
/// (optimal string alignment), so `Idel` is one edit from `Idle`.
pub fn distance(a: &str, b: &str) -> usize {
    distance_with(a, b, Costs::UNIT)
}

/// [`distance`] with the given cost per edit: Animator colour names weigh a
/// substitution more than a dropped letter, so that `darkgren` is nearer
/// `darkgreen` than `darkgrey`.
pub fn distance_with(a: &str, b: &str, costs: Costs) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Three rows of the table (a swap looks two rows back): memory is
    // linear in `b`'s length, never quadratic.
    let w = b.len() + 1;
    let mut two_up: Vec<usize> = vec![0; w];
    let mut up: Vec<usize> = (0..w).map(|j| j * costs.edit).collect();
    let mut row: Vec<usize> = vec![0; w];
    for i in 1..=a.len() {
        row[0] = i * costs.edit;
        for j in 1..=b.len() {
            let cost = if a[i - 1] == b[j - 1] { 0 } else { costs.substitute };
            let mut v = (up[j] + costs.edit).min(row[j - 1] + costs.edit).min(up[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(two_up[j - 2] + costs.edit);
            }
            row[j] = v;
        }
        std::mem::swap(&mut two_up, &mut up);
        std::mem::swap(&mut up, &mut row);
    }
    up[b.len()]
}

/// Longest word (in characters) for which suggestions are searched.
pub const MAX_SUGGEST_LEN: usize = 64;

/// Work (table cells) one checker may spend on suggestions for a whole
/// file; once spent, errors come without "did you mean".
pub const SUGGEST_BUDGET: u64 = 20_000_000;

/// The candidate closest to `word`: an exact case-insensitive match first,
/// then the nearest within a third of the word's length (at least 1).
pub fn closest<'c>(word: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
    let mut budget = SUGGEST_BUDGET;
    closest_within(word, candidates, &mut budget)
}

/// [`closest`], spending at most `budget` units of work (one per candidate
/// looked at, one per table cell), so that a file with many unknown names
/// and many candidates checks in bounded time. Words longer than
/// [`MAX_SUGGEST_LEN`] characters get no suggestion, and candidates whose
/// length alone puts them out of reach are skipped without a table.
pub fn closest_within<'c>(
    word: &str,
    candidates: impl IntoIterator<Item = &'c str>,
    budget: &mut u64,
) -> Option<&'c str> {
    let len = word.chars().count();
    if len > MAX_SUGGEST_LEN {
        return None;
    }
    let limit = (len / 3).max(1);
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        let d = if c.eq_ignore_ascii_case(word) {
            0
        } else {
            // The distance is at least the difference in length.
            let clen = c.chars().take(len + limit + 1).count();
            if clen.abs_diff(len) > limit {
                continue;
            }
            let cells = ((len + 1) * (clen + 1)) as u64;
            if cells > *budget {
                *budget = 0;
                return None;
            }
            *budget -= cells;
            distance(word, c)
        };
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod examples {
    #[test]
    fn distance_counts_edits() {
        assert_eq!(crate::suggest::distance("Idel", "Idle"), 1);
        assert_eq!(crate::suggest::distance("", "abc"), 3);
        assert_eq!(crate::suggest::distance("kitten", "sitting"), 3);
    }

    #[test]
    fn weighted_distance_prefers_dropped_letters() {
        use crate::suggest::{Costs, distance_with};
        let costs = Costs { edit: 2, substitute: 3 };
        assert_eq!(distance_with("darkgren", "darkgreen", costs), 2);
        assert_eq!(distance_with("darkgren", "darkgrey", costs), 3);
        assert_eq!(distance_with("lien", "line", costs), 2);
    }

    #[test]
    fn closest_matches_case_then_distance() {
        use crate::suggest::closest;
        assert_eq!(closest("idle", ["Idle", "Walk"]), Some("Idle"));
        assert_eq!(closest("Wlak", ["Idle", "Walk"]), Some("Walk"));
        assert_eq!(closest("Jump", ["Idle", "Walk"]), None);
    }

    #[test]
    fn closest_within_spends_the_budget() {
        use crate::suggest::closest_within;
        let mut budget = 1_000;
        assert_eq!(closest_within("Wlak", ["Idle", "Walk"], &mut budget), Some("Walk"));
        assert!(budget < 1_000);
        let mut empty = 0;
        assert_eq!(closest_within("Wlak", ["Idle", "Walk"], &mut empty), None);
    }
}
