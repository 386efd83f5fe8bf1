//! Start-up: wall time of `animvm -H -x 640 -y 480` from exec to exit, its
//! standard input the one-line script `line -1 -1 1 1 screenshot FILE`, so
//! the time covers starting the process, making the headless GL context and
//! the renderer, reading and running the line, and writing the 640x480 PNG.
//!
//! Reference, in alternating runs: this benchmark's own executable in its
//! hidden `--startup-reference FILE` mode ([`reference_main`]): exec, the
//! same headless EGL context, a clear, a read-back and the PNG written with
//! the same encoder: what any GL program that writes a PNG pays.
//!
//! `animvm` is looked for beside this executable (`target/release/animvm`
//! for `cargo run --release -p animkit-bench`) and built with cargo when
//! missing.

use super::Group;
use crate::timing::best_interleaved;
use crate::{Context, Report};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// The group.
pub struct Startup;

/// The hidden command-line flag of the reference run.
pub const REFERENCE_FLAG: &str = "--startup-reference";

/// The reference run (`animkit-bench --startup-reference FILE`): a headless
/// 640x480 context, clear to white, read back, write a PNG. Returns the exit
/// status.
pub fn reference_main(path: &str) -> i32 {
    use animkit_runtime::host::files::write_atomic;
    use animkit_runtime::render::{HeadlessGl, RgbaImage};
    use glow::HasContext;
    let Ok(host) = HeadlessGl::new(640, 480) else { return 1 };
    let gl = host.gl();
    let mut img = RgbaImage::new(640, 480, [0; 4]);
    // SAFETY: the context is current on this thread; the buffer holds w*h*4 bytes.
    unsafe {
        gl.clear_color(1.0, 1.0, 1.0, 1.0);
        gl.clear(glow::COLOR_BUFFER_BIT);
        gl.read_pixels(
            0,
            0,
            640,
            480,
            glow::RGBA,
            glow::UNSIGNED_BYTE,
            glow::PixelPackData::Slice(Some(&mut img.data)),
        );
    }
    match img.encode_png() {
        Ok(bytes) if write_atomic(Path::new(path), &bytes).is_ok() => 0,
        _ => 1,
    }
}

/// `animvm` beside this executable (or one directory up, for test
/// binaries), built with cargo if it is not there and `build` is set.
pub fn find_animvm(build: bool) -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let dir = exe.parent()?;
    let candidates = [dir.join("animvm"), dir.parent()?.join("animvm")];
    if let Some(p) = candidates.iter().find(|p| p.is_file()) {
        return Some(p.clone());
    }
    if !build {
        return None;
    }
    let release = !cfg!(debug_assertions);
    eprintln!("animkit-bench: building animvm for the start-up figure");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args(["build", "-q", "-p", "animkit-runtime", "--bin", "animvm"]);
    if release {
        cmd.arg("--release");
    }
    cmd.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let ok = cmd.status().is_ok_and(|s| s.success());
    ok.then(|| candidates.into_iter().find(|p| p.is_file())).flatten()
}

/// True when `png` is a PNG of `w` x `h` (its IHDR).
fn png_of_size(png: &Path, w: u32, h: u32) -> bool {
    let Ok(bytes) = std::fs::read(png) else { return false };
    bytes.len() > 24
        && bytes.starts_with(b"\x89PNG\r\n\x1a\n")
        && bytes[16..20] == w.to_be_bytes()
        && bytes[20..24] == h.to_be_bytes()
}

/// Runs `cmd` (stdin fed `input`) and returns its wall time, checking that
/// it wrote a 640x480 PNG to `png`.
fn timed_run(mut cmd: Command, input: &[u8], png: &Path) -> f64 {
    let _ = std::fs::remove_file(png);
    cmd.stdin(Stdio::piped()).stdout(Stdio::null()).stderr(Stdio::null());
    let t = Instant::now();
    let Ok(mut child) = cmd.spawn() else { return f64::NAN };
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(input);
    }
    let ok = child.wait().is_ok_and(|s| s.success());
    let dt = t.elapsed().as_secs_f64();
    if ok && png_of_size(png, 640, 480) { dt } else { f64::NAN }
}

impl Group for Startup {
    fn name(&self) -> &'static str {
        "startup"
    }

    fn what(&self) -> &'static str {
        "animvm -H start-up to a written PNG"
    }

    fn run(&self, cx: &mut Context, report: &mut Report) {
        let quick = cx.opts.quick;
        let exe = std::env::current_exe().ok();
        let is_bench = exe.as_ref().and_then(|e| e.file_stem()).is_some_and(|s| s.to_string_lossy() == "animkit-bench");
        let animvm = find_animvm(!quick);
        let dir = std::env::temp_dir().join(format!("animkit-bench-startup-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let (ours_png, ref_png) = (dir.join("ours.png"), dir.join("reference.png"));
        let input = format!("line -1 -1 1 1 screenshot \"{}\"\n", ours_png.display());
        let rounds = if quick { 1 } else { 15 };
        let (ours, reference) = best_interleaved(
            rounds,
            || match &animvm {
                Some(p) => {
                    let mut c = Command::new(p);
                    c.args(["-H", "-x", "640", "-y", "480"]);
                    timed_run(c, input.as_bytes(), &ours_png)
                }
                None => f64::NAN,
            },
            || match (&exe, is_bench) {
                (Some(e), true) => {
                    let mut c = Command::new(e);
                    c.arg(REFERENCE_FLAG).arg(&ref_png);
                    timed_run(c, b"", &ref_png)
                }
                _ => f64::NAN,
            },
        );
        let _ = std::fs::remove_dir_all(&dir);
        let (ours, reference) = (nan_if_inf(ours), nan_if_inf(reference));
        report.add(
            "startup_ms",
            ours * 1e3,
            "ms",
            format!("animvm -H -x 640 -y 480, one line on stdin, exec to a written PNG, best of {rounds}"),
        );
        report.add(
            "startup_raw_gl_ms",
            reference * 1e3,
            "ms",
            "a bare program: exec, the same headless EGL context, clear, read back, write the PNG",
        );
        report.add("startup_vs_raw_gl", ours / reference, "x", "our time / the bare program's");
    }
}

/// A figure that never measured (every run failed) is NaN, not infinite.
fn nan_if_inf(v: f64) -> f64 {
    if v.is_finite() { v } else { f64::NAN }
}
