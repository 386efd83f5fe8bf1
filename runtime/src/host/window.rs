//! The window host: `animvm` without `-H` runs an Animator program (a
//! stream on standard input, or a `.draw` file / bundle) in a real window.
//!
//! * A winit 0.30 event loop owns everything; a glutin context
//!   ([`GlWindow`]) is current on its thread and the [`Renderer`] draws into
//!   its own framebuffer, which is blitted to the window at every flush
//!   ([`WindowHooks::present`]), so the window, screenshots and `-d` frames
//!   show the same pixels.
//! * Standard input is read on its own thread and handed to the loop as
//!   user events (byte chunks, then EOF). The reader stops when 256 KiB are
//!   waiting to be run, so a client printing faster than the program runs
//!   (or while it sleeps) blocks on the pipe as it would with `animator`.
//! * `sleep` and `flushdelay` suspend the program
//!   ([`CanvasOptions::suspend_waits`]); the loop waits with
//!   `ControlFlow::WaitUntil` and keeps handling (and reporting) window
//!   events meanwhile, then reports `FLUSHDELAY dt` and resumes the program.
//! * Input events are reported as `animator` reported them (SDL 1.2's
//!   numbers and names): see `docs/window.md` and [`super::keys`].

use super::cursor::CursorImage;
use super::events;
use super::gl_canvas::{CanvasOptions, GlCanvas, WindowHooks};
use super::gl_window::GlWindow;
use super::keys::{self, Keyboard, Report};
use crate::cli::Args;
use crate::render::Renderer;
use crate::script::Script;
use crate::stream::{Status, Stream};
use animkit_vm::animator::Canvas;
use animkit_vm::program::Program;
use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::io::{Read, Write};
use std::rc::Rc;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};
use winit::application::ApplicationHandler;
use winit::dpi::{PhysicalPosition, PhysicalSize};
use winit::event::{ElementState, MouseButton, MouseScrollDelta, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoopProxy};
use winit::platform::modifier_supplement::KeyEventExtModifierSupplement;
use winit::window::{CustomCursor, WindowAttributes, WindowId};

/// Bytes read from standard input per chunk.
const CHUNK: usize = 64 * 1024;
/// The reader waits while this many bytes are read but not yet run.
const IN_FLIGHT: usize = 256 * 1024;
/// Pixels of a touchpad scroll that count as one wheel click.
const PIXELS_PER_CLICK: f64 = 40.0;

/// What the window host runs.
pub enum Source {
    /// Animator commands from standard input (read on a thread of its own;
    /// the `stdin` that `run::main` was given is not used).
    Stdin,
    /// Module `index` of a compiled program.
    Script(Program, usize),
}

/// Says whether a window can be opened at all: `DISPLAY` or
/// `WAYLAND_DISPLAY` must be set.
///
/// ```
/// use animkit_runtime::host::window::display_available;
/// assert!(display_available(|v| (v == "DISPLAY").then(|| ":0".into())));
/// assert!(!display_available(|v| (v == "DISPLAY").then(String::new)));
/// assert!(!display_available(|_| None));
/// ```
pub fn display_available(var: impl Fn(&str) -> Option<String>) -> bool {
    ["DISPLAY", "WAYLAND_DISPLAY"].iter().any(|v| var(v).is_some_and(|s| !s.is_empty()))
}

/// The message when there is no display.
pub const NO_DISPLAY: &str = "animvm: no display to open a window on (neither DISPLAY nor WAYLAND_DISPLAY is set); \
                              run with -H for headless mode (no window; use screenshot or -d for output)\n";

