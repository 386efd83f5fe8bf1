//! The player without its JavaScript skin: what `Player` does, over any
//! `glow::Context` (WebGL2 in the browser). It is the runtime's headless
//! frame logic, host by host, so the page draws what `animvm -H` draws:
//!
//! * sprites: frame `n` is the viewer after `n + 1` ticks
//!   (`animvm -H --ticks T -d head` writes frame `k` after tick `k`);
//! * SLAP: frame `n` is the scene seeked to `n` (`animvm -H --start n`);
//! * Animator: frame `n` is the picture of the program's `n + 1`-th flush
//!   (`-d head` frame `n`), waits passing on the runtime's virtual clock
//!   ([`animkit_runtime::clock`]) rather than the page's.
//!
//! It names no language: the module loaded is the one `animvm` picks
//! (the runtime's host table, [`run::pick_module`]), its content is
//! built from how the player plays its language ([`play`]: a scene, a
//! script, or refused by the player and drawn by the sprite viewer), and
//! `trace` goes through the runtime's host table ([`run::trace`]) after
//! its parser (`cli::parse`) and options table.

use crate::canvas::WebCanvas;
use crate::keys::Keyboard;
use animkit_runtime::animator::events;
use animkit_runtime::animator::script::Script;
use animkit_runtime::animator::stream::{Status, Stream};
use animkit_runtime::animator::{CanvasOptions, GlCanvas};
use animkit_runtime::cli::parse;
use animkit_runtime::clock::{Steps, run_waits};
use animkit_runtime::player::{Play, language_of, play, step_looping};
use animkit_runtime::render::Renderer;
use animkit_runtime::run;
use animkit_runtime::slap::view::SceneView;
use animkit_runtime::slap::{ErrorLog, MAX_FRAME};
use animkit_runtime::sprite::view::{Cells, SheetSpec, SpriteView, TICKS_PER_SECOND};
use animkit_vm::Program;
use animkit_vm::engine::program::Language;
use animkit_vm::engine::slap::SceneSim;
use animkit_vm::engine::sprite::Sprites;
use animkit_vm::engine::verify::Verified;
use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

/// The most ticks `renderFrame` runs a sprite for (about 93 hours at 50
/// ticks a second): a frame past it is refused rather than looped to.
pub const MAX_SPRITE_TICKS: u64 = 1 << 24;

/// Frames per second of SLAP playback at speed 1 (`animvm`'s default,
/// the native player's).
pub const SLAP_FPS: f64 = animkit_runtime::player::SLAP_FPS;

/// The most times one `advance` resumes an Animator script (each run
/// ends at a wait): the native player's bound.
pub const MAX_RUNS_PER_ADVANCE: u32 = animkit_runtime::player::MAX_RUNS_PER_UPDATE;

/// Where a canvas's `echo` and event lines go: a buffer the player drains.
#[derive(Clone, Default)]
pub struct SharedOut(pub Rc<RefCell<Vec<u8>>>);

impl Write for SharedOut {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Makes a fresh `glow::Context` on the page's one WebGL2 context (each
/// renderer owns one).
pub type MakeGl = Box<dyn Fn() -> glow::Context>;

// One value per player: the size of the largest variant does not matter.
#[allow(clippy::large_enum_variant)]
enum Content {
    Empty,
    Sprite { renderer: Renderer, view: SpriteView, sprites: Sprites },
    Slap { renderer: Renderer, view: SceneView, scene: SceneSim, log: ErrorLog },
    Script { script: Script<WebCanvas>, status: Status, wait: f64 },
    Stream { stream: Stream<WebCanvas> },
}

/// The player (see the [module documentation](self)).
pub struct Core {
    make_gl: MakeGl,
    width: u32,
    height: u32,
    name: String,
    program: Option<Verified<Program>>,
    module: usize,
    content: Content,
    out: SharedOut,
    /// Standard error's text: warnings, runtime errors.
    errors: Vec<u8>,
    sheets: Vec<(SheetSpec, Vec<u8>)>,
    start_state: Option<String>,
    playing: bool,
    speed: f64,
    /// Playback not yet turned into ticks or frames.
    steps: Steps,
    keyboard: Keyboard,
    /// `setState` switched the sprite mid-run: the next `renderFrame`
    /// starts over from the new state.
    restarted: bool,
    /// Whether frames are copied onto the default framebuffer (the
    /// page's canvas) as they are drawn; a game's context: no, the game
    /// asks for them ([`Core::blit_into_bound`]).
    presenting: bool,
}

impl Core {
    /// A player drawing `width` x `height` frames with contexts from
    /// `make_gl`.
    pub fn new(make_gl: MakeGl, width: u32, height: u32) -> Core {
        Core {
            make_gl,
            width: width.max(1),
            height: height.max(1),
            name: String::new(),
            program: None,
            module: 0,
            content: Content::Empty,
            out: SharedOut::default(),
            errors: Vec::new(),
            sheets: Vec::new(),
            start_state: None,
            playing: false,
            speed: 1.0,
            steps: Steps::default(),
            keyboard: Keyboard::default(),
            restarted: false,
            presenting: true,
        }
    }

