//! The sprite viewer in a window: `animvm sprite.animb --sheet ... --state
//! NAME` without `-H` plays the state at 50 ticks per second until the
//! window is closed.
//!
//! Keys: `1`-`9` start the n-th state (in the order of the source), Left
//! and Right start the previous / next state (wrapping around), `R`
//! restarts the current state, `Q` or Escape quits. With `-d head`, the
//! first `--ticks` ticks (default 100) are also written as
//! `headNNNN.png`, as the headless viewer writes them, so a window left
//! open does not fill the disk.

use super::SpriteOptions;
use super::view::{SheetSpec, SpriteView, TICKS_PER_SECOND};
use crate::Error;
use crate::host::sink::{FrameSink, Timing};
use crate::host::ticker::Ticker;
use crate::host::window_loop::{Window, WindowApp, WindowLoop, WindowOptions};
use crate::render::Renderer;
use animkit_vm::engine::sprite::Sprites;
use std::io::Write;
use std::time::Instant;
use winit::event::{ElementState, WindowEvent};
use winit::keyboard::{Key, NamedKey};
use winit::platform::modifier_supplement::KeyEventExtModifierSupplement;

/// The window's title.
pub const TITLE: &str = "animvm sprite viewer: 1-9 state, Left/Right cycle, R restart, Q quit";

/// What a key does in the viewer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Start state number n (0-based).
    State(usize),
    /// Start the previous state.
    Previous,
    /// Start the next state.
    Next,
    /// Restart the current state.
    Restart,
    /// Close the viewer.
    Quit,
}

/// The action of a key (its symbol without modifiers).
///
/// ```
/// use animkit_runtime::sprite::window::{action, Action};
/// use winit::keyboard::{Key, NamedKey};
/// assert_eq!(action(&Key::Character("3".into())), Some(Action::State(2)));
/// assert_eq!(action(&Key::Named(NamedKey::ArrowRight)), Some(Action::Next));
/// assert_eq!(action(&Key::Character("R".into())), Some(Action::Restart));
/// assert_eq!(action(&Key::Named(NamedKey::Escape)), Some(Action::Quit));
/// assert_eq!(action(&Key::Character("0".into())), None);
/// ```
pub fn action(key: &Key) -> Option<Action> {
    match key {
        Key::Named(NamedKey::ArrowLeft) => Some(Action::Previous),
        Key::Named(NamedKey::ArrowRight) => Some(Action::Next),
        Key::Named(NamedKey::Escape) => Some(Action::Quit),
        Key::Character(s) => match s.to_ascii_lowercase().as_str() {
            "q" => Some(Action::Quit),
            "r" => Some(Action::Restart),
            d if d.len() == 1 && ("1"..="9").contains(&d) => Some(Action::State(usize::from(d.as_bytes()[0] - b'1'))),
            _ => None,
        },
        _ => None,
    }
}

/// The state an action starts, given the current state's index and the
/// number of states (`None`: nothing to do).
///
/// ```
/// use animkit_runtime::sprite::window::{target_state, Action};
/// assert_eq!(target_state(&Action::Previous, 0, 3), Some(2));
/// assert_eq!(target_state(&Action::Next, 2, 3), Some(0));
/// assert_eq!(target_state(&Action::State(5), 0, 3), None);
/// assert_eq!(target_state(&Action::Restart, 1, 3), Some(1));
/// ```
pub fn target_state(action: &Action, current: usize, count: usize) -> Option<usize> {
    if count == 0 {
        return None;
    }
    match action {
        Action::State(n) => (*n < count).then_some(*n),
        Action::Previous => Some((current + count - 1) % count),
        Action::Next => Some((current + 1) % count),
        Action::Restart => Some(current),
        Action::Quit => None,
    }
}

/// Plays `state` of `sprites` in a window until it is closed.
pub fn run(
    options: &SpriteOptions,
    sprites: Sprites,
    state: &str,
    sheets: Vec<SheetSpec>,
    stderr: &mut dyn Write,
) -> Result<usize, Error> {
    let window_loop = WindowLoop::<()>::new()?;
    let window = WindowOptions { width: options.width, height: options.height, title: TITLE.into(), resizable: true };
    let mut app = SpriteApp {
        view: None,
        renderer: None,
        options,
        setup: Some((sprites, state.to_string(), sheets)),
        stderr,
        ticker: Ticker::new(TICKS_PER_SECOND, Instant::now()),
        watch: if options.watch { Some(super::reload::Reloader::new(&options.file)?) } else { None },
        tick: 0,
        sink: FrameSink::new(options.dump_head.as_deref(), None, Timing::Rate(f64::from(TICKS_PER_SECOND))),
    };
    let result = window_loop.run(&window, &mut app);
    app.sink.finish()?;
    result.map(|()| 0)
}

