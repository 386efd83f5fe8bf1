//! [`Player`]: a SLAP scene or an Animator program drawn into a game's own
//! GL context, in a viewport the game picks, on the game's clock.
//!
//! The player has no window and no EGL of its own. The game hands it a
//! `glow::Context` over the game's current GL context (a second handle made
//! with the same loader: glow keeps function pointers only, so both handles
//! reach the same GL objects), calls [`Player::update`] with its frame time,
//! forwards pointer and key input, and calls [`Player::draw`] where in its
//! frame the picture belongs. The picture is drawn into the player's own
//! offscreen framebuffer and copied into the game's framebuffer at the
//! viewport; the game's GL state is saved before and restored after every
//! call that touches GL (see [`GlState`] for the list).
//!
//! Contract: the context behind the handle stays current on the calling
//! thread whenever a player method runs or the player is dropped (every
//! `unsafe` block in this file is a GL call relying on it). If making the
//! player's renderer itself fails (no GL objects could be made), the
//! handle is gone with it and the state is not put back; every other
//! refusal (no such module, a bad size, a module that cannot run) puts it
//! back.
//!
//! ```no_run
//! use animkit_player::player::Player;
//! # fn game_gl() -> glow::Context { unimplemented!() }
//! # fn bundle() -> animkit_vm::engine::verify::Verified<animkit_vm::Program> { unimplemented!() }
//! let mut cutscene = Player::new(game_gl(), bundle(), None, 320, 180)?;
//! cutscene.set_viewport(10, 10, 320, 180); // GL coordinates: from the bottom-left
//! // each frame of the game:
//! cutscene.update(1.0 / 60.0)?;
//! cutscene.draw(); // into the framebuffer the game has bound
//! # Ok::<(), animkit_player::player::PlayerError>(())
//! ```

use crate::animator::script::Script;
use crate::animator::script::Status;
use crate::animator::{CanvasOptions, GlCanvas};
use crate::clock::{Steps, run_waits};
pub use crate::gl_state::{GlState, SAVED_TEXTURE_UNITS};
use crate::gl_state::{baseline, has_depth};
use crate::render::Renderer;
use crate::slap::view::SceneView;
use crate::slap::{ErrorLog, MAX_FRAME};
use animkit_vm::Program;
use animkit_vm::engine::program::Language;
use animkit_vm::engine::slap::SceneSim;
use animkit_vm::engine::verify::Verified;
use glow::HasContext;
use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;
use std::sync::Arc;

// Why a player refused or could not draw: defined below this module and
// the Animator runner (`animator::script`), which both return it.
pub use crate::player_error::PlayerError;

/// SLAP frames per second at speed 1 (`animvm`'s default).
pub const SLAP_FPS: f64 = crate::slap::DEFAULT_FPS;

/// The most times one [`Player::update`] resumes an Animator program.
pub const MAX_RUNS_PER_UPDATE: u32 = 10_000;

/// Where the program's `echo` and event lines go until drained.
#[derive(Clone, Default)]
struct SharedOut(Rc<RefCell<Vec<u8>>>);

impl Write for SharedOut {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// How the player plays a language's modules ([`play`]): the web player
/// builds its content from it too (a refused language is drawn there by
/// the runtime's sprite viewer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Play {
    /// Not at all: the game draws them ([`PlayerError::SpriteModule`]).
    Refused,
    /// As a program run by a [`Script`] (the player's Animator content).
    Script,
    /// As a scene stepped on the clock (the player's SLAP content).
    Scene,
}

/// A language's row of [`PLAYS`].
struct PlayRow {
    language: Language,
    /// How the player plays its modules.
    play: Play,
    /// Its place when no module is named (lowest first; `None`: never
    /// picked).
    preference: Option<u8>,
}

/// How the player plays each language, in the language table's order
/// (`vm/src/program.rs`, checked when the crate compiles): the one place
/// the player names a language. The module choice, the content built and
/// [`Player::language`] read it.
const PLAYS: [PlayRow; Language::ALL.len()] = [
    PlayRow { language: Language::Sprite, play: Play::Refused, preference: None },
    PlayRow { language: Language::Animator, play: Play::Script, preference: Some(0) },
    PlayRow { language: Language::Slap, play: Play::Scene, preference: Some(1) },
];

const _: () = {
    let mut i = 0;
    while i < PLAYS.len() {
        assert!(PLAYS[i].language as usize == i);
        i += 1;
    }
};

