//! `animvm --watch`: the file is rewritten while `animvm` runs it, and the
//! running instance moves onto each build that compiles, keeping its
//! state, frame and ticks into the frame; a save that does not compile
//! prints its diagnostics and the old program keeps running. Once as a
//! process (the trace, read line by line while the file is edited), once
//! through the API the hosts use (`sprite::reload`).

use animkit_runtime::load::load_program;
use animkit_runtime::sprite::reload::{Reloader, reload_instance};
use animkit_vm::engine::sprite::Sprites;
use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Three frames of three ticks; `base` is the first frame's sprite, so
/// the build that is running shows in every trace line (frame / 10) while
/// the position in the loop shows in frame % 10.
fn walk(base: u32) -> String {
    format!("Walk: 3|{}, 3|{}, 3|{}, _loop\nIdle: 9|{}, _loop\n", base, base + 1, base + 2, base + 5)
}

/// `(tick, frame)` of a trace line.
fn parse(line: &str) -> (u64, u32) {
    let number = |key: &str| -> u64 {
        let at = line.find(key).unwrap_or_else(|| panic!("no {key} in {line}")) + key.len();
        line[at..].chars().take_while(char::is_ascii_digit).collect::<String>().parse().unwrap()
    };
    (number("\"tick\":"), number("\"frame\":") as u32)
}

/// Saves `text` over `file` as editors do, by a rename over it. A plain
/// write truncates first, and a watcher that wakes between the truncation
/// and the write sees an empty file, which it keeps out with a word on
/// stderr: the exact stderr these tests assert would then depend on timing.
/// (`animvm_watch_saves.rs` covers truncated and partial saves.)
fn save(file: &std::path::Path, text: impl AsRef<[u8]>) {
    let tmp = file.with_extension("saving");
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, file).unwrap();
}

#[test]
fn a_traced_run_follows_every_save_that_builds_and_keeps_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hero.anim");
    std::fs::write(&file, walk(0)).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_animvm"))
        .args(["--trace", "--watch", "--ticks", "100000", "hero.anim"])
        .current_dir(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let started = Instant::now();
    // Saves: the second build at tick 10, a broken one once it shows, the
    // third build 20 ticks later; the run ends once the third shows.
    let (mut broken_at, mut fixed_at, mut seen) = (None, None, Vec::new());
    for line in lines.by_ref() {
        let (t, frame) = parse(&line.unwrap());
        assert_eq!(t, seen.len() as u64);
        seen.push(frame);
        assert!(started.elapsed() < Duration::from_secs(60), "no reload seen: {seen:?}");
        if t == 10 {
            save(&file, walk(10));
        }
        if frame >= 10 && broken_at.is_none() {
            save(&file, "Walk: 3|0 3|1, _loop\n");
            broken_at = Some(t);
        }
        if broken_at.is_some_and(|b| t == b + 20) {
            save(&file, walk(20));
            fixed_at = Some(t);
        }
        if frame >= 20 {
            break;
        }
    }
    child.kill().unwrap();
    let _ = child.wait();
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    // Every tick shows the frame the original loop would (the instance
    // never restarted), and the builds follow one another once each.
    for (t, &frame) in seen.iter().enumerate() {
        assert_eq!(frame % 10, (t as u32 / 3) % 3, "tick {t}: {seen:?}");
    }
    let builds: Vec<u32> = seen.iter().map(|f| f / 10).collect();
    assert!(builds.windows(2).all(|w| w[0] <= w[1]), "{builds:?}");
    let first = |b| builds.iter().position(|&x| x == b).unwrap() as u64;
    assert!(first(1) > 10, "the second build showed before it was saved: {builds:?}");
    // The broken save kept the second build until the third was saved.
    assert!(first(2) > fixed_at.unwrap(), "{builds:?}");
    assert_eq!(
        err,
        "animvm: reloaded `hero.anim`\n\
         error: expected `,`, `|` or end of line, found `3`\n \
         --> hero.anim:1:11\n  |\n1 | Walk: 3|0 3|1, _loop\n  |           ^ unexpected `3`\n\n\
         error: could not compile `hero.anim` due to 1 error\n\
         animvm: `hero.anim` did not build: the previous program keeps running\n\
         animvm: reloaded `hero.anim`\n",
    );
}

