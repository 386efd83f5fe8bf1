//! The window event loop every windowed host shares: one winit
//! `ApplicationHandler` that opens the window with its OpenGL context
//! ([`GlWindow`]) and makes the [`Renderer`], resizes the surface and
//! presents the renderer's framebuffer, closes (the window's close button,
//! or another client destroying it) and quits, and keeps time
//! (`ControlFlow::Wait`, or `WaitUntil` the host's next deadline).
//!
//! What a host draws and how it answers input is its [`WindowApp`]: the
//! Animator window (`animator::window`: standard input, `sleep`, SDL-style
//! event lines), the sprite viewer (`sprite::window`: ticks at 50 Hz,
//! keys pick states) and the SLAP player (`slap::window`: frames at
//! `--fps` with [`Ticker`](super::ticker::Ticker)) are the three. Each
//! implements the trait's few methods and calls [`WindowLoop::run`]:
//!
//! ```no_run
//! use animkit_runtime::host::window_loop::{Window, WindowApp, WindowLoop, WindowOptions};
//! use animkit_runtime::render::Renderer;
//!
//! /// A window that shows one colour until it is closed.
//! struct Plain(Option<Renderer>);
//!
//! impl WindowApp for Plain {
//!     type Event = ();
//!     fn start(&mut self, window: &mut Window<'_>, mut renderer: Renderer) -> Result<(), animkit_runtime::Error> {
//!         renderer.clear([0.2, 0.4, 0.8, 1.0]);
//!         window.present(&mut renderer);
//!         self.0 = Some(renderer);
//!         Ok(())
//!     }
//!     fn renderer(&mut self) -> Option<&mut Renderer> {
//!         self.0.as_mut()
//!     }
//!     fn resized(&mut self, _window: &mut Window<'_>, width: u32, height: u32) {
//!         if let Some(r) = self.0.as_mut() {
//!             let _ = r.resize(width, height, false);
//!         }
//!     }
//!     fn close(&mut self) {
//!         self.0 = None;
//!     }
//! }
//!
//! let options = WindowOptions { width: 320, height: 200, title: "plain".into(), resizable: true };
//! WindowLoop::new()?.run(&options, &mut Plain(None))?;
//! # Ok::<(), animkit_runtime::Error>(())
//! ```

use super::gl_window::GlWindow;
use crate::Error;
use crate::render::Renderer;
use std::collections::VecDeque;
use std::rc::Rc;
use std::time::Instant;
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop, EventLoopProxy};
use winit::window::{WindowAttributes, WindowId};

/// Says whether a window can be opened at all: `DISPLAY` or
/// `WAYLAND_DISPLAY` must be set.
///
/// ```
/// use animkit_runtime::host::window_loop::display_available;
/// assert!(display_available(|v| (v == "DISPLAY").then(|| ":0".into())));
/// assert!(!display_available(|v| (v == "DISPLAY").then(String::new)));
/// assert!(!display_available(|_| None));
/// ```
pub fn display_available(var: impl Fn(&str) -> Option<String>) -> bool {
    ["DISPLAY", "WAYLAND_DISPLAY"].iter().any(|v| var(v).is_some_and(|s| !s.is_empty()))
}

/// The message when there is no display (an [`Error::Display`]).
pub const NO_DISPLAY: &str = "no display to open a window on (neither DISPLAY nor WAYLAND_DISPLAY is set); \
                              run with -H for headless mode (no window; use screenshot or -d for output)";

/// `Ok` when a window can be opened (see [`display_available`]), else
/// [`NO_DISPLAY`].
pub fn check_display() -> Result<(), Error> {
    if display_available(|v| std::env::var(v).ok()) { Ok(()) } else { Err(Error::Display(NO_DISPLAY.into())) }
}

/// The window a [`WindowLoop`] opens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WindowOptions {
    /// Inner width in pixels (also the renderer's at the start).
    pub width: u32,
    /// Inner height in pixels.
    pub height: u32,
    /// The title.
    pub title: String,
    /// Whether the user may resize the window.
    pub resizable: bool,
}

/// What one windowed host does inside the shared loop. The loop owns the
/// window; the app owns the [`Renderer`] it is given at
/// [`start`](Self::start) (directly, or inside a canvas) and lends it back
/// through [`renderer`](Self::renderer) whenever the window must show it.
pub trait WindowApp {
    /// Events sent from other threads through [`WindowLoop::proxy`]
    /// (standard input, for Animator); `()` when there are none.
    type Event: 'static;

    /// Whether the window's framebuffer gets a depth buffer
    /// ([`GlWindow::open_with`]): the SLAP player asks for one, so that its
    /// [`Player`](crate::player::Player) draws the scene straight into the
    /// window; the others draw into the renderer's framebuffer and have
    /// it copied.
    const DEPTH: bool = false;

