//! The renderer's own limits: image sides (`MAX_IMAGE_SIZE`) and the
//! pixels all live images may hold together (`MAX_IMAGE_PIXELS`), checked
//! before anything is allocated.

use animkit_runtime::render::{HeadlessGl, MAX_IMAGE_PIXELS, MAX_IMAGE_SIZE, RenderError};

#[test]
fn live_images_hold_a_bounded_number_of_pixels() {
    let Ok(mut r) = HeadlessGl::new(8, 8).and_then(|gl| gl.into_renderer()) else {
        eprintln!("no headless GL here; skipped");
        return;
    };
    assert_eq!((MAX_IMAGE_SIZE, MAX_IMAGE_PIXELS), (8192, 1 << 28));
    assert!(matches!(r.create_image(8193, 1, [0.0; 4]), Err(RenderError::BadSize { .. })));
    r.set_image_pixel_limit(1000);
    let a = r.create_image(20, 20, [0.0; 4]).unwrap();
    let _b = r.create_image(20, 20, [0.0; 4]).unwrap();
    let e = r.create_image(20, 20, [0.0; 4]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "an image of 400 pixels would make the images hold more than 1000 pixels (800 held already)"
    );
    assert!(r.create_image(10, 20, [0.0; 4]).is_ok());
    // Deleting one makes room again.
    assert!(r.delete_image(a));
    assert!(r.create_image(20, 20, [0.0; 4]).is_ok());
    let png = animkit_runtime::render::RgbaImage::new(20, 20, [0, 0, 0, 255]).encode_png().unwrap();
    assert!(matches!(
        r.load_png_bytes(&png),
        Err(RenderError::ImageMemory { requested: 400, held: 1000, limit: 1000 })
    ));
}
