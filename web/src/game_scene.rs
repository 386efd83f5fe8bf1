//! The game-facing SLAP scene's Rust half (its JavaScript face is
//! `SlapScene`, in `wasm_game_scene.rs`): a scene of a bundle stepped
//! frame by frame over the vm crate's [`Scene`], as capi's
//! `animkit_scene_*` and a native game drive it, with its actors and
//! camera laid out as `f64` columns a page reads as a `Float64Array`.
//! It needs `animkit-vm` alone; the JavaScript class is in the full build.

use animkit_vm::game::{Actor, Bundle, ModuleKind, Scene};

/// `f64`s per actor in [`GameScene::actors`]: id, action, position x y z,
/// heading, colour r g b, size, then the pose's 11 fields in
/// [`POSE_FIELDS`]' order.
pub const ACTOR_STRIDE: usize = 10 + POSE_FIELDS.len();

/// The pose fields' names, in their order in an actor's row (from offset
/// 10), as `animkit_vm::game::Pose` and capi's `AnimkitPose` name them.
pub const POSE_FIELDS: [&str; 11] = [
    "body_height",
    "body_pitch",
    "body_roll",
    "head_pitch",
    "head_yaw",
    "leg_swing_left",
    "leg_swing_right",
    "leg_lift_left",
    "leg_lift_right",
    "wing_lift",
    "leg_tuck",
];

/// A SLAP scene the page steps and observes.
pub struct GameScene {
    scene: Scene,
    /// The actors' rows, filled by [`GameScene::actors`].
    actors: Vec<f64>,
}

fn row(a: &Actor, out: &mut Vec<f64>) {
    let p = &a.pose;
    out.extend_from_slice(&[f64::from(a.id), a.action as u32 as f64]);
    out.extend_from_slice(&a.position);
    out.push(a.heading);
    out.extend_from_slice(&a.color);
    out.push(a.size);
    out.extend(
        [
            p.body_height,
            p.body_pitch,
            p.body_roll,
            p.head_pitch,
            p.head_yaw,
            p.leg_swing_left,
            p.leg_swing_right,
            p.leg_lift_left,
            p.leg_lift_right,
            p.wing_lift,
            p.leg_tuck,
        ]
        .map(f64::from),
    );
}

impl GameScene {
    /// The SLAP scene `module` of a bundle (`None`: its first scene
    /// module) at frame 0; the error in `Bundle`'s words.
    pub fn load(bytes: &[u8], module: Option<&str>) -> Result<GameScene, String> {
        let bundle = Bundle::from_bytes(bytes).map_err(|e| format!("the bundle: {e}"))?;
        let name = match module {
            Some(name) => name.to_string(),
            None => (0..bundle.module_count())
                .filter_map(|i| bundle.module(i))
                .find(|(_, kind)| *kind == ModuleKind::Scene)
                .map(|(name, _)| name.to_string())
                .ok_or("the bundle has no SLAP scene")?,
        };
        let scene = bundle.scene(&name).map_err(|e| e.to_string())?;
        Ok(GameScene { scene, actors: Vec::new() })
    }

    /// The scene's module name.
    pub fn name(&self) -> &str {
        self.scene.name()
    }

    /// One frame on.
    pub fn step(&mut self) {
        self.scene.step();
    }

    /// `frames` frames on at once (only the time points between run code).
    pub fn advance(&mut self, frames: u64) {
        self.scene.advance(frames);
    }

    /// Goes to `frame` (backwards by starting over).
    pub fn seek(&mut self, frame: u64) {
        self.scene.seek(frame);
    }

    /// The current frame (0 when loaded).
    pub fn frame(&self) -> u64 {
        self.scene.frame()
    }

    /// The frame of the scene's last time point.
    pub fn length(&self) -> u64 {
        self.scene.length()
    }

    /// Whether the frame is at or past [`GameScene::length`].
    pub fn is_finished(&self) -> bool {
        self.scene.is_finished()
    }

