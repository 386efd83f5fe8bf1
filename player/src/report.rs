//! One-line error reports for programs that keep running after an error:
//! `FILE:LINE:COL: error: MESSAGE`.

use animkit_vm::engine::interp::RuntimeError;
use std::io::Write;

/// Writes one error line and flushes it.
///
/// ```
/// let mut out = Vec::new();
/// animkit_player::report::error_line(&mut out, "<stdin>", Some((3, 7)), "no macro named `x`");
/// assert_eq!(String::from_utf8(out).unwrap(), "<stdin>:3:7: error: no macro named `x`\n");
/// ```
pub fn error_line(out: &mut dyn Write, file: &str, pos: Option<(u32, u32)>, message: &str) {
    let _ = match pos {
        Some((l, c)) => writeln!(out, "{file}:{l}:{c}: error: {message}"),
        None => writeln!(out, "{file}: error: {message}"),
    };
    let _ = out.flush();
}

/// [`error_line`] for a runtime error.
pub fn runtime_error(out: &mut dyn Write, file: &str, e: &RuntimeError) {
    error_line(out, file, e.position, &e.message);
}
