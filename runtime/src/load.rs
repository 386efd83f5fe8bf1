//! Loading what `animvm` is given: a bundle, or a source file compiled on
//! the fly.

use animkit_compiler::files::ReadError;
use animkit_compiler::import::aseprite::{AsepriteOptions, convert};
use animkit_compiler::import::importer;
use animkit_compiler::{Options, Source, compile_with_warnings};
use animkit_vm::Program;
use animkit_vm::engine::codec;
use animkit_vm::engine::verify::{Verified, verify};
use std::io::Write;

/// Whether `path` names an Aseprite JSON export (its extension is `.json`,
/// in any case).
///
/// ```
/// use animkit_runtime::load::is_aseprite;
/// assert!(is_aseprite("art/hero.json") && is_aseprite("HERO.JSON"));
/// assert!(!is_aseprite("hero.anim"));
/// ```
pub fn is_aseprite(path: &str) -> bool {
    std::path::Path::new(path).extension().is_some_and(|e| e.eq_ignore_ascii_case("json"))
}

/// Loads `path`: a bundle (recognised by its magic bytes, then verified) or
/// a source file (compiled, then verified too; the language follows the
/// extension). A `.json`
/// file is an Aseprite export, converted to Sprite DSL source first at 20
/// ms per tick, as `animc --lang aseprite` does ([`is_aseprite`]).
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let p = dir.path().join("hero.anim");
/// std::fs::write(&p, "Idle: 5, _loop\n").unwrap();
/// let program = animkit_runtime::load::load_program(p.to_str().unwrap()).unwrap();
/// assert_eq!(program.modules.len(), 1);
/// ```
pub fn load_program(path: &str) -> Result<Verified<Program>, String> {
    let bytes = read_input(path)?;
    program_from_bytes(path, bytes)
}

/// [`load_program`], writing a compiled source's warnings to `warnings`
/// (`animvm` passes its standard error).
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let p = dir.path().join("s.slap");
/// std::fs::write(&p, "time 10\ntime 5\n").unwrap();
/// let mut warnings = Vec::new();
/// animkit_runtime::load::load_program_to(p.to_str().unwrap(), &mut warnings).unwrap();
/// assert!(String::from_utf8(warnings).unwrap().ends_with("warning: 1 warning emitted\n"));
/// ```
pub fn load_program_to(path: &str, warnings: &mut dyn Write) -> Result<Verified<Program>, String> {
    load_program_with(path, warnings, &Options::default())
}

/// [`load_program_to`], compiling a source with `options` (`animvm
/// --strict` sets [`Options::strict`]; a bundle is loaded as it is).
pub fn load_program_with(path: &str, warnings: &mut dyn Write, options: &Options) -> Result<Verified<Program>, String> {
    let bytes = read_input(path)?;
    program_from_bytes_with(path, bytes, warnings, options)
}

/// Reads what `animvm` is given, within its limits: a file that starts
/// with a bundle's magic bytes may hold a bundle's header and largest
/// payload ([`codec::MAX_PAYLOAD`]); any other is source text, at most
/// [`animkit_vm::engine::limits::MAX_SOURCE_BYTES`]. A larger file is refused
/// before it is read (see [`animkit_compiler::files::read_limited`]).
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let p = dir.path().join("huge.anim");
/// std::fs::File::create(&p).unwrap().set_len(100 << 20).unwrap();
/// let e = animkit_runtime::load::read_input(p.to_str().unwrap()).unwrap_err();
/// assert!(e.ends_with("huge.anim` is 104857600 bytes, more than the 67108864 bytes (64 MiB) a source may have\n"));
/// ```
///
/// A file that starts like a bundle is held to the bundle's limit, and the
/// error says so:
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let p = dir.path().join("huge.animb");
/// std::fs::write(&p, animkit_vm::engine::codec::MAGIC).unwrap();
/// std::fs::OpenOptions::new().write(true).open(&p).unwrap().set_len(1 << 30).unwrap();
/// let e = animkit_runtime::load::read_input(p.to_str().unwrap()).unwrap_err();
/// assert!(e.ends_with("huge.animb` is 1073741824 bytes, more than the 268435476 bytes a bundle may have\n"), "{e}");
/// ```
pub fn read_input(path: &str) -> Result<Vec<u8>, String> {
    let limit = |head: &[u8]| {
        if head.starts_with(&codec::MAGIC) {
            (codec::HEADER_LEN + codec::MAX_PAYLOAD) as u64
        } else {
            animkit_vm::engine::limits::MAX_SOURCE_BYTES
        }
    };
    animkit_compiler::files::read_limited(std::path::Path::new(path), limit).map_err(|e| {
        let noun = match e {
            ReadError::TooBig { limit, .. } if limit != animkit_vm::engine::limits::MAX_SOURCE_BYTES => "a bundle",
            _ => "a source",
        };
        e.message_for(&format!("`{path}`"), noun)
    })
}

