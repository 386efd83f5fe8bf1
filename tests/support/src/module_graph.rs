//! A crate's module graph, for the tests that keep its modules importing
//! only downward (issue 44, ARCHITECTURE.md "Data flows one way"):
//! `compiler/tests/module_graph.rs` and `runtime/tests/module_graph.rs`.
//!
//! Nodes are file modules (`driver`, `lsp::symbols`, `animator` for
//! `animator/mod.rs`; `src/bin` is another crate). A file has an edge to
//! module B when its code names an item through `crate::`, `super::` or
//! `self::` (in a `use` or in a path) that B defines. The rule:
//! - A `pub use` re-export is followed to the module that defines the
//!   item: `crate::driver::Source` is an edge to `source`, where `Source`
//!   is defined, not to `driver`, which only forwards the name (public
//!   paths stay where they were while the definitions move down).
//! - A module's edges to its own descendants are not counted: declaring,
//!   re-exporting and using one's children is the module tree, not an
//!   import (`lsp` re-exporting `lsp::server`, the crate root re-exporting
//!   `driver`). A child naming its parent is counted.
//! - Test code is not in the graph: `#[cfg(test)]` inline modules and the
//!   files of `#[cfg(test)] mod x;` may import anything.
//! - Paths into other crates (`animkit_player::render`) are not edges,
//!   nor are names a re-export forwards to another crate (`crate::render`
//!   where the root has `pub use animkit_player::render`).
//! - `#[cfg(test)]` and `#[cfg(all(test, ...))]` both mark test code.
//!
//! [`crate_graph`] reads a crate's `src/`; [`cycle`] finds one cycle and
//! [`describe`] prints it edge by edge with the file and line of each;
//! [`tangles`] lists every set of modules that import each other.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each module's edges: the module it imports and where the edge is
/// first taken (`src/file.rs:line `path``).
pub type Graph = BTreeMap<String, BTreeMap<String, String>>;

/// One token of code (comments, strings and char literals removed).
#[derive(Clone, Debug, PartialEq)]
struct Tok {
    text: String,
    line: usize,
}

/// `text`'s tokens: identifiers (and numbers), `::`, and single
/// punctuation; comments, strings and character literals dropped.
fn tokens(text: &str) -> Vec<Tok> {
    let b: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    line += usize::from(b[i] == '\n');
                    i += 1;
                }
            }
        } else if c == 'r' && matches!(next, Some('"' | '#')) && (i == 0 || !ident(b[i - 1])) {
            // A raw string: r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&'"') {
                // `r#ident`.
                out.push(Tok { text: "r".into(), line });
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == '"' && (0..hashes).all(|k| b.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                line += usize::from(b[j] == '\n');
                j += 1;
            }
            i = j;
        } else if c == '"' {
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    i += 1;
                }
                if b.get(i) == Some(&'\n') {
                    line += 1;
                }
                i += 1;
            }
            i += 1;
        } else if c == '\'' {
            // A char literal ('x', '\n', '\u{..}') or a lifetime ('a).
            if next == Some('\\') {
                i += 2;
                while i < b.len() && b[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if b.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
            }
        } else if ident(c) {
            let start = i;
            while i < b.len() && ident(b[i]) {
                i += 1;
            }
            out.push(Tok { text: b[start..i].iter().collect(), line });
        } else if c == ':' && next == Some(':') {
            out.push(Tok { text: "::".into(), line });
            i += 2;
        } else {
            out.push(Tok { text: c.to_string(), line });
            i += 1;
        }
    }
    out
}