    fn renderer(&self) -> Result<Renderer, String> {
        Renderer::new((self.make_gl)(), self.width, self.height).map_err(|e| format!("cannot start WebGL2: {e}"))
    }

    /// Loads a bundle (or a source of any language, compiled here), named
    /// `name` in messages, and draws its frame 0. On an error the message
    /// is returned (the text `animvm` prints for the same file) and the
    /// player keeps what it had.
    pub fn load(&mut self, name: &str, bytes: Vec<u8>) -> Result<(), String> {
        let mut warnings = Vec::new();
        let program = animkit_runtime::load::program_from_bytes_to(name, bytes, &mut warnings)?;
        self.errors.extend_from_slice(&warnings);
        let (module, _) = run::pick_module(&program, None)
            .map_err(|_| format!("error: `{name}`: the bundle has no module to run\n"))?;
        let old = (
            self.program.replace(program),
            std::mem::replace(&mut self.name, name.to_string()),
            std::mem::replace(&mut self.module, module),
            self.start_state.take(),
        );
        match self.rebuild().and_then(|()| self.render_frame(0)) {
            Ok(()) => Ok(()),
            Err(e) => {
                (self.program, self.name, self.module, self.start_state) = old;
                let _ = self.rebuild();
                Err(e)
            }
        }
    }

    /// The language of what is loaded: `sprite`, `slap`, `animator`
    /// (a script or a stream), or empty.
    pub fn language(&self) -> &'static str {
        match self.content {
            Content::Empty => "",
            // Animator commands: the language the player plays as a script.
            Content::Stream { .. } => language_of(Play::Script).name(),
            _ => self.program.as_ref().and_then(|p| p.modules.get(self.module)).map_or("", |m| m.language.name()),
        }
    }

    /// Starts the loaded program over (frame 0 not drawn yet).
    fn rebuild(&mut self) -> Result<(), String> {
        let Some(program) = self.program.clone() else {
            self.content = Content::Empty;
            return Ok(());
        };
        let language = program.modules.get(self.module).map(|m| m.language);
        // The player's table says how a module plays; what it refuses (a
        // sprite module, which a game draws) the page draws with the
        // runtime's sprite viewer, as `animvm` does.
        self.content = match language.map(play) {
            Some(Play::Refused) => {
                let mut renderer = self.renderer()?;
                let name = program.string(program.modules[self.module].name).to_string();
                let sprites = Sprites::new(Arc::new(program), &name).map_err(|e| e.to_string())?;
                let state = self.start_state.clone().unwrap_or_else(|| sprites.state_name(0).to_string());
                let sheets: Vec<SheetSpec> = self.sheets.iter().map(|(s, _)| s.clone()).collect();
                let bytes = &self.sheets;
                let view = SpriteView::with_loader(sprites.clone(), &state, &sheets, &mut renderer, |r, s| {
                    let png = bytes.iter().find(|(t, _)| t.category == s.category).map(|(_, b)| b.as_slice());
                    r.load_png_bytes(png.unwrap_or_default())
                })
                .map_err(|e| e.to_string())?;
                Content::Sprite { renderer, view, sprites }
            }
            Some(Play::Scene) => {
                let mut renderer = self.renderer()?;
                let view = SceneView::new(&mut renderer).map_err(|e| format!("cannot draw the scene: {e}"))?;
                let scene = SceneSim::with_index(Arc::new(program), self.module).map_err(|e| e.to_string())?;
                Content::Slap { renderer, view, scene, log: ErrorLog::default() }
            }
            Some(Play::Script) => {
                let canvas = self.canvas()?;
                let script = Script::new(program, self.module, canvas).map_err(|e| e.to_string())?;
                Content::Script { script, status: Status::NeedInput, wait: 0.0 }
            }
            None => Content::Empty,
        };
        Ok(())
    }

