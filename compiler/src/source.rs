//! One input file ([`Source`]) and the compilation options ([`Options`]):
//! the leaf every layer of the compiler shares (the driver, the front-end
//! interface, each language's front end). `crate::driver` and the crate
//! root re-export both, so their public paths are unchanged.

use animkit_vm::engine::program::Language;
use std::path::Path;

/// One input file.
#[derive(Clone, Debug)]
pub struct Source {
    /// Path as given (used in diagnostics and for the module name).
    pub path: String,
    /// The text.
    pub text: String,
    /// The language, if forced (`--lang`); otherwise the extension decides.
    pub language: Option<Language>,
}

/// `text` with each lone carriage return (an old Mac line end, not the
/// `\r` of a `\r\n`) made a `\n`: one byte for one byte, so every span
/// stays where it was, and the lexers, the readers and the diagnostics'
/// line counting all see the same lines. Every source of every language
/// goes through it ([`Source::new`]).
///
/// ```
/// use animkit_compiler::driver::line_ends;
/// assert_eq!(line_ends("a\rb\r\nc\r".into()), "a\nb\r\nc\n");
/// ```
pub fn line_ends(text: String) -> String {
    if !text.contains('\r') {
        return text;
    }
    let mut bytes = text.into_bytes();
    for i in 0..bytes.len() {
        if bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n') {
            bytes[i] = b'\n';
        }
    }
    // Only ASCII bytes changed, for ASCII bytes: still UTF-8.
    String::from_utf8(bytes).unwrap_or_default()
}

impl Source {
    /// A source whose language follows its extension.
    pub fn new(path: impl Into<String>, text: impl Into<String>) -> Source {
        Source { path: path.into(), text: line_ends(text.into()), language: None }
    }

    /// The module name: the file stem (`stdin` for `-`).
    ///
    /// ```
    /// assert_eq!(animkit_compiler::Source::new("a/hero.anim", "").module_name(), "hero");
    /// ```
    pub fn module_name(&self) -> String {
        if self.path == "-" {
            return "stdin".into();
        }
        Path::new(&self.path).file_stem().map_or_else(|| self.path.clone(), |s| s.to_string_lossy().into_owned())
    }

    /// The language: forced, or from the extension (`.anim`, `.draw`,
    /// `.slap`).
    ///
    /// ```
    /// use animkit_vm::engine::program::Language;
    /// assert_eq!(animkit_compiler::Source::new("x.draw", "").language(), Some(Language::Animator));
    /// ```
    pub fn language(&self) -> Option<Language> {
        self.language.or_else(|| Language::from_extension(Path::new(&self.path).extension()?.to_str()?))
    }
}

/// Compilation options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Drop debug info (`--strip`).
    pub strip: bool,
    /// Fold constant expressions while lowering (on by default; `animc
    /// --no-fold` turns it off). Each front end's lowering gets it; only
    /// SLAP has expressions to fold (its arguments' arithmetic, computed by
    /// the VM when off, with the same bits).
    pub fold: bool,
    /// Spec-only mode (`--strict`): a SLAP scene using an animkit
    /// extension (`camera lookat`, `camera follow`, functions, `include`,
    /// ...; `docs/slap.md`, §Extensions) is an error at the extension.
    pub strict: bool,
}

impl Default for Options {
    /// Debug info kept, constants folded, extensions accepted.
    fn default() -> Options {
        Options { strip: false, fold: true, strict: false }
    }
}
