//! What `animvm` does with its parsed arguments.

use crate::cli::{Args, USAGE, parse};
use crate::host::{CanvasOptions, GlCanvas, sprite_window, window};
use crate::load::load_program;
use crate::render::HeadlessGl;
use crate::script::Script;
use crate::sprite_view::{SheetSpec, SpriteView};
use crate::stream::{Status, Stream};
use crate::trace;
use animkit_vm::program::{Language, Program};
use animkit_vm::sprite::Sprites;
use std::io::{Read, Write};
use std::sync::Arc;

/// Runs `animvm` with `args` (without the program name); returns the exit
/// status.
///
/// Headless runs (`-H`) read Animator commands from `stdin`. The window
/// host reads the process's standard input itself, on a thread of its own,
/// so `stdin` must not be a locked `std::io::Stdin` when a window may open
/// (the `animvm` binary passes `std::io::stdin()` unlocked).
///
/// ```
/// let (mut out, mut err) = (Vec::new(), Vec::new());
/// let status = animkit_runtime::run::main(&["-h".into()], &mut std::io::empty(), &mut out, &mut err);
/// assert_eq!(status, 0);
/// assert!(String::from_utf8(out).unwrap().starts_with("usage: animvm"));
/// ```
pub fn main(args: &[String], stdin: &mut dyn Read, stdout: &mut dyn Write, stderr: &mut dyn Write) -> i32 {
    let args = match parse(args) {
        Ok(a) => a,
        Err(e) => {
            let _ = write!(stderr, "animvm: {e}\nTry `animvm -h` for help.\n");
            return 1;
        }
    };
    if args.help {
        let _ = stdout.write_all(USAGE.as_bytes());
        return 0;
    }
    match dispatch(&args, stdin, stdout, stderr) {
        Ok(0) => 0,
        Ok(_) => 1,
        Err(message) => {
            let _ = stderr.write_all(message.as_bytes());
            1
        }
    }
}

/// Runs what the arguments ask for; returns the number of errors reported
/// along the way (the exit status is 1 when there were any).
fn dispatch(
    args: &Args,
    stdin: &mut dyn Read,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<usize, String> {
    if args.trace {
        return run_trace(args, stdout).map(|_| 0);
    }
    let windowed = !args.headless;
    let Some(file) = args.file.as_deref() else {
        if windowed {
            check_display()?;
            return window::run(args, window::Source::Stdin, stderr);
        }
        let canvas = headless_canvas(args, args.width, args.height)?;
        let mut stream = Stream::new(canvas, "<stdin>");
        feed_stream(&mut stream, stdin, stderr);
        stream.canvas_mut().finish_progress();
        return Ok(stream.error_count());
    };
    let program = load_program(file)?;
    if let Some(index) = program.modules.iter().position(|m| m.language == Language::Animator) {
        if windowed {
            check_display()?;
            return window::run(args, window::Source::Script(program, index), stderr);
        }
        let canvas = headless_canvas(args, args.width, args.height)?;
        let mut script = Script::new(program, index, canvas).map_err(|e| format!("animvm: {e}\n"))?;
        while let Status::Suspended(s) = script.run(stderr) {
            std::thread::sleep(std::time::Duration::from_secs_f64(s.clamp(0.0, 1e9)));
        }
        script.canvas_mut().finish_progress();
        return Ok(script.error_count());
    }
    if windowed {
        check_display()?;
        return run_sprite_window(args, program, stderr);
    }
    run_sprite_view(args, program)
}

/// Without `-H`, a window needs a display: `DISPLAY` or `WAYLAND_DISPLAY`.
fn check_display() -> Result<(), String> {
    if window::display_available(|v| std::env::var(v).ok()) { Ok(()) } else { Err(window::NO_DISPLAY.into()) }
}

/// A headless canvas with the options of `args`, printing to standard
/// output.
pub fn headless_canvas(args: &Args, width: u32, height: u32) -> Result<GlCanvas, String> {
    let renderer = HeadlessGl::new(width, height)
        .and_then(|gl| gl.into_renderer())
        .map_err(|e| format!("animvm: cannot start headless OpenGL: {e}\n"))?;
    Ok(GlCanvas::new(renderer, canvas_options(args), Box::new(std::io::stdout())))
}

/// The canvas options an `animvm` command line asks for.
pub fn canvas_options(args: &Args) -> CanvasOptions {
    CanvasOptions {
        aspect: args.aspect,
        no_clear: args.no_clear,
        depth: args.depth,
        dump_fd: args.dump_fd,
        dump_head: args.dump_head.clone(),
        events: args.events,
        suspend_waits: false,
    }
}

/// Feeds `stdin` to a headless stream until it ends or quits, as `animvm
/// -H` does with its standard input (one `read` of up to 64 KiB at a time,
/// every complete command run as soon as it has arrived, `sleep` in place).
///
/// ```
/// use animkit_runtime::{host::CpuCanvas, run::feed_stream, stream::Stream};
/// let mut s = Stream::new(CpuCanvas::new(64, 64), "<stdin>");
/// feed_stream(&mut s, &mut &b"line 0 0 1 1\nflush\n"[..], &mut std::io::sink());
/// assert_eq!((s.command_count(), s.canvas().flushes()), (2, 1));
/// ```
pub fn feed_stream<C: animkit_vm::animator::Canvas>(
    stream: &mut Stream<C>,
    stdin: &mut dyn Read,
    stderr: &mut dyn Write,
) {
    let mut input = stdin;
    loop {
        match stream.run(stderr) {
            Status::NeedInput => match stream.read_from(&mut input) {
                Ok(0) => stream.finish(),
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    let _ = writeln!(stderr, "animvm: cannot read standard input: {e}");
                    stream.finish();
                }
            },
            Status::Suspended(s) => std::thread::sleep(std::time::Duration::from_secs_f64(s.clamp(0.0, 1e9))),
            Status::Done | Status::Quit => break,
        }
    }
}

