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

use super::gl_window::GlWindow;
use crate::cli::Args;
use crate::render::Renderer;
use crate::sprite_view::{SheetSpec, SpriteView, TICKS_PER_SECOND};
use animkit_vm::sprite::Sprites;
use std::io::Write;
use std::time::{Duration, Instant};
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{ElementState, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow};
use winit::keyboard::{Key, NamedKey};
use winit::platform::modifier_supplement::KeyEventExtModifierSupplement;
use winit::window::{WindowAttributes, WindowId};

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
/// use animkit_runtime::host::sprite_window::{action, Action};
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
/// use animkit_runtime::host::sprite_window::{target_state, Action};
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
    args: &Args,
    sprites: Sprites,
    state: &str,
    sheets: Vec<SheetSpec>,
    stderr: &mut dyn Write,
) -> Result<usize, String> {
    let event_loop = super::gl_window::event_loop::<()>()
        .map_err(|e| format!("animvm: cannot open a window: {e}; run with -H for headless mode\n"))?;
    let mut app = SpriteApp {
        view: None,
        renderer: None,
        gfx: None,
        args,
        setup: Some((sprites, state.to_string(), sheets)),
        stderr,
        next_tick: Instant::now(),
        tick: 0,
        fatal: None,
        exiting: false,
        progress: std::io::IsTerminal::is_terminal(&std::io::stderr()),
    };
    let result = event_loop.run_app(&mut app);
    if app.progress && args.dump_head.is_some() && app.tick > 0 {
        eprintln!();
    }
    let fatal = app.fatal.take();
    drop(app);
    if let Some(message) = fatal {
        return Err(message);
    }
    result.map_err(|e| format!("animvm: window event loop: {e}\n"))?;
    Ok(0)
}

struct SpriteApp<'a> {
    view: Option<SpriteView>,
    // Dropped before the window's context.
    renderer: Option<Renderer>,
    gfx: Option<GlWindow>,
    args: &'a Args,
    setup: Option<(Sprites, String, Vec<SheetSpec>)>,
    stderr: &'a mut dyn Write,
    next_tick: Instant,
    tick: u64,
    fatal: Option<String>,
    exiting: bool,
    progress: bool,
}

fn tick_length() -> Duration {
    Duration::from_secs(1) / TICKS_PER_SECOND
}

impl SpriteApp<'_> {
    fn exit(&mut self, event_loop: &ActiveEventLoop) {
        self.exiting = true;
        event_loop.exit();
    }

    fn start(&mut self, event_loop: &ActiveEventLoop) -> Result<(), String> {
        let Some((sprites, state, sheets)) = self.setup.take() else { return Ok(()) };
        let (w, h) = (self.args.width, self.args.height);
        let attributes =
            WindowAttributes::default().with_title(TITLE).with_inner_size(PhysicalSize::new(w, h)).with_resizable(true);
        let (gfx, gl) = GlWindow::open(event_loop, attributes).map_err(|e| format!("animvm: {e}\n"))?;
        let mut renderer =
            Renderer::new(gl, w, h).map_err(|e| format!("animvm: cannot start OpenGL in the window: {e}\n"))?;
        let view = SpriteView::new(sprites.clone(), &state, &sheets, &mut renderer).map_err(|e| {
            let names: Vec<&str> = (0..sprites.state_count()).map(|i| sprites.state_name(i as u16)).collect();
            format!("animvm: {e}; the states are: {}\n", names.join(", "))
        })?;
        self.view = Some(view);
        self.renderer = Some(renderer);
        self.gfx = Some(gfx);
        self.next_tick = Instant::now();
        Ok(())
    }

    /// One tick: advance, draw, and write the `-d` frame.
    fn step(&mut self) -> Result<(), String> {
        let (Some(view), Some(r)) = (self.view.as_mut(), self.renderer.as_mut()) else { return Ok(()) };
        view.tick();
        view.draw(r);
        if let Some(head) = &self.args.dump_head {
            if self.tick < self.args.ticks {
                let path = format!("{head}{:04}.png", self.tick);
                r.save_png(&path).map_err(|e| format!("animvm: cannot write `{path}`: {e}\n"))?;
                if self.progress {
                    eprint!("\ranimvm: wrote {path}");
                }
            }
        }
        self.tick += 1;
        Ok(())
    }

    fn present(&mut self) {
        if let (Some(gfx), Some(r)) = (self.gfx.as_ref(), self.renderer.as_mut()) {
            gfx.present(r);
        }
    }

    fn act(&mut self, event_loop: &ActiveEventLoop, action: Action) {
        if action == Action::Quit {
            self.exit(event_loop);
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

impl ApplicationHandler for SpriteApp<'_> {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.exiting {
            return;
        }
        if let Err(e) = self.start(event_loop) {
            self.fatal = Some(e);
            self.exit(event_loop);
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        if self.exiting {
            return;
        }
        match event {
            WindowEvent::CloseRequested => self.exit(event_loop),
            WindowEvent::Resized(size) if size.width > 0 && size.height > 0 => {
                if let (Some(gfx), Some(r), Some(view)) =
                    (self.gfx.as_ref(), self.renderer.as_mut(), self.view.as_ref())
                {
                    gfx.resized(size);
                    if r.size() != (size.width, size.height) && r.resize(size.width, size.height, false).is_ok() {
                        view.draw(r);
                    }
                    gfx.present(r);
                }
            }
            WindowEvent::RedrawRequested => self.present(),
            WindowEvent::KeyboardInput { event, is_synthetic: false, .. }
                if event.state == ElementState::Pressed && !event.repeat =>
            {
                if let Some(a) = action(&event.key_without_modifiers()) {
                    self.act(event_loop, a);
                }
            }
            _ => {}
        }
    }

    fn exiting(&mut self, _event_loop: &ActiveEventLoop) {
        // Close the window while the event loop's display is alive.
        self.view = None;
        self.renderer = None;
        self.gfx = None;
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        if self.exiting || self.view.is_none() {
            return;
        }
        let now = Instant::now();
        if now >= self.next_tick {
            let mut steps = 0;
            while now >= self.next_tick && steps < 10 {
                if let Err(e) = self.step() {
                    self.fatal = Some(e);
                    self.exit(event_loop);
                    return;
                }
                self.next_tick += tick_length();
                steps += 1;
            }
            if now >= self.next_tick {
                // Far behind (the machine was busy): drop the backlog.
                self.next_tick = now + tick_length();
            }
            self.present();
        }
        event_loop.set_control_flow(ControlFlow::WaitUntil(self.next_tick));
    }
}
