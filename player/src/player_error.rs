//! [`PlayerError`], under its public path `player::PlayerError`: a leaf
//! below the [`Player`](crate::player::Player) and the Animator runner
//! ([`Script`](crate::animator::script::Script)), which the player holds
//! and which returns it, so neither imports the other both ways
//! (`runtime/tests/module_graph.rs`).

/// Why a [`Player`](crate::player::Player) refused or could not draw.
/// Every message is one line without a newline and names no program (a
/// host prefixes its own).
///
/// ```
/// use animkit_player::player::PlayerError;
/// assert_eq!(PlayerError::BadSize { width: 0, height: 9 }.to_string(), "cannot draw 0x9 pictures");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayerError {
    /// No module of the bundle has the name asked for.
    #[error("the bundle has no module `{0}`")]
    NoSuchModule(String),
    /// No module was named and the bundle has neither an Animator nor a
    /// SLAP module.
    #[error("the bundle has no Animator or SLAP module")]
    NoPlayableModule,
    /// The module named is a sprite module.
    #[error("a sprite module is drawn by the game (animkit_vm::engine::sprite), not the player")]
    SpriteModule,
    /// A picture size of zero or past
    /// [`MAX_IMAGE_SIZE`](crate::render::MAX_IMAGE_SIZE).
    #[error("cannot draw {width}x{height} pictures")]
    BadSize {
        /// Width asked for, in pixels.
        width: u32,
        /// Height asked for.
        height: u32,
    },
    /// The module cannot be run (the script's or the scene's reason: no
    /// entry function, a module of another language).
    #[error("{0}")]
    Module(String),
    /// The player's renderer could not be made (the renderer's reason).
    #[error("cannot draw: {0}")]
    Gl(String),
    /// A SLAP scene could not be drawn (the renderer's reason).
    #[error("cannot draw the scene: {0}")]
    Draw(String),
    /// The picture could not take the viewport's new size (the
    /// renderer's or the canvas's reason).
    #[error("{0}")]
    Resize(String),
    /// [`Player::seek`](crate::player::Player::seek) past the last frame `animvm` plays.
    #[error("frame {frame} is past the last frame animvm plays ({last})")]
    PastLastFrame {
        /// The frame asked for.
        frame: u64,
        /// [`MAX_FRAME`](crate::slap::MAX_FRAME).
        last: u64,
    },
    /// [`Player::seek`](crate::player::Player::seek) on an Animator program.
    #[error("seek: an Animator program plays on the clock (update)")]
    SeekAnimator,
}
