//! What the C ABI tests share: the built library, `animc` and `animvm`,
//! bundles of the repository's examples, and `cc`.
#![allow(dead_code)] // Each test file uses its part.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// The crate's directory (`capi/`).
pub fn capi_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The repository's root.
pub fn repo_dir() -> PathBuf {
    capi_dir().parent().expect("capi/ has a parent").to_path_buf()
}

/// The profile directory the test runs from (`target/debug`): the test
/// binary is `target/debug/deps/NAME-HASH`.
pub fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    exe.parent().and_then(Path::parent).expect("target/PROFILE/deps/TEST").to_path_buf()
}

/// `libanimkit.a`. `cargo test` builds only the rlib the tests link, so
/// [`build_tools`] builds the library's other types too.
pub fn staticlib() -> PathBuf {
    build_tools();
    let p = profile_dir().join("libanimkit.a");
    assert!(p.is_file(), "{} is missing: cargo builds it with the test", p.display());
    p
}

/// The directory of `libanimkit.so`.
pub fn cdylib_dir() -> PathBuf {
    build_tools();
    let dir = profile_dir();
    assert!(dir.join("libanimkit.so").is_file(), "{}/libanimkit.so is missing", dir.display());
    dir
}

/// `animc` and `animvm`, built (once per test binary) into this target
/// directory by `cargo build`: a no-op when they are fresh.
pub fn tool(name: &str) -> PathBuf {
    build_tools();
    let p = profile_dir().join(name);
    assert!(p.is_file(), "{} is missing", p.display());
    p
}

