//! SLAP drawn in 3D on GL at 640x480, against a raw glow baseline in the
//! same process and context ([`crate::rawgl3d::RawGl3d`]: the renderer's
//! own shader sources, the same meshes and instances, one draw call per
//! part).
//!
//! - `slap_frame_ms_20_actors`: a stage of 20 actors, 5 rows of 4, every
//!   action of the table among them, seen from above and in front
//!   ([`stage_source`]), compiled from SLAP source through bundle bytes;
//!   one frame end to end: `SceneSim::step`, posing every actor into the
//!   instance buffer, the 3D pass (sky, ground, an instanced draw per
//!   part and level of detail in use),
//!   `glFinish`. Best of the rounds.
//! - `slap_frame_raw_gl_ms_20_actors` / `slap_frame_vs_raw_gl`: the
//!   baseline draws the triangles of the same frame (the instances the
//!   scene view posed, taken as they are, so its time has no simulation
//!   and no posing in it), then `glFinish`; rounds interleaved with ours.
//! - `slap_fps_20_actors`: 120 consecutive frames of the same stage, each
//!   stepped, drawn and read back into an image (what `-d` and `--gif`
//!   need before encoding; encoding itself is left out), as frames per
//!   second.
//! - `slap_frame_ms_1000_actors`: the same for a stage of 1 000 actors
//!   (40 rows of 25), end to end, each actor at the level of detail its
//!   projected size picks (`SceneView`'s default).
//! - `slap_frame_ms_1000_actors_full`: the same frames with every actor
//!   at full detail (`Detail::Level(0)`, what a frame cost before levels
//!   of detail), rounds interleaved with the previous figure's (each
//!   timed frame after an untimed one at the same detail);
//!   `slap_frame_lod_speedup_1000_actors` is the ratio.
//! - `slap_triangles_1000_actors`, `slap_triangles_1000_actors_full`:
//!   the triangles of those frames (the ground's two among them).
//! - `slap_draw_calls_per_frame`: draw calls of the 1 000-actor frame
//!   (the ground and one per part and level of detail in use; at most
//!   19).
//! - `slap_frame_ms_1e6_actors`: a frame of 1 000 000 actors, of which
//!   20 stand before the camera and the rest far off to the sides, behind
//!   it or beyond the far plane ([`crowd_scene`], assembled directly: a
//!   source of a million actors is a compile figure, not a frame one):
//!   step, pose and cull every actor, draw the 20, `glFinish`. Culling
//!   makes it cost what is drawn plus a pass over the actors: each is
//!   tested as a whole (a sphere that holds it in any pose) before it is
//!   posed. `slap_frame_ms_1e6_actors_posing_all`: the same frame with
//!   every actor posed and tested part by part (as before that test),
//!   rounds interleaved.
//! - `slap_startup_ms`: `animvm -H -x 640 -y 480 -d DIR/f --frames 1
//!   examples/story.slap` from exec to exit (compiling the source on the
//!   fly, the headless context, Polly's meshes, one frame, the PNG
//!   written), best of the rounds; `animvm` found as the `startup` group
//!   finds it.
//!
//! On a machine without a GPU the GL is Mesa's llvmpipe: the frame is
//! mostly rasterization, so judge the ratio to the baseline.

use super::Group;
use super::startup::{find_animvm, timed_run};
use crate::rawgl::finish;
use crate::rawgl3d::{RawBatch, RawGl3d};
use crate::timing::best;
use crate::{Context, Report};
use animkit_compiler::{Options, Source, compile};
use animkit_runtime::render::scene3d::Shading;
use animkit_runtime::render::{HeadlessGl, PixelRect, Renderer};
use animkit_runtime::slap::polly::{self, LEVELS};
use animkit_runtime::slap::view::{Detail, SceneView};
use animkit_vm::engine::slap::SceneSim;
use std::fmt::Write;
use std::process::Command;
use std::sync::Arc;
use std::time::Instant;

/// The group.
pub struct SlapGl;

/// Width and height of the target.
pub const SIZE: (u32, u32) = (640, 480);

/// The figures this group reports (`null` when there is no GL).
pub const KEYS: [&str; 13] = [
    "slap_frame_ms_20_actors",
    "slap_frame_raw_gl_ms_20_actors",
    "slap_frame_vs_raw_gl",
    "slap_fps_20_actors",
    "slap_frame_ms_1000_actors",
    "slap_frame_ms_1000_actors_full",
    "slap_frame_lod_speedup_1000_actors",
    "slap_triangles_1000_actors",
    "slap_triangles_1000_actors_full",
    "slap_draw_calls_per_frame",
    "slap_frame_ms_1e6_actors",
    "slap_frame_ms_1e6_actors_posing_all",
    "slap_startup_ms",
];

