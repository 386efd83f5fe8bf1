//! `cargo run --release -p animkit-bench -- [--json] [--quick] [--only PREFIX]...`
//!
//! Prints a readable table, or with `--json` one JSON object whose keys are
//! the figures. See BENCHMARKS.md.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opts = match animkit_bench::Options::parse(&args) {
        Ok(o) => o,
        Err(m) => {
            eprintln!("animkit-bench: {m}\n\n{}", animkit_bench::USAGE);
            return ExitCode::from(2);
        }
    };
    if opts.help {
        println!("{}", animkit_bench::USAGE);
        return ExitCode::SUCCESS;
    }
    let report = animkit_bench::run(&opts);
    if opts.json {
        println!("{}", report.to_json());
    } else {
        print!("{}", report.to_table());
    }
    ExitCode::SUCCESS
}
