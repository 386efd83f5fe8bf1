//! [`SceneView`]: a SLAP scene's frame drawn into a [`Renderer`]: Polly's
//! meshes uploaded once, then per frame every actor posed
//! ([`pose_actor`]) and those in view (frustum culling on the parts'
//! bounding spheres) laid out part by part in one instance buffer, and
//! one 3D pass: the sky, the checkered ground, one instanced draw call per
//! part ([`Part`]), whatever the number of actors.
//!
//! ```no_run
//! use std::sync::Arc;
//! use animkit_runtime::render::HeadlessGl;
//! use animkit_runtime::slap::view::SceneView;
//! use animkit_vm::isa::Op;
//! use animkit_vm::slap::{Scene, SceneAsm};
//! let mut asm = SceneAsm::new();
//! asm.op(Op::ActorColor, &[1.0, 1.0, 0.0, 0.0]).op(Op::Action, &[1.0, 2.0]); // a red walker
//! let mut scene = Scene::with_index(Arc::new(asm.finish("walk").unwrap()), 0).unwrap();
//! let mut renderer = HeadlessGl::new(320, 240)?.into_renderer()?;
//! let mut view = SceneView::new(&mut renderer)?;
//! scene.seek(30);
//! view.draw_scene(&mut renderer, &scene)?;
//! assert_eq!(renderer.stats_3d().draw_calls, 7); // the ground and six parts
//! let png = renderer.encode_png()?;
//! # Ok::<(), animkit_runtime::render::RenderError>(())
//! ```

use super::camera::{CameraView, letterbox};
use super::polly::{self, Part};
use super::pose::pose_actor;
use crate::render::scene3d::{Batch3d, Ground, Instance, Mat4, MeshId, View3d};
use crate::render::{PixelRect, RenderError, Renderer};
use animkit_vm::slap::{ActorState, Camera, Scene};

/// Draws SLAP frames with Polly's meshes.
#[derive(Debug)]
pub struct SceneView {
    meshes: [MeshId; 6],
    /// Each part mesh's bounding radius about its origin.
    radii: [f32; 6],
    /// Each part's instances of the frame being prepared (reused).
    parts: [Vec<Instance>; 6],
    /// Actors the last frame left out, wholly outside the view.
    culled: usize,
    instances: Vec<Instance>,
    batches: Vec<Batch3d>,
    /// The picture's aspect, `(width, height)`: a target of another shape
    /// shows it letterboxed.
    aspect: (u32, u32),
}

impl SceneView {
    /// Uploads Polly's meshes into `renderer` (whose size is the
    /// picture's aspect from now on).
    pub fn new(renderer: &mut Renderer) -> Result<SceneView, RenderError> {
        let mut ids = Vec::with_capacity(Part::ALL.len());
        let mut radii = [0.0; 6];
        for (k, part) in Part::ALL.into_iter().enumerate() {
            let mesh = polly::mesh(part);
            radii[k] = mesh.vertices.iter().map(|v| length(v.pos)).fold(0.0, f32::max);
            ids.push(renderer.create_mesh(&mesh)?);
        }
        let meshes = [ids[0], ids[1], ids[2], ids[3], ids[4], ids[5]];
        Ok(SceneView {
            meshes,
            radii,
            parts: Default::default(),
            culled: 0,
            instances: Vec::new(),
            batches: Vec::new(),
            aspect: renderer.size(),
        })
    }

    /// Keeps the picture's aspect at `width : height` (the window keeps
    /// the aspect of `-x` and `-y` when it is resized).
    pub fn set_aspect(&mut self, width: u32, height: u32) {
        self.aspect = (width.max(1), height.max(1));
    }

    /// Where the picture goes in `renderer`'s target: all of it when the
    /// shapes agree, else the centred letterbox.
    pub fn viewport(&self, renderer: &Renderer) -> PixelRect {
        let (w, h) = renderer.size();
        letterbox(self.aspect.0, self.aspect.1, w, h)
    }

    /// Draws `scene`'s current frame.
    pub fn draw_scene(&mut self, renderer: &mut Renderer, scene: &Scene) -> Result<(), RenderError> {
        self.draw(renderer, scene.actors(), &scene.camera())
    }

    /// Draws `actors` seen by `camera`: the letterbox bars (black) when the
    /// target's shape is not the picture's, then one 3D pass.
    pub fn draw(
        &mut self,
        renderer: &mut Renderer,
        actors: impl ExactSizeIterator<Item = ActorState>,
        camera: &Camera,
    ) -> Result<(), RenderError> {
        let viewport = self.viewport(renderer);
        if (viewport.w as u32, viewport.h as u32) != renderer.size() {
            renderer.clear([0.0, 0.0, 0.0, 1.0]);
        }
        let (view, ground) = self.prepare(actors, camera, viewport);
        renderer.draw_3d(&view, Some(&ground), &self.instances, &self.batches)
    }

