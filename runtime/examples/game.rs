//! A small "game" that embeds animkit in its own renderer: one winit +
//! glutin window whose GL context belongs to the game.
//!
//! It plays a precompiled bundle, as a shipped game does: no compiler at
//! run time. The bundle holds sprite module `hero`, SLAP scene `story` and
//! Animator program `hud`; `animc` writes it from the repository's
//! sources:
//!
//! ```text
//! cargo run -q --bin animc -- examples/hero.anim examples/story.slap runtime/examples/hud.draw -o game.animb
//! ```
//!
//! * The game draws its sprites itself, from a sheet texture it made
//!   (eight solid-coloured 16x16 cells), with its own shader; the frame of
//!   each sprite comes from the vm's game API (an `AnimationBatch` of
//!   `hero`'s `Walk` and `Run`, ticked at 50 Hz).
//! * The SLAP cutscene `story` plays in a viewport through a [`Player`]
//!   made with [`Player::from_bundle`], on the game's clock.
//! * The Animator HUD `hud` is a second [`Player`] drawn over the
//!   cutscene's top-left corner; pointer and key input over it is
//!   forwarded and its event lines printed.
//! * Last, the game draws one more sprite over the cutscene without
//!   binding anything again: the players left its GL state as it was.
//!
//! ```text
//! cargo run -p animkit-runtime --example game                 # plays ./game.animb
//! cargo run -p animkit-runtime --example game -- other.animb
//! cargo run -p animkit-runtime --example game -- --frames 40 --screenshot shot.png
//! cargo run -p animkit-runtime --example game -- --frames 250 --paced
//! cargo run --release -p animkit-runtime --example game -- --bench 9
//! ```
//!
//! The bundle is the one argument that is not an option (default
//! `game.animb` in the current directory); one that cannot be read or is
//! not a bundle ends the game with exit status 1 and `game: ` and the
//! reason on standard error, before any window opens.
//!
//! With `--frames N` every frame is 1/50 s of game time (so the run is
//! the same on any machine) and the game quits after frame N, writing the
//! back buffer to `--screenshot PATH` first; without it the game runs on
//! the wall clock until the window is closed. At the end it prints where
//! it drew each sprite and with which sheet cell (`tests/game_example_xvfb.rs`
//! reads these lines). `--sprite-trace PATH` writes the foreground
//! sprite's ticks in `animvm --trace`'s format (the test compares them byte
//! for byte). The window has a depth buffer, so the cutscene is
//! drawn straight into it; with `--copy` the Player draws offscreen and
//! copies the picture in. `--bench ROUNDS` times the cutscene's frames through
//! the Player against the renderer alone (BENCHMARKS.md, "The embedded
//! Player").

use animkit_runtime::host::gl_window::{self, GlWindow};
use animkit_runtime::player::Player;
use animkit_runtime::render::RgbaImage;
use animkit_vm::game::{AnimationBatch, Bundle, InstanceEvent, OpenError};
use glow::HasContext;
use std::time::Instant;
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{ElementState, MouseButton, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow};
use winit::keyboard::Key;
use winit::window::{WindowAttributes, WindowId};

/// Window size.
const W: u32 = 640;
const H: u32 = 360;
/// The cutscene's viewport, window pixels from the top-left: x, y, w, h.
const CUTSCENE: [u32; 4] = [200, 40, 400, 240];
/// The HUD's viewport (over the cutscene's top-left corner).
const HUD: [u32; 4] = [180, 20, 200, 40];
/// Sprite size on screen.
const SPRITE: u32 = 48;
/// The sheet's cell colours (cell `k` is `SHEET[k]`).
const SHEET: [[u8; 3]; 8] = [
    [230, 40, 40],
    [40, 200, 60],
    [250, 200, 30],
    [200, 60, 220],
    [30, 200, 220],
    [250, 130, 20],
    [120, 90, 250],
    [250, 250, 250],
];