/// How the player plays `language`'s modules (its row of the table).
///
/// ```
/// use animkit_player::player::{Play, play};
/// use animkit_vm::engine::program::Language;
/// assert_eq!(Language::ALL.map(play), [Play::Refused, Play::Script, Play::Scene]);
/// ```
pub const fn play(language: Language) -> Play {
    PLAYS[language as usize].play
}

/// The language a kind of content plays (one language a kind: a kind of
/// content with no row, or two rows of a kind, does not compile; called
/// with [`Play::Refused`] when two languages are refused, it panics).
///
/// ```
/// use animkit_player::player::{Play, language_of};
/// assert_eq!(language_of(Play::Script).name(), "animator");
/// ```
pub const fn language_of(play: Play) -> Language {
    let mut found = None;
    let mut i = 0;
    while i < PLAYS.len() {
        if PLAYS[i].play as u8 == play as u8 {
            assert!(found.is_none(), "two languages played alike");
            found = Some(PLAYS[i].language);
        }
        i += 1;
    }
    match found {
        Some(l) => l,
        None => panic!("a kind of content with no language"),
    }
}

const SCRIPT_LANGUAGE: Language = language_of(Play::Script);
const SCENE_LANGUAGE: Language = language_of(Play::Scene);

/// Moves `scene` `frames` frames on, starting over after its last frame:
/// how [`Player::update`] plays a scene on the clock, and the web player's
/// `advance` too.
pub fn step_looping(scene: &mut SceneSim, frames: u64) {
    for _ in 0..frames {
        if scene.frame() >= scene.length() {
            scene.restart();
        } else {
            scene.step();
        }
    }
}

/// The module played when none is named: the first module of the most
/// preferred language that has one ([`PLAYS`]' `preference`).
fn preferred_module(program: &Program) -> Option<usize> {
    let mut best: Option<(u8, usize)> = None;
    for (i, m) in program.modules.iter().enumerate() {
        match (PLAYS[m.language as usize].preference, best) {
            (Some(rank), Some((r, _))) if rank >= r => {}
            (Some(rank), _) => best = Some((rank, i)),
            (None, _) => {}
        }
    }
    best.map(|(_, i)| i)
}

// One value per player: the size of the largest variant does not matter.
#[allow(clippy::large_enum_variant)]
enum Content {
    Slap { renderer: Renderer, view: SceneView, scene: SceneSim, log: ErrorLog, drawn: Option<u64> },
    Animator { script: Script<GlCanvas>, status: Status, wait: f64 },
}

/// A SLAP scene or an Animator program played inside a game (see the
/// [module documentation](self)). GL state: every method that calls GL
/// ([`new`](Self::new), [`update`](Self::update), [`seek`](Self::seek),
/// [`set_viewport`](Self::set_viewport), [`draw`](Self::draw),
/// [`read_pixels`](Self::read_pixels)) saves the state listed on
/// [`GlState`] first and restores it before returning.
pub struct Player {
    content: Content,
    /// The viewport in the game's framebuffer: x, y (GL: from the
    /// bottom-left), width, height.
    viewport: [i32; 4],
    out: SharedOut,
    errors: Vec<u8>,
    /// Game time not yet turned into SLAP frames.
    steps: Steps,
    speed: f64,
    /// Mouse buttons down (bit `n - 1` for button `n`).
    buttons: u32,
    /// SLAP draws made straight into the game's framebuffer.
    direct_draws: u64,
    /// Whether [`draw`](Player::draw) may draw a SLAP scene straight into
    /// the game's framebuffer.
    direct: bool,
    /// A SLAP picture's aspect when it is not the viewport's
    /// ([`set_aspect`](Player::set_aspect)).
    aspect: Option<(u32, u32)>,
}

