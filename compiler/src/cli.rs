//! The `animc` command line, runnable in-process (tests inject the streams).
//!
//! ```text
//! animc [--check] [--lang sprite|animator|slap] [--emit bundle|asm] [--strip] [--no-fold] [--strict] [-o OUT] FILE...
//! animc --fmt [--write] [--lang LANG] FILE...
//! animc --from-aseprite SHEET.json [--tick-ms N] [-o OUT.anim]
//! animc lsp
//! ```
//!
//! - `animc lsp` runs the language server on standard input and output
//!   (`crate::lsp`, `docs/lsp.md`).
//!
//! - `--from-aseprite` converts an Aseprite JSON export into Sprite DSL
//!   source (`crate::import::aseprite`; default output: the input with
//!   the extension `.anim`), printing what the DSL cannot express as
//!   warnings; `--lang aseprite` compiles such exports directly.
//!
//! - The language follows each file's extension (`.anim`, `.draw`,
//!   `.slap`) unless `--lang` says otherwise; `-` reads standard input
//!   (then `--lang` is required). The languages and extensions come from
//!   the language table (`animkit_vm::engine::program::Language`).
//! - Several files make one bundle, one module per file, named after the
//!   file stem.
//! - The bundle goes to `-o OUT` (`-` = standard output); by default next to
//!   the first input, with the extension `.animb`. `--emit asm` prints the
//!   disassembly to standard output unless `-o` is given.
//! - The output is never one of the inputs: `-o x.anim` (or a default
//!   output) naming an input, also through a symbolic or hard link, is
//!   refused before anything is read, the input untouched
//!   ([`crate::files::refuse_input_as_output`]); so is `--from-aseprite`'s
//!   output naming the export.
//! - On any error `animc` prints every diagnostic, exits with status 1 and
//!   leaves no output file: the bundle is written to a temporary file in
//!   the output's directory and renamed into place only when complete.
//! - An option that does not go with the mode (a build, `--check`,
//!   `--fmt`, `--from-aseprite`) or with any input's language is refused,
//!   never ignored, from one table ([`OPTIONS`]): `--fmt -o FILE`,
//!   `--strict` on a sprite file, `--tick-ms` on a `.slap`.
//! - Warnings are printed as rustc prints them (`warning: ...`, then
//!   `warning: N warnings emitted`); on their own they leave the exit
//!   status 0.

use crate::driver::{CompileError, Compiled, Options, Source, compile_with_warnings};
use animkit_vm::engine::program::Language;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Usage text for `-h` / `--help`; the language lists come from the
/// language table.
///
/// ```
/// let usage = animkit_compiler::cli::usage();
/// assert!(usage.contains("sprite (.anim), animator (.draw) and slap (.slap)"));
/// assert!(usage.contains("--lang LANG       force the language of every input: sprite, animator, slap\n"));
/// ```
pub fn usage() -> String {
    let languages: Vec<String> = Language::ALL.iter().map(|l| format!("{l} (.{})", l.extension())).collect();
    let languages = match languages.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, init)) => format!("{} and {last}", init.join(", ")),
        None => String::new(),
    };
    format!(
        "\
usage: animc [OPTIONS] FILE...

Compiles sources in {languages}
into one animkit bundle (.animb).

options:
  -o OUT            write the output to OUT (`-` = standard output);
                    default: the first input with the extension .animb
  --emit bundle|asm what to write: the bundle (default) or a disassembly
  --check           only check the sources; write nothing
  --lang LANG       force the language of every input: {names}
                    (or aseprite: JSON exports, converted to sprite source)
  --strip           leave debug info (source positions) out of the bundle
  --no-fold         do not fold constant expressions
  --strict          spec-only SLAP: refuse animkit's extensions (camera
                    lookat/follow, functions, include, ...; docs/slap.md)
  --from-aseprite F convert the Aseprite JSON export F into sprite source
                    (default output: F with the extension .anim)
  --tick-ms N       Aseprite imports: milliseconds per tick (default 20)
  --fmt             print each file in its language's canonical layout
  --write           with --fmt: rewrite the files in place instead
  -h, --help        print this help