    fn canvas(&self) -> Result<WebCanvas, String> {
        let options = CanvasOptions { suspend_waits: true, ..CanvasOptions::default() };
        let inner = GlCanvas::new(self.renderer()?, options, Box::new(self.out.clone()));
        Ok(WebCanvas { inner, freeze_after: None })
    }

    /// Draws frame `n` (see the [module documentation](self)) and shows it.
    pub fn render_frame(&mut self, n: u64) -> Result<(), String> {
        let needs_rebuild = match &self.content {
            Content::Sprite { view, .. } => self.restarted || view.ticks() > n.saturating_add(1),
            Content::Script { script, .. } => {
                let c = script.canvas();
                c.frozen() || c.inner.flushes() > n
            }
            _ => false,
        };
        if needs_rebuild {
            self.rebuild()?;
        }
        self.restarted = false;
        match &mut self.content {
            Content::Empty => return Err("nothing is loaded".into()),
            Content::Sprite { renderer, view, .. } => {
                if n >= MAX_SPRITE_TICKS {
                    return Err(format!(
                        "frame {n} is past the last frame the player draws ({})",
                        MAX_SPRITE_TICKS - 1
                    ));
                }
                while view.ticks() < n + 1 {
                    view.tick();
                }
                view.draw(renderer);
            }
            Content::Slap { renderer, view, scene, log } => {
                if n > MAX_FRAME {
                    return Err(format!("frame {n} is past the last frame animvm plays ({MAX_FRAME})"));
                }
                scene.seek(n);
                log.report(scene, &mut self.errors);
                view.draw_scene(renderer, scene).map_err(|e| format!("cannot draw the scene: {e}"))?;
            }
            Content::Script { script, status, wait } => {
                script.canvas_mut().freeze_after = Some(n.saturating_add(1));
                loop {
                    *status = script.run(&mut self.errors);
                    match *status {
                        Status::Suspended(s) if script.canvas().inner.flushes() <= n => {
                            animkit_runtime::clock::advance(Duration::from_secs_f64(s.clamp(0.0, 1e9)));
                            script.canvas_mut().inner.resume();
                        }
                        Status::Suspended(s) => {
                            *wait = s;
                            break;
                        }
                        _ => break,
                    }
                }
            }
            Content::Stream { .. } => {
                return Err("a stream draws what it is fed (feed); renderFrame plays a bundle or a source".into());
            }
        }
        self.present();
        Ok(())
    }

    /// Whether frames are copied onto the default framebuffer as they are
    /// drawn (the default); off for a player in a game's context.
    pub fn set_presenting(&mut self, on: bool) {
        self.presenting = on;
    }

    /// Draws what the renderer still holds into the player's framebuffer
    /// (which it binds).
    pub fn flush(&mut self) {
        if let Some(r) = self.renderer_mut() {
            r.flush();
        }
    }

    /// Copies the frame into the draw framebuffer bound now, its
    /// bottom-left corner at `(x, y)`, 1:1, after a [`Core::flush`] (GL
    /// state changed: see `Renderer::blit_into`).
    pub fn blit_into_bound(&mut self, x: i32, y: i32) {
        if let Some(r) = self.renderer_mut() {
            r.blit_into_bound(x, y);
        }
    }

    /// Frames of `width` x `height` from now on: what is loaded starts
    /// over at the new size and the frame shown is drawn again (a stream
    /// starts empty).
    pub fn resize(&mut self, width: u32, height: u32) -> Result<(), String> {
        let (width, height) = (width.max(1), height.max(1));
        if (width, height) == (self.width, self.height) {
            return Ok(());
        }
        let frame = self.frame();
        (self.width, self.height) = (width, height);
        self.rebuild()?;
        match self.content {
            Content::Empty | Content::Stream { .. } => Ok(()),
            _ => self.render_frame(frame),
        }
    }