/// [`load_program`] on bytes already read (`path` names them in messages).
/// A source compiled on the fly may have warnings: they go to standard
/// error, as `animc` prints them ([`program_from_bytes_to`] takes another
/// stream).
pub fn program_from_bytes(path: &str, bytes: Vec<u8>) -> Result<Verified<Program>, String> {
    program_from_bytes_to(path, bytes, &mut std::io::stderr().lock())
}

/// [`program_from_bytes`], writing a compiled source's warnings to
/// `warnings` (rustc's format, then `warning: N warnings emitted`).
///
/// ```
/// let mut warnings = Vec::new();
/// let p = animkit_runtime::load::program_from_bytes_to("s.draw", b"echo hi\n".to_vec(), &mut warnings).unwrap();
/// assert_eq!(p.modules.len(), 1);
/// assert!(warnings.is_empty());
/// ```
pub fn program_from_bytes_to(
    path: &str,
    bytes: Vec<u8>,
    warnings: &mut dyn Write,
) -> Result<Verified<Program>, String> {
    program_from_bytes_with(path, bytes, warnings, &Options::default())
}

/// [`program_from_bytes_to`], compiling a source with `options`.
///
/// ```
/// let strict = animkit_compiler::Options { strict: true, ..Default::default() };
/// let src = b"actor 1 size 1\ncamera follow 1\n".to_vec();
/// let e = animkit_runtime::load::program_from_bytes_with("s.slap", src, &mut Vec::new(), &strict).err().unwrap();
/// assert!(e.starts_with("error: `camera follow` is an animkit extension, refused by --strict\n --> s.slap:2:8\n"), "{e}");
/// ```
pub fn program_from_bytes_with(
    path: &str,
    bytes: Vec<u8>,
    warnings: &mut dyn Write,
    options: &Options,
) -> Result<Verified<Program>, String> {
    if bytes.starts_with(&codec::MAGIC) {
        if options.strict {
            // Spec-only mode checks a source as it compiles it.
            return Err(format!(
                "error: --strict is for SLAP sources, and `{path}` is a bundle, compiled already \
                 (build it with `animc --strict` to check it in spec-only mode)\n"
            ));
        }
        return codec::load(&bytes).map_err(|e| format!("error: `{path}`: {e}\n"));
    }
    if path.ends_with(".animb") {
        // Not a source of any language: say what is wrong with the bundle.
        let n = bytes.len();
        return Err(format!(
            "error: `{path}` is not an animkit bundle: {}\n",
            if n < codec::MAGIC.len() {
                format!("it is {n} byte{} long, shorter than the 8-byte bundle header", if n == 1 { "" } else { "s" })
            } else {
                "it does not start with the bundle header".to_string()
            }
        ));
    }
    let text = String::from_utf8(bytes)
        .map_err(|_| format!("error: `{path}` is neither an animkit bundle nor UTF-8 source text\n"))?;
    let source = if is_aseprite(path) {
        let converted = convert(path, &text, &AsepriteOptions::default()).map_err(|e| format!("{e}\n"))?;
        let _ = write!(warnings, "{}", converted.render_warnings(path, &text));
        Source {
            path: path.to_string(),
            text: animkit_compiler::driver::line_ends(converted.text),
            // What the importer writes (`import::IMPORTERS`).
            language: importer("aseprite"),
        }
    } else {
        Source::new(path, text)
    };
    match compile_with_warnings(&[source], options) {
        Ok(compiled) => {
            let rendered = compiled.render_warnings();
            if !rendered.is_empty() {
                let _ = warnings.write_all(rendered.as_bytes()).and_then(|()| warnings.flush());
            }
            // What runs is verified, whoever built it: the compiler is
            // upstream of the verifier like any bundle.
            verify(compiled.program).map_err(|e| {
                format!(
                    "error: `{path}`: the compiler built an invalid program: {e}
"
                )
            })
        }
        Err(e) => {
            let n = e.count();
            Err(format!("{e}error: could not compile `{path}` due to {n} error{}\n", if n == 1 { "" } else { "s" }))
        }
    }
}
