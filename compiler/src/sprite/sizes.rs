//! The sizes of sprite code that the checkers and lowering share: how many
//! instructions a frame and a state take. The checkers (the tree's
//! `check.rs` and the one-pass `flat.rs`) count them to keep a module
//! within jump range (`check::MAX_CODE`); lowering (`lower.rs`) emits
//! exactly these, which it asserts. All three import this module, which
//! imports only the IR, so no checker imports lowering.

use super::ir::{End, IrFrame, IrState};

/// Instructions of one timed frame: `SPRITE` when it sets one, an `EVENT`
/// per event, and `WAIT` when it lasts.
pub fn frame_code_len(sets_sprite: bool, events: u64, duration: u32) -> u64 {
    sets_sprite as u64 + events + (duration > 0) as u64
}

/// Instructions of a state from its parts: `SPRITE 0` at its entry unless
/// its first frame sets a sprite (`first_sets_sprite`, false when it has
/// no frame), its frames (`frames`, of which the last takes `last_frame`),
/// its end events, the end's own instruction, and for `_pingpong` the way
/// back (every frame but the last again).
pub fn state_code_len_of(first_sets_sprite: bool, frames: u64, last_frame: u64, end_events: u64, end: End) -> u64 {
    let mut n = !first_sets_sprite as u64 + frames + end_events + 1;
    if end == End::PingPong {
        n += frames - last_frame;
    }
    n
}

/// The number of instructions lowering emits for state `s`.
pub fn state_code_len(s: &IrState) -> u64 {
    let frame_len = |fr: &IrFrame| frame_code_len(fr.sprite.is_some(), fr.events.len() as u64, fr.duration);
    let first_sets_sprite = s.frames.first().is_some_and(|fr| fr.sprite.is_some());
    let frames = s.frames.iter().map(frame_len).sum::<u64>();
    let last = s.frames.last().map_or(0, frame_len);
    state_code_len_of(first_sets_sprite, frames, last, s.end_events.len() as u64, s.end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::ProgramBuilder;

    /// Every state's length is what lowering emits for it alone, for each
    /// end and for frames with and without sprites, events and durations.
    #[test]
    fn state_lengths_are_what_lowering_emits() {
        let text = "A: 0, 1, _loop\n\
                    B: 2, 3, _wait\n\
                    C[c]: 4|ev, 5|2|a|b, _pingpong|end\n\
                    D: 0|x, 1, C|y|z\n\
                    E: 7, 3, _pingpong\n\
                    F: 0, 9|3, _loop|e\n";
        let (ast, syntax) = animkit_grammar::sprite::parse(text);
        assert!(syntax.is_empty(), "{syntax:?}");
        let ir = super::super::check::check(&ast).unwrap();
        let mut lens = Vec::new();
        for s in &ir.states {
            let one = crate::sprite::ir::SpriteIr { states: vec![s.clone()] };
            let mut b = ProgramBuilder::new();
            let module = super::super::lower::lower(&one, "m", &mut b, None);
            let emitted = module.functions[0].code.len() as u64;
            assert_eq!(state_code_len(s), emitted, "{}", s.name);
            lens.push(emitted);
        }
        // A: SPRITE 0, SPRITE WAIT, JMP. C: SPRITE EVENT WAIT, SPRITE EVENT EVENT WAIT,
        // EVENT, the way back (SPRITE EVENT WAIT), JMP. D: SPRITE 0, EVENT,
        // SPRITE WAIT, EVENT EVENT, ENTER.
        assert_eq!(lens, [4, 5, 12, 7, 7, 5]);
    }
}
