//! The equivalence harness shared by the languages' property tests
//! (`tests/sprite_equivalence.rs`, `tests/animator_equivalence.rs`): the
//! proptest configuration and the compact report of where two traces first
//! differ.
//!
//! # Adding a language (SLAP next)
//!
//! 1. Write `tests/reference/slap.rs`: an interpreter written directly from
//!    the spec over the AST, sharing nothing with the lowering or the VM
//!    beyond the AST and the host trait, that returns a trace (a `Vec` of
//!    host calls or ticks).
//! 2. Write `tests/slap_equivalence.rs` with `mod common;` and
//!    `#[path = "reference/slap.rs"] mod reference;`, a strategy that
//!    generates a structured description of a valid program (one that the
//!    compiler accepts; filter on `compile` as a last resort) and prints it
//!    with the language's formatter, so that shrinking yields small readable
//!    programs.
//! 3. Under `proptest! { #![proptest_config(common::equivalence::config())] ... }`
//!    state the properties: format then parse gives the same AST; the
//!    reference's trace equals the VM's on the compiled bundle, and after the
//!    bundle's bytes round-trip. Report failures with the program text and
//!    [`first_difference`].
//! 4. Keep every counterexample proptest finds as a plain `#[test]` with the
//!    minimal program, and commit `tests/slap_equivalence.proptest-regressions`.

use proptest::test_runner::Config as ProptestConfig;

/// Cases per property: 256, or `PROPTEST_CASES` when set; shrinking goes
/// on long enough to reach a few readable lines.
pub fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(256);
    ProptestConfig { cases, max_shrink_iters: 20_000, ..ProptestConfig::default() }
}

/// Shortens `line` to `max` characters, marking the cut.
pub fn clip(line: &str, max: usize) -> String {
    match line.char_indices().nth(max) {
        Some((cut, _)) => format!("{}...", &line[..cut]),
        None => line.to_string(),
    }
}

/// Where two traces first differ, with up to three items of context before
/// it, one line per item (each shortened to 300 characters). `unit` names an
/// item ("tick", "call"); `show` prints one; `same` compares two.
///
/// ```ignore
/// let d = first_difference(&got, &want, "call", "vm", "ref", |c| format!("{c:?}"), |a, b| a == b);
/// ```
pub fn first_difference<T>(
    got: &[T],
    want: &[T],
    unit: &str,
    names: (&str, &str),
    show: impl Fn(&T) -> String,
    same: impl Fn(&T, &T) -> bool,
) -> Option<String> {
    let at = match got.iter().zip(want).position(|(a, b)| !same(a, b)) {
        Some(at) => at,
        None if got.len() == want.len() => return None,
        None => got.len().min(want.len()),
    };
    let (g, w) = names;
    let width = g.len().max(w.len());
    let item = |t: Option<&T>| t.map_or_else(|| "(nothing)".to_string(), |t| clip(&show(t), 300));
    let mut out = format!("first difference at {unit} {at} ({g}: {} {unit}s, {w}: {})\n", got.len(), want.len());
    for i in at.saturating_sub(3)..=at {
        let label = format!("{unit} {i}");
        out += &format!("  {label:>9}  {g:>width$}: {}\n", item(got.get(i)));
        out += &format!("  {:>9}  {w:>width$}: {}\n", "", item(want.get(i)));
    }
    Some(out)
}
