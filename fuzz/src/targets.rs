//! The bodies of the fuzz targets, as plain functions: `fuzz_targets/*.rs`
//! hand libFuzzer's bytes to them (`cargo +nightly fuzz run TARGET`), and
//! `tests/fuzz_smoke.rs` (stable, in `cargo test`) feeds them the seed
//! corpus plus deterministic mutations. Each function panics on a bug and
//! returns normally on any input that is merely wrong; the checks inside
//! are the properties fuzzing enforces:
//!
//! - [`load_bundle`]: `codec::load` never panics; an accepted program
//!   re-encodes to bytes that load again and re-encode identically, its
//!   disassembly prints, and it runs (every sprite state for some ticks,
//!   every Animator module on a recording canvas) without panicking within
//!   a work budget.
//! - [`sprite_front`]: parse, check, lower and verify a sprite source; the
//!   compiler's output always verifies and round-trips through bytes; error
//!   reports render; the formatter's output parses.
//! - [`animator_front`]: the streaming reader gives the same commands and
//!   errors whatever the chunking; the formatter's output reads back
//!   without errors; the compiled script verifies; the same
//!   text streamed through `runtime::stream::Stream` on a recording canvas
//!   runs to the end with bounded work and memory.
//! - [`slap_front`]: parse and check a SLAP source; a checked scene's IR
//!   keeps its invariants (sorted by frame, values finite and equal to
//!   their arithmetic, ids, actions and frames in range); every
//!   diagnostic renders; the formatter's output parses to the same tree,
//!   formats to itself and checks the same. A checked scene lowers with
//!   constant folding on and off to programs that verify, round-trip
//!   through bytes and play the same first frames and last time point, bit
//!   for bit, as the reference evaluator (`tests/reference/slap.rs`) does;
//!   a scene the checker refuses, the reference refuses too.
//!
//! Every SLAP module a target meets (compiled, or decoded by
//! `load_bundle`) is played for [`SLAP_FRAMES`] frames, then time point by
//! time point to its length (at most [`SLAP_SEEK`], within [`WORK`]
//! instructions) and back, observing every actor and the camera.
//!
//! This file is compiled twice: as the `animkit-fuzz` library (the fuzz
//! crate, `fuzz/Cargo.toml`) and as a module of `tests/fuzz_smoke.rs`, so
//! it uses only the animkit crates.

use animkit_compiler::slap::ir::{ActorAttr, Command, SceneIr, Value};
use animkit_compiler::{Options, Source, compile, diagnostic};
use animkit_grammar::animator::Reader;
use animkit_runtime::stream::{Status, Stream, StreamLimits};
use animkit_vm::engine::animator::AnimatorVm;
use animkit_vm::engine::animator::record::Recorder;
use animkit_vm::engine::interp::{Exit, Limits};
use animkit_vm::engine::program::{Language, Program};
use animkit_vm::engine::slap::SceneSim;
use animkit_vm::engine::sprite::Sprites;
use animkit_vm::engine::verify::{self, Verified};
use animkit_vm::engine::{codec, disasm};
use std::sync::Arc;

/// Work units (instructions, points, vertices) one run of Animator code may
/// take while fuzzing: whole runs, not per call, so that nothing a small
/// input asks for takes long.
pub const WORK: u64 = 50_000;
/// Ticks each sprite state is run for.
pub const TICKS: usize = 40;
/// Most sprite states run per module.
pub const STATES: usize = 64;
/// Most times a suspended Animator program is resumed.
pub const RESUMES: usize = 64;
/// Frames each SLAP scene is stepped through and observed.
pub const SLAP_FRAMES: u64 = 24;
/// The farthest frame a SLAP scene is sought to (its length, at most this:
/// a bundle's `WAIT` loop makes a scene endless, and seeking runs every
/// time point on the way).
pub const SLAP_SEEK: u64 = 1 << 16;

// The reference evaluator, the same file the equivalence tests use (it
// needs only the grammar crate).
#[path = "../../tests/reference/slap.rs"]
#[allow(dead_code)]
mod slap_reference;

fn fuzz_limits() -> Limits {
    Limits { max_steps: WORK, whole_run: true, ..Limits::default() }
}

/// Target `load_bundle`: arbitrary bytes as a bundle, as they are and with
/// the header's length and checksum fixed (a checksum guards against
/// accidents, not adversaries: the decoder and the verifier behind it must
/// hold on their own, and fuzzing could not get past a CRC otherwise).
pub fn load_bundle(data: &[u8]) {
    load_one(data);
    if data.len() >= codec::HEADER_LEN {
        let mut fixed = data.to_vec();
        codec::reseal(&mut fixed, codec::Reseal::LengthAndChecksum);
        if fixed != data {
            load_one(&fixed);
        }
    }
}

