//! A reference interpreter for the Sprite Animator DSL, written directly
//! from `sprite-dsl.md` over the AST, as plainly as possible: it walks each
//! state's frame list with an index and a direction. It shares nothing with
//! the checker, the lowering or the VM.

use animkit_grammar::sprite::ast::{File, Frame};

/// One frame as the spec describes it.
#[derive(Clone, Debug)]
enum RefFrame {
    /// Display for `duration` ticks (0: pass through). `sprite` is `None` for
    /// a control frame that keeps the sprite on screen.
    Timed { duration: u32, sprite: Option<u32>, events: Vec<String> },
    /// The last, events-only frame.
    End { head: String, events: Vec<String> },
}

#[derive(Clone, Debug)]
struct RefState {
    name: String,
    category: String,
    frames: Vec<RefFrame>,
}

/// The observable result of one tick.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefTick {
    pub state: String,
    pub category: String,
    pub frame: u32,
    pub events: Vec<String>,
}

/// An instance walking a state's frames.
pub struct RefInstance {
    states: Vec<RefState>,
    state: usize,
    index: i64,
    direction: i64,
    remaining: u32,
    waiting: bool,
    entering: bool,
    sprite: u32,
    events: Vec<String>,
}

fn num(text: &str) -> u32 {
    text.parse().expect("valid program")
}

impl RefInstance {
    /// A new instance of `file` in state `start`.
    pub fn new(file: &File, start: &str) -> RefInstance {
        let states: Vec<RefState> = file
            .states
            .iter()
            .map(|s| {
                // "If you don't specify a frame index, it auto-increments";
                // an explicit index moves the counter on from there.
                let mut counter = 0;
                let frames = s
                    .frames
                    .iter()
                    .map(|f| match f {
                        Frame::Timed { duration, index, events, .. } => {
                            let duration = num(&duration.text);
                            let sprite = match index {
                                Some(i) => {
                                    counter = num(&i.text) + 1;
                                    Some(num(&i.text))
                                }
                                None if duration == 0 => None,
                                None => {
                                    counter += 1;
                                    Some(counter - 1)
                                }
                            };
                            RefFrame::Timed {
                                duration,
                                sprite,
                                events: events.iter().map(|e| e.text.clone()).collect(),
                            }
                        }
                        Frame::Control { head, events, .. } => RefFrame::End {
                            head: head.text.clone(),
                            events: events.iter().map(|e| e.text.clone()).collect(),
                        },
                    })
                    .collect();
                RefState {
                    name: s.name.text.clone(),
                    category: s.category.as_ref().unwrap_or(&s.name).text.clone(),
                    frames,
                }
            })
            .collect();
        let state = states.iter().position(|s| s.name == start).expect("start state exists");
        RefInstance {
            states,
            state,
            index: 0,
            direction: 1,
            remaining: 0,
            waiting: false,
            entering: true,
            sprite: 0,
            events: Vec::new(),
        }
    }

    fn enter(&mut self, state: usize) {
        self.state = state;
        self.index = 0;
        self.direction = 1;
        self.sprite = 0;
        self.waiting = false;
    }

    /// `set_state`: no effect when already in that state.
    #[allow(dead_code)] // sprite_clock.rs applies phases, so it restarts itself
    pub fn set_state(&mut self, name: &str) {
        if self.states[self.state].name != name {
            self.restart_state(name);
        }
    }

    /// `restart_state`: enter `name` from its first frame at the next tick.
    pub fn restart_state(&mut self, name: &str) {
        self.state = self.states.iter().position(|s| s.name == name).expect("state exists");
        self.entering = true;
        self.waiting = false;
        self.remaining = 0;
    }

    /// What the instance shows now, without ticking (no events).
    #[allow(dead_code)] // used by sprite_clock.rs, not by every test that includes this file
    pub fn observe(&self) -> RefTick {
        let s = &self.states[self.state];
        RefTick { state: s.name.clone(), category: s.category.clone(), frame: self.sprite, events: Vec::new() }
    }

    /// One tick.
    pub fn tick(&mut self) -> RefTick {
        if self.entering {
            self.entering = false;
            let s = self.state;
            self.enter(s);
            self.walk();
        } else if !self.waiting && self.remaining == 0 {
            self.index += self.direction;
            self.walk();
        }
        if !self.waiting {
            self.remaining -= 1;
        }
        let s = &self.states[self.state];
        RefTick {
            state: s.name.clone(),
            category: s.category.clone(),
            frame: self.sprite,
            events: std::mem::take(&mut self.events),
        }
    }

    /// Enters frames from `self.index` on until one is displayed for a
    /// positive number of ticks, or the instance waits.
    fn walk(&mut self) {
        loop {
            let frames = &self.states[self.state].frames;
            // Walking backwards past the first frame turns forward again,
            // skipping back two so that frame 0 is not shown twice.
            if self.index < 0 {
                self.direction = 1;
                self.index += 2;
                continue;
            }
            match frames[self.index as usize].clone() {
                RefFrame::Timed { duration, sprite, events } => {
                    if let Some(sp) = sprite {
                        self.sprite = sp;
                    }
                    self.events.extend(events);
                    if duration > 0 {
                        self.remaining = duration;
                        return;
                    }
                    self.index += self.direction;
                }
                RefFrame::End { head, events } => {
                    self.events.extend(events);
                    match head.as_str() {
                        "_loop" => self.index = 0,
                        "_wait" => {
                            self.waiting = true;
                            return;
                        }
                        "_pingpong" => {
                            // "When the ping-pong event fires, it skips back 2
                            // frames to avoid displaying the last frame twice."
                            self.direction = -1;
                            self.index -= 2;
                        }
                        target => {
                            let t = self.states.iter().position(|s| s.name == target).expect("target exists");
                            self.enter(t);
                        }
                    }
                }
            }
        }
    }
}

impl RefInstance {
    /// Whether the instance is held at a `_wait` frame (after its last
    /// tick): it stays on that frame until `set_state` / `restart_state`.
    /// (Not every test that includes this file asks.)
    #[allow(dead_code)]
    pub fn is_waiting(&self) -> bool {
        self.waiting
    }
}
