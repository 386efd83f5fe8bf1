//! The scene player window: `animvm scene.slap` (or its bundle) without
//! `-H` plays the scene at `--fps` frames a second (default 30) from
//! frame `--start`, on and on past its length (the actors keep doing what
//! they were last told) until the window is closed. The window is
//! resizable; the picture keeps the aspect of `-x` by `-y`, centred, with
//! black bars where the window's shape differs.
//!
//! Keys ([`command`]): **Space** pauses and resumes, **Left** / **Right**
//! step one frame back / forward (and pause), **R** restarts at the first
//! frame, **Q** or **Escape** quits. The title says the frame, the scene's
//! length and whether it is paused: `animvm story.slap: frame 120/1200
//! (paused)`.
//!
//! With `--watch` the file is looked at every
//! [`POLL`](crate::host::POLL); a save that builds replaces
//! the scene, which starts over at `--start` (paused or not, as it was),
//! and says so on standard error; a failed build prints its diagnostics
//! and the old scene plays on.

use super::{ErrorLog, SlapOptions, scene_of};
use crate::Error;
use crate::host::ticker::Ticker;
use crate::host::watch::ProgramWatch;
use crate::host::window_loop::{Window, WindowApp, WindowLoop, WindowOptions};
use crate::player::Player;
use crate::render::Renderer;
use animkit_vm::engine::slap::SceneSim;
use glow::HasContext;
use std::io::Write;
use std::time::Instant;
use winit::event::{ElementState, WindowEvent};
use winit::keyboard::{Key, NamedKey};
use winit::platform::modifier_supplement::KeyEventExtModifierSupplement;

/// What a key does in the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// Pause, or play on.
    TogglePause,
    /// Pause and go one frame back.
    StepBack,
    /// Pause and go one frame forward.
    StepForward,
    /// Back to the first frame.
    Restart,
    /// Close the player.
    Quit,
}

/// The command of a key (its symbol without modifiers).
///
/// ```
/// use animkit_runtime::slap::window::{command, Command};
/// use winit::keyboard::{Key, NamedKey};
/// assert_eq!(command(&Key::Named(NamedKey::Space)), Some(Command::TogglePause));
/// assert_eq!(command(&Key::Character(" ".into())), Some(Command::TogglePause));
/// assert_eq!(command(&Key::Named(NamedKey::ArrowLeft)), Some(Command::StepBack));
/// assert_eq!(command(&Key::Character("R".into())), Some(Command::Restart));
/// assert_eq!(command(&Key::Character("q".into())), Some(Command::Quit));
/// assert_eq!(command(&Key::Character("x".into())), None);
/// ```
pub fn command(key: &Key) -> Option<Command> {
    match key {
        Key::Named(NamedKey::Space) => Some(Command::TogglePause),
        Key::Named(NamedKey::ArrowLeft) => Some(Command::StepBack),
        Key::Named(NamedKey::ArrowRight) => Some(Command::StepForward),
        Key::Named(NamedKey::Escape) => Some(Command::Quit),
        Key::Character(s) => match s.to_ascii_lowercase().as_str() {
            " " => Some(Command::TogglePause),
            "r" => Some(Command::Restart),
            "q" => Some(Command::Quit),
            _ => None,
        },
        _ => None,
    }
}

/// The window's title for `file` at `frame` of a scene of `length`.
///
/// ```
/// use animkit_runtime::slap::window::title;
/// assert_eq!(title("story.slap", 120, 1200, true), "animvm story.slap: frame 120/1200 (paused)");
/// assert_eq!(title("s.animb", 3, 10, false), "animvm s.animb: frame 3/10");
/// ```
pub fn title(file: &str, frame: u64, length: u64, paused: bool) -> String {
    format!("animvm {file}: frame {frame}/{length}{}", if paused { " (paused)" } else { "" })
}