    /// Copies the frame onto the page's canvas.
    fn present(&mut self) {
        if !self.presenting {
            return;
        }
        let (w, h) = (self.width, self.height);
        if let Some(r) = self.renderer_mut() {
            r.blit_to_default_framebuffer(w, h);
        }
    }

    fn renderer_mut(&mut self) -> Option<&mut Renderer> {
        match &mut self.content {
            Content::Empty => None,
            Content::Sprite { renderer, .. } | Content::Slap { renderer, .. } => Some(renderer),
            Content::Script { script, .. } => Some(&mut script.canvas_mut().inner.renderer),
            Content::Stream { stream, .. } => Some(&mut stream.canvas_mut().inner.renderer),
        }
    }

    /// The frame shown: the sprite's tick, the scene's frame, or the
    /// Animator program's last flushed frame (0 before any).
    pub fn frame(&self) -> u64 {
        match &self.content {
            Content::Empty => 0,
            Content::Sprite { view, .. } => view.ticks().saturating_sub(1),
            Content::Slap { scene, .. } => scene.frame(),
            Content::Script { script, .. } => script.canvas().inner.flushes().saturating_sub(1),
            Content::Stream { stream, .. } => stream.canvas().inner.flushes().saturating_sub(1),
        }
    }

    /// The current frame's pixels, top row first, RGBA8.
    pub fn read_pixels(&mut self) -> Vec<u8> {
        match self.renderer_mut() {
            Some(r) => r.read_pixels().data,
            None => Vec::new(),
        }
    }

    /// Starts playback: [`advance`](Self::advance) then moves it on.
    pub fn play(&mut self) {
        if let Content::Script { script, .. } = &mut self.content
            && script.canvas().frozen()
        {
            // Frames after a renderFrame were not drawn: play from the
            // start of the program.
            let _ = self.rebuild();
        }
        if let Content::Script { script, .. } = &mut self.content {
            script.canvas_mut().freeze_after = None;
        }
        self.playing = true;
    }

    /// Stops playback where it is.
    pub fn pause(&mut self) {
        self.playing = false;
    }

    /// True while playing.
    pub fn is_playing(&self) -> bool {
        self.playing
    }

    /// Playback speed (1 = 50 sprite ticks or 30 SLAP frames a second,
    /// Animator waits as written); 0 to 64.
    pub fn set_speed(&mut self, speed: f64) {
        self.speed = if speed.is_finite() { speed.clamp(0.0, 64.0) } else { 1.0 };
    }

    /// Playback: `ms` milliseconds of page time have passed.
    pub fn advance(&mut self, ms: f64) -> Result<(), String> {
        if !self.playing || !ms.is_finite() || ms <= 0.0 {
            return Ok(());
        }
        let dt = ms.min(1000.0) / 1000.0 * self.speed;
        match &mut self.content {
            Content::Empty | Content::Stream { .. } => return Ok(()),
            // The player crate's stepping (`clock::Steps`), as
            // `Player::update` steps: ticks at 50 a second, SLAP frames at
            // 30, looping at the scene's end.
            Content::Sprite { renderer, view, .. } => {
                let ticks = self.steps.add(dt, 1.0 / f64::from(TICKS_PER_SECOND));
                for _ in 0..ticks {
                    view.tick();
                }
                if ticks > 0 {
                    view.draw(renderer);
                }
            }
            Content::Slap { renderer, view, scene, log } => {
                let frames = self.steps.add(dt, 1.0 / SLAP_FPS);
                if frames > 0 {
                    step_looping(scene, frames);
                    log.report(scene, &mut self.errors);
                    view.draw_scene(renderer, scene).map_err(|e| format!("cannot draw the scene: {e}"))?;
                }
            }
            Content::Script { script, status, wait } => {
                if matches!(status, Status::Done | Status::Quit) {
                    return Ok(());
                }
                // `Player::update`'s wait loop (`clock::run_waits`): a
                // program of tiny waits cannot hold the page, at most
                // MAX_RUNS_PER_ADVANCE runs a call. Each wait over moves
                // the virtual clock on by it.
                let errors = &mut self.errors;
                run_waits(wait, dt, MAX_RUNS_PER_ADVANCE, || {
                    if let Status::Suspended(s) = *status {
                        animkit_runtime::clock::advance(Duration::from_secs_f64(s.clamp(0.0, 1e9)));
                        script.canvas_mut().inner.resume();
                    }
                    *status = script.run(errors);
                    match *status {
                        Status::Suspended(s) => Some(s),
                        _ => None,
                    }
                });
            }
        }
        self.present();
        Ok(())
    }