    /// The window is open and `renderer` draws with its context (at the
    /// size of [`WindowOptions`]): take it and start. An error closes the
    /// window and is what [`WindowLoop::run`] returns.
    fn start(&mut self, window: &mut Window<'_>, renderer: Renderer) -> Result<(), Error>;

    /// The renderer whose framebuffer the window shows (`None` before the
    /// start and after [`close`](Self::close)).
    fn renderer(&mut self) -> Option<&mut Renderer>;

    /// The window system gave the window a new inner size (never zero):
    /// bring the picture to it. The loop has resized the surface before and
    /// [presents](Self::present) after.
    fn resized(&mut self, window: &mut Window<'_>, width: u32, height: u32);

    /// Shows the picture in the window (after a resize, and when the
    /// window system asks for a redraw): by default, presents
    /// [`renderer`](Self::renderer)'s framebuffer; an app that draws into
    /// the window's framebuffer itself draws and swaps.
    fn present(&mut self, window: &mut Window<'_>) {
        if let Some(r) = self.renderer() {
            window.present(r);
        }
    }

    /// A window event that is not the loop's own (the loop handles close,
    /// destroy, resize and redraw): keys, the pointer, focus.
    fn input(&mut self, window: &mut Window<'_>, event: WindowEvent) {
        let _ = (window, event);
    }

    /// An event from [`WindowLoop::proxy`].
    fn user_event(&mut self, window: &mut Window<'_>, event: Self::Event) {
        let _ = (window, event);
    }

    /// When the app next wants to run by itself (its next tick, the end of
    /// a `sleep`); `None` waits for events only.
    fn deadline(&self) -> Option<Instant> {
        None
    }

    /// The [`deadline`](Self::deadline) has passed.
    fn wake(&mut self, window: &mut Window<'_>) {
        let _ = window;
    }

    /// The loop is ending: drop everything that holds GL objects (the
    /// renderer, canvases, cursors), while the window and its context are
    /// still alive; the window closes after. Called at least once; must do
    /// nothing the second time.
    fn close(&mut self);
}

/// Exiting, failing and the window's state, kept by the loop.
#[derive(Default)]
struct LoopState {
    exiting: bool,
    fatal: Option<Error>,
    /// Another client destroyed the window.
    destroyed: bool,
}

/// The app's handle on the open window, passed to every [`WindowApp`]
/// method.
pub struct Window<'a> {
    event_loop: &'a ActiveEventLoop,
    gfx: &'a Rc<GlWindow>,
    state: &'a mut LoopState,
}

impl Window<'_> {
    /// The window and its context (an app that presents from inside its
    /// canvas keeps a clone).
    pub fn gl_window(&self) -> &Rc<GlWindow> {
        self.gfx
    }

    /// The active event loop (to make custom cursors, for example).
    pub fn event_loop(&self) -> &ActiveEventLoop {
        self.event_loop
    }

    /// Shows `renderer`'s framebuffer in the window.
    pub fn present(&self, renderer: &mut Renderer) {
        self.gfx.present(renderer);
    }

    /// Ends the loop (the app is [closed](WindowApp::close), then the
    /// window).
    pub fn exit(&mut self) {
        self.state.exiting = true;
        self.event_loop.exit();
    }

    /// Ends the loop with an error, which [`WindowLoop::run`] returns.
    pub fn fail(&mut self, error: Error) {
        self.state.fatal = Some(error);
        self.exit();
    }

    /// True once [`exit`](Self::exit) or [`fail`](Self::fail) was called.
    pub fn exiting(&self) -> bool {
        self.state.exiting
    }
}

/// The event loop, made before the window so that other threads can be
/// given a [`proxy`](Self::proxy) first.
pub struct WindowLoop<E: 'static> {
    event_loop: EventLoop<E>,
}

impl<E: 'static> WindowLoop<E> {
    /// Connects to the display (X11 when `DISPLAY` is set, else Wayland).
    pub fn new() -> Result<WindowLoop<E>, Error> {
        let event_loop = super::gl_window::event_loop::<E>()
            .map_err(|e| Error::Display(format!("cannot open a window: {e}; run with -H for headless mode")))?;
        event_loop.set_control_flow(ControlFlow::Wait);
        Ok(WindowLoop { event_loop })
    }

    /// Sends events to the app's [`WindowApp::user_event`] from any thread.
    pub fn proxy(&self) -> EventLoopProxy<E> {
        self.event_loop.create_proxy()
    }

    /// Opens the window, runs `app` in it until it exits or the window is
    /// closed, closes both. Returns the app's error, if it failed.
    pub fn run<A: WindowApp<Event = E>>(self, options: &WindowOptions, app: &mut A) -> Result<(), Error> {
        let mut runner = Runner { app, options, gfx: None, early: VecDeque::new(), state: LoopState::default() };
        let result = self.event_loop.run_app(&mut runner);
        runner.close();
        if let Some(error) = runner.state.fatal.take() {
            return Err(error);
        }
        result.map_err(|e| Error::Display(format!("window event loop: {e}")))
    }
}