/// Plays `scene` (the SLAP module `name` of the file) in a window until it
/// is closed; returns the number of runtime errors reported.
///
/// The scene is drawn by the embedding [`Player`] over the window's GL
/// context, its viewport the whole window and its aspect `-x` by `-y`,
/// into the window's default framebuffer; the window has a depth buffer
/// ([`WindowApp::DEPTH`]), so the Player draws the 3D pass straight into
/// it ([`Player::draw`]). With `ANIMVM_DEBUG_DRAWS=1` in the environment
/// the player says on standard error, when the window closes, how many
/// pictures it drew and how many of them straight into the window:
/// `animvm: debug: 12 draws, 12 direct`.
pub fn run(options: &SlapOptions, scene: SceneSim, name: &str, stderr: &mut dyn Write) -> Result<usize, Error> {
    let watch = if options.watch { Some(ProgramWatch::new(&options.file)?.strict(options.strict)) } else { None };
    let window_loop = WindowLoop::<()>::new()?;
    let paused = false;
    let window = WindowOptions {
        width: options.width,
        height: options.height,
        title: title(&options.file, options.start, scene.length(), paused),
        resizable: true,
    };
    let mut app = ScenePlayer {
        scene: Some(scene),
        player: None,
        options,
        stderr,
        ticker: Ticker::with_rate(options.fps, Instant::now()),
        paused,
        errors: ErrorLog::default(),
        earlier_errors: 0,
        title: String::new(),
        watch,
        name: name.to_string(),
        draws: 0,
        direct_draws: 0,
    };
    window_loop.run(&window, &mut app)?;
    if let Some(scene) = app.scene.as_ref() {
        app.errors.finish(scene, app.stderr);
    }
    if std::env::var_os(DEBUG_DRAWS).is_some_and(|v| v == "1") {
        let _ = writeln!(app.stderr, "{}", debug_draws(app.draws, app.direct_draws));
    }
    Ok(app.earlier_errors + app.errors.count())
}

/// The environment variable that asks for [`debug_draws`]' line.
pub const DEBUG_DRAWS: &str = "ANIMVM_DEBUG_DRAWS";

/// The line `ANIMVM_DEBUG_DRAWS=1` prints when the window closes.
///
/// ```
/// use animkit_runtime::slap::window::debug_draws;
/// assert_eq!(debug_draws(12, 12), "animvm: debug: 12 draws, 12 direct");
/// ```
pub fn debug_draws(draws: u64, direct: u64) -> String {
    format!("animvm: debug: {draws} draws, {direct} direct")
}

struct ScenePlayer<'a> {
    /// The scene before the window opens and after it closes (the
    /// [`Player`] holds it meanwhile).
    scene: Option<SceneSim>,
    /// The scene drawn over the window's context.
    player: Option<Player>,
    options: &'a SlapOptions,
    stderr: &'a mut dyn Write,
    ticker: Ticker,
    paused: bool,
    errors: ErrorLog,
    /// Errors reported by the scenes that a save replaced.
    earlier_errors: usize,
    title: String,
    /// `--watch`: the file, looked at every [`POLL`](crate::host::POLL).
    watch: Option<ProgramWatch>,
    /// The SLAP module playing (what a new build is searched for).
    name: String,
    /// The player's pictures drawn into the window, and how many of them
    /// directly (kept when the player goes at the close).
    draws: u64,
    direct_draws: u64,
}

impl ScenePlayer<'_> {
    /// `--watch`: if it is time, looks at the file; a save that builds
    /// replaces the scene, started over. Whether the picture changed.
    fn poll_watch(&mut self, window: &mut Window<'_>) -> bool {
        let Some(w) = self.watch.as_mut() else { return false };
        let Some(program) = w.poll_due(&mut *self.stderr) else { return false };
        match scene_of(program, &self.name) {
            Ok(scene) => {
                let Some(player) = self.player.as_mut() else { return false };
                if let Some(old) = player.scene() {
                    self.errors.finish(old, self.stderr);
                }
                self.earlier_errors += self.errors.count();
                self.errors = ErrorLog::default();
                // A SLAP player always takes the scene.
                let _ = player.replace_scene(scene);
                let _ = writeln!(self.stderr, "animvm: reloaded `{}`: the scene starts over", w.file());
                self.act(window, Command::Restart);
                true
            }
            Err(e) => {
                w.refused(&e, &mut *self.stderr);
                false
            }
        }
    }

    /// Draws the current frame into the window and swaps.
    fn present(&mut self, window: &mut Window<'_>) {
        let Some(player) = self.player.as_mut() else { return };
        // SAFETY: the window's context is current on this thread (the
        // window loop's); framebuffer 0 is the window's.
        unsafe { player.gl().bind_framebuffer(glow::DRAW_FRAMEBUFFER, None) };
        let before = player.direct_draws();
        if let Err(e) = player.draw() {
            window.fail(Error::Draw(e));
            return;
        }
        self.draws += 1;
        self.direct_draws += player.direct_draws() - before;
        window.gl_window().swap();
    }

    /// Draws the current frame, shows it and updates the title.
    fn show(&mut self, window: &mut Window<'_>) {
        let Some(scene) = self.player.as_ref().and_then(Player::scene) else { return };
        self.errors.report(scene, self.stderr);
        let t = title(&self.options.file, scene.frame(), scene.length(), self.paused);
        self.present(window);
        if window.exiting() {
            return;
        }
        if t != self.title {
            window.gl_window().window.set_title(&t);
            self.title = t;
        }
    }

    fn act(&mut self, window: &mut Window<'_>, command: Command) {
        let Some(player) = self.player.as_mut() else { return };
        match command {
            Command::Quit => {
                window.exit();
                return;
            }
            Command::TogglePause => {
                self.paused = !self.paused;
                // Play on from now, without catching up the pause.
                self.ticker.restart(Instant::now());
                if !self.paused {
                    // The frame on screen has been seen: the next is due a
                    // period from now.
                    self.ticker.due(Instant::now());
                }
            }
            Command::StepBack => {
                self.paused = true;
                let frame = player.frame();
                if frame > 0 {
                    player.seek_unchecked(frame - 1);
                }
            }
            Command::StepForward => {
                self.paused = true;
                player.step();
            }
            Command::Restart => {
                player.restart();
                player.seek_unchecked(self.options.start);
                self.ticker.restart(Instant::now());
                self.ticker.due(Instant::now());
            }
        }
        self.show(window);
    }
}

