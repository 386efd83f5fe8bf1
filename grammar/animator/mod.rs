//! The Animator drawing command language (`.draw`): lexer, AST and the
//! streaming command reader. Filled in by the Animator front-end work.