impl Player {
    /// A player for module `module` (by name; `None`: the first Animator
    /// module, else the first SLAP one) of `program`, drawing
    /// `width` x `height` pictures with `gl`, a handle on the game's GL
    /// context, current on this thread. The viewport starts at `(0, 0)`.
    /// SLAP scenes start at frame 0; Animator programs run to their first
    /// wait.
    pub fn new(
        gl: glow::Context,
        program: Verified<Program>,
        module: Option<&str>,
        width: u32,
        height: u32,
    ) -> Result<Player, PlayerError> {
        let index = match module {
            Some(name) => (0..program.modules.len())
                .find(|&i| program.string(program.modules[i].name) == name)
                .ok_or_else(|| PlayerError::NoSuchModule(name.to_string()))?,
            None => preferred_module(&program).ok_or(PlayerError::NoPlayableModule)?,
        };
        // SAFETY: the caller guarantees `gl` is current.
        let saved = unsafe { GlState::save(&gl) };
        // SAFETY: as above.
        unsafe { baseline(&gl) };
        // On this error the handle is gone with the renderer: the state
        // cannot be put back (a zero or oversized size is refused first).
        if width == 0 || height == 0 || width > crate::render::MAX_IMAGE_SIZE || height > crate::render::MAX_IMAGE_SIZE
        {
            unsafe { saved.restore(&gl) };
            return Err(PlayerError::BadSize { width, height });
        }
        let play = play(program.modules[index].language);
        if play == Play::Script {
            // Refusals first, while the state can still be put back.
            if let Err(e) =
                Script::new(program.clone(), index, animkit_vm::engine::animator::record::Recorder::default())
            {
                unsafe { saved.restore(&gl) };
                return Err(e);
            }
        }
        let scene = match play {
            Play::Scene => match SceneSim::with_index(Arc::new(program.clone()), index) {
                Ok(s) => Some(s),
                Err(e) => {
                    unsafe { saved.restore(&gl) };
                    return Err(PlayerError::Module(e.to_string()));
                }
            },
            Play::Script => None,
            Play::Refused => {
                unsafe { saved.restore(&gl) };
                return Err(PlayerError::SpriteModule);
            }
        };
        Self::make(gl, saved, scene.ok_or((program, index)), width, height)
    }

