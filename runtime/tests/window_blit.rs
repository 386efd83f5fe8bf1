//! `blit_to_default_framebuffer` onto a real default framebuffer: an EGL
//! pbuffer surface stands in for a window (same API path as the window host:
//! framebuffer 0, bottom-left GL origin). Skips (passes with a note) when the
//! EGL device offers no pbuffer configs. Takes well under a second.

use std::num::NonZeroU32;

use animkit_runtime::render::{Renderer, Rgba};
use glow::HasContext;
use glutin::api::egl::{device::Device, display::Display};
use glutin::config::{ConfigSurfaceTypes, ConfigTemplateBuilder, GlConfig};
use glutin::context::{ContextApi, ContextAttributesBuilder, GlProfile, Version};
use glutin::display::GlDisplay;
use glutin::prelude::*;
use glutin::surface::{PbufferSurface, SurfaceAttributesBuilder};

const RED: Rgba = [1.0, 0.0, 0.0, 1.0];
const BLUE: Rgba = [0.0, 0.0, 1.0, 1.0];

#[test]
fn target_lands_top_left_aligned_in_the_window() {
    let device = Device::query_devices().expect("EGL devices").next().expect("one EGL device");
    // SAFETY: no raw display handle.
    let display = unsafe { Display::with_device(&device, None) }.expect("EGL display");
    let template =
        ConfigTemplateBuilder::new().with_surface_type(ConfigSurfaceTypes::PBUFFER).with_alpha_size(8).build();
    // SAFETY: no raw window handle in the template.
    let Some(config) = unsafe { display.find_configs(template) }
        .expect("configs")
        .filter(|c| c.api().contains(glutin::config::Api::OPENGL))
        .min_by_key(|c| c.num_samples())
    else {
        eprintln!("no pbuffer config on this EGL device: skipped");
        return;
    };
    let (win_w, win_h) = (40u32, 30u32);
    let attrs = SurfaceAttributesBuilder::<PbufferSurface>::new()
        .build(NonZeroU32::new(win_w).unwrap(), NonZeroU32::new(win_h).unwrap());
    // SAFETY: pbuffer attributes, no window handle.
    let surface = unsafe { display.create_pbuffer_surface(&config, &attrs) }.expect("pbuffer");
    let ctx_attrs = ContextAttributesBuilder::new()
        .with_context_api(ContextApi::OpenGl(Some(Version::new(3, 3))))
        .with_profile(GlProfile::Core)
        .build(None);
    // SAFETY: no window handle in the attributes.
    let ctx = unsafe { display.create_context(&config, &ctx_attrs) }.expect("context");
    let ctx = ctx.make_current(&surface).expect("make current");
    // SAFETY: current context; pointers valid while the display lives.
    let gl = unsafe { glow::Context::from_loader_function_cstr(|s| display.get_proc_address(s).cast()) };

    let mut r = Renderer::new(gl, 20, 10).unwrap();
    r.clear(BLUE);
    r.dot([0.0, 0.0], RED); // top-left pixel of the target
    r.blit_to_default_framebuffer(win_w, win_h);

    let mut px = vec![0u8; (win_w * win_h * 4) as usize];
    // SAFETY: current context; framebuffer 0 is the pbuffer.
    unsafe {
        let gl = r.gl();
        gl.bind_framebuffer(glow::FRAMEBUFFER, None);
        gl.pixel_store_i32(glow::PACK_ALIGNMENT, 1);
        gl.read_pixels(
            0,
            0,
            win_w as i32,
            win_h as i32,
            glow::RGBA,
            glow::UNSIGNED_BYTE,
            glow::PixelPackData::Slice(Some(&mut px)),
        );
    }
    // GL rows count from the bottom: the window's top row is row win_h - 1.
    let at = |x: u32, top_y: u32| {
        let i = (((win_h - 1 - top_y) * win_w + x) * 4) as usize;
        [px[i], px[i + 1], px[i + 2], px[i + 3]]
    };
    assert_eq!(at(0, 0), [255, 0, 0, 255], "target's top-left pixel at the window's top-left");
    assert_eq!(at(1, 0), [0, 0, 255, 255]);
    assert_eq!(at(19, 9), [0, 0, 255, 255]);
    assert_eq!(at(20, 0), [0, 0, 0, 255], "outside the target: black");
    assert_eq!(at(0, 10), [0, 0, 0, 255]);
    // The renderer still draws into its own target afterwards.
    r.dot([5.0, 5.0], RED);
    assert_eq!(r.read_pixels().pixel(5, 5), Some([255, 0, 0, 255]));
    drop(r);
    drop(ctx);
}