/// Runs `source` in a window with the options of `args`; returns the
/// number of errors reported.
pub fn run(args: &Args, source: Source, stderr: &mut dyn Write) -> Result<usize, String> {
    let event_loop = super::gl_window::event_loop::<Input>()
        .map_err(|e| format!("animvm: cannot open a window: {e}; run with -H for headless mode\n"))?;
    event_loop.set_control_flow(ControlFlow::Wait);
    let credit = Arc::new(Credit::default());
    if matches!(source, Source::Stdin) {
        spawn_reader(event_loop.create_proxy(), credit.clone())
            .map_err(|e| format!("animvm: cannot start the input thread: {e}\n"))?;
    }
    let mut app = App {
        driver: None,
        gfx: None,
        args,
        source: Some(source),
        stderr,
        requests: Rc::new(RefCell::new(Vec::new())),
        cursors: HashMap::new(),
        queue: VecDeque::new(),
        credit,
        deadline: None,
        done: false,
        keyboard: Keyboard::default(),
        wheel: (0.0, 0.0),
        fatal: None,
        exiting: false,
        errors: 0,
        destroyed: false,
    };
    let result = event_loop.run_app(&mut app);
    app.close();
    let (errors, fatal) = (app.errors, app.fatal.take());
    if let Some(message) = fatal {
        return Err(message);
    }
    result.map_err(|e| format!("animvm: window event loop: {e}\n"))?;
    Ok(errors)
}

/// Standard input, as the reader thread hands it over.
#[derive(Debug)]
pub enum Input {
    /// Bytes read.
    Data(Vec<u8>),
    /// A read error (EOF follows).
    Error(String),
    /// End of input.
    Eof,
}

/// Bytes read but not yet run, shared with the reader thread.
#[derive(Default)]
struct Credit {
    in_flight: Mutex<usize>,
    changed: Condvar,
}

impl Credit {
    fn wait_below_limit(&self) {
        let mut n = self.in_flight.lock().unwrap_or_else(|e| e.into_inner());
        while *n >= IN_FLIGHT {
            n = self.changed.wait(n).unwrap_or_else(|e| e.into_inner());
        }
    }
    fn add(&self, bytes: usize, sign: bool) {
        let mut n = self.in_flight.lock().unwrap_or_else(|e| e.into_inner());
        *n = if sign { *n + bytes } else { n.saturating_sub(bytes) };
        self.changed.notify_all();
    }
}

