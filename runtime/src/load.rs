//! Loading what `animvm` is given: a bundle, or a source file compiled on
//! the fly.

use animkit_compiler::{Options, Source, compile};
use animkit_vm::{Program, codec};

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

/// [`load_program`] on bytes already read (`path` names them in messages).
pub fn program_from_bytes(path: &str, bytes: Vec<u8>) -> Result<Program, String> {
    if bytes.starts_with(&codec::MAGIC) {
        return codec::load(&bytes).map_err(|e| format!("error: `{path}`: {e}\n"));
    }
    let text = String::from_utf8(bytes)
        .map_err(|_| format!("error: `{path}` is neither an animkit bundle nor UTF-8 source text\n"))?;
    compile(&[Source::new(path, text)], &Options::default()).map_err(|e| {
        let n = e.count();
        format!("{e}error: could not compile `{path}` due to {n} error{}\n", if n == 1 { "" } else { "s" })
    })
}
