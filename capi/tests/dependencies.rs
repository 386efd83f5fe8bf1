//! What a game links with libanimkit: `cargo tree` of `animkit-capi`'s
//! normal dependencies has the Player (`animkit-player`, for the
//! `animkit_player_*` functions) and no compiler, grammar, window system,
//! file watcher or parser generator. (`cargo tree` reads manifests and the
//! lockfile; it builds nothing.)

use std::collections::BTreeSet;
use std::process::Command;

/// Crates libanimkit must not link.
const FORBIDDEN: &[&str] =
    &["animkit-compiler", "animkit-grammar", "animkit-runtime", "winit", "glutin", "notify", "logos", "lalrpop"];

/// Distinct crates (name and version) in the tree, itself included: 41
/// when measured (2026-12-07), against 14 before the Player came in (the
/// vm and bincode): the player brings glow, lyon, fontdue, png and
/// thiserror with theirs. The bound leaves room for small changes, not for
/// a compiler (`animkit-runtime`'s tree is 79).
const MAX_CRATES: usize = 46;

fn tree() -> BTreeSet<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["tree", "--offline", "-p", "animkit-capi", "-e", "normal", "--prefix", "none"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo tree runs");
    assert!(out.status.success(), "cargo tree: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).expect("cargo tree prints UTF-8");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().take(2).collect::<Vec<_>>().join(" "))
        .collect()
}

#[test]
fn libanimkit_links_the_player_and_no_compiler() {
    let crates = tree();
    for needed in ["animkit-vm ", "animkit-player ", "glow "] {
        assert!(crates.iter().any(|c| c.starts_with(needed)), "{needed}in {crates:?}");
    }
    let found: Vec<_> = crates
        .iter()
        .filter(|line| {
            let name = line.split(' ').next().unwrap_or_default();
            FORBIDDEN
                .iter()
                .any(|f| name == *f || name.starts_with(&format!("{f}-")) || name.starts_with(&format!("{f}_")))
        })
        .collect();
    assert_eq!(found, Vec::<&String>::new());
    assert!(crates.len() <= MAX_CRATES, "{} crates (bound {MAX_CRATES}): {crates:?}", crates.len());
}