/// The reload path the hosts share, step by step: a save that builds is
/// one new build (even if the file is written twice), a broken save is
/// its diagnostics and no build, and the instance keeps its place.
#[test]
fn the_reloader_hands_over_builds_and_keeps_broken_saves_out() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hero.anim");
    let file = path.to_str().unwrap();
    std::fs::write(&path, walk(0)).unwrap();
    let old = Sprites::first(Arc::new(load_program(file).unwrap())).unwrap();
    let mut reloader = Reloader::new(file).unwrap();
    let mut inst = old.instance("Walk").unwrap();
    for _ in 0..4 {
        inst.tick();
    }
    assert_eq!(inst.frame(), 1);
    // Waits for the watcher to see a save; `None` if nothing built.
    let poll = |r: &mut Reloader, current: &Sprites, err: &mut Vec<u8>| {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(new) = r.poll(current, err) {
                return Some(new);
            }
            if !err.is_empty() || Instant::now() > deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    };
    let mut err = Vec::new();
    assert!(reloader.poll(&old, &mut err).is_none(), "nothing saved yet");
    // A broken save: its diagnostics, no build.
    std::fs::write(&path, "Walk: 3|0, Run\n").unwrap();
    assert!(poll(&mut reloader, &old, &mut err).is_none());
    let text = String::from_utf8(err.clone()).unwrap();
    assert!(text.contains("hero.anim:1:12"), "{text}");
    assert!(text.ends_with(&format!("animvm: `{file}` did not build: the previous program keeps running\n")), "{text}");
    // A build with `Walk` gone: the instance falls back to the first state.
    err.clear();
    std::fs::write(&path, "Stand: 4|7, _loop\nWalk2: 1, _loop\n").unwrap();
    let new = poll(&mut reloader, &old, &mut err).expect("the save builds");
    assert_eq!(String::from_utf8_lossy(&err), "");
    let report = reload_instance(&mut inst, &new, file, &mut err).unwrap();
    assert_eq!(report.vanished, ["Walk", "Idle"]);
    // It enters `Stand` on its next tick, as after `restart_state`.
    assert_eq!(inst.state_name(), "Stand");
    inst.tick();
    assert_eq!(inst.frame(), 7);
    assert_eq!(
        String::from_utf8(err.clone()).unwrap(),
        format!("animvm: reloaded `{file}` (states Walk, Idle are gone: restarted in Stand)\n")
    );
    // Back to the first build: the same bytes as a build already seen
    // still reload (they differ from what runs), and an identical second
    // write is no second build.
    err.clear();
    std::fs::write(&path, walk(0)).unwrap();
    let back = poll(&mut reloader, &new, &mut err).expect("the save builds");
    assert_eq!(back.module_hash(), old.module_hash());
    std::fs::write(&path, walk(0)).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    assert!(reloader.poll(&back, &mut err).is_none());
    assert_eq!(String::from_utf8_lossy(&err), "");
}

