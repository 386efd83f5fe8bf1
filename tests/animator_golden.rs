//! Golden images: every Animator drawing command and variant, drawn
//! headless (Mesa's software renderer) by the real `GlCanvas`, compared with
//! the PNG beside each script in `tests/golden/animator/` (small per-channel
//! tolerance; the difference image goes to `target/golden-diff/` on failure;
//! `BLESS=1` rewrites them). A script's first comments may set
//! `! size WxH` and `! option -C` / `! option -a`.

use animkit_runtime::animator::{CanvasOptions, GlCanvas};
use animkit_runtime::golden;
use animkit_runtime::render::HeadlessGl;
use animkit_runtime::stream::{Status, Stream};

fn render(script: &str) -> animkit_runtime::render::RgbaImage {
    let mut size = (160, 120);
    let mut options = CanvasOptions::default();
    for line in script.lines().take_while(|l| l.starts_with('!')) {
        if let Some(s) = line.strip_prefix("! size ") {
            let (w, h) = s.trim().split_once('x').unwrap();
            size = (w.parse().unwrap(), h.parse().unwrap());
        }
        match line.trim() {
            "! option -C" => options.no_clear = true,
            "! option -a" => options.aspect = false,
            _ => {}
        }
    }
    let renderer = HeadlessGl::new(size.0, size.1).unwrap().into_renderer().unwrap();
    let canvas = GlCanvas::new(renderer, options, Box::new(std::io::sink()));
    let mut stream = Stream::new(canvas, "script");
    stream.push(script.as_bytes());
    stream.finish();
    let mut errors = Vec::new();
    assert_eq!(stream.run(&mut errors), Status::Done);
    assert_eq!(String::from_utf8(errors).unwrap(), "");
    let r = &mut stream.canvas_mut().renderer;
    r.flush();
    r.read_pixels()
}

#[test]
fn every_drawing_command_matches_its_golden_image() {
    crate::at_root();
    let dir = golden::golden_dir("animator");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok()?.strip_suffix(".draw").map(String::from))
        .collect();
    names.sort();
    assert!(names.len() >= 13, "{names:?}");
    let mut failures = Vec::new();
    for name in &names {
        let script = std::fs::read_to_string(dir.join(format!("{name}.draw"))).unwrap();
        let image = render(&script);
        if let Err(e) = golden::check(&dir, name, &image, 3) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