struct Runner<'a, A: WindowApp> {
    app: &'a mut A,
    options: &'a WindowOptions,
    gfx: Option<Rc<GlWindow>>,
    /// User events that arrived before the window was open.
    early: VecDeque<A::Event>,
    state: LoopState,
}

impl<A: WindowApp> Runner<'_, A> {
    /// Closes the app, then the window, while the event loop (and its
    /// display connection) is still alive.
    fn close(&mut self) {
        self.app.close();
        if let Some(gfx) = self.gfx.take() {
            if self.state.destroyed {
                if let Ok(gfx) = Rc::try_unwrap(gfx) {
                    gfx.abandon();
                }
            }
        }
    }

    /// Calls `f` with the app and its window handle (nothing before the
    /// window is open).
    fn with_app(&mut self, event_loop: &ActiveEventLoop, f: impl FnOnce(&mut A, &mut Window<'_>)) {
        let Some(gfx) = self.gfx.as_ref() else { return };
        let mut window = Window { event_loop, gfx, state: &mut self.state };
        f(self.app, &mut window);
    }

    fn open(&mut self, event_loop: &ActiveEventLoop) -> Result<(), Error> {
        let o = self.options;
        let attributes = WindowAttributes::default()
            .with_title(o.title.as_str())
            .with_inner_size(PhysicalSize::new(o.width, o.height))
            .with_resizable(o.resizable);
        let (gfx, gl) =
            GlWindow::open_with(event_loop, attributes, A::DEPTH).map_err(|e| Error::Display(e.to_string()))?;
        let gfx = Rc::new(gfx);
        let renderer = Renderer::new(gl, o.width, o.height)
            .map_err(|e| Error::Display(format!("cannot start OpenGL in the window: {e}")))?;
        self.gfx = Some(gfx.clone());
        let mut window = Window { event_loop, gfx: &gfx, state: &mut self.state };
        self.app.start(&mut window, renderer)?;
        while let Some(event) = self.early.pop_front() {
            self.app.user_event(&mut window, event);
        }
        Ok(())
    }

    fn resized(&mut self, event_loop: &ActiveEventLoop, size: PhysicalSize<u32>) {
        if size.width == 0 || size.height == 0 {
            return;
        }
        self.with_app(event_loop, |app, window| {
            window.gfx.resized(size);
            app.resized(window, size.width, size.height);
            app.present(window);
        });
    }

    fn present(&mut self, event_loop: &ActiveEventLoop) {
        self.with_app(event_loop, |app, window| app.present(window));
    }

    fn set_control_flow(&self, event_loop: &ActiveEventLoop) {
        if self.state.exiting {
            return;
        }
        event_loop.set_control_flow(match self.app.deadline() {
            Some(d) => ControlFlow::WaitUntil(d),
            None => ControlFlow::Wait,
        });
    }

    fn exit(&mut self, event_loop: &ActiveEventLoop) {
        self.state.exiting = true;
        event_loop.exit();
    }
}

impl<A: WindowApp> ApplicationHandler<A::Event> for Runner<'_, A> {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.gfx.is_some() || self.state.exiting {
            return;
        }
        if let Err(e) = self.open(event_loop) {
            self.state.fatal = Some(e);
            self.exit(event_loop);
            return;
        }
        self.set_control_flow(event_loop);
    }

    fn user_event(&mut self, event_loop: &ActiveEventLoop, event: A::Event) {
        if self.gfx.is_none() {
            self.early.push_back(event);
            return;
        }
        self.with_app(event_loop, |app, window| app.user_event(window, event));
        self.set_control_flow(event_loop);
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        if self.state.exiting {
            return;
        }
        match event {
            WindowEvent::CloseRequested => self.exit(event_loop),
            // Destroyed by another client (`xdotool windowclose`).
            WindowEvent::Destroyed => {
                self.state.destroyed = true;
                self.exit(event_loop);
            }
            WindowEvent::Resized(size) => self.resized(event_loop, size),
            WindowEvent::RedrawRequested => self.present(event_loop),
            other => self.with_app(event_loop, |app, window| app.input(window, other)),
        }
        self.set_control_flow(event_loop);
    }

    fn exiting(&mut self, _event_loop: &ActiveEventLoop) {
        self.close();
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        if !self.state.exiting && self.app.deadline().is_some_and(|d| Instant::now() >= d) {
            self.with_app(event_loop, |app, window| app.wake(window));
        }
        self.set_control_flow(event_loop);
    }
}
