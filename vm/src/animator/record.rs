//! A canvas that records every call, for tests and for comparing two
//! executions (compiled against streamed, VM against reference).

use super::canvas::{Canvas, DumpTarget, HAlign, HostResult, Pen, VAlign};
use super::host_error::HostError;
use super::matrix::{Matrix, Point};
use crate::interp::Flow;

/// One recorded host call, with its arguments as the VM passed them.
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)]
pub enum Call {
    Quit,
    Keepalive(bool),
    Events(bool, Matrix),
    Resize(u32, u32),
    Warp(Point),
    WarpArea(String),
    Echo(String),
    EchoPoints(String, Vec<Point>),
    Title(String),
    Frame,
    Flush,
    Screenshot(String),
    Screendump(Option<String>),
    Sleep(f64),
    FlushDelay(f64),
    Aspect(bool),
    Background([f64; 3]),
    Clip(Point, Point),
    Dot(Pen, Point),
    Stroke(Pen, Vec<Point>, bool),
    Arrow(Pen, Point, Point),
    Fill(Pen, Vec<Point>, bool),
    Text(Pen, Point, HAlign, VAlign, String),
    Blit(Pen, Point, HAlign, VAlign, String),
    LoadImage(String, String),
    CreateImage(String, u32, u32),
    SetPixels(String, u32, u32, Vec<Option<[f64; 3]>>),
    ImagePolygon(Pen, String, Point, Point, Point, Vec<Point>),
    Area(String, Vec<Point>),
    DeleteArea(String),
    KillAreas,
    DefineCursor(String, Vec<u8>, Vec<u8>, (u32, u32)),
    SetCursor(String),
}

/// Records every call in [`Recorder::calls`]. Image calls fail for images
/// never loaded or created, as a real host's would.
///
/// ```
/// use animkit_vm::engine::animator::{canvas::Canvas, record::{Call, Recorder}};
/// let mut r = Recorder::default();
/// r.echo("hi");
/// assert_eq!(r.calls, [Call::Echo("hi".into())]);
/// assert!(r.blit(&Default::default(), [0.0, 0.0], animkit_vm::engine::animator::canvas::HAlign::Left,
///     animkit_vm::engine::animator::canvas::VAlign::Top, "nope").is_err());
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Recorder {
    /// The calls, in order.
    pub calls: Vec<Call>,
    /// Names of the images that exist.
    pub images: Vec<String>,
    /// Names of the cursors that exist.
    pub cursors: Vec<String>,
    /// Names of the areas that exist.
    pub areas: Vec<String>,
}

impl Recorder {
    fn image(&self, name: &str) -> HostResult {
        if self.images.iter().any(|i| i == name) { Ok(()) } else { Err(HostError::UnknownImage(name.into())) }
    }
}