/// The bundle played when none is named.
const DEFAULT_BUNDLE: &str = "game.animb";
/// How to build it (from the repository root).
const BUILD_BUNDLE: &str =
    "cargo run -q --bin animc -- examples/hero.anim examples/story.slap runtime/examples/hud.draw -o game.animb";

struct Args {
    /// The bundle's path.
    bundle: String,
    frames: Option<u64>,
    screenshot: Option<String>,
    /// `--sprite-trace PATH`: the foreground sprite's frames and events,
    /// one line per tick in `animvm --trace`'s format, written at the end.
    sprite_trace: Option<String>,
    /// `--paced`: with `--frames`, also wait for each frame's wall-clock
    /// time (50 a second), so that input can arrive during the run.
    paced: bool,
    /// `--bench ROUNDS`: time SLAP frames through the Player against the
    /// renderer and scene view alone (what `animvm -H` drew before it used
    /// the Player), print the figures and quit.
    bench: Option<u32>,
    /// `--until-release`: with `--frames`, also quit once the HUD has
    /// printed a `RELEASE` line (a scripted click need not race the clock).
    until_release: bool,
    /// `--copy`: the cutscene's Player draws offscreen and copies the
    /// picture in (`Player::set_direct(false)`), the other path.
    copy: bool,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        bundle: String::new(),
        frames: None,
        screenshot: None,
        sprite_trace: None,
        paced: false,
        bench: None,
        copy: false,
        until_release: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--frames" => {
                let v = it.next().ok_or("--frames needs a number")?;
                args.frames = Some(v.parse().map_err(|_| format!("--frames takes a whole number, not `{v}`"))?);
            }
            "--paced" => args.paced = true,
            "--copy" => args.copy = true,
            "--until-release" => args.until_release = true,
            "--bench" => {
                let v = it.next().ok_or("--bench needs a number of rounds")?;
                args.bench = Some(v.parse().map_err(|_| format!("--bench takes a whole number, not `{v}`"))?);
            }
            "--screenshot" => args.screenshot = Some(it.next().ok_or("--screenshot needs a path")?),
            "--sprite-trace" => args.sprite_trace = Some(it.next().ok_or("--sprite-trace needs a path")?),
            path if !path.starts_with('-') && args.bundle.is_empty() => args.bundle = path.to_string(),
            path if !path.starts_with('-') => {
                return Err(format!("one bundle only: `{}` and `{path}`", args.bundle));
            }
            _ => {
                return Err(format!(
                    "unknown option `{a}` (usage: game [BUNDLE.animb] [OPTIONS]; options: --frames N, --paced, --screenshot PATH, --bench ROUNDS, --copy, --until-release, --sprite-trace PATH)"
                ));
            }
        }
    }
    if args.bundle.is_empty() {
        args.bundle = DEFAULT_BUNDLE.to_string();
    }
    Ok(args)
}

/// The bundle at `path`, or why not (with how to build the default one
/// when it is missing).
fn open_bundle(path: &str) -> Result<Bundle, String> {
    Bundle::open(path).map_err(|e| match e {
        OpenError::Io { .. } if path == DEFAULT_BUNDLE => format!("{e} (build it with `{BUILD_BUNDLE}`)"),
        e => e.to_string(),
    })
}

/// The game's own GL objects.
struct Gfx {
    program: glow::Program,
    vao: glow::VertexArray,
    sheet: glow::Texture,
    u_rect: Option<glow::UniformLocation>,
    u_cell: Option<glow::UniformLocation>,
}

