//! The compiler's modules import only downward (issue 44, "Data flows one
//! way"): the graph of `compiler/src`'s file modules has no cycle. The
//! graph and its rule (edges from `crate::`, `super::` and `self::` paths,
//! re-exports followed to the definition, a module's descendants and test
//! code not counted) are `animkit_test_support::module_graph`'s, shared
//! with `runtime/tests/module_graph.rs`.
//!
//! ARCHITECTURE.md ("Data flows one way") states the same rule.

use std::collections::BTreeMap;
use std::path::Path;

use animkit_test_support::module_graph::{crate_graph, cycle, describe};

fn compiler_graph() -> BTreeMap<String, BTreeMap<String, String>> {
    crate_graph(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

#[test]
fn compiler_modules_import_only_downward() {
    let g = compiler_graph();
    if let Some(c) = cycle(&g) {
        panic!("{}", describe(&g, &c));
    }
}

#[test]
fn the_graph_sees_the_layers() {
    let g = compiler_graph();
    let has = |a: &str, b: &str| g.get(a).is_some_and(|e| e.contains_key(b));
    // Direct imports.
    assert!(has("driver", "languages"));
    assert!(has("languages", "sprite"));
    assert!(has("diagnostic", "excerpt"));
    assert!(has("front", "lsp::site"));
    // Through a re-export: sprite names `crate::driver::Source`, defined in
    // `source`.
    assert!(has("sprite", "source"));
    assert!(!has("sprite", "driver"));
    // `super::` paths.
    assert!(has("lsp::complete", "lsp::document"));
    assert!(has("animator::lower", "animator::check"));
    // The checker and lowering share the sizes; the checker imports
    // nothing of lowering.
    assert!(has("animator::check", "animator::sizes"));
    assert!(has("animator::sizes", "animator::row_ops"));
    assert!(!has("animator::check", "animator::lower"));
    // So do the sprite checkers and lowering; neither checker imports
    // lowering.
    assert!(has("sprite::check", "sprite::sizes"));
    assert!(has("sprite::flat", "sprite::sizes"));
    assert!(has("sprite::lower", "sprite::sizes"));
    assert!(has("sprite::lower", "sprite::flat"));
    assert!(!has("sprite::flat", "sprite::lower"));
    assert!(!has("sprite::check", "sprite::lower"));
    // The checked form is lowered by lowering's own functions.
    assert!(has("animator::checked", "animator::lower"));
    assert!(!has("animator::lower", "animator::checked"));
    // The module tree and test code are not edges.
    assert!(!has("lsp", "lsp::server"));
    assert!(!has("", "driver"));
    assert!(!has("front", "languages"));
    assert!(!g.contains_key("animator::check::tests"));
    // Below everything: the leaves.
    let edges = |m: &str| g[m].keys().map(String::as_str).collect::<Vec<_>>();
    assert_eq!(edges("source"), [] as [&str; 0]);
    assert_eq!(edges("excerpt"), [] as [&str; 0]);
    assert_eq!(edges("lsp::occurrence"), [] as [&str; 0]);
    assert_eq!(edges("lsp::site"), ["lsp::occurrence"]);
}
