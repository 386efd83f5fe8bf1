//! The compiler driver: source files in, one [`Program`] out, or every
//! diagnostic of every file.

use crate::builder::ProgramBuilder;
use crate::diagnostic::{Diagnostic, MAX_ERRORS, left_out_line, render, render_limited};
use crate::front::{CheckedSource, FrontEnd, LowerCx};
use crate::hash::FxHashMap;
use crate::languages::front_end;
pub use crate::source::{Options, Source, line_ends};
use animkit_vm::engine::program::{Language, Module, Program};
use std::fmt;

/// The diagnostics of one file.
#[derive(Clone, Debug)]
pub struct FileDiagnostics {
    /// The file's path.
    pub path: String,
    /// Its text (for rendering).
    pub text: String,
    /// What is wrong, in source order.
    pub diagnostics: Vec<Diagnostic>,
}

/// Why compilation failed.
#[derive(Clone, Debug)]
pub enum CompileError {
    /// Source errors, per file.
    Source(Vec<FileDiagnostics>),
    /// A problem that belongs to no position (a bad file name, ...).
    Other(String),
}

impl CompileError {
    /// Number of errors (warnings beside them not counted).
    pub fn count(&self) -> usize {
        match self {
            CompileError::Source(files) => {
                files.iter().map(|f| f.diagnostics.iter().map(Diagnostic::errors).sum::<usize>()).sum()
            }
            CompileError::Other(_) => 1,
        }
    }
}

/// A successful compilation: the program, and the warnings of each file
/// that has any.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The verified program.
    pub program: Program,
    /// Warnings, per file, in file order.
    pub warnings: Vec<FileDiagnostics>,
}

impl Compiled {
    /// Number of warnings.
    pub fn warning_count(&self) -> usize {
        self.warnings.iter().map(|f| f.diagnostics.len()).sum()
    }

    /// Every warning in rustc's format, then `warning: N warnings
    /// emitted` (empty when there is none).
    pub fn render_warnings(&self) -> String {
        let n = self.warning_count();
        if n == 0 {
            return String::new();
        }
        let mut out: String = self.warnings.iter().map(|f| render(&f.path, &f.text, &f.diagnostics)).collect();
        out.push_str(&format!("warning: {n} warning{} emitted\n", if n == 1 { "" } else { "s" }));
        out
    }
}

impl fmt::Display for CompileError {
    /// Renders the diagnostics in rustc's format, file by file, up to the
    /// [`MAX_ERRORS`]th error; past it, one closing line says how many
    /// errors were left out (the warnings after the last error printed are
    /// left out too).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompileError::Source(files) => {
                let (mut errors_left, mut left_out) = (MAX_ERRORS, 0);
                for file in files {
                    let mut out = String::new();
                    left_out += render_limited(&file.path, &file.text, &file.diagnostics, &mut errors_left, &mut out);
                    f.write_str(&out)?;
                }
                f.write_str(&left_out_line(left_out))
            }
            CompileError::Other(m) => writeln!(f, "error: {m}"),
        }
    }
}

impl std::error::Error for CompileError {}

/// Formats one source in the language's canonical layout (`animc --fmt`).
/// Only syntax errors stop formatting; the rest is the checker's business.
///
/// ```
/// let src = animkit_compiler::Source::new("a.anim", "A:5,_loop");
/// assert_eq!(animkit_compiler::driver::format_source(&src).unwrap(), "A: 5, _loop\n");
/// let src = animkit_compiler::Source::new("a.draw", "color  red ! pen\nline 0 0 1.0 1");
/// assert_eq!(animkit_compiler::driver::format_source(&src).unwrap(), "color red ! pen\nline 0 0 1 1\n");
/// ```
pub fn format_source(source: &Source) -> Result<String, CompileError> {
    let language = language_of(source)?;
    let Some(front) = front_end(language) else {
        return Err(CompileError::Other(format!("`{}`: formatting {language} is not implemented yet", source.path)));
    };
    front.format(source).map_err(|diagnostics| file_error(source, diagnostics))
}

/// The diagnostics of `source` as a compile error.
fn file_error(source: &Source, diagnostics: Vec<Diagnostic>) -> CompileError {
    CompileError::Source(vec![FileDiagnostics { path: source.path.clone(), text: source.text.clone(), diagnostics }])
}

fn language_of(source: &Source) -> Result<Language, CompileError> {
    source.language().ok_or_else(|| {
        CompileError::Other(format!(
            "cannot tell the language of `{}` from its extension (expected {}); use --lang {}",
            source.path,
            Language::extensions(", "),
            Language::names("|")
        ))
    })
}

/// Checks one source; returns its diagnostics (empty when it is fine;
/// warnings when it compiles with warnings).
pub fn check_source(source: &Source) -> Result<Vec<Diagnostic>, CompileError> {
    match front(source, &Options::default()) {
        Ok(checked) => Ok(checked.warnings),
        Err(CompileError::Source(mut files)) => Ok(files.pop().map(|f| f.diagnostics).unwrap_or_default()),
        Err(e) => Err(e),
    }
}

/// The front end of a source's language.
fn front_end_of(source: &Source) -> Result<&'static dyn FrontEnd, CompileError> {
    let language = language_of(source)?;
    front_end(language).ok_or_else(|| {
        CompileError::Other(format!("`{}`: the {language} compiler is not implemented in this build", source.path))
    })
}

/// Parses and checks one source: no shared state, so files can go through
/// it on several threads.
fn front(source: &Source, options: &Options) -> Result<CheckedSource, CompileError> {
    front_end_of(source)?.check_with(source, options).map_err(|diagnostics| file_error(source, diagnostics))
}