/// What the sprite viewer shows: the module, the starting state, the sheets.
fn viewer_setup(args: &Args, program: Program) -> Result<(Sprites, String, Vec<SheetSpec>), String> {
    let program = Arc::new(program);
    let sprites = pick_sprite_module(args, &program, args.file.as_deref().unwrap_or(""))?;
    let state = args.state.clone().unwrap_or_else(|| sprites.state_name(0).to_string());
    let sheets = args
        .sheets
        .iter()
        .map(|s| SheetSpec::parse(s))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("animvm: {e}\n"))?;
    Ok((sprites, state, sheets))
}

/// The sprite viewer in a window (see [`sprite_window`]).
fn run_sprite_window(args: &Args, program: Program, stderr: &mut dyn Write) -> Result<usize, String> {
    let (sprites, state, sheets) = viewer_setup(args, program)?;
    sprite_window::run(args, sprites, &state, sheets, stderr)
}

/// The sprite viewer, headless: `--ticks` frames, written by `-d`.
fn run_sprite_view(args: &Args, program: Program) -> Result<usize, String> {
    let (sprites, state, sheets) = viewer_setup(args, program)?;
    let mut renderer = HeadlessGl::new(args.width, args.height)
        .and_then(|gl| gl.into_renderer())
        .map_err(|e| format!("animvm: cannot start headless OpenGL: {e}\n"))?;
    let mut view = SpriteView::new(sprites, &state, &sheets, &mut renderer).map_err(|e| format!("animvm: {e}\n"))?;
    let progress = std::io::IsTerminal::is_terminal(&std::io::stderr());
    for t in 0..args.ticks {
        view.tick();
        view.draw(&mut renderer);
        if let Some(head) = &args.dump_head {
            let path = format!("{head}{t:04}.png");
            if t == 0 {
                crate::host::gl_canvas::create_parent_dir(&path).map_err(|e| format!("animvm: {e}\n"))?;
            }
            renderer.save_png(&path).map_err(|e| format!("animvm: cannot write `{path}`: {e}\n"))?;
            if progress {
                eprint!("\ranimvm: wrote {path}");
            }
        }
    }
    if progress && args.dump_head.is_some() {
        eprintln!();
    }
    Ok(0)
}

fn pick_sprite_module(args: &Args, program: &Arc<Program>, file: &str) -> Result<Sprites, String> {
    let sprite_modules: Vec<&str> =
        program.modules.iter().filter(|m| m.language == Language::Sprite).map(|m| program.string(m.name)).collect();
    let name = match (&args.module, sprite_modules.as_slice()) {
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

fn run_trace(args: &Args, stdout: &mut dyn Write) -> Result<(), String> {
    let file = args.file.as_deref().ok_or("animvm: --trace needs a FILE (a bundle or a .anim source)\n")?;
    let program = Arc::new(load_program(file)?);
    let sprites = pick_sprite_module(args, &program, file)?;
    let state = match &args.state {
        Some(s) => s.clone(),
        None => sprites.state_name(0).to_string(),
    };
    let mut inst = sprites.instance(&state).map_err(|e| {
        let names: Vec<&str> = (0..sprites.state_count()).map(|i| sprites.state_name(i as u16)).collect();
        format!("animvm: {e}; the states are: {}\n", names.join(", "))
    })?;
    let mut out = std::io::BufWriter::new(stdout);
    for t in 0..args.ticks {
        inst.tick();
        trace::write_line(&mut out, t, &mut inst).map_err(|e| format!("animvm: cannot write the trace: {e}\n"))?;
    }
    out.flush().map_err(|e| format!("animvm: cannot write the trace: {e}\n"))
}
