//! What the verifier learns of a module while it checks it, handed out
//! with the proof ([`super::Verified::info`]) so that later stages use it
//! rather than derive it again (as naga's validator returns a
//! `ModuleInfo`).

/// The verifier's facts about one module of a [`super::Verified`] program.
///
/// ```
/// let program = animkit_vm::engine::sprite::doc_program();
/// let info = program.info(0).unwrap();
/// // The pc after each `WAIT` of the sprite code, ascending.
/// let code = &program.modules[0].functions[0].code;
/// assert!(!info.resume_points().is_empty());
/// for &pc in info.resume_points() {
///     assert_eq!(code[pc as usize - 1].op(), Some(animkit_vm::engine::isa::Op::Wait));
/// }
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModuleInfo {
    /// For a sprite module: the pc after each `WAIT` of its code, in
    /// ascending order (each inside the code: `fallthrough`). Empty for
    /// other modules.
    pub(super) resume_points: Box<[u32]>,
    /// For a SLAP module: the sum of the `WAIT` operands of its entry
    /// function. 0 for other modules.
    pub(super) entry_waits: u64,
}

impl ModuleInfo {
    /// Where a sprite module's code resumes after a `WAIT`: the pc after
    /// each, ascending (the sprite planner's resume points besides the
    /// state entries). Empty for Animator and SLAP modules.
    pub fn resume_points(&self) -> &[u32] {
        &self.resume_points
    }

    /// For a SLAP module: the ticks its entry function's `WAIT`s add up to
    /// (the scene's last time point: straight-line code in what the
    /// compiler emits). 0 for Animator and sprite modules.
    ///
    /// ```
    /// use animkit_vm::engine::slap::SceneAsm;
    /// let program = SceneAsm::new().finish("intro").unwrap();
    /// assert_eq!(program.info(0).unwrap().entry_waits(), 0);
    /// ```
    pub fn entry_waits(&self) -> u64 {
        self.entry_waits
    }
}
