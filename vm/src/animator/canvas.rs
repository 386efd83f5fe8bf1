//! The host interface of the Animator language: what the VM asks of a
//! window, a headless renderer or a test recorder.
//!
//! Geometry reaches the canvas already transformed into **root
//! coordinates**: the window's initial coordinate system, -1..1 from the
//! left edge to the right and from the bottom edge to the top (y up). How
//! root coordinates map to pixels (the `aspect` rule, the window size) is the
//! canvas's business. Thickness is in pixels. Colours are RGB in 0..1.

use super::host_error::HostError;
use super::matrix::{Matrix, Point};
use crate::interp::Flow;

/// Result of a fallible host call; the message becomes a runtime error at
/// the command's position, and the program goes on.
pub type HostResult<T = ()> = Result<T, HostError>;

/// How lines and fills are drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pen {
    /// Red, green, blue in 0..1.
    pub rgb: [f64; 3],
    /// Opacity in 0..1.
    pub alpha: f64,
    /// Line thickness in pixels.
    pub thick: f64,
    /// 16-bit dash pattern (OpenGL line stipple, one bit per pixel, LSB
    /// first; 0xffff = solid).
    pub dash: u16,
}

impl Default for Pen {
    /// Opaque black, 1 pixel, solid: the pen at start and after `frame`.
    fn default() -> Pen {
        Pen { rgb: [0.0; 3], alpha: 1.0, thick: 1.0, dash: 0xffff }
    }
}

/// Horizontal alignment of text and images.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HAlign {
    /// The anchor is the left edge.
    Left,
    /// The anchor is the centre.
    Center,
    /// The anchor is the right edge.
    Right,
}

/// Vertical alignment of text and images.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VAlign {
    /// The anchor is the bottom edge.
    Bottom,
    /// The anchor is the centre.
    Center,
    /// The anchor is the top edge.
    Top,
}

impl HAlign {
    /// From the bytecode's number: 0 left, 1 centre, 2 right (others: centre).
    pub fn from_code(c: u32) -> HAlign {
        match c {
            0 => HAlign::Left,
            2 => HAlign::Right,
            _ => HAlign::Center,
        }
    }
}

impl VAlign {
    /// From the bytecode's number: 0 bottom, 1 centre, 2 top (others: centre).
    pub fn from_code(c: u32) -> VAlign {
        match c {
            0 => VAlign::Bottom,
            2 => VAlign::Top,
            _ => VAlign::Center,
        }
    }
}

/// Where `screendump` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DumpTarget<'a> {
    /// `screendump -`: the descriptor chosen by `-F` (standard output by
    /// default).
    Descriptor,
    /// `screendump FILE`.
    File(&'a str),
}

