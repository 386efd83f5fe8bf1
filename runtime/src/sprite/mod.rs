//! The sprite host: `animvm --trace` prints a sprite instance's states,
//! frames and events tick by tick ([`trace`]); otherwise a sprite module
//! plays in the viewer ([`view`]: each frame's cell of its sprite sheet,
//! and an overlay), headless for `--ticks` frames (written by `-d`, or as
//! one GIF by `--gif`) or in a window
//! ([`window`], an app of the shared window loop) at 50 ticks per second.
//! With `--watch`, [`reload`] moves the running instance onto each new
//! build of the file.

pub mod reload;
pub mod trace;
pub mod view;
pub mod window;

use crate::host::files::{self, create_parent_dir, frame_path};
use crate::host::gif::{GifWriter, delay_cs};
use crate::host::progress::Progress;
use crate::host::window_loop::check_display;
use crate::render::HeadlessGl;
use animkit_vm::program::{Language, Program};
use animkit_vm::sprite::Sprites;
use animkit_vm::verify::Verified;
use std::io::Write;
use std::sync::Arc;
use view::{SheetSpec, SpriteView, TICKS_PER_SECOND};

/// How `animvm` runs a sprite module: what its command line says,
/// gathered by `run::sprite_options`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpriteOptions {
    /// The file the program came from (for messages).
    pub file: String,
    /// `--module`: which sprite module (default: the only one).
    pub module: Option<String>,
    /// `--state`: the state to start in (default: the first).
    pub state: Option<String>,
    /// `--ticks`: ticks to trace, or frames to draw headless and write.
    pub ticks: u64,
    /// `--trace`: JSON lines instead of pictures.
    pub trace: bool,
    /// The viewer without a window (`-H`).
    pub headless: bool,
    /// Viewer size in pixels (`-x`, `-y`).
    pub width: u32,
    /// See `width`.
    pub height: u32,
    /// `-d head`: write the first `ticks` frames as `headNNNN.png`.
    pub dump_head: Option<String>,
    /// `--gif FILE` (headless): the `ticks` frames as an animated GIF at
    /// the viewer's 50 ticks a second.
    pub gif: Option<String>,
    /// `--sheet Category=sheet.png:COLSxROWS`, repeatable.
    pub sheets: Vec<String>,
    /// `--watch`: reload the file when it is saved (headless and traces
    /// then run at 50 ticks per second).
    pub watch: bool,
}

/// Runs a sprite module of `program` as `options` say: a trace to
/// `stdout`, or the viewer; returns the number of errors reported (0).
pub fn run(
    options: &SpriteOptions,
    program: Verified<Program>,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<usize, String> {
    let windowed = !options.trace && !options.headless;
    if windowed {
        if options.gif.is_some() {
            return Err("animvm: --gif writes frames headless: add -H\n".into());
        }
        check_display()?;
    }
    let program = Arc::new(program);
    let sprites = pick_module(options, &program)?;
    if options.trace {
        return run_trace(options, sprites, stdout, stderr).map(|()| 0);
    }
    let state = options.state.clone().unwrap_or_else(|| sprites.state_name(0).to_string());
    let mut sheets = options
        .sheets
        .iter()
        .map(|s| SheetSpec::parse(s))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("animvm: {e}\n"))?;
    if crate::load::is_aseprite(&options.file) {
        // The export brings its sheet; a --sheet for its category wins.
        let json = animkit_compiler::files::read_source(&options.file)
            .and_then(|b| String::from_utf8(b).map_err(|_| format!("error: `{}` is not UTF-8 text\n", options.file)))?;
        let sheet = SheetSpec::from_aseprite(&options.file, &json).map_err(|e| format!("animvm: {e}\n"))?;
        if !sheets.iter().any(|s| s.category == sheet.category) {
            sheets.push(sheet);
        }
    }
    if options.headless {
        return run_headless(options, sprites, &state, &sheets, stderr);
    }
    window::run(options, sprites, &state, sheets, stderr)
}

/// The sprite module `--module` names, or the only one.
fn pick_module(options: &SpriteOptions, program: &Arc<Verified<Program>>) -> Result<Sprites, String> {
    let file = &options.file;
    let sprite_modules: Vec<&str> =
        program.modules.iter().filter(|m| m.language == Language::Sprite).map(|m| program.string(m.name)).collect();
    let name = match (&options.module, sprite_modules.as_slice()) {
        (Some(m), _) => m.clone(),
        (None, [one]) => one.to_string(),
        (None, []) => return Err(format!("animvm: `{file}` has no sprite module to run\n")),
        (None, many) => {
            return Err(format!(
                "animvm: `{file}` has several sprite modules ({}); choose one with --module\n",
                many.join(", ")
            ));
        }
    };
    Sprites::new(program.clone(), &name).map_err(|e| format!("animvm: {e}\n"))
}

