//! "Did you mean ...?" suggestions by edit distance.

/// Edit distance between two strings (by characters), counting an
/// insertion, deletion, substitution or swap of two neighbours as one
/// (optimal string alignment), so `Idel` is one edit from `Idle`.
///
/// ```
/// assert_eq!(animkit_compiler::suggest::distance("Idel", "Idle"), 1);
/// assert_eq!(animkit_compiler::suggest::distance("", "abc"), 3);
/// assert_eq!(animkit_compiler::suggest::distance("kitten", "sitting"), 3);
/// ```
pub fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        d[i * w] = i;
    }
    for (j, cell) in d.iter_mut().enumerate().take(w) {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * w + j] + 1).min(d[i * w + j - 1] + 1).min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = v;
        }
    }
    d[a.len() * w + b.len()]
}

/// The candidate closest to `word`: an exact case-insensitive match first,
/// then the nearest within a third of the word's length (at least 1).
///
/// ```
/// use animkit_compiler::suggest::closest;
/// assert_eq!(closest("idle", ["Idle", "Walk"]), Some("Idle"));
/// assert_eq!(closest("Wlak", ["Idle", "Walk"]), Some("Walk"));
/// assert_eq!(closest("Jump", ["Idle", "Walk"]), None);
/// ```
pub fn closest<'c>(word: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
    let limit = (word.chars().count() / 3).max(1);
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let d = if c.eq_ignore_ascii_case(word) { 0 } else { distance(word, c) };
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}
