//! The runtime's and the player's modules import only downward (issue 44,
//! "Data flows one way"): the graphs of `runtime/src`'s and
//! `player/src`'s file modules have no cycle. The graph and its rule
//! (edges from `crate::`, `super::` and `self::` paths, re-exports followed
//! to the definition, so `crate::render::Renderer` in the runtime, the
//! player's renderer re-exported, is no edge; a module's descendants and
//! test code not counted) are `animkit_test_support::module_graph`'s,
//! shared with `compiler/tests/module_graph.rs`. The player's graph is
//! checked here, in the runtime's test binary, so the player keeps its
//! one test binary (`dependencies`) and its dev-dependencies.
//!
//! ARCHITECTURE.md ("Data flows one way") lists the layers.

use std::path::Path;

use animkit_test_support::module_graph::{Graph, crate_graph, cycle, describe, tangles};

fn graph_of(krate: &str) -> Graph {
    crate_graph(&Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(krate).join("src"))
}

fn no_cycle(g: &Graph) {
    if let Some(c) = cycle(g) {
        panic!("{}every set of modules importing each other: {:?}", describe(g, &c), tangles(g));
    }
}

#[test]
fn runtime_modules_import_only_downward() {
    no_cycle(&graph_of("runtime"));
}

#[test]
fn player_modules_import_only_downward() {
    no_cycle(&graph_of("player"));
}

#[test]
fn the_runtime_graph_sees_the_layers() {
    let g = graph_of("runtime");
    let has = |a: &str, b: &str| g.get(a).is_some_and(|e| e.contains_key(b));
    // Each host imports the command line, the error and what hosts share.
    for host in ["sprite", "slap", "animator"] {
        assert!(has(host, "cli"), "{host}");
        assert!(has(host, "error"), "{host}");
        assert!(has(host, "host"), "{host}");
    }
    // The shared host code names no host; `run` names every one.
    for host in ["sprite", "slap", "animator"] {
        assert!(!has("host", host), "{host}");
        assert!(!has("cli", host), "{host}");
        assert!(has("run", host), "{host}");
    }
    assert!(has("host", "cli"));
    assert!(has("cli", "error"));
    assert!(!has("cli", "host"), "DEFAULT_FPS is the player's, re-exported by `host`");
    // The sink's error is a leaf below both the sink and `Error`.
    assert!(has("error", "host::sink_error"));
    assert!(has("host::sink", "error"));
    assert!(!has("error", "host::sink"));
    assert!(has("host::sink_error", "host::files"));
    assert!(has("host::sink_error", "host::gif"));
    // The player's modules, re-exported, are another crate's.
    assert!(!g.values().any(|e| e.contains_key("render") || e.contains_key("player")), "{g:?}");
    // Test code is not in the graph (`#[cfg(all(test, ...))]` included).
    assert!(!g.contains_key("host::tests"));
}

#[test]
fn the_player_graph_sees_the_layers() {
    let g = graph_of("player");
    let has = |a: &str, b: &str| g.get(a).is_some_and(|e| e.contains_key(b));
    // The player error is a leaf below the player and the Animator runner.
    assert!(has("player", "animator::script"));
    assert!(has("animator::script", "player_error"));
    assert!(!has("animator::script", "player"));
    assert_eq!(g["player_error"].keys().collect::<Vec<_>>(), [] as [&String; 0]);
    // The renderer holds the 3D scene's GL state; its 3D pass is its own
    // child module; the scene names nothing of the renderer.
    assert!(has("render::renderer", "render::scene3d::gl"));
    assert!(has("render::renderer::pass3d", "render::scene3d"));
    assert!(has("render::renderer::pass3d", "render::renderer"));
    assert!(has("render::scene3d::gl", "render::scene3d"));
    assert!(!has("render::scene3d", "render::renderer"));
    assert!(!g.iter().any(|(m, e)| m.starts_with("render::scene3d") && e.contains_key("render::renderer")));
}
