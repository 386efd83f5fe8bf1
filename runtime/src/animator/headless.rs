//! Running an Animator program with no window (`animvm -H`): a stream fed
//! from standard input, or a script, on a [`GlCanvas`] over a headless EGL
//! context; `sleep` and `flushdelay` sleep in place. `--gif FILE` records
//! every flushed frame, each showing for the waits asked for after it
//! (`sleep`, `flushdelay`'s period; one frame at `--fps` when none), and
//! writes the GIF when the program ends.

use super::gl_canvas::GlCanvas;
use super::script::{Script, restart};
use super::stream::{Status, Stream};
use super::{AnimatorInput, AnimatorOptions, CanvasOptions};
use crate::Error;
use crate::host::POLL;
use crate::host::watch::ProgramWatch;
use crate::render::HeadlessGl;
use std::io::{Read, Write};
use std::time::{Duration, Instant};

/// Runs `source` headless; returns the number of errors reported.
pub fn run(
    options: &AnimatorOptions,
    source: AnimatorInput,
    stdin: &mut dyn Read,
    stderr: &mut dyn Write,
) -> Result<usize, Error> {
    let canvas = headless_canvas(options)?;
    match source {
        AnimatorInput::Stdin => {
            let mut stream = Stream::new(canvas, "<stdin>");
            feed_stream(&mut stream, stdin, stderr);
            stream.canvas_mut().finish_progress();
            Ok(stream.error_count() + finish_gif(stream.canvas_mut(), stderr) + lost_output(stream.canvas(), stderr))
        }
        AnimatorInput::Script(program, index) => {
            let mut script = Script::new(program, index, canvas).map_err(super::script::module_error)?;
            let mut watch = options.watch.as_deref().map(ProgramWatch::new).transpose()?;
            while let Status::Suspended(s) = script.run(stderr) {
                let Some(w) = watch.as_mut() else {
                    std::thread::sleep(Duration::from_secs_f64(s.clamp(0.0, 1e9)));
                    continue;
                };
                // --watch: the canvas hands its waits back (see
                // `headless_canvas`), so that a save that builds cuts the
                // wait short and the script starts over.
                let due = Instant::now() + Duration::from_secs_f64(s.clamp(0.0, 1e6));
                while Instant::now() < due {
                    if let Some(program) = w.poll(stderr) {
                        script = restart(script, program, w, stderr);
                        break;
                    }
                    std::thread::sleep(due.saturating_duration_since(Instant::now()).min(POLL));
                }
                script.canvas_mut().resume();
            }
            script.canvas_mut().finish_progress();
            Ok(script.error_count() + finish_gif(script.canvas_mut(), stderr) + lost_output(script.canvas(), stderr))
        }
    }
}

/// Writes the `--gif` of a run that has ended; 1 if that failed (said on
/// `stderr`), else 0.
fn finish_gif(canvas: &mut GlCanvas, stderr: &mut dyn Write) -> usize {
    match canvas.finish_gif() {
        Ok(()) => 0,
        Err(e) => {
            let _ = writeln!(stderr, "animvm: {e}");
            1
        }
    }
}

/// Says on `stderr` that lines for standard output were lost (the first
/// write error of the run); 1 if so, else 0.
pub(crate) fn lost_output(canvas: &GlCanvas, stderr: &mut dyn Write) -> usize {
    match canvas.output_error() {
        Some(e) => {
            let _ = writeln!(stderr, "animvm: cannot write to standard output: {e}");
            1
        }
        None => 0,
    }
}

/// A headless canvas of `options`' size and canvas options, printing to
/// standard output. With `--watch` its `sleep` and `flushdelay` waits are
/// handed back to the host ([`CanvasOptions::suspend_waits`]), which
/// watches the file meanwhile.
///
/// ```no_run
/// use animkit_runtime::animator::{AnimatorOptions, headless::headless_canvas};
/// let canvas = headless_canvas(&AnimatorOptions { headless: true, ..AnimatorOptions::default() })?;
/// assert_eq!(canvas.view().width, 640);
/// # Ok::<(), animkit_runtime::Error>(())
/// ```
pub fn headless_canvas(options: &AnimatorOptions) -> Result<GlCanvas, Error> {
    let renderer = HeadlessGl::new(options.width, options.height)
        .and_then(|gl| gl.into_renderer())
        .map_err(|e| Error::Display(format!("cannot start headless OpenGL: {e}")))?;
    let canvas = CanvasOptions { suspend_waits: options.watch.is_some(), ..options.canvas.clone() };
    Ok(super::canvas_frames::gl_canvas(renderer, canvas, crate::host::process_stdout()))
}

/// Feeds `stdin` to a headless stream until it ends or quits, as `animvm
/// -H` does with its standard input (one `read` of up to 64 KiB at a time,
/// every complete command run as soon as it has arrived, `sleep` in place).
///
/// ```
/// use animkit_runtime::animator::{CpuCanvas, headless::feed_stream, stream::Stream};
/// let mut s = Stream::new(CpuCanvas::new(64, 64), "<stdin>");
/// feed_stream(&mut s, &mut &b"line 0 0 1 1\nflush\n"[..], &mut std::io::sink());
/// assert_eq!((s.command_count(), s.canvas().flushes()), (2, 1));
/// ```
pub fn feed_stream<C: animkit_vm::engine::animator::Canvas>(
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
