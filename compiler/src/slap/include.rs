//! `include "file.slap"` and `include <polly>`: finding and reading the
//! files a scene includes, before it is checked.
//!
//! Every file reachable from the scene is read once (a path relative to
//! the including file's directory, joined and normalised lexically: `.`
//! and `a/..` removed; that joined path is the file's identity, and what
//! diagnostics call it). The checker then walks the lines of an included
//! file where its `include` stands, with the defines and time known
//! there, so a file included twice is evaluated twice. Cycles, nesting
//! deeper than [`MAX_INCLUDE_DEPTH`] and more than [`MAX_INCLUDES`]
//! inclusions are the checker's errors (it has the chain); reading is
//! bounded by [`MAX_INCLUDE_BYTES`] in all.

use crate::diagnostic::{Diagnostic, OtherFile};
use animkit_grammar::slap::ast::{Include, Line};
use std::collections::HashMap;
use std::io::Read;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

/// The standard prelude, `include <polly>`: PI and the twelve actions.
pub const POLLY: &str = "\
# The standard prelude (`include <polly>`): PI and Polly's twelve actions.
define PI 3.141592653589793
define idle 0
define scamper 1
define swagger 2
define broadjump 3
define prowl 4
define lumber 5
define dejected 6
define no 7
define yes 8
define hotfeet 9
define sprint 10
define hop 11
";

/// The preludes `include <NAME>` knows.
pub const PRELUDES: [&str; 1] = ["polly"];

/// Deepest chain of includes (the scene itself not counted).
pub const MAX_INCLUDE_DEPTH: usize = 16;
/// Most inclusions a scene may make, all files together (a file included
/// twice counts twice).
pub const MAX_INCLUDES: usize = 4096;
/// Most bytes of included files a scene may read, all together.
pub const MAX_INCLUDE_BYTES: u64 = 64 << 20;

/// How included files are read: [`FsLoader`] from the file system; tests
/// give a map.
pub trait Loader {
    /// The text of `path`, reading at most `limit` bytes (more is an
    /// error).
    fn read(&self, path: &Path, limit: u64) -> Result<String, String>;
}

/// Reads included files from the file system.
#[derive(Clone, Copy, Debug, Default)]
pub struct FsLoader;

impl Loader for FsLoader {
    fn read(&self, path: &Path, limit: u64) -> Result<String, String> {
        let f = std::fs::File::open(path).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => "no such file".to_string(),
            _ => e.to_string(),
        })?;
        let mut bytes = Vec::new();
        f.take(limit.saturating_add(1)).read_to_end(&mut bytes).map_err(|e| e.to_string())?;
        if bytes.len() as u64 > limit {
            return Err(format!("more than the {MAX_INCLUDE_BYTES} bytes a scene may include in all"));
        }
        String::from_utf8(bytes).map_err(|_| "not UTF-8 text".to_string())
    }
}

impl Loader for HashMap<String, String> {
    fn read(&self, path: &Path, limit: u64) -> Result<String, String> {
        let text = self.get(&path.to_string_lossy().into_owned()).ok_or("no such file")?;
        if text.len() as u64 > limit {
            return Err(format!("more than the {MAX_INCLUDE_BYTES} bytes a scene may include in all"));
        }
        Ok(text.clone())
    }
}

/// An included file.
#[derive(Debug)]
pub struct Unit {
    /// Its directory, for the files it includes.
    pub dir: PathBuf,
    /// Its path and text, for diagnostics.
    pub file: Arc<OtherFile>,
}

/// The files of a scene: unit 0 is the scene itself, unit `k` is
/// `units[k - 1]`.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The scene's own path.
    pub main: String,
    /// The included files, in the order first met.
    pub units: Vec<Unit>,
    /// For each `include` (its unit, its span's start): the unit it names,
    /// or why it could not be read.
    pub targets: HashMap<(usize, usize), Result<usize, Diagnostic>>,
}

fn normalise(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.components().next_back(), Some(Component::Normal(_))) => {
                out.pop();
            }
            c => out.push(c.as_os_str()),
        }
    }
    out
}

fn includes<'s>(text: &'s str) -> Vec<Include<'s>> {
    if !text.contains("include") {
        return Vec::new();
    }
    let mut found = Vec::new();
    animkit_grammar::slap::each_line(text, |line, _| {
        if let Line::Include(i) = line {
            found.push(i);
        }
    });
    found
}

/// Reads every file the scene `text` at `path` includes, directly or not.
pub fn load(path: &str, text: &str, loader: &dyn Loader) -> Loaded {
    let mut loaded = Loaded { main: path.to_string(), ..Loaded::default() };
    let dir = |p: &Path| p.parent().map(Path::to_path_buf).unwrap_or_default();
    let main_dir = if path == "-" { PathBuf::new() } else { dir(Path::new(path)) };
    let mut ids: HashMap<String, usize> = HashMap::new();
    let mut budget = MAX_INCLUDE_BYTES;
    let mut next = 0;
    while next <= loaded.units.len() {
        let (unit_file, unit_dir) = match next {
            0 => (None, main_dir.clone()),
            k => (Some(loaded.units[k - 1].file.clone()), loaded.units[k - 1].dir.clone()),
        };
        let unit_text = unit_file.as_deref().map_or(text, |f| f.text.as_str());
        for inc in includes(unit_text) {
            let (key, joined) = if inc.builtin {
                (format!("<{}>", inc.target), None)
            } else {
                let joined = normalise(&unit_dir.join(inc.target));
                (joined.to_string_lossy().into_owned(), Some(joined))
            };
            let target = match ids.get(&key) {
                Some(&id) => Ok(id),
                None => {
                    let read = match &joined {
                        None if PRELUDES.contains(&inc.target) => Ok(POLLY.to_string()),
                        None => Err(Diagnostic::error(
                            inc.target_span,
                            format!("unknown prelude `<{}>`", inc.target),
                            "not shipped with animc",
                        )
                        .with_help(
                            "the standard prelude is `include <polly>`; a file of yours is `include \"file.slap\"`",
                        )),
                        Some(p) => loader.read(p, budget).map_err(|why| {
                            Diagnostic::error(inc.target_span, format!("cannot include `{key}`: {why}"), "this file")
                                .with_note("an included path is relative to the directory of the file that includes it")
                        }),
                    };
                    read.map(|t| {
                        budget = budget.saturating_sub(t.len() as u64);
                        let unit_dir = joined.as_deref().map(dir).unwrap_or_default();
                        loaded
                            .units
                            .push(Unit { dir: unit_dir, file: Arc::new(OtherFile { path: key.clone(), text: t }) });
                        ids.insert(key, loaded.units.len());
                        loaded.units.len()
                    })
                }
            };
            loaded.targets.insert((next, inc.span.start), target);
        }
        next += 1;
    }
    loaded
}