animc lsp           run the language server on standard input and output
                    (see docs/lsp.md)

FILE may be `-` to read standard input (needs --lang).
Exit status: 0 on success (warnings included), 1 on any error.
",
        names = Language::names(", ")
    )
}

#[derive(Debug, PartialEq, Eq)]
enum Emit {
    Bundle,
    Asm,
}

#[derive(Debug)]
struct Args {
    check: bool,
    lang: Option<Language>,
    emit: Emit,
    strip: bool,
    no_fold: bool,
    strict: bool,
    fmt: bool,
    write: bool,
    output: Option<String>,
    inputs: Vec<String>,
    /// `--lang aseprite`.
    aseprite: bool,
    from_aseprite: Option<String>,
    tick_ms: u32,
    /// Every option given, as [`OPTIONS`] names it, in the order given.
    given: Vec<&'static str>,
}

fn parse_args(args: &[String]) -> Result<Option<Args>, String> {
    let mut a = Args {
        check: false,
        lang: None,
        emit: Emit::Bundle,
        strip: false,
        no_fold: false,
        strict: false,
        fmt: false,
        write: false,
        output: None,
        inputs: Vec::new(),
        aseprite: false,
        from_aseprite: None,
        tick_ms: 20,
        given: Vec::new(),
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if let Some(row) = option_row(arg) {
            a.given.push(row.name);
        }
        let mut value = |name: &str| it.next().cloned().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "-h" | "--help" => return Ok(None),
            "--check" => a.check = true,
            "--strip" => a.strip = true,
            "--no-fold" => a.no_fold = true,
            "--strict" => a.strict = true,
            "--fmt" => a.fmt = true,
            "--write" => a.write = true,
            "-o" => a.output = Some(value("-o")?),
            "--emit" => {
                a.emit = match value("--emit")?.as_str() {
                    "bundle" => Emit::Bundle,
                    "asm" => Emit::Asm,
                    other => {
                        return Err(format!("unknown --emit kind `{other}` (expected bundle or asm)"));
                    }
                }
            }
            "--from-aseprite" => a.from_aseprite = Some(value("--from-aseprite")?),
            "--tick-ms" => {
                let v = value("--tick-ms")?;
                a.tick_ms = v
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("--tick-ms `{v}`: expected a whole number of milliseconds above 0"))?;
            }
            "--lang" => {
                let name = value("--lang")?;
                if let Some(written) = crate::import::importer(&name) {
                    a.aseprite = true;
                    a.lang = Some(written);
                    continue;
                }
                a.lang = Some(
                    Language::from_name(&name)
                        .ok_or_else(|| format!("unknown language `{name}` (expected {})", Language::names(", ")))?,
                )
            }
            "-" => a.inputs.push(arg.clone()),
            s if s.starts_with('-') => return Err(format!("unknown option `{s}`")),
            _ => a.inputs.push(arg.clone()),
        }
    }
    if a.from_aseprite.is_some() {
        if !a.inputs.is_empty() {
            return Err("--from-aseprite converts one export: give no other input".into());
        }
        check_options(&a)?;
        return Ok(Some(a));
    }
    if a.inputs.is_empty() {
        return Err("no input files".into());
    }
    check_options(&a)?;
    if a.fmt && a.write && a.inputs.iter().any(|i| i == "-") {
        return Err("--fmt --write cannot rewrite standard input".into());
    }
    Ok(Some(a))
}

/// Runs `animc` with `args` (without the program name); returns the exit
/// status.
///
/// ```
/// let mut out = Vec::new();
/// let mut err = Vec::new();
/// let status = animkit_compiler::cli::run(&["--bogus".into()], &mut std::io::empty(), &mut out, &mut err);
/// assert_eq!(status, 1);
/// assert!(String::from_utf8(err).unwrap().starts_with("error: unknown option `--bogus`"));
/// ```
pub fn run(args: &[String], stdin: &mut dyn Read, stdout: &mut dyn Write, stderr: &mut dyn Write) -> i32 {
    match run_inner(args, stdin, stdout, stderr) {
        Ok(()) => 0,
        Err(message) => {
            if !message.is_empty() {
                let _ = write!(stderr, "{message}");
            }
            1
        }
    }
}

