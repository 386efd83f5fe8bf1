//! The crate's public surface (issue 44: vm exports at most 4 public
//! modules): `vm/src/lib.rs` declares exactly two public modules, `game`
//! (what games use) and `engine` (shared with the compiler, the runtime,
//! the player, the C ABI, the web player, the bench, the fuzz targets and
//! the tests; not a stable API), and its root re-exports are the game
//! API's types plus three engine items. Every other module of the crate
//! is private at the root and reached from outside only through
//! `engine` (the compile-fail doctest in `vm/src/lib.rs`), which
//! re-exports each of them but `work`. Read from the sources, so that
//! adding a `pub mod` or a `pub use` at the root fails here with the rule
//! named, and ARCHITECTURE.md's vm section is updated with it.

use std::collections::BTreeSet;

const RULE: &str = "issue 44: animkit-vm exports at most 4 public modules: `game` (the game API) and `engine` \
                    (shared with the compiler, runtime, player, capi, web, bench, fuzz and tests); put an engine \
                    module under `engine` (vm/src/engine.rs) and list the public surface in ARCHITECTURE.md's vm \
                    section";

fn source(file: &str) -> String {
    let path = format!("{}/src/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {path}: {e}"))
}

/// The items at brace depth 0 of a Rust source, each with its attributes,
/// up to its `;` or its block's closing brace, whitespace collapsed, with
/// `//` comments left out (the crate docs' examples hold braces). Enough
/// for the declarations of a crate root.
fn top_level_statements(text: &str) -> Vec<String> {
    let mut statements = Vec::new();
    let mut depth = 0usize;
    let mut current = String::new();
    for line in text.lines() {
        let code = match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        };
        for c in code.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth = depth.checked_sub(1).expect("unbalanced braces in the crate root"),
                ';' if depth == 0 => {
                    statements.push(current.split_whitespace().collect::<Vec<_>>().join(" "));
                    current.clear();
                    continue;
                }
                _ => {}
            }
            current.push(c);
        }
        current.push(' ');
        // A block item (`pub mod x { ... }`, `fn f() { ... }`) ends at its
        // closing brace.
        if depth == 0 && current.trim_end().ends_with('}') {
            statements.push(current.split_whitespace().collect::<Vec<_>>().join(" "));
            current.clear();
        }
    }
    statements
}

/// The statement with its attributes (`#[doc(hidden)]`, ...) removed.
fn strip_attributes(statement: &str) -> &str {
    let mut s = statement.trim_start();
    while let Some(rest) = s.strip_prefix("#[").or_else(|| s.strip_prefix("#![")) {
        let end = rest.find(']').expect("an attribute ends");
        s = rest[end + 1..].trim_start();
    }
    s
}

/// The `pub mod` names of a source's top level.
fn public_modules(text: &str) -> BTreeSet<String> {
    top_level_statements(text)
        .iter()
        .filter_map(|s| strip_attributes(s).strip_prefix("pub mod "))
        .map(|rest| rest.split(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap_or("").to_string())
        .collect()
}

/// The `mod` names (any visibility) of a source's top level.
fn all_modules(text: &str) -> BTreeSet<String> {
    top_level_statements(text)
        .iter()
        .filter_map(|s| {
            let s = strip_attributes(s);
            let s = s.strip_prefix("pub(crate) ").or_else(|| s.strip_prefix("pub ")).unwrap_or(s);
            s.strip_prefix("mod ")
        })
        .map(|rest| rest.split(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap_or("").to_string())
        .collect()
}

/// The names a source's top-level `pub use` statements export (the last
/// path segment, or the name after `as`; `*` for a glob).
fn public_reexports(text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for statement in top_level_statements(text) {
        let Some(path) = strip_attributes(&statement).strip_prefix("pub use ") else { continue };
        for piece in path.split([',', '{', '}']) {
            let piece = piece.trim();
            if piece.is_empty() || piece.ends_with("::") {
                continue;
            }
            let name = match piece.split_once(" as ") {
                Some((_, alias)) => alias.trim(),
                None => piece.rsplit("::").next().unwrap_or(piece),
            };
            names.insert(name.to_string());
        }
    }
    names
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|n| n.to_string()).collect()
}

#[test]
fn the_crate_exports_game_and_engine_only() {
    let lib = source("lib.rs");
    let modules = public_modules(&lib);
    assert_eq!(modules, set(&["engine", "game"]), "vm/src/lib.rs's public modules: {RULE}");
    assert!(modules.len() <= 4, "{RULE}");
}

#[test]
fn the_root_reexports_the_game_api_and_three_engine_items() {
    let lib = source("lib.rs");
    let game = [
        "Animation",
        "AnimationBatch",
        "Bundle",
        "Event",
        "FindError",
        "InstanceEvent",
        "OpenError",
        "RestoreError",
        "Scene",
        "SpriteModule",
        "State",
        "UnknownState",
    ];
    let engine = ["LoadError", "Program", "load"];
    let expected: BTreeSet<String> = game.iter().chain(&engine).map(|n| n.to_string()).collect();
    assert_eq!(public_reexports(&lib), expected, "vm/src/lib.rs's `pub use`s: {RULE}");
    // Each named in the crate docs' list of the public surface.
    for name in game.iter().chain(&engine) {
        assert!(lib.contains(&format!("`{name}`")), "the crate docs name `{name}`: {RULE}");
    }
}

#[test]
fn engine_reexports_every_private_module_but_work() {
    let lib = source("lib.rs");
    let private: BTreeSet<String> = all_modules(&lib).difference(&public_modules(&lib)).cloned().collect();
    assert_eq!(
        private,
        set(&[
            "animator", "codec", "disasm", "files", "interp", "isa", "limits", "program", "slap", "sprite", "suggest",
            "verify", "work"
        ]),
        "vm/src/lib.rs's private modules: {RULE}"
    );
    let engine = source("engine.rs");
    let mut shared = private.clone();
    shared.remove("work");
    assert_eq!(public_modules(&engine), shared, "vm/src/engine.rs's modules: {RULE}");
    for name in &shared {
        assert!(
            engine.contains(&format!("pub mod {name} {{\n    pub use crate::{name}::*;\n}}")),
            "engine::{name} re-exports crate::{name}'s public items, and only those: {RULE}"
        );
    }
    // `work` is the crate's own.
    assert!(!engine.contains("crate::work"), "{RULE}");
}

#[test]
fn the_parser_sees_what_it_must() {
    let text = "//! docs { with braces\n#![warn(missing_docs)]\n#[doc(hidden)]\npub mod a;\npub mod b {\n    pub mod inner;\n}\nmod c;\npub(crate) mod d;\n\
                pub use x::{Y, z::W as V};\n#[doc(hidden)]\npub use q::R;\nuse s::T;\npub use glob::*;\n";
    assert_eq!(public_modules(text), set(&["a", "b"]));
    assert_eq!(all_modules(text), set(&["a", "b", "c", "d"]));
    assert_eq!(public_reexports(text), set(&["*", "R", "V", "Y"]));
}
