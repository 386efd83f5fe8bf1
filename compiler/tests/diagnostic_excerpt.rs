//! A diagnostic quotes a bounded excerpt of any token, in every language:
//! a 1 MB literal gives a few hundred bytes of error, with its true
//! position and length.

use animkit_compiler::{Options, Source, compile};

fn errors(path: &str, text: &str) -> String {
    compile(&[Source::new(path, text)], &Options::default()).map(|_| ()).unwrap_err().to_string()
}

#[test]
fn a_megabyte_token_is_quoted_as_an_excerpt_in_every_language() {
    let big = "9".repeat(1_000_000);
    let cases = [
        (
            "n.slap",
            format!("time 0\nactor 1 size {big}x\n"),
            "error: expected an operator or a space, found `x`\n --> n.slap:2:1000014\n",
        ),
        (
            "n.anim",
            format!("Idle: {big}, _loop\n"),
            "error: duration `99999999999999999999999999999999…` (1000000 bytes) is too large\n --> n.anim:1:7\n",
        ),
        ("n.draw", format!("line 0 0 1 {big}x\n"), " --> n.draw:1:12\n"),
    ];
    for (path, text, head) in cases {
        let e = errors(path, &text);
        assert!(e.len() < 1_000, "{path}: {} bytes of error", e.len());
        assert!(e.contains(head), "{path}: {e}");
        assert!(e.contains('…'), "{path}: {e}");
    }
}

#[test]
fn short_lines_render_as_before() {
    let e = errors("s.slap", "time 0\nactor 1 bogus 2\n");
    assert!(e.contains(" --> s.slap:2:9\n  |\n2 | actor 1 bogus 2\n"), "{e}");
    assert!(!e.contains('…'));
}