    /// Poses `actors` into the instance buffer and returns the pass's view
    /// and ground (what [`draw`](Self::draw) hands the renderer; public
    /// for the benchmark's raw-GL baseline, which draws the same
    /// instances). The buffer holds every visible actor's bodies, then
    /// heads, wings (left, right), legs (thigh and shank, left and right),
    /// feet and shadows: an actor all of whose parts' bounding spheres lie
    /// outside the view frustum is left out (view-frustum culling,
    /// [`culled`](Self::culled)), so a frame costs what it shows, and the
    /// buffers are reused from frame to frame.
    pub fn prepare(
        &mut self,
        actors: impl ExactSizeIterator<Item = ActorState>,
        camera: &Camera,
        viewport: PixelRect,
    ) -> (View3d, Ground) {
        let cam = CameraView::new(camera, viewport);
        let frustum = Frustum::new(&cam.view_proj);
        for part in &mut self.parts {
            part.clear();
        }
        self.culled = 0;
        for actor in actors {
            let p = pose_actor(&actor, cam.eye);
            let [l0, l1, l2, l3] = p.legs;
            let all = [p.body, p.head, p.wings[0], p.wings[1], l0, l1, l2, l3, p.feet[0], p.feet[1], p.shadow];
            // The part each instance is of (see `Part::ALL`).
            const PART: [usize; 11] = [0, 1, 2, 2, 3, 3, 3, 3, 4, 4, 5];
            if !all.iter().zip(PART).any(|(i, k)| frustum.may_see(i, self.radii[k])) {
                self.culled += 1;
                continue;
            }
            for (i, k) in all.into_iter().zip(PART) {
                self.parts[k].push(i);
            }
        }
        self.instances.clear();
        let mut starts = [0; 7];
        for (k, part) in self.parts.iter().enumerate() {
            self.instances.extend_from_slice(part);
            starts[k + 1] = self.instances.len();
        }
        let [body, head, wing, leg, foot, shadow, end] = starts;
        let m = &self.meshes;
        self.batches.clear();
        self.batches.extend([
            Batch3d::lit(m[0], body..head),
            Batch3d::lit(m[1], head..wing),
            Batch3d::lit(m[2], wing..leg),
            Batch3d::lit(m[3], leg..foot),
            Batch3d::lit(m[4], foot..shadow),
            Batch3d::shadow(m[5], shadow..end),
        ]);
        let view = View3d::new(cam.view_proj, viewport);
        let cell = 1.0;
        let ground = Ground {
            height: -cam.eye[1] as f32,
            cell: cell as f32,
            origin: [cam.eye[0].rem_euclid(2.0 * cell) as f32, cam.eye[2].rem_euclid(2.0 * cell) as f32],
            ..Ground::default()
        };
        (view, ground)
    }

    /// The instances of the last [`prepare`](Self::prepare).
    pub fn instances(&self) -> &[Instance] {
        &self.instances
    }

    /// How many actors the last [`prepare`](Self::prepare) left out: every
    /// part's bounding sphere wholly outside the view (beside it, behind
    /// the eye, nearer than the near plane or beyond the far one).
    pub fn culled(&self) -> usize {
        self.culled
    }

    /// The batches of the last [`prepare`](Self::prepare).
    pub fn batches(&self) -> &[Batch3d] {
        &self.batches
    }
}

fn length(v: [f32; 3]) -> f32 {
    (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt()
}

/// The six clip planes of a projection (`a x + b y + c z + d >= 0`
/// inside, for eye-relative points), from the rows of `view_proj`.
struct Frustum {
    planes: [[f32; 4]; 6],
}

impl Frustum {
    fn new(m: &Mat4) -> Frustum {
        let row = |r: usize| [m.cols[0][r], m.cols[1][r], m.cols[2][r], m.cols[3][r]];
        let w = row(3);
        let mut planes = [[0.0; 4]; 6];
        for (k, plane) in planes.iter_mut().enumerate() {
            let r = row(k / 2);
            let sign = if k % 2 == 0 { 1.0 } else { -1.0 };
            *plane = [0, 1, 2, 3].map(|i| w[i] + sign * r[i]);
        }
        Frustum { planes }
    }

    /// Whether instance `i` of a mesh whose points lie within `radius` of
    /// its origin may show: its bounding sphere (the origin mapped, the
    /// radius times the map's largest stretch, bounded by the Frobenius
    /// norm) is not wholly outside one plane. Non-finite maps are kept (the
    /// GPU draws what it can of them, as before).
    fn may_see(&self, i: &Instance, radius: f32) -> bool {
        let r = &i.rows;
        let centre = [r[0][3], r[1][3], r[2][3]];
        let stretch = (0..3).flat_map(|a| (0..3).map(move |b| r[a][b] * r[a][b])).sum::<f32>().sqrt();
        let reach = radius * stretch;
        if !(reach.is_finite() && centre.iter().all(|v| v.is_finite())) {
            return true;
        }
        self.planes.iter().all(|p| {
            let d = p[0] * centre[0] + p[1] * centre[1] + p[2] * centre[2] + p[3];
            d >= -reach * length([p[0], p[1], p[2]])
        })
    }
}
