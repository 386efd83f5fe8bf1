//! With no EGL vendor library (glvnd pointed at a file that does not exist),
//! `HeadlessGl::new` reports an error instead of panicking. Its own test
//! binary, so the environment variable is set before EGL is first loaded.
//! Takes well under a second.

use animkit_runtime::render::{HeadlessGl, RenderError};

#[test]
fn no_egl_device_is_a_clear_error() {
    // SAFETY: the only test in this binary; set before any other thread or
    // EGL call reads the environment.
    unsafe { std::env::set_var("__EGL_VENDOR_LIBRARY_FILENAMES", "/nonexistent/egl_vendor.json") };
    match HeadlessGl::new(8, 8) {
        Err(e @ (RenderError::NoDevice(_) | RenderError::Context(_))) => {
            let msg = e.to_string();
            assert!(msg.contains("EGL") || msg.contains("context"), "{msg}");
            eprintln!("{msg}");
        }
        Err(other) => panic!("unexpected error kind: {other:?}"),
        Ok(h) => panic!("a context without any EGL vendor? {}", h.version_string()),
    }
    // Sizes are checked too, before anything else.
    assert!(matches!(HeadlessGl::new(0, 8), Err(RenderError::BadSize { .. })));
}