fn run_inner(
    args: &[String],
    stdin: &mut dyn Read,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<(), String> {
    let usage_error = |m: String| format!("error: {m}\n\n{}", usage());
    let Some(args) = parse_args(args).map_err(usage_error)? else {
        // Help that cannot be written is an error, not a silent success.
        return stdout
            .write_all(usage().as_bytes())
            .and_then(|_| stdout.flush())
            .map_err(|e| format!("error: cannot write output: {e}\n"));
    };
    let import = crate::import::aseprite::AsepriteOptions { tick_ms: args.tick_ms };
    if let Some(path) = &args.from_aseprite {
        return from_aseprite(path, &import, args.output.as_deref(), stdout, stderr);
    }
    if !args.fmt && !args.check {
        // Before anything is read: the output must not be one of the inputs.
        let out = match args.emit {
            Emit::Bundle => args.output.as_deref().map(PathBuf::from).or_else(|| default_output(&args.inputs[0])),
            Emit::Asm => args.output.as_deref().map(PathBuf::from),
        };
        if let Some(out) = out {
            crate::files::refuse_input_as_output(&out, &args.inputs)?;
        }
    }
    let mut sources = Vec::with_capacity(args.inputs.len());
    for path in &args.inputs {
        let text = if path == "-" {
            if args.lang.is_none() {
                return Err(format!("error: reading standard input (`-`) needs --lang {}\n", Language::names("|")));
            }
            let buf = crate::files::read_to_limit(stdin, animkit_vm::engine::limits::MAX_SOURCE_BYTES)
                .map_err(|e| e.message("standard input"))?;
            String::from_utf8(buf).map_err(|e| format!("error: standard input is not UTF-8 text: {e}\n"))?
        } else {
            let bytes = crate::files::read_source(path)?;
            String::from_utf8(bytes).map_err(|e| format!("error: `{path}` is not UTF-8 text: {e}\n"))?
        };
        let text = if args.aseprite { convert_aseprite(path, &text, &import, stderr)?.text } else { text };
        sources.push(Source { path: path.clone(), text: crate::driver::line_ends(text), language: args.lang });
    }
    if args.fmt {
        return format_files(&args, &sources, stdout, stderr);
    }
    let options = Options { strip: args.strip, fold: !args.no_fold, strict: args.strict };
    let program = report(compile_with_warnings(&sources, &options), stderr)?;
    if args.check {
        return Ok(());
    }
    // The texts are not needed past the diagnostics: not held beside the
    // program and its bytes.
    drop(sources);
    let (bytes, default_out) = match args.emit {
        Emit::Bundle => (animkit_vm::engine::codec::encode(&program), default_output(&args.inputs[0])),
        Emit::Asm => (animkit_vm::engine::disasm::disassemble(&program).into_bytes(), None),
    };
    let explicit_output = args.output.is_some();
    match args.output.map(PathBuf::from).or(default_out) {
        Some(p) if p.as_os_str() != "-" => {
            write_atomic(&p, &bytes).map_err(|e| format!("error: cannot write `{}`: {e}\n", p.display()))
        }
        Some(_) | None => {
            if args.emit == Emit::Bundle && !explicit_output {
                return Err(
                    "error: reading standard input: name the bundle with -o OUT (`-o -` for standard output)\n".into(),
                );
            }
            stdout
                .write_all(&bytes)
                .and_then(|_| stdout.flush())
                .map_err(|e| format!("error: cannot write output: {e}\n"))
        }
    }
}

/// Prints a compilation's warnings (and, on failure, its errors) to
/// `stderr` as rustc does, and hands back the program; the `Err` is the
/// closing line of a failure, which makes the exit status 1.
fn report(result: Result<Compiled, CompileError>, stderr: &mut dyn Write) -> Result<animkit_vm::Program, String> {
    match result {
        Ok(compiled) => {
            let _ = write!(stderr, "{}", compiled.render_warnings());
            Ok(compiled.program)
        }
        Err(e) => {
            let n = e.count();
            let _ = write!(stderr, "{e}");
            Err(format!("error: could not compile due to {n} previous error{}\n", if n == 1 { "" } else { "s" }))
        }
    }
}

fn format_files(args: &Args, sources: &[Source], stdout: &mut dyn Write, stderr: &mut dyn Write) -> Result<(), String> {
    let mut failed = 0;
    for source in sources {
        match crate::driver::format_source(source) {
            Ok(text) if args.write => {
                if text != source.text {
                    write_atomic(Path::new(&source.path), text.as_bytes())
                        .map_err(|e| format!("error: cannot write `{}`: {e}\n", source.path))?;
                }
            }
            Ok(text) => stdout.write_all(text.as_bytes()).map_err(|e| format!("error: cannot write output: {e}\n"))?,
            Err(e) => {
                failed += e.count();
                let _ = write!(stderr, "{e}");
            }
        }
    }
    if failed > 0 {
        return Err(format!(
            "error: could not format due to {failed} previous error{}\n",
            if failed == 1 { "" } else { "s" }
        ));
    }
    Ok(())
}

/// Converts an Aseprite export, printing its warnings; the error is the
/// whole message.
fn convert_aseprite(
    path: &str,
    json: &str,
    options: &crate::import::aseprite::AsepriteOptions,
    stderr: &mut dyn Write,
) -> Result<crate::import::aseprite::Converted, String> {
    let converted = crate::import::aseprite::convert(path, json, options).map_err(|e| format!("{e}\n"))?;
    let _ = write!(stderr, "{}", converted.render_warnings(path, json));
    Ok(converted)
}

/// `--from-aseprite`: the export as sprite source, to `output` (default:
/// beside it, `.anim`; `-`: standard output). A malformed export writes
/// nothing.
fn from_aseprite(
    path: &str,
    options: &crate::import::aseprite::AsepriteOptions,
    output: Option<&str>,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<(), String> {
    let out = output.map(PathBuf::from).unwrap_or_else(|| Path::new(path).with_extension("anim"));
    crate::files::refuse_input_as_output(&out, &[path.to_string()])?;
    let bytes = crate::files::read_source(path)?;
    let json = String::from_utf8(bytes).map_err(|e| format!("error: `{path}` is not UTF-8 text: {e}\n"))?;
    let converted = convert_aseprite(path, &json, options, stderr)?;
    // The sheet image the export names (beside it) is not replaced either.
    if !converted.sheet.image.is_empty() && out.as_os_str() != "-" {
        let image = Path::new(path).parent().unwrap_or(Path::new("")).join(&converted.sheet.image);
        if crate::files::same_file(&out, &image) {
            return Err(format!(
                "error: the output `{}` is the sheet image `{}` of `{path}` (the same file): writing it would \
                 replace the image; name another output with -o\n",
                out.display(),
                image.display()
            ));
        }
    }
    let text = converted.text;
    if out.as_os_str() == "-" {
        return stdout.write_all(text.as_bytes()).map_err(|e| format!("error: cannot write output: {e}\n"));
    }
    write_atomic(&out, text.as_bytes()).map_err(|e| format!("error: cannot write `{}`: {e}\n", out.display()))
}

fn default_output(first_input: &str) -> Option<PathBuf> {
    (first_input != "-").then(|| Path::new(first_input).with_extension("animb"))
}

pub use crate::files::{remove_stale_temps, write_atomic};

/// What `animc` is asked to do, as far as its options care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Compile to a bundle, or to a disassembly with `--emit asm` (the
    /// default).
    Build,
    /// `--check`: compile, write nothing.
    Check,
    /// `--fmt`: print each file in its canonical layout (`--write`:
    /// rewrite it).
    Fmt,
    /// `--from-aseprite`: convert an export to sprite source.
    Import,
}

impl Mode {
    /// The mode as a refusal names it.
    fn name(self) -> &'static str {
        match self {
            Mode::Build => "a build",
            Mode::Check => "--check",
            Mode::Fmt => "--fmt",
            Mode::Import => "--from-aseprite",
        }
    }
}

