//! [`WebCanvas`]: the runtime's [`GlCanvas`] with one addition, a frame
//! to stop drawing at. `renderFrame(n)` on an Animator script runs the
//! program until it has flushed `n + 1` frames; a script may flush many
//! frames with no wait in between (`examples/spinner.draw` does), and the
//! VM only hands control back at a wait or the end, so once the frame
//! asked for is flushed every later drawing call is dropped: the
//! framebuffer keeps frame `n`, exactly what `animvm -H -d` writes as
//! frame `n`. Everything that is not drawing (areas, events, `echo`,
//! waits) goes on as usual.

use animkit_runtime::animator::GlCanvas;
use animkit_vm::engine::animator::{Canvas, DumpTarget, HAlign, HostResult, Matrix, Pen, Point, VAlign};
use animkit_vm::engine::interp::Flow;

/// A [`GlCanvas`] that stops drawing after a given number of flushes.
pub struct WebCanvas {
    /// The canvas (its renderer holds the frame).
    pub inner: GlCanvas,
    /// Stop drawing once this many frames have been flushed.
    pub freeze_after: Option<u64>,
}

impl WebCanvas {
    /// True once the frame asked for has been flushed.
    pub fn frozen(&self) -> bool {
        self.freeze_after.is_some_and(|n| self.inner.flushes() >= n)
    }
}

/// Drawing calls: dropped once frozen.
macro_rules! drawing {
    ($self:ident, $call:expr) => {
        if !$self.frozen() {
            $call;
        }
    };
}

/// Drawing calls that can fail: `Ok` once frozen.
macro_rules! drawing_result {
    ($self:ident, $call:expr) => {
        if $self.frozen() { Ok(()) } else { $call }
    };
}

impl Canvas for WebCanvas {
    fn quit(&mut self) {
        self.inner.quit();
    }
    fn keepalive(&mut self, on: bool) {
        self.inner.keepalive(on);
    }
    fn events(&mut self, on: bool, matrix: &Matrix) {
        self.inner.events(on, matrix);
    }
    fn resize(&mut self, width: u32, height: u32) {
        drawing!(self, self.inner.resize(width, height));
    }
    fn warp(&mut self, p: Point) {
        self.inner.warp(p);
    }
    fn warp_area(&mut self, name: &str) -> HostResult {
        self.inner.warp_area(name)
    }
    fn echo(&mut self, text: &str) {
        self.inner.echo(text);
    }
    fn echo_points(&mut self, text: &str, points: &[Point]) {
        self.inner.echo_points(text, points);
    }
    fn title(&mut self, text: &str) {
        self.inner.title(text);
    }
    fn frame(&mut self) {
        drawing!(self, self.inner.frame());
    }
    fn flush(&mut self) -> HostResult {
        drawing_result!(self, self.inner.flush())
    }
    fn screenshot(&mut self, path: &str) -> HostResult {
        drawing_result!(self, self.inner.screenshot(path))
    }
    fn screendump(&mut self, target: DumpTarget<'_>) -> HostResult {
        drawing_result!(self, self.inner.screendump(target))
    }
    fn sleep(&mut self, seconds: f64) -> HostResult<Flow> {
        self.inner.sleep(seconds)
    }
    fn flush_delay(&mut self, period: f64) -> HostResult<Flow> {
        // Once frozen the flush draws nothing new; the wait and its
        // FLUSHDELAY line go on.
        self.inner.flush_delay(period)
    }
    fn aspect(&mut self, on: bool) {
        self.inner.aspect(on);
    }
    fn background(&mut self, rgb: [f64; 3]) {
        drawing!(self, self.inner.background(rgb));
    }
    fn clip(&mut self, min: Point, max: Point) {
        drawing!(self, self.inner.clip(min, max));
    }
    fn dot(&mut self, pen: &Pen, p: Point) {
        drawing!(self, self.inner.dot(pen, p));
    }
    fn stroke(&mut self, pen: &Pen, points: &[Point], closed: bool) {
        drawing!(self, self.inner.stroke(pen, points, closed));
    }
    fn arrow(&mut self, pen: &Pen, from: Point, to: Point) {
        drawing!(self, self.inner.arrow(pen, from, to));
    }
    fn fill(&mut self, pen: &Pen, points: &[Point], convex: bool) {
        drawing!(self, self.inner.fill(pen, points, convex));
    }
    fn text(&mut self, pen: &Pen, at: Point, h: HAlign, v: VAlign, text: &str) {
        drawing!(self, self.inner.text(pen, at, h, v, text));
    }
    fn blit(&mut self, pen: &Pen, at: Point, h: HAlign, v: VAlign, image: &str) -> HostResult {
        drawing_result!(self, self.inner.blit(pen, at, h, v, image))
    }
    fn load_image(&mut self, name: &str, path: &str) -> HostResult {
        self.inner.load_image(name, path)
    }
    fn create_image(&mut self, name: &str, width: u32, height: u32) -> HostResult {
        self.inner.create_image(name, width, height)
    }
    fn set_pixels(&mut self, image: &str, x: u32, y: u32, pixels: &[Option<[f64; 3]>]) -> HostResult {
        drawing_result!(self, self.inner.set_pixels(image, x, y, pixels))
    }
    fn image_polygon(
        &mut self,
        pen: &Pen,
        image: &str,
        anchor: Point,
        u: Point,
        v: Point,
        points: &[Point],
    ) -> HostResult {
        drawing_result!(self, self.inner.image_polygon(pen, image, anchor, u, v, points))
    }
    fn area(&mut self, name: &str, points: &[Point]) {
        self.inner.area(name, points);
    }
    fn delete_area(&mut self, name: &str) {
        self.inner.delete_area(name);
    }
    fn kill_areas(&mut self) {
        self.inner.kill_areas();
    }
    fn define_cursor(&mut self, name: &str, data: &[u8; 128], mask: &[u8; 128], hot: (u32, u32)) -> HostResult {
        self.inner.define_cursor(name, data, mask, hot)
    }
    fn set_cursor(&mut self, name: &str) -> HostResult {
        self.inner.set_cursor(name)
    }
}
