//! Runs LALRPOP over every `.lalrpop` grammar under `grammar/`, and over
//! the Animator reference grammar, which it first writes from the command
//! table.
//!
//! The generated parsers land in `$OUT_DIR/<language>/<name>.rs` and are
//! included by `lalrpop_mod!` in `grammar/<language>/mod.rs` (the Animator
//! one by `grammar/animator/reference/mod.rs`).
//!
//! `grammar/animator/animator.lalrpop.in` is the Animator grammar without
//! its commands: the tokens, the argument rules, the error alternative of
//! the file. Its markers are filled from the table
//! (`commands/table.rs`, the crate `animkit-commands`, read here as a module) by
//! [`animator::rules`]: a rule per form of every command and an error
//! alternative at every point where a command can be cut.

// The form elements are the grammar crate's own file; the table is the
// crate `animkit-commands` (one file, data only).
#[path = "grammar/animator/reference/generate.rs"]
mod animator;
#[allow(dead_code, unused_imports)]
#[path = "grammar/animator/reader/elem.rs"]
mod elem;
#[allow(unused_macros)]
#[path = "commands/table.rs"]
mod table;

fn main() {
    println!("cargo:rerun-if-changed=grammar");
    println!("cargo:rerun-if-changed=commands/table.rs");
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    lalrpop::Configuration::new()
        .set_in_dir("grammar")
        .set_out_dir(&out)
        .process()
        .expect("LALRPOP failed to process the grammars in grammar/");

    let template = std::fs::read_to_string("grammar/animator/animator.lalrpop.in")
        .expect("grammar/animator/animator.lalrpop.in is there");
    let written = std::path::Path::new(&out).join("generated");
    std::fs::create_dir_all(written.join("animator")).expect("OUT_DIR is writable");
    std::fs::write(written.join("animator/animator.lalrpop"), animator::grammar(&template))
        .expect("OUT_DIR is writable");
    lalrpop::Configuration::new()
        .set_in_dir(&written)
        .set_out_dir(&out)
        .process()
        .expect("LALRPOP failed to process the Animator grammar written from the command table");
}
