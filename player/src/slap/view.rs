//! [`SceneView`]: a SLAP scene's frame drawn into a [`Renderer`]: Polly's
//! meshes, every part at each of the [`LEVELS`] levels of detail,
//! uploaded once; then per frame every actor in view (frustum culling on
//! a sphere that holds it in any pose, before posing, then on its parts'
//! bounding spheres) posed ([`pose_actor`]), given a level of detail from
//! its projected size ([`polly::level_for`]), and laid out by part and
//! level in one instance buffer; and one 3D pass: the sky, the checkered
//! ground, one instanced draw call per part ([`Part`]) and level in use
//! (at most 1 + 6 x 4), whatever the number of actors.
//!
//! ```no_run
//! use std::sync::Arc;
//! use animkit_player::render::HeadlessGl;
//! use animkit_player::slap::view::SceneView;
//! use animkit_vm::engine::isa::Op;
//! use animkit_vm::engine::slap::{SceneAsm, SceneSim};
//! let mut asm = SceneAsm::new();
//! asm.op(Op::ActorColor, &[1.0, 1.0, 0.0, 0.0]).op(Op::Action, &[1.0, 2.0]); // a red walker
//! let mut scene = SceneSim::with_index(Arc::new(asm.finish("walk").unwrap()), 0).unwrap();
//! let mut renderer = HeadlessGl::new(320, 240)?.into_renderer()?;
//! let mut view = SceneView::new(&mut renderer)?;
//! scene.seek(30);
//! view.draw_scene(&mut renderer, &scene)?;
//! assert_eq!(renderer.stats_3d().draw_calls, 7); // the ground and six parts (one actor: one level)
//! let png = renderer.encode_png()?;
//! # Ok::<(), animkit_player::render::RenderError>(())
//! ```

use super::camera::{CameraView, FOVY_DEGREES, NEAR, letterbox};
use super::polly::{self, ACTOR_CENTRE, ACTOR_RADIUS, LEVELS, Part};
use super::pose::{SHADOW_Y, pose_actor};
use crate::render::scene3d::{Batch3d, Ground, Instance, Mat4, MeshId, View3d};
use crate::render::{PixelRect, RenderError, Renderer};
use animkit_vm::engine::slap::{ActorState, Camera, SceneSim};
use glow::HasContext;

/// How many (part, level) batches a frame has: every part at every level
/// of detail, the empty ones drawing nothing.
pub const BATCHES: usize = Part::ALL.len() * LEVELS;

/// Which level of detail the view draws actors with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Detail {
    /// Chosen per actor per frame from its projected size
    /// ([`polly::level_for`]).
    #[default]
    Auto,
    /// Every actor at this level (0: the full meshes; a level past the last
    /// is the last).
    Level(usize),
}

/// Draws SLAP frames with Polly's meshes.
#[derive(Debug)]
pub struct SceneView {
    /// Batch `part * LEVELS + level`'s mesh.
    meshes: [MeshId; BATCHES],
    /// Each part's bounding radius about its origin (the largest of its
    /// levels').
    radii: [f32; 6],
    /// Each batch's instances of the frame being prepared (reused).
    parts: [Vec<Instance>; BATCHES],
    /// Actors the last frame left out, wholly outside the view.
    culled: usize,
    /// Actors the last frame drew at each level.
    levels: [usize; LEVELS],
    detail: Detail,
    /// Whether actors are culled as a whole before posing.
    precull: bool,
    instances: Vec<Instance>,
    batches: Vec<Batch3d>,
    /// The picture's aspect, `(width, height)`: a target of another shape
    /// shows it letterboxed.
    aspect: (u32, u32),
}

