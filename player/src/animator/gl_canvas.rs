//! [`GlCanvas`]: the Animator canvas drawn by the glow [`Renderer`]. It
//! maps root coordinates to pixels ([`View`]), keeps images, areas and the
//! pointer, writes screenshots, dumps and `-d` frames, and prints `echo` and
//! event lines. The headless host uses it as is; the window host adds a
//! window around it through [`WindowHooks`] and
//! [`CanvasOptions::suspend_waits`].

use super::areas::Areas;
use super::cursor::CursorImage;
use super::events;
use super::frame_out::{FrameOut, NoFrames};
use super::pen::{h_align, rgb8, rgba, v_align};
use super::render_errors::io_kind;
use super::view::View;
use crate::clock::{self, Instant};
use crate::render::{self, ImageId, PixelRect, Renderer};
use animkit_vm::engine::animator::{
    Canvas, DumpTarget, HAlign, HostError, HostResult, Matrix, Pen, Point, VAlign, Written,
};
use animkit_vm::engine::interp::Flow;
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::time::Duration;

/// The `animator` options that shape a canvas.
#[derive(Clone, Debug, PartialEq)]
pub struct CanvasOptions {
    /// `aspect on` at start (not `-a`).
    pub aspect: bool,
    /// `-C` / `-R`: `frame` does not clear.
    pub no_clear: bool,
    /// `-D`: bits per pixel of `screendump`.
    pub depth: u32,
    /// `-F`: descriptor of `screendump -`.
    pub dump_fd: i32,
    /// `-d head`: write `headNNNN.png` at every flush.
    pub dump_head: Option<String>,
    /// `-e`: report events from the start.
    pub events: bool,
    /// `--gif FILE` (headless): every flushed frame into one animated GIF,
    /// written when the program ends ([`GlCanvas::finish_gif`]).
    pub gif: Option<String>,
    /// `--fps`: how long a GIF frame shows when the program asked for no
    /// wait before its next flush (1 / fps seconds).
    pub fps: f64,
    /// The window host's mode: `sleep` and `flushdelay` return
    /// `Flow::Suspend` instead of sleeping in place, so the host goes on
    /// handling events while the program waits (the host calls
    /// [`GlCanvas::resume`] when the wait is over). Off for headless runs.
    pub suspend_waits: bool,
}

impl Default for CanvasOptions {
    fn default() -> CanvasOptions {
        CanvasOptions {
            aspect: true,
            no_clear: false,
            depth: 32,
            dump_fd: 1,
            dump_head: None,
            events: false,
            gif: None,
            fps: crate::slap::DEFAULT_FPS,
            suspend_waits: false,
        }
    }
}

/// What a window host does for the canvas. With hooks set
/// ([`GlCanvas::set_window`]), `flush` shows the frame in the window,
/// `title`, `resize`, `warp`, `defcursor` and `setcursor` act on the real
/// window, and the host reports the size change (`RESIZE`) when the window
/// system has made it.
pub trait WindowHooks {
    /// The frame was flushed: show the renderer's framebuffer in the window.
    fn present(&mut self, renderer: &mut Renderer);
    /// `title TEXT`.
    fn set_title(&mut self, title: &str);
    /// `resize W H`: ask for a new inner size (pixels).
    fn request_size(&mut self, width: u32, height: u32);
    /// `warp`: move the real pointer to window pixel `(x, y)`. The canvas
    /// reports the `MOTION` itself; the host must not report the pointer
    /// move this causes.
    fn warp_pointer(&mut self, x: i32, y: i32);
    /// `defcursor`: a named cursor image.
    fn define_cursor(&mut self, name: &str, image: &CursorImage);
    /// `setcursor`: show a cursor defined before.
    fn set_cursor(&mut self, name: &str);
}

