//! `animvm --watch` against saves that cannot be used: a file that is too
//! big (a link to a 1 GiB sparse file, a 200 MiB file of NULs), empty
//! (truncated before the real write), unreadable (deleted, a dangling
//! link) or that does not build. Each keeps the previous program running,
//! says why on standard error once, and the next good save is picked up.
//! Then a seeded random sequence of saves of every kind, against a traced
//! run: it never stops, and it ends on the last good build.

use animkit_runtime::host::watch::ProgramWatch;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// Polls `w` until it hands over a build or writes to standard error
/// (at most 10 s); what it wrote, and whether a build came.
fn poll_until_news(w: &mut ProgramWatch) -> (String, bool) {
    let mut err = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        if w.poll(&mut err).is_some() {
            return (String::from_utf8(err).unwrap(), true);
        }
        if !err.is_empty() {
            // Let a burst of events for the same save arrive: it must not
            // say the same thing twice.
            std::thread::sleep(Duration::from_millis(200));
            let built = w.poll(&mut err).is_some();
            return (String::from_utf8(err).unwrap(), built);
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    (String::from_utf8(err).unwrap(), false)
}

/// Replaces `file` by a rename, as editors save.
fn rename_over(file: &Path, bytes: &[u8]) {
    let tmp = file.with_extension("swap");
    std::fs::write(&tmp, bytes).unwrap();
    std::fs::rename(&tmp, file).unwrap();
}

fn link_over(file: &Path, target: &Path) {
    let tmp = file.with_extension("lnk");
    let _ = std::fs::remove_file(&tmp);
    std::os::unix::fs::symlink(target, &tmp).unwrap();
    std::fs::rename(&tmp, file).unwrap();
}

#[test]
fn saves_that_cannot_be_used_keep_the_program_and_say_why_once() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hero.anim");
    let name = file.display().to_string();
    std::fs::write(&file, "Idle: 5, _loop\n").unwrap();
    let mut w = ProgramWatch::new(&name).unwrap();
    let keeps = "animvm: the previous program keeps running\n";

    // A link to a 1 GiB sparse file: refused by its size, not read.
    let big = dir.path().join("big");
    std::fs::File::create(&big).unwrap().set_len(1 << 30).unwrap();
    link_over(&file, &big);
    let (err, built) = poll_until_news(&mut w);
    assert!(!built);
    assert_eq!(
        err,
        format!(
            "error: `{name}` is 1073741824 bytes, more than the 67108864 bytes (64 MiB) a source may have\n{keeps}"
        )
    );

    // 200 MiB of NULs written over the file (sparse, so the test is fast).
    std::fs::remove_file(&file).unwrap();
    std::fs::File::create(&file).unwrap().set_len(200 << 20).unwrap();
    let (err, built) = poll_until_news(&mut w);
    assert!(!built);
    assert_eq!(
        err,
        format!("error: `{name}` is 209715200 bytes, more than the 67108864 bytes (64 MiB) a source may have\n{keeps}")
    );

    // Truncated: not a save yet.
    std::fs::File::create(&file).unwrap();
    let (err, built) = poll_until_news(&mut w);
    assert!(!built);
    assert_eq!(
        err,
        format!("animvm: `{name}` is empty (a save still being written?): waiting for the next save\n{keeps}")
    );

    // Gone, then a dangling link: cannot be read.
    std::fs::remove_file(&file).unwrap();
    let (err, built) = poll_until_news(&mut w);
    assert!(!built);
    assert!(err.starts_with(&format!("error: cannot read `{name}`: No such file or directory")), "{err}");
    assert!(err.ends_with(keeps), "{err}");

    // A save that does not build, then the next good one is picked up.
    std::fs::write(&file, "Idle: 5 6, _loop\n").unwrap();
    let (err, built) = poll_until_news(&mut w);
    assert!(!built);
    assert!(err.ends_with("did not build: the previous program keeps running\n"), "{err}");
    rename_over(&file, b"Idle: 7, _loop\n");
    let (err, built) = poll_until_news(&mut w);
    assert!(built, "{err}");
    assert_eq!(err, "");
}

