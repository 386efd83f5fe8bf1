//! What the verifier learns of a module while it checks it, handed out
//! with the proof ([`super::Verified::info`]) so that later stages use it
//! rather than derive it again (as naga's validator returns a
//! `ModuleInfo`).

/// The verifier's facts about one module of a [`super::Verified`] program.
///
/// ```
/// let program = animkit_vm::sprite::doc_program();
/// let info = program.info(0).unwrap();
/// // The pc after each `WAIT` of the sprite code, ascending.
/// let code = &program.modules[0].functions[0].code;
/// assert!(!info.resume_points().is_empty());
/// for &pc in info.resume_points() {
///     assert_eq!(code[pc as usize - 1].op(), Some(animkit_vm::isa::Op::Wait));
/// }
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModuleInfo {
    /// For a sprite module: the pc after each `WAIT` of its code, in
    /// ascending order (each inside the code: `fallthrough`). Empty for
    /// other modules.
    pub(super) resume_points: Box<[u32]>,
}

impl ModuleInfo {
    /// Where a sprite module's code resumes after a `WAIT`: the pc after
    /// each, ascending (the sprite planner's resume points besides the
    /// state entries). Empty for Animator and SLAP modules.
    pub fn resume_points(&self) -> &[u32] {
        &self.resume_points
    }
}