/// The `--watch` reloader, if asked for.
fn reloader(options: &SpriteOptions) -> Result<Option<reload::Reloader>, String> {
    options.watch.then(|| reload::Reloader::new(&options.file)).transpose()
}

/// With `--watch`, waits for tick `t` of a run at 50 ticks per second, so
/// that edits made while it runs land at a known time.
fn pace(options: &SpriteOptions, start: std::time::Instant, t: u64) {
    if options.watch {
        let due = start + std::time::Duration::from_millis(t * 1000 / view::TICKS_PER_SECOND as u64);
        std::thread::sleep(due.saturating_duration_since(std::time::Instant::now()));
    }
}

/// `--trace`: one JSON line per tick.
fn run_trace(
    options: &SpriteOptions,
    sprites: Sprites,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<(), String> {
    let mut sprites = sprites;
    let state = match &options.state {
        Some(s) => s.clone(),
        None => sprites.state_name(0).to_string(),
    };
    let mut inst = sprites.instance(&state).map_err(|e| {
        let names: Vec<&str> = (0..sprites.state_count()).map(|i| sprites.state_name(i as u16)).collect();
        format!("animvm: {e}; the states are: {}\n", names.join(", "))
    })?;
    let mut watch = reloader(options)?;
    let mut out = std::io::BufWriter::new(stdout);
    let start = std::time::Instant::now();
    for t in 0..options.ticks {
        pace(options, start, t);
        if let Some(new) = watch.as_mut().and_then(|w| w.poll(&sprites, stderr)) {
            reload::reload_instance(&mut inst, &new, &options.file, stderr);
            sprites = new;
        }
        inst.tick();
        trace::write_line(&mut out, t, &mut inst).map_err(|e| format!("animvm: cannot write the trace: {e}\n"))?;
        if options.watch {
            out.flush().map_err(|e| format!("animvm: cannot write the trace: {e}\n"))?;
        }
    }
    out.flush().map_err(|e| format!("animvm: cannot write the trace: {e}\n"))
}

/// The viewer, headless: `--ticks` frames, written by `-d` and `--gif`.
fn run_headless(
    options: &SpriteOptions,
    sprites: Sprites,
    state: &str,
    sheets: &[SheetSpec],
    stderr: &mut dyn Write,
) -> Result<usize, String> {
    let mut renderer = HeadlessGl::new(options.width, options.height)
        .and_then(|gl| gl.into_renderer())
        .map_err(|e| format!("animvm: cannot start headless OpenGL: {e}\n"))?;
    let mut view = SpriteView::new(sprites, state, sheets, &mut renderer).map_err(|e| format!("animvm: {e}\n"))?;
    let progress = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let mut gif = match &options.gif {
        Some(_) => Some(GifWriter::new(options.width, options.height).map_err(|e| format!("animvm: {e}\n"))?),
        None => None,
    };
    let mut bar =
        Progress::with_terminal(options.gif.clone().unwrap_or_default(), options.ticks, progress && gif.is_some());
    let mut watch = reloader(options)?;
    let start = std::time::Instant::now();
    for t in 0..options.ticks {
        pace(options, start, t);
        if let Some(new) = watch.as_mut().and_then(|w| w.poll(view.sprites(), stderr)) {
            view.reload(&new, &options.file, stderr);
        }
        view.tick();
        view.draw(&mut renderer);
        if options.dump_head.is_none() && gif.is_none() {
            continue;
        }
        let image = renderer.read_pixels();
        if let Some(head) = &options.dump_head {
            let path = frame_path(head, t);
            if t == 0 {
                create_parent_dir(&path).map_err(|e| format!("animvm: {e}\n"))?;
            }
            files::save_png(&image, &path).map_err(|e| format!("animvm: cannot write `{path}`: {e}\n"))?;
            if progress && gif.is_none() {
                eprint!("\ranimvm: wrote {path}");
            }
        }
        if let Some(g) = gif.as_mut() {
            g.add(&image, delay_cs(t, f64::from(TICKS_PER_SECOND))).map_err(|e| format!("animvm: {e}\n"))?;
            bar.update(t + 1);
        }
    }
    bar.finish();
    if progress && options.dump_head.is_some() && gif.is_none() {
        eprintln!();
    }
    if let (Some(g), Some(path)) = (gif, &options.gif) {
        let bytes = g.finish().map_err(|e| format!("animvm: {e}\n"))?;
        files::write_atomic(std::path::Path::new(path), &bytes)
            .map_err(|e| format!("animvm: cannot write `{path}`: {e}\n"))?;
    }
    Ok(0)
}
