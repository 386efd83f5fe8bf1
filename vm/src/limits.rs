//! Resource limits: the sizes and counts that untrusted input could
//! otherwise make absurd. The compiler rejects sources beyond them with a
//! positioned error (`animkit_compiler::animator::check` re-exports these
//! values), the verifier rejects bundles beyond them (rule `block`), and the
//! interpreters stop runaway execution with a runtime error at the command
//! that started it.
//!
//! | limit | value | enforced by |
//! | --- | --- | --- |
//! | [`MAX_SOURCE_BYTES`] | 64 MiB of source text per file (and on `animc`'s standard input) | `animc`, `animvm` (before reading the file) |
//! | [`MAX_POINTS`] | 1 000 000 points in one point list | Animator reader, compiler, verifier |
//! | [`MAX_CIRCLE_VERTICES`] | 65 536 vertices of one circle | compiler, verifier |
//! | [`MAX_WINDOW`] | 16 384 pixels a side (`resize`) | compiler, verifier |
//! | [`MAX_IMAGE`] | 8 192 pixels a side (`image W H`, `image_set` position) | compiler, verifier, renderer |
//! | [`MAX_DASH`] | 16-bit dash pattern | compiler, verifier |
//! | [`MAX_CURSOR_HOT`] | cursor hot spot column/row 0..=31 | compiler, verifier |
//! | [`MAX_STRING`] | 1 MiB string arguments | compiler |
//! | [`MAX_STATES`] | 65 535 states in one sprite module (state ids are 16-bit) | compiler, verifier |
//! | [`MAX_AREAS`], [`MAX_AREA_BYTES`] | 4 096 areas, 64 MiB of names and points | Animator machine ([`crate::animator::machine::HostLimits`]) |
//! | [`MAX_IMAGES`], [`MAX_CURSORS`], [`MAX_NAME_BYTES`] | 1 024 images, 1 024 cursors, 16 MiB of their names | Animator machine |
//! | [`MAX_STEPS`] | 16 777 216 work units per top-level call | interpreter ([`crate::interp::Limits`]) |
//! | [`MAX_DEPTH`] | 1 000 nested calls | interpreter ([`crate::interp::Limits`]) |
//! | [`MAX_SLAP_NESTING`] | 64 levels of expression nesting in a SLAP argument | SLAP grammar |
//! | [`MAX_SLAP_ACTORS`] | 1 048 576 distinct actors | SLAP checker, SLAP stage ([`crate::slap::Stage`]) |
//! | [`MAX_SLAP_DEFINES`] | 65 536 distinct define names | SLAP checker |
//! | [`MAX_SLAP_DEFINE_VALUES`] | 64 values in one define | SLAP checker |
//! | [`MAX_SLAP_TIME_POINTS`] | 16 777 216 time directives | SLAP checker |
//! | [`MAX_SLAP_FRAME`] | frame 16 777 215 (the 24-bit `WAIT` operand) | SLAP checker |
//!
//! The matrix stack and `viewport NAME` nesting limits live with the
//! Animator machine ([`crate::animator::machine::MAX_MATRIX_STACK`],
//! [`crate::animator::machine::MAX_MEASURE_DEPTH`]).

/// Most bytes of one source file (`.anim`, `.draw`, `.slap`, an Aseprite
/// export), and of a source `animc` reads from standard input: a file
/// larger is refused before it is read (`animkit_compiler::files::read_source`),
/// so that its size alone cannot exhaust memory. 64 MiB is the Animator
/// reader's longest command, and many times the largest real source.
pub const MAX_SOURCE_BYTES: u64 = 64 << 20;
/// Most points in one point list (`lines`, `poly`, `area`, `imgpoly`,
/// `echopt`).
pub const MAX_POINTS: usize = 1_000_000;
/// Most vertices of one `circle` / `fillcircle`.
pub const MAX_CIRCLE_VERTICES: u32 = 65_536;
/// Largest `resize` width or height.
pub const MAX_WINDOW: u32 = 16_384;
/// Largest image width or height (`image W H NAME`), and largest
/// `image_set` column or row.
pub const MAX_IMAGE: u32 = 8_192;
/// Largest dash pattern (16 bits).
pub const MAX_DASH: u32 = 0xffff;
/// Largest cursor hot-spot column or row (cursors are 32x32).
pub const MAX_CURSOR_HOT: u32 = 31;
/// Most states in one sprite module ([`crate::sprite::StateId`] is 16-bit).
pub const MAX_STATES: usize = u16::MAX as usize;
/// Longest string argument, in bytes.
pub const MAX_STRING: usize = 1 << 20;
/// Most areas a program may hold at once.
pub const MAX_AREAS: usize = 4096;
/// Most bytes the areas may take: their names plus 16 bytes per point.
pub const MAX_AREA_BYTES: u64 = 64 << 20;
/// Most images a program may hold at once (`image`; the renderer caps
/// their pixels too).
pub const MAX_IMAGES: usize = 1024;
/// Most cursors a program may define.
pub const MAX_CURSORS: usize = 1024;
/// Most bytes of names the images, and the cursors, may take.
pub const MAX_NAME_BYTES: u64 = 16 << 20;
/// Most work units one top-level call may take before it is stopped: every
/// instruction counts one, plus one per point or vertex it processes and
/// one per 64 bytes of text. Execution at the entry function's own level is
/// bounded by its length (the verifier forbids loops without `WAIT`), so
/// this bounds every run between two suspensions.
pub const MAX_STEPS: u64 = 1 << 24;
/// Deepest call nesting.
pub const MAX_DEPTH: usize = 1000;

// ---- SLAP ----------------------------------------------------------------

/// Deepest nesting of one SLAP argument expression: each parenthesis,
/// binary operator and unary minus adds a level above its operands. The
/// grammar (`animkit_grammar::slap::MAX_NESTING`, which must equal this)
/// refuses deeper expressions while parsing, so that no recursive pass
/// over a tree can overflow the stack.
pub const MAX_SLAP_NESTING: usize = 64;
/// Most distinct actor ids one scene may name (the checker's error; the
/// stage refuses more at run time, so a hostile bundle cannot grow it
/// further).
pub const MAX_SLAP_ACTORS: usize = 1 << 20;
/// Most distinct names one scene may define (redefinitions do not count).
pub const MAX_SLAP_DEFINES: usize = 65_536;
/// Most values one `define` may hold, after expansion of the names in it.
pub const MAX_SLAP_DEFINE_VALUES: usize = 64;
/// Most `time` / `timep` directives in one scene.
pub const MAX_SLAP_TIME_POINTS: usize = 1 << 24;
/// The largest frame a scene may name (the 24-bit operand of `WAIT`).
pub const MAX_SLAP_FRAME: u32 = (1 << 24) - 1;
/// Most numbers one scene's commands may hold: every number of every
/// argument's arithmetic (a literal, or a name's value), which is how many
/// constants the lowering needs with constant folding off (with it on, one
/// per argument, never more). It is what `LOADKX` can address (its
/// `EXTRAARG` has 24 bits), so that lowering cannot fail.
pub const MAX_SLAP_CONSTANTS: usize = 1 << 24;