/// The run of `: > menu.draw` in a headless Animator script: before, the
/// empty file built an empty script and the run ended; now it waits for
/// the real save, through a huge one as well.
#[test]
fn a_truncated_save_does_not_end_a_headless_animator_script() {
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
    std::fs::File::create(&file).unwrap();
    std::thread::sleep(Duration::from_millis(400));
    assert!(child.try_wait().unwrap().is_none(), "the run ended on an empty save");
    let big = dir.path().join("big");
    std::fs::File::create(&big).unwrap().set_len(1 << 30).unwrap();
    link_over(&file, &big);
    std::thread::sleep(Duration::from_millis(400));
    rename_over(&file, b"echo two\nsleep 0.1\necho end\n");
    let rest: Vec<String> = lines.map(|l| l.unwrap()).collect();
    let status = child.wait().unwrap();
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert!(status.success(), "{err}");
    assert_eq!(rest, ["two", "end"]);
    assert_eq!(
        err,
        "animvm: `menu.draw` is empty (a save still being written?): waiting for the next save\n\
         animvm: the previous program keeps running\n\
         error: `menu.draw` is 1073741824 bytes, more than the 67108864 bytes (64 MiB) a source may have\n\
         animvm: the previous program keeps running\n\
         animvm: reloaded `menu.draw`: the script starts over\n"
    );
}

/// Three frames of three ticks; the frame number / 10 names the build.
fn walk(build: u32) -> String {
    let b = build * 10;
    format!("Walk: 3|{}, 3|{}, 3|{}, _loop\n", b, b + 1, b + 2)
}

/// A traced `--watch` run of `hero.anim`, its frames sent as they come.
fn traced(dir: &Path) -> (Child, Receiver<u32>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_animvm"))
        .args(["--trace", "--watch", "--ticks", "100000000", "hero.anim"])
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = child.stdout.take().unwrap();
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines() {
            let Ok(line) = line else { return };
            let at = line.find("\"frame\":").unwrap() + 8;
            let frame = line[at..].chars().take_while(char::is_ascii_digit).collect::<String>();
            if tx.send(frame.parse().unwrap()).is_err() {
                return;
            }
        }
    });
    (child, rx)
}

/// A small xorshift generator: the sequence is the same on every run.
struct Rng(u64);
impl Rng {
    fn next(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

#[test]
fn random_saves_never_stop_the_run_and_it_ends_on_the_last_good_build() {
    for seed in [0x9e37_79b9_7f4a_7c15_u64, 0x2545_f491_4f6c_dd1d] {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("hero.anim");
        std::fs::write(&file, walk(1)).unwrap();
        let big = dir.path().join("big");
        std::fs::File::create(&big).unwrap().set_len(1 << 30).unwrap();
        let (mut child, frames) = traced(dir.path());
        let (mut rng, mut good, mut next) = (Rng(seed), 1, 2);
        let mut ops = Vec::new();
        for _ in 0..14 {
            let op = rng.next(9);
            ops.push(op);
            match op {
                0 => drop(std::fs::File::create(&file).unwrap()),
                1 => std::fs::write(&file, b"Walk: 3|0 3|1\n\xff\xfe garbage").unwrap(),
                2 => {
                    std::fs::write(&file, walk(next)).unwrap();
                    (good, next) = (next, next + 1);
                }
                3 => {
                    rename_over(&file, walk(next).as_bytes());
                    (good, next) = (next, next + 1);
                }
                4 => {
                    let _ = std::fs::remove_file(&file);
                }
                5 => std::fs::write(&file, walk(good)).unwrap(),
                6 => {
                    let target = dir.path().join(format!("t{next}.anim"));
                    std::fs::write(&target, walk(next)).unwrap();
                    link_over(&file, &target);
                    (good, next) = (next, next + 1);
                }
                7 => link_over(&file, &big),
                _ => link_over(&file, &dir.path().join("nowhere")),
            }
            std::thread::sleep(Duration::from_millis(250 + rng.next(150)));
            assert!(child.try_wait().unwrap().is_none(), "seed {seed:x}: the run stopped after {ops:?}");
        }
        // The file's last state decides what runs: a good build's, or the
        // last good build's when it cannot be used.
        let deadline = Instant::now() + Duration::from_secs(20);
        let mut seen = None;
        while Instant::now() < deadline {
            match frames.recv_timeout(Duration::from_secs(1)) {
                Ok(f) if f / 10 == good => {
                    seen = Some(f);
                    break;
                }
                Ok(_) => {}
                Err(_) => break,
            }
        }
        // And it stays there.
        let later: Vec<u32> = (0..30).filter_map(|_| frames.recv_timeout(Duration::from_secs(1)).ok()).collect();
        assert!(child.try_wait().unwrap().is_none(), "seed {seed:x}: the run stopped after {ops:?}");
        child.kill().unwrap();
        let _ = child.wait();
        let mut err = String::new();
        child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
        assert!(seen.is_some(), "seed {seed:x}: build {good} never ran after {ops:?}\n{err}");
        assert!(later.iter().all(|f| f / 10 == good), "seed {seed:x}: {later:?} after {ops:?}\n{err}");
        assert!(!err.contains("panicked") && !err.contains("memory allocation"), "{err}");
    }
}