/// Everything an Animator program can ask of its host. Methods with a
/// default do nothing, so a host implements what it supports.
#[allow(unused_variables)]
pub trait Canvas {
    /// `quit`: the program ends after this call.
    fn quit(&mut self) {}
    /// `keepalive on|off`.
    fn keepalive(&mut self, on: bool) {}
    /// `events on|off`; `matrix` maps the coordinates of the current
    /// system (the event system from now on) to root coordinates.
    fn events(&mut self, on: bool, matrix: &Matrix) {}
    /// `resize W H`.
    fn resize(&mut self, width: u32, height: u32) {}
    /// `warp X Y` (root coordinates); the host reports one `MOTION`.
    fn warp(&mut self, p: Point) {}
    /// `warp area NAME`.
    fn warp_area(&mut self, name: &str) -> HostResult {
        Ok(())
    }
    /// `echo TEXT`: TEXT and a newline on standard output, flushed.
    fn echo(&mut self, text: &str) {}
    /// `echopt TEXT x y ... .`: TEXT, then each point in window pixels.
    fn echo_points(&mut self, text: &str, points: &[Point]) {}
    /// `title TEXT`.
    fn title(&mut self, text: &str) {}
    /// `frame`: start a frame (clear unless `-C`, reset the clip).
    fn frame(&mut self) {}
    /// `flush`: show the frame (and write `-d` frames).
    fn flush(&mut self) -> HostResult {
        Ok(())
    }
    /// `screenshot FILE`: flush, then save a PNG.
    fn screenshot(&mut self, path: &str) -> HostResult {
        Ok(())
    }
    /// `screendump -|FILE`: flush, then write the raw frame buffer.
    fn screendump(&mut self, target: DumpTarget<'_>) -> HostResult {
        Ok(())
    }
    /// `sleep N`: sleep in place and return `Continue`, or return
    /// `Suspend(seconds)` to have the driver wait.
    fn sleep(&mut self, seconds: f64) -> HostResult<Flow> {
        Ok(Flow::Continue)
    }
    /// `flushdelay S`: flush, then keep an even rate of one frame per S
    /// seconds (sleeping or suspending), then report `FLUSHDELAY dt`.
    fn flush_delay(&mut self, period: f64) -> HostResult<Flow> {
        Ok(Flow::Continue)
    }
    /// `aspect on|off`.
    fn aspect(&mut self, on: bool) {}
    /// `bg COLOR`.
    fn background(&mut self, rgb: [f64; 3]) {}
    /// `clip`: an axis-aligned box in root coordinates.
    fn clip(&mut self, min: Point, max: Point) {}
    /// `dot`: one pixel.
    fn dot(&mut self, pen: &Pen, p: Point) {}
    /// `line` (2 points), `lines` (open), `rect` and `circle` (closed): a
    /// polyline whose dash pattern runs on across its segments.
    fn stroke(&mut self, pen: &Pen, points: &[Point], closed: bool) {}
    /// `arrow`: a line with a head at `to`.
    fn arrow(&mut self, pen: &Pen, from: Point, to: Point) {}
    /// `fillrect`, `fillcircle` (convex) and `poly` (any polygon).
    fn fill(&mut self, pen: &Pen, points: &[Point], convex: bool) {}
    /// `text`.
    fn text(&mut self, pen: &Pen, at: Point, h: HAlign, v: VAlign, text: &str) {}
    /// `blit`.
    fn blit(&mut self, pen: &Pen, at: Point, h: HAlign, v: VAlign, image: &str) -> HostResult {
        Ok(())
    }
    /// `image NAME PATH`.
    fn load_image(&mut self, name: &str, path: &str) -> HostResult {
        Ok(())
    }
    /// `image W H NAME`: filled with the background colour.
    fn create_image(&mut self, name: &str, width: u32, height: u32) -> HostResult {
        Ok(())
    }
    /// `image_set`: a run of pixels along row `y` (0 = top) from column
    /// `x`; `None` leaves a pixel unchanged.
    fn set_pixels(&mut self, image: &str, x: u32, y: u32, pixels: &[Option<[f64; 3]>]) -> HostResult {
        Ok(())
    }
    /// `imgpoly`: fill `points` with `image` mapped so that its lower-left
    /// corner is at `anchor` and one repeat spans the vectors `u`
    /// (horizontal edge) and `v` (vertical edge); all in root coordinates.
    fn image_polygon(
        &mut self,
        pen: &Pen,
        image: &str,
        anchor: Point,
        u: Point,
        v: Point,
        points: &[Point],
    ) -> HostResult {
        Ok(())
    }
    /// `area NAME points`.
    fn area(&mut self, name: &str, points: &[Point]) {}
    /// `delarea NAME`.
    fn delete_area(&mut self, name: &str) {}
    /// `killareas`.
    fn kill_areas(&mut self) {}
    /// `defcursor`: 32x32 data and mask bitmaps, 128 bytes each (rows top
    /// to bottom, MSB leftmost), and the hot spot.
    fn define_cursor(&mut self, name: &str, data: &[u8; 128], mask: &[u8; 128], hot: (u32, u32)) -> HostResult {
        Ok(())
    }
    /// `setcursor NAME`.
    fn set_cursor(&mut self, name: &str) -> HostResult {
        Ok(())
    }
}
