//! The Animator window host: `animvm` without `-H` runs an Animator
//! program (a stream on standard input, or a `.draw` file / bundle) in a
//! real window, as one [`WindowApp`] of the shared window loop
//! ([`crate::host::window_loop`]).
//!
//! * The loop owns the window; a glutin context ([`GlWindow`]) is current
//!   on its thread and the [`Renderer`] draws into its own framebuffer,
//!   which is blitted to the window at every flush
//!   ([`WindowHooks::present`]), so the window, screenshots and `-d` frames
//!   show the same pixels.
//! * Standard input is read on its own thread and handed to the loop as
//!   user events (byte chunks, then EOF). The reader stops when 256 KiB are
//!   waiting to be run, so a client printing faster than the program runs
//!   (or while it sleeps) blocks on the pipe as it would with `animator`.
//! * `sleep` and `flushdelay` suspend the program
//!   ([`CanvasOptions::suspend_waits`](super::CanvasOptions::suspend_waits));
//!   the app's [`deadline`](WindowApp::deadline) is the end of the wait, so
//!   the loop keeps handling (and reporting) window events meanwhile, then
//!   the app reports `FLUSHDELAY dt` and resumes the program.
//! * Input events are reported as `animator` reported them (SDL 1.2's
//!   numbers and names): see `docs/window.md` and [`super::keys`].

use super::cursor::CursorImage;
use super::events;
use super::gl_canvas::{GlCanvas, WindowHooks};
use super::keys::{self, Keyboard, Report};
use super::script::{Script, restart};
use super::stream::{Status, Stream};
use super::{AnimatorInput, AnimatorOptions};
use crate::Error;
use crate::host::gl_window::GlWindow;
use crate::host::watch::ProgramWatch;
use crate::host::window_loop::{Window, WindowApp, WindowLoop, WindowOptions};
use crate::render::Renderer;
use animkit_vm::engine::animator::Canvas;
use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::io::{Read, Write};
use std::rc::Rc;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};
use winit::dpi::{PhysicalPosition, PhysicalSize};
use winit::event::{ElementState, MouseButton, MouseScrollDelta, WindowEvent};
use winit::event_loop::EventLoopProxy;
use winit::platform::modifier_supplement::KeyEventExtModifierSupplement;
use winit::window::CustomCursor;

/// Bytes read from standard input per chunk.
const CHUNK: usize = 64 * 1024;
/// The reader waits while this many bytes are read but not yet run.
const IN_FLIGHT: usize = 256 * 1024;
/// Pixels of a touchpad scroll that count as one wheel click.
const PIXELS_PER_CLICK: f64 = 40.0;

/// Runs `source` in a window with `options`; returns the number of errors
/// reported.
pub fn run(options: &AnimatorOptions, source: AnimatorInput, stderr: &mut dyn Write) -> Result<usize, Error> {
    let window_loop = WindowLoop::<Input>::new()?;
    let credit = Arc::new(Credit::default());
    if matches!(source, AnimatorInput::Stdin) {
        spawn_reader(window_loop.proxy(), credit.clone())
            .map_err(|e| Error::Host(format!("cannot start the input thread: {e}")))?;
    }
    let window = WindowOptions {
        width: options.width,
        height: options.height,
        title: DEFAULT_TITLE.into(),
        resizable: options.resizable,
    };
    let mut app = AnimatorApp {
        driver: None,
        options,
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
        errors: 0,
        watch: options.watch.as_deref().map(ProgramWatch::new).transpose()?,
    };
    window_loop.run(&window, &mut app)?;
    Ok(app.errors)
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
/// use animkit_runtime::animator::window::button_number;
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
/// use animkit_runtime::animator::window::button_bit;
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
/// use animkit_runtime::animator::window::wheel_clicks;
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

/// The Animator program in the window: see the [module docs](self).
struct AnimatorApp<'a> {
    // Dropped before the window (which the loop owns): the renderer
    // deletes its GL objects while the context is alive.
    driver: Option<Driver>,
    options: &'a AnimatorOptions,
    source: Option<AnimatorInput>,
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
    /// Errors reported by the program (set by `close`).
    errors: usize,
    /// `--watch`: the script's file, looked at every
    /// [`POLL`](crate::host::POLL); a save that builds starts the script
    /// over.
    watch: Option<ProgramWatch>,
}

