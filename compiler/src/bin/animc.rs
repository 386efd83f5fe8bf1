//! `animc`: compiles animkit sources into a bundle. See `animkit_compiler::cli`.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "lsp") {
        std::process::exit(animkit_compiler::lsp::serve_stdio(&args[1..]));
    }
    let status = animkit_compiler::cli::run(
        &args,
        &mut std::io::stdin().lock(),
        &mut std::io::stdout().lock(),
        &mut std::io::stderr().lock(),
    );
    std::process::exit(status);
}