/// What an input is, as far as the options care: a source of a language,
/// or an Aseprite export (`--lang aseprite`, `--from-aseprite`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// A source of the language.
    Source(Language),
    /// An Aseprite JSON export.
    Aseprite,
}

impl Input {
    /// The input as a refusal names it (`a SLAP source`).
    /// A source's is its front end's (`FrontEnd::source_nouns`).
    fn noun(self) -> &'static str {
        match self {
            Input::Source(l) => Input::source_nouns(l).0,
            Input::Aseprite => "an Aseprite export",
        }
    }

    /// Inputs of this kind, as a refusal names them.
    fn plural(self) -> &'static str {
        match self {
            Input::Source(l) => Input::source_nouns(l).1,
            Input::Aseprite => "Aseprite exports (--from-aseprite or --lang aseprite)",
        }
    }

    /// How a source of `language` is named, one and several: its front
    /// end's words (every language of the table has a front end in
    /// `animc`; a unit test checks it).
    fn source_nouns(language: Language) -> (&'static str, &'static str) {
        crate::languages::front_end(language).map_or(("a source", "sources"), |f| f.source_nouns())
    }
}

/// One row of [`OPTIONS`]: an option, the modes it goes with and, where
/// it is one language's, the inputs it is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionRow {
    /// The option as written (`--strict`).
    pub name: &'static str,
    /// The modes it goes with.
    pub modes: &'static [Mode],
    /// The inputs it is for (empty: any).
    pub inputs: &'static [Input],
    /// The mode it selects, if it is one (`--check`, `--fmt`,
    /// `--from-aseprite`).
    pub selects: Option<Mode>,
}