fn load_one(data: &[u8]) {
    match codec::load(data) {
        Ok(program) => check_program(program),
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}

/// Everything a verified program must survive.
pub fn check_program(program: Verified<Program>) {
    let bytes = codec::encode(&program);
    let again = codec::load(&bytes).unwrap_or_else(|e| panic!("a verified program does not load after encoding: {e}"));
    assert_eq!(codec::encode(&again), bytes, "encoding is not idempotent");
    let _ = disasm::disassemble(&program);
    run_program(Arc::new(program));
}

/// What runs a module of one language (its index in the program).
type Run = fn(&Arc<Verified<Program>>, usize);

/// Each language's runner, in the language table's order
/// (`vm/src/program.rs`, checked when the crate compiles): the one place
/// the fuzz targets name a language.
const RUNS: [(Language, Run); Language::ALL.len()] =
    [(Language::Sprite, run_sprites), (Language::Animator, |p, i| run_animator(p, i)), (Language::Slap, run_slap)];

const _: () = {
    let mut i = 0;
    while i < RUNS.len() {
        assert!(RUNS[i].0 as usize == i);
        i += 1;
    }
};

/// Runs every module of a verified program for a while.
pub fn run_program(program: Arc<Verified<Program>>) {
    for (index, module) in program.modules.iter().enumerate() {
        (RUNS[module.language as usize].1)(&program, index);
    }
}

/// Plays the SLAP module at `index`: [`SLAP_FRAMES`] frames, each time
/// point up to the scene's length (at most [`SLAP_SEEK`], within [`WORK`]
/// instructions), back to the start; the frame, the actors' order and the
/// errors keep their invariants.
fn run_slap(program: &Arc<Verified<Program>>, index: usize) {
    let Ok(mut scene) = SceneSim::with_index(program.clone(), index) else { return };
    let observe = |scene: &SceneSim, frame: u64| {
        assert_eq!(scene.frame(), frame, "the scene is not at the frame it was sent to");
        let mut last = None;
        for a in scene.actors() {
            assert!(last < Some(a.id), "actors out of order: {last:?} then {}", a.id);
            last = Some(a.id);
        }
        let _ = scene.camera();
        assert!(scene.error_count() >= scene.errors().len() as u64);
        for e in scene.errors() {
            assert!(!e.to_string().is_empty());
        }
    };
    observe(&scene, 0);
    for f in 1..=SLAP_FRAMES {
        scene.step();
        observe(&scene, f);
    }
    // Time point by time point, within the work budget: a bundle's loop
    // of `WAIT 1` and many commands would otherwise run 65 536 times.
    let end = scene.length().min(SLAP_SEEK);
    let start = scene.instructions();
    while let Some(t) = scene.next_time_point().filter(|&t| t <= end) {
        if scene.instructions() - start > WORK {
            break;
        }
        scene.seek(t);
        observe(&scene, t);
    }
    if scene.instructions() - start <= WORK {
        scene.seek(end);
        observe(&scene, end);
    }
    scene.seek(1);
    observe(&scene, 1);
}

/// What a scene shows at its current frame, every number by its bits
/// (`Debug` prints -0 and 0 apart), and its errors so far (frame, why,
/// source line).
fn slap_snapshot(scene: &SceneSim) -> String {
    let actors: Vec<_> = scene.actors().collect();
    // A message names the command, then says why: the reference knows why.
    let why = |m: &str| m.rsplit(": ").next().unwrap_or_default().to_string();
    let errors: Vec<_> =
        scene.errors().iter().map(|e| (e.frame, why(&e.error.message), e.error.position.map(|p| p.0))).collect();
    format!("frame {} {actors:?} {:?} {errors:?}", scene.frame(), scene.camera())
}

/// The reference's frame as [`slap_snapshot`] prints it (the pose from the
/// VM's table at the phase the reference computes: the table's values are
/// the implementation's, its cycle lengths the documented ones).
fn reference_snapshot(f: &slap_reference::RefFrame, errors: &[slap_reference::RefError]) -> String {
    use animkit_vm::engine::slap::{Action, ActorState, Camera};
    let actors: Vec<_> = f
        .actors
        .iter()
        .map(|a| {
            let action = Action::from_index(a.action).unwrap_or_default();
            ActorState {
                id: a.id,
                action,
                position: a.position,
                direction: a.direction,
                color: a.color,
                size: a.size,
                pose: action.pose(a.phase),
            }
        })
        .collect();
    let camera = Camera { position: f.camera.position, direction: f.camera.direction };
    let errors: Vec<_> = errors
        .iter()
        .take(animkit_vm::engine::slap::scene::MAX_KEPT_ERRORS)
        .map(|e| (e.frame, e.why.to_string(), Some(e.line as u32)))
        .collect();
    format!("frame {} {actors:?} {camera:?} {errors:?}", f.frame)
}

fn run_sprites(program: &Arc<Verified<Program>>, index: usize) {
    // `Sprites::new` finds a module by name (the first of that name).
    let name = program.string(program.modules[index].name);
    let Ok(sprites) = Sprites::new(program.clone(), name) else { return };
    let count = sprites.state_count();
    let mut batch = sprites.batch();
    for st in 0..count.min(STATES) {
        let state = sprites.state_name(st as u16).to_string();
        let mut inst = sprites.instance(&state).expect("every state can be entered");
        let _ = batch.spawn(&state);
        for t in 0..TICKS {
            inst.tick();
            let _ = (inst.frame(), inst.category(), inst.state_name(), inst.is_waiting());
            for e in inst.drain_events() {
                let _ = sprites.event_name(e);
            }
            if t == TICKS / 2 {
                inst.set_state_id(((st + 1) % count) as u16);
            }
            if t == 3 * TICKS / 4 {
                inst.restart_state_id(st as u16);
            }
        }
    }
    for _ in 0..TICKS {
        batch.tick();
        let _ = batch.frames();
        batch.drain_events().for_each(drop);
    }
}

fn run_animator(program: &Verified<Program>, index: usize) {
    let Some(code) = program.code(index) else { return };
    let Some(entry) = code.module().entry else { return };
    let mut vm = AnimatorVm::new(Recorder::default());
    vm.set_limits(fuzz_limits());
    vm.start(code, entry);
    for _ in 0..RESUMES {
        let result = vm.run(code);
        vm.canvas_mut().calls.clear();
        match result {
            Ok(Exit::Suspended(_)) | Err(_) => {}
            Ok(Exit::Halted | Exit::Waiting(_) | Exit::Stopped) => break,
        }
    }
}

/// Target `sprite_front`: bytes as sprite DSL source.
pub fn sprite_front(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let source = Source::new("fuzz.anim", text);
    match compile(std::slice::from_ref(&source), &Options::default()) {
        Ok(program) => {
            let program =
                verify::verify(program).unwrap_or_else(|e| panic!("the compiler emitted an invalid program: {e}"));
            check_program(program);
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
    if let Ok(formatted) = animkit_compiler::driver::format_source(&source) {
        let (_, errors) = animkit_grammar::sprite::parse(&formatted);
        assert!(errors.is_empty(), "the formatter's output does not parse:\n{formatted}");
    }
}

/// Target `animator_front`: the first byte chooses how the rest is cut
/// into pieces; the rest is an Animator stream.
pub fn animator_front(data: &[u8]) {
    let Some((&seed, input)) = data.split_first() else { return };
    let pieces = chunks(input, seed);

    // The reader: the same results whatever the chunking, and with or
    // without its fast path for simple commands.
    let whole = read_all(&[input], true);
    let chunked = read_all(&pieces, true);
    assert_eq!(whole, chunked, "chunking changed what the reader returned");
    let general = read_all(&pieces, false);
    assert_eq!(chunked, general, "the fast path changed what the reader returned");

    // The compiler: a script that compiles verifies, round-trips and runs;
    // the formatter's output reads back without errors.
    if let Ok(text) = std::str::from_utf8(input) {
        let source = Source::new("fuzz.draw", text);
        if let Ok(formatted) = animkit_compiler::driver::format_source(&source) {
            let (_, errors) = animkit_grammar::animator::parse(&formatted);
            assert!(errors.is_empty(), "the formatter's output does not read back:\n{formatted}\n{errors:?}");
        }
        match compile(&[source], &Options::default()) {
            Ok(program) => {
                let program =
                    verify::verify(program).unwrap_or_else(|e| panic!("the compiler emitted an invalid program: {e}"));
                check_program(program);
            }
            Err(e) => assert!(!e.to_string().is_empty()),
        }
    }

    // The stream: runs to the end whatever arrives.
    let mut stream = Stream::new(Recorder::default(), "<fuzz>");
    stream.set_limits(fuzz_limits());
    stream.set_stream_limits(StreamLimits { macro_size: 1 << 16, macro_strings: 1 << 16 });
    let mut errors = std::io::sink();
    for piece in &pieces {
        stream.push(piece);
        if drive(&mut stream, &mut errors) {
            return;
        }
    }
    stream.finish();
    drive(&mut stream, &mut errors);
}

/// Runs the stream until it needs input; true once it has ended.
fn drive(stream: &mut Stream<Recorder>, errors: &mut dyn std::io::Write) -> bool {
    for _ in 0..RESUMES {
        let status = stream.run(errors);
        stream.canvas_mut().calls.clear();
        match status {
            Status::NeedInput => return false,
            Status::Suspended(_) => {}
            Status::Done | Status::Quit => return true,
        }
    }
    false
}

/// `input` cut into pieces whose lengths follow from `seed` (0: one piece).
pub fn chunks(input: &[u8], seed: u8) -> Vec<&[u8]> {
    if seed == 0 {
        return vec![input];
    }
    let mut out = Vec::new();
    let mut rest = input;
    let mut state = u32::from(seed);
    while !rest.is_empty() {
        state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        let n = 1 + (state >> 16) as usize % (usize::from(seed % 32) + 1);
        let (a, b) = rest.split_at(n.min(rest.len()));
        out.push(a);
        rest = b;
    }
    out
}

/// Every command and error a reader returns for `pieces`, as text.
fn read_all(pieces: &[&[u8]], fast: bool) -> Vec<String> {
    let mut reader = Reader::new();
    reader.set_fast_path(fast);
    let mut out = Vec::new();
    let mut take = |reader: &mut Reader| {
        while let Some(item) = reader.next() {
            out.push(match item {
                Ok(c) => format!("{:?}", c),
                Err(e) => format!("{e} {:?}", e.span),
            });
        }
    };
    for p in pieces {
        reader.push(p);
        take(&mut reader);
    }
    reader.finish();
    take(&mut reader);
    out
}

/// Target `slap_front`: bytes as SLAP source.
pub fn slap_front(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    // As a file is read (a lone CR ends a line), so that the front end,
    // the reference and `compile` see the same text.
    let text = &animkit_compiler::driver::line_ends(text.to_string());
    let checked = animkit_compiler::slap::front(text);
    let diagnostics = match &checked {
        Ok(c) => {
            check_scene_ir(&c.ir);
            assert!(c.warnings.iter().all(|w| !w.is_error()), "an error among the warnings of a checked scene");
            c.warnings.clone()
        }
        Err(d) => {
            assert!(d.iter().any(|d| d.is_error()), "refused without an error");
            d.clone()
        }
    };
    let rendered = diagnostic::render("fuzz.slap", text, &diagnostics);
    for d in &diagnostics {
        // Long quoted tokens are shortened in the rendering, never dropped.
        let message = animkit_compiler::excerpt::quote_excerpts(&d.message);
        assert!(rendered.contains(&message), "`{message}` is not in the rendering:\n{rendered}");
    }

    // The reference agrees on which scenes are valid; a valid one plays
    // alike in the VM, folded or not, in memory or through bytes.
    match (&checked, slap_reference::evaluate(text)) {
        (Ok(c), Ok(reference)) => play_slap(text, c.ir.length, &reference),
        (Err(_), Err(_)) => {}
        (Ok(_), Err(e)) => panic!("the reference refuses a scene the checker accepts: {e}"),
        (Err(d), Ok(_)) => panic!("the checker refuses a scene the reference accepts: {}", messages(d).join("; ")),
    }

    // The formatter (`animc --fmt` formats files without syntax errors):
    // its output parses to the same tree, is its own format, and checks
    // to the same scene or the same errors.
    let (file, syntax) = animkit_grammar::slap::parse(text);
    if !syntax.is_empty() {
        return;
    }
    let formatted = animkit_compiler::slap::format::format(&file, Some(text));
    let (again, errors) = animkit_grammar::slap::parse(&formatted);
    assert!(errors.is_empty(), "the formatter's output does not parse:\n{formatted}\n{errors:?}");
    assert_eq!(again.without_spans(), file.without_spans(), "the formatter changed the tree:\n{formatted}");
    assert_eq!(
        animkit_compiler::slap::format::format(&again, Some(&formatted)),
        formatted,
        "formatting is not idempotent"
    );
    let rechecked = animkit_compiler::slap::front(&formatted);
    match (&checked, &rechecked) {
        (Ok(a), Ok(b)) => {
            assert_eq!(plain_ir(&a.ir), plain_ir(&b.ir), "the formatted scene checks differently:\n{formatted}");
            assert_eq!(messages(&a.warnings), messages(&b.warnings), "other warnings after formatting");
        }
        (Err(a), Err(b)) => assert_eq!(messages(a), messages(b), "other errors after formatting:\n{formatted}"),
        _ => panic!("formatting changed whether the scene checks:\n{formatted}"),
    }
}

/// Compiles a checked scene with folding on and off, plays each program
/// in memory and decoded from its bytes, and compares every one with the
/// reference: the first frames and the last time point.
fn play_slap(text: &str, length: u32, reference: &slap_reference::RefScene) {
    let source = Source::new("fuzz.slap", text);
    let mut scenes = Vec::new();
    for fold in [true, false] {
        let program = compile(std::slice::from_ref(&source), &Options { fold, strip: false, strict: false })
            .unwrap_or_else(|e| panic!("a checked scene does not compile (fold {fold}): {e}"));
        let program =
            verify::verify(program).unwrap_or_else(|e| panic!("the compiler emitted an invalid program: {e}"));
        let decoded = codec::load(&codec::encode(&program)).unwrap_or_else(|e| panic!("the bundle does not load: {e}"));
        for p in [program, decoded] {
            let scene = SceneSim::with_index(Arc::new(p), 0).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(scene.length(), u64::from(length), "the scene's length");
            scenes.push((fold, scene));
        }
    }
    let mut player = slap_reference::RefPlayer::new(reference);
    let compare = |player: &slap_reference::RefPlayer<'_>, scenes: &[(bool, SceneSim)]| {
        let want = reference_snapshot(&player.observe(), player.errors());
        for (fold, scene) in scenes {
            let got = slap_snapshot(scene);
            assert_eq!(got, want, "the VM (fold {fold}) and the reference differ at frame {}", scene.frame());
        }
    };
    compare(&player, &scenes);
    for _ in 0..SLAP_FRAMES {
        player.step();
        scenes.iter_mut().for_each(|(_, s)| s.step());
        compare(&player, &scenes);
    }
    let end = u64::from(length).clamp(SLAP_FRAMES, SLAP_SEEK);
    player.seek(end);
    scenes.iter_mut().for_each(|(_, s)| s.seek(end));
    compare(&player, &scenes);
    let (_, scene) = scenes.swap_remove(0);
    check_program(Arc::unwrap_or_clone(scene.program().clone()));
}

fn messages(d: &[diagnostic::Diagnostic]) -> Vec<&str> {
    d.iter().map(|d| d.message.as_str()).collect()
}

/// The IR without spans, every number by its bits.
fn plain_ir(ir: &SceneIr) -> Vec<String> {
    let v = |v: &Value| format!("{:?}={:016x}", v.expr, v.value.to_bits());
    let mut out = vec![format!("length {}", ir.length)];
    for c in &ir.commands {
        out.push(match &c.command {
            Command::Actor { id, attr, args } => {
                format!("{} actor {} {attr:?} {:?}", c.frame, v(id), args.iter().map(v).collect::<Vec<_>>())
            }
            Command::Camera { attr, args } => {
                format!("{} camera {attr:?} {:?}", c.frame, args.iter().map(v).collect::<Vec<_>>())
            }
        });
    }
    out
}

/// What the lowering may assume of a checked scene.
pub fn check_scene_ir(ir: &SceneIr) {
    let finite = |v: &Value| {
        assert!(v.value.is_finite(), "a value is not finite: {v:?}");
        assert_eq!(v.value.to_bits(), v.expr.eval().to_bits(), "a value is not its arithmetic: {v:?}");
    };
    let mut last = 0;
    for c in &ir.commands {
        assert!(c.frame >= last, "the timeline is not sorted by frame");
        assert!(
            c.frame <= ir.length && c.frame <= animkit_vm::engine::limits::MAX_SLAP_FRAME,
            "frame {} out of range",
            c.frame
        );
        last = c.frame;
        match &c.command {
            Command::Actor { id, attr, args } => {
                finite(id);
                assert!(id.value.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&id.value), "actor id {id:?}");
                assert_eq!(args.len(), attr.arity());
                args.iter().for_each(finite);
                if *attr == ActorAttr::Action {
                    let a = args[0].value;
                    assert!(a.fract() == 0.0 && (0.0..=11.0).contains(&a), "action {a}");
                }
            }
            Command::Camera { attr, args } => {
                assert_eq!(args.len(), attr.arity());
                args.iter().for_each(finite);
            }
        }
    }
    assert!(ir.length <= animkit_vm::engine::limits::MAX_SLAP_FRAME);
}
