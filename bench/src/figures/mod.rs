//! One module per figure group. To add figures, write a module
//! with a type implementing [`Group`] and list it in [`all`].

use crate::{Context, Report};

pub mod bundle;
pub mod compile;
pub mod gl;
pub mod load;
pub mod lsp;
pub mod slap;
pub mod slap_gl;
pub mod sprite_mixed;
pub mod sprites;
pub mod startup;
pub mod stream;
pub mod web;

/// A group of figures measured together (sharing set-up).
pub trait Group {
    /// Short name, used by `--only`.
    fn name(&self) -> &'static str;
    /// One line for the progress display.
    fn what(&self) -> &'static str;
    /// Measures the group's figures into `report`.
    fn run(&self, cx: &mut Context, report: &mut Report);
}

/// Every group, in the order they run.
pub fn all() -> Vec<Box<dyn Group>> {
    vec![
        Box::new(sprites::Sprites),
        Box::new(sprite_mixed::SpriteMixed),
        Box::new(compile::Compile),
        Box::new(compile::CompileAnimator),
        Box::new(bundle::Bundle),
        Box::new(load::Load),
        Box::new(stream::StreamCpu),
        Box::new(gl::Gl),
        Box::new(startup::Startup),
        Box::new(slap::Slap),
        Box::new(slap_gl::SlapGl),
        Box::new(lsp::Lsp),
        Box::new(web::Web),
    ]
}

/// Compiles one sprite source into a `Sprites` handle (via bundle bytes and
/// the verifying loader, as a game gets it).
pub fn sprites_from(src: &str, module: &str) -> animkit_vm::engine::sprite::Sprites {
    let sources = [animkit_compiler::Source::new(format!("{module}.anim"), src)];
    let program = animkit_compiler::compile(&sources, &Default::default()).unwrap_or_else(|e| panic!("{e}"));
    let program = animkit_vm::engine::codec::load(&animkit_vm::engine::codec::encode(&program)).expect("bundle loads");
    animkit_vm::engine::sprite::Sprites::new(std::sync::Arc::new(program), module).expect("module")
}

/// `1e3`, `1e4`, ... for key suffixes.
pub fn pow10_name(n: usize) -> String {
    format!("1e{}", (n as f64).log10().round() as i32)
}