impl Canvas for Recorder {
    fn quit(&mut self) {
        self.calls.push(Call::Quit);
    }
    fn keepalive(&mut self, on: bool) {
        self.calls.push(Call::Keepalive(on));
    }
    fn events(&mut self, on: bool, matrix: &Matrix) {
        self.calls.push(Call::Events(on, *matrix));
    }
    fn resize(&mut self, width: u32, height: u32) {
        self.calls.push(Call::Resize(width, height));
    }
    fn warp(&mut self, p: Point) {
        self.calls.push(Call::Warp(p));
    }
    fn warp_area(&mut self, name: &str) -> HostResult {
        if !self.areas.iter().any(|a| a == name) {
            return Err(HostError::UnknownArea(name.into()));
        }
        self.calls.push(Call::WarpArea(name.into()));
        Ok(())
    }
    fn echo(&mut self, text: &str) {
        self.calls.push(Call::Echo(text.into()));
    }
    fn echo_points(&mut self, text: &str, points: &[Point]) {
        self.calls.push(Call::EchoPoints(text.into(), points.to_vec()));
    }
    fn title(&mut self, text: &str) {
        self.calls.push(Call::Title(text.into()));
    }
    fn frame(&mut self) {
        self.calls.push(Call::Frame);
    }
    fn flush(&mut self) -> HostResult {
        self.calls.push(Call::Flush);
        Ok(())
    }
    fn screenshot(&mut self, path: &str) -> HostResult {
        self.calls.push(Call::Screenshot(path.into()));
        Ok(())
    }
    fn screendump(&mut self, target: DumpTarget<'_>) -> HostResult {
        self.calls.push(Call::Screendump(match target {
            DumpTarget::Descriptor => None,
            DumpTarget::File(f) => Some(f.into()),
        }));
        Ok(())
    }
    fn sleep(&mut self, seconds: f64) -> HostResult<Flow> {
        self.calls.push(Call::Sleep(seconds));
        Ok(Flow::Continue)
    }
    fn flush_delay(&mut self, period: f64) -> HostResult<Flow> {
        self.calls.push(Call::FlushDelay(period));
        Ok(Flow::Continue)
    }
    fn aspect(&mut self, on: bool) {
        self.calls.push(Call::Aspect(on));
    }
    fn background(&mut self, rgb: [f64; 3]) {
        self.calls.push(Call::Background(rgb));
    }
    fn clip(&mut self, min: Point, max: Point) {
        self.calls.push(Call::Clip(min, max));
    }
    fn dot(&mut self, pen: &Pen, p: Point) {
        self.calls.push(Call::Dot(*pen, p));
    }
    fn stroke(&mut self, pen: &Pen, points: &[Point], closed: bool) {
        self.calls.push(Call::Stroke(*pen, points.to_vec(), closed));
    }
    fn arrow(&mut self, pen: &Pen, from: Point, to: Point) {
        self.calls.push(Call::Arrow(*pen, from, to));
    }
    fn fill(&mut self, pen: &Pen, points: &[Point], convex: bool) {
        self.calls.push(Call::Fill(*pen, points.to_vec(), convex));
    }
    fn text(&mut self, pen: &Pen, at: Point, h: HAlign, v: VAlign, text: &str) {
        self.calls.push(Call::Text(*pen, at, h, v, text.into()));
    }
    fn blit(&mut self, pen: &Pen, at: Point, h: HAlign, v: VAlign, image: &str) -> HostResult {
        self.image(image)?;
        self.calls.push(Call::Blit(*pen, at, h, v, image.into()));
        Ok(())
    }
    fn load_image(&mut self, name: &str, path: &str) -> HostResult {
        self.calls.push(Call::LoadImage(name.into(), path.into()));
        if !self.images.iter().any(|i| i == name) {
            self.images.push(name.into());
        }
        Ok(())
    }
    fn create_image(&mut self, name: &str, width: u32, height: u32) -> HostResult {
        self.calls.push(Call::CreateImage(name.into(), width, height));
        if !self.images.iter().any(|i| i == name) {
            self.images.push(name.into());
        }
        Ok(())
    }
    fn set_pixels(&mut self, image: &str, x: u32, y: u32, pixels: &[Option<[f64; 3]>]) -> HostResult {
        self.image(image)?;
        self.calls.push(Call::SetPixels(image.into(), x, y, pixels.to_vec()));
        Ok(())
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
        self.image(image)?;
        self.calls.push(Call::ImagePolygon(*pen, image.into(), anchor, u, v, points.to_vec()));
        Ok(())
    }
    fn area(&mut self, name: &str, points: &[Point]) {
        if !self.areas.iter().any(|a| a == name) {
            self.areas.push(name.into());
        }
        self.calls.push(Call::Area(name.into(), points.to_vec()));
    }
    fn delete_area(&mut self, name: &str) {
        self.areas.retain(|a| a != name);
        self.calls.push(Call::DeleteArea(name.into()));
    }
    fn kill_areas(&mut self) {
        self.areas.clear();
        self.calls.push(Call::KillAreas);
    }
    fn define_cursor(&mut self, name: &str, data: &[u8; 128], mask: &[u8; 128], hot: (u32, u32)) -> HostResult {
        if !self.cursors.iter().any(|c| c == name) {
            self.cursors.push(name.into());
        }
        self.calls.push(Call::DefineCursor(name.into(), data.to_vec(), mask.to_vec(), hot));
        Ok(())
    }
    fn set_cursor(&mut self, name: &str) -> HostResult {
        if !self.cursors.iter().any(|c| c == name) {
            return Err(HostError::UnknownCursor(name.into()));
        }
        self.calls.push(Call::SetCursor(name.into()));
        Ok(())
    }
}
