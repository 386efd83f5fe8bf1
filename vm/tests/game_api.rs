//! The game-facing API (`animkit_vm::game`) as a game uses it: its types
//! cross threads (`Send`/`Sync` asserted at compile time), the per-tick
//! calls allocate nothing (counted on the test's thread by the binary's
//! global allocator, `animkit_test_support::alloc`), and bad input is an
//! error a game can act on.

use animkit_test_support::alloc::{is_counting, measure};
use animkit_vm::game::{
    Animation, AnimationBatch, Bundle, Event, InstanceEvent, OpenError, Scene, Speed, SpriteModule,
};

/// How many allocations `f` makes on this thread (the binary's global
/// allocator, `animkit_test_support::alloc::Counting`, counts per thread).
fn allocations(f: impl FnOnce()) -> usize {
    assert!(is_counting(), "the binary's global allocator is animkit_test_support::alloc::Counting");
    measure(f).1.allocations
}

fn bundle() -> Bundle {
    Bundle::from_bytes(&animkit_vm::game::doc_bundle()).unwrap()
}

#[test]
fn the_game_types_cross_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Bundle>();
    send_sync::<SpriteModule>();
    send_sync::<Animation>();
    send_sync::<AnimationBatch>();
    send_sync::<Scene>();
    send_sync::<OpenError>();
    // And really used from another thread.
    let hero = bundle().sprite("hero").unwrap();
    let walk = hero.state("Walk").unwrap();
    let frame = std::thread::spawn(move || {
        let mut a = hero.spawn(walk);
        a.advance(3);
        a.frame()
    })
    .join()
    .unwrap();
    let mut here = bundle().sprite("hero").unwrap().spawn(walk);
    here.advance(3);
    assert_eq!(frame, here.frame());
}

#[test]
fn ticks_advances_and_drains_allocate_nothing() {
    let hero = bundle().sprite("hero").unwrap();
    let walk = hero.state("Walk").unwrap();
    let mut one = hero.spawn(walk);
    let mut batch = hero.batch();
    for _ in 0..1000 {
        batch.spawn(walk);
    }
    let mut events = [Event::default(); 64];
    let mut instance_events = [InstanceEvent::default(); 4096];
    // Warm up: the first ticks may size the reused buffers.
    one.tick();
    batch.tick();
    one.drain_events(&mut events);
    batch.drain_events(&mut instance_events);
    // An `advance(n)` keeps the events of its n ticks until they are
    // drained: the pending buffer grows to the largest burst once, and
    // is reused after (drained here in the caller's buffer's steps).
    let mut sink = vec![Event::default(); 1 << 16];
    let mut instance_sink = vec![InstanceEvent::default(); 1 << 16];
    one.advance(100_000);
    while one.drain_events(&mut sink) > 0 {}
    batch.advance(1_000);
    while batch.drain_events(&mut instance_sink) > 0 {}
    let mut drained = 0;
    let counts = [
        allocations(|| {
            for _ in 0..100 {
                one.tick();
                drained += one.drain_events(&mut events);
            }
        }),
        allocations(|| {
            for _ in 0..100 {
                batch.tick();
                drained += batch.drain_events(&mut instance_events);
            }
        }),
        allocations(|| {
            one.advance(100_000);
            while one.drain_events(&mut sink) > 0 {}
        }),
        allocations(|| {
            batch.advance(1_000);
            while batch.drain_events(&mut instance_sink) > 0 {}
        }),
        allocations(|| {
            one.set_speed(Speed::ratio(3, 2).unwrap());
            one.advance(12_345);
            one.set_state(walk);
            one.tick();
        }),
    ];
    let n: usize = counts.iter().sum();
    assert_eq!(n, 0, "allocations on the per-tick path: {counts:?}");
    // `Walk: 2|step, 2, _loop` raises `step` every 4 ticks.
    assert!(drained >= 100 / 4 * 1001, "{drained} events drained");

    let mut scene = bundle().scene("intro").unwrap();
    scene.step();
    let n = allocations(|| {
        for _ in 0..15 {
            scene.step();
            for actor in scene.actors() {
                std::hint::black_box(actor);
            }
        }
    });
    // Observing allocates nothing, and neither does a step, including the
    // one that reaches the time point at frame 10 and runs the scene's code
    // there (the fiber's frames and registers are reused).
    assert_eq!(n, 0, "allocations stepping and observing a scene");
    // The time point did run: the camera moved there.
    assert_eq!((scene.frame(), scene.camera().position), (16, [0.0, 3.0, 10.0]));

    // A time point that changes an actor already in the scene allocates
    // nothing either; a new actor's first mention may grow the list.
    use animkit_vm::engine::isa::Op;
    let mut asm = animkit_vm::engine::slap::SceneAsm::new();
    asm.op(Op::Action, &[1.0, 10.0]);
    asm.at(10);
    asm.op(Op::Direction, &[1.0, 1.5]);
    asm.op(Op::ActorColor, &[1.0, 1.0, 0.0, 0.0]);
    asm.op(Op::Size, &[1.0, 2.0]);
    asm.at(20);
    let mut scene =
        animkit_vm::engine::slap::SceneSim::with_index(std::sync::Arc::new(asm.finish("s").unwrap()), 0).unwrap();
    scene.step();
    let n = allocations(|| {
        for _ in 0..15 {
            scene.step();
            std::hint::black_box(scene.actor(1));
        }
    });
    assert_eq!(n, 0, "allocations over a time point changing an actor");
    assert_eq!(scene.actor(1).map(|a| a.size), Some(2.0));
}

