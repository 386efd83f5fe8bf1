//! [`GlWindow`]: a winit window with a current glutin OpenGL context, the
//! surface the [`Renderer`]'s framebuffer is blitted to.
//!
//! The display is GLX first, then EGL (glutin's `GlxThenEgl`, what
//! glutin-winit does by default on X11; EGL on Wayland). The config is a
//! double-buffered one without multisampling (`num_samples() == 0`) and,
//! where there is a choice, without sRGB, depth or stencil: the renderer
//! draws into its own RGBA8 framebuffer and the window only receives a 1:1
//! copy, so the window shows exactly the pixels of screenshots and `-d`
//! frames. The SLAP player window asks for a depth buffer instead
//! ([`GlWindow::open_with`]): its [`Player`](crate::player::Player) draws
//! the 3D pass straight into the window, within a pixel's rounding of
//! `-d` frames at edges (see `runtime/tests/window_xvfb.rs`). The context is desktop OpenGL 3.3 core, or OpenGL ES 3.0 when
//! that fails; swaps do not wait for vertical blank, so a flush never
//! blocks event handling.

use crate::render::Renderer;
use glutin::config::{Api, Config, ConfigTemplateBuilder, GlConfig};
use glutin::context::Version;
use glutin::context::{ContextApi, ContextAttributesBuilder, GlProfile, NotCurrentGlContext, PossiblyCurrentContext};
use glutin::display::{Display, DisplayApiPreference, GetGlDisplay, GlDisplay};
use glutin::surface::{GlSurface, Surface, SurfaceAttributesBuilder, SwapInterval, WindowSurface};
use raw_window_handle::{HasDisplayHandle, HasWindowHandle};
use std::cell::Cell;
use std::num::NonZeroU32;
use winit::dpi::PhysicalSize;
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::window::{Window, WindowAttributes};

/// The event loop of a window host. X11 when `DISPLAY` is set (also under
/// a Wayland session with XWayland: `animator` was an X11 program, and
/// `warp` can move the pointer only there), Wayland otherwise.
pub fn event_loop<T: 'static>() -> Result<EventLoop<T>, winit::error::EventLoopError> {
    let mut builder = EventLoop::<T>::with_user_event();
    #[cfg(all(unix, not(target_vendor = "apple"), not(target_os = "android")))]
    if std::env::var_os("DISPLAY").is_some_and(|d| !d.is_empty()) {
        use winit::platform::x11::EventLoopBuilderExtX11;
        builder.with_x11();
    }
    builder.build()
}

/// A window and its current OpenGL context.
pub struct GlWindow {
    // Field order is drop order: surface, context, then the window.
    surface: Surface<WindowSurface>,
    context: PossiblyCurrentContext,
    size: Cell<(u32, u32)>,
    /// The window.
    pub window: Window,
}

#[cfg(all(unix, not(target_vendor = "apple"), not(target_os = "android")))]
fn preference() -> DisplayApiPreference {
    DisplayApiPreference::GlxThenEgl(Box::new(winit::platform::x11::register_xlib_error_hook))
}

#[cfg(not(all(unix, not(target_vendor = "apple"), not(target_os = "android"))))]
fn preference() -> DisplayApiPreference {
    DisplayApiPreference::Egl
}

/// Orders configs: no multisampling first, then no sRGB, no depth, no
/// stencil.
fn config_rank(c: &Config) -> (u8, bool, u8, u8) {
    (c.num_samples(), c.srgb_capable(), c.depth_size(), c.stencil_size())
}