const fn row(name: &'static str, modes: &'static [Mode]) -> OptionRow {
    OptionRow { name, modes, inputs: &[], selects: None }
}

const ANY_MODE: &[Mode] = &[Mode::Build, Mode::Check, Mode::Fmt, Mode::Import];

/// Every option `animc` takes, with the modes it goes with and the inputs
/// it is for: the one table [`parse_args`] refuses an option by when it
/// does not apply (a unit test checks that every option of the usage text
/// has a row and every row is in it). `-o` names a build's or an import's
/// output (`--fmt` prints, or `--write` rewrites each file); `--emit` and
/// `--strip` shape a build's output; `--strict` is for SLAP sources,
/// `--tick-ms` for Aseprite exports.
pub const OPTIONS: &[OptionRow] = &[
    row("-o", &[Mode::Build, Mode::Import]),
    row("--emit", &[Mode::Build]),
    OptionRow { selects: Some(Mode::Check), ..row("--check", &[Mode::Check]) },
    row("--lang", &[Mode::Build, Mode::Check, Mode::Fmt]),
    row("--strip", &[Mode::Build]),
    row("--no-fold", &[Mode::Build, Mode::Check]),
    OptionRow { inputs: &[Input::Source(Language::Slap)], ..row("--strict", &[Mode::Build, Mode::Check]) },
    OptionRow { selects: Some(Mode::Import), ..row("--from-aseprite", &[Mode::Import]) },
    OptionRow { inputs: &[Input::Aseprite], ..row("--tick-ms", ANY_MODE) },
    OptionRow { selects: Some(Mode::Fmt), ..row("--fmt", &[Mode::Fmt]) },
    row("--write", &[Mode::Fmt]),
    row("-h", ANY_MODE),
    row("--help", ANY_MODE),
];

/// The row of `name` in [`OPTIONS`].
///
/// ```
/// use animkit_compiler::cli::option_row;
/// assert_eq!(option_row("--write").map(|r| r.name), Some("--write"));
/// assert_eq!(option_row("--nope"), None);
/// ```
pub fn option_row(name: &str) -> Option<&'static OptionRow> {
    OPTIONS.iter().find(|r| r.name == name)
}

impl Args {
    /// What the command line asks for.
    fn mode(&self) -> Mode {
        if self.from_aseprite.is_some() {
            Mode::Import
        } else if self.fmt {
            Mode::Fmt
        } else if self.check {
            Mode::Check
        } else {
            Mode::Build
        }
    }

    /// What `path` is: an export under `--lang aseprite` or
    /// `--from-aseprite`, else a source of `--lang` or of its extension
    /// (`None`: unknown, reported when it is read).
    fn input(&self, path: &str) -> Option<Input> {
        if self.aseprite || self.from_aseprite.is_some() {
            return Some(Input::Aseprite);
        }
        self.lang
            .or_else(|| Path::new(path).extension().and_then(|e| e.to_str()).and_then(Language::from_extension))
            .map(Input::Source)
    }
}