#[test]
fn bad_input_is_an_error_to_act_on() {
    let bytes = animkit_vm::game::doc_bundle();
    assert!(matches!(Bundle::from_bytes(b"not a bundle"), Err(OpenError::NotABundle)));
    // Every truncation and every flipped byte: an error or a bundle, never
    // a panic.
    for cut in 0..bytes.len() {
        assert!(Bundle::from_bytes(&bytes[..cut]).is_err(), "cut at {cut}");
    }
    for at in 0..bytes.len() {
        let mut b = bytes.clone();
        b[at] ^= 0x5a;
        if let Err(e) = Bundle::from_bytes(&b) {
            assert!(!e.to_string().is_empty());
        }
    }
    let hero = bundle().sprite("hero").unwrap();
    let e = hero.state("Wlak").unwrap_err();
    assert_eq!(e.to_string(), "no state named `Wlak` in sprite module `hero`; did you mean `Walk`?");
    assert!(bundle().sprite("intro").is_err());
    assert!(bundle().scene("hero").is_err());
    assert!(Bundle::open("/nonexistent/x.animb").is_err());
}

#[test]
fn a_4_mb_name_is_looked_up_in_bounded_time_and_quoted_as_an_excerpt() {
    let bundle = bundle();
    let hero = bundle.sprite("hero").unwrap();
    let long = format!("Wlak{}", "k".repeat(4_000_000 - 4));
    let head = format!("Wlak{}", "k".repeat(28));
    let start = animkit_test_support::cpu::ThreadTimer::start();
    let e = hero.state(&long).unwrap_err();
    assert_eq!((e.name.len(), e.nearest.len()), (4_000_000, 0));
    let m = e.to_string();
    assert_eq!(m, format!("no state named `{head}…` (4000000 bytes) in sprite module `hero`"));
    assert!(m.len() < 1_000);
    assert!(hero.event(&long).is_err());
    let e = bundle.sprite(&long).unwrap_err();
    assert_eq!(e.to_string(), format!("no module named `{head}…` (4000000 bytes) in the bundle"));
    let e = bundle.scene(&long).unwrap_err();
    assert!(e.to_string().len() < 1_000, "{e}");
    // Before: a (4 000 001 x 5)-cell table per state, and a terabyte one
    // against a name as long.
    assert!(start.elapsed() < std::time::Duration::from_secs(5), "{:?}", start.elapsed());
    // Names up to 64 characters still get suggestions; longer ones none.
    let e = hero.state("walk").unwrap_err();
    assert_eq!(e.to_string(), "no state named `walk` in sprite module `hero`; did you mean `Walk`?");
    let e = hero.state(&"W".repeat(65)).unwrap_err();
    assert_eq!(e.nearest, Vec::<String>::new());
}

