//! The sprite DSL back half: [`check`](check::check) the AST into
//! [`ir::SpriteIr`], then [`lower`](lower::lower) it to bytecode.

pub mod check;
pub mod ir;
pub mod lower;
