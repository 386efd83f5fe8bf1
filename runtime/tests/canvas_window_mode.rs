//! `GlCanvas` in the window host's mode, without a window: a headless
//! renderer, `suspend_waits`, and recording `WindowHooks`. Checks what the
//! canvas asks of the window and that waits suspend the program. Well
//! under a second.

use animkit_runtime::animator::cursor::CursorImage;
use animkit_runtime::animator::{CanvasOptions, GlCanvas, WindowHooks};
use animkit_runtime::render::{HeadlessGl, Renderer};
use animkit_runtime::stream::{Status, Stream};
use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

#[derive(Clone, Default)]
struct Shared(Rc<RefCell<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Shared {
    fn take(&self) -> String {
        String::from_utf8(std::mem::take(&mut *self.0.borrow_mut())).unwrap()
    }
}

#[derive(Clone, Default)]
struct Calls(Rc<RefCell<Vec<String>>>);

impl WindowHooks for Calls {
    fn present(&mut self, renderer: &mut Renderer) {
        let (w, h) = renderer.size();
        self.0.borrow_mut().push(format!("present {w}x{h}"));
    }
    fn set_title(&mut self, title: &str) {
        self.0.borrow_mut().push(format!("title {title}"));
    }
    fn request_size(&mut self, width: u32, height: u32) {
        self.0.borrow_mut().push(format!("size {width}x{height}"));
    }
    fn warp_pointer(&mut self, x: i32, y: i32) {
        self.0.borrow_mut().push(format!("warp {x} {y}"));
    }
    fn define_cursor(&mut self, name: &str, image: &CursorImage) {
        let black = image.rgba.chunks(4).filter(|p| p == &[0, 0, 0, 255]).count();
        self.0.borrow_mut().push(format!("cursor {name} {black} black, hot {:?}", image.hot));
    }
    fn set_cursor(&mut self, name: &str) {
        self.0.borrow_mut().push(format!("setcursor {name}"));
    }
}

fn setup() -> (Stream<GlCanvas>, Shared, Calls) {
    let renderer = HeadlessGl::new(320, 240).and_then(|g| g.into_renderer()).expect("headless OpenGL");
    let out = Shared::default();
    let options = CanvasOptions { suspend_waits: true, events: true, ..CanvasOptions::default() };
    let mut canvas = GlCanvas::new(renderer, options, Box::new(out.clone()));
    let calls = Calls::default();
    canvas.set_window(Box::new(calls.clone()));
    (Stream::new(canvas, "<stdin>"), out, calls)
}

fn run(s: &mut Stream<GlCanvas>, input: &str) -> Status {
    let mut errors = Vec::new();
    s.push(input.as_bytes());
    let status = s.run(&mut errors);
    assert_eq!(String::from_utf8(errors).unwrap(), "");
    status
}

#[test]
fn waits_suspend_and_flushdelay_reports_after_the_wait() {
    let (mut s, out, calls) = setup();
    assert_eq!(run(&mut s, "sleep 0.25\necho after\n"), Status::Suspended(0.25));
    assert_eq!(out.take(), "", "nothing after the sleep ran yet");
    s.canvas_mut().resume();
    assert_eq!(s.run(&mut Vec::new()), Status::NeedInput);
    assert_eq!(out.take(), "after\n");
    assert_eq!(run(&mut s, "sleep 0\necho now\n"), Status::NeedInput, "no wait for 0 seconds");
    assert_eq!(out.take(), "now\n");

    // The first flushdelay starts the clock; the second waits one period.
    assert_eq!(run(&mut s, "flushdelay 0.1\n"), Status::NeedInput);
    assert_eq!(out.take(), "FLUSHDELAY 0.1\n");
    let Status::Suspended(wait) = run(&mut s, "flushdelay 0.1\necho next\n") else { panic!("flushdelay waits") };
    assert!(wait > 0.0 && wait <= 0.1, "{wait}");
    assert_eq!(out.take(), "", "FLUSHDELAY comes after the wait");
    std::thread::sleep(std::time::Duration::from_secs_f64(wait));
    s.canvas_mut().resume();
    assert_eq!(s.run(&mut Vec::new()), Status::NeedInput);
    let text = out.take();
    let (line, rest) = text.split_once('\n').unwrap();
    let dt: f64 = line.strip_prefix("FLUSHDELAY ").unwrap().parse().unwrap();
    assert!((0.1..0.3).contains(&dt), "{line}");
    assert_eq!(rest, "next\n");
    assert!(calls.0.borrow().iter().filter(|c| *c == "present 320x240").count() >= 2, "flushes are presented");
}

#[test]
fn window_requests_go_to_the_hooks() {
    let (mut s, out, calls) = setup();
    run(&mut s, "title \"a b\"\nflush\nscreenshot /dev/null\n");
    assert_eq!(*calls.0.borrow(), ["title a b", "present 320x240", "present 320x240"]);
    calls.0.borrow_mut().clear();

    // resize: the frame takes the size at once and the window is asked;
    // RESIZE comes when the host reports the window's new size.
    let dir = tempfile::tempdir().unwrap();
    let shot = dir.path().join("r.png");
    run(&mut s, &format!("resize 200 100\nscreenshot \"{}\"\n", shot.display()));
    assert_eq!(calls.0.borrow()[0], "size 200x100");
    assert_eq!(out.take(), "");
    let img = animkit_runtime::render::RgbaImage::load_png(&shot).unwrap();
    assert_eq!((img.width, img.height), (200, 100), "drawing after resize is at the new size");
    s.canvas_mut().window_resized(200, 100).unwrap();
    assert_eq!(out.take(), "RESIZE 200 100 -2 -1 2 1\n");
    s.canvas_mut().window_resized(200, 100).unwrap();
    assert_eq!(out.take(), "", "an unchanged size is not reported again");
    // A resize by the user.
    s.canvas_mut().window_resized(100, 100).unwrap();
    assert_eq!(out.take(), "RESIZE 100 100 -1 -1 1 1\n");
    run(&mut s, "resize 200 100\n");
    s.canvas_mut().window_resized(200, 100).unwrap();
    assert_eq!(out.take(), "RESIZE 200 100 -2 -1 2 1\n");
    // The current size: reported at once, nothing asked.
    calls.0.borrow_mut().clear();
    run(&mut s, "resize 200 100\n");
    assert!(calls.0.borrow().is_empty());
    assert_eq!(out.take(), "RESIZE 200 100 -2 -1 2 1\n");

    // warp: to the nearest whole pixel, one MOTION there. 200x100: 50 px
    // per unit, centre (100, 50); (0.51, 0.5) is pixel (125.5, 25).
    run(&mut s, "area a 0 0 1 0 1 1 0 1\nwarp 0.51 0.5\n");
    assert_eq!(calls.0.borrow().last().unwrap(), "warp 126 25");
    assert_eq!(out.take(), "MOTION 0 0.52 0.5 a\n");

    let data = "f".repeat(256);
    let mask = "0".repeat(256);
    run(&mut s, &format!("defcursor c \"{data}\" \"{mask}\" 31 2\nsetcursor c\n"));
    let c = calls.0.borrow();
    assert_eq!(&c[c.len() - 2..], ["cursor c 1024 black, hot (31, 2)", "setcursor c"]);
}