struct SpriteApp<'a> {
    view: Option<SpriteView>,
    renderer: Option<Renderer>,
    options: &'a SpriteOptions,
    setup: Option<(Sprites, String, Vec<SheetSpec>)>,
    stderr: &'a mut dyn Write,
    ticker: Ticker,
    /// `--watch`.
    watch: Option<super::reload::Reloader>,
    tick: u64,
    /// `-d`: the first `--ticks` frames.
    sink: FrameSink,
}

impl SpriteApp<'_> {
    /// One tick: advance, draw, and write the `-d` frame.
    fn step(&mut self) -> Result<(), Error> {
        let (Some(view), Some(r)) = (self.view.as_mut(), self.renderer.as_mut()) else { return Ok(()) };
        view.tick();
        view.draw(r);
        if self.tick < self.options.ticks && self.sink.wants_frames() {
            self.sink.frame(&r.read_pixels())?;
        }
        self.tick += 1;
        Ok(())
    }

    fn act(&mut self, window: &mut Window<'_>, action: Action) {
        if action == Action::Quit {
            window.exit();
            return;
        }
        let Some(view) = self.view.as_mut() else { return };
        let sprites = view.sprites().clone();
        let current = view.instance().state() as usize;
        if let Some(n) = target_state(&action, current, sprites.state_count()) {
            if let Err(e) = view.set_state(sprites.state_name(n as u16)) {
                let _ = writeln!(self.stderr, "animvm: {e}");
            }
        }
    }
}

impl WindowApp for SpriteApp<'_> {
    type Event = ();

    fn start(&mut self, _window: &mut Window<'_>, mut renderer: Renderer) -> Result<(), Error> {
        let Some((sprites, state, sheets)) = self.setup.take() else { return Ok(()) };
        let view = SpriteView::new(sprites.clone(), &state, &sheets, &mut renderer).map_err(|e| {
            let names: Vec<&str> = (0..sprites.state_count()).map(|i| sprites.state_name(i as u16)).collect();
            Error::Module(format!("{e}; the states are: {}", names.join(", ")))
        })?;
        self.view = Some(view);
        self.renderer = Some(renderer);
        self.ticker.restart(Instant::now());
        Ok(())
    }

    fn renderer(&mut self) -> Option<&mut Renderer> {
        self.renderer.as_mut()
    }

    fn resized(&mut self, _window: &mut Window<'_>, width: u32, height: u32) {
        if let (Some(r), Some(view)) = (self.renderer.as_mut(), self.view.as_ref()) {
            if r.size() != (width, height) && r.resize(width, height, false).is_ok() {
                view.draw(r);
            }
        }
    }

    fn input(&mut self, window: &mut Window<'_>, event: WindowEvent) {
        if let WindowEvent::KeyboardInput { event, is_synthetic: false, .. } = event {
            if event.state == ElementState::Pressed && !event.repeat {
                if let Some(a) = action(&event.key_without_modifiers()) {
                    self.act(window, a);
                }
            }
        }
    }

    fn deadline(&self) -> Option<Instant> {
        self.view.as_ref().map(|_| self.ticker.next())
    }

    fn wake(&mut self, window: &mut Window<'_>) {
        if let (Some(w), Some(view)) = (self.watch.as_mut(), self.view.as_mut()) {
            if let Some(new) = w.poll(view.sprites(), &mut *self.stderr) {
                view.reload(&new, &self.options.file, &mut *self.stderr);
            }
        }
        for _ in 0..self.ticker.due(Instant::now()) {
            if let Err(e) = self.step() {
                window.fail(e);
                return;
            }
        }
        if let Some(r) = self.renderer.as_mut() {
            window.present(r);
        }
    }

    fn close(&mut self) {
        // Before the window's context goes.
        self.view = None;
        self.renderer = None;
    }
}
