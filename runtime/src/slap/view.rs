//! [`SceneView`]: a SLAP scene's frame drawn into a [`Renderer`]: Polly's
//! meshes uploaded once, then per frame every actor posed
//! ([`pose_actor`]) into one instance buffer laid out part by part, and
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
use crate::render::scene3d::{Batch3d, Ground, Instance, MeshId, View3d};
use crate::render::{PixelRect, RenderError, Renderer};
use animkit_vm::slap::{ActorState, Camera, Scene};

/// Draws SLAP frames with Polly's meshes.
#[derive(Debug)]
pub struct SceneView {
    meshes: [MeshId; 6],
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
        for part in Part::ALL {
            ids.push(renderer.create_mesh(&polly::mesh(part))?);
        }
        let meshes = [ids[0], ids[1], ids[2], ids[3], ids[4], ids[5]];
        Ok(SceneView { meshes, instances: Vec::new(), batches: Vec::new(), aspect: renderer.size() })
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
    /// instances). The buffer holds every actor's bodies, then heads,
    /// wings (left, right), legs, feet and shadows.
    pub fn prepare(
        &mut self,
        actors: impl ExactSizeIterator<Item = ActorState>,
        camera: &Camera,
        viewport: PixelRect,
    ) -> (View3d, Ground) {
        let cam = CameraView::new(camera, viewport);
        let n = actors.len();
        // A zero map collapses a mesh to a point: nothing is drawn.
        let zero = Instance { rows: [[0.0; 4]; 3], color: [0; 4] };
        self.instances.clear();
        self.instances.resize(n * 9, zero);
        // Where each part's instances start.
        let (body, head, wing, leg, foot, shadow) = (0, n, 2 * n, 4 * n, 6 * n, 8 * n);
        let mut count = 0;
        for (i, actor) in actors.take(n).enumerate() {
            let p = pose_actor(&actor, cam.eye);
            let slots = &mut self.instances;
            slots[body + i] = p.body;
            slots[head + i] = p.head;
            slots[wing + 2 * i..wing + 2 * i + 2].copy_from_slice(&p.wings);
            slots[leg + 2 * i..leg + 2 * i + 2].copy_from_slice(&p.legs);
            slots[foot + 2 * i..foot + 2 * i + 2].copy_from_slice(&p.feet);
            slots[shadow + i] = p.shadow;
            count += 1;
        }
        // An iterator shorter than it said leaves zeroed (invisible) slots.
        debug_assert_eq!(count, n);
        let m = &self.meshes;
        self.batches.clear();
        self.batches.extend([
            Batch3d::lit(m[0], body..head),
            Batch3d::lit(m[1], head..wing),
            Batch3d::lit(m[2], wing..leg),
            Batch3d::lit(m[3], leg..foot),
            Batch3d::lit(m[4], foot..shadow),
            Batch3d::shadow(m[5], shadow..9 * n),
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

    /// The batches of the last [`prepare`](Self::prepare).
    pub fn batches(&self) -> &[Batch3d] {
        &self.batches
    }
}