    /// Commands that failed at run time so far (skipped).
    pub fn error_count(&self) -> u64 {
        self.scene.error_count()
    }

    /// The actors on stage, in id order, [`ACTOR_STRIDE`] numbers each.
    pub fn actors(&mut self) -> &[f64] {
        self.actors.clear();
        for a in self.scene.actors() {
            row(&a, &mut self.actors);
        }
        &self.actors
    }

    /// The camera: position x y z, then look direction x y z (up is +y).
    pub fn camera(&self) -> [f64; 6] {
        let c = self.scene.camera();
        let (p, d) = (c.position, c.direction);
        [p[0], p[1], p[2], d[0], d[1], d[2]]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn story() -> Vec<u8> {
        let source = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/story.slap")).unwrap();
        let program =
            animkit_compiler::compile(&[animkit_compiler::Source::new("story.slap", source)], &Default::default())
                .unwrap();
        animkit_vm::engine::codec::encode(&program)
    }

    /// Every field of every actor's row is the game API's, in the
    /// documented order, at frames where actors move and pose.
    #[test]
    fn rows_are_the_game_api_s_actors() {
        let bytes = story();
        let mut s = GameScene::load(&bytes, None).unwrap();
        let bundle = Bundle::from_bytes(&bytes).unwrap();
        let mut native = bundle.scene(s.name()).unwrap();
        assert!(s.length() > 60, "{}", s.length());
        let mut posed = 0;
        for frame in [0, 1, 30, 45, 60, s.length()] {
            s.seek(frame);
            native.seek(frame);
            assert_eq!(s.frame(), frame);
            let rows = s.actors().to_vec();
            let actors: Vec<Actor> = native.actors().collect();
            assert_eq!(rows.len(), actors.len() * ACTOR_STRIDE);
            for (r, a) in rows.chunks(ACTOR_STRIDE).zip(&actors) {
                assert_eq!(
                    r[..10],
                    [
                        f64::from(a.id),
                        a.action as u32 as f64,
                        a.position[0],
                        a.position[1],
                        a.position[2],
                        a.heading,
                        a.color[0],
                        a.color[1],
                        a.color[2],
                        a.size
                    ]
                );
                let p = a.pose;
                assert_eq!(r[10], f64::from(p.body_height));
                assert_eq!(r[14], f64::from(p.head_yaw));
                assert_eq!(r[15..17], [f64::from(p.leg_swing_left), f64::from(p.leg_swing_right)]);
                assert_eq!(r[19..21], [f64::from(p.wing_lift), f64::from(p.leg_tuck)]);
                posed += usize::from(r[10..].iter().any(|&x| x != 0.0));
            }
            let c = native.camera();
            assert_eq!(s.camera()[..3], c.position);
            assert_eq!(s.camera()[3..], c.direction);
        }
        assert!(posed > 0, "some actor has a pose that is not the default");
        // Stepping reaches the frame seeking does.
        let mut stepped = GameScene::load(&bytes, None).unwrap();
        for _ in 0..45 {
            stepped.step();
        }
        s.seek(45);
        assert_eq!(stepped.actors(), s.actors());
    }

    #[test]
    fn bad_input_gets_an_error() {
        let bytes = story();
        assert!(GameScene::load(&bytes[..10], None).err().unwrap().starts_with("the bundle: "));
        assert!(GameScene::load(&bytes, Some("nope")).err().unwrap().contains("no module named `nope`"));
        let hero = animkit_compiler::compile(
            &[animkit_compiler::Source::new(
                "hero.anim",
                std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/hero.anim")).unwrap(),
            )],
            &Default::default(),
        )
        .unwrap();
        let hero = animkit_vm::engine::codec::encode(&hero);
        assert_eq!(GameScene::load(&hero, None).err().unwrap(), "the bundle has no SLAP scene");
        assert!(GameScene::load(&hero, Some("hero")).err().unwrap().contains("sprite"));
    }
}
