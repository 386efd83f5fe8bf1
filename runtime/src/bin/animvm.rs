//! `animvm`: runs animkit bundles; a drop-in replacement for `animator`.
//! See `animkit_runtime::run`.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether descriptor 1 was closed when the process started: the Rust
/// runtime then opens `/dev/null` on it before `main`, so it is checked
/// earlier, from the ELF initialisers.
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static CHECK_STDOUT: extern "C" fn() = check_stdout;

#[cfg(target_os = "linux")]
extern "C" fn check_stdout() {
    // SAFETY: descriptor 1 is only duplicated (and the copy closed), never
    // used as a file.
    let fd = unsafe { std::os::fd::BorrowedFd::borrow_raw(1) };
    if fd.try_clone_to_owned().is_err() {
        STDOUT_CLOSED.store(true, Ordering::Relaxed);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let stdout = std::io::stdout();
    // Rust's own `Stdout` reports success for writes to a closed
    // descriptor: a trace, `echo` or help would then succeed having
    // written nothing. The Animator canvas writes through
    // `process_stdout`, which the mark makes fail too.
    let mut out: Box<dyn Write> = if STDOUT_CLOSED.load(Ordering::Relaxed) {
        animkit_runtime::host::mark_stdout_closed();
        Box::new(animkit_runtime::host::ClosedStdout)
    } else {
        Box::new(stdout.lock())
    };
    let mut status = animkit_runtime::run::main(
        &args,
        // Not locked: the window host reads standard input on a thread.
        &mut std::io::stdin(),
        &mut out,
        &mut std::io::stderr().lock(),
    );
    // What is left in the buffer of a write that already failed (and was
    // said, making the status 1) fails again here: said once.
    if let Err(e) = out.flush() {
        if status == 0 {
            eprintln!("animvm: cannot write to standard output: {e}");
        }
        status = status.max(1);
    }
    std::process::exit(status);
}