/// Why a window could not be opened with a current OpenGL context; each
/// variant carries what winit or glutin said.
///
/// ```
/// use animkit_runtime::host::gl_window::WindowError;
/// let e = WindowError::Context(vec!["OPENGL: bad".into(), "GLES3: make current: no".into()]);
/// assert_eq!(e.to_string(), "cannot make an OpenGL context for the window: OPENGL: bad; GLES3: make current: no");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WindowError {
    /// The event loop gave no display handle.
    #[error("no display handle: {0}")]
    DisplayHandle(String),
    /// No GLX or EGL display could be opened.
    #[error("cannot open an OpenGL display (GLX or EGL): {0}")]
    Display(String),
    /// The display could not list its configs.
    #[error("no OpenGL config for a window: {0}")]
    Configs(String),
    /// No config offers desktop OpenGL or GLES 3.
    #[error("no OpenGL config for a window")]
    NoConfig,
    /// The window could not be created.
    #[error("cannot create the window: {0}")]
    Window(String),
    /// The window gave no window handle.
    #[error("no window handle: {0}")]
    WindowHandle(String),
    /// The window has no size.
    #[error("the window has no size")]
    NoSize,
    /// No surface could be made on the window.
    #[error("cannot make a window surface: {0}")]
    Surface(String),
    /// Neither OpenGL 3.3 core nor GLES 3.0 gave a current context: each
    /// attempt's failure, `API: reason`.
    #[error("cannot make an OpenGL context for the window: {}", .0.join("; "))]
    Context(Vec<String>),
}

impl GlWindow {
    /// Opens a window with `attributes` (its inner size must be set, in
    /// physical pixels) and makes a context current on it. Returns the
    /// window and the `glow::Context` to build a [`Renderer`] with.
    pub fn open(
        event_loop: &ActiveEventLoop,
        attributes: WindowAttributes,
    ) -> Result<(GlWindow, glow::Context), WindowError> {
        GlWindow::open_with(event_loop, attributes, false)
    }

    /// As [`open`](Self::open), with a depth buffer on the window's
    /// framebuffer when `depth` (a config with depth bits preferred over
    /// any without): what a game drawing 3D asks for, and what lets the
    /// embedding [`Player`](crate::player::Player) draw a SLAP scene
    /// straight into the window.
    ///
    /// ```no_run
    /// # fn f(el: &winit::event_loop::ActiveEventLoop) -> Result<(), animkit_runtime::host::gl_window::WindowError> {
    /// use animkit_runtime::host::gl_window::GlWindow;
    /// let attributes = winit::window::Window::default_attributes()
    ///     .with_inner_size(winit::dpi::PhysicalSize::new(640, 480));
    /// let (window, gl) = GlWindow::open_with(el, attributes, true)?;
    /// # Ok(()) }
    /// ```
    pub fn open_with(
        event_loop: &ActiveEventLoop,
        attributes: WindowAttributes,
        depth: bool,
    ) -> Result<(GlWindow, glow::Context), WindowError> {
        let raw_display = event_loop.display_handle().map_err(|e| WindowError::DisplayHandle(e.to_string()))?.as_raw();
        // SAFETY: the handle comes from the live event loop, which outlives
        // the display (the window host drops its windows before the loop).
        let display =
            unsafe { Display::new(raw_display, preference()) }.map_err(|e| WindowError::Display(e.to_string()))?;
        let template = ConfigTemplateBuilder::new().build();
        // SAFETY: the template holds no raw window handle.
        let configs: Vec<Config> =
            unsafe { display.find_configs(template) }.map_err(|e| WindowError::Configs(e.to_string()))?.collect();

        // Desktop GL configs first, then the best-ranked one.
        let config = configs
            .iter()
            .filter(|c| c.api().intersects(Api::OPENGL | Api::GLES3))
            .min_by_key(|c| (!c.api().contains(Api::OPENGL), depth && c.depth_size() < 24, config_rank(c)))
            .ok_or(WindowError::NoConfig)?;
        let window = glutin_winit::finalize_window(event_loop, attributes, config)
            .map_err(|e| WindowError::Window(e.to_string()))?;
        let raw_window = window.window_handle().map_err(|e| WindowError::WindowHandle(e.to_string()))?.as_raw();
        let size = window.inner_size();
        let (w, h) = (NonZeroU32::new(size.width.max(1)), NonZeroU32::new(size.height.max(1)));
        let (Some(w), Some(h)) = (w, h) else { return Err(WindowError::NoSize) };
        let surface_attrs = SurfaceAttributesBuilder::<WindowSurface>::new().build(raw_window, w, h);
        // SAFETY: the raw window handle belongs to `window`, which is dropped
        // after the surface and the context (field order of `GlWindow`).
        let surface = unsafe { display.create_window_surface(config, &surface_attrs) }
            .map_err(|e| WindowError::Surface(e.to_string()))?;

        let attempts = [
            (
                Api::OPENGL,
                ContextAttributesBuilder::new()
                    .with_context_api(ContextApi::OpenGl(Some(Version::new(3, 3))))
                    .with_profile(GlProfile::Core)
                    .build(Some(raw_window)),
            ),
            (
                Api::GLES3,
                ContextAttributesBuilder::new()
                    .with_context_api(ContextApi::Gles(Some(Version::new(3, 0))))
                    .build(Some(raw_window)),
            ),
        ];
        let mut failures = Vec::new();
        for (api, attrs) in attempts {
            if !config.api().contains(api) {
                continue;
            }
            // SAFETY: as above, the window outlives the context.
            let context = match unsafe { display.create_context(config, &attrs) } {
                Ok(c) => c,
                Err(e) => {
                    failures.push(format!("{api:?}: {e}"));
                    continue;
                }
            };
            let context = match context.make_current(&surface) {
                Ok(c) => c,
                Err(e) => {
                    failures.push(format!("{api:?}: make current: {e}"));
                    continue;
                }
            };
            let _ = surface.set_swap_interval(&context, SwapInterval::DontWait);
            // SAFETY: the context is current on this thread; the function
            // pointers stay valid while the display lives (inside the
            // context).
            let gl = unsafe { glow::Context::from_loader_function_cstr(|s| display.get_proc_address(s).cast()) };
            let gl_window = GlWindow { surface, context, size: Cell::new((size.width, size.height)), window };
            return Ok((gl_window, gl));
        }
        Err(WindowError::Context(failures))
    }

