//! One animated sprite ([`SpriteInstance`]): a cursor in its module's
//! steps plus its pending events.

use super::plan::{HALTED, INTERPRET, KEEP, KEEP_STATE};
use super::{EventId, SpriteError, Sprites, StateId};

/// Where one instance is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Cursor {
    /// The step to apply when `remaining` reaches 0.
    pub(super) step: u32,
    pub(super) remaining: u32,
    pub(super) sprite: u32,
    pub(super) state: StateId,
}

impl Cursor {
    /// At the entry of state `id` of `s`, entered at the next tick.
    pub(super) fn enter(s: &Sprites, id: StateId) -> Cursor {
        Cursor { step: s.plan.entry[id as usize], remaining: 0, sprite: 0, state: id }
    }
}

/// One animated sprite: a cursor in its module's code plus its pending
/// events.
#[derive(Clone, Debug)]
pub struct SpriteInstance {
    sprites: Sprites,
    cursor: Cursor,
    events: Vec<EventId>,
}

impl SpriteInstance {
    /// A new instance of `sprites` in state `id`.
    pub(super) fn new(sprites: Sprites, id: StateId) -> SpriteInstance {
        let cursor = Cursor::enter(&sprites, id);
        SpriteInstance { sprites, cursor, events: Vec::new() }
    }

    /// Advances one fixed tick (see the module docs for the tick model).
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// let mut i = s.instance("Walk").unwrap();
    /// i.tick(); i.tick(); i.tick();
    /// assert_eq!(i.frame(), 1);
    /// ```
    pub fn tick(&mut self) {
        let c = &mut self.cursor;
        if c.remaining == 0 {
            let plan = &*self.sprites.plan;
            let mut st = plan.steps[c.step as usize];
            if st.ev_len == INTERPRET {
                let m = &self.sprites.program.modules[self.sprites.module];
                let events = &mut self.events;
                st = plan.interpret(m, &st, |e| events.push(e));
            }
            if st.sprite != KEEP {
                c.sprite = st.sprite;
            }
            if st.state != KEEP_STATE {
                c.state = st.state;
            }
            self.events.extend_from_slice(plan.events(&st));
            c.step = st.next;
            c.remaining = st.wait;
        }
        if c.remaining != HALTED {
            c.remaining -= 1;
        }
    }

    /// Switches to state `name` at the start of the next tick. Setting the
    /// state the instance is already in does nothing; use
    /// [`SpriteInstance::restart_state`] to start it over.
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// let mut i = s.instance("Walk").unwrap();
    /// assert!(i.set_state("Nope").is_err());
    /// i.set_state("Walk").unwrap();
    /// ```
    pub fn set_state(&mut self, name: &str) -> Result<(), SpriteError> {
        let id = self.sprites.state_id(name).ok_or_else(|| SpriteError::NoState(name.to_string()))?;
        self.set_state_id(id);
        Ok(())
    }

    /// [`SpriteInstance::set_state`] by id (an id out of range is ignored).
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// let mut i = s.instance("Walk").unwrap();
    /// i.set_state_id(0);
    /// assert_eq!(i.state(), 0);
    /// ```
    pub fn set_state_id(&mut self, id: StateId) {
        if id != self.cursor.state && (id as usize) < self.sprites.state_count() {
            self.restart_state_id(id);
        }
    }

    /// Enters state `name` from its first frame at the next tick, even if
    /// the instance is already in it.
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// let mut i = s.instance("Walk").unwrap();
    /// i.tick(); i.tick(); i.tick();
    /// i.restart_state("Walk").unwrap();
    /// i.tick();
    /// assert_eq!(i.frame(), 0);
    /// ```
    pub fn restart_state(&mut self, name: &str) -> Result<(), SpriteError> {
        let id = self.sprites.state_id(name).ok_or_else(|| SpriteError::NoState(name.to_string()))?;
        self.restart_state_id(id);
        Ok(())
    }

    /// [`SpriteInstance::restart_state`] by id (out of range is ignored).
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// let mut i = s.instance("Walk").unwrap();
    /// i.restart_state_id(0);
    /// ```
    pub fn restart_state_id(&mut self, id: StateId) {
        if (id as usize) < self.sprites.state_count() {
            let sprite = self.cursor.sprite;
            self.cursor = Cursor::enter(&self.sprites, id);
            // The displayed sprite changes only when the next tick enters.
            self.cursor.sprite = sprite;
        }
    }

    /// The current state (after transitions taken so far).
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// assert_eq!(s.instance("Walk").unwrap().state(), 0);
    /// ```
    pub fn state(&self) -> StateId {
        self.cursor.state
    }

    /// The current state's name.
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// assert_eq!(s.instance("Walk").unwrap().state_name(), "Walk");
    /// ```
    pub fn state_name(&self) -> &str {
        self.sprites.state_name(self.cursor.state)
    }

    /// The sprite category to draw from: the state's alias or its name.
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// assert_eq!(s.instance("Walk").unwrap().category(), "Walk");
    /// ```
    pub fn category(&self) -> &str {
        self.sprites.category(self.cursor.state)
    }

    /// The sprite index displayed during the last tick.
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// let mut i = s.instance("Walk").unwrap();
    /// i.tick();
    /// assert_eq!(i.frame(), 0);
    /// ```
    pub fn frame(&self) -> u32 {
        self.cursor.sprite
    }

    /// True once the instance stopped on a `_wait`.
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// assert!(!s.instance("Walk").unwrap().is_waiting());
    /// ```
    pub fn is_waiting(&self) -> bool {
        self.cursor.remaining == HALTED
    }

    /// Removes and yields the events fired since the last drain, in order.
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// let mut i = s.instance("Walk").unwrap();
    /// i.tick();
    /// assert_eq!(i.drain_events().count(), 1);
    /// assert_eq!(i.drain_events().count(), 0);
    /// ```
    pub fn drain_events(&mut self) -> std::vec::Drain<'_, EventId> {
        self.events.drain(..)
    }

    /// The module this instance belongs to.
    ///
    /// ```
    /// # let s = animkit_vm::sprite::Sprites::first(animkit_vm::sprite::doc_program()).unwrap();
    /// assert_eq!(s.instance("Walk").unwrap().sprites().name(), "hero");
    /// ```
    pub fn sprites(&self) -> &Sprites {
        &self.sprites
    }
}
