//! An X server of a test's own, for the tests that open real windows
//! (`window_xvfb.rs`, `game_example_xvfb.rs`): started on a free display,
//! killed (and its socket and lock removed) when dropped. Declared once in
//! `tests/main.rs`, as the module `xvfb`.
#![allow(dead_code)] // Each test file uses its part.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// How long the server, or one X client, may take.
pub const WAIT: Duration = Duration::from_secs(10);
/// What to install when a tool is missing.
pub const INSTALL: &str = "install them with `apt-get install xvfb xdotool x11-utils x11-apps libxkbcommon-x11-0` \
                           (the CI script .ci/run does this)";

/// Panics with an install hint unless `program` can be started; `what`
/// says which tests need it.
pub fn require(program: &str, what: &str) {
    match Command::new(program).arg("-version").stdout(Stdio::null()).stderr(Stdio::null()).status() {
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            panic!("`{program}` is not installed; {what}: {INSTALL}")
        }
        Err(e) => panic!("cannot run `{program}`: {e}"),
    }
}

/// An X server of the test's own, killed when dropped.
pub struct Xvfb {
    child: Child,
    /// `:N`, for `DISPLAY`.
    pub display: String,
}

static NEXT_DISPLAY: AtomicU32 = AtomicU32::new(0);

impl Xvfb {
    /// Starts a server on the first free display from `base` on, after
    /// checking that each of `tools` can run (`what` names the tests that
    /// need them). Test files in one run use bases far apart.
    pub fn start(base: u32, tools: &[&str], what: &str) -> Xvfb {
        for tool in tools {
            require(tool, what);
        }
        for _ in 0..40 {
            let n = base + NEXT_DISPLAY.fetch_add(1, Ordering::SeqCst);
            if Path::new(&format!("/tmp/.X{n}-lock")).exists() || Path::new(&format!("/tmp/.X11-unix/X{n}")).exists() {
                continue;
            }
            let mut child = Command::new("Xvfb")
                .args([&format!(":{n}"), "-screen", "0", "800x600x24", "-nolisten", "tcp", "-noreset"])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap_or_else(|e| panic!("cannot start Xvfb: {e}; {INSTALL}"));
            let socket = PathBuf::from(format!("/tmp/.X11-unix/X{n}"));
            let start = Instant::now();
            while start.elapsed() < WAIT {
                if let Ok(Some(_)) = child.try_wait() {
                    break; // display taken: try the next one
                }
                if socket.exists() {
                    return Xvfb { child, display: format!(":{n}") };
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
        panic!("could not start Xvfb on a free display");
    }

    /// Runs an X client (xdotool, xwininfo) on this display; its standard
    /// output, trimmed.
    pub fn run(&self, program: &str, args: &[&str]) -> String {
        let mut child = Command::new(program)
            .args(args)
            .env("DISPLAY", &self.display)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
        let start = Instant::now();
        loop {
            if let Ok(Some(_)) = child.try_wait() {
                break;
            }
            if start.elapsed() > WAIT {
                let _ = child.kill();
                let _ = child.wait();
                panic!("`{program} {}` did not finish in {WAIT:?}", args.join(" "));
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "`{program} {}` failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// [`run`](Self::run) of `xdotool`.
    pub fn xdotool(&self, args: &[&str]) -> String {
        self.run("xdotool", args)
    }
}

impl Drop for Xvfb {
    /// SIGTERM first, so that the server removes its socket and lock file;
    /// SIGKILL (and removing them here) if it does not end soon.
    fn drop(&mut self) {
        let _ = Command::new("kill").arg(self.child.id().to_string()).stderr(Stdio::null()).status();
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        let n = &self.display[1..];
        let _ = std::fs::remove_file(format!("/tmp/.X{n}-lock"));
        let _ = std::fs::remove_file(format!("/tmp/.X11-unix/X{n}"));
    }
}