/// Builds `animc`, `animvm` and this crate's staticlib and cdylib into the
/// test's target directory, once per test binary, unless all four are
/// newer than their sources (as after `cargo test --workspace`, which
/// builds them first: see `animkit_test_support::fresh`).
pub fn build_tools() {
    static BUILT: OnceLock<()> = OnceLock::new();
    BUILT.get_or_init(|| {
        let profile = profile_dir();
        let built = ["animc", "animvm", "libanimkit.a", "libanimkit.so"].map(|n| profile.join(n));
        if animkit_test_support::fresh::newer_than(&built, &repo_dir(), animkit_test_support::fresh::TOOLCHAIN_SOURCES)
        {
            return;
        }
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let target = profile.parent().expect("target/PROFILE");
        let mut cmd = Command::new(cargo);
        cmd.args([
            "build",
            "-q",
            "-p",
            "animkit-compiler",
            "--bin",
            "animc",
            "-p",
            "animkit-runtime",
            "--bin",
            "animvm",
            "-p",
            "animkit-capi",
            "--lib",
        ])
        .arg("--target-dir")
        .arg(target)
        .current_dir(repo_dir());
        if profile.file_name().is_some_and(|p| p == "release") {
            cmd.arg("--release");
        }
        let out = cmd.output().expect("cargo runs");
        assert!(
            out.status.success(),
            "cargo build of animc, animvm and libanimkit failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    });
}

/// Runs `cmd`, asserting it succeeds; its stdout.
pub fn run_ok(cmd: &mut Command) -> Vec<u8> {
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(out.status.success(), "{cmd:?} failed ({}):\n{}", out.status, String::from_utf8_lossy(&out.stderr));
    out.stdout
}

/// Runs `cmd`; its whole output.
pub fn run(cmd: &mut Command) -> Output {
    cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"))
}

/// Compiles the repository's `examples/NAME` with `animc` into `dir`.
pub fn bundle(dir: &Path, example: &str) -> PathBuf {
    let out = dir.join(Path::new(example).with_extension("animb"));
    run_ok(Command::new(tool("animc")).arg(repo_dir().join("examples").join(example)).arg("-o").arg(&out));
    out
}

/// [`bundle`] with `--strip`: no source paths, so its bytes do not
/// depend on where the repository is.
pub fn stripped_bundle(dir: &Path, source: &Path) -> PathBuf {
    let name = source.file_name().expect("a file name");
    let out = dir.join(Path::new(name).with_extension("stripped.animb"));
    run_ok(Command::new(tool("animc")).arg("--strip").arg(source).arg("-o").arg(&out));
    out
}

/// How a C test program is linked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Link {
    /// `libanimkit.a`, with the system libraries Rust's std needs.
    Static,
    /// `libanimkit.so`, found through an rpath.
    Dynamic,
    /// The staticlib, the C side built with `-fsanitize=address,undefined`.
    Sanitized,
}

/// Compiles `tests/c/SOURCE` against `include/animkit.h` into `dir`,
/// warnings as errors.
pub fn build_c(dir: &Path, source: &str, link: Link) -> PathBuf {
    build_c_with(dir, source, link, &[])
}

/// [`build_c`], with more arguments for the linker at the end (`-lEGL`).
pub fn build_c_with(dir: &Path, source: &str, link: Link, libs: &[&str]) -> PathBuf {
    let exe = dir.join(format!("{}-{link:?}", Path::new(source).file_stem().and_then(|s| s.to_str()).unwrap_or("c")));
    let mut cmd = Command::new(cc());
    cmd.args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-g", "-O1"])
        .arg("-I")
        .arg(capi_dir().join("include"))
        .arg(capi_dir().join("tests/c").join(source))
        .arg("-o")
        .arg(&exe);
    match link {
        Link::Static => {
            cmd.arg(staticlib()).args(["-lpthread", "-ldl", "-lm"]);
        }
        Link::Dynamic => {
            let dir = cdylib_dir();
            cmd.arg("-L").arg(&dir).arg("-lanimkit").arg(format!("-Wl,-rpath,{}", dir.display())).arg("-lm");
        }
        Link::Sanitized => {
            cmd.args(["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-fno-sanitize-recover=all"])
                .arg(staticlib())
                .args(["-lpthread", "-ldl", "-lm"]);
        }
    }
    cmd.args(libs);
    run_ok(&mut cmd);
    exe
}

/// The C compiler: `$CC`, else `cc`.
pub fn cc() -> String {
    std::env::var("CC").unwrap_or_else(|_| "cc".into())
}

/// Whether `cc -fsanitize=address,undefined` builds and runs a program
/// here (it needs the sanitizer runtimes, and ASan a usable address space).
pub fn sanitizers_work(dir: &Path) -> Result<(), String> {
    let src = dir.join("probe.c");
    std::fs::write(
        &src,
        "#include <stdlib.h>\nint main(void) { char *p = malloc(4); p[0] = 1; int r = p[0] - 1; free(p); return r; }\n",
    )
    .map_err(|e| e.to_string())?;
    let exe = dir.join("probe");
    let out = run(Command::new(cc()).args(["-fsanitize=address,undefined"]).arg(&src).arg("-o").arg(&exe));
    if !out.status.success() {
        return Err(format!("cc -fsanitize=address,undefined fails: {}", String::from_utf8_lossy(&out.stderr)));
    }
    let out = run(&mut Command::new(&exe));
    if !out.status.success() {
        return Err(format!("a sanitized program does not run: {}", String::from_utf8_lossy(&out.stderr)));
    }
    Ok(())
}

/// The first difference of two outputs, for a failure message.
pub fn first_difference(ours: &[u8], theirs: &[u8]) -> String {
    let (a, b) = (String::from_utf8_lossy(ours), String::from_utf8_lossy(theirs));
    for (i, (x, y)) in a.lines().zip(b.lines()).enumerate() {
        if x != y {
            return format!("line {}:\n  C:      {x}\n  animvm: {y}", i + 1);
        }
    }
    format!("{} lines against {} lines", a.lines().count(), b.lines().count())
}

/// Numbers on the edges of serde_json's layouts (fixed from 1e-5 to below
/// 1e16, then `d.ddde+X`; subnormals, `-0.0`), as arguments (`{:e}`, which
/// reads back exactly) and as serde_json writes them, one a line.
pub fn numbers_and_serde_json() -> (Vec<String>, String) {
    let values = [
        0.0,
        -0.0,
        1.0,
        -2.5,
        0.1,
        0.30000000000000004,
        15.625,
        100.0,
        1e15,
        9.999999999999998e15,
        1e16,
        1.2345678901234568e17,
        1e21,
        0.001,
        0.0001,
        0.00001,
        1.5e-5,
        0.000001,
        1e-7,
        5e-324,
        2.2250738585072014e-308,
        f64::MAX,
        1.25e307,
        std::f64::consts::PI,
        std::f64::consts::FRAC_PI_2,
        -std::f64::consts::FRAC_PI_2,
        123456.789,
        0.55,
        1e100,
        4.35,
        1.0 / 3.0,
    ];
    let args = values.iter().map(|v| format!("{v:e}")).collect();
    let json = values.iter().map(|v| serde_json::to_string(v).expect("a number") + "\n").collect();
    (args, json)
}