/// `a`, `a or b`, `a, b or c`.
fn either(names: &[&str]) -> String {
    match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, init)) => format!("{} or {last}", init.join(", ")),
        None => String::new(),
    }
}

/// Refuses the first option given that does not go with the mode or with
/// any of the inputs ([`OPTIONS`]), naming the mode or the input's
/// language.
fn check_options(a: &Args) -> Result<(), String> {
    let mode = a.mode();
    let inputs: Vec<&str> = match &a.from_aseprite {
        Some(path) => vec![path.as_str()],
        None => a.inputs.iter().map(String::as_str).collect(),
    };
    for &name in &a.given {
        let Some(row) = option_row(name) else { continue };
        if !row.modes.contains(&mode) {
            if row.selects.is_some() {
                return Err(format!("{name} does not go with {}", mode.name()));
            }
            let allowed: Vec<&str> = row.modes.iter().map(|m| m.name()).collect();
            let not = if mode == Mode::Build { String::new() } else { format!(", not with {}", mode.name()) };
            return Err(format!("{name} only goes with {}{not}", either(&allowed)));
        }
        if row.inputs.is_empty() {
            continue;
        }
        let kinds: Vec<Option<Input>> = inputs.iter().map(|p| a.input(p)).collect();
        // An input of unknown kind is reported when it is read.
        if kinds.iter().any(|k| k.is_none_or(|k| row.inputs.contains(&k))) {
            continue;
        }
        let for_whom: Vec<&str> = row.inputs.iter().map(|i| i.plural()).collect();
        let (first, kind) = match (inputs.first(), kinds.first()) {
            (Some(p), Some(Some(k))) => (*p, *k),
            _ => continue,
        };
        let first = if first == "-" { "standard input".to_string() } else { format!("`{first}`") };
        let what = match inputs.len() {
            1 => format!("{first} is {}", kind.noun()),
            n => format!("none of the {n} inputs is one ({first} is {})", kind.noun()),
        };
        return Err(format!("{name} only goes with {}, and {what}", either(&for_whom)));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Diagnostic;
    use crate::driver::FileDiagnostics;
    use animkit_grammar::Span;

    fn with_warnings(diagnostics: Vec<Diagnostic>) -> Compiled {
        let file = FileDiagnostics { path: "a.slap".into(), text: "time 1\ntime 0\n".into(), diagnostics };
        Compiled { program: animkit_vm::Program::default(), warnings: vec![file] }
    }

    fn warning(span: Span) -> Diagnostic {
        let mut d = Diagnostic::error(span, "`time 0` is earlier than the current time 1", "goes back in time");
        d.severity = crate::diagnostic::Severity::Warning;
        d
    }

    fn refusal(args: &[&str]) -> String {
        match parse_args(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>()) {
            Err(e) => e,
            Ok(_) => format!("accepted: {args:?}"),
        }
    }

    /// The options the usage text lists: its lines that start with one
    /// (`-h, --help` are two).
    fn usage_options() -> Vec<String> {
        let mut names = Vec::new();
        for line in usage().lines().filter(|l| l.starts_with("  -")) {
            let entry = line.split("  ").nth(1).unwrap_or("");
            for option in entry.split(", ") {
                names.extend(option.split_whitespace().next().filter(|w| w.starts_with('-')).map(String::from));
            }
        }
        names
    }

    #[test]
    fn every_option_the_parser_takes_has_a_row() {
        let usage = usage_options();
        assert_eq!(usage.len(), OPTIONS.len(), "{usage:?}");
        for name in &usage {
            assert!(option_row(name).is_some(), "{name} is in the usage but has no row in OPTIONS");
            // Given a value it takes (or none), the parser accepts it and
            // notes it.
            let parsed = ["1", "asm", "sprite"].iter().find_map(|v| {
                let forms: [&[&str]; 4] = [&["x.anim"], &[], &["--from-aseprite", "x.json"], &["--fmt", "x.anim"]];
                forms.iter().find_map(|rest| {
                    let mut args = vec![name.clone(), v.to_string()];
                    args.extend(rest.iter().map(|s| s.to_string()));
                    parse_args(&args).ok()
                })
            });
            match parsed {
                Some(Some(args)) => assert!(args.given.contains(&name.as_str()), "{name} is not noted"),
                Some(None) => assert!(name == "-h" || name == "--help"),
                None => panic!("{name} from the usage is not accepted"),
            }
        }
        for row in OPTIONS {
            assert!(usage.contains(&row.name.to_string()), "{} is not in the usage", row.name);
        }
    }

    #[test]
    fn an_option_that_does_not_apply_is_refused_naming_the_mode_or_language() {
        assert_eq!(refusal(&["--write", "a.anim"]), "--write only goes with --fmt");
        assert_eq!(
            refusal(&["--fmt", "-o", "b", "a.anim"]),
            "-o only goes with a build or --from-aseprite, not with --fmt"
        );
        assert_eq!(refusal(&["--fmt", "--emit", "asm", "a.anim"]), "--emit only goes with a build, not with --fmt");
        assert_eq!(refusal(&["--check", "--fmt", "a.anim"]), "--check does not go with --fmt");
        assert_eq!(
            refusal(&["--from-aseprite", "h.json", "--lang", "sprite"]),
            "--lang only goes with a build, --check or --fmt, not with --from-aseprite"
        );
        assert_eq!(
            refusal(&["--strict", "a.anim"]),
            "--strict only goes with SLAP sources, and `a.anim` is a sprite source"
        );
        assert_eq!(
            refusal(&["--strict", "a.anim", "b.draw"]),
            "--strict only goes with SLAP sources, and none of the 2 inputs is one (`a.anim` is a sprite source)"
        );
        assert_eq!(
            refusal(&["--tick-ms", "5", "s.slap"]),
            "--tick-ms only goes with Aseprite exports (--from-aseprite or --lang aseprite), and `s.slap` is a SLAP source"
        );
        // What applies is accepted.
        for ok in [
            &["--strict", "a.anim", "s.slap"][..],
            &["--strict", "--lang", "slap", "x.txt"],
            &["--tick-ms", "5", "--lang", "aseprite", "h.json"],
            &["--from-aseprite", "h.json", "--tick-ms", "5", "-o", "h.anim"],
            &["--fmt", "--write", "--lang", "sprite", "a.txt"],
            &["--check", "--no-fold", "--strict", "s.slap"],
            &["--emit", "asm", "--strip", "-o", "x.asm", "a.anim"],
            &["--strict", "x.unknown"],
        ] {
            assert!(parse_args(&ok.iter().map(|s| s.to_string()).collect::<Vec<_>>()).is_ok(), "{ok:?}");
        }
    }

    #[test]
    fn warnings_are_printed_as_rustc_prints_them_and_do_not_fail() {
        let mut err = Vec::new();
        assert!(report(Ok(with_warnings(vec![warning(Span::new(12, 13))])), &mut err).is_ok());
        assert_eq!(
            String::from_utf8(err).unwrap(),
            "warning: `time 0` is earlier than the current time 1\n --> a.slap:2:6\n  |\n2 | time 0\n  |      ^ goes back in time\n\nwarning: 1 warning emitted\n"
        );
        let mut err = Vec::new();
        assert!(report(Ok(with_warnings(vec![])), &mut err).is_ok());
        assert!(err.is_empty());
    }

    #[test]
    fn warnings_beside_errors_are_not_counted_as_errors() {
        let mut file = with_warnings(vec![warning(Span::new(12, 13))]).warnings.remove(0);
        file.diagnostics.insert(0, Diagnostic::error(Span::new(0, 4), "bad", "here"));
        let mut err = Vec::new();
        let closing = report(Err(CompileError::Source(vec![file])), &mut err).unwrap_err();
        assert_eq!(closing, "error: could not compile due to 1 previous error\n");
        let err = String::from_utf8(err).unwrap();
        assert!(err.starts_with("error: bad\n") && err.contains("warning: `time 0`"), "{err}");
    }
}
