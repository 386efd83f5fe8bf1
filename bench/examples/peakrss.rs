//! Peak memory of `animc` per byte of source, for each language: on its
//! benchmark corpus and on the worst shapes of input (one huge state, a
//! file of NULs, a million actors...). Each case is compiled by `animc` in
//! a child process, whose peak resident set (`ru_maxrss` from `wait4`) is
//! read when it ends; the figure per source byte is the peak above that of
//! an empty file of the same language, divided by the file's size.
//!
//! A child's `ru_maxrss` counts what this process held when it forked, so
//! each case is made, written to disk and dropped before its child starts
//! (with every case made up front, this process held about 180 MB, a
//! floor of 11 bytes per source byte under every figure).
//!
//! ```sh
//! cargo build --release -p animkit-compiler -p animkit-bench --examples --bins
//! target/release/examples/peakrss            # every case, 16 MB each
//! target/release/examples/peakrss 8 slap     # 8 MB, SLAP cases only
//! ```
//!
//! `animc` is looked for beside the example's directory
//! (`target/release/animc`), or at `$ANIMC`.

use animkit_bench::{corpus::Corpus, draw::DrawCorpus, slap_corpus::SlapCorpus};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

unsafe extern "C" {
    // `struct rusage` is two `timeval`s then `ru_maxrss` (a `long`, in
    // KiB on Linux) and 13 more longs: 18 words on 64-bit Linux.
    fn wait4(pid: i32, status: *mut i32, options: i32, rusage: *mut [i64; 18]) -> i32;
    fn malloc_trim(pad: usize) -> i32;
}

/// Runs `animc ARGS` and returns its exit status and peak resident bytes.
fn peak_rss(animc: &Path, args: &[String], dir: &Path) -> (i32, u64) {
    let start = std::time::Instant::now();
    // Reaped by `wait4` below, which std does not know of.
    #[allow(clippy::zombie_processes)]
    let child = Command::new(animc)
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("animc runs");
    let mut status = 0;
    let mut usage = [0i64; 18];
    // SAFETY: the child is ours and not yet waited for; both pointers are
    // to live locals of the right size.
    let pid = unsafe { wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as i32, "wait4");
    eprintln!("  ({:.1} s)", start.elapsed().as_secs_f64());
    (status, usage[4] as u64 * 1024)
}

/// One case: a name, the language's extension, and its files.
struct Case {
    #[allow(dead_code)] // `main` prints the name it was listed under.
    name: String,
    ext: &'static str,
    files: Vec<(String, Vec<u8>)>,
}

fn single(name: &str, ext: &'static str, text: Vec<u8>) -> Case {
    Case { name: name.into(), ext, files: vec![(format!("big.{ext}"), text)] }
}

/// Lines `line` repeated until `bytes`.
fn lines(line: &str, bytes: usize) -> Vec<u8> {
    line.as_bytes().iter().copied().cycle().take(bytes / line.len() * line.len()).collect()
}

