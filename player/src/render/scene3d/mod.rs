//! 3D drawing inside the [`Renderer`](crate::render::Renderer):
//! instanced, lit meshes over a checkered ground, with a depth buffer, in
//! the same context and the same offscreen framebuffer as the 2D batcher
//! (so windows, screenshots, `-d` frames and GIFs show 3D exactly as they
//! show 2D). The renderer's methods that draw it are
//! `render/renderer/pass3d.rs`'s: this module names nothing of the
//! renderer.
//!
//! Like the 2D path it knows pixels and a projection the caller hands
//! over, nothing of any language: a host uploads its meshes once
//! ([`Renderer::create_mesh`](crate::render::Renderer::create_mesh)), and
//! each frame hands [`Renderer::draw_3d`](crate::render::Renderer::draw_3d)
//! a [`View3d`] (projection, viewport, sky, light, fog), an optional
//! [`Ground`], one slice of [`Instance`]s (an affine map and a colour
//! each) and the [`Batch3d`]es that draw ranges of it with a mesh. Each
//! batch is **one** instanced draw call, whatever its number of
//! instances: one upload of all the instances, no per-instance state.
//!
//! Coordinates are **relative to the eye**: the host subtracts the eye's
//! position (in `f64`) before it builds its instance matrices, and the
//! view is a rotation only ([`Mat4::look_along`]), so a scene far from the
//! origin keeps its precision in `f32`.
//!
//! Ordering: 2D drawing queued before a 3D pass is flushed first, and 2D
//! drawn after it lies on top. A pass clears depth (and, with a sky,
//! colour) inside its viewport only, enables depth testing and back-face
//! culling for its own draws, and leaves them disabled as the 2D flush
//! expects; the stencil buffer is not touched.
//!
//! ```no_run
//! use animkit_player::render::scene3d::*;
//! use animkit_player::render::{HeadlessGl, PixelRect};
//! let mut r = HeadlessGl::new(320, 240)?.into_renderer()?;
//! let cube = r.create_mesh(&Mesh::cube([255, 255, 255, 255]))?;
//! let eye = [0.0f32, 1.0, 5.0];
//! let view = View3d::new(
//!     Mat4::perspective(0.8, 320.0 / 240.0, 0.1, 100.0).mul(&Mat4::look_along([0.0, -1.0, -5.0])),
//!     PixelRect::new(0, 0, 320, 240),
//! );
//! let model = Mat4::translation([-eye[0], 0.5 - eye[1], -eye[2]]);
//! let instances = [Instance::new(&model, [200, 40, 40, 255])];
//! let ground = Ground { height: -eye[1], ..Ground::default() };
//! r.draw_3d(&view, Some(&ground), &instances, &[Batch3d::lit(cube, 0..1)])?;
//! assert_eq!(r.stats_3d().draw_calls, 2); // the ground and the cubes
//! let png = r.encode_png()?;
//! # Ok::<(), animkit_player::render::RenderError>(())
//! ```

mod gl;
mod math;
mod mesh;
pub mod shader;

pub use math::{Mat4, cross, normalize};
pub use mesh::{Mesh, MeshVertex};

pub(crate) use gl::Gl3d;

use super::types::PixelRect;
use std::ops::Range;

/// A mesh uploaded to a renderer
/// ([`Renderer::create_mesh`](crate::render::Renderer::create_mesh)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MeshId(pub(crate) u32);

/// One instance of a mesh: an affine map from the mesh's frame to
/// eye-relative coordinates (the three rows of its 3x4 matrix) and a
/// colour. 52 bytes, uploaded as they are.
///
/// ```
/// use animkit_player::render::scene3d::{Instance, Mat4};
/// let i = Instance::new(&Mat4::translation([1.0, 2.0, 3.0]), [255, 0, 0, 255]);
/// assert_eq!(i.rows[1], [0.0, 1.0, 0.0, 2.0]);
/// assert_eq!(std::mem::size_of::<Instance>(), 52);
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Instance {
    /// Rows of the affine map (`x' = rows[0] . (x, y, z, 1)`, ...).
    pub rows: [[f32; 4]; 3],
    /// RGBA8: tints the mesh's tinted vertices; alpha is the opacity of
    /// [`Shading::Shadow`] batches (lit batches are opaque).
    pub color: [u8; 4],
}

impl Instance {
    /// The instance of `model` (affine) with `color`.
    pub fn new(model: &Mat4, color: [u8; 4]) -> Instance {
        Instance { rows: model.affine_rows(), color }
    }
}