unsafe fn make_gfx(gl: &glow::Context) -> Result<Gfx, String> {
    unsafe {
        let version =
            if gl.version().is_embedded { "#version 300 es\nprecision mediump float;" } else { "#version 330 core" };
        let vs = "uniform vec4 u_rect; out vec2 v_uv;
            void main() {
                vec2 c = vec2(float(gl_VertexID & 1), float((gl_VertexID >> 1) & 1));
                v_uv = vec2(c.x, 1.0 - c.y);
                gl_Position = vec4(u_rect.xy + c * u_rect.zw, 0.0, 1.0);
            }";
        let fs = "uniform sampler2D u_sheet; uniform vec2 u_cell; in vec2 v_uv; out vec4 color;
            void main() { color = texture(u_sheet, vec2(mix(u_cell.x, u_cell.y, v_uv.x), v_uv.y)); }";
        let program = gl.create_program()?;
        for (kind, body) in [(glow::VERTEX_SHADER, vs), (glow::FRAGMENT_SHADER, fs)] {
            let s = gl.create_shader(kind)?;
            gl.shader_source(s, &format!("{version}\n{body}"));
            gl.compile_shader(s);
            if !gl.get_shader_compile_status(s) {
                return Err(gl.get_shader_info_log(s));
            }
            gl.attach_shader(program, s);
        }
        gl.link_program(program);
        if !gl.get_program_link_status(program) {
            return Err(gl.get_program_info_log(program));
        }
        let vao = gl.create_vertex_array()?;
        // The sheet: 8 cells of 16x16 in a row.
        let mut pixels = Vec::with_capacity(128 * 16 * 4);
        for _ in 0..16 {
            for x in 0..128 {
                let [r, g, b] = SHEET[x / 16];
                pixels.extend_from_slice(&[r, g, b, 255]);
            }
        }
        let sheet = gl.create_texture()?;
        gl.active_texture(glow::TEXTURE0);
        gl.bind_texture(glow::TEXTURE_2D, Some(sheet));
        gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_MIN_FILTER, glow::NEAREST as i32);
        gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_MAG_FILTER, glow::NEAREST as i32);
        gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_WRAP_S, glow::CLAMP_TO_EDGE as i32);
        gl.tex_parameter_i32(glow::TEXTURE_2D, glow::TEXTURE_WRAP_T, glow::CLAMP_TO_EDGE as i32);
        gl.tex_image_2d(
            glow::TEXTURE_2D,
            0,
            glow::RGBA8 as i32,
            128,
            16,
            0,
            glow::RGBA,
            glow::UNSIGNED_BYTE,
            glow::PixelUnpackData::Slice(Some(&pixels)),
        );
        let u_rect = gl.get_uniform_location(program, "u_rect");
        let u_cell = gl.get_uniform_location(program, "u_cell");
        Ok(Gfx { program, vao, sheet, u_rect, u_cell })
    }
}

/// GL viewport `[x, y, w, h]` (from the bottom-left) of a window rectangle.
fn gl_rect(r: [u32; 4]) -> [i32; 4] {
    [r[0] as i32, (H - r[1] - r[3]) as i32, r[2] as i32, r[3] as i32]
}

// Field order is drop order: the players delete their GL objects while
// the window's context is still alive.
struct Game {
    cutscene: Player,
    hud: Player,
    /// The HUD has printed a `RELEASE` line.
    released: bool,
    gfx: Gfx,
    sprites: AnimationBatch,
    /// Where each sprite is drawn (window pixels, top-left corner).
    spots: Vec<[u32; 2]>,
    gl: glow::Context,
    window: GlWindow,
    out: Vec<u8>,
    pointer: [f64; 2],
    last: Instant,
    started: Instant,
    ticks_pending: f64,
    /// Where the sprites' events are drained each tick.
    events: Vec<InstanceEvent>,
    /// Ticks so far.
    ticks: u64,
    /// The foreground sprite's trace lines (`--sprite-trace`).
    trace: Option<String>,
}

/// The foreground sprite: spawned last, in `Run` from its start, drawn
/// over the cutscene.
const FOREGROUND: u32 = 4;

