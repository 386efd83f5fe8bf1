//! Running a compiled Animator module: [`Script`] and [`Status`] are the
//! player crate's ([`animkit_player::animator::script`]); this adds the
//! restart on a new build that `animvm --watch` makes ([`restart`]).

pub use animkit_player::animator::script::*;

use crate::Error;
#[cfg(feature = "desktop")]
use crate::host::watch::ProgramWatch;
use crate::player::PlayerError;
#[cfg(feature = "desktop")]
use animkit_vm::Program;
use animkit_vm::engine::{animator::Canvas, verify::Verified};
#[cfg(feature = "desktop")]
use std::io::Write;

/// A script's refusal as the runtime's error: a module that cannot run is
/// [`Error::Module`], as before the player crate held [`Script`].
pub fn module_error(e: PlayerError) -> Error {
    match e {
        PlayerError::Module(m) => Error::Module(m),
        e => Error::from(e),
    }
}

/// `script` started over on `program` (a new build of its file), or, if
/// the build has no such module, `script` as it was, the reason on
/// `stderr`; a restart is announced there.
#[cfg(feature = "desktop")]
pub fn restart<C: Canvas>(
    script: Script<C>,
    program: Verified<Program>,
    watch: &ProgramWatch,
    stderr: &mut dyn Write,
) -> Script<C> {
    match script.restart(program) {
        Ok(s) => {
            let _ = writeln!(stderr, "animvm: reloaded `{}`: the script starts over", watch.file());
            s
        }
        Err(refused) => {
            let (s, error) = *refused;
            watch.refused(&module_error(error), stderr);
            s
        }
    }
}