/// An Animator canvas over a [`Renderer`].
pub struct GlCanvas {
    /// The renderer (its framebuffer holds the frame).
    pub renderer: Renderer,
    view: View,
    options: CanvasOptions,
    background: [f64; 3],
    images: HashMap<String, ImageId>,
    cursors: HashSet<String>,
    window: Option<Box<dyn WindowHooks>>,
    /// A `flushdelay` wait in progress: the previous frame time and the
    /// target time (window mode).
    pending_delay: Option<(Instant, Instant)>,
    /// A `resize` the window system has not reported yet (window mode).
    pending_resize: Option<(u32, u32)>,
    /// The areas defined by the program.
    pub areas: Areas,
    out: Box<dyn Write>,
    /// The first failed write of a line to `out` ([`GlCanvas::output_error`]).
    out_error: Option<String>,
    events: bool,
    event_inverse: Matrix,
    /// Pointer position in pixels and the pressed-button mask.
    pub pointer: (Point, u32),
    keepalive: bool,
    quit: bool,
    last_delay: Option<Instant>,
    title: String,
    /// Where flushed frames and written files go (`-d` and `--gif` in
    /// `animvm`).
    sink: Box<dyn FrameOut>,
    /// Pixel coordinates of the primitive being drawn (reused).
    scratch: Vec<render::Point>,
    /// Frames flushed so far (`flush`, `flushdelay`, and the flush before
    /// `screenshot` and `screendump`).
    flushes: u64,
}

impl GlCanvas {
    /// A canvas over `renderer`, writing `echo` and event lines to `out`;
    /// it keeps no frames ([`NoFrames`]: `options.dump_head` and
    /// `options.gif` are for `animvm`'s hosts, which call
    /// [`with_frame_out`](Self::with_frame_out)). The frame starts cleared
    /// to the default white background.
    pub fn new(renderer: Renderer, options: CanvasOptions, out: Box<dyn Write>) -> GlCanvas {
        GlCanvas::with_frame_out(renderer, options, out, Box::new(NoFrames))
    }

    /// [`new`](Self::new), handing each flushed frame and each file the
    /// program writes to `sink`.
    pub fn with_frame_out(
        mut renderer: Renderer,
        options: CanvasOptions,
        out: Box<dyn Write>,
        sink: Box<dyn FrameOut>,
    ) -> GlCanvas {
        let (width, height) = renderer.size();
        let background = [1.0, 1.0, 1.0];
        renderer.clear_to_background([1.0, 1.0, 1.0]);
        GlCanvas {
            renderer,
            view: View { width, height, aspect: options.aspect },
            events: options.events,
            options,
            background,
            images: HashMap::new(),
            cursors: HashSet::new(),
            window: None,
            pending_delay: None,
            pending_resize: None,
            areas: Areas::default(),
            out,
            out_error: None,
            event_inverse: Matrix::IDENTITY,
            pointer: ([width as f64 / 2.0, height as f64 / 2.0], 0),
            keepalive: true,
            quit: false,
            last_delay: None,
            title: String::new(),
            sink,
            scratch: Vec::new(),
            flushes: 0,
        }
    }

    /// Attaches a window: see [`WindowHooks`].
    pub fn set_window(&mut self, hooks: Box<dyn WindowHooks>) {
        self.window = Some(hooks);
    }

    /// Shows the current framebuffer in the window, if there is one
    /// (after an expose or a resize).
    pub fn present(&mut self) {
        if let Some(w) = self.window.as_mut() {
            w.present(&mut self.renderer);
        }
    }

    /// A suspended `sleep` or `flushdelay` is over: reports the pending
    /// `FLUSHDELAY dt` (if events are on). The host calls this before it
    /// runs the program again.
    pub fn resume(&mut self) {
        if let Some((last, target)) = self.pending_delay.take() {
            let dt = (Instant::now().max(target) - last).as_secs_f64();
            if self.events {
                self.emit(&events::flushdelay_line(dt));
            }
        }
    }

    /// The current root-to-pixel mapping.
    pub fn view(&self) -> View {
        self.view
    }

    /// True once `quit` ran.
    pub fn quit_requested(&self) -> bool {
        self.quit
    }

    /// The `keepalive` setting.
    pub fn keepalive_on(&self) -> bool {
        self.keepalive
    }

    /// True while events are reported.
    pub fn events_on(&self) -> bool {
        self.events
    }

