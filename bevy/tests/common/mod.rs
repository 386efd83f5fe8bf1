//! What the plugin tests share: bundles compiled from sources in memory,
//! a headless Bevy app (`MinimalPlugins`, an in-memory asset source, one
//! animation tick per `App::update`), a recorder that writes each playing
//! entity's `animvm --trace` line after every tick, and `animvm`.
#![allow(dead_code)] // Each test file uses its part.

use animkit_bevy::{
    Animkit, AnimkitBundle, AnimkitEvent, AnimkitFrame, AnimkitPlugin, AnimkitSprite, AnimkitSystems, AnimkitTick,
};
use bevy::asset::io::memory::{Dir, MemoryAssetReader};
use bevy::asset::io::{AssetSourceBuilder, AssetSourceId};
use bevy::asset::{AssetPlugin, LoadState};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

/// One frame of virtual time: one tick of the plugin's default 50 a
/// second, the rate `examples/hero.anim` is written for.
pub const TICK: Duration = Duration::from_millis(20);

/// The repository's root.
pub fn repo_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().expect("bevy/ has a parent").to_path_buf()
}

/// `examples/hero.anim`'s text.
pub fn hero_source() -> String {
    std::fs::read_to_string(repo_dir().join("examples/hero.anim")).expect("examples/hero.anim")
}

/// The bundle of one sprite source, as `animc` writes it.
pub fn compile(path: &str, text: &str) -> Vec<u8> {
    let sources = [animkit_compiler::Source::new(path.to_string(), text.to_string())];
    let program = animkit_compiler::compile(&sources, &Default::default())
        .unwrap_or_else(|e| panic!("{path} does not compile: {e}"));
    animkit_vm::engine::codec::encode(&program)
}

/// A headless app: `MinimalPlugins`, `AssetPlugin` over the in-memory
/// directory it returns, the plugin (50 ticks a second), and the trace
/// recorder. Every `update` after the first advances virtual time by
/// exactly one tick.
pub fn app() -> (App, Dir) {
    app_with(AnimkitPlugin::default())
}

/// [`app`] with `plugin`'s settings.
pub fn app_with(plugin: AnimkitPlugin) -> (App, Dir) {
    let dir = Dir::default();
    let root = dir.clone();
    let mut app = App::new();
    app.register_asset_source(
        AssetSourceId::Default,
        AssetSourceBuilder::new(move || Box::new(MemoryAssetReader { root: root.clone() })),
    )
    .add_plugins((
        MinimalPlugins,
        AssetPlugin {
            watch_for_changes_override: Some(false),
            use_asset_processor_override: Some(false),
            ..Default::default()
        },
        plugin,
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(TICK))
    .init_resource::<Traces>()
    .add_systems(AnimkitTick, record.after(AnimkitSystems));
    (app, dir)
}

/// Per playing entity, its trace lines (one per tick it played), and the
/// number of ticks run.
#[derive(Resource, Default)]
pub struct Traces {
    pub lines: HashMap<Entity, Vec<String>>,
    pub ticks: u64,
    pub events: Vec<AnimkitEvent>,
}

fn json(s: &str) -> String {
    serde_json::to_string(s).expect("a string serializes")
}

/// After the plugin's systems: each entity's line, as `animvm --trace`
/// prints it, from its `AnimkitFrame` and its `AnimkitEvent`s.
fn record(
    mut traces: ResMut<Traces>,
    animkit: Res<Animkit>,
    mut events: MessageReader<AnimkitEvent>,
    frames: Query<(Entity, &AnimkitFrame), With<AnimkitSprite>>,
) {
    traces.ticks += 1;
    let fired: Vec<AnimkitEvent> = events.read().copied().collect();
    for (entity, frame) in &frames {
        let Ok(module) = animkit.module(entity) else { continue };
        let mine: Vec<&AnimkitEvent> = fired.iter().filter(|e| e.entity == entity).collect();
        for e in &mine {
            assert_eq!(e.frame, frame.index, "an event carries the frame shown");
        }
        let names: Vec<String> = mine.iter().map(|e| json(animkit.event_name(e))).collect();
        let lines = traces.lines.entry(entity).or_default();
        let line = format!(
            "{{\"tick\":{},\"state\":{},\"category\":{},\"frame\":{},\"events\":[{}]}}\n",
            lines.len(),
            json(module.state_name(frame.state)),
            json(module.category(frame.state)),
            frame.index,
            names.join(",")
        );
        lines.push(line);
    }
    traces.events.extend(fired);
}

/// Puts `bytes` at `path` in the asset directory and loads it, updating
/// until the load ends (ticks run meanwhile, with no sprite).
pub fn load(app: &mut App, dir: &Dir, path: &str, bytes: Vec<u8>) -> (Handle<AnimkitBundle>, LoadState) {
    dir.insert_asset(Path::new(path), bytes);
    let handle: Handle<AnimkitBundle> = app.world().resource::<AssetServer>().load(path.to_string());
    let state = settle(app, &handle);
    (handle, state)
}

/// Updates until `handle`'s load has ended (loaded or failed).
pub fn settle(app: &mut App, handle: &Handle<AnimkitBundle>) -> LoadState {
    for _ in 0..1000 {
        app.update();
        let state = app.world().resource::<AssetServer>().load_state(handle);
        if matches!(state, LoadState::Loaded | LoadState::Failed(_)) {
            return state;
        }
    }
    panic!("the bundle did not load in 1000 updates");
}

/// Runs exactly `n` ticks (one per `App::update`), asserting none more
/// ran.
pub fn run_ticks(app: &mut App, n: u64) {
    let target = app.world().resource::<Traces>().ticks + n;
    for _ in 0..n {
        app.update();
    }
    assert_eq!(app.world().resource::<Traces>().ticks, target, "one tick per App::update");
}

/// `entity`'s trace so far, joined.
pub fn trace(app: &App, entity: Entity) -> String {
    app.world().resource::<Traces>().lines.get(&entity).map(|l| l.concat()).unwrap_or_default()
}

/// `animvm --trace --state STATE --ticks TICKS BUNDLE`'s output.
pub fn animvm_trace(bundle: &[u8], state: &str, ticks: u64) -> String {
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = dir.path().join("bundle.animb");
    std::fs::write(&path, bundle).expect("the bundle is written");
    let out = Command::new(animvm())
        .args(["--trace", "--state", state, "--ticks", &ticks.to_string()])
        .arg(&path)
        .output()
        .expect("animvm runs");
    assert!(out.status.success(), "animvm failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("animvm prints UTF-8")
}

/// `animvm`: the one in this target directory when it is newer than every
/// source it is built from (as in `cargo test --workspace`, which builds it
/// before any test runs), otherwise built once per test binary;
/// `ANIMVM=PATH` names a built one instead (for a run in another target
/// directory, e.g. the bench's release build with `--features atlas`).
///
/// Not `cargo build` every time: Cargo resolves features for
/// `-p animkit-runtime` alone differently than for the workspace (whose
/// dev-dependencies turn on `animkit-vm/test-support`), so in a fresh
/// `cargo test --workspace` it built the VM, compiler and runtime again
/// (the bevy tests took 145-180 s instead of 1).
pub fn animvm() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| tool("ANIMVM", "animkit-runtime", "animvm")).clone()
}

