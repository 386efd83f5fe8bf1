//! The engine: the instruction set, the bundle codec, the verifier and the
//! interpreters, shared with the compiler, the runtime, the player, the C
//! ABI, the web player, the bench, the fuzz targets and the tests. Not a
//! stable API for games, which use [`crate::game`]; hidden from the
//! documentation.
//!
//! Each module here re-exports the public items of the crate-private
//! module of the same name (`engine::isa` is `crate::isa`'s public
//! items), so the files stay where they are and the crate's own code
//! names them `crate::isa::...`. `work` (what a domain op costs) is
//! used inside the crate only and is not here.
//!
//! | module | what |
//! | --- | --- |
//! | `isa` | the instruction set table (one row per opcode, with its meaning) |
//! | `program` | the in-memory program: strings, modules, functions, states |
//! | `codec` | the `.animb` container: encode, decode, load (= decode + verify) |
//! | `verify` | the verifier and its rules |
//! | `limits` | resource limits shared by the compiler, the verifier and the interpreters |
//! | `sprite` | sprite state machines (instances, batches) under [`crate::game`] |
//! | `interp` | the register interpreter for Animator and SLAP code |
//! | `animator` | Animator semantics (matrices, pen, macros) over a canvas host |
//! | `slap` | SLAP simulation: actions and poses, the stage, the scene player |
//! | `disasm` | the disassembler behind `animc --emit asm` |
//! | `suggest` | "did you mean": the one edit distance, and quoting a name in a message |
//! | `files` | the atomic file write shared by the compiler's and the player's writers |

/// The instruction set table (one row per opcode, with its meaning).
pub mod isa {
    pub use crate::isa::*;
}

/// The in-memory program: strings, modules, functions, states.
pub mod program {
    pub use crate::program::*;
}

/// The `.animb` container: encode, decode, load (= decode + verify).
pub mod codec {
    pub use crate::codec::*;
}

/// The verifier and its rules.
pub mod verify {
    pub use crate::verify::*;
}

/// Resource limits shared by the compiler, the verifier and the
/// interpreters.
pub mod limits {
    pub use crate::limits::*;
}

/// Sprite state machines (instances, batches), under [`crate::game`].
pub mod sprite {
    pub use crate::sprite::*;
}

/// The register interpreter for Animator and SLAP code.
pub mod interp {
    pub use crate::interp::*;
}

/// Animator semantics (matrices, pen, macros) over a canvas host.
pub mod animator {
    pub use crate::animator::*;
}

/// SLAP simulation: actions and poses, the stage, the scene player.
pub mod slap {
    pub use crate::slap::*;
}

/// The disassembler behind `animc --emit asm`.
pub mod disasm {
    pub use crate::disasm::*;
}

/// "Did you mean": the one edit distance, and the rule for quoting a name
/// in a message.
pub mod suggest {
    pub use crate::suggest::*;
}

/// The atomic file write shared by the compiler's and the player's
/// writers.
pub mod files {
    pub use crate::files::*;
}