fn spawn_reader(proxy: EventLoopProxy<Input>, credit: Arc<Credit>) -> std::io::Result<()> {
    std::thread::Builder::new().name("animvm-stdin".into()).spawn(move || {
        let mut stdin = std::io::stdin();
        let mut buf = vec![0u8; CHUNK];
        loop {
            credit.wait_below_limit();
            match stdin.read(&mut buf) {
                Ok(0) => {
                    let _ = proxy.send_event(Input::Eof);
                    return;
                }
                Ok(n) => {
                    credit.add(n, true);
                    if proxy.send_event(Input::Data(buf[..n].to_vec())).is_err() {
                        return;
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    let _ = proxy.send_event(Input::Error(e.to_string()));
                    let _ = proxy.send_event(Input::Eof);
                    return;
                }
            }
        }
    })?;
    Ok(())
}

/// The program being run.
enum Driver {
    Stream(Box<Stream<GlCanvas>>),
    Script(Box<Script<GlCanvas>>),
}

impl Driver {
    fn canvas(&mut self) -> &mut GlCanvas {
        match self {
            Driver::Stream(s) => s.canvas_mut(),
            Driver::Script(s) => s.canvas_mut(),
        }
    }
    fn run(&mut self, errors: &mut dyn Write) -> Status {
        match self {
            Driver::Stream(s) => s.run(errors),
            Driver::Script(s) => s.run(errors),
        }
    }
    fn error_count(&self) -> usize {
        match self {
            Driver::Stream(s) => s.error_count(),
            Driver::Script(s) => s.error_count(),
        }
    }
}

/// Requests the canvas makes that need the event loop.
enum Request {
    DefineCursor(String, CursorImage),
    SetCursor(String),
    Resized(PhysicalSize<u32>),
}

/// The canvas's side of the window.
struct Link {
    gfx: Rc<GlWindow>,
    requests: Rc<RefCell<Vec<Request>>>,
}

impl WindowHooks for Link {
    fn present(&mut self, renderer: &mut Renderer) {
        self.gfx.present(renderer);
    }
    fn set_title(&mut self, title: &str) {
        self.gfx.window.set_title(title);
    }
    fn request_size(&mut self, width: u32, height: u32) {
        // X11 applies the size later and reports it as `Resized`; platforms
        // that apply it at once return it here.
        if let Some(size) = self.gfx.window.request_inner_size(PhysicalSize::new(width, height)) {
            self.requests.borrow_mut().push(Request::Resized(size));
        }
    }
    fn warp_pointer(&mut self, x: i32, y: i32) {
        let _ = self.gfx.window.set_cursor_position(PhysicalPosition::new(x, y));
    }
    fn define_cursor(&mut self, name: &str, image: &CursorImage) {
        self.requests.borrow_mut().push(Request::DefineCursor(name.to_string(), image.clone()));
    }
    fn set_cursor(&mut self, name: &str) {
        self.requests.borrow_mut().push(Request::SetCursor(name.to_string()));
    }
}

/// The window's title before any `title` command.
pub const DEFAULT_TITLE: &str = "animvm";

/// The pointer button numbers `animator` (SDL 1.2 on X11) reports: 1 left,
/// 2 middle, 3 right, 8 back, 9 forward, other buttons by their X number.
///
/// ```
/// use animkit_runtime::host::window::button_number;
/// use winit::event::MouseButton;
/// assert_eq!(button_number(MouseButton::Right), 3);
/// assert_eq!(button_number(MouseButton::Other(12)), 12);
/// ```
pub fn button_number(button: MouseButton) -> u32 {
    match button {
        MouseButton::Left => 1,
        MouseButton::Middle => 2,
        MouseButton::Right => 3,
        MouseButton::Back => 8,
        MouseButton::Forward => 9,
        MouseButton::Other(n) => u32::from(n),
    }
}

/// SDL's `SDL_BUTTON(n)`: the bit of button `n` in a `MOTION` mask.
///
/// ```
/// use animkit_runtime::host::window::button_bit;
/// assert_eq!((button_bit(1), button_bit(3), button_bit(5)), (1, 4, 16));
/// ```
pub fn button_bit(n: u32) -> u32 {
    if (1..=32).contains(&n) { 1 << (n - 1) } else { 0 }
}

/// Wheel clicks in a scroll: whole steps taken out of the accumulated
/// `acc`, as SDL button numbers (4 up, 5 down, 6 left, 7 right, as X11
/// numbers them).
///
/// ```
/// use animkit_runtime::host::window::wheel_clicks;
/// let mut acc = (0.0, 0.0);
/// assert_eq!(wheel_clicks(&mut acc, 0.0, 1.0), [4]);
/// assert_eq!(wheel_clicks(&mut acc, 0.0, -2.0), [5, 5]);
/// assert_eq!(wheel_clicks(&mut acc, 0.5, 0.0), [0u32; 0]);
/// assert_eq!(wheel_clicks(&mut acc, 0.5, 0.0), [6]);
/// ```
pub fn wheel_clicks(acc: &mut (f64, f64), dx: f64, dy: f64) -> Vec<u32> {
    let mut clicks = Vec::new();
    let mut take = |a: &mut f64, d: f64, pos: u32, neg: u32| {
        if !d.is_finite() {
            return;
        }
        // A change of direction drops what was left over.
        if *a * d < 0.0 {
            *a = 0.0;
        }
        *a += d;
        while *a >= 1.0 && clicks.len() < 64 {
            *a -= 1.0;
            clicks.push(pos);
        }
        while *a <= -1.0 && clicks.len() < 64 {
            *a += 1.0;
            clicks.push(neg);
        }
    };
    take(&mut acc.1, dy, 4, 5);
    take(&mut acc.0, dx, 6, 7);
    clicks
}

struct App<'a> {
    // Dropped first: the renderer deletes its GL objects while the
    // context (in `gfx`, shared with the canvas) is alive.
    driver: Option<Driver>,
    gfx: Option<Rc<GlWindow>>,
    args: &'a Args,
    source: Option<Source>,
    stderr: &'a mut dyn Write,
    requests: Rc<RefCell<Vec<Request>>>,
    cursors: HashMap<String, CustomCursor>,
    /// Input received while the program waits.
    queue: VecDeque<Input>,
    credit: Arc<Credit>,
    /// End of a suspended `sleep` / `flushdelay`.
    deadline: Option<Instant>,
    /// The program ended (end of input, or of the script).
    done: bool,
    keyboard: Keyboard,
    wheel: (f64, f64),
    fatal: Option<String>,
    exiting: bool,
    /// Errors reported by the program (set by `close`).
    errors: usize,
    /// Another client destroyed the window.
    destroyed: bool,
}