/// `animc`, found or built as [`animvm`] is (`ANIMC=PATH` names one).
pub fn animc() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| tool("ANIMC", "animkit-compiler", "animc")).clone()
}

/// The binary `bin` of `package`: `$VAR`, the fresh one in this target
/// directory, or built now.
fn tool(var: &str, package: &str, bin: &str) -> PathBuf {
    if let Some(p) = std::env::var_os(var) {
        return PathBuf::from(p);
    }
    let exe = std::env::current_exe().expect("the test binary's path");
    let profile = exe.parent().and_then(Path::parent).expect("target/PROFILE/deps/TEST").to_path_buf();
    let built = profile.join(bin);
    if animkit_test_support::fresh::newer_than(&[&built], &repo_dir(), animkit_test_support::fresh::TOOLCHAIN_SOURCES) {
        return built;
    }
    let target = profile.parent().expect("target/PROFILE");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args(["build", "-q", "-p", package, "--bin", bin, "--target-dir"]).arg(target).current_dir(repo_dir());
    if profile.file_name().is_some_and(|p| p == "release") {
        cmd.arg("--release");
    }
    let out = cmd.output().expect("cargo runs");
    assert!(out.status.success(), "cargo build of {bin} failed:\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(built.is_file(), "{} is missing", built.display());
    built
}

/// `animc --check NAME`'s standard error, with the source written to
/// `NAME` in a temporary directory (its working directory): the message
/// of a source asset at `NAME`.
pub fn animc_check(name: &str, text: &[u8]) -> String {
    let dir = tempfile::tempdir().expect("a temp dir");
    std::fs::write(dir.path().join(name), text).expect("the source is written");
    let out = Command::new(animc()).args(["--check", name]).current_dir(dir.path()).output().expect("animc runs");
    assert!(!out.status.success(), "animc accepted {name}");
    String::from_utf8(out.stderr).expect("animc prints UTF-8")
}

/// The first line where `a` and `b` differ, for assertion messages.
pub fn first_difference(a: &str, b: &str) -> String {
    for (i, (x, y)) in a.lines().zip(b.lines()).enumerate() {
        if x != y {
            return format!("line {}: {x} != {y}", i + 1);
        }
    }
    format!("{} lines against {}", a.lines().count(), b.lines().count())
}

/// The expected side, through the vm's game API alone: a batch, and per
/// instance the trace lines of its ticks.
pub struct VmTrace {
    pub batch: animkit_vm::game::AnimationBatch,
    pub lines: Vec<Vec<String>>,
}

impl VmTrace {
    pub fn new(module: &animkit_vm::game::SpriteModule) -> VmTrace {
        VmTrace { batch: module.batch(), lines: Vec::new() }
    }

    pub fn spawn(&mut self, state: &str) -> u32 {
        let state = self.batch.module().state(state).expect("a state of the module");
        self.lines.push(Vec::new());
        self.batch.spawn(state)
    }

    /// One tick, and each instance's line.
    pub fn tick(&mut self) {
        self.batch.tick();
        let mut buf = [animkit_vm::game::InstanceEvent::default(); 64];
        let n = self.batch.drain_events(&mut buf);
        assert!(n < buf.len());
        let module = self.batch.module().clone();
        for (i, lines) in self.lines.iter_mut().enumerate() {
            let i = i as u32;
            let state = self.batch.state(i).expect("a spawned instance");
            let names: Vec<String> =
                buf[..n].iter().filter(|e| e.instance == i).map(|e| json(module.event_name(e.event))).collect();
            lines.push(format!(
                "{{\"tick\":{},\"state\":{},\"category\":{},\"frame\":{},\"events\":[{}]}}\n",
                lines.len(),
                json(module.state_name(state)),
                json(module.category(state)),
                self.batch.frame(i).expect("a spawned instance"),
                names.join(",")
            ));
        }
    }

    pub fn trace(&self, i: u32) -> String {
        self.lines[i as usize].concat()
    }
}