/// One `use` tree flattened: each leaf's path (`*` for a glob) and the
/// name it binds.
fn use_leaves(toks: &[Tok], prefix: &[String], out: &mut Vec<(Vec<String>, String)>) {
    // Split `toks` at top-level commas.
    let mut depth = 0;
    let mut start = 0;
    let mut parts = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        match t.text.as_str() {
            "{" => depth += 1,
            "}" => depth -= 1,
            "," if depth == 0 => {
                parts.push(&toks[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&toks[start..]);
    for part in parts {
        let mut path = prefix.to_vec();
        let mut i = 0;
        while i < part.len() {
            match part[i].text.as_str() {
                "::" => i += 1,
                "{" => {
                    let end = part.len() - usize::from(part.last().is_some_and(|t| t.text == "}"));
                    use_leaves(&part[i + 1..end], &path, out);
                    path.clear();
                    break;
                }
                "as" => {
                    let alias = part.get(i + 1).map_or(String::new(), |t| t.text.clone());
                    out.push((std::mem::take(&mut path), alias));
                    break;
                }
                word => {
                    path.push(word.to_string());
                    i += 1;
                }
            }
        }
        if !path.is_empty() && path.len() > prefix.len() {
            let name = path.last().cloned().unwrap_or_default();
            out.push((path, name));
        }
    }
}

/// What one file names, before resolution.
struct FileRefs {
    /// (absolute path, line) of each item named, `None` paths dropped.
    refs: Vec<(Vec<String>, usize)>,
    /// Re-exports: the name bound and the absolute path it forwards to.
    reexports: Vec<(String, Vec<String>)>,
    /// Children declared `#[cfg(test)] mod x;`.
    test_children: Vec<String>,
}

/// The module a file path under `src/` is (`lsp/mod.rs` is `lsp`).
fn module_of(rel: &str) -> Vec<String> {
    let mut parts: Vec<String> = rel.trim_end_matches(".rs").split('/').map(String::from).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// Makes `path`, written in module `context`, absolute; `None` for a path
/// into another crate.
fn absolute(path: &[String], context: &[String], modules: &BTreeSet<Vec<String>>) -> Option<Vec<String>> {
    let first = path.first()?;
    match first.as_str() {
        "crate" => Some(path[1..].to_vec()),
        "self" => Some([context, &path[1..]].concat()),
        "super" => {
            let mut base = context.to_vec();
            let mut rest = path;
            while rest.first().is_some_and(|s| s == "super") {
                base.pop();
                rest = &rest[1..];
            }
            Some([&base[..], rest].concat())
        }
        _ => {
            let relative = [context, path].concat();
            let child = [context, &path[..1]].concat();
            modules.contains(&child).then_some(relative)
        }
    }
}

/// Whether the attribute starting at `toks` (after its `#[`) keeps an item
/// to test builds: `cfg(test)`, or `cfg(all(...))` with `test` among its
/// terms (`cfg(all(test, feature = "desktop"))`).
fn test_only(toks: &[Tok]) -> bool {
    let word = |k: usize| toks.get(k).map_or("", |t| t.text.as_str());
    if (0..4).map(word).eq(["cfg", "(", "test", ")"]) {
        return true;
    }
    if !(0..4).map(word).eq(["cfg", "(", "all", "("]) {
        return false;
    }
    let mut depth = 1;
    for k in 4.. {
        match word(k) {
            "" => return false,
            "(" => depth += 1,
            ")" if depth == 1 => return false,
            ")" => depth -= 1,
            "test" if depth == 1 && matches!(word(k - 1), "(" | ",") => return true,
            _ => {}
        }
    }
    false
}

/// Reads one file's references, in `module` (whose known modules are
/// `modules`).
fn file_refs(text: &str, module: &[String], modules: &BTreeSet<Vec<String>>) -> FileRefs {
    let toks = tokens(text);
    let mut refs = Vec::new();
    let mut reexports = Vec::new();
    let mut test_children = Vec::new();
    // Inline modules open here: (name, brace depth inside it, test).
    let mut inline: Vec<(String, usize, bool)> = Vec::new();
    let mut depth = 0usize;
    let mut pending_test = false;
    let mut i = 0;
    while i < toks.len() {
        let t = toks[i].text.as_str();
        let in_test = inline.last().is_some_and(|m| m.2);
        let context: Vec<String> = module.iter().cloned().chain(inline.iter().map(|m| m.0.clone())).collect();
        if t == "#" && toks.get(i + 1).is_some_and(|t| t.text == "[") {
            if test_only(&toks[i + 2..]) {
                pending_test = true;
            }
            // Skip the attribute.
            let mut d = 0;
            while i < toks.len() {
                match toks[i].text.as_str() {
                    "[" => d += 1,
                    "]" => {
                        d -= 1;
                        if d == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            i += 1;
            continue;
        }
        match t {
            "{" => {
                depth += 1;
                pending_test = false;
            }
            "}" => {
                depth = depth.saturating_sub(1);
                if inline.last().is_some_and(|m| m.1 > depth) {
                    inline.pop();
                }
            }
            ";" => pending_test = false,
            "mod" => {
                let name = toks.get(i + 1).map_or(String::new(), |t| t.text.clone());
                match toks.get(i + 2).map(|t| t.text.as_str()) {
                    Some("{") => {
                        inline.push((name, depth + 1, in_test || pending_test));
                        depth += 1;
                        i += 3;
                        pending_test = false;
                        continue;
                    }
                    Some(";") if pending_test && !in_test && inline.is_empty() => test_children.push(name),
                    _ => {}
                }
            }
            "use" => {
                let end = toks[i..].iter().position(|t| t.text == ";").map_or(toks.len(), |p| i + p);
                let public = i > 0
                    && (toks[i - 1].text == "pub" || (toks[i - 1].text == ")" && i >= 4 && toks[i - 4].text == "pub"));
                let mut leaves = Vec::new();
                use_leaves(&toks[i + 1..end], &[], &mut leaves);
                if !in_test {
                    for (path, name) in leaves {
                        let Some(abs) = absolute(&path, &context, modules) else {
                            if public && inline.is_empty() {
                                // A re-export of another crate's item: it
                                // ends here.
                                reexports.push((name, Vec::new()));
                            }
                            continue;
                        };
                        let abs: Vec<String> = abs.into_iter().filter(|s| s != "*" && s != "self").collect();
                        if public && inline.is_empty() {
                            reexports.push((name, abs.clone()));
                        }
                        refs.push((abs, toks[i].line));
                    }
                }
                i = end + 1;
                pending_test = false;
                continue;
            }
            "crate" | "super" | "self"
                if toks.get(i + 1).is_some_and(|t| t.text == "::")
                    && (i == 0 || toks[i - 1].text != "::")
                    && !in_test =>
            {
                let line = toks[i].line;
                let mut path = vec![t.to_string()];
                let mut j = i + 1;
                while toks.get(j).is_some_and(|t| t.text == "::")
                    && toks.get(j + 1).is_some_and(|t| t.text.chars().all(|c| c.is_alphanumeric() || c == '_'))
                {
                    path.push(toks[j + 1].text.clone());
                    j += 2;
                }
                if let Some(abs) = absolute(&path, &context, modules) {
                    refs.push((abs, line));
                }
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    FileRefs { refs, reexports, test_children }
}

/// The module graph of `files` (path under `src/`, text): each module's
/// edges, each with where it was first seen (`file:line`).
pub fn graph(files: &[(String, String)]) -> Graph {
    let files: Vec<(String, Vec<String>, &str)> = files
        .iter()
        .filter(|(p, _)| !p.starts_with("bin/"))
        .map(|(p, t)| (p.clone(), module_of(p), t.as_str()))
        .collect();
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| f.1.clone()).collect();
    let read: Vec<(String, Vec<String>, FileRefs)> =
        files.iter().map(|(p, m, t)| (p.clone(), m.clone(), file_refs(t, m, &modules))).collect();
    let mut reexports: BTreeMap<(Vec<String>, String), Vec<String>> = BTreeMap::new();
    let mut tests: BTreeSet<Vec<String>> = BTreeSet::new();
    for (_, m, r) in &read {
        for (name, target) in &r.reexports {
            reexports.insert((m.clone(), name.clone()), target.clone());
        }
        for c in &r.test_children {
            tests.insert([&m[..], &[c.clone()][..]].concat());
        }
    }
    // The module that defines the item `path` names; `None` when a
    // re-export forwards it to another crate.
    let resolve = |path: &[String]| -> Option<Vec<String>> {
        let mut path = path.to_vec();
        for _ in 0..16 {
            let n = (0..=path.len()).rev().find(|&n| modules.contains(&path[..n])).unwrap_or(0);
            let module = path[..n].to_vec();
            let Some(name) = path.get(n) else { return Some(module) };
            match reexports.get(&(module.clone(), name.clone())) {
                Some(target) if target.is_empty() => return None,
                Some(target) if target[..] != path[..] => {
                    path = [&target[..], &path[n + 1..]].concat();
                }
                _ => return Some(module),
            }
        }
        Some(path)
    };
    let mut g: Graph = BTreeMap::new();
    for (file, m, r) in &read {
        if tests.iter().any(|t| m.starts_with(t)) {
            continue;
        }
        let from = m.join("::");
        let edges = g.entry(from.clone()).or_default();
        for (path, line) in &r.refs {
            let Some(to) = resolve(path) else { continue };
            if to.starts_with(m) {
                // Itself or a descendant: the module tree.
                continue;
            }
            edges.entry(to.join("::")).or_insert_with(|| format!("src/{file}:{line} `{}`", path.join("::")));
        }
    }
    g
}

/// A cycle of `g` (its first module repeated at the end), if there is one.
pub fn cycle(g: &Graph) -> Option<Vec<String>> {
    fn visit<'a>(
        v: &'a str,
        g: &'a Graph,
        state: &mut BTreeMap<&'a str, u8>,
        stack: &mut Vec<&'a str>,
    ) -> Option<Vec<String>> {
        state.insert(v, 1);
        stack.push(v);
        for w in g.get(v).into_iter().flat_map(|e| e.keys()) {
            match state.get(w.as_str()) {
                Some(1) => {
                    let at = stack.iter().position(|s| *s == w.as_str())?;
                    let mut c: Vec<String> = stack[at..].iter().map(|s| s.to_string()).collect();
                    c.push(w.clone());
                    return Some(c);
                }
                Some(_) => {}
                None => {
                    if let Some(c) = visit(w, g, state, stack) {
                        return Some(c);
                    }
                }
            }
        }
        stack.pop();
        state.insert(v, 2);
        None
    }
    let mut state = BTreeMap::new();
    for v in g.keys() {
        if !state.contains_key(v.as_str())
            && let Some(c) = visit(v, g, &mut state, &mut Vec::new())
        {
            return Some(c);
        }
    }
    None
}

/// `cycle` written out, each edge with where it is taken.
pub fn describe(g: &Graph, c: &[String]) -> String {
    let mut s = format!("module cycle: {}\n", c.join(" -> "));
    for w in c.windows(2) {
        s += &format!("  {} -> {}: {}\n", w[0], w[1], g[&w[0]][&w[1]]);
    }
    s
}

/// Every `.rs` file under `dir`, as (path under `root`, text), sorted.
fn read_tree(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) -> std::io::Result<()> {
    let mut entries = Vec::new();
    for e in std::fs::read_dir(dir)? {
        entries.push(e?.path());
    }
    entries.sort();
    for p in entries {
        if p.is_dir() {
            read_tree(root, &p, out)?;
        } else if p.extension().is_some_and(|e| e == "rs") {
            let rel = p.strip_prefix(root).unwrap_or(&p).to_string_lossy().replace('\\', "/");
            out.push((rel, std::fs::read_to_string(&p)?));
        }
    }
    Ok(())
}

/// The module graph of the crate whose sources are under `src` (its
/// `src/` directory).
///
/// # Panics
/// When a file under `src` cannot be read (the message names `src`).
pub fn crate_graph(src: &Path) -> Graph {
    let mut files = Vec::new();
    if let Err(e) = read_tree(src, src, &mut files) {
        panic!("reading {}: {e}", src.display());
    }
    graph(&files)
}

/// Every set of two or more modules that reach each other (the strongly
/// connected components of `g`), each sorted, in the order of their first
/// module; empty when `g` has no cycle.
pub fn tangles(g: &Graph) -> Vec<Vec<String>> {
    // Tarjan's algorithm.
    struct State<'a> {
        g: &'a Graph,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on_stack: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(v: &'a str, s: &mut State<'a>) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        let g = s.g;
        for w in g.get(v).into_iter().flat_map(|e| e.keys()) {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(w, s);
                let lw = s.low[w];
                let lv = s.low[v];
                s.low.insert(v, lv.min(lw));
            } else if s.on_stack.contains(w) {
                let iw = s.index[w];
                let lv = s.low[v];
                s.low.insert(v, lv.min(iw));
            }
        }
        if s.low[v] == s.index[v] {
            let mut c = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                c.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if c.len() > 1 {
                c.sort();
                s.out.push(c);
            }
        }
    }
    let mut s = State {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in g.keys() {
        if !s.index.contains_key(v.as_str()) {
            visit(v, &mut s);
        }
    }
    s.out.sort();
    s.out
}

/// `g` less the edges `from -> to` listed (a test's named exceptions).
///
/// # Panics
/// When a listed edge is not in `g`: an exception that no longer applies
/// is taken out of the list.
pub fn without(g: &Graph, edges: &[(&str, &str)]) -> Graph {
    let mut g = g.clone();
    for (from, to) in edges {
        if g.get_mut(*from).and_then(|e| e.remove(*to)).is_none() {
            panic!("the exempt edge {from} -> {to} is not in the graph: take it out of the list");
        }
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scanner and the cycle search on small made-up crates.
    #[test]
    fn a_made_up_cycle_is_found_and_printed() {
        let files = |list: &[(&str, &str)]| -> Vec<(String, String)> {
            list.iter().map(|(p, t)| (p.to_string(), t.to_string())).collect()
        };
        let crate_a = files(&[
            ("lib.rs", "mod a; mod b; mod c; pub use a::Thing;"),
            ("a.rs", "use crate::b::{self, f as g};\n// crate::c::nothing\npub struct Thing;"),
            ("b.rs", "pub fn f() {\n    let s = \"crate::a::no\"; let c = '{';\n    super::c::h()\n}"),
            ("c.rs", "pub fn h() { let _ = crate::Thing; }\n#[cfg(test)]\nmod tests { use crate::b::f; }"),
        ]);
        let g = graph(&crate_a);
        assert_eq!(tangles(&g), [["a", "b", "c"]]);
        let c = cycle(&g).expect("a -> b -> c -> a");
        assert_eq!(
            describe(&g, &c),
            "module cycle: a -> b -> c -> a\n  a -> b: src/a.rs:1 `b`\n  b -> c: src/b.rs:3 `c::h`\n  c -> a: src/c.rs:1 `Thing`\n"
        );
        // Without c's use of the root's re-export, no cycle: the comment, the
        // string and the test module are not edges.
        let mut crate_b = crate_a.clone();
        crate_b[3].1 = crate_b[3].1.replace("crate::Thing", "1");
        let g = graph(&crate_b);
        assert_eq!(cycle(&g), None, "{g:?}");
        assert_eq!(g["c"].len(), 0);
        // A parent using its child and the child its parent: the child's edge
        // alone.
        let tree = files(&[
            ("lib.rs", "mod p;"),
            ("p/mod.rs", "mod q; use q::x; pub fn y() {}"),
            ("p/q.rs", "pub fn x() { super::y() }"),
        ]);
        let g = graph(&tree);
        assert_eq!(cycle(&g), None);
        assert_eq!(g["p::q"].keys().collect::<Vec<_>>(), ["p"]);
        assert!(g["p"].is_empty());
    }

    /// Every tangle is listed, a named exception takes its edge out, and
    /// another crate's paths are not edges.
    #[test]
    fn tangles_exceptions_and_other_crates() {
        let files: Vec<(String, String)> = [
            ("lib.rs", "mod a; mod b; mod c; mod d; mod e; mod f;"),
            ("a.rs", "use crate::b::x; pub fn y() {}"),
            ("b.rs", "pub fn x() { crate::a::y(); other::a::z(); }"),
            ("c.rs", "use super::d; pub fn w() { d::v() }"),
            ("d.rs", "pub fn v() { crate::c::w(); crate::e::u() }"),
            (
                "e.rs",
                "use animkit_player::c; pub use animkit_player::d as b; pub fn u() {}\npub fn t() { crate::f::Far; }",
            ),
            (
                "f.rs",
                "pub use animkit_player::Far;\n#[cfg(all(test, feature = \"x\"))]\nmod tests { use crate::a::y; }",
            ),
        ]
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
        let g = graph(&files);
        assert_eq!(tangles(&g), [["a", "b"], ["c", "d"]]);
        assert!(g["e"].is_empty(), "{g:?}");
        assert!(g["f"].is_empty(), "{g:?}");
        assert_eq!(g["d"]["e"], "src/d.rs:1 `e::u`");
        let g = without(&g, &[("b", "a"), ("d", "c")]);
        assert_eq!(tangles(&g), [] as [[&str; 2]; 0]);
        assert_eq!(cycle(&g), None);
    }

    #[test]
    #[should_panic(expected = "the exempt edge a -> c is not in the graph: take it out of the list")]
    fn an_exception_that_no_longer_applies_fails() {
        let g = graph(&[
            ("lib.rs".into(), "mod a; mod c;".into()),
            ("a.rs".into(), String::new()),
            ("c.rs".into(), String::new()),
        ]);
        without(&g, &[("a", "c")]);
    }
}
