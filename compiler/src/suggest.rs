//! "Did you mean ...?" suggestions by edit distance. The edit distance is
//! the project's one, `animkit_vm::engine::suggest` (the game API's suggestions use
//! it too): every search is bounded there (words over [`MAX_SUGGEST_LEN`]
//! characters get none, candidates out of reach by length alone are
//! skipped, the table keeps to a band and stops once over the limit).
//! Sprite state names, SLAP names, Animator keywords and colour names all
//! go through it.

pub use animkit_vm::engine::suggest::{Costs, MAX_SUGGEST_LEN, distance_within};

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
    let len = animkit_vm::engine::suggest::char_count_within(word, MAX_SUGGEST_LEN)?;
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
            match distance_within(word, c, Costs::UNIT, limit) {
                Some(d) => d,
                None => continue,
            }
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
        assert_eq!(animkit_vm::engine::suggest::distance("Idel", "Idle"), 1);
        assert_eq!(animkit_vm::engine::suggest::distance("", "abc"), 3);
        assert_eq!(animkit_vm::engine::suggest::distance("kitten", "sitting"), 3);
    }

    #[test]
    fn long_words_get_no_suggestion() {
        use crate::suggest::closest;
        let long = "W".repeat(4_000_000);
        assert_eq!(closest(&long, ["Walk", long.as_str()]), None);
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
