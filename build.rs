//! Runs LALRPOP over every `.lalrpop` grammar under `grammar/`.
//!
//! The generated parsers land in `$OUT_DIR/<language>/<name>.rs` and are
//! included by `lalrpop_mod!` in `grammar/<language>/mod.rs`.

fn main() {
    println!("cargo:rerun-if-changed=grammar");
    lalrpop::Configuration::new()
        .set_in_dir("grammar")
        .set_out_dir(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"))
        .process()
        .expect("LALRPOP failed to process the grammars in grammar/");
}
