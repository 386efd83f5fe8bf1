//! `animc -o -` to a closed standard output is an error, not a silent
//! success that wrote nothing.

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
