//! Peak memory of `animc` per byte of source, for each language: on its
//! benchmark corpus and on the worst shapes of input (one huge state, a
//! file of NULs, a million actors...). Each case is compiled by `animc` in
//! a child process, whose peak resident set (`ru_maxrss` from `wait4`) is
//! read when it ends; the figure per source byte is the peak above that of
//! an empty file of the same language, divided by the file's size.
//!
//! Each case is generated, written and dropped before its child starts:
//! a child is spawned with `vfork`, and until it runs `animc` it shares
//! this process's memory, which `ru_maxrss` then counts (the cases held
//! all at once put a floor of about 180 MB under every 16 MB figure).
//!
//! ```sh
//! cargo build --release -p animkit-compiler -p animkit-bench --examples --bins
//! target/release/examples/peakrss            # every case, 16 MB each
//! target/release/examples/peakrss 8 slap     # 8 MB, SLAP cases only
//! target/release/examples/peakrss 16 slap trace   # `animvm --trace` of each SLAP file
//! ```
//!
//! `animc` is looked for beside the example's directory
//! (`target/release/animc`), or at `$ANIMC` (`animvm` at `$ANIMVM`).

use animkit_bench::{corpus::Corpus, draw::DrawCorpus, slap_corpus::SlapCorpus};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

unsafe extern "C" {
    // `struct rusage` is two `timeval`s then `ru_maxrss` (a `long`, in
    // KiB on Linux) and 13 more longs: 18 words on 64-bit Linux.
    fn wait4(pid: i32, status: *mut i32, options: i32, rusage: *mut [i64; 18]) -> i32;
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

/// One case: the language's extension, and its files.
struct Case {
    ext: &'static str,
    files: Vec<(String, Vec<u8>)>,
}

fn single(ext: &'static str, text: Vec<u8>) -> Case {
    Case { ext, files: vec![(format!("big.{ext}"), text)] }
}

/// The names of the cases, in order, for [`case`].
const CASES: [&str; 13] = [
    "sprite corpus",
    "sprite: one state of 1-tick frames `1, `",
    "sprite: states `Si: 1|2|ev, _loop`",
    "sprite: NULs",
    "animator corpus",
    "animator: `line 0 0 1 1` lines",
    "animator: one `lines` of points",
    "animator: NULs",
    "slap corpus",
    "slap: `actor N color 1 1 1` lines",
    "slap: one line of arguments",
    "slap: `define x 1 1 ...`",
    "slap: NULs",
];

/// Case `k` of [`CASES`] at about `bytes`, generated alone.
fn case(k: usize, bytes: usize) -> Case {
    let corpus = |ext: &'static str, files: Vec<(String, String)>| Case {
        ext,
        files: files.into_iter().map(|(p, t)| (p, t.into_bytes())).collect(),
    };
    let seed = animkit_bench::draw::SEED;
    match k {
        0 => corpus("anim", Corpus::generate(seed, bytes).files),
        1 => {
            let mut frames = b"A: ".to_vec();
            frames.extend(lines("1, ", bytes - 10));
            frames.extend_from_slice(b"_loop\n");
            single("anim", frames)
        }
        2 => {
            let mut states = Vec::new();
            for i in 0..bytes / 24 {
                states.extend_from_slice(format!("S{i}: 1|2|ev, _loop\n").as_bytes());
            }
            single("anim", states)
        }
        3 => single("anim", vec![0; bytes]),
        4 => corpus("draw", DrawCorpus::generate(seed, bytes).files),
        5 => single("draw", lines("line 0 0 1 1\n", bytes)),
        6 => {
            let mut v = b"lines".to_vec();
            v.extend(lines(" 1 2", (bytes - 10).min(3_900_000)));
            v.push(b'\n');
            single("draw", v)
        }
        7 => single("draw", vec![0; bytes]),
        8 => corpus("slap", SlapCorpus::generate(seed, bytes).files),
        9 => {
            let mut actors = Vec::new();
            let mut i = 0u32;
            while actors.len() < bytes {
                actors.extend_from_slice(format!("actor {} color 1 1 1\n", i % (1 << 20)).as_bytes());
                i += 1;
            }
            single("slap", actors)
        }
        10 | 11 => {
            let mut args = if k == 10 { b"actor 1 color".to_vec() } else { b"define x".to_vec() };
            args.extend(lines(" 1", bytes - 20));
            args.push(b'\n');
            single("slap", args)
        }
        _ => single("slap", vec![0; bytes]),
    }
}