impl AnimatorApp<'_> {
    /// `--watch`: if it is time, looks at the file; a save that builds
    /// starts the script over (a pending sleep is dropped). Whether it did.
    fn poll_watch(&mut self, window: &mut Window<'_>) -> bool {
        let Some(w) = self.watch.as_mut() else { return false };
        let Some(program) = w.poll_due(&mut *self.stderr) else { return false };
        let Some(Driver::Script(script)) = self.driver.take() else { return false };
        let script = restart(*script, program, w, &mut *self.stderr);
        self.driver = Some(Driver::Script(Box::new(script)));
        self.deadline = None;
        self.done = false;
        if let Some(d) = self.driver.as_mut() {
            d.canvas().resume();
        }
        self.run_program(window);
        self.pump(window);
        true
    }

    /// Runs the program until it needs input, waits or ends.
    fn run_program(&mut self, window: &mut Window<'_>) {
        let Some(driver) = self.driver.as_mut() else { return };
        let status = driver.run(&mut *self.stderr);
        self.apply_requests(window);
        match status {
            Status::NeedInput => {}
            Status::Suspended(s) => {
                let wait = Duration::from_secs_f64(if s.is_finite() { s.clamp(0.0, 1e7) } else { 0.0 });
                self.deadline = Some(Instant::now().checked_add(wait).unwrap_or_else(Instant::now));
            }
            Status::Done => {
                self.done = true;
                if !self.driver.as_mut().is_some_and(|d| d.canvas().keepalive_on()) {
                    window.exit();
                }
            }
            Status::Quit => window.exit(),
        }
    }

    /// Feeds queued input to the program while it is not waiting.
    fn pump(&mut self, window: &mut Window<'_>) {
        while !window.exiting() && self.deadline.is_none() && !self.done {
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
            self.run_program(window);
        }
    }

    fn apply_requests(&mut self, window: &mut Window<'_>) {
        let requests = std::mem::take(&mut *self.requests.borrow_mut());
        for r in requests {
            match r {
                Request::DefineCursor(name, image) => {
                    let size = super::cursor::SIZE as u16;
                    match CustomCursor::from_rgba(image.rgba, size, size, image.hot.0, image.hot.1) {
                        Ok(source) => {
                            self.cursors.insert(name, window.event_loop().create_custom_cursor(source));
                        }
                        Err(e) => {
                            let _ = writeln!(self.stderr, "animvm: cursor `{name}`: {e}");
                        }
                    }
                }
                Request::SetCursor(name) => {
                    if let Some(cursor) = self.cursors.get(&name) {
                        window.gl_window().window.set_cursor(cursor.clone());
                    }
                }
                Request::Resized(size) => self.sync_size(window, size),
            }
        }
    }

    /// The window has `size` (reported outside the loop's `Resized`: at the
    /// start, or by a platform that applies `resize` at once): as the loop
    /// does for `Resized`, resize the surface, the frame, and present.
    fn sync_size(&mut self, window: &mut Window<'_>, size: PhysicalSize<u32>) {
        if size.width == 0 || size.height == 0 || self.driver.is_none() {
            return;
        }
        window.gl_window().resized(size);
        self.resized(window, size.width, size.height);
        if let Some(d) = self.driver.as_mut() {
            d.canvas().present();
        }
    }

    fn pointer(&mut self, kind: &str, code: u32) {
        if let Some(d) = self.driver.as_mut() {
            let c = d.canvas();
            let at = c.pointer.0;
            c.pointer_event(kind, code, at);
        }
    }

    fn key(&mut self, window: &mut Window<'_>, event: &winit::event::KeyEvent, synthetic: bool) {
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
        if pressed && self.options.quit_on_q && key.name == "q" {
            window.exit();
        }
    }
}

impl WindowApp for AnimatorApp<'_> {
    type Event = Input;

    fn start(&mut self, window: &mut Window<'_>, renderer: Renderer) -> Result<(), Error> {
        let options = super::CanvasOptions { suspend_waits: true, ..self.options.canvas.clone() };
        let mut canvas = super::canvas_frames::gl_canvas(renderer, options, crate::host::process_stdout());
        canvas.keepalive(self.options.keepalive);
        canvas.set_window(Box::new(Link { gfx: window.gl_window().clone(), requests: self.requests.clone() }));
        canvas.present();
        self.driver = Some(match self.source.take() {
            Some(AnimatorInput::Script(program, index)) => {
                Driver::Script(Box::new(Script::new(program, index, canvas).map_err(super::script::module_error)?))
            }
            _ => Driver::Stream(Box::new(Stream::new(canvas, "<stdin>"))),
        });
        let size = window.gl_window().window.inner_size();
        self.sync_size(window, size);
        if matches!(self.driver, Some(Driver::Script(_))) {
            self.run_program(window);
        }
        self.pump(window);
        Ok(())
    }

    fn renderer(&mut self) -> Option<&mut Renderer> {
        self.driver.as_mut().map(|d| &mut d.canvas().renderer)
    }

    fn resized(&mut self, _window: &mut Window<'_>, width: u32, height: u32) {
        let Some(driver) = self.driver.as_mut() else { return };
        if let Err(e) = driver.canvas().window_resized(width, height) {
            let _ = writeln!(self.stderr, "animvm: cannot resize to {width}x{height}: {e}");
        }
    }

    fn input(&mut self, window: &mut Window<'_>, event: WindowEvent) {
        match event {
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
            WindowEvent::KeyboardInput { event, is_synthetic, .. } => self.key(window, &event, is_synthetic),
            _ => {}
        }
    }

    fn user_event(&mut self, window: &mut Window<'_>, input: Input) {
        self.queue.push_back(input);
        self.pump(window);
    }

    fn deadline(&self) -> Option<Instant> {
        match (self.deadline, &self.watch) {
            (Some(d), Some(w)) => Some(d.min(w.next_poll())),
            (None, Some(w)) => Some(w.next_poll()),
            (d, None) => d,
        }
    }

    fn wake(&mut self, window: &mut Window<'_>) {
        if self.poll_watch(window) || self.deadline.is_none_or(|d| Instant::now() < d) {
            // Only the file was looked at: the program's own wait goes on.
            return;
        }
        self.deadline = None;
        if let Some(d) = self.driver.as_mut() {
            d.canvas().resume();
        }
        self.run_program(window);
        self.pump(window);
    }

    fn close(&mut self) {
        if let Some(mut d) = self.driver.take() {
            d.canvas().finish_progress();
            self.errors = d.error_count() + super::headless::lost_output(d.canvas(), self.stderr);
        }
        self.cursors.clear();
    }
}
