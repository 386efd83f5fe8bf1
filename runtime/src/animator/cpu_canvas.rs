//! [`CpuCanvas`]: an Animator canvas with no GL. It maps root coordinates to
//! pixels exactly as [`GlCanvas`](super::GlCanvas) does and tessellates every
//! line, fill, dot and arrow into the renderer's CPU [`Geometry`] (the same
//! code and the same vertices a `Renderer` would upload), then discards the
//! vertices at each `flush` and `frame`, counting them. It is the front half
//! of `animvm` on its own: the benchmark's `stream_cmds_per_s_cpu` and the
//! allocation and draw-call guard rails run on it. Text, images, areas,
//! events and output are not its business (they do nothing).
//!
//! ```
//! use animkit_runtime::animator::cpu_canvas::CpuCanvas;
//! use animkit_runtime::animator::stream::{Status, Stream};
//! let mut s = Stream::new(CpuCanvas::new(640, 480), "<stdin>");
//! s.push(b"line 0 0 1 1\nfillcircle 0 0 0.5 16\nflush\n");
//! s.finish();
//! assert_eq!(s.run(&mut std::io::sink()), Status::Done);
//! let c = s.canvas();
//! assert_eq!((c.flushes(), c.flushed_vertices(), c.flushed_batches()), (1, 6 + 14 * 3, 1));
//! ```

use super::pen::rgba;
use super::view::View;
use crate::render::{Geometry, PixelRect};
use animkit_vm::engine::animator::{Canvas, HostResult, Pen, Point};

/// Called with the geometry of each flush before it is discarded.
pub type FlushHook = Box<dyn FnMut(&Geometry)>;

/// The CPU-only canvas: see the [module docs](self).
pub struct CpuCanvas {
    /// What was drawn since the last flush or frame.
    pub geometry: Geometry,
    view: View,
    scratch: Vec<[f32; 2]>,
    flushes: u64,
    vertices: u64,
    batches: u64,
    hook: Option<FlushHook>,
}

impl std::fmt::Debug for CpuCanvas {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CpuCanvas")
            .field("view", &self.view)
            .field("flushes", &self.flushes)
            .field("vertices", &self.vertices)
            .finish_non_exhaustive()
    }
}

impl CpuCanvas {
    /// A `width` x `height` canvas with `aspect on`.
    pub fn new(width: u32, height: u32) -> CpuCanvas {
        CpuCanvas {
            geometry: Geometry::new(),
            view: View { width, height, aspect: true },
            scratch: Vec::new(),
            flushes: 0,
            vertices: 0,
            batches: 0,
            hook: None,
        }
    }

    /// Calls `hook` with the geometry of every flush (before it is
    /// discarded): the benchmark records the triangles a raw GL baseline
    /// then draws.
    pub fn on_flush(&mut self, hook: impl FnMut(&Geometry) + 'static) {
        self.hook = Some(Box::new(hook));
    }

    /// Flushes so far.
    pub fn flushes(&self) -> u64 {
        self.flushes
    }

    /// Vertices discarded by flushes so far.
    pub fn flushed_vertices(&self) -> u64 {
        self.vertices
    }

    /// Draw calls the flushes so far would have issued.
    pub fn flushed_batches(&self) -> u64 {
        self.batches
    }

    /// The root-to-pixel mapping.
    pub fn view(&self) -> View {
        self.view
    }
}

impl Canvas for CpuCanvas {
    fn resize(&mut self, width: u32, height: u32) {
        self.view.width = width.clamp(1, crate::render::MAX_IMAGE_SIZE);
        self.view.height = height.clamp(1, crate::render::MAX_IMAGE_SIZE);
    }
    fn frame(&mut self) {
        self.geometry.clear();
        self.geometry.set_clip(None);
    }
    fn flush(&mut self) -> HostResult {
        if self.geometry.vertex_count() > 0 {
            if let Some(hook) = self.hook.as_mut() {
                hook(&self.geometry);
            }
            self.flushes += 1;
            self.vertices += self.geometry.vertex_count() as u64;
            self.batches += self.geometry.batch_count() as u64;
        }
        self.geometry.clear();
        Ok(())
    }
    fn screenshot(&mut self, _path: &str) -> HostResult {
        self.flush()
    }
    fn aspect(&mut self, on: bool) {
        self.view.aspect = on;
    }
    fn clip(&mut self, min: Point, max: Point) {
        let a = self.view.to_pixel_f32([min[0], max[1]]);
        let b = self.view.to_pixel_f32([max[0], min[1]]);
        self.geometry.set_clip(Some(PixelRect::from_corners(a, b)));
    }
    fn dot(&mut self, pen: &Pen, p: Point) {
        self.geometry.dot(self.view.to_pixel_f32(p), rgba(pen));
    }
    fn stroke(&mut self, pen: &Pen, points: &[Point], closed: bool) {
        self.view.pixels_into(points, &mut self.scratch);
        self.geometry.stroke(&self.scratch, closed, pen.thick as f32, pen.dash, rgba(pen));
    }
    fn arrow(&mut self, pen: &Pen, from: Point, to: Point) {
        let (a, b) = (self.view.to_pixel_f32(from), self.view.to_pixel_f32(to));
        self.geometry.arrow(a, b, pen.thick as f32, pen.dash, rgba(pen));
    }
    fn fill(&mut self, pen: &Pen, points: &[Point], convex: bool) {
        self.view.pixels_into(points, &mut self.scratch);
        if convex {
            self.geometry.fill_convex(&self.scratch, rgba(pen));
        } else {
            self.geometry.fill_polygon(&self.scratch, rgba(pen));
        }
    }
}
