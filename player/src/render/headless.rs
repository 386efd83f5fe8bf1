//! [`HeadlessGl`]: an OpenGL context with no window and no display server,
//! through EGL's device platform (Mesa's llvmpipe on machines without a GPU).
//! Rendering goes into the renderer's own framebuffer object.

use glutin::api::egl::context::PossiblyCurrentContext;
use glutin::api::egl::device::Device;
use glutin::api::egl::display::Display;
use glutin::config::{ConfigSurfaceTypes, ConfigTemplateBuilder, GlConfig};
use glutin::context::{ContextApi, ContextAttributesBuilder, GlProfile, Version};
use glutin::display::GlDisplay;

use super::error::{RenderError, check_size};
use super::renderer::Renderer;

/// Which OpenGL flavour a context speaks.
///
/// ```
/// use animkit_player::render::GlApi;
/// assert_ne!(GlApi::DesktopCore33, GlApi::Gles30);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GlApi {
    /// Desktop OpenGL, 3.3 core profile or newer.
    DesktopCore33,
    /// OpenGL ES 3.0 or newer.
    Gles30,
}

/// A current, surfaceless OpenGL context on an EGL device, plus the
/// `glow::Context` that calls into it.
///
/// It asks for desktop GL 3.3 core first and falls back to GLES 3.0. The
/// context is current on the thread that made it (it is not `Send`); keep it
/// alive while anything draws with its `glow::Context` —
/// [`into_renderer`](Self::into_renderer) does that for you.
///
/// ```no_run
/// use animkit_player::render::HeadlessGl;
/// let host = HeadlessGl::new(640, 480)?;
/// println!("{}", host.version_string());
/// let mut r = host.into_renderer()?;
/// r.clear([1.0, 1.0, 1.0, 1.0]);
/// # Ok::<(), animkit_player::render::RenderError>(())
/// ```
pub struct HeadlessGl {
    gl: glow::Context,
    api: GlApi,
    width: u32,
    height: u32,
    // Dropped after `gl` (field order): the context, then the display.
    context: PossiblyCurrentContext,
    display: Display,
}

impl std::fmt::Debug for HeadlessGl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HeadlessGl")
            .field("api", &self.api)
            .field("width", &self.width)
            .field("height", &self.height)
            .finish_non_exhaustive()
    }
}

/// Keeps an EGL context and display alive inside a [`Renderer`].
struct Keepalive {
    _context: PossiblyCurrentContext,
    _display: Display,
}

impl HeadlessGl {
    /// Makes a headless context for a `width` x `height` target (the size
    /// [`into_renderer`](Self::into_renderer) gives the renderer). Desktop GL
    /// 3.3 core is tried first, then GLES 3.0.
    ///
    /// Errors (never panics): [`RenderError::NoDevice`] when there is no EGL
    /// library or device, [`RenderError::Context`] when no context could be
    /// made, [`RenderError::BadSize`] for a zero or oversized target.
    ///
    /// ```no_run
    /// let host = animkit_player::render::HeadlessGl::new(128, 96)?;
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn new(width: u32, height: u32) -> Result<HeadlessGl, RenderError> {
        Self::with_apis(width, height, &[GlApi::DesktopCore33, GlApi::Gles30])
    }

    /// Like [`new`](Self::new) but tries only the given APIs, in order (tests
    /// use `&[GlApi::Gles30]` to exercise the GLES shader path).
    ///
    /// ```no_run
    /// use animkit_player::render::{GlApi, HeadlessGl};
    /// let host = HeadlessGl::with_apis(64, 64, &[GlApi::Gles30])?;
    /// assert_eq!(host.api(), GlApi::Gles30);
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn with_apis(width: u32, height: u32, apis: &[GlApi]) -> Result<HeadlessGl, RenderError> {
        check_size(width.into(), height.into())?;
        let devices =
            Device::query_devices().map_err(|e| RenderError::NoDevice(format!("cannot enumerate EGL devices: {e}")))?;
        let mut failures = Vec::new();
        let mut any_device = false;
        for device in devices {
            any_device = true;
            let name = device.name().unwrap_or("unnamed EGL device").to_string();
            // SAFETY: no raw display handle is passed, so there is nothing to
            // keep valid.
            let display = match unsafe { Display::with_device(&device, None) } {
                Ok(d) => d,
                Err(e) => {
                    failures.push(format!("{name}: display: {e}"));
                    continue;
                }
            };
            match Self::on_display(display, apis) {
                Ok((gl, api, context, display)) => {
                    return Ok(HeadlessGl { gl, api, width, height, context, display });
                }
                Err(e) => failures.push(format!("{name}: {e}")),
            }
        }
        if !any_device {
            return Err(RenderError::NoDevice("EGL reports no devices".into()));
        }
        Err(RenderError::Context(failures.join("; ")))
    }

