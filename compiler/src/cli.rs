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
//!   the language table (`animkit_vm::program::Language`).
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
//! - Warnings are printed as rustc prints them (`warning: ...`, then
//!   `warning: N warnings emitted`); on their own they leave the exit
//!   status 0.

use crate::driver::{CompileError, Compiled, Options, Source, compile_with_warnings};
use animkit_vm::program::Language;
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
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
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
                if crate::import::importer(&name) {
                    a.aseprite = true;
                    a.lang = Some(Language::Sprite);
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
        return Ok(Some(a));
    }
    if a.inputs.is_empty() {
        return Err("no input files".into());
    }
    if a.write && !a.fmt {
        return Err("--write only goes with --fmt".into());
    }
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
            let buf = crate::files::read_to_limit(stdin, animkit_vm::limits::MAX_SOURCE_BYTES)
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
        Emit::Bundle => (animkit_vm::codec::encode(&program), default_output(&args.inputs[0])),
        Emit::Asm => (animkit_vm::disasm::disassemble(&program).into_bytes(), None),
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
