//! `animvm`: runs animkit bundles; a drop-in replacement for `animator`.
//! See `animkit_runtime::run`.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let status = animkit_runtime::run::main(
        &args,
        // Not locked: the window host reads standard input on a thread.
        &mut std::io::stdin(),
        &mut std::io::stdout().lock(),
        &mut std::io::stderr().lock(),
    );
    std::process::exit(status);
}