impl App<'_> {
    /// Ends the program and closes the window, while the event loop (and
    /// its display connection) is still alive.
    fn close(&mut self) {
        if let Some(mut d) = self.driver.take() {
            d.canvas().finish_progress();
            self.errors = d.error_count();
        }
        self.cursors.clear();
        if let Some(gfx) = self.gfx.take() {
            if self.destroyed {
                if let Ok(gfx) = Rc::try_unwrap(gfx) {
                    gfx.abandon();
                }
            }
        }
    }

    fn exit(&mut self, event_loop: &ActiveEventLoop) {
        self.exiting = true;
        event_loop.exit();
    }

    fn start(&mut self, event_loop: &ActiveEventLoop) -> Result<(), String> {
        let args = self.args;
        let attributes = WindowAttributes::default()
            .with_title(DEFAULT_TITLE)
            .with_inner_size(PhysicalSize::new(args.width, args.height))
            .with_resizable(resizable(args));
        let (gfx, gl) = GlWindow::open(event_loop, attributes).map_err(|e| format!("animvm: {e}\n"))?;
        let gfx = Rc::new(gfx);
        let renderer = Renderer::new(gl, args.width, args.height)
            .map_err(|e| format!("animvm: cannot start OpenGL in the window: {e}\n"))?;
        let options = CanvasOptions { suspend_waits: true, ..crate::run::canvas_options(args) };
        let mut canvas = GlCanvas::new(renderer, options, Box::new(std::io::stdout()));
        canvas.keepalive(args.keepalive);
        canvas.set_window(Box::new(Link { gfx: gfx.clone(), requests: self.requests.clone() }));
        canvas.present();
        self.gfx = Some(gfx);
        self.driver = Some(match self.source.take() {
            Some(Source::Script(program, index)) => {
                Driver::Script(Box::new(Script::new(program, index, canvas).map_err(|e| format!("animvm: {e}\n"))?))
            }
            _ => Driver::Stream(Box::new(Stream::new(canvas, "<stdin>"))),
        });
        if let Some(size) = self.gfx.as_ref().map(|g| g.window.inner_size()) {
            self.resized(size);
        }
        if matches!(self.driver, Some(Driver::Script(_))) {
            self.run_program(event_loop);
        }
        Ok(())
    }

    /// Runs the program until it needs input, waits or ends.
    fn run_program(&mut self, event_loop: &ActiveEventLoop) {
        let Some(driver) = self.driver.as_mut() else { return };
        let status = driver.run(&mut *self.stderr);
        self.apply_requests(event_loop);
        match status {
            Status::NeedInput => {}
            Status::Suspended(s) => {
                let wait = Duration::from_secs_f64(if s.is_finite() { s.clamp(0.0, 1e7) } else { 0.0 });
                self.deadline = Some(Instant::now().checked_add(wait).unwrap_or_else(Instant::now));
            }
            Status::Done => {
                self.done = true;
                if !self.driver.as_mut().is_some_and(|d| d.canvas().keepalive_on()) {
                    self.exit(event_loop);
                }
            }
            Status::Quit => self.exit(event_loop),
        }
    }

    /// Feeds queued input to the program while it is not waiting.
    fn pump(&mut self, event_loop: &ActiveEventLoop) {
        while !self.exiting && self.deadline.is_none() && !self.done {
            let Some(driver) = self.driver.as_mut() else { return };
            let Some(input) = self.queue.pop_front() else { return };
            match input {
                Input::Data(bytes) => {
                    if let Driver::Stream(s) = driver {
                        s.push(&bytes);
                    }
                    self.credit.add(bytes.len(), false);
                }
                Input::Error(e) => {
                    let _ = writeln!(self.stderr, "animvm: cannot read standard input: {e}");
                }
                Input::Eof => {
                    if let Driver::Stream(s) = driver {
                        s.finish();
                    }
                }
            }
            self.run_program(event_loop);
        }
    }

    fn apply_requests(&mut self, event_loop: &ActiveEventLoop) {
        let requests = std::mem::take(&mut *self.requests.borrow_mut());
        for r in requests {
            match r {
                Request::DefineCursor(name, image) => {
                    let size = super::cursor::SIZE as u16;
                    match CustomCursor::from_rgba(image.rgba, size, size, image.hot.0, image.hot.1) {
                        Ok(source) => {
                            self.cursors.insert(name, event_loop.create_custom_cursor(source));
                        }
                        Err(e) => {
                            let _ = writeln!(self.stderr, "animvm: cursor `{name}`: {e}");
                        }
                    }
                }
                Request::SetCursor(name) => {
                    if let (Some(cursor), Some(gfx)) = (self.cursors.get(&name), self.gfx.as_ref()) {
                        gfx.window.set_cursor(cursor.clone());
                    }
                }
                Request::Resized(size) => self.resized(size),
            }
        }
    }

    /// The window system reports a new inner size.
    fn resized(&mut self, size: PhysicalSize<u32>) {
        let (Some(gfx), Some(driver)) = (self.gfx.as_ref(), self.driver.as_mut()) else { return };
        if size.width == 0 || size.height == 0 {
            return;
        }
        gfx.resized(size);
        let canvas = driver.canvas();
        if let Err(e) = canvas.window_resized(size.width, size.height) {
            let _ = writeln!(self.stderr, "animvm: cannot resize to {}x{}: {e}", size.width, size.height);
        }
        canvas.present();
    }

    fn set_control_flow(&self, event_loop: &ActiveEventLoop) {
        if self.exiting {
            return;
        }
        event_loop.set_control_flow(match self.deadline {
            Some(d) => ControlFlow::WaitUntil(d),
            None => ControlFlow::Wait,
        });
    }

    fn pointer(&mut self, kind: &str, code: u32) {
        if let Some(d) = self.driver.as_mut() {
            let c = d.canvas();
            let at = c.pointer.0;
            c.pointer_event(kind, code, at);
        }
    }

    fn key(&mut self, event_loop: &ActiveEventLoop, event: &winit::event::KeyEvent, synthetic: bool) {
        let key = keys::sdl_key(event.physical_key, &event.key_without_modifiers());
        let pressed = event.state == ElementState::Pressed;
        if synthetic {
            self.keyboard.sync(&key, pressed);
            return;
        }
        if event.repeat {
            return;
        }
        let report = if pressed { self.keyboard.press(&key) } else { self.keyboard.release(&key) };
        if let Some(c) = self.driver.as_mut().map(Driver::canvas) {
            if c.events_on() {
                match report {
                    Report::Down(mods) => {
                        let unicode = if key.lock { 0 } else { keys::unicode(event.text_with_all_modifiers()) };
                        c.emit(&events::keydown_line(mods, unicode, &key.name));
                    }
                    Report::Up(mods) => c.emit(&events::keyup_line(mods, &key.name)),
                    Report::Nothing => {}
                }
            }
        }
        if pressed && self.args.quit_on_q && key.name == "q" {
            self.exit(event_loop);
        }
    }
}