    /// Closes a window that another client has already destroyed: the
    /// window surface is leaked rather than destroyed (destroying it would
    /// be an X error on a window that no longer exists).
    pub fn abandon(self) {
        let GlWindow { surface, context, size: _, window } = self;
        std::mem::forget(surface);
        drop(context);
        drop(window);
    }

    /// Another `glow::Context` handle on the window's context (the same GL
    /// objects: what a game hands an embedded
    /// [`Player`](crate::player::Player)).
    pub fn share_gl(&self) -> glow::Context {
        let display = self.context.display();
        // SAFETY: the context is current on this thread; the pointers stay
        // valid while the display lives.
        unsafe { glow::Context::from_loader_function_cstr(|s| display.get_proc_address(s).cast()) }
    }

    /// Swaps the window's buffers (a game that draws itself).
    pub fn swap(&self) {
        let _ = self.surface.swap_buffers(&self.context);
    }

    /// The size the surface was last told (pixels).
    pub fn size(&self) -> (u32, u32) {
        self.size.get()
    }

    /// The window is now `size`: resizes the surface (EGL needs it).
    pub fn resized(&self, size: PhysicalSize<u32>) {
        if let (Some(w), Some(h)) = (NonZeroU32::new(size.width), NonZeroU32::new(size.height)) {
            self.surface.resize(&self.context, w, h);
            self.size.set((size.width, size.height));
        }
    }

    /// Copies the renderer's framebuffer to the window (1:1, top-left
    /// aligned, black around it) and swaps.
    pub fn present(&self, renderer: &mut Renderer) {
        let (w, h) = self.size.get();
        renderer.blit_to_default_framebuffer(w, h);
        let _ = self.surface.swap_buffers(&self.context);
    }
}