impl Game {
    fn new(event_loop: &ActiveEventLoop, bundle: &Bundle, direct: bool) -> Result<Game, String> {
        let attributes = WindowAttributes::default()
            .with_title("animkit game")
            .with_inner_size(PhysicalSize::new(W, H))
            .with_resizable(false);
        // A depth buffer, as a 3D game would have: the cutscene's Player
        // then draws the scene straight into the window (no copy).
        let (window, gl) = GlWindow::open_with(event_loop, attributes, true).map_err(|e| e.to_string())?;
        let gfx = unsafe { make_gfx(&gl)? };
        let hero = bundle.sprite("hero").map_err(|e| e.to_string())?;
        let mut sprites = hero.batch();
        let (walk, run) =
            (hero.state("Walk").map_err(|e| e.to_string())?, hero.state("Run").map_err(|e| e.to_string())?);
        let mut spots = Vec::new();
        for i in 0..4u32 {
            sprites.spawn_at(if i % 2 == 0 { walk } else { run }, i * 5);
            spots.push([40, 60 + i * 70]);
        }
        // The foreground sprite, drawn over the cutscene last.
        sprites.spawn(run);
        spots.push([CUTSCENE[0] + 20, CUTSCENE[1] + CUTSCENE[3] - SPRITE - 10]);

        let [x, y, w, h] = gl_rect(CUTSCENE);
        let mut cutscene = Player::from_bundle(window.share_gl(), bundle, Some("story"), w as u32, h as u32)
            .map_err(|e| e.to_string())?;
        cutscene.set_viewport(x, y, w as u32, h as u32).map_err(|e| e.to_string())?;
        cutscene.set_direct(direct);
        let [x, y, w, h] = gl_rect(HUD);
        let mut hud = Player::from_bundle(window.share_gl(), bundle, Some("hud"), w as u32, h as u32)
            .map_err(|e| e.to_string())?;
        hud.set_viewport(x, y, w as u32, h as u32).map_err(|e| e.to_string())?;
        Ok(Game {
            window,
            gl,
            gfx,
            sprites,
            spots,
            cutscene,
            hud,
            released: false,
            out: Vec::new(),
            pointer: [0.0; 2],
            last: Instant::now(),
            started: Instant::now(),
            ticks_pending: 0.0,
            events: vec![InstanceEvent::default(); 64],
            ticks: 0,
            trace: None,
        })
    }

    /// One frame of `dt` seconds.
    fn frame(&mut self, dt: f64) -> Result<(), String> {
        self.ticks_pending += dt * 50.0;
        while self.ticks_pending >= 1.0 - 1e-9 {
            self.ticks_pending -= 1.0;
            self.sprites.tick();
            self.drain_sprite_events();
        }
        self.cutscene.update(dt).map_err(|e| e.to_string())?;
        self.hud.update(dt).map_err(|e| e.to_string())?;
        let gl = &self.gl;
        let n = self.spots.len();
        unsafe {
            gl.bind_framebuffer(glow::FRAMEBUFFER, None);
            gl.viewport(0, 0, W as i32, H as i32);
            gl.clear_color(0.12, 0.12, 0.14, 1.0);
            gl.clear(glow::COLOR_BUFFER_BIT);
            // The game's state for its sprites, set once per frame.
            gl.use_program(Some(self.gfx.program));
            gl.bind_vertex_array(Some(self.gfx.vao));
            gl.active_texture(glow::TEXTURE0);
            gl.bind_texture(glow::TEXTURE_2D, Some(self.gfx.sheet));
            gl.enable(glow::BLEND);
            gl.blend_func(glow::SRC_ALPHA, glow::ONE_MINUS_SRC_ALPHA);
        }
        for i in 0..n - 1 {
            self.draw_sprite(i);
        }
        self.cutscene.draw().map_err(|e| e.to_string())?;
        self.hud.draw().map_err(|e| e.to_string())?;
        // Drawn with the state the game set before the players ran.
        self.draw_sprite(n - 1);
        Ok(())
    }

