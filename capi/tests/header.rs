//! `include/animkit.h` is what cbindgen makes of the crate with
//! `cbindgen.toml`: regenerated here (the cbindgen crate, the same
//! version as the `cbindgen` binary that wrote it) and compared. To
//! update it after changing the ABI:
//! `cbindgen --config capi/cbindgen.toml --crate animkit-capi --output capi/include/animkit.h capi`
//! (or run this test with `BLESS=1`).

use crate::common;

use common::capi_dir;

#[test]
fn the_header_is_cbindgens() {
    let dir = capi_dir();
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml")).expect("capi/cbindgen.toml reads");
    let bindings = cbindgen::Builder::new()
        .with_crate(&dir)
        .with_config(config)
        .generate()
        .expect("cbindgen generates the header");
    let mut fresh = Vec::new();
    bindings.write(&mut fresh);
    let path = dir.join("include/animkit.h");
    if std::env::var_os("BLESS").is_some() {
        // Written beside and renamed into place: the other tests of this
        // binary compile C against the header at the same time, and see
        // the old header or the new one, whole.
        let tmp = dir.join(format!("include/.animkit.h.tmp{}", std::process::id()));
        std::fs::write(&tmp, &fresh).expect("the header is written");
        std::fs::rename(&tmp, &path).expect("the header is written");
    }
    let checked_in = std::fs::read(&path).expect("include/animkit.h reads");
    assert!(
        fresh == checked_in,
        "capi/include/animkit.h is not what cbindgen makes of capi/src/: regenerate it (BLESS=1, or the command in this file's comment)"
    );
}

/// The header is C: it compiles alone, as C99 and C11 with every warning,
/// and as C++.
#[test]
fn the_header_compiles() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let src = dir.path().join("h.c");
    std::fs::write(
        &src,
        "#include \"animkit.h\"\nint main(void) { return animkit_version() == ANIMKIT_VERSION ? 0 : 1; }\n",
    )
    .expect("a temp file");
    for std in ["-std=c99", "-std=c11"] {
        common::run_ok(
            std::process::Command::new(common::cc())
                .args([std, "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-fsyntax-only", "-I"])
                .arg(capi_dir().join("include"))
                .arg(&src),
        );
    }
    if std::process::Command::new("c++").arg("--version").output().is_ok_and(|o| o.status.success()) {
        common::run_ok(
            std::process::Command::new("c++")
                .args(["-x", "c++", "-std=c++17", "-Wall", "-Wextra", "-Werror", "-fsyntax-only", "-I"])
                .arg(capi_dir().join("include"))
                .arg(&src),
        );
    } else {
        println!("no c++: the header's C++ side is not compiled");
    }
}