#[path = "../examples/game_loop.rs"]
mod game_loop;

#[test]
fn the_game_loop_example_plays_the_documented_bundle() {
    let mut out = Vec::new();
    game_loop::run(&bundle(), None, None, &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    // The hero's `step` fires every 4 ticks; 50 of the crowd at speed 1
    // and 50 at 3/2; the scene (20 frames at 25 fps) ends within the
    // first second.
    assert_eq!(
        out,
        "t=1s hero Walk frame 0 events 13 crowd events 1575 scene frame 20 camera [0.0, 3.0, 10.0]\n\
         \x20 actor 1 at [0.0, 0.0, 2.5] Sprint\n\
         \x20 actor 2 at [2.0, 0.0, 0.0] Idle\n\
         t=2s hero Walk frame 1 events 25 crowd events 3125 scene frame 20 camera [0.0, 3.0, 10.0]\n\
         \x20 actor 1 at [0.0, 0.0, 2.5] Sprint\n\
         \x20 actor 2 at [2.0, 0.0, 0.0] Idle\n"
    );
}

/// `SpriteModule::event` takes only the names of events the module fires
/// (before, a state's name and the module's own name were `Some`), with
/// "did you mean" as `state` has; an event the module does not fire has
/// no name (before, `Event::default()` read as the module's name).
#[test]
fn events_are_only_the_events_a_module_fires() {
    let hero = bundle().sprite("hero").unwrap();
    let step = hero.event("step").unwrap();
    assert_eq!(hero.event_name(step), "step");
    for (name, message) in [
        ("Walk", "no event named `Walk` in sprite module `hero`"),
        ("hero", "no event named `hero` in sprite module `hero`"),
        ("stpe", "no event named `stpe` in sprite module `hero`; did you mean `step`?"),
        ("Step", "no event named `Step` in sprite module `hero`; did you mean `step`?"),
        ("", "no event named `` in sprite module `hero`"),
    ] {
        let e = hero.event(name).unwrap_err();
        assert_eq!(e.to_string(), message);
        assert_eq!(e.name, name);
    }
    assert_eq!(hero.event("stpe").unwrap_err().nearest, ["step"]);
    for id in [0, 1, 3, u32::MAX] {
        assert_eq!(hero.event_by_id(id), None, "id {id}");
    }
    assert_eq!(hero.event_by_id(2), hero.event("step").ok());
    assert_eq!(hero.event_name(Event::default()), "");
}

/// The built example: `cargo test -p animkit-vm` builds the package's
/// examples beside its test binaries; a run of this binary alone
/// (`--test vm`) does not, so a missing or stale one is built here
/// (`animkit_test_support::fresh`).
fn game_loop_exe() -> std::path::PathBuf {
    let exe = std::env::current_exe().unwrap();
    let profile = exe.parent().and_then(|deps| deps.parent()).unwrap();
    let example = profile.join("examples").join("game_loop");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let sources = ["vm/src", "vm/examples", "vm/Cargo.toml", "Cargo.lock"];
    if !animkit_test_support::fresh::newer_than(&[&example], root, &sources) {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let status = std::process::Command::new(cargo)
            .args(["build", "-p", "animkit-vm", "--example", "game_loop"])
            .current_dir(root)
            .status()
            .unwrap();
        assert!(status.success(), "cargo build --example game_loop");
    }
    example
}

/// `game_loop BUNDLE.animb [SPRITE] [SCENE]` plays any bundle (its first
/// sprite module and scene, or those named) and prints errors in words
/// (before: `NoModule { name: "intro" }`, Debug text, on every bundle that
/// has no scene `intro`).
#[test]
fn the_game_loop_example_plays_any_bundle_and_prints_errors_in_words() {
    let exe = game_loop_exe();
    assert!(exe.is_file(), "{} is built by `cargo test -p animkit-vm`", exe.display());
    let dir = std::env::temp_dir().join(format!("animkit-game-loop-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let doc = dir.join("doc.animb");
    std::fs::write(&doc, animkit_vm::game::doc_bundle()).unwrap();
    let run = |args: &[&str]| {
        let out = std::process::Command::new(&exe).args(args).output().unwrap();
        (out.status.code(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
    };
    let (code, stdout, stderr) = run(&[doc.to_str().unwrap()]);
    assert_eq!((code, stderr.as_str()), (Some(0), ""));
    assert_eq!(
        stdout.lines().next(),
        Some("t=1s hero Walk frame 0 events 13 crowd events 1575 scene frame 20 camera [0.0, 3.0, 10.0]")
    );
    // Named, and only one of the two kinds.
    let (code, stdout, _) = run(&[doc.to_str().unwrap(), "hero", "intro"]);
    assert_eq!((code, stdout.lines().count()), (Some(0), 6));
    // Errors, in words.
    assert_eq!(
        run(&[doc.to_str().unwrap(), "hera"]),
        (Some(1), String::new(), "game_loop: no module named `hera` in the bundle; did you mean `hero`?\n".into())
    );
    assert_eq!(
        run(&[doc.to_str().unwrap(), "hero", "hero"]),
        (Some(1), String::new(), "game_loop: module `hero` is a sprite module, not a SLAP scene\n".into())
    );
    let missing = dir.join("missing.animb");
    let (code, _, stderr) = run(&[missing.to_str().unwrap()]);
    assert_eq!(code, Some(1));
    assert!(stderr.starts_with(&format!("game_loop: cannot read {}: ", missing.display())), "{stderr}");
    std::fs::write(&missing, b"GIF89a").unwrap();
    assert_eq!(
        run(&[missing.to_str().unwrap()]).2,
        "game_loop: not an animkit bundle (the file does not start with the ANIMB magic bytes)\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Reads by index past the end answer `None` (issue 42 §1: they answered
/// frame 0 and the first state); setters past the end change nothing.
#[test]
fn reads_past_the_end_answer_none() {
    let hero = bundle().sprite("hero").unwrap();
    let walk = hero.state("Walk").unwrap();
    let mut b = hero.batch();
    b.spawn(walk);
    b.advance(3);
    assert_eq!((b.frame(0), b.state(0), b.speed(0)), (Some(1), Some(walk), Some(Speed::ONE)));
    assert_eq!((b.time_in_state(0), b.is_waiting(0)), (Some(3), Some(false)));
    for i in [1, 99, u32::MAX] {
        assert_eq!((b.frame(i), b.state(i), b.speed(i)), (None, None, None), "instance {i}");
        assert_eq!((b.time_in_state(i), b.is_waiting(i)), (None, None), "instance {i}");
        b.set_state(i, walk);
        b.restart_at(i, walk, 2);
        b.set_speed(i, Speed::PAUSED);
        assert!(!b.remove(i));
    }
    assert_eq!((b.len(), b.frames()), (1, &[1][..]));
    assert_eq!((b.speed(0), b.time_in_state(0)), (Some(Speed::ONE), Some(3)));
    assert_eq!((hero.state_at(0), hero.state_at(1), hero.state_at(999)), (Some(walk), None, None));
    assert_eq!((hero.state_count(), hero.state_at(usize::MAX)), (1, None));
}
