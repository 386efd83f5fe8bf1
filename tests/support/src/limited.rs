//! Runs a program under an address-space limit (`setrlimit(RLIMIT_AS)` in
//! the child) and reports how it ended and its peak resident memory
//! (`ru_maxrss` from `wait4`). Shared by the `animc` and `animvm`
//! resource-limit tests.
//!
//! The peak includes the calling process's own resident size: the child is
//! a fork of it (every page shared counts as resident in the copy) and
//! Linux keeps a process's peak across `exec`: the peak is the larger of
//! the child's own and the test process's resident size when it forked.
//! Call it from a small test process (a test binary of its own), and hold
//! [`serial`] for the whole of each test of that binary, so that no other
//! test's in-process memory (its inputs, a compile it runs) is resident
//! while a child forks: tests of one binary are threads of one process.
//! [`Run::parent`] records the test process's resident size at the fork,
//! for the failure message.

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Mutex, MutexGuard};

unsafe extern "C" {
    fn setrlimit(resource: i32, limit: *const [u64; 2]) -> i32;
    // `struct rusage`: two `timeval`s, then `ru_maxrss` (KiB) and 13 more
    // longs.
    fn wait4(pid: i32, status: *mut i32, options: i32, rusage: *mut [i64; 18]) -> i32;
}
const RLIMIT_AS: i32 = 9;

/// How a limited run ended.
pub struct Run {
    /// The exit code, or `None` when a signal ended it.
    pub code: Option<i32>,
    /// The signal that ended it, 0 if none.
    pub signal: i32,
    /// Peak resident memory in bytes.
    pub peak: u64,
    /// The test process's resident size in bytes just before the fork
    /// (the floor of `peak`; see the module's docs).
    pub parent: u64,
    /// CPU time spent (user + system): what a test bounds instead of wall
    /// time (see [`crate::cpu`]).
    pub cpu: std::time::Duration,
    pub stderr: String,
}

/// Serialises the tests of one binary that measure children's peaks:
/// hold the guard for the whole test (`let _one = serial();`). A test
/// that failed while holding it does not stop the others.
pub fn serial() -> MutexGuard<'static, ()> {
    static ONE: Mutex<()> = Mutex::new(());
    ONE.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// This process's resident size in bytes (`/proc/self/statm`'s second
/// field, in pages of 4 KiB), 0 where it cannot be read.
fn resident() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    statm.split_whitespace().nth(1).and_then(|p| p.parse::<u64>().ok()).map_or(0, |pages| pages * 4096)
}

/// `program ARGS` in `dir` with at most `limit` bytes of address space,
/// standard input from `stdin` (a file, or nothing), standard output
/// discarded.
pub fn run_limited(program: &str, dir: &Path, args: &[&str], stdin: Option<&Path>, limit: u64) -> Run {
    use std::io::Read;
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(program);
    let input = match stdin {
        Some(p) => Stdio::from(std::fs::File::open(p).unwrap()),
        None => Stdio::null(),
    };
    cmd.args(args).current_dir(dir).stdin(input).stdout(Stdio::null()).stderr(Stdio::piped());
    // SAFETY: `setrlimit` is async-signal-safe, and the closure touches
    // nothing else of the parent's.
    unsafe {
        cmd.pre_exec(move || {
            let l = [limit, limit];
            if setrlimit(RLIMIT_AS, &l) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let parent = resident();
    // Reaped by `wait4` below, which std does not know of.
    #[allow(clippy::zombie_processes)]
    let mut child = cmd.spawn().unwrap();
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    let (mut status, mut usage) = (0, [0i64; 18]);
    // SAFETY: our own child, not yet waited for; pointers to live locals.
    let pid = unsafe { wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as i32);
    let signal = status & 0x7f;
    let micros =
        |s: i64, us: i64| std::time::Duration::from_secs(s as u64) + std::time::Duration::from_micros(us as u64);
    let cpu = micros(usage[0], usage[1]) + micros(usage[2], usage[3]);
    Run {
        code: (signal == 0).then_some((status >> 8) & 0xff),
        signal,
        peak: usage[4] as u64 * 1024,
        parent,
        cpu,
        stderr,
    }
}

/// The names in `dir`, sorted.
pub fn files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> =
        std::fs::read_dir(dir).unwrap().flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    v.sort();
    v
}

/// A sparse file of `len` bytes (zeros that take no disk).
pub fn sparse(path: &Path, len: u64) {
    std::fs::File::create(path).unwrap().set_len(len).unwrap();
}

/// Writes `path`: `head`, then `line(i)` for i = 0, 1, ... while the file
/// stays under `bytes`, then `tail`; written as it goes (the test process
/// holds none of it: a child's peak memory counts its parent's).
pub fn write_shape(path: &Path, bytes: usize, head: &str, mut line: impl FnMut(usize) -> String, tail: &str) -> usize {
    use std::io::Write;
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    out.write_all(head.as_bytes()).unwrap();
    let mut len = head.len() + tail.len();
    for i in 0.. {
        let l = line(i);
        if len + l.len() > bytes {
            break;
        }
        len += l.len();
        out.write_all(l.as_bytes()).unwrap();
    }
    out.write_all(tail.as_bytes()).unwrap();
    out.flush().unwrap();
    len
}

/// Runs the test `name` (an `#[ignore]`d one, by its full path, e.g.
/// `game_hostile_calls::hostile_calls_in_a_child`) of the running test
/// binary in a child process under `limit` bytes of address space: how a
/// test proves that calls made in-process stay within a memory bound.
pub fn run_test_limited(name: &str, limit: u64) -> Run {
    let exe = std::env::current_exe().expect("the test binary");
    let args = ["--exact", name, "--ignored", "--nocapture", "--test-threads=1"];
    run_limited(exe.to_str().expect("a UTF-8 path"), &std::env::temp_dir(), &args, None, limit)
}