    fn on_display(
        display: Display,
        apis: &[GlApi],
    ) -> Result<(glow::Context, GlApi, PossiblyCurrentContext, Display), String> {
        let template =
            ConfigTemplateBuilder::new().with_surface_type(ConfigSurfaceTypes::empty()).with_alpha_size(8).build();
        // SAFETY: the template holds no raw window handle.
        let configs: Vec<_> =
            unsafe { display.find_configs(template) }.map_err(|e| format!("no EGL config: {e}"))?.collect();
        let mut errors = Vec::new();
        for &api in apis {
            let (want, attrs) = match api {
                GlApi::DesktopCore33 => (
                    glutin::config::Api::OPENGL,
                    ContextAttributesBuilder::new()
                        .with_context_api(ContextApi::OpenGl(Some(Version::new(3, 3))))
                        .with_profile(GlProfile::Core)
                        .build(None),
                ),
                GlApi::Gles30 => (
                    glutin::config::Api::GLES3,
                    ContextAttributesBuilder::new()
                        .with_context_api(ContextApi::Gles(Some(Version::new(3, 0))))
                        .build(None),
                ),
            };
            let Some(config) = configs
                .iter()
                .filter(|c| c.api().contains(want))
                .min_by_key(|c| (c.num_samples(), c.depth_size(), c.stencil_size()))
            else {
                errors.push(format!("{api:?}: no config"));
                continue;
            };
            // SAFETY: no raw window handle in the attributes.
            let ctx = match unsafe { display.create_context(config, &attrs) } {
                Ok(c) => c,
                Err(e) => {
                    errors.push(format!("{api:?}: {e}"));
                    continue;
                }
            };
            let ctx = match ctx.make_current_surfaceless() {
                Ok(c) => c,
                Err(e) => {
                    errors.push(format!("{api:?}: make current: {e}"));
                    continue;
                }
            };
            // SAFETY: the context is current on this thread; glow only keeps
            // the function pointers, which stay valid while the display lives.
            let gl = unsafe { glow::Context::from_loader_function_cstr(|s| display.get_proc_address(s).cast()) };
            return Ok((gl, api, ctx, display));
        }
        Err(errors.join(", "))
    }

    /// The API the context speaks.
    ///
    /// ```no_run
    /// # let host = animkit_player::render::HeadlessGl::new(8, 8)?;
    /// println!("{:?}", host.api());
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn api(&self) -> GlApi {
        self.api
    }

    /// `GL_VERSION` and `GL_RENDERER`, e.g.
    /// `4.5 (Core Profile) Mesa 22.3.6 / llvmpipe (LLVM 15.0.6, 256 bits)`.
    ///
    /// ```no_run
    /// # let host = animkit_player::render::HeadlessGl::new(8, 8)?;
    /// assert!(!host.version_string().is_empty());
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn version_string(&self) -> String {
        use glow::HasContext;
        // SAFETY: the context is current on this thread.
        unsafe {
            format!(
                "{} / {}",
                self.gl.get_parameter_string(glow::VERSION),
                self.gl.get_parameter_string(glow::RENDERER)
            )
        }
    }

    /// The `glow::Context` bound to this context.
    ///
    /// ```no_run
    /// # let host = animkit_player::render::HeadlessGl::new(8, 8)?;
    /// let gl: &glow::Context = host.gl();
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn gl(&self) -> &glow::Context {
        &self.gl
    }

    /// Another `glow::Context` handle on this context (the same GL objects:
    /// what a game hands an embedded [`Player`](crate::player::Player)).
    pub fn share_gl(&self) -> glow::Context {
        // SAFETY: the context is current on this thread; the pointers stay
        // valid while the display lives.
        unsafe { glow::Context::from_loader_function_cstr(|s| self.display.get_proc_address(s).cast()) }
    }

    /// Size given to [`new`](Self::new).
    ///
    /// ```no_run
    /// # let host = animkit_player::render::HeadlessGl::new(8, 6)?;
    /// assert_eq!(host.size(), (8, 6));
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// Makes a [`Renderer`] of the size given to [`new`](Self::new) that owns
    /// this context (it stays alive, and current, as long as the renderer).
    ///
    /// ```no_run
    /// let mut r = animkit_player::render::HeadlessGl::new(64, 48)?.into_renderer()?;
    /// assert_eq!(r.size(), (64, 48));
    /// # Ok::<(), animkit_player::render::RenderError>(())
    /// ```
    pub fn into_renderer(self) -> Result<Renderer, RenderError> {
        let HeadlessGl { gl, width, height, context, display, .. } = self;
        // Re-assert currency in case the caller switched contexts.
        context.make_current_surfaceless().map_err(|e| RenderError::Context(e.to_string()))?;
        let keep = Keepalive { _context: context, _display: display };
        Renderer::with_keepalive(gl, width, height, Some(Box::new(keep)))
    }
}
