//! A lone carriage return (old Mac files) ends a line in every language:
//! a CR-only file compiles to the program its `\n` twin does, and its
//! errors are at the same line and column, rendered the same.

use animkit_compiler::{Options, Source, compile};

fn errors(path: &str, text: &str) -> String {
    compile(&[Source::new(path, text)], &Options::default()).map(|_| ()).unwrap_err().to_string()
}

fn same_program(path: &str, lf: &str) {
    let cr = lf.replace('\n', "\r");
    let a = compile(&[Source::new(path, lf)], &Options::default()).unwrap();
    let b = compile(&[Source::new(path, cr.as_str())], &Options::default()).unwrap();
    assert_eq!(animkit_vm::engine::codec::encode(&a), animkit_vm::engine::codec::encode(&b), "{path}");
    assert!(!a.modules.is_empty());
}

#[test]
fn cr_only_files_compile_as_their_lf_twins() {
    same_program("s.slap", "# a scene\ntime 0\nactor 1 size 2\ntime 10\n");
    same_program("h.anim", "# sprites\nIdle: 5, _loop\nWalk: 2, 3, Idle\n");
    same_program("m.draw", "color red\nline 0 0 1 1\nflush\n");
    // A CR-only SLAP scene is not one comment: its actor is there.
    let scene = "# a scene\rtime 0\ractor 1 size 2\rtime 10\r";
    let p = compile(&[Source::new("s.slap", scene)], &Options::default()).unwrap();
    let empty = compile(&[Source::new("s.slap", "# a scene\n")], &Options::default()).unwrap();
    assert_ne!(animkit_vm::engine::codec::encode(&p), animkit_vm::engine::codec::encode(&empty));
}

#[test]
fn errors_in_cr_only_files_are_at_their_line_and_column() {
    for (path, lf, at) in [
        ("s.slap", "time 0\nactor 1 size 2\nactor 1 bogus 2\n", "s.slap:3:9"),
        ("h.anim", "Idle: 5, _loop\n\nWalk: 2, x\n", "h.anim:3:10"),
        ("m.draw", "line 0 0 1 1\ncolor red\nbogus 1\n", "m.draw:3:1"),
    ] {
        let cr = lf.replace('\n', "\r");
        let (a, b) = (errors(path, lf), errors(path, &cr));
        assert_eq!(a, b, "{path}");
        assert!(b.contains(&format!("--> {at}")), "{path}: {b}");
    }
    // Mixed: CRLF, LF and a lone CR, each one line end.
    let e = errors("s.slap", "time 0\r\nactor 1 size 2\ractor 1 bogus 2\n");
    assert!(e.contains("--> s.slap:3:9"), "{e}");
}