/// Lowers a checked source into the program being built (in file order:
/// string ids depend on it). Lowering cannot fail.
fn back(source: &Source, checked: CheckedSource, b: &mut ProgramBuilder, options: &Options) -> Module {
    let mut module = checked.ir.lower(LowerCx { builder: b, source, options });
    if !options.strip {
        module.source = Some(source.path.clone());
    }
    module
}

/// Sources smaller than this in total are compiled on one thread.
const PARALLEL_BYTES: usize = 256 * 1024;

/// `f` over `items`, in order, on up to `jobs` threads (contiguous runs of
/// roughly equal total `weight`).
fn par_map<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    weight: impl Fn(&T) -> usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let total: usize = items.iter().map(&weight).sum();
    if jobs <= 1 || items.len() < 2 || total < PARALLEL_BYTES {
        return items.iter().map(f).collect();
    }
    let mut runs = Vec::with_capacity(jobs);
    let (mut start, mut acc) = (0, 0);
    for (i, it) in items.iter().enumerate() {
        acc += weight(it);
        if acc * jobs >= total * (runs.len() + 1) && runs.len() + 1 < jobs {
            runs.push(&items[start..=i]);
            start = i + 1;
        }
    }
    runs.push(&items[start..]);
    let f = &f;
    std::thread::scope(|s| {
        let handles: Vec<_> =
            runs.into_iter().map(|run| s.spawn(move || run.iter().map(f).collect::<Vec<R>>())).collect();
        handles.into_iter().flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect()
    })
}

/// Compiles every source into one program (one module per file). All
/// files are checked; every error of every file is returned. Large inputs
/// are parsed and checked on every core ([`compile_jobs`]); the program is
/// the same either way. Warnings are dropped: [`compile_with_warnings`]
/// returns them.
pub fn compile(sources: &[Source], options: &Options) -> Result<Program, CompileError> {
    compile_with_warnings(sources, options).map(|c| c.program)
}

/// [`compile`], with the warnings of a successful compilation. On failure
/// the error's diagnostics include the warnings too, each file's in source
/// order (`CompileError::count` counts only the errors).
///
/// ```
/// use animkit_compiler::{compile_with_warnings, Source};
/// let compiled = compile_with_warnings(&[Source::new("a.draw", "frame\n")], &Default::default()).unwrap();
/// assert_eq!(compiled.warning_count(), 0);
/// assert_eq!(compiled.render_warnings(), "");
/// ```
pub fn compile_with_warnings(sources: &[Source], options: &Options) -> Result<Compiled, CompileError> {
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    compile_all(sources, options, jobs)
}

/// [`compile`] parsing and checking on at most `jobs` threads (lowering is
/// sequential, in file order, so string ids and bytes do not depend on
/// `jobs`).
pub fn compile_jobs(sources: &[Source], options: &Options, jobs: usize) -> Result<Program, CompileError> {
    compile_all(sources, options, jobs).map(|c| c.program)
}

fn compile_all(sources: &[Source], options: &Options, jobs: usize) -> Result<Compiled, CompileError> {
    let mut b = ProgramBuilder::new();
    let mut failed = Vec::new();
    let mut other = None;
    // Module name -> the path that took it (a map: bundles of thousands of
    // files are compiled at once).
    let mut names: FxHashMap<String, &str> = FxHashMap::default();
    let mut keep = Vec::with_capacity(sources.len());
    for s in sources {
        let name = s.module_name();
        if let Some(first) = names.get(&name) {
            other.get_or_insert(format!(
                "two modules would be named `{name}` (`{first}` and `{}`); module names come from file stems",
                s.path
            ));
            continue;
        }
        names.insert(name, &s.path);
        keep.push(s);
    }
    let checked = par_map(&keep, jobs, |s| s.text.len(), |s| front(s, options));
    let mut warnings = Vec::new();
    for (s, c) in keep.into_iter().zip(checked) {
        match c {
            Ok(mut c) => {
                if !c.warnings.is_empty() {
                    let diagnostics = std::mem::take(&mut c.warnings);
                    warnings.push(FileDiagnostics { path: s.path.clone(), text: s.text.clone(), diagnostics });
                }
                // Once a file failed, nothing is lowered: the program is
                // thrown away anyway.
                if failed.is_empty() {
                    let module = back(s, c, &mut b, options);
                    b.program_mut().modules.push(module);
                }
            }
            Err(CompileError::Source(files)) => failed.extend(files),
            Err(CompileError::Other(m)) => {
                other.get_or_insert(m);
            }
        }
    }
    if !failed.is_empty() {
        // The warnings of the files that compiled are shown too, each file
        // in the order given.
        let order = |path: &str| sources.iter().position(|s| s.path == path);
        failed.extend(warnings);
        failed.sort_by_key(|f| order(&f.path));
        return Err(CompileError::Source(failed));
    }
    if let Some(m) = other {
        return Err(CompileError::Other(m));
    }
    let program = b.finish();
    // A language whose code names strings in a narrow field limits them
    // (`FrontEnd::max_strings`: sprite events).
    for m in &program.modules {
        let Some((max_strings, what)) = front_end(m.language).and_then(|f| f.max_strings()) else { continue };
        if program.strings.len() > max_strings {
            return Err(CompileError::Other(format!(
                "the sources use {} distinct names and strings, more than the {max_strings} that {what} can refer to; compile them into separate bundles",
                program.strings.len()
            )));
        }
    }
    debug_assert_eq!(animkit_vm::engine::verify::verify_program(&program), Ok(()));
    Ok(Compiled { program, warnings })
}
