//! Bounded draws: how a flush hands the queued vertex stream to GL.
//!
//! A frame's stream has no size limit of its own (one `lines` command of a
//! million thick segments is six million vertices), but a driver must never
//! be handed one buffer or one draw call of that size: llvmpipe crashes in
//! its rasterizer under draws of hundreds of megabytes. So a flush walks
//! the stream in [`Draw`]s of at most [`MAX_DRAW_VERTICES`] vertices, each
//! inside an upload window of at most [`MAX_UPLOAD_BYTES`]: a batch longer
//! than the cap is drawn in several calls (whole triangles each: the cap is
//! a multiple of 3), and several short batches share one upload. A stencil
//! fan is never longer than the cap (`render/fill.rs` splits a large
//! polygon's fan into fans around the same apex, which flip the same
//! stencil bits), so it is never cut.

use std::ops::Range;

use super::geometry::{BatchKind, Geometry, VERTEX_SIZE};

/// The most vertices one draw call submits, and one buffer upload holds
/// (21 845 triangles).
///
/// ```
/// use animkit_player::render::{MAX_DRAW_VERTICES, MAX_UPLOAD_BYTES, VERTEX_SIZE};
/// assert_eq!(MAX_DRAW_VERTICES % 3, 0);
/// assert_eq!(MAX_UPLOAD_BYTES, MAX_DRAW_VERTICES * VERTEX_SIZE); // 1.5 MiB
/// ```
pub const MAX_DRAW_VERTICES: usize = 65_535;

/// The most bytes one vertex upload (`glBufferData`) carries.
pub const MAX_UPLOAD_BYTES: usize = MAX_DRAW_VERTICES * VERTEX_SIZE;

/// One draw call of a flush: `vertices` (indices into
/// [`Geometry::vertices`]) of batch `batch`, drawn after uploading
/// `upload` when it is `Some` (the window that holds them, which later
/// draws may share).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Draw {
    /// Which batch the vertices belong to (its texture, clip and kind).
    pub batch: usize,
    /// The vertices drawn.
    pub vertices: Range<usize>,
    /// The vertices to upload first; later draws index into the last
    /// window uploaded.
    pub upload: Option<Range<usize>>,
}

/// The draws of a flush, in order (see [`Geometry::draws`]).
#[derive(Debug)]
pub struct Draws<'a> {
    geom: &'a Geometry,
    batch: usize,
    at: usize,
    window: Option<Range<usize>>,
}

impl Iterator for Draws<'_> {
    type Item = Draw;

    fn next(&mut self) -> Option<Draw> {
        let g = self.geom;
        loop {
            let b = g.batches.get(self.batch)?;
            let end = g.batch_end(self.batch);
            let start = self.at.max(b.start);
            if start >= end {
                self.batch += 1;
                continue;
            }
            debug_assert!(b.kind != BatchKind::StencilFan || end - start <= MAX_DRAW_VERTICES);
            let stop = end.min(start + MAX_DRAW_VERTICES);
            let upload = match &self.window {
                Some(w) if stop <= w.end => None,
                _ => {
                    let w = start..g.vertices.len().min(start + MAX_DRAW_VERTICES);
                    self.window = Some(w.clone());
                    Some(w)
                }
            };
            let draw = Draw { batch: self.batch, vertices: start..stop, upload };
            self.at = stop;
            if stop == end {
                self.batch += 1;
            }
            return Some(draw);
        }
    }
}

impl Geometry {
    /// The draw calls (and uploads) a flush of what is queued issues, each
    /// of at most [`MAX_DRAW_VERTICES`] vertices from an upload of at most
    /// [`MAX_UPLOAD_BYTES`]. Allocates nothing.
    ///
    /// ```
    /// use animkit_player::render::{Geometry, MAX_DRAW_VERTICES};
    /// let mut g = Geometry::new();
    /// for i in 0..20_000 {
    ///     let y = i as f32;
    ///     g.stroke(&[[0.0, y], [10.0, y]], false, 1.0, 0xffff, [0.0, 0.0, 0.0, 1.0]);
    /// }
    /// // 120 000 vertices in one batch: two draw calls, each from its own upload.
    /// let draws: Vec<_> = g.draws().collect();
    /// assert_eq!(draws.len(), 2);
    /// assert_eq!(draws[0].vertices, 0..MAX_DRAW_VERTICES);
    /// assert!(draws.iter().all(|d| d.upload.is_some()));
    /// ```
    pub fn draws(&self) -> Draws<'_> {
        Draws { geom: self, batch: 0, at: 0, window: None }
    }
}
