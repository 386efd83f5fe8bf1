//! Keeping the first errors of a file, however many it has: a front end
//! that reports every error of a file of millions of bad lines holds only
//! the first [`MAX_KEPT_ERRORS`] in source order, and counts the others
//! (`docs/limits.md`).

/// The most diagnostics a front end keeps of one file (its syntax errors,
/// or its check's errors): one more than a compile prints
/// (`animkit_compiler::diagnostic::MAX_ERRORS`) and a language server
/// publishes, so that where the first one left out stands is known (the
/// language server's closing diagnostic points there). The others are
/// counted, not held.
pub const MAX_KEPT_ERRORS: usize = 101;

/// What [`FirstInOrder`] keeps: a diagnostic with a position, which can
/// carry the count of errors found after it and not kept.
pub trait Keepable {
    /// Its position (byte offset) in the file.
    fn start(&self) -> usize;
    /// Does it count as an error (warnings are kept, not counted)?
    fn is_error(&self) -> bool;
    /// Errors found after it and not kept, that it stands for.
    fn left_out(&self) -> usize;
    /// Makes it stand for `n` more errors not kept.
    fn add_left_out(&mut self, n: usize);
}

impl Keepable for crate::SyntaxError {
    fn start(&self) -> usize {
        self.span.start
    }
    fn is_error(&self) -> bool {
        true
    }
    fn left_out(&self) -> usize {
        self.left_out
    }
    fn add_left_out(&mut self, n: usize) {
        self.left_out += n;
    }
}

/// The first `cap` of a stream of diagnostics by position (ties in the
/// order they came: what a stable sort of them all would put first), and
/// the count of the errors among the others, in memory bounded by `cap`
/// whatever the stream's length. Pushing costs O(log cap) amortised, in or
/// out of order.
///
/// ```
/// use animkit_grammar::kept::FirstInOrder;
/// use animkit_grammar::{Span, SyntaxError};
/// let mut kept = FirstInOrder::with_cap(2);
/// for at in [9, 3, 7, 1, 5] {
///     kept.push(SyntaxError::new(Span::new(at, at + 1), "bad", "here"));
/// }
/// assert_eq!(kept.errors(), 5);
/// let errors = kept.finish();
/// assert_eq!(errors.iter().map(|e| e.span.start).collect::<Vec<_>>(), [1, 3]);
/// assert_eq!(errors[1].left_out, 3, "the last one kept stands for the three after it");
/// ```
#[derive(Clone, Debug)]
pub struct FirstInOrder<T> {
    items: Vec<T>,
    cap: usize,
    /// Errors pushed, kept or not (with those the items stand for).
    errors: usize,
    /// Errors dropped so far (with those the dropped items stood for).
    left_out: usize,
}

impl<T: Keepable> Default for FirstInOrder<T> {
    fn default() -> Self {
        FirstInOrder::with_cap(MAX_KEPT_ERRORS)
    }
}

impl<T: Keepable> FirstInOrder<T> {
    /// Keeping the first [`MAX_KEPT_ERRORS`].
    pub fn new() -> Self {
        Self::default()
    }

    /// Keeping the first `cap` (at least one).
    pub fn with_cap(cap: usize) -> Self {
        FirstInOrder { items: Vec::new(), cap: cap.max(1), errors: 0, left_out: 0 }
    }

    /// Takes one more diagnostic.
    pub fn push(&mut self, item: T) {
        self.errors += usize::from(item.is_error()) + item.left_out();
        if self.items.len() >= 2 * self.cap {
            self.trim();
        }
        self.items.push(item);
    }

    /// Every diagnostic of `items`, in turn.
    pub fn extend(&mut self, items: impl IntoIterator<Item = T>) {
        for item in items {
            self.push(item);
        }
    }

    /// Errors taken so far, kept or not.
    pub fn errors(&self) -> usize {
        self.errors
    }

    /// True when nothing was taken.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Keeps the first `cap` (a stable sort: ties stay in push order).
    fn trim(&mut self) {
        self.items.sort_by_key(|d| d.start());
        for d in self.items.drain(self.cap.min(self.items.len())..) {
            self.left_out += usize::from(d.is_error()) + d.left_out();
        }
    }

    /// The first `cap` diagnostics in source order; the last of them
    /// stands for the errors not kept ([`Keepable::left_out`]).
    pub fn finish(mut self) -> Vec<T> {
        self.trim();
        if self.left_out > 0
            && let Some(last) = self.items.last_mut()
        {
            last.add_left_out(self.left_out);
        }
        self.items
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Span, SyntaxError};
    use proptest::prelude::*;

    proptest! {
        /// The first `cap` of a stable sort of everything, and the count
        /// of the rest, in any push order.
        #[test]
        fn keeps_what_a_stable_sort_puts_first(starts in proptest::collection::vec(0usize..50, 0..400), cap in 1usize..20) {
            let all: Vec<SyntaxError> =
                starts.iter().enumerate().map(|(i, &s)| SyntaxError::new(Span::new(s, s), i.to_string(), "")).collect();
            let mut kept = FirstInOrder::with_cap(cap);
            kept.extend(all.iter().cloned());
            prop_assert_eq!(kept.errors(), all.len());
            let got = kept.finish();
            let mut sorted = all.clone();
            sorted.sort_by_key(|e| e.span.start);
            sorted.truncate(cap);
            if all.len() > cap {
                if let Some(last) = sorted.last_mut() {
                    last.left_out = all.len() - cap;
                }
            }
            prop_assert_eq!(got, sorted);
        }
    }
}