/// The headless viewer reloads too: the frames written after a save show
/// the new build's cell.
#[test]
fn the_headless_viewer_draws_the_new_build_after_a_save() {
    use animkit_runtime::host::files::save_png;
    use animkit_runtime::render::RgbaImage;
    const RED: [u8; 4] = [255, 0, 0, 255];
    const BLUE: [u8; 4] = [0, 0, 255, 255];
    let dir = tempfile::tempdir().unwrap();
    let mut sheet = RgbaImage::new(16, 8, [0; 4]);
    for x in 0..16 {
        for y in 0..8 {
            sheet.set_pixel(x, y, if x < 8 { RED } else { BLUE });
        }
    }
    save_png(&sheet, dir.path().join("walk.png")).unwrap();
    let file = dir.path().join("hero.anim");
    std::fs::write(&file, "Walk: 2|0, 2|0, _loop\n").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_animvm"))
        .args(["-H", "--watch", "-x", "40", "-y", "40", "--ticks", "60", "-d", "frames/f"])
        .args(["--sheet", "Walk=walk.png:2x1", "hero.anim"])
        .current_dir(dir.path())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !dir.path().join("frames/f0005.png").exists() {
        assert!(Instant::now() < deadline, "no frame 5 written");
        std::thread::sleep(Duration::from_millis(5));
    }
    save(&file, "Walk: 2|1, 2|1, _loop\n");
    let status = child.wait().unwrap();
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert!(status.success(), "{err}");
    assert_eq!(err, "animvm: reloaded `hero.anim`\n");
    let colour = |t: u32| RgbaImage::load_png(dir.path().join(format!("frames/f{t:04}.png"))).unwrap().pixel(20, 20);
    assert_eq!(colour(0), Some(RED));
    assert_eq!(colour(59), Some(BLUE));
}

/// An Animator script starts over on each save that builds, cutting its
/// sleep short; a broken save is its diagnostics and the script sleeps on.
#[test]
fn a_headless_animator_script_starts_over_on_save() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("menu.draw");
    std::fs::write(&file, "echo one\nsleep 30\necho never\n").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_animvm"))
        .args(["-H", "-x", "32", "-y", "32", "--watch", "menu.draw"])
        .current_dir(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    assert_eq!(lines.next().unwrap().unwrap(), "one");
    save(&file, "echo \"two\n");
    std::thread::sleep(Duration::from_millis(300));
    save(&file, "echo two\nsleep 0.1\necho end\n");
    let rest: Vec<String> = lines.map(|l| l.unwrap()).collect();
    let status = child.wait().unwrap();
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert!(status.success(), "{err}");
    assert_eq!(rest, ["two", "end"]);
    assert_eq!(
        err,
        "error: expected `\"` to close the string, found end of line\n \
         --> menu.draw:1:6\n  |\n1 | echo \"two\n  |      ^^^^ string not closed\n\n\
         error: could not compile `menu.draw` due to 1 error\n\
         animvm: `menu.draw` did not build: the previous program keeps running\n\
         animvm: reloaded `menu.draw`: the script starts over\n"
    );
}

#[test]
fn watch_needs_a_file() {
    let out = Command::new(env!("CARGO_BIN_EXE_animvm")).args(["-H", "--watch"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "animvm: --watch needs a FILE (standard input cannot be read again)\n"
    );
}

#[test]
fn a_strict_watch_refuses_a_save_that_uses_an_extension() {
    use animkit_runtime::host::watch::ProgramWatch;
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("cam.slap");
    std::fs::write(&p, "actor 1 size 1\n").unwrap();
    let mut w = ProgramWatch::new(p.to_str().unwrap()).unwrap().strict(true);
    std::fs::write(&p, "actor 1 size 1\ncamera follow 1\n").unwrap();
    let mut err = Vec::new();
    for _ in 0..500 {
        assert!(w.poll(&mut err).is_none(), "a strict build of an extension");
        if !err.is_empty() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let err = String::from_utf8(err).unwrap();
    assert!(err.starts_with("error: `camera follow` is an animkit extension, refused by --strict\n"), "{err}");
    assert!(err.contains(" --> "), "{err}");
    assert!(err.contains("cam.slap:2:8\n"), "{err}");
    assert!(err.ends_with("did not build: the previous program keeps running\n"), "{err}");
    // The same save in the spec's language builds.
    std::fs::write(&p, "actor 1 size 1\ncamera 0 3 10 0 -1 -3\n").unwrap();
    let mut built = None;
    for _ in 0..500 {
        built = w.poll(&mut Vec::new());
        if built.is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(built.is_some());
}