impl WindowApp for ScenePlayer<'_> {
    type Event = ();

    /// The Player draws straight into the window's framebuffer.
    const DEPTH: bool = true;

    fn start(&mut self, window: &mut Window<'_>, renderer: Renderer) -> Result<(), Error> {
        // The Player makes its own renderer over the same context.
        drop(renderer);
        let Some(scene) = self.scene.take() else { return Ok(()) };
        let (w, h) = (self.options.width, self.options.height);
        let mut player = Player::with_scene(window.gl_window().share_gl(), scene, w, h).map_err(Error::Draw)?;
        player.set_aspect(Some((w, h)));
        player.seek_unchecked(self.options.start);
        self.player = Some(player);
        self.show(window);
        self.ticker.restart(Instant::now());
        self.ticker.due(Instant::now());
        Ok(())
    }

    fn renderer(&mut self) -> Option<&mut Renderer> {
        // The picture is drawn into the window by `present`, not copied
        // from a renderer.
        None
    }

    fn present(&mut self, window: &mut Window<'_>) {
        ScenePlayer::present(self, window);
    }

    fn resized(&mut self, window: &mut Window<'_>, width: u32, height: u32) {
        let Some(player) = self.player.as_mut() else { return };
        if let Err(e) = player.set_viewport(0, 0, width, height) {
            window.fail(Error::Host(format!("cannot resize the picture: {e}")));
            return;
        }
        // The loop presents after.
        if let Some(scene) = player.scene() {
            self.errors.report(scene, self.stderr);
        }
    }

    fn input(&mut self, window: &mut Window<'_>, event: WindowEvent) {
        if let WindowEvent::KeyboardInput { event, is_synthetic: false, .. } = event {
            // Held arrows step on; other keys act once per press.
            let steps = matches!(event.logical_key, Key::Named(NamedKey::ArrowLeft | NamedKey::ArrowRight));
            if event.state == ElementState::Pressed && (!event.repeat || steps) {
                if let Some(c) = command(&event.key_without_modifiers()) {
                    self.act(window, c);
                }
            }
        }
    }

    fn deadline(&self) -> Option<Instant> {
        let frame = (self.player.is_some() && !self.paused).then(|| self.ticker.next());
        let poll = self.watch.as_ref().map(ProgramWatch::next_poll);
        match (frame, poll) {
            (Some(f), Some(p)) => Some(f.min(p)),
            (f, p) => f.or(p),
        }
    }

    fn wake(&mut self, window: &mut Window<'_>) {
        if self.player.is_some() && self.poll_watch(window) {
            return;
        }
        if self.paused {
            return;
        }
        let steps = self.ticker.due(Instant::now());
        let Some(player) = self.player.as_mut() else { return };
        for _ in 0..steps {
            player.step();
        }
        if steps > 0 {
            self.show(window);
        }
    }

    fn close(&mut self) {
        // Before the window's context goes: the scene is kept for the
        // errors' summary.
        if let Some(player) = self.player.take() {
            self.scene = player.into_scene();
        }
    }
}
