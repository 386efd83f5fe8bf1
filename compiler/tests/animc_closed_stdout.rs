//! `animc -o -` to a closed standard output is an error, not a silent
//! success that wrote nothing; so is `animc --help` to a standard output
//! that is closed, full or a broken pipe.

use std::process::Command;

#[test]
fn a_closed_standard_output_is_an_error() {
    let d = std::env::temp_dir().join(format!("animc-closed-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("hero.anim"), "Idle: 5, _loop\n").unwrap();
    let animc = env!("CARGO_BIN_EXE_animc");
    let run = |redirect: &str| {
        Command::new("sh")
            .arg("-c")
            .arg(format!("exec \"$0\" hero.anim -o - {redirect}"))
            .arg(animc)
            .current_dir(&d)
            .output()
            .unwrap()
    };
    let o = run(">&-");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "error: cannot write output: standard output is closed (Bad file descriptor)\n"
    );
    assert_eq!(run(">/dev/null").status.code(), Some(0));
    assert!(!d.join("hero.animb").exists());
    let _ = std::fs::remove_dir_all(&d);
}

/// `animc --help` to a standard output that is closed, full (`/dev/full`)
/// or a pipe whose reader is gone is an error too (issue 41, case 8); open,
/// it prints the usage and exits 0.
#[test]
fn help_to_a_failed_standard_output_is_an_error() {
    let animc = env!("CARGO_BIN_EXE_animc");
    let closed = Command::new("sh").arg("-c").arg("exec \"$0\" --help >&-").arg(animc).output().unwrap();
    let full = Command::new(animc)
        .arg("--help")
        .stdout(std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap())
        .output()
        .unwrap();
    // A socket pair with one end gone (`std::io::pipe` is newer than the
    // MSRV): writes fail with EPIPE, as to a pipe whose reader is gone.
    let (reader, writer) = std::os::unix::net::UnixStream::pair().unwrap();
    drop(reader);
    let broken = Command::new(animc).arg("--help").stdout(std::os::fd::OwnedFd::from(writer)).output().unwrap();
    for (o, why) in [
        (closed, "standard output is closed (Bad file descriptor)"),
        (full, "No space left on device (os error 28)"),
        (broken, "Broken pipe (os error 32)"),
    ] {
        assert_eq!(
            (o.status.code(), String::from_utf8_lossy(&o.stderr).into_owned()),
            (Some(1), format!("error: cannot write output: {why}\n"))
        );
    }
    let o = Command::new(animc).arg("--help").output().unwrap();
    assert_eq!(
        (o.status.code(), String::from_utf8_lossy(&o.stdout).into_owned(), o.stderr.len()),
        (Some(0), animkit_compiler::cli::usage(), 0)
    );
}