/// How a batch is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shading {
    /// Opaque, lit by the view's light, writing depth.
    Lit,
    /// Unlit and blended (source over, the instance colour's alpha), drawn
    /// without writing depth and pulled slightly towards the eye so that
    /// it lies on the surface under it: blob shadows on the ground. Put
    /// such batches after the opaque ones.
    Shadow,
}

/// One instanced draw: `instances` of the pass's instance slice drawn
/// with `mesh`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Batch3d {
    /// The mesh.
    pub mesh: MeshId,
    /// Which instances (indices into the slice given to
    /// [`Renderer::draw_3d`](crate::render::Renderer::draw_3d); clamped to
    /// it).
    pub instances: Range<usize>,
    /// Lit or shadow.
    pub shading: Shading,
}

impl Batch3d {
    /// A lit batch.
    pub fn lit(mesh: MeshId, instances: Range<usize>) -> Batch3d {
        Batch3d { mesh, instances, shading: Shading::Lit }
    }

    /// A shadow batch.
    pub fn shadow(mesh: MeshId, instances: Range<usize>) -> Batch3d {
        Batch3d { mesh, instances, shading: Shading::Shadow }
    }
}

/// One directional light plus ambient light.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Light {
    /// Unit vector pointing **towards** the light.
    pub direction: [f32; 3],
    /// Colour of the directional light (a surface facing it gets
    /// `ambient + color`).
    pub color: [f32; 3],
    /// Ambient light, everywhere.
    pub ambient: [f32; 3],
}

impl Default for Light {
    /// A sun above, behind the viewer's right shoulder.
    fn default() -> Light {
        Light { direction: normalize([0.35, 0.85, 0.4]), color: [0.62, 0.6, 0.56], ambient: [0.4, 0.42, 0.46] }
    }
}

/// Fog: colours blend linearly towards `color` between `start` and `end`
/// (distances from the eye).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fog {
    /// What far things fade to (the sky, usually).
    pub color: [f32; 3],
    /// Where fading starts.
    pub start: f32,
    /// Where things are all fog.
    pub end: f32,
}

/// The camera side of a pass.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View3d {
    /// Projection times view, from eye-relative coordinates to clip space.
    pub view_proj: Mat4,
    /// The target pixels the pass draws into (top-left origin), clamped to
    /// the target.
    pub viewport: PixelRect,
    /// Clear the viewport to this colour first (`None`: draw over what is
    /// there).
    pub sky: Option<[f32; 3]>,
    /// The light.
    pub light: Light,
    /// The fog.
    pub fog: Fog,
}

/// The default sky: a pale blue.
pub const SKY: [f32; 3] = [0.66, 0.8, 0.93];

impl View3d {
    /// A view through `view_proj` into `viewport`, with the default sky,
    /// light and a fog to the sky from 30 to 160 units.
    pub fn new(view_proj: Mat4, viewport: PixelRect) -> View3d {
        View3d {
            view_proj,
            viewport,
            sky: Some(SKY),
            light: Light::default(),
            fog: Fog { color: SKY, start: 30.0, end: 160.0 },
        }
    }
}

/// A horizontal ground square centred under the eye, checkered in world
/// coordinates and lit from above by the view's light.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ground {
    /// The ground's height relative to the eye (`-eye_y` for a ground at
    /// y = 0).
    pub height: f32,
    /// Half the side of the square (it should reach past the fog's end).
    pub extent: f32,
    /// The side of a checker cell.
    pub cell: f32,
    /// The eye's world `x` and `z` modulo two cells (`f64::rem_euclid`),
    /// so that the cells stay put in the world as the eye moves.
    pub origin: [f32; 2],
    /// The two cell colours, before lighting.
    pub colors: [[f32; 3]; 2],
}

impl Default for Ground {
    fn default() -> Ground {
        Ground {
            height: 0.0,
            extent: 400.0,
            cell: 1.0,
            origin: [0.0, 0.0],
            colors: [[0.8, 0.76, 0.68], [0.66, 0.62, 0.55]],
        }
    }
}

/// What 3D passes submitted: draw calls, instances and triangles.
///
/// ```
/// let s = animkit_player::render::scene3d::Stats3d::default();
/// assert_eq!((s.passes, s.draw_calls, s.instances, s.triangles), (0, 0, 0, 0));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats3d {
    /// Passes (1 for the stats of one pass).
    pub passes: u64,
    /// Draw calls: the ground's and one per non-empty batch.
    pub draw_calls: u64,
    /// Instances drawn.
    pub instances: u64,
    /// Triangles submitted (the ground's two included).
    pub triangles: u64,
}

impl Stats3d {
    fn add(&mut self, other: &Stats3d) {
        self.passes += other.passes;
        self.draw_calls += other.draw_calls;
        self.instances += other.instances;
        self.triangles += other.triangles;
    }
}