/// A case's name and what makes it.
type LazyCase = (&'static str, Box<dyn Fn() -> Case>);

/// The cases, each made when its turn comes (see `main`).
fn cases(bytes: usize) -> Vec<LazyCase> {
    let corpus = |name: &str, ext: &'static str, files: Vec<(String, String)>| Case {
        name: name.into(),
        ext,
        files: files.into_iter().map(|(p, t)| (p, t.into_bytes())).collect(),
    };
    let seed = animkit_bench::draw::SEED;
    let frames = move || {
        let mut frames = b"A: ".to_vec();
        frames.extend(lines("1, ", bytes - 10));
        frames.extend_from_slice(b"_loop\n");
        frames
    };
    let sprite_states = move || {
        let mut sprite_states = Vec::new();
        for i in 0..bytes / 24 {
            sprite_states.extend_from_slice(format!("S{i}: 1|2|ev, _loop\n").as_bytes());
        }
        sprite_states
    };
    let actors = move || {
        let mut actors = Vec::new();
        let mut i = 0u32;
        while actors.len() < bytes {
            actors.extend_from_slice(format!("actor {} color 1 1 1\n", i % (1 << 20)).as_bytes());
            i += 1;
        }
        actors
    };
    let args = move || {
        let mut args = b"actor 1 color".to_vec();
        args.extend(lines(" 1", bytes - 20));
        args.push(b'\n');
        args
    };
    let define = move || {
        let mut define = b"define x".to_vec();
        define.extend(lines(" 1", bytes - 20));
        define.push(b'\n');
        define
    };
    vec![
        ("sprite corpus", Box::new(move || corpus("sprite corpus", "anim", Corpus::generate(seed, bytes).files))),
        (
            "sprite: one state of 1-tick frames `1, `",
            Box::new(move || single("sprite: one state of 1-tick frames `1, `", "anim", frames())),
        ),
        (
            "sprite: states `Si: 1|2|ev, _loop`",
            Box::new(move || single("sprite: states `Si: 1|2|ev, _loop`", "anim", sprite_states())),
        ),
        ("sprite: NULs", Box::new(move || single("sprite: NULs", "anim", vec![0; bytes]))),
        (
            "animator corpus",
            Box::new(move || corpus("animator corpus", "draw", DrawCorpus::generate(seed, bytes).files)),
        ),
        (
            "animator: `line 0 0 1 1` lines",
            Box::new(move || single("animator: `line 0 0 1 1` lines", "draw", lines("line 0 0 1 1\n", bytes))),
        ),
        (
            "animator: one `lines` of points",
            Box::new(move || {
                let mut v = b"lines".to_vec();
                v.extend(lines(" 1 2", (bytes - 10).min(3_900_000)));
                v.push(b'\n');
                single("animator: one `lines` of points", "draw", v)
            }),
        ),
        ("animator: NULs", Box::new(move || single("animator: NULs", "draw", vec![0; bytes]))),
        ("slap corpus", Box::new(move || corpus("slap corpus", "slap", SlapCorpus::generate(seed, bytes).files))),
        (
            "slap: `actor N color 1 1 1` lines",
            Box::new(move || single("slap: `actor N color 1 1 1` lines", "slap", actors())),
        ),
        ("slap: one line of arguments", Box::new(move || single("slap: one line of arguments", "slap", args()))),
        ("slap: `define x 1 1 ...`", Box::new(move || single("slap: `define x 1 1 ...`", "slap", define()))),
        ("slap: NULs", Box::new(move || single("slap: NULs", "slap", vec![0; bytes]))),
    ]
}

fn main() {
    let mb: f64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(16.0);
    let only = std::env::args().nth(2);
    let animc = std::env::var_os("ANIMC").map(PathBuf::from).unwrap_or_else(|| {
        let exe = std::env::current_exe().expect("current exe");
        exe.parent().and_then(Path::parent).expect("target dir").join("animc")
    });
    let dir = std::env::temp_dir().join(format!("peakrss-{}", std::process::id()));
    let bytes = (mb * 1e6) as usize;
    println!("{:<46} {:>10} {:>5} {:>10} {:>8}", "case", "bytes", "rc", "peak MB", "B/byte");
    let mut base = std::collections::HashMap::new();
    for ext in ["anim", "draw", "slap"] {
        std::fs::create_dir_all(&dir).expect("temp dir");
        std::fs::write(dir.join(format!("empty.{ext}")), "").expect("write");
        let (_, peak) = peak_rss(&animc, &[format!("empty.{ext}"), "-o".into(), "out.animb".into()], &dir);
        println!("{:<46} {:>10} {:>5} {:>10.1} {:>8}", format!("{ext}: empty file"), 0, 0, peak as f64 / 1e6, "");
        base.insert(ext, peak);
    }
    for (name, make) in cases(bytes) {
        if only.as_deref().is_some_and(|o| !name.starts_with(o)) {
            continue;
        }
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("corpus")).expect("temp dir");
        let mut args = Vec::new();
        let mut total = 0;
        let case = make();
        for (path, text) in &case.files {
            std::fs::write(dir.join(path), text).expect("write");
            args.push(path.clone());
            total += text.len();
        }
        let ext = case.ext;
        // A child's `ru_maxrss` counts the memory of this process when it
        // forked (Linux keeps the larger of the resident sets before and
        // after `exec`): the case is on disk, so its bytes are given back
        // before the child starts.
        drop(case);
        // SAFETY: glibc's `malloc_trim` only returns free heap pages.
        unsafe { malloc_trim(0) };
        args.extend(["-o".into(), "out.animb".into()]);
        let (status, peak) = peak_rss(&animc, &args, &dir);
        let rc = if status & 0x7f == 0 { (status >> 8) & 0xff } else { -(status & 0x7f) };
        let per = peak.saturating_sub(base[ext]) as f64 / total as f64;
        println!("{:<46} {:>10} {:>5} {:>10.1} {:>8.2}", name, total, rc, peak as f64 / 1e6, per);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