    fn draw_sprite(&self, i: usize) {
        let [x, y] = self.spots[i];
        // One animation per spot: a spot past the batch draws nothing.
        let Some(frame) = self.sprites.frame(i as u32) else { return };
        let cell = frame % SHEET.len() as u32;
        let ndc = |v: u32, size: u32| v as f32 / size as f32 * 2.0 - 1.0;
        let (w, h) = (SPRITE as f32 / W as f32 * 2.0, SPRITE as f32 / H as f32 * 2.0);
        unsafe {
            let gl = &self.gl;
            gl.uniform_4_f32(self.gfx.u_rect.as_ref(), ndc(x, W), -ndc(y, H) - h, w, h);
            gl.uniform_2_f32(self.gfx.u_cell.as_ref(), cell as f32 / 8.0, (cell + 1) as f32 / 8.0);
            gl.draw_arrays(glow::TRIANGLE_STRIP, 0, 4);
        }
    }

    /// The back buffer, top row first.
    fn screenshot(&self) -> RgbaImage {
        let mut img = RgbaImage::new(W, H, [0; 4]);
        unsafe {
            let gl = &self.gl;
            gl.bind_framebuffer(glow::READ_FRAMEBUFFER, None);
            gl.pixel_store_i32(glow::PACK_ALIGNMENT, 4);
            let mut data = vec![0u8; (W * H * 4) as usize];
            gl.read_pixels(
                0,
                0,
                W as i32,
                H as i32,
                glow::RGBA,
                glow::UNSIGNED_BYTE,
                glow::PixelPackData::Slice(Some(&mut data)),
            );
            for (row, line) in data.chunks((W * 4) as usize).rev().enumerate() {
                img.data[row * (W * 4) as usize..(row + 1) * (W * 4) as usize].copy_from_slice(line);
            }
        }
        img
    }

    /// Drains the tick's sprite events (a game would play sounds here) and,
    /// with `--sprite-trace`, appends the foreground sprite's line.
    fn drain_sprite_events(&mut self) {
        let mut names = Vec::new();
        loop {
            let n = self.sprites.drain_events(&mut self.events);
            for e in &self.events[..n] {
                if e.instance == FOREGROUND && self.trace.is_some() {
                    names.push(self.sprites.module().event_name(e.event).to_string());
                }
            }
            if n < self.events.len() {
                break;
            }
        }
        let foreground = self.sprites.state(FOREGROUND).zip(self.sprites.frame(FOREGROUND));
        if let (Some(trace), Some((state, frame))) = (&mut self.trace, foreground) {
            let json = |s: &str| serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into());
            let module = self.sprites.module();
            let events: Vec<String> = names.iter().map(|e| json(e)).collect();
            trace.push_str(&format!(
                "{{\"tick\":{},\"state\":{},\"category\":{},\"frame\":{},\"events\":[{}]}}\n",
                self.ticks,
                json(module.state_name(state)),
                json(module.category(state)),
                frame,
                events.join(",")
            ));
        }
        self.ticks += 1;
    }

    /// The window pixel `(x, y)` in the HUD's viewport, if it is there.
    fn in_hud(&self, [x, y]: [f64; 2]) -> Option<(f64, f64)> {
        let [hx, hy, hw, hh] = HUD.map(f64::from);
        (x >= hx && y >= hy && x < hx + hw && y < hy + hh).then_some((x - hx, y - hy))
    }

    fn print_output(&mut self) {
        self.hud.drain_output(&mut self.out);
        self.cutscene.drain_errors(&mut self.out);
        self.hud.drain_errors(&mut self.out);
        if !self.out.is_empty() {
            for line in String::from_utf8_lossy(&self.out).lines() {
                println!("hud: {line}");
                self.released |= line.starts_with("RELEASE ");
            }
            self.out.clear();
        }
    }
}

struct App {
    args: Args,
    bundle: Bundle,
    game: Option<Game>,
    frames: u64,
    result: Result<(), String>,
}

