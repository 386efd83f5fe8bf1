//! The SLAP host: where `animvm` will run SLAP scenes (actors on a stage,
//! headless and in a window, as an app of the shared window loop:
//! `host::window_loop`). Until it lands, a SLAP module is refused with a
//! clear error rather than handed to another language's host.

use animkit_vm::Program;

/// Runs module `index` of `program`, a SLAP module: not implemented yet,
/// so always an error (exit status 1).
///
/// ```
/// let program = animkit_vm::Program::default();
/// assert_eq!(
///     animkit_runtime::slap::run(&program, 0).unwrap_err(),
///     "animvm: running SLAP scenes is not implemented yet\n"
/// );
/// ```
pub fn run(program: &Program, index: usize) -> Result<usize, String> {
    let _ = (program, index);
    Err("animvm: running SLAP scenes is not implemented yet\n".into())
}
