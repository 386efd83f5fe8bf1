//! `animc`: compiles animkit sources into a bundle. See `animkit_compiler::cli`.

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

/// Standard output when descriptor 1 is closed: Rust's own `Stdout`
/// reports success for writes to a closed descriptor, and `-o -` would
/// then succeed having written nothing.
struct Closed(std::io::ErrorKind, String);

impl Write for Closed {
    fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
        Err(std::io::Error::new(self.0, self.1.clone()))
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "lsp") {
        std::process::exit(animkit_compiler::lsp::serve_stdio(&args[1..]));
    }
    let stdout = std::io::stdout();
    let mut out: Box<dyn Write> = if STDOUT_CLOSED.load(Ordering::Relaxed) {
        Box::new(Closed(std::io::ErrorKind::Other, "standard output is closed (Bad file descriptor)".into()))
    } else {
        Box::new(stdout.lock())
    };
    let mut status =
        animkit_compiler::cli::run(&args, &mut std::io::stdin().lock(), &mut out, &mut std::io::stderr().lock());
    // What is left in the buffer of a write that already failed (and was
    // said, making the status 1) fails again here: said once.
    if let Err(e) = out.flush() {
        if status == 0 {
            eprintln!("error: cannot write output: {e}");
        }
        status = status.max(1);
    }
    std::process::exit(status);
}
