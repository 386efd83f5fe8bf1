//! Loading what `animvm` is given: a bundle, or a source file compiled on
//! the fly.

use animkit_compiler::{Options, Source, compile_with_warnings};
use animkit_vm::{Program, codec};
use std::io::Write;

/// Loads `path`: a bundle (recognised by its magic bytes, then verified) or
/// a source file (compiled; the language follows the extension).
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let p = dir.path().join("hero.anim");
/// std::fs::write(&p, "Idle: 5, _loop\n").unwrap();
/// let program = animkit_runtime::load::load_program(p.to_str().unwrap()).unwrap();
/// assert_eq!(program.modules.len(), 1);
/// ```
pub fn load_program(path: &str) -> Result<Program, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("error: cannot read `{path}`: {e}\n"))?;
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
pub fn load_program_to(path: &str, warnings: &mut dyn Write) -> Result<Program, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("error: cannot read `{path}`: {e}\n"))?;
    program_from_bytes_to(path, bytes, warnings)
}

/// [`load_program`] on bytes already read (`path` names them in messages).
/// A source compiled on the fly may have warnings: they go to standard
/// error, as `animc` prints them ([`program_from_bytes_to`] takes another
/// stream).
pub fn program_from_bytes(path: &str, bytes: Vec<u8>) -> Result<Program, String> {
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
pub fn program_from_bytes_to(path: &str, bytes: Vec<u8>, warnings: &mut dyn Write) -> Result<Program, String> {
    if bytes.starts_with(&codec::MAGIC) {
        return codec::load(&bytes).map_err(|e| format!("error: `{path}`: {e}\n"));
    }
    let text = String::from_utf8(bytes)
        .map_err(|_| format!("error: `{path}` is neither an animkit bundle nor UTF-8 source text\n"))?;
    match compile_with_warnings(&[Source::new(path, text)], &Options::default()) {
        Ok(compiled) => {
            let rendered = compiled.render_warnings();
            if !rendered.is_empty() {
                let _ = warnings.write_all(rendered.as_bytes()).and_then(|()| warnings.flush());
            }
            Ok(compiled.program)
        }
        Err(e) => {
            let n = e.count();
            Err(format!("{e}error: could not compile `{path}` due to {n} error{}\n", if n == 1 { "" } else { "s" }))
        }
    }
}