impl SceneView {
    /// Uploads Polly's meshes, every part at every level of detail, into
    /// `renderer` (whose size is the picture's aspect from now on).
    pub fn new(renderer: &mut Renderer) -> Result<SceneView, RenderError> {
        let mut meshes = [MeshId(0); BATCHES];
        let mut radii = [0.0; 6];
        for (k, mesh) in polly::all_meshes().iter().enumerate() {
            let r = mesh.vertices.iter().map(|v| length(v.pos)).fold(0.0, f32::max);
            radii[k / LEVELS] = f32::max(radii[k / LEVELS], r);
            meshes[k] = renderer.create_mesh(mesh)?;
        }
        Ok(SceneView {
            meshes,
            radii,
            parts: Default::default(),
            culled: 0,
            levels: [0; LEVELS],
            detail: Detail::Auto,
            precull: true,
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

    /// Sets how the level of detail is chosen (the default: per actor,
    /// [`Detail::Auto`]); the benchmark draws the same frame at
    /// `Detail::Level(0)` to measure what the levels save.
    pub fn set_detail(&mut self, detail: Detail) {
        self.detail = detail;
    }

    /// Whether an actor is first tested as a whole, before it is posed
    /// (the default; see [`prepare`](Self::prepare)); off, every actor is
    /// posed and tested part by part (the same picture and counts: the
    /// benchmark measures both).
    pub fn set_cull_before_posing(&mut self, on: bool) {
        self.precull = on;
    }

    /// Where the picture goes in `renderer`'s target: all of it when the
    /// shapes agree, else the centred letterbox.
    pub fn viewport(&self, renderer: &Renderer) -> PixelRect {
        let (w, h) = renderer.size();
        letterbox(self.aspect.0, self.aspect.1, w, h)
    }

    /// Draws `scene`'s current frame.
    pub fn draw_scene(&mut self, renderer: &mut Renderer, scene: &SceneSim) -> Result<(), RenderError> {
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

    /// Draws `scene`'s current frame as [`draw_scene`](Self::draw_scene)
    /// does, straight into the framebuffer `target` (`None`: the default
    /// one) with the picture's bottom-left corner at `(x, y)`, instead of
    /// into `renderer`'s own target (see
    /// [`Renderer::draw_3d_into`]; `target` needs a depth buffer). The
    /// letterbox bars, when the renderer's shape is not the picture's, are
    /// cleared black inside the picture's rectangle only.
    ///
    /// ```no_run
    /// # fn f(view: &mut animkit_player::slap::view::SceneView, r: &mut animkit_player::render::Renderer, scene: &animkit_vm::engine::slap::SceneSim) -> Result<(), animkit_player::render::RenderError> {
    /// view.draw_scene_into(r, scene, None, 0, 0)?;
    /// # Ok(()) }
    /// ```
    pub fn draw_scene_into(
        &mut self,
        renderer: &mut Renderer,
        scene: &SceneSim,
        target: Option<glow::Framebuffer>,
        x: i32,
        y: i32,
    ) -> Result<(), RenderError> {
        let viewport = self.viewport(renderer);
        let (w, h) = renderer.size();
        if (viewport.w as u32, viewport.h as u32) != (w, h) {
            // SAFETY: current context (the renderer's contract); the
            // scissor keeps the clear inside the picture's rectangle.
            unsafe {
                let gl = renderer.gl();
                gl.bind_framebuffer(glow::FRAMEBUFFER, target);
                gl.enable(glow::SCISSOR_TEST);
                gl.scissor(x, y, w as i32, h as i32);
                gl.color_mask(true, true, true, true);
                gl.clear_color(0.0, 0.0, 0.0, 1.0);
                gl.clear(glow::COLOR_BUFFER_BIT);
                gl.disable(glow::SCISSOR_TEST);
            }
        }
        let (view, ground) = self.prepare(scene.actors(), &scene.camera(), viewport);
        renderer.draw_3d_into(target, x, y, &view, Some(&ground), &self.instances, &self.batches)
    }

    /// Poses `actors` into the instance buffer and returns the pass's view
    /// and ground (what [`draw`](Self::draw) hands the renderer; public
    /// for the benchmark's raw-GL baseline, which draws the same
    /// instances).
    ///
    /// Per actor: a bounding sphere that holds it in any pose (from its
    /// size, body height and foot lift) and its shadow's are tested
    /// against the view frustum first, so an actor far out of view costs
    /// no posing; then the actor is posed, and left out if all its parts'
    /// bounding spheres lie outside the frustum (view-frustum culling,
    /// [`culled`](Self::culled)). Its level of detail comes from its
    /// projected size ([`ACTOR_RADIUS`] times its size over its depth,
    /// times the focal length in pixels; [`polly::level_for`]). The
    /// buffer holds the instances batch by batch ([`BATCHES`] of them,
    /// part by part and within a part level by level: bodies, heads,
    /// wings (left, right), legs (thigh and shank, left and right), feet
    /// and shadows), so a frame costs what it shows, and the buffers are
    /// reused from frame to frame.
    pub fn prepare(
        &mut self,
        actors: impl ExactSizeIterator<Item = ActorState>,
        camera: &Camera,
        viewport: PixelRect,
    ) -> (View3d, Ground) {
        let cam = CameraView::new(camera, viewport);
        let frustum = Frustum::new(&cam.view_proj);
        // Depth in front of the eye is the clip w: the last row of the
        // projection.
        let m = &cam.view_proj.cols;
        let depth_row = [m[0][3], m[1][3], m[2][3], m[3][3]];
        let focal = viewport.h.max(1) as f32 * 0.5 / (FOVY_DEGREES.to_radians() * 0.5).tan();
        for part in &mut self.parts {
            part.clear();
        }
        self.culled = 0;
        self.levels = [0; LEVELS];
        for actor in actors {
            let size = actor.size.abs() as f32;
            let rel = [0, 1, 2].map(|i| (actor.position[i] - cam.eye[i]) as f32);
            if self.precull && !frustum.may_see_actor(&actor, rel, size, cam.eye) {
                self.culled += 1;
                continue;
            }
            let p = pose_actor(&actor, cam.eye);
            let [l0, l1, l2, l3] = p.legs;
            let all = [p.body, p.head, p.wings[0], p.wings[1], l0, l1, l2, l3, p.feet[0], p.feet[1], p.shadow];
            // The part each instance is of (see `Part::ALL`).
            const PART: [usize; 11] = [0, 1, 2, 2, 3, 3, 3, 3, 4, 4, 5];
            if !all.iter().zip(PART).any(|(i, k)| frustum.may_see(i, self.radii[k])) {
                self.culled += 1;
                continue;
            }
            let level = match self.detail {
                Detail::Level(l) => l.min(LEVELS - 1),
                Detail::Auto => {
                    let c = [0, 1, 2].map(|i| rel[i] + size * ACTOR_CENTRE[i]);
                    let depth = (0..3).map(|i| depth_row[i] * c[i]).sum::<f32>() + depth_row[3];
                    if depth > NEAR { polly::level_for(ACTOR_RADIUS * size * focal / depth) } else { 0 }
                }
            };
            self.levels[level] += 1;
            for (i, k) in all.into_iter().zip(PART) {
                self.parts[k * LEVELS + level].push(i);
            }
        }
        self.instances.clear();
        self.batches.clear();
        for (k, part) in self.parts.iter().enumerate() {
            let start = self.instances.len();
            self.instances.extend_from_slice(part);
            let range = start..self.instances.len();
            let mesh = self.meshes[k];
            self.batches.push(if Part::ALL[k / LEVELS] == Part::Shadow {
                Batch3d::shadow(mesh, range)
            } else {
                Batch3d::lit(mesh, range)
            });
        }
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

    /// How many actors the last [`prepare`](Self::prepare) drew at each
    /// level of detail (index 0: full).
    pub fn levels(&self) -> [usize; LEVELS] {
        self.levels
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

/// The height (at size 1) of the centre of the sphere that holds an actor
/// in any pose, [`POSED_RADIUS`] plus its body height and foot lift: the
/// point between the hips the body turns about.
const POSED_CENTRE_Y: f32 = polly::joints::BODY_PIVOT[1];
/// See [`POSED_CENTRE_Y`]: the body, head and wings turned any way about
/// the hips reach 0.81, a foot swung and spread (its toes) 0.76, a knee
/// bent forward less; with a margin (a unit test checks every action's
/// poses against it).
const POSED_RADIUS: f32 = 0.9;

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

    /// Whether the sphere of `radius` about eye-relative `centre` is not
    /// wholly outside one plane (a non-finite one is kept).
    fn may_see_sphere(&self, centre: [f32; 3], radius: f32) -> bool {
        if !(radius.is_finite() && centre.iter().all(|v| v.is_finite())) {
            return true;
        }
        self.planes.iter().all(|p| {
            let d = p[0] * centre[0] + p[1] * centre[1] + p[2] * centre[2] + p[3];
            d >= -radius * length([p[0], p[1], p[2]])
        })
    }

    /// Whether `actor` (eye-relative position `rel`, size `size`) may
    /// show in any pose: its body, head, wings, legs and feet lie within
    /// [`POSED_RADIUS`] (plus its body height and foot lift) of its hips,
    /// and its shadow on the ground under it within the shadow's radius.
    fn may_see_actor(&self, actor: &ActorState, rel: [f32; 3], size: f32, eye: [f64; 3]) -> bool {
        let p = &actor.pose;
        let reach = POSED_RADIUS + p.body_height.abs() + p.leg_lift_left.abs().max(p.leg_lift_right.abs());
        let hips = [rel[0], rel[1] + size * POSED_CENTRE_Y, rel[2]];
        let shadow = [rel[0], (SHADOW_Y - eye[1]) as f32, rel[2]];
        self.may_see_sphere(hips, size * reach) || self.may_see_sphere(shadow, size * polly::joints::SHADOW_RADIUS)
    }

    /// Whether instance `i` of a mesh whose points lie within `radius` of
    /// its origin may show: its bounding sphere (the origin mapped, the
    /// radius times the map's largest stretch, bounded by the Frobenius
    /// norm) is not wholly outside one plane. Non-finite maps are kept (the
    /// GPU draws what it can of them).
    fn may_see(&self, i: &Instance, radius: f32) -> bool {
        let r = &i.rows;
        let centre = [r[0][3], r[1][3], r[2][3]];
        let stretch = (0..3).flat_map(|a| (0..3).map(move |b| r[a][b] * r[a][b])).sum::<f32>().sqrt();
        self.may_see_sphere(centre, radius * stretch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use animkit_vm::engine::slap::{Action, Pose};

    /// Every vertex of `actor`'s posed meshes at levels `..level` but the
    /// shadow's, at size 1 with the eye at the origin.
    fn posed_points(actor: &ActorState, level: usize) -> Vec<[f32; 3]> {
        let p = pose_actor(actor, [0.0; 3]);
        let [l0, l1, l2, l3] = p.legs;
        let parts = [
            (Part::Body, p.body),
            (Part::Head, p.head),
            (Part::Wing, p.wings[0]),
            (Part::Wing, p.wings[1]),
            (Part::Leg, l0),
            (Part::Leg, l1),
            (Part::Leg, l2),
            (Part::Leg, l3),
            (Part::Foot, p.feet[0]),
            (Part::Foot, p.feet[1]),
        ];
        let mut out = Vec::new();
        for (part, i) in parts {
            for v in (0..level).flat_map(|l| polly::mesh_at(part, l).vertices) {
                let [x, y, z] = v.pos;
                out.push(i.rows.map(|r| r[0] * x + r[1] * y + r[2] * z + r[3]));
            }
        }
        out
    }

    fn actor(action: Action, pose: Pose) -> ActorState {
        ActorState { id: 1, action, position: [0.0; 3], direction: 0.3, color: [1.0; 3], size: 1.0, pose }
    }

    fn distance(a: [f32; 3], b: [f32; 3]) -> f32 {
        length([a[0] - b[0], a[1] - b[1], a[2] - b[2]])
    }

    #[test]
    fn a_standing_actor_is_within_its_bounding_sphere() {
        let far = posed_points(&actor(Action::Idle, Pose::default()), 1)
            .into_iter()
            .map(|q| distance(q, ACTOR_CENTRE))
            .fold(0.0, f32::max);
        assert!(far <= ACTOR_RADIUS && far > ACTOR_RADIUS - 0.05, "{far}");
    }

    #[test]
    fn every_pose_of_every_action_at_every_level_is_within_the_culling_sphere() {
        for action in Action::ALL {
            for pose in action.poses() {
                let p = pose;
                let reach = POSED_RADIUS + p.body_height.abs() + p.leg_lift_left.abs().max(p.leg_lift_right.abs());
                for q in posed_points(&actor(action, *pose), LEVELS) {
                    let d = distance(q, [0.0, POSED_CENTRE_Y, 0.0]);
                    assert!(d <= reach, "{action:?}: {q:?} is {d} from the hips, past {reach}");
                }
            }
        }
    }
}