impl App {
    fn fail(&mut self, event_loop: &ActiveEventLoop, e: String) {
        self.result = Err(e);
        event_loop.exit();
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.game.is_none() {
            match Game::new(event_loop, &self.bundle, !self.args.copy) {
                Ok(mut g) => {
                    g.trace = self.args.sprite_trace.as_ref().map(|_| String::new());
                    self.game = Some(g)
                }
                Err(e) => self.fail(event_loop, e),
            }
        }
        event_loop.set_control_flow(ControlFlow::Poll);
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let Some(game) = &mut self.game else { return };
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::CursorMoved { position, .. } => {
                game.pointer = [position.x, position.y];
                if let Some((x, y)) = game.in_hud(game.pointer) {
                    game.hud.pointer_move(x, y);
                }
            }
            WindowEvent::MouseInput { state, button, .. } => {
                let number = match button {
                    MouseButton::Left => 1,
                    MouseButton::Middle => 2,
                    MouseButton::Right => 3,
                    _ => return,
                };
                if let Some((x, y)) = game.in_hud(game.pointer) {
                    game.hud.pointer_button(x, y, number, state == ElementState::Pressed);
                }
            }
            WindowEvent::KeyboardInput { event, .. } => {
                if let Key::Character(text) = &event.logical_key {
                    let unicode = text.chars().next().map_or(0, u32::from);
                    game.hud.key(0, unicode, text, event.state == ElementState::Pressed);
                }
            }
            _ => {}
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        let Some(game) = &mut self.game else { return };
        if let Some(rounds) = self.args.bench {
            if let Err(e) = bench(game, &self.bundle, rounds) {
                return self.fail(event_loop, e);
            }
            return event_loop.exit();
        }
        let dt = match self.args.frames {
            Some(_) => {
                if self.args.paced {
                    let due = game.started + std::time::Duration::from_millis(self.frames * 20);
                    std::thread::sleep(due.saturating_duration_since(Instant::now()));
                }
                1.0 / 50.0
            }
            None => {
                let now = Instant::now();
                let dt = now.duration_since(game.last).as_secs_f64();
                game.last = now;
                dt
            }
        };
        if let Err(e) = game.frame(dt) {
            return self.fail(event_loop, e);
        }
        game.print_output();
        self.frames += 1;
        if self.args.frames.is_some_and(|n| self.frames >= n) || (self.args.until_release && game.released) {
            if let (Some(path), Some(trace)) = (&self.args.sprite_trace, &game.trace)
                && let Err(e) = std::fs::write(path, trace)
            {
                return self.fail(event_loop, format!("cannot write `{path}`: {e}"));
            }
            if let Some(path) = &self.args.screenshot {
                let shot = game.screenshot();
                if let Err(e) = animkit_runtime::host::files::save_png(&shot, path) {
                    return self.fail(event_loop, format!("cannot write `{path}`: {e}"));
                }
            }
            for (i, [x, y]) in game.spots.iter().enumerate() {
                let Some(frame) = game.sprites.frame(i as u32) else { continue };
                let cell = frame % SHEET.len() as u32;
                println!("sprite {i} at {x} {y} size {SPRITE} cell {cell}");
            }
            println!("cutscene frame {} at {:?}", game.cutscene.frame(), CUTSCENE);
            println!("cutscene direct draws {}", game.cutscene.direct_draws());
            println!("hud frames {} at {:?}", game.hud.frame(), HUD);
            event_loop.exit();
        }
        game.window.swap();
    }
}

/// SLAP frames per round of `--bench`.
const BENCH_FRAMES: u64 = 60;