/// Lines `line` repeated until `bytes`.
fn lines(line: &str, bytes: usize) -> Vec<u8> {
    line.as_bytes().iter().copied().cycle().take(bytes / line.len() * line.len()).collect()
}

/// `peakrss --write K BYTES DIR`: writes case `K` into `DIR` and prints
/// its paths and total size, one per line (run as a child, so that the
/// measuring process never holds a case).
fn write_case(k: usize, bytes: usize, dir: &Path) {
    let case = case(k, bytes);
    let mut total = 0;
    for (path, text) in &case.files {
        std::fs::write(dir.join(path), text).expect("write");
        println!("{path}");
        total += text.len();
    }
    println!("{} {total}", case.ext);
}

fn main() {
    let argv: Vec<String> = std::env::args().collect();
    if argv.get(1).map(String::as_str) == Some("--write") {
        let k = argv[2].parse().expect("case");
        let bytes = argv[3].parse().expect("bytes");
        return write_case(k, bytes, Path::new(&argv[4]));
    }
    let mb: f64 = argv.get(1).and_then(|a| a.parse().ok()).unwrap_or(16.0);
    let only = argv.get(2).filter(|o| o.as_str() != "-").cloned();
    // `trace`: run `animvm --trace` of each single-file SLAP case instead.
    let trace = argv.get(3).is_some_and(|a| a == "trace");
    let exe = std::env::current_exe().expect("current exe");
    let bin = |name: &str, var: &str| {
        std::env::var_os(var)
            .map(PathBuf::from)
            .unwrap_or_else(|| exe.parent().and_then(Path::parent).expect("target dir").join(name))
    };
    let (tool, command) =
        if trace { (bin("animvm", "ANIMVM"), "animvm --trace") } else { (bin("animc", "ANIMC"), "animc") };
    let run_args = |files: &[String]| -> Vec<String> {
        if trace {
            let mut a = vec!["--trace".to_string()];
            a.extend(files.iter().cloned());
            a
        } else {
            let mut a = files.to_vec();
            a.extend(["-o".into(), "out.animb".into()]);
            a
        }
    };
    let dir = std::env::temp_dir().join(format!("peakrss-{}", std::process::id()));
    let bytes = (mb * 1e6) as usize;
    println!("{command}");
    println!("{:<46} {:>10} {:>5} {:>10} {:>8}", "case", "bytes", "rc", "peak MB", "B/byte");
    let mut base = std::collections::HashMap::new();
    for ext in ["anim", "draw", "slap"] {
        std::fs::create_dir_all(&dir).expect("temp dir");
        std::fs::write(dir.join(format!("empty.{ext}")), "").expect("write");
        let (_, peak) = peak_rss(&tool, &run_args(&[format!("empty.{ext}")]), &dir);
        println!("{:<46} {:>10} {:>5} {:>10.1} {:>8}", format!("{ext}: empty file"), 0, 0, peak as f64 / 1e6, "");
        base.insert(ext.to_string(), peak);
    }
    for (k, name) in CASES.iter().enumerate() {
        if only.as_deref().is_some_and(|o| !name.starts_with(o)) {
            continue;
        }
        if trace && (!name.starts_with("slap") || name.contains("corpus")) {
            continue;
        }
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("corpus")).expect("temp dir");
        let out = Command::new(&exe)
            .args(["--write", &k.to_string(), &bytes.to_string()])
            .arg(&dir)
            .output()
            .expect("the case is written");
        let listing = String::from_utf8_lossy(&out.stdout).into_owned();
        let mut files: Vec<String> = listing.lines().map(str::to_string).collect();
        let last = files.pop().expect("ext and size");
        let (ext, total) = last.split_once(' ').expect("ext and size");
        let total: usize = total.parse().expect("size");
        let (status, peak) = peak_rss(&tool, &run_args(&files), &dir);
        let rc = if status & 0x7f == 0 { (status >> 8) & 0xff } else { -(status & 0x7f) };
        let per = peak.saturating_sub(base[ext]) as f64 / total as f64;
        println!("{:<46} {:>10} {:>5} {:>10.1} {:>8.2}", name, total, rc, peak as f64 / 1e6, per);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
