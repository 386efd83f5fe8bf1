//! Draws a sample of every primitive, headless, into the PNG named by the
//! first argument (default `render_smoke.png`):
//! `cargo run -p animkit-runtime --example render_smoke -- /tmp/smoke.png`.
use animkit_runtime::render::*;

fn main() -> Result<(), RenderError> {
    let host = HeadlessGl::new(320, 240)?;
    eprintln!("{:?}: {}", host.api(), host.version_string());
    let mut r = host.into_renderer()?;
    let black = [0.0, 0.0, 0.0, 1.0];
    r.clear([1.0, 1.0, 1.0, 1.0]);
    r.dot([5.5, 5.5], black);
    r.stroke(&[[10.0, 10.0], [100.0, 10.0]], false, 1.0, 0xffff, black);
    r.stroke(&[[10.0, 20.0], [100.0, 40.0]], false, 1.0, 0xffff, [1.0, 0.0, 0.0, 1.0]);
    r.stroke(&[[10.0, 50.0], [100.0, 50.0], [100.0, 90.0]], false, 1.0, 0x00ff, black);
    r.stroke(&[[120.0, 10.0], [200.0, 10.0], [200.0, 60.0], [120.0, 60.0]], true, 6.0, 0xffff, [0.0, 0.5, 0.0, 0.5]);
    let circle: Vec<Point> = (0..32)
        .map(|i| {
            let a = i as f32 / 32.0 * std::f32::consts::TAU;
            [260.0 + 40.0 * a.cos(), 50.0 + 40.0 * a.sin()]
        })
        .collect();
    r.stroke(&circle, true, 4.0, 0xffff, [0.0, 0.0, 1.0, 1.0]);
    r.arrow([10.0, 120.0], [100.0, 100.0], 1.0, 0xffff, black);
    r.arrow([10.0, 140.0], [100.0, 140.0], 3.0, 0x0f0f, black);
    let star: Vec<Point> = (0..5)
        .map(|i| {
            let a = (i * 2) as f32 / 5.0 * std::f32::consts::TAU - std::f32::consts::FRAC_PI_2;
            [160.0 + 40.0 * a.cos(), 130.0 + 40.0 * a.sin()]
        })
        .collect();
    r.fill_polygon(&star, [0.8, 0.2, 0.2, 1.0]);
    r.text([260.0, 130.0], HAlign::Center, VAlign::Center, "Hello,\nworld!", black);
    let img = r.create_image(8, 8, [1.0, 1.0, 0.0, 1.0])?;
    r.set_pixels(img, 0, 0, &[Some([255, 0, 0, 255]); 8])?;
    r.blit(img, [20.0, 200.0], HAlign::Left, VAlign::Top)?;
    r.image_polygon(
        img,
        [220.0, 230.0],
        [16.0, 0.0],
        [0.0, -16.0],
        &[[210.0, 170.0], [310.0, 180.0], [290.0, 235.0], [215.0, 230.0]],
    )?;
    let out = std::env::args().nth(1).unwrap_or_else(|| "render_smoke.png".into());
    animkit_runtime::host::files::save_png(&r.read_pixels(), &out)?;
    eprintln!("{:?}", r.stats());
    Ok(())
}
