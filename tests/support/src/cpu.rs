//! CPU time, not wall time, for the tests that bound how long work takes.
//!
//! A test that asserts a wall-clock bound fails by chance on a loaded
//! machine: with a dozen compilers beside it on two cores, a child that
//! needs 0.7 s of CPU takes 16 s of wall time (seen here, 2026-12-07, on
//! `animc_long_names`). The work a test bounds is the CPU time its code
//! spends: [`output`] reports a child's (user + system time from
//! `wait4`'s `rusage`), [`thread`] the calling thread's
//! (`CLOCK_THREAD_CPUTIME_ID`). Both are what the program did, whatever
//! else the machine runs, so a bound on them fails only when the work
//! itself grows.

use std::io::Read;
use std::process::{Command, ExitStatus, Output, Stdio};
use std::time::Duration;

unsafe extern "C" {
    // `struct rusage`: `ru_utime` and `ru_stime` (two `timeval`s: seconds
    // and microseconds, as longs), then 14 longs.
    fn wait4(pid: i32, status: *mut i32, options: i32, rusage: *mut [i64; 18]) -> i32;
    fn clock_gettime(clock: i32, ts: *mut [i64; 2]) -> i32;
}
const CLOCK_THREAD_CPUTIME_ID: i32 = 3;

/// Runs `cmd` to its end as [`Command::output`] does (standard output and
/// error captured, standard input null unless set) and returns its output
/// with the CPU time the child spent (user + system).
///
/// ```
/// let (out, cpu) = animkit_test_support::cpu::output(std::process::Command::new("true"));
/// assert!(out.status.success());
/// assert!(cpu < std::time::Duration::from_secs(1));
/// ```
pub fn output(mut cmd: Command) -> (Output, Duration) {
    use std::os::unix::process::ExitStatusExt;
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    // Reaped by `wait4` below, which std does not know of.
    #[allow(clippy::zombie_processes)]
    let mut child = cmd.spawn().expect("the program starts");
    let mut stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        stdout.read_to_end(&mut buf).map(|_| buf)
    });
    let mut stderr = Vec::new();
    child.stderr.take().expect("piped").read_to_end(&mut stderr).expect("the child's standard error");
    let stdout = reader.join().expect("the reader thread").expect("the child's standard output");
    let (mut status, mut usage) = (0, [0i64; 18]);
    // SAFETY: our own child, not yet waited for; pointers to live locals.
    let pid = unsafe { wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as i32, "wait4: {}", std::io::Error::last_os_error());
    let micros = |s: i64, us: i64| Duration::from_secs(s as u64) + Duration::from_micros(us as u64);
    let cpu = micros(usage[0], usage[1]) + micros(usage[2], usage[3]);
    (Output { status: ExitStatus::from_raw(status), stdout, stderr }, cpu)
}

/// The CPU time the calling thread has spent so far: subtract two readings
/// to bound the work between them.
///
/// ```
/// let start = animkit_test_support::cpu::thread();
/// let sum: u64 = (0..1_000_000u64).sum();
/// assert!(sum > 0 && animkit_test_support::cpu::thread() >= start);
/// ```
pub fn thread() -> Duration {
    let mut ts = [0i64; 2];
    // SAFETY: a pointer to a live local of `struct timespec`'s layout.
    let r = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(r, 0, "clock_gettime: {}", std::io::Error::last_os_error());
    Duration::from_secs(ts[0] as u64) + Duration::from_nanos(ts[1] as u64)
}

/// A stopwatch over the calling thread's CPU time, used as
/// `std::time::Instant` is: `let t = ThreadTimer::start(); ...;
/// assert!(t.elapsed() < bound)`. The work it times must run on the
/// calling thread.
///
/// ```
/// use animkit_test_support::cpu::ThreadTimer;
/// let t = ThreadTimer::start();
/// std::thread::sleep(std::time::Duration::from_millis(50)); // sleeping costs no CPU
/// assert!(t.elapsed() < std::time::Duration::from_millis(40));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ThreadTimer(Duration);

impl ThreadTimer {
    /// Starts timing the calling thread's CPU time.
    pub fn start() -> ThreadTimer {
        ThreadTimer(thread())
    }

    /// The CPU time the calling thread spent since [`ThreadTimer::start`].
    pub fn elapsed(&self) -> Duration {
        thread().saturating_sub(self.0)
    }
}
