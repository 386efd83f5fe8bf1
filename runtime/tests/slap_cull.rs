//! View-frustum culling in the SLAP view (`slap::view::SceneView`): actors
//! wholly outside the view (beside it, behind the camera, beyond the far
//! plane) give no instances and no triangles, and the picture is the one
//! drawn without them, pixel for pixel; testing each actor as a whole
//! before posing it (the default) culls exactly what posing every actor
//! and testing its parts does.

use animkit_runtime::render::{HeadlessGl, Renderer};
use animkit_runtime::slap::view::SceneView;
use animkit_vm::engine::isa::Op;
use animkit_vm::engine::slap::{SceneAsm, SceneSim};
use std::sync::Arc;

fn renderer() -> Renderer {
    HeadlessGl::new(160, 120).expect("headless GL (EGL device) must be available").into_renderer().expect("renderer")
}

fn scene(asm: &SceneAsm) -> SceneSim {
    SceneSim::with_index(Arc::new(asm.clone().finish("test").unwrap()), 0).unwrap()
}

/// Ten walkers in front of the default camera, and `hidden` more out of
/// its sight: far to the left and right, behind it, past the far plane.
fn stage(hidden: u32) -> SceneAsm {
    let mut asm = SceneAsm::new();
    for id in 0..10u32 {
        let id_f = f64::from(id);
        asm.op(Op::Position2, &[id_f, id_f * 0.8 - 4.0, -(id_f % 3.0)]).op(Op::Action, &[id_f, f64::from(id % 12)]);
        asm.op(Op::ActorColor, &[id_f, 0.1 * id_f, 0.5, 1.0 - 0.1 * id_f]);
    }
    for k in 0..hidden {
        let id = f64::from(10 + k);
        let at = match k % 4 {
            0 => [-500.0 - f64::from(k), 0.0],
            1 => [500.0 + f64::from(k), -3.0],
            2 => [f64::from(k % 50), 60.0 + f64::from(k % 7)],
            _ => [f64::from(k % 50) - 25.0, -2000.0 - f64::from(k)],
        };
        asm.op(Op::Position2, &[id, at[0], at[1]]).op(Op::Action, &[id, f64::from(k % 12)]);
    }
    asm
}

#[test]
fn actors_out_of_view_draw_nothing_and_change_no_pixel() {
    let mut r = renderer();
    let mut view = SceneView::new(&mut r).unwrap();
    let mut pictures = Vec::new();
    for hidden in [0, 2000] {
        let mut s = scene(&stage(hidden));
        s.seek(12);
        view.draw_scene(&mut r, &s).unwrap();
        let stats = r.stats_3d();
        assert_eq!(view.culled(), hidden as usize);
        assert_eq!(view.instances().len(), 110, "eleven part instances for each of the ten in view");
        // The ten are near and far enough for two levels of detail: the
        // ground and six parts at each.
        assert_eq!(view.levels(), [5, 5, 0, 0]);
        assert_eq!((stats.draw_calls, stats.instances), (13, 110));
        pictures.push(r.read_pixels());
    }
    assert!(pictures[0] == pictures[1], "culling changed the picture");
}

#[test]
fn an_actor_partly_in_view_is_drawn_whole() {
    // At the picture's left edge, half outside: kept, all eleven part instances.
    let mut asm = SceneAsm::new();
    asm.op(Op::Position2, &[1.0, -4.9, 0.0]);
    let s = scene(&asm);
    let mut r = renderer();
    let mut view = SceneView::new(&mut r).unwrap();
    view.draw_scene(&mut r, &s).unwrap();
    assert_eq!((view.culled(), view.instances().len()), (0, 11));
}

#[test]
fn culling_before_posing_leaves_out_exactly_what_posing_every_actor_does() {
    let mut r = renderer();
    let mut view = SceneView::new(&mut r).unwrap();
    let mut s = scene(&stage(2000));
    let mut seen = Vec::new();
    // Hops and broadjumps in the air, stamps, at several frames.
    for frame in [0, 12, 31, 50] {
        s.seek(frame);
        for before in [false, true] {
            view.set_cull_before_posing(before);
            view.draw_scene(&mut r, &s).unwrap();
            seen.push((frame, view.culled(), view.instances().to_vec(), r.read_pixels()));
        }
        let (off, on) = (&seen[seen.len() - 2], &seen[seen.len() - 1]);
        assert_eq!((off.1, on.1), (2000, 2000), "frame {frame}");
        assert!(off.2 == on.2, "frame {frame}: other instances");
        assert!(off.3 == on.3, "frame {frame}: another picture");
    }
}
