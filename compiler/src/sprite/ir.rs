//! The checked form of a sprite file: what the lowering consumes. Every
//! name is resolved, every number fits the bytecode, every frame has its
//! sprite index, and no state can spin within one tick.

use animkit_grammar::Span;

/// A checked sprite module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpriteIr {
    /// States in source order.
    pub states: Vec<IrState>,
}

/// A checked state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IrState {
    /// The state's name.
    pub name: String,
    /// Its sprite category (alias or name).
    pub category: String,
    /// Frames before the end behaviour.
    pub frames: Vec<IrFrame>,
    /// What happens after the last frame.
    pub end: End,
    /// Custom events of the end frame, fired when it is reached.
    pub end_events: Vec<String>,
    /// Span of the end frame.
    pub end_span: Span,
}

/// A checked frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IrFrame {
    /// Ticks displayed (0 = passed through instantly).
    pub duration: u32,
    /// The sprite it sets, or `None` for a control frame that keeps the
    /// last displayed sprite.
    pub sprite: Option<u32>,
    /// Events fired on entering it.
    pub events: Vec<String>,
    /// Where it is.
    pub span: Span,
}

/// End behaviour of a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// `_loop`: start again from the first frame.
    Loop,
    /// `_wait`: stay on the last displayed sprite until `set_state`.
    Wait,
    /// `_pingpong`: walk the frames backwards, then forwards, for ever.
    PingPong,
    /// A transition to the state with this index (state ids are 16-bit:
    /// [`super::check::MAX_STATES`]).
    Goto(u32),
}