    /// The window title set by `title`.
    pub fn title_text(&self) -> &str {
        &self.title
    }

    /// Frames flushed so far: the `-d` frame the picture is (the first
    /// flush writes frame 0, so after `n` flushes the frame shown is frame
    /// `n - 1`).
    pub fn flushes(&self) -> u64 {
        self.flushes
    }

    /// Frames written by `-d` so far.
    pub fn frames_written(&self) -> u32 {
        self.sink.frames_written() as u32
    }

    /// Writes one line to standard output and flushes it. A failed write
    /// (a closed standard output, a broken pipe, a full disk) does not stop
    /// the run, but the first is kept: [`output_error`](Self::output_error).
    pub fn emit(&mut self, line: &str) {
        if let Err(e) = writeln!(self.out, "{line}").and_then(|_| self.out.flush()) {
            self.out_error.get_or_insert_with(|| e.to_string());
        }
    }

    /// The first error writing an `echo` or event line to standard output,
    /// if any: the host says it on standard error when the run ends and
    /// exits with status 1, since the lines were lost.
    pub fn output_error(&self) -> Option<&str> {
        self.out_error.as_deref()
    }

    /// Event coordinates of a pixel position.
    pub fn event_coords(&self, pixel: Point) -> Point {
        self.event_inverse.apply(self.view.to_root(pixel))
    }

    /// Reports a pointer event at `pixel` (if events are on), with the
    /// areas under it. `kind` is `PRESS`, `RELEASE` or `MOTION`; `code` the
    /// button number or, for `MOTION`, the button mask.
    pub fn pointer_event(&mut self, kind: &str, code: u32, pixel: Point) {
        self.pointer.0 = pixel;
        if !self.events {
            return;
        }
        let root = self.view.to_root(pixel);
        let line = events::pointer_line(kind, code, self.event_inverse.apply(root), self.areas.at(root));
        self.emit(&line);
    }

    /// Changes the size of the frame (and view).
    pub fn set_size(&mut self, width: u32, height: u32) -> HostResult {
        self.renderer.resize(width, height, self.options.no_clear)?;
        if !self.options.no_clear {
            self.renderer.clear_to_background(self.background_rgb());
        }
        self.view.width = width;
        self.view.height = height;
        Ok(())
    }

    /// The window host: the window system reports the window's inner size
    /// (after a `resize`, or a resize by the user). The frame takes that
    /// size and `RESIZE` is reported, unless nothing changed and no
    /// `resize` was waiting for it.
    pub fn window_resized(&mut self, width: u32, height: u32) -> HostResult {
        let requested = self.pending_resize.take() == Some((width, height));
        if (width, height) != (self.view.width, self.view.height) {
            self.set_size(width, height)?;
            self.resize_event();
        } else if requested {
            self.resize_event();
        }
        Ok(())
    }

    /// Reports `RESIZE` for the current size (if events are on).
    pub fn resize_event(&mut self) {
        if self.events {
            let line = events::resize_line(self.view.width, self.view.height, self.view.root_bounds());
            self.emit(&line);
        }
    }

    /// The background colour as the renderer takes it (rounded to 8 bits,
    /// as the frame stores it).
    fn background_rgb(&self) -> [f32; 3] {
        let c = rgb8(self.background).map(|c| f32::from(c) / 255.0);
        [c[0], c[1], c[2]]
    }

    fn px(&self, p: Point) -> render::Point {
        self.view.to_pixel_f32(p)
    }

    fn image(&self, name: &str) -> HostResult<ImageId> {
        self.images.get(name).copied().ok_or_else(|| HostError::UnknownImage(name.into()))
    }

    /// What a flush hands to `-d` and `--gif`.
    fn record_frame(&mut self) -> HostResult {
        if !self.sink.wants_frames() {
            return Ok(());
        }
        let image = self.renderer.read_pixels();
        self.sink.frame(&image)
    }

    /// `--gif`: adds the last frame and writes the GIF (atomically). Call
    /// once, when the program has ended; does nothing without `--gif` or
    /// when no frame was flushed.
    pub fn finish_gif(&mut self) -> HostResult {
        self.sink.finish()
    }