/// Whether the user may resize the window: yes, except with `-C` (frames
/// are not cleared, so the picture could not be redrawn at another size);
/// `-R` keeps the frame and allows resizing, keeping the picture anchored
/// at the top-left corner.
///
/// ```
/// use animkit_runtime::{cli::parse, host::window::resizable};
/// assert!(resizable(&parse(&[]).unwrap()));
/// assert!(!resizable(&parse(&["-C".into()]).unwrap()));
/// assert!(resizable(&parse(&["-R".into()]).unwrap()));
/// ```
pub fn resizable(args: &Args) -> bool {
    !args.no_clear || args.resizable_no_clear
}

impl ApplicationHandler<Input> for App<'_> {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.gfx.is_some() || self.exiting {
            return;
        }
        if let Err(e) = self.start(event_loop) {
            self.fatal = Some(e);
            self.exit(event_loop);
            return;
        }
        self.pump(event_loop);
        self.set_control_flow(event_loop);
    }

    fn user_event(&mut self, event_loop: &ActiveEventLoop, input: Input) {
        self.queue.push_back(input);
        self.pump(event_loop);
        self.set_control_flow(event_loop);
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        if self.exiting {
            return;
        }
        match event {
            WindowEvent::CloseRequested => self.exit(event_loop),
            // Destroyed by another client (`xdotool windowclose`).
            WindowEvent::Destroyed => {
                self.destroyed = true;
                self.exit(event_loop);
            }
            WindowEvent::Resized(size) => self.resized(size),
            WindowEvent::RedrawRequested => {
                if let Some(d) = self.driver.as_mut() {
                    d.canvas().present();
                }
            }
            WindowEvent::CursorMoved { position, .. } => {
                if let Some(d) = self.driver.as_mut() {
                    let c = d.canvas();
                    let at = [position.x, position.y];
                    // Unchanged positions (X11 repeats them; a warp's own
                    // move) are not reported again.
                    if at != c.pointer.0 {
                        let mask = c.pointer.1;
                        c.pointer_event("MOTION", mask, at);
                    }
                }
            }
            WindowEvent::MouseInput { state, button, .. } => {
                let n = button_number(button);
                let Some(d) = self.driver.as_mut() else { return };
                let c = d.canvas();
                if state == ElementState::Pressed {
                    c.pointer.1 |= button_bit(n);
                    self.pointer("PRESS", n);
                } else {
                    c.pointer.1 &= !button_bit(n);
                    self.pointer("RELEASE", n);
                }
            }
            WindowEvent::MouseWheel { delta, .. } => {
                let (dx, dy) = match delta {
                    MouseScrollDelta::LineDelta(x, y) => (f64::from(x), f64::from(y)),
                    MouseScrollDelta::PixelDelta(p) => (p.x / PIXELS_PER_CLICK, p.y / PIXELS_PER_CLICK),
                };
                for n in wheel_clicks(&mut self.wheel, dx, dy) {
                    self.pointer("PRESS", n);
                    self.pointer("RELEASE", n);
                }
            }
            WindowEvent::KeyboardInput { event, is_synthetic, .. } => self.key(event_loop, &event, is_synthetic),
            _ => {}
        }
        self.set_control_flow(event_loop);
    }

    fn exiting(&mut self, _event_loop: &ActiveEventLoop) {
        self.close();
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        if let Some(deadline) = self.deadline {
            if !self.exiting && Instant::now() >= deadline {
                self.deadline = None;
                if let Some(d) = self.driver.as_mut() {
                    d.canvas().resume();
                }
                self.run_program(event_loop);
                self.pump(event_loop);
            }
        }
        self.set_control_flow(event_loop);
    }
}