/// A stage of `n` actors in rows of `cols`, 1.6 units apart, each with
/// its own colour, size, heading and action (the twelve in turn), and a
/// camera above and in front that frames them all.
pub fn stage_source(n: usize, cols: usize) -> String {
    let rows = n.div_ceil(cols);
    let (w, d) = ((cols - 1) as f64 * 1.6, (rows - 1) as f64 * 1.6);
    let mut s = String::with_capacity(n * 128);
    s.push_str("# a stage, every action\ndefine PI 3.14159265358979\ntime 0\n");
    // Above and in front, looking at the middle of the rows.
    let (y, z) = (2.0 + d * 0.45, 3.0 + w * 0.85);
    let _ = writeln!(s, "camera position 0 {y} {z}");
    let _ = writeln!(s, "camera direction 0 {} {}", -y, -(z + d / 2.0));
    for id in 0..n {
        let (c, r) = (id % cols, id / cols);
        let _ = writeln!(s, "actor {id} position {} {}", c as f64 * 1.6 - w / 2.0, -(r as f64) * 1.6);
        let _ = writeln!(s, "actor {id} direction {}*PI/8", id % 16);
        let _ = writeln!(s, "actor {id} size {}", 0.7 + (id % 4) as f64 * 0.1);
        let _ = writeln!(s, "actor {id} color {} {} {}", (id % 3) as f64 / 2.0, (id % 5) as f64 / 4.0, 0.4);
        let _ = writeln!(s, "actor {id} action {}", id % 12);
    }
    s.push_str("time 100000\n");
    s
}

/// The stage of `n` actors as `animvm` gets it: compiled, through bundle
/// bytes, loaded and verified, at frame 0.
pub fn stage(n: usize, cols: usize) -> SceneSim {
    let src = stage_source(n, cols);
    let program = compile(&[Source::new("stage.slap", src)], &Options::default()).unwrap_or_else(|e| panic!("{e}"));
    let program =
        animkit_vm::engine::codec::load(&animkit_vm::engine::codec::encode(&program)).expect("the stage loads");
    SceneSim::new(Arc::new(program), "stage").expect("the stage is a SLAP module")
}

/// `n` walking actors, the first 20 in a row before the default camera,
/// the others out of its sight (far left or right, behind it, past the
/// far plane), at frame 0.
pub fn crowd_scene(n: u32) -> SceneSim {
    use animkit_vm::engine::isa::Op;
    let mut asm = animkit_vm::engine::slap::SceneAsm::new();
    for id in 0..n {
        let k = f64::from(id);
        let at = match (id < 20, id % 4) {
            (true, _) => [k * 0.4 - 4.0, -1.0],
            (false, 0) => [-1000.0 - k % 1000.0, -k % 300.0],
            (false, 1) => [1000.0 + k % 1000.0, -k % 300.0],
            (false, 2) => [k % 100.0 - 50.0, 50.0 + k % 500.0],
            _ => [k % 100.0 - 50.0, -700.0 - k % 1000.0],
        };
        asm.op(Op::Position2, &[k, at[0], at[1]]).op(Op::Action, &[k, f64::from(id % 12)]);
    }
    let program = asm.finish("crowd").expect("the crowd assembles");
    SceneSim::with_index(Arc::new(program), 0).expect("the crowd is a SLAP module")
}

/// One frame end to end: step, pose, draw, `glFinish`; seconds.
fn frame(r: &mut Renderer, view: &mut SceneView, scene: &mut SceneSim) -> f64 {
    finish(r.gl());
    let t = Instant::now();
    scene.step();
    view.draw_scene(r, scene).expect("the frame draws");
    finish(r.gl());
    t.elapsed().as_secs_f64()
}