    /// A wait of `seconds` the program asked for (counted, not measured,
    /// for the GIF's delays).
    fn waited(&mut self, seconds: f64) {
        self.sink.waited(seconds);
    }

    /// Ends a progress line on the terminal, if one was started.
    pub fn finish_progress(&mut self) {
        self.sink.end_progress();
    }
}

/// `resize`'s size within the canvas's limits (1 to
/// [`render::MAX_IMAGE_SIZE`] pixels a side), saying so on standard error
/// when it had to change, as `-x`/`-y` refuse what is out of range.
fn clamped_size(width: u32, height: u32) -> (u32, u32) {
    let size = (width.clamp(1, render::MAX_IMAGE_SIZE), height.clamp(1, render::MAX_IMAGE_SIZE));
    if size != (width, height) {
        eprintln!(
            "animvm: resize {width} {height}: a canvas is 1 to {max} pixels a side; it is made {}x{}",
            size.0,
            size.1,
            max = render::MAX_IMAGE_SIZE
        );
    }
    size
}

impl Canvas for GlCanvas {
    fn quit(&mut self) {
        self.quit = true;
    }
    fn keepalive(&mut self, on: bool) {
        self.keepalive = on;
    }
    fn events(&mut self, on: bool, matrix: &Matrix) {
        self.events = on;
        if on {
            self.event_inverse = matrix.inverse().unwrap_or(Matrix::IDENTITY);
        }
    }
    fn resize(&mut self, width: u32, height: u32) {
        let (width, height) = clamped_size(width, height);
        if self.window.is_some() {
            // The frame takes the new size at once (drawing after `resize`
            // is at the new size, as with SDL_SetVideoMode); RESIZE is
            // reported when the window system has resized the window (see
            // `window_resized`). A request for the current size changes
            // nothing, so it is reported at once.
            let size = (width.clamp(1, render::MAX_IMAGE_SIZE), height.clamp(1, render::MAX_IMAGE_SIZE));
            if size == (self.view.width, self.view.height) {
                self.resize_event();
                return;
            }
            if self.set_size(size.0, size.1).is_ok() {
                self.pending_resize = Some(size);
                if let Some(w) = self.window.as_mut() {
                    w.request_size(size.0, size.1);
                }
            }
            return;
        }
        if self.set_size(width.clamp(1, render::MAX_IMAGE_SIZE), height.clamp(1, render::MAX_IMAGE_SIZE)).is_ok() {
            self.resize_event();
        }
    }
    fn warp(&mut self, p: Point) {
        let mut px = self.view.to_pixel(p);
        if let Some(w) = self.window.as_mut() {
            // The real pointer sits on whole pixels: report where it lands.
            let clamp = |v: f64| if v.is_finite() { v.round().clamp(-1e6, 1e6) } else { 0.0 };
            px = [clamp(px[0]), clamp(px[1])];
            w.warp_pointer(px[0] as i32, px[1] as i32);
        }
        let mask = self.pointer.1;
        self.pointer_event("MOTION", mask, px);
    }
    fn warp_area(&mut self, name: &str) -> HostResult {
        let p = self.areas.interior_point(name).ok_or_else(|| HostError::UnknownArea(name.into()))?;
        self.warp(p);
        Ok(())
    }
    fn echo(&mut self, text: &str) {
        self.emit(text);
    }
    fn echo_points(&mut self, text: &str, points: &[Point]) {
        let mut line = text.to_string();
        for p in points {
            let q = self.view.to_pixel(*p);
            line.push_str(&format!(" {} {}", events::num(q[0]), events::num(q[1])));
        }
        self.emit(&line);
    }
    fn title(&mut self, text: &str) {
        self.title = text.to_string();
        if let Some(w) = self.window.as_mut() {
            w.set_title(text);
        }
    }
    fn frame(&mut self) {
        if !self.options.no_clear {
            self.renderer.clear_to_background(self.background_rgb());
        }
        self.renderer.set_clip(None);
    }
    fn flush(&mut self) -> HostResult {
        self.renderer.flush();
        self.flushes += 1;
        let written = self.record_frame();
        self.present();
        written
    }
    fn screenshot(&mut self, path: &str) -> HostResult {
        self.flush()?;
        let png = self.renderer.read_pixels().encode_png();
        png.and_then(|png| self.sink.write_file(std::path::Path::new(path), &png)).map_err(|e| HostError::Write {
            what: Written::Screenshot,
            path: path.into(),
            kind: io_kind(&e),
            reason: e.to_string(),
        })
    }
    fn screendump(&mut self, target: DumpTarget<'_>) -> HostResult {
        self.flush()?;
        let bytes = self.renderer.raw_dump_bpp(self.options.depth)?;
        match target {
            DumpTarget::File(path) => {
                (self.sink.write_file(std::path::Path::new(path), &bytes)).map_err(|e| HostError::Write {
                    what: Written::Screendump,
                    path: path.into(),
                    kind: io_kind(&e),
                    reason: e.to_string(),
                })
            }
            DumpTarget::Descriptor if self.options.dump_fd == 1 => self
                .out
                .write_all(&bytes)
                .and_then(|_| self.out.flush())
                .map_err(|e| HostError::Dump { fd: None, kind: e.kind(), reason: e.to_string() }),
            DumpTarget::Descriptor => {
                let fd = self.options.dump_fd;
                let _ = self.out.flush();
                std::fs::OpenOptions::new()
                    .write(true)
                    .open(format!("/dev/fd/{fd}"))
                    .and_then(|mut f| f.write_all(&bytes))
                    .map_err(|e| HostError::Dump { fd: Some(fd), kind: e.kind(), reason: e.to_string() })
            }
        }
    }
    fn sleep(&mut self, seconds: f64) -> HostResult<Flow> {
        self.waited(seconds);
        if self.options.suspend_waits {
            return Ok(if seconds > 0.0 { Flow::Suspend(seconds.min(1e9)) } else { Flow::Continue });
        }
        if seconds > 0.0 {
            clock::sleep(Duration::from_secs_f64(seconds.min(1e9)));
        }
        Ok(Flow::Continue)
    }
    fn flush_delay(&mut self, period: f64) -> HostResult<Flow> {
        self.flush()?;
        let period = if period.is_finite() { period.clamp(0.0, 1e9) } else { 0.0 };
        self.waited(period);
        let now = Instant::now();
        let dt = match self.last_delay {
            Some(last) => {
                let target = last + Duration::from_secs_f64(period);
                if self.options.suspend_waits && target > now {
                    self.last_delay = Some(target);
                    self.pending_delay = Some((last, target));
                    return Ok(Flow::Suspend((target - now).as_secs_f64()));
                }
                if target > now {
                    clock::sleep(target - now);
                }
                let end = Instant::now().max(target);
                self.last_delay = Some(if now > target { now } else { target });
                (end - last).as_secs_f64()
            }
            None => {
                self.last_delay = Some(now);
                period
            }
        };
        if self.events {
            self.emit(&events::flushdelay_line(dt));
        }
        Ok(Flow::Continue)
    }
    fn aspect(&mut self, on: bool) {
        self.view.aspect = on;
    }
    fn background(&mut self, rgb: [f64; 3]) {
        self.background = rgb;
        // The background of the frame being drawn, whenever in the frame it
        // is set (what was drawn stays on top). With -C/-R nothing is
        // cleared, so the picture keeps the background it has; `bg` is
        // then what new area and `image W H` get.
        if !self.options.no_clear {
            self.renderer.set_background(self.background_rgb());
        }
    }
    fn clip(&mut self, min: Point, max: Point) {
        let a = self.px([min[0], max[1]]);
        let b = self.px([max[0], min[1]]);
        self.renderer.set_clip(Some(PixelRect::from_corners(a, b)));
    }
    fn dot(&mut self, pen: &Pen, p: Point) {
        let q = self.px(p);
        self.renderer.dot(q, rgba(pen));
    }
    fn stroke(&mut self, pen: &Pen, points: &[Point], closed: bool) {
        self.view.pixels_into(points, &mut self.scratch);
        self.renderer.stroke(&self.scratch, closed, pen.thick as f32, pen.dash, rgba(pen));
    }
    fn arrow(&mut self, pen: &Pen, from: Point, to: Point) {
        let (a, b) = (self.px(from), self.px(to));
        self.renderer.arrow(a, b, pen.thick as f32, pen.dash, rgba(pen));
    }
    fn fill(&mut self, pen: &Pen, points: &[Point], convex: bool) {
        self.view.pixels_into(points, &mut self.scratch);
        if convex {
            self.renderer.fill_convex(&self.scratch, rgba(pen));
        } else {
            self.renderer.fill_polygon(&self.scratch, rgba(pen));
        }
    }
    fn text(&mut self, pen: &Pen, at: Point, h: HAlign, v: VAlign, text: &str) {
        let p = self.px(at);
        self.renderer.text(p, h_align(h), v_align(v), text, rgba(pen));
    }
    fn blit(&mut self, _pen: &Pen, at: Point, h: HAlign, v: VAlign, image: &str) -> HostResult {
        let id = self.image(image)?;
        let p = self.px(at);
        Ok(self.renderer.blit(id, p, h_align(h), v_align(v))?)
    }
    fn load_image(&mut self, name: &str, path: &str) -> HostResult {
        let id = self.renderer.load_png(path).map_err(|e| HostError::Image {
            name: name.into(),
            path: Some(path.into()),
            kind: io_kind(&e),
            reason: e.to_string(),
        })?;
        if let Some(old) = self.images.insert(name.to_string(), id) {
            self.renderer.delete_image(old);
        }
        Ok(())
    }
    fn create_image(&mut self, name: &str, width: u32, height: u32) -> HostResult {
        let fill = rgb8(self.background).map(|c| c as f32 / 255.0);
        let id = self.renderer.create_image(width, height, fill).map_err(|e| HostError::Image {
            name: name.into(),
            path: None,
            kind: io_kind(&e),
            reason: e.to_string(),
        })?;
        if let Some(old) = self.images.insert(name.to_string(), id) {
            self.renderer.delete_image(old);
        }
        Ok(())
    }
    fn set_pixels(&mut self, image: &str, x: u32, y: u32, pixels: &[Option<[f64; 3]>]) -> HostResult {
        let id = self.image(image)?;
        let px: Vec<Option<[u8; 4]>> = pixels.iter().map(|p| p.map(rgb8)).collect();
        Ok(self.renderer.set_pixels(id, x.into(), y.into(), &px)?)
    }
    fn image_polygon(
        &mut self,
        _pen: &Pen,
        image: &str,
        anchor: Point,
        u: Point,
        v: Point,
        points: &[Point],
    ) -> HostResult {
        let id = self.image(image)?;
        let a = self.px(anchor);
        let (uu, vv) = (self.view.vector_to_pixel(u), self.view.vector_to_pixel(v));
        self.view.pixels_into(points, &mut self.scratch);
        Ok(self.renderer.image_polygon(
            id,
            a,
            [uu[0] as f32, uu[1] as f32],
            [vv[0] as f32, vv[1] as f32],
            &self.scratch,
        )?)
    }
    fn area(&mut self, name: &str, points: &[Point]) {
        self.areas.define(name, points);
    }
    fn delete_area(&mut self, name: &str) {
        self.areas.delete(name);
    }
    fn kill_areas(&mut self) {
        self.areas.clear();
    }
    fn define_cursor(&mut self, name: &str, data: &[u8; 128], mask: &[u8; 128], hot: (u32, u32)) -> HostResult {
        self.cursors.insert(name.to_string());
        if let Some(w) = self.window.as_mut() {
            w.define_cursor(name, &CursorImage::from_bitmaps(data, mask, hot));
        }
        Ok(())
    }
    fn set_cursor(&mut self, name: &str) -> HostResult {
        if !self.cursors.contains(name) {
            return Err(HostError::UnknownCursor(name.into()));
        }
        if let Some(w) = self.window.as_mut() {
            w.set_cursor(name);
        }
        Ok(())
    }
}