    /// Seeks: the frame `n` drawn, playing or not.
    pub fn seek(&mut self, n: u64) -> Result<(), String> {
        self.steps.reset();
        let playing = self.playing;
        self.render_frame(n)?;
        if playing {
            self.play();
        }
        Ok(())
    }

    /// The sprite's state now.
    pub fn state(&mut self) -> Option<String> {
        match &mut self.content {
            Content::Sprite { view, .. } => Some(view.instance().state_name().to_string()),
            _ => None,
        }
    }

    /// The sprite module's states, in order.
    pub fn states(&self) -> Vec<String> {
        match &self.content {
            Content::Sprite { sprites, .. } => {
                (0..sprites.state_count()).map(|i| sprites.state_name(i as u16).to_string()).collect()
            }
            _ => Vec::new(),
        }
    }

    /// Switches the sprite to `state` now (as the viewer's keys do); later
    /// `renderFrame`s start from it.
    pub fn set_state(&mut self, state: &str) -> Result<(), String> {
        match &mut self.content {
            Content::Sprite { view, renderer, .. } => {
                view.set_state(state).map_err(|e| e.to_string())?;
                view.draw(renderer);
                self.start_state = Some(state.to_string());
                self.restarted = true;
            }
            _ => return Err("setState: no sprite module is loaded".into()),
        }
        self.present();
        Ok(())
    }

    /// The sprite sheet of `category`: PNG bytes cut into `cols` x `rows`
    /// cells (`animvm --sheet Category=sheet.png:COLSxROWS`); `url` names
    /// it in messages. Applies from the next load (or now, for a sprite
    /// module loaded already, which starts over).
    pub fn set_sheet(&mut self, category: &str, url: &str, png: Vec<u8>, cols: u32, rows: u32) -> Result<(), String> {
        if category.is_empty() || cols == 0 || rows == 0 {
            return Err(format!("sheet `{url}`: give a category and at least 1x1 cells"));
        }
        let spec = SheetSpec { category: category.into(), path: url.into(), cells: Cells::Grid { cols, rows } };
        let old = self.sheets.clone();
        self.sheets.retain(|(s, _)| s.category != category);
        self.sheets.push((spec, png));
        if matches!(self.content, Content::Sprite { .. }) {
            if let Err(e) = self.rebuild().and_then(|()| self.render_frame(0)) {
                self.sheets = old;
                let _ = self.rebuild().and_then(|()| self.render_frame(0));
                return Err(e);
            }
        }
        Ok(())
    }

    /// `animvm --trace ARGS FILE` for the loaded file: the text it prints
    /// on standard output (`ARGS`: `--ticks N`, `--state NAME` for
    /// sprites; `--frames N`, `--start F` for SLAP; `--module NAME`),
    /// read by `animvm`'s own parser and options table, traced by the
    /// module's host ([`run::trace`]).
    pub fn trace(&mut self, args: &str) -> Result<String, String> {
        let program = self.program.clone().ok_or("nothing is loaded")?;
        let words: Vec<String> = args.split_whitespace().map(String::from).collect();
        let mut parsed = parse(&words).map_err(|e| format!("trace: {e}"))?;
        if let Some(w) = &parsed.file {
            return Err(format!("trace: unknown option `{w}`"));
        }
        parsed.trace = true;
        parsed.file = Some(self.name.clone());
        // The module named, or the first module of the first language
        // that traces, in `animvm`'s order.
        let traced = |l: Language| run::host_of(l).traces;
        let index = match &parsed.module {
            Some(m) => program.modules.iter().position(|x| program.string(x.name) == m),
            None => run::preference()
                .into_iter()
                .filter(|&l| traced(l))
                .find_map(|l| program.modules.iter().position(|m| m.language == l)),
        }
        .ok_or_else(|| format!("trace: `{}` has no {} module to trace", self.name, traced_words()))?;
        let language = program.modules[index].language;
        // Another language's options are refused by animvm's table.
        run::refuse_foreign_options(&parsed, language, &self.name).map_err(|e| format!("trace: {e}"))?;
        if !traced(language) {
            return Err(format!("trace: {} modules are not traced (as in animvm)", run::host_of(language).word));
        }
        let mut out = Vec::new();
        run::trace(&parsed, program, index, &mut out, &mut self.errors).map_err(|e| match e {
            // A module's refusal is its own words; the others animvm's.
            animkit_runtime::Error::Module(m) => m,
            e => e.report(),
        })?;
        String::from_utf8(out).map_err(|e| e.to_string())
    }

