//! What a game links when it embeds the player: `cargo tree` of this
//! package's normal dependencies names no compiler, grammar, window
//! system, file watcher or parser generator, and stays small.
//! (`cargo tree` resolves the lockfile and reads manifests; it builds
//! nothing.)

use std::collections::BTreeSet;
use std::process::Command;

/// Crates a game that plays bundles must not link.
const FORBIDDEN: &[&str] = &["animkit-compiler", "animkit-grammar", "winit", "glutin", "notify", "logos", "lalrpop"];

/// Distinct crates (name and version) in the player's normal dependency
/// tree, itself included: 40 when measured (2026-12-07: the vm's 13 and
/// glow, lyon, fontdue, png, thiserror with theirs).
const MAX_CRATES: usize = 45;

/// The distinct `name vVERSION` of `cargo tree -p PACKAGE -e normal`.
fn tree(package: &str, extra: &[&str]) -> BTreeSet<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["tree", "--offline", "-p", package, "-e", "normal", "--prefix", "none"])
        .args(extra)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo tree runs");
    assert!(out.status.success(), "cargo tree -p {package}: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).expect("cargo tree prints UTF-8");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().take(2).collect::<Vec<_>>().join(" "))
        .collect()
}

/// The lines of `crates` whose crate is one of [`FORBIDDEN`] (or one of
/// its companions: `glutin-winit`, `lalrpop-util`, `logos-derive`).
fn forbidden(crates: &BTreeSet<String>) -> Vec<&str> {
    crates
        .iter()
        .map(String::as_str)
        .filter(|line| {
            let name = line.split(' ').next().unwrap_or_default();
            FORBIDDEN
                .iter()
                .any(|f| name == *f || name.starts_with(&format!("{f}-")) || name.starts_with(&format!("{f}_")))
        })
        .collect()
}

#[test]
fn the_player_links_no_compiler_grammar_window_system_or_watcher() {
    let crates = tree("animkit-player", &[]);
    assert!(crates.iter().any(|c| c.starts_with("animkit-vm ")), "{crates:?}");
    assert!(crates.iter().any(|c| c.starts_with("glow ")), "{crates:?}");
    assert_eq!(forbidden(&crates), Vec::<&str>::new());
    assert!(crates.len() <= MAX_CRATES, "{} crates (bound {MAX_CRATES}): {crates:?}", crates.len());
}

/// The check above finds what it looks for: the runtime (animvm's hosts)
/// links the compiler, the grammar and, with `desktop`, winit and notify.
#[test]
fn the_runtime_links_what_the_player_leaves_out() {
    let crates = tree("animkit-runtime", &[]);
    let found = forbidden(&crates);
    for name in ["animkit-compiler ", "animkit-grammar ", "winit ", "glutin ", "notify ", "logos ", "lalrpop-util "] {
        assert!(found.iter().any(|c| c.starts_with(name)), "{name}in {found:?}");
    }
    assert!(crates.len() > MAX_CRATES);
}

/// The Player's examples (its doctests, run by `cargo test -p
/// animkit-player --doc`) build against this crate, the vm and glow
/// alone: no compiler turns sources into the program they play.
#[test]
fn the_player_examples_use_only_the_player_the_vm_and_glow() {
    let source = include_str!("../src/player.rs");
    for name in ["animkit_compiler", "animkit_grammar", "animkit_runtime"] {
        assert!(!source.contains(name), "src/player.rs names {name}");
    }
    assert!(source.contains("Player::from_bundle(game_gl(), &bundle, Some(\"story\"), 400, 240)?"));
}