/// The baseline drawing `scene`'s current frame: posed by `view` (not
/// timed), its instances and batches taken as they are; seconds.
fn raw_frame(r: &mut Renderer, view: &mut SceneView, scene: &SceneSim, raw: &RawGl3d) -> f64 {
    let viewport = PixelRect::new(0, 0, SIZE.0 as i32, SIZE.1 as i32);
    let (v, g) = view.prepare(scene.actors(), &scene.camera(), viewport);
    let batches: Vec<RawBatch> = view
        .batches()
        .iter()
        .enumerate()
        .filter(|(_, b)| !b.instances.is_empty())
        .map(|(i, b)| RawBatch { mesh: i, instances: b.instances.clone(), shadow: b.shading == Shading::Shadow })
        .collect();
    // Binds the renderer's framebuffer.
    r.clear([0.0, 0.0, 0.0, 1.0]);
    let gl = r.gl();
    finish(gl);
    let t = Instant::now();
    raw.draw(gl, SIZE, &v, &g, view.instances(), &batches);
    finish(gl);
    t.elapsed().as_secs_f64()
}

impl Group for SlapGl {
    fn name(&self) -> &'static str {
        "slap_gl"
    }

    fn what(&self) -> &'static str {
        "SLAP frames on GL (20 and 1000 actors), against raw glow; start-up to a PNG"
    }

    fn run(&self, cx: &mut Context, report: &mut Report) {
        let mut r = match HeadlessGl::new(SIZE.0, SIZE.1).and_then(|h| h.into_renderer()) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("animkit-bench: no GL, skipping the slap_gl figures: {e}");
                for k in KEYS {
                    report.add(k, f64::NAN, "", "no GL on this machine");
                }
                return;
            }
        };
        let quick = cx.opts.quick;
        let rounds = if quick { 2 } else { 25 };
        let mut view = SceneView::new(&mut r).expect("Polly's meshes upload");
        // In the order of the view's batches: part by part, level by level.
        let meshes = polly::all_meshes();
        let raw = RawGl3d::new(r.gl(), &meshes).expect("the baseline's programs build");

        // 20 actors, ours and the baseline interleaved.
        let mut scene = stage(20, 4);
        scene.seek(45);
        frame(&mut r, &mut view, &mut scene);
        let calls_20 = r.stats_3d().draw_calls;
        let (mut ours, mut base) = (f64::INFINITY, f64::INFINITY);
        for round in 0..rounds {
            // Ours steps on; the baseline draws the frame ours drew last.
            if round % 2 == 0 {
                ours = ours.min(frame(&mut r, &mut view, &mut scene));
                base = base.min(raw_frame(&mut r, &mut view, &scene, &raw));
            } else {
                base = base.min(raw_frame(&mut r, &mut view, &scene, &raw));
                ours = ours.min(frame(&mut r, &mut view, &mut scene));
            }
        }
        report.add(
            "slap_frame_ms_20_actors",
            ours * 1e3,
            "ms",
            format!(
                "20 actors, 640x480: step, pose, one 3D pass (sky, ground, {} instanced draws), glFinish",
                calls_20 - 1
            ),
        );
        report.add(
            "slap_frame_raw_gl_ms_20_actors",
            base * 1e3,
            "ms",
            format!("raw glow, the same shaders, meshes and instances: clear, {calls_20} draws, glFinish"),
        );
        report.add("slap_frame_vs_raw_gl", ours / base, "x", "our time / raw glow's (1.0 = as fast as raw GL)");

        // Sustained: consecutive frames, each read back.
        let frames = if quick { 10 } else { 120 };
        let run = best(if quick { 1 } else { 3 }, || {
            finish(r.gl());
            let t = Instant::now();
            for _ in 0..frames {
                scene.step();
                view.draw_scene(&mut r, &scene).expect("the frame draws");
                std::hint::black_box(r.read_pixels());
            }
            t.elapsed().as_secs_f64()
        });
        report.add(
            "slap_fps_20_actors",
            frames as f64 / run,
            "fps",
            format!("{frames} consecutive frames of 20 actors at 640x480, each stepped, drawn and read back"),
        );

        // 1 000 actors.
        let mut crowd = stage(1_000, 40);
        crowd.seek(45);
        // With levels of detail and at full detail, rounds interleaved.
        let (mut lod, mut full) = (f64::INFINITY, f64::INFINITY);
        let (mut calls, mut triangles, mut triangles_full, mut levels) = (0, 0, 0, [0; LEVELS]);
        // Each timed frame follows an untimed one of the same detail: a
        // frame right after a full-detail one pays for what that left in
        // llvmpipe (measured 24.5 ms against 19.7 by `crowdprof`).
        for _ in 0..rounds.min(7) {
            view.set_detail(Detail::Level(0));
            frame(&mut r, &mut view, &mut crowd);
            full = full.min(frame(&mut r, &mut view, &mut crowd));
            triangles_full = r.stats_3d().triangles;
            view.set_detail(Detail::Auto);
            frame(&mut r, &mut view, &mut crowd);
            lod = lod.min(frame(&mut r, &mut view, &mut crowd));
            assert_eq!(r.stats_3d().instances, 11_000, "eleven instances an actor");
            (calls, triangles, levels) = (r.stats_3d().draw_calls, r.stats_3d().triangles, view.levels());
        }
        assert!(calls <= 1 + (6 * LEVELS) as u64 && calls_20 <= calls, "{calls} draw calls");
        report.add(
            "slap_frame_ms_1000_actors",
            lod * 1e3,
            "ms",
            format!(
                "1000 actors, 640x480: step, pose, one 3D pass ({triangles} triangles, levels of detail {levels:?}), glFinish"
            ),
        );
        report.add(
            "slap_frame_ms_1000_actors_full",
            full * 1e3,
            "ms",
            format!("the same, every actor at full detail ({triangles_full} triangles)"),
        );
        report.add("slap_frame_lod_speedup_1000_actors", full / lod, "x", "full detail's time / with levels of detail");
        report.add("slap_triangles_1000_actors", triangles as f64, "tris", "triangles of the 1000-actor frame");
        report.add("slap_triangles_1000_actors_full", triangles_full as f64, "tris", "the same at full detail");
        report.add(
            "slap_draw_calls_per_frame",
            calls as f64,
            "calls",
            "draw calls of the 1000-actor frame (ground + one per part and level of detail in use)",
        );

        // A million actors, 20 in view.
        let mut million = crowd_scene(1_000_000);
        million.seek(45);
        let (mut ms, mut posing_all) = (f64::INFINITY, f64::INFINITY);
        for _ in 0..rounds.min(3) {
            view.set_cull_before_posing(false);
            posing_all = posing_all.min(frame(&mut r, &mut view, &mut million) * 1e3);
            assert_eq!(r.stats_3d().instances, 11 * 20, "only the 20 in view are drawn");
            view.set_cull_before_posing(true);
            ms = ms.min(frame(&mut r, &mut view, &mut million) * 1e3);
            assert_eq!(r.stats_3d().instances, 11 * 20, "only the 20 in view are drawn");
        }
        report.add(
            "slap_frame_ms_1e6_actors",
            ms,
            "ms",
            format!(
                "1 000 000 actors, 20 in view, 640x480: step, pose and cull all, draw 20 ({} culled)",
                view.culled()
            ),
        );
        report.add(
            "slap_frame_ms_1e6_actors_posing_all",
            posing_all,
            "ms",
            "the same, every actor posed before it is culled (before the whole-actor test)",
        );
        drop(million);

        raw.delete(r.gl());
        drop(r);

        // Start-up to the first PNG.
        let animvm = find_animvm(!quick);
        let dir = std::env::temp_dir().join(format!("animkit-bench-slap-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let story = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/story.slap");
        let head = dir.join("f");
        let png = dir.join("f0000.png");
        let startup = best(if quick { 1 } else { 15 }, || match &animvm {
            Some(p) => {
                let mut c = Command::new(p);
                c.args(["-H", "-x", "640", "-y", "480", "--frames", "1", "-d"]).arg(&head).arg(story);
                timed_run(c, b"", &png)
            }
            None => f64::NAN,
        });
        let _ = std::fs::remove_dir_all(&dir);
        report.add(
            "slap_startup_ms",
            if startup.is_finite() { startup * 1e3 } else { f64::NAN },
            "ms",
            "animvm -H -x 640 -y 480 -d DIR/f --frames 1 examples/story.slap: exec to the written PNG",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use animkit_runtime::slap::camera::CameraView;

    #[test]
    fn every_actor_of_the_stages_is_in_the_picture() {
        for (n, cols) in [(20, 4), (1_000, 40)] {
            let scene = stage(n, cols);
            assert_eq!(scene.actors().len(), n);
            let cam = CameraView::new(&scene.camera(), PixelRect::new(0, 0, SIZE.0 as i32, SIZE.1 as i32));
            for a in scene.actors() {
                let p = cam.project(a.position).unwrap_or_else(|| panic!("actor {} behind the camera", a.id));
                let inside = (0.0..SIZE.0 as f32).contains(&p[0]) && (0.0..SIZE.1 as f32).contains(&p[1]);
                assert!(inside, "{n} actors: actor {} at {p:?}", a.id);
            }
            let actions: std::collections::BTreeSet<u32> = scene.actors().map(|a| a.action as u32).collect();
            assert_eq!(actions.len(), 12, "every action on the stage");
        }
    }
}