/// `--bench`: the cutscene's frames drawn by the Player into the window's
/// framebuffer (state saved and restored, the picture blitted into the
/// viewport) against the same frames drawn by a renderer and scene view
/// alone (what `animvm -H` does per frame), and by the renderer alone with
/// the same blit into the window, in rotating rounds on the same context;
/// the best round of each, per frame, `glFinish` included.
fn bench(game: &mut Game, bundle: &Bundle, rounds: u32) -> Result<(), String> {
    use animkit_runtime::render::Renderer;
    use animkit_runtime::slap::view::SceneView;
    let [_, _, w, h] = gl_rect(CUTSCENE);
    let (w, h) = (w as u32, h as u32);
    let program = bundle.program();
    let index = (0..program.modules.len()).find(|&i| program.string(program.modules[i].name) == "story");
    let index = index.ok_or("no story module")?;
    let mut scene =
        animkit_vm::engine::slap::SceneSim::with_index(program.clone(), index).map_err(|e| e.to_string())?;
    let mut renderer = Renderer::new(game.window.share_gl(), w, h).map_err(|e| e.to_string())?;
    let mut view = SceneView::new(&mut renderer).map_err(|e| e.to_string())?;
    let (mut best_player, mut best_direct, mut best_blit) = (f64::INFINITY, f64::INFINITY, f64::INFINITY);
    let [vx, vy, ..] = gl_rect(CUTSCENE);
    // Three-way rotation, each kind first in turn.
    for round in 0..rounds.max(1) * 3 {
        let start = Instant::now();
        match (round + round / 3) % 3 {
            0 => {
                game.cutscene.seek(0).map_err(|e| e.to_string())?;
                for _ in 0..BENCH_FRAMES {
                    game.cutscene.step();
                    game.cutscene.draw().map_err(|e| e.to_string())?;
                    unsafe { game.gl.finish() };
                }
                best_player = best_player.min(start.elapsed().as_secs_f64());
            }
            1 => {
                scene.seek(0);
                for _ in 0..BENCH_FRAMES {
                    scene.step();
                    view.draw_scene(&mut renderer, &scene).map_err(|e| e.to_string())?;
                    unsafe { renderer.gl().finish() };
                }
                best_direct = best_direct.min(start.elapsed().as_secs_f64());
            }
            _ => {
                // The renderer alone with its picture copied into the
                // window too: what the Player adds beyond this is its
                // state save and restore.
                scene.seek(0);
                for _ in 0..BENCH_FRAMES {
                    scene.step();
                    view.draw_scene(&mut renderer, &scene).map_err(|e| e.to_string())?;
                    renderer.blit_into(None, vx, vy);
                    unsafe { renderer.gl().finish() };
                }
                best_blit = best_blit.min(start.elapsed().as_secs_f64());
            }
        }
    }
    let ms = |t: f64| t * 1000.0 / BENCH_FRAMES as f64;
    println!("player_frame_ms {:.3}", ms(best_player));
    println!("animvm_frame_ms {:.3}", ms(best_direct));
    println!("renderer_blit_frame_ms {:.3}", ms(best_blit));
    println!("player_frame_vs_animvm {:.3}", best_player / best_direct);
    println!("player_frame_vs_renderer_blit {:.3}", best_player / best_blit);
    println!("player_direct_draws {}", game.cutscene.direct_draws());
    Ok(())
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("game: {e}");
            std::process::exit(2);
        }
    };
    let bundle = match open_bundle(&args.bundle) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("game: {e}");
            std::process::exit(1);
        }
    };
    let event_loop = match gl_window::event_loop::<()>() {
        Ok(l) => l,
        Err(e) => {
            eprintln!("game: cannot open the window system: {e}");
            std::process::exit(1);
        }
    };
    let mut app = App { args, bundle, game: None, frames: 0, result: Ok(()) };
    if let Err(e) = event_loop.run_app(&mut app) {
        eprintln!("game: {e}");
        std::process::exit(1);
    }
    // The players and the window go before the event loop.
    drop(app.game.take());
    if let Err(e) = app.result {
        eprintln!("game: {e}");
        std::process::exit(1);
    }
}
