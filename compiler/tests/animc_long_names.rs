//! Hostile names in `animc --check` (issue 41, cases 3 and 4): a 4 MB
//! unknown colour or state name gets its "did you mean" search skipped in
//! bounded time (the project's one bounded edit distance,
//! `animkit_vm::engine::suggest`) and a message quoting an excerpt of it; a cycle
//! through 60 001 states is quoted by its ends.

use std::process::Command;
use std::time::Duration;

/// `animc --check FILE` on `text`: exit status, stderr and the CPU time
/// `animc` spent (not wall time, which a loaded machine stretches:
/// `animkit_test_support::cpu`).
fn check(file: &str, text: &str) -> (i32, String, Duration) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(file), text).unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_animc"));
    cmd.args(["--check", file]).current_dir(dir.path());
    let (out, cpu) = animkit_test_support::cpu::output(cmd);
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stderr).into(), cpu)
}

/// Before: over 60 s of CPU in a release build (the weighted edit distance at
/// full length against each of ~670 colour names).
const FEW_SECONDS: Duration = Duration::from_secs(15);

#[test]
fn a_4_mb_unknown_colour_ends_at_once_with_a_short_message() {
    let name = format!("bleu{}", "q".repeat(4_000_000 - 4));
    let (status, err, took) = check("c.draw", &format!("color {name}\n"));
    assert_eq!(status, 1, "{err}");
    assert!(took < FEW_SECONDS, "took {took:?}");
    assert!(
        err.starts_with(&format!("error: unknown colour `bleu{}…` (4000000 bytes)\n --> c.draw:1:7\n", "q".repeat(28))),
        "{err}"
    );
    assert!(!err.contains("did you mean"), "{err}");
    assert!(err.ends_with("error: could not compile due to 1 previous error\n"), "{err}");
    assert!(err.len() < 1_000, "{} bytes of error", err.len());
}

#[test]
fn colour_suggestions_for_short_names_are_unchanged() {
    let (status, err, _) = check("c.draw", "color darkgren\n");
    assert_eq!(status, 1);
    assert!(err.starts_with("error: unknown colour `darkgren`\n --> c.draw:1:7\n"), "{err}");
    assert!(err.contains("= help: did you mean `darkgreen`?\n"), "{err}");
}

#[test]
fn a_4_mb_unknown_state_ends_at_once_with_a_short_message() {
    let name = format!("Idel{}", "e".repeat(4_000_000 - 4));
    let (status, err, took) = check("s.anim", &format!("Idle: 10, _loop\nAttack: 5, 5, {name}\n"));
    assert_eq!(status, 1, "{err}");
    assert!(took < FEW_SECONDS, "took {took:?}");
    assert!(
        err.starts_with(&format!("error: unknown state `Idel{}…` (4000000 bytes)\n --> s.anim:2:15\n", "e".repeat(28))),
        "{err}"
    );
    assert!(!err.contains("did you mean"), "{err}");
    assert!(err.len() < 1_000, "{} bytes of error", err.len());
}

#[test]
fn a_cycle_through_60_001_states_is_quoted_by_its_ends() {
    let mut text = String::new();
    for i in 0..60_000 {
        text.push_str(&format!("S{i}: S{}\n", i + 1));
    }
    text.push_str("S60000: S0\n");
    let (status, err, took) = check("c.anim", &text);
    assert_eq!(status, 1, "{err}");
    assert!(took < FEW_SECONDS, "took {took:?}");
    // Before: 4.5 MB of stderr, every state named and labelled.
    assert!(err.len() < 1_000, "{} bytes of error", err.len());
    assert!(
        err.starts_with(
            "error: transitions S0 -> S1 -> S2 -> ... (59995 more) ... -> S59998 -> S59999 -> S60000 -> S0 \
             would run forever within one tick\n     --> c.anim:1:5\n"
        ),
        "{err}"
    );
    // A label for each state named (but the first, which is the primary).
    assert_eq!(err.matches("continues here").count(), 5, "{err}");
    assert!(err.contains("`S60000` continues here"), "{err}");
    assert!(err.ends_with("error: could not compile due to 1 previous error\n"), "{err}");
}