    /// Feeds Animator stream text (as on `animvm`'s standard input): the
    /// first feed after loading something else starts a new stream.
    /// Complete commands run at once; waits pass on the virtual clock.
    pub fn feed(&mut self, text: &str) -> Result<(), String> {
        if !matches!(self.content, Content::Stream { .. }) {
            let stream = Stream::new(self.canvas()?, "<stdin>");
            self.program = None;
            self.name = "<stdin>".into();
            self.content = Content::Stream { stream };
        }
        if let Content::Stream { stream, .. } = &mut self.content {
            stream.push(text.as_bytes());
            while let Status::Suspended(s) = stream.run(&mut self.errors) {
                animkit_runtime::clock::advance(Duration::from_secs_f64(s.clamp(0.0, 1e9)));
                stream.canvas_mut().inner.resume();
            }
        }
        self.present();
        Ok(())
    }

    fn animator_canvas(&mut self) -> Option<&mut GlCanvas> {
        match &mut self.content {
            Content::Script { script, .. } => Some(&mut script.canvas_mut().inner),
            Content::Stream { stream, .. } => Some(&mut stream.canvas_mut().inner),
            _ => None,
        }
    }

    /// The pointer moved to canvas pixel `(x, y)`: `MOTION mask x y
    /// areas` (if events are on), as in `animvm`'s window.
    pub fn pointer_move(&mut self, x: f64, y: f64) {
        if let Some(c) = self.animator_canvas() {
            let at = [x, y];
            if at != c.pointer.0 {
                let mask = c.pointer.1;
                c.pointer_event("MOTION", mask, at);
            }
        }
    }

    /// Button `button` (1 left, 2 middle, 3 right, SDL's numbers) went
    /// down (`down`) or up at `(x, y)`: the move there first, then
    /// `PRESS` / `RELEASE`.
    pub fn pointer_button(&mut self, x: f64, y: f64, button: u32, down: bool) {
        self.pointer_move(x, y);
        if let Some(c) = self.animator_canvas() {
            let bit = if (1..=32).contains(&button) { 1 << (button - 1) } else { 0 };
            let at = c.pointer.0;
            if down {
                c.pointer.1 |= bit;
                c.pointer_event("PRESS", button, at);
            } else {
                c.pointer.1 &= !bit;
                c.pointer_event("RELEASE", button, at);
            }
        }
    }

    /// A DOM key event (`code`, `key`, auto-repeat): its KEYDOWN / KEYUP
    /// line if events are on.
    pub fn key(&mut self, code: &str, key: &str, down: bool, repeat: bool) {
        let line = if down { self.keyboard.down(code, key, repeat) } else { self.keyboard.up(code, key) };
        if let (Some(line), Some(c)) = (line, self.animator_canvas())
            && c.events_on()
        {
            c.emit(&line);
        }
    }

    /// Lines printed since the last call (`echo`, events: `animvm`'s
    /// standard output).
    pub fn take_output(&mut self) -> String {
        let bytes = std::mem::take(&mut *self.out.0.borrow_mut());
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// Standard error's text since the last call (warnings, runtime
    /// errors).
    pub fn take_errors(&mut self) -> String {
        String::from_utf8_lossy(&std::mem::take(&mut self.errors)).into_owned()
    }

    /// Frame width.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Frame height.
    pub fn height(&self) -> u32 {
        self.height
    }
}

// `events` is what formats the lines the canvas prints; the key lines are
// built in `keys.rs` in the same format (checked there).
const _: fn(u32, u32, &str) -> String = events::keydown_line;

/// The languages that trace, in `animvm`'s order, as a message names
/// them: `sprite or SLAP`.
fn traced_words() -> String {
    let words: Vec<&str> =
        run::preference().into_iter().filter(|&l| run::host_of(l).traces).map(|l| run::host_of(l).word).collect();
    words.join(" or ")
}