    /// A player for module `module` of a bundle a game opened with
    /// [`Bundle::open`](animkit_vm::game::Bundle::open) or
    /// [`Bundle::from_bytes`](animkit_vm::game::Bundle::from_bytes): the
    /// precompiled path (an `.animb` file written by `animc`, no compiler
    /// at run time). As [`new`](Self::new) otherwise: `None` picks the
    /// first Animator module, else the first SLAP one; the same refusals.
    ///
    /// ```no_run
    /// use animkit_player::player::Player;
    /// use animkit_vm::game::Bundle;
    /// # fn game_gl() -> glow::Context { unimplemented!() }
    /// let bundle = Bundle::open("game.animb")?; // animc hero.anim story.slap hud.draw -o game.animb
    /// let mut cutscene = Player::from_bundle(game_gl(), &bundle, Some("story"), 400, 240)?;
    /// let mut hud = Player::from_bundle(game_gl(), &bundle, Some("hud"), 200, 40)?;
    /// cutscene.update(1.0 / 60.0)?;
    /// cutscene.draw()?;
    /// hud.draw()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_bundle(
        gl: glow::Context,
        bundle: &animkit_vm::game::Bundle,
        module: Option<&str>,
        width: u32,
        height: u32,
    ) -> Result<Player, PlayerError> {
        Player::new(gl, bundle.program().as_ref().clone(), module, width, height)
    }

    /// A player for a SLAP scene the caller has opened (and may have moved
    /// on): what `animvm -H` draws a scene with.
    pub fn with_scene(gl: glow::Context, scene: SceneSim, width: u32, height: u32) -> Result<Player, PlayerError> {
        // SAFETY: the caller guarantees `gl` is current.
        let saved = unsafe { GlState::save(&gl) };
        unsafe { baseline(&gl) };
        if width == 0 || height == 0 || width > crate::render::MAX_IMAGE_SIZE || height > crate::render::MAX_IMAGE_SIZE
        {
            unsafe { saved.restore(&gl) };
            return Err(PlayerError::BadSize { width, height });
        }
        Self::make(gl, saved, Ok(scene), width, height)
    }

    fn make(
        gl: glow::Context,
        saved: GlState,
        what: Result<SceneSim, (Verified<Program>, usize)>,
        width: u32,
        height: u32,
    ) -> Result<Player, PlayerError> {
        let out = SharedOut::default();
        let mut renderer = Renderer::new(gl, width, height).map_err(|e| PlayerError::Gl(e.to_string()))?;
        let content = match what {
            Ok(scene) => match SceneView::new(&mut renderer) {
                Ok(view) => Content::Slap { renderer, view, scene, log: ErrorLog::default(), drawn: None },
                Err(e) => {
                    unsafe { saved.restore(renderer.gl()) };
                    return Err(PlayerError::Draw(e.to_string()));
                }
            },
            Err((program, index)) => {
                let options = CanvasOptions { suspend_waits: true, ..CanvasOptions::default() };
                let canvas = GlCanvas::new(renderer, options, Box::new(out.clone()));
                let script = Script::new(program, index, canvas)?;
                Content::Animator { script, status: Status::NeedInput, wait: 0.0 }
            }
        };
        let mut player = Player {
            content,
            viewport: [0, 0, width as i32, height as i32],
            out,
            errors: Vec::new(),
            steps: Steps::default(),
            speed: 1.0,
            buttons: 0,
            direct_draws: 0,
            direct: true,
            aspect: None,
        };
        player.with_gl(|p| {
            if let Content::Animator { .. } = p.content {
                p.run_animator(0.0);
            }
        });
        // SAFETY: current; the saved objects are the game's.
        unsafe { saved.restore(player.gl()) };
        Ok(player)
    }

    /// The handle on the game's context the player draws with.
    pub fn gl(&self) -> &glow::Context {
        match &self.content {
            Content::Slap { renderer, .. } => renderer.gl(),
            Content::Animator { script, .. } => script.canvas().renderer.gl(),
        }
    }

    /// Runs `f` between a save and a restore of the game's GL state.
    fn with_gl<T>(&mut self, f: impl FnOnce(&mut Player) -> T) -> T {
        // SAFETY: the player's context is current (its contract).
        let saved = unsafe { GlState::save(self.gl()) };
        unsafe { baseline(self.gl()) };
        let t = f(self);
        // SAFETY: as above; the saved objects are the game's.
        unsafe { saved.restore(self.gl()) };
        t
    }

    /// `slap` or `animator`: [`module_language`](Self::module_language)'s
    /// name.
    pub fn language(&self) -> &'static str {
        self.module_language().name()
    }

    /// The language of the module played.
    pub fn module_language(&self) -> Language {
        match self.content {
            Content::Slap { .. } => SCENE_LANGUAGE,
            Content::Animator { .. } => SCRIPT_LANGUAGE,
        }
    }

    /// Whether the player plays modules of `language` (else
    /// [`PlayerError::SpriteModule`]).
    ///
    /// ```
    /// use animkit_player::player::Player;
    /// use animkit_vm::engine::program::Language;
    /// assert!(Player::plays(Language::Slap) && Player::plays(Language::Animator));
    /// assert!(!Player::plays(Language::Sprite));
    /// ```
    pub fn plays(language: Language) -> bool {
        play(language) != Play::Refused
    }

    /// Where [`draw`](Self::draw) puts the picture in the game's
    /// framebuffer: `x`, `y` from the bottom-left corner (as
    /// `glViewport`), `width` x `height` pixels. A new size resizes the
    /// picture (a SLAP scene keeps its aspect; an Animator program gets a
    /// `RESIZE` event if it asked for events).
    pub fn set_viewport(&mut self, x: i32, y: i32, width: u32, height: u32) -> Result<(), PlayerError> {
        let (w, h) = (width.max(1), height.max(1));
        self.viewport = [x, y, w as i32, h as i32];
        let aspect = self.aspect.unwrap_or((w, h));
        self.with_gl(|p| match &mut p.content {
            Content::Slap { renderer, view, drawn, .. } => {
                if renderer.size() != (w, h) {
                    renderer.resize(w, h, false).map_err(|e| PlayerError::Resize(e.to_string()))?;
                    view.set_aspect(aspect.0, aspect.1);
                    *drawn = None;
                }
                Ok(())
            }
            Content::Animator { script, .. } => {
                let c = script.canvas_mut();
                if c.renderer.size() != (w, h) {
                    c.window_resized(w, h).map_err(|e| PlayerError::Resize(e.to_string()))?;
                }
                Ok(())
            }
        })
    }

    /// Keeps a SLAP picture at the aspect `width : height` whatever the
    /// viewport's shape: a viewport of another shape shows it centred,
    /// with black bars (what `animvm`'s player window does with `-x` by
    /// `-y`). `None`, the default, follows the viewport. Nothing for an
    /// Animator program.
    ///
    /// ```no_run
    /// # fn f(p: &mut animkit_player::player::Player) {
    /// p.set_aspect(Some((320, 240)));
    /// # }
    /// ```
    pub fn set_aspect(&mut self, aspect: Option<(u32, u32)>) {
        self.aspect = aspect;
        let [.., w, h] = self.viewport;
        let (w, h) = aspect.unwrap_or((w as u32, h as u32));
        if let Content::Slap { view, drawn, .. } = &mut self.content {
            view.set_aspect(w, h);
            *drawn = None;
        }
    }

    /// The viewport: x, y (from the bottom-left), width, height.
    pub fn viewport(&self) -> [i32; 4] {
        self.viewport
    }

    /// Playback speed (1: 30 SLAP frames a second, Animator waits as
    /// written); 0 to 64.
    pub fn set_speed(&mut self, speed: f64) {
        self.speed = if speed.is_finite() { speed.clamp(0.0, 64.0) } else { 1.0 };
    }

    /// `dt` seconds of the game's clock have passed: a SLAP scene steps
    /// (30 frames a second, looping at its end), an Animator program's
    /// wait runs down and the program goes on when it is over.
    pub fn update(&mut self, dt: f64) -> Result<(), PlayerError> {
        if !dt.is_finite() || dt <= 0.0 {
            return Ok(());
        }
        let dt = dt.min(1.0) * self.speed;
        match &mut self.content {
            Content::Slap { scene, log, .. } => {
                step_looping(scene, self.steps.add(dt, 1.0 / SLAP_FPS));
                log.report(scene, &mut self.errors);
                Ok(())
            }
            Content::Animator { .. } => {
                self.with_gl(|p| p.run_animator(dt));
                Ok(())
            }
        }
    }

    /// Moves a SLAP scene to frame `frame` (what `animvm -H --start` draws
    /// first).
    pub fn seek(&mut self, frame: u64) -> Result<(), PlayerError> {
        match &mut self.content {
            Content::Slap { scene, log, .. } => {
                if frame > MAX_FRAME {
                    return Err(PlayerError::PastLastFrame { frame, last: MAX_FRAME });
                }
                scene.seek(frame);
                self.steps.reset();
                log.report(scene, &mut self.errors);
                Ok(())
            }
            Content::Animator { .. } => Err(PlayerError::SeekAnimator),
        }
    }

    /// Like [`seek`](Self::seek) without the frame limit (the caller has
    /// checked the range, as `animvm` does).
    pub fn seek_unchecked(&mut self, frame: u64) {
        if let Content::Slap { scene, log, .. } = &mut self.content {
            scene.seek(frame);
            self.steps.reset();
            log.report(scene, &mut self.errors);
        }
    }

    /// A SLAP scene's next frame (what [`update`](Self::update) does every
    /// 1/30 s); nothing for an Animator program.
    pub fn step(&mut self) {
        if let Content::Slap { scene, log, .. } = &mut self.content {
            scene.step();
            log.report(scene, &mut self.errors);
        }
    }

    /// Plays `scene` instead of the SLAP scene playing (a new build of
    /// the program: `animvm --watch`), from where the caller left it;
    /// returns the scene it replaces. An Animator player has none to
    /// replace: `None`, and `scene` is dropped.
    pub fn replace_scene(&mut self, scene: SceneSim) -> Option<SceneSim> {
        match &mut self.content {
            Content::Slap { scene: playing, log, drawn, .. } => {
                *log = ErrorLog::default();
                *drawn = None;
                self.steps.reset();
                Some(std::mem::replace(playing, scene))
            }
            Content::Animator { .. } => None,
        }
    }

    /// The SLAP scene, the player gone (its GL objects deleted: the
    /// context must be current, as for every method); `None` for an
    /// Animator program.
    pub fn into_scene(self) -> Option<SceneSim> {
        match self.content {
            Content::Slap { scene, .. } => Some(scene),
            Content::Animator { .. } => None,
        }
    }

    /// Starts a SLAP scene over from frame 0.
    pub fn restart(&mut self) {
        if let Content::Slap { scene, .. } = &mut self.content {
            scene.restart();
            self.steps.reset();
        }
    }

    /// The SLAP scene (to observe its actors and camera, or its errors).
    pub fn scene(&self) -> Option<&SceneSim> {
        match &self.content {
            Content::Slap { scene, .. } => Some(scene),
            Content::Animator { .. } => None,
        }
    }

    /// Draws a SLAP scene's current frame into the player's own picture if
    /// it has not been drawn yet (what [`draw`](Self::draw) and
    /// [`read_pixels`](Self::read_pixels) do first); nothing for an
    /// Animator program, whose picture is drawn as it runs.
    pub fn render(&mut self) -> Result<(), PlayerError> {
        self.with_gl(|p| p.render_inner())
    }

    fn render_inner(&mut self) -> Result<(), PlayerError> {
        if let Content::Slap { renderer, view, scene, drawn, .. } = &mut self.content
            && *drawn != Some(scene.frame())
        {
            view.draw_scene(renderer, scene).map_err(|e| PlayerError::Draw(e.to_string()))?;
            *drawn = Some(scene.frame());
        }
        Ok(())
    }

    /// The frame shown: the scene's frame, or the Animator program's
    /// flushes so far.
    pub fn frame(&self) -> u64 {
        match &self.content {
            Content::Slap { scene, .. } => scene.frame(),
            Content::Animator { script, .. } => script.canvas().flushes(),
        }
    }

    /// True once an Animator program has ended or quit (a SLAP scene
    /// loops and never ends).
    pub fn finished(&self) -> bool {
        matches!(self.content, Content::Animator { status: Status::Done | Status::Quit, .. })
    }

    fn run_animator(&mut self, dt: f64) {
        let Content::Animator { script, status, wait } = &mut self.content else { return };
        if matches!(status, Status::Done | Status::Quit) {
            return;
        }
        let errors = &mut self.errors;
        run_waits(wait, dt, MAX_RUNS_PER_UPDATE, || {
            if matches!(status, Status::Suspended(_)) {
                script.canvas_mut().resume();
            }
            *status = script.run(errors);
            match *status {
                Status::Suspended(s) => Some(s),
                _ => None,
            }
        });
    }

    /// Draws the picture into the framebuffer the game has bound
    /// (`DRAW_FRAMEBUFFER`) at the viewport. Pixels outside the viewport
    /// are not touched; the game's GL state is as it was afterwards.
    ///
    /// A SLAP scene is drawn straight into the game's framebuffer when it
    /// has a depth buffer (the 3D pass at the viewport, scissored to it,
    /// clearing colour and depth there: the game's depth values inside
    /// the viewport are overwritten), with no offscreen picture and no
    /// copy; into the player's own picture, then copied, when it has none.
    /// An Animator program's picture is drawn as it runs and copied.
    pub fn draw(&mut self) -> Result<(), PlayerError> {
        self.with_gl(|p| {
            let [x, y, ..] = p.viewport;
            // The game's framebuffer, read before drawing binds the player's.
            // SAFETY: current context (the player's contract).
            let target = unsafe { p.gl().get_parameter_framebuffer(glow::DRAW_FRAMEBUFFER_BINDING) };
            // SAFETY: as above; `target` is the game's bound framebuffer.
            let direct = p.direct && unsafe { has_depth(p.gl(), target) };
            match &mut p.content {
                Content::Slap { renderer, view, scene, .. } if direct => {
                    p.direct_draws += 1;
                    view.draw_scene_into(renderer, scene, target, x, y).map_err(|e| PlayerError::Draw(e.to_string()))
                }
                _ => {
                    p.render_inner()?;
                    p.renderer_mut().blit_into(target, x, y);
                    Ok(())
                }
            }
        })
    }

    /// Whether [`draw`](Self::draw) may draw a SLAP scene straight into
    /// the game's framebuffer when it has a depth buffer (the default,
    /// `true`); with `false` it always draws the player's own picture and
    /// copies it (the game's depth buffer is then never touched).
    ///
    /// ```no_run
    /// # fn f(p: &mut animkit_player::player::Player) {
    /// p.set_direct(false);
    /// # }
    /// ```
    pub fn set_direct(&mut self, direct: bool) {
        self.direct = direct;
    }

    /// How many [`draw`](Self::draw) calls drew a SLAP scene straight into
    /// the game's framebuffer (rather than copying the player's picture).
    ///
    /// ```no_run
    /// # fn f(p: &animkit_player::player::Player) {
    /// println!("{} direct draws", p.direct_draws());
    /// # }
    /// ```
    pub fn direct_draws(&self) -> u64 {
        self.direct_draws
    }

    fn renderer_mut(&mut self) -> &mut Renderer {
        match &mut self.content {
            Content::Slap { renderer, .. } => renderer,
            Content::Animator { script, .. } => &mut script.canvas_mut().renderer,
        }
    }

    /// The pointer is at `(x, y)`, pixels in the viewport from its top-left
    /// corner: `MOTION` (if the program asked for events, with the areas
    /// under it).
    pub fn pointer_move(&mut self, x: f64, y: f64) {
        if let Content::Animator { script, .. } = &mut self.content {
            let c = script.canvas_mut();
            let at = [x, y];
            if at != c.pointer.0 {
                c.pointer.0 = at;
                let mask = self.buttons;
                c.pointer.1 = mask;
                c.pointer_event("MOTION", mask, at);
            }
        }
    }

    /// Button `button` (1 left, 2 middle, 3 right) went down (`down`) or
    /// up at `(x, y)` in the viewport: the move there, then `PRESS` or
    /// `RELEASE`.
    pub fn pointer_button(&mut self, x: f64, y: f64, button: u32, down: bool) {
        self.pointer_move(x, y);
        let bit = if (1..=32).contains(&button) { 1 << (button - 1) } else { 0 };
        if down {
            self.buttons |= bit;
        } else {
            self.buttons &= !bit;
        }
        if let Content::Animator { script, .. } = &mut self.content {
            let c = script.canvas_mut();
            c.pointer.1 = self.buttons;
            let at = c.pointer.0;
            c.pointer_event(if down { "PRESS" } else { "RELEASE" }, button, at);
        }
    }

    /// A key went down or up: `KEYDOWN mods unicode name` / `KEYUP mods
    /// name` (SDL's names and modifier bits, as `animvm`'s window reports
    /// them; see the runtime's `animator::keys`), if the program asked for
    /// events.
    pub fn key(&mut self, mods: u32, unicode: u32, name: &str, down: bool) {
        if let Content::Animator { script, .. } = &mut self.content {
            let c = script.canvas_mut();
            if c.events_on() {
                let line = if down {
                    crate::animator::events::keydown_line(mods, unicode, name)
                } else {
                    crate::animator::events::keyup_line(mods, name)
                };
                c.emit(&line);
            }
        }
    }

    /// Appends the lines the program printed since the last call (`echo`,
    /// events: what `animvm` prints on standard output) to `buf`.
    pub fn drain_output(&mut self, buf: &mut Vec<u8>) {
        buf.append(&mut self.out.0.borrow_mut());
    }

    /// Appends standard error's text since the last call (warnings,
    /// runtime errors) to `buf`.
    pub fn drain_errors(&mut self, buf: &mut Vec<u8>) {
        buf.append(&mut self.errors);
    }

    /// The player's picture, top row first, RGBA8 (what the next
    /// [`draw`](Self::draw) copies; a SLAP scene is drawn first if it
    /// moved).
    pub fn read_pixels(&mut self) -> Result<crate::render::RgbaImage, PlayerError> {
        self.with_gl(|p| {
            p.render_inner()?;
            Ok(p.renderer_mut().read_pixels())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::PlayerError;

    #[test]
    fn every_error_has_its_message_word_for_word() {
        let cases = [
            (PlayerError::NoSuchModule("hud".into()), "the bundle has no module `hud`"),
            (PlayerError::NoPlayableModule, "the bundle has no Animator or SLAP module"),
            (
                PlayerError::SpriteModule,
                "a sprite module is drawn by the game (animkit_vm::engine::sprite), not the player",
            ),
            (PlayerError::BadSize { width: 0, height: 9 }, "cannot draw 0x9 pictures"),
            (PlayerError::Module("module `m` has no entry function".into()), "module `m` has no entry function"),
            (PlayerError::Gl("no framebuffer".into()), "cannot draw: no framebuffer"),
            (PlayerError::Draw("out of memory".into()), "cannot draw the scene: out of memory"),
            (PlayerError::Resize("too big".into()), "too big"),
            (PlayerError::PastLastFrame { frame: 7, last: 5 }, "frame 7 is past the last frame animvm plays (5)"),
            (PlayerError::SeekAnimator, "seek: an Animator program plays on the clock (update)"),
        ];
        for (e, message) in cases {
            assert_eq!(e.to_string(), message, "{e:?}");
            // A std error with no source: the message is all of it.
            assert!(std::error::Error::source(&e).is_none(), "{e:?}");
        }
    }
}
