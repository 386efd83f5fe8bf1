//! [`compile`](super::compile) and [`format`](super::format) against the
//! `animc` binary on the same texts: every example, every UI case of
//! `tests/ui/`, broken texts of each language and hostile ones. Each
//! message's severity, words and `-->` position must be `animc`'s, in
//! order, and its end where `animc`'s carets end (for a caret line `animc`
//! draws plainly: one line, ASCII before it); a bundle must be the bytes
//! `animc -o` writes; a formatted text what `animc --fmt` prints.

use super::{Built, Message, Severity, compile, format};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("web/ is in the repository").to_path_buf()
}

/// `animc` of this target directory, built once per test binary unless it
/// is newer than its sources (as after `cargo test --workspace`).
fn animc() -> &'static Path {
    static ANIMC: OnceLock<PathBuf> = OnceLock::new();
    ANIMC.get_or_init(|| {
        // target/<profile>/deps/<this test>
        let exe = std::env::current_exe().expect("the test binary's path");
        let profile = exe.parent().and_then(Path::parent).expect("target/PROFILE/deps").to_path_buf();
        let animc = profile.join("animc");
        let fresh = animkit_test_support::fresh::newer_than(
            std::slice::from_ref(&animc),
            &root(),
            animkit_test_support::fresh::TOOLCHAIN_SOURCES,
        );
        if !fresh {
            let target = profile.parent().expect("target/PROFILE");
            let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
            cmd.args(["build", "-q", "-p", "animkit-compiler", "--bin", "animc", "--target-dir"])
                .arg(target)
                .current_dir(root());
            if profile.file_name().is_some_and(|p| p == "release") {
                cmd.arg("--release");
            }
            let status = cmd.status().expect("cargo runs");
            assert!(status.success(), "cargo build of animc failed");
        }
        animc
    })
}

/// One headline `animc` printed: severity, words, `-->` place (file, line,
/// column) and, when the block has exactly one plain caret line, its
/// indent and caret count.
#[derive(Debug, PartialEq)]
struct Printed {
    severity: &'static str,
    message: String,
    at: Option<(String, u32, u32)>,
    carets: Option<(usize, usize)>,
}

/// `animc`'s stderr as headlines, without the closing lines that count
/// them.
fn printed(stderr: &str) -> Vec<Printed> {
    let mut out: Vec<Printed> = Vec::new();
    let mut caret_lines = 0;
    for line in stderr.lines() {
        let head = [("error: ", "error"), ("warning: ", "warning")]
            .into_iter()
            .find_map(|(prefix, severity)| Some((severity, line.strip_prefix(prefix)?)));
        if let Some((severity, message)) = head {
            caret_lines = 0;
            out.push(Printed { severity, message: message.to_string(), at: None, carets: None });
            continue;
        }
        let Some(last) = out.last_mut() else { panic!("a line before any headline: {line:?}\n{stderr}") };
        let body = line.trim_start();
        if let Some(place) = body.strip_prefix("--> ")
            && last.at.is_none()
        {
            let mut parts = place.rsplitn(3, ':');
            let column = parts.next().and_then(|c| c.parse().ok()).expect("a column");
            let line = parts.next().and_then(|c| c.parse().ok()).expect("a line");
            last.at = Some((parts.next().expect("a file").to_string(), line, column));
        } else if let Some(marks) = body.strip_prefix("| ") {
            let indent = marks.len() - marks.trim_start_matches(' ').len();
            let run = marks[indent..].len() - marks[indent..].trim_start_matches('^').len();
            let after = &marks[indent + run..];
            if run > 0 && (after.is_empty() || after.starts_with(' ')) {
                caret_lines += 1;
                last.carets = (caret_lines == 1).then_some((indent, run));
            }
        }
    }
    let closing = |p: &Printed| {
        p.at.is_none()
            && (p.message.starts_with("could not compile due to ")
                || p.message.starts_with("could not format due to ")
                || (p.severity == "warning" && p.message.ends_with(" emitted")))
    };
    out.retain(|p| !closing(p));
    out
}

/// Holds `ours` to `animc`'s headlines; `name` and `text` are the main
/// file, for the caret check.
fn same_messages(ours: &[Message], theirs: &[Printed], name: &str, text: &str, what: &str) {
    let shape = |m: &Message| Printed {
        severity: m.severity.as_str(),
        message: m.message.clone(),
        at: m.at.as_ref().map(|p| (p.file.clone().unwrap_or_else(|| name.to_string()), p.line, p.column)),
        carets: None,
    };
    let strip = |p: &Printed| Printed { carets: None, message: p.message.clone(), at: p.at.clone(), ..*p };
    let ours_shaped: Vec<Printed> = ours.iter().map(shape).collect();
    let theirs_shaped: Vec<Printed> = theirs.iter().map(strip).collect();
    assert_eq!(ours_shaped, theirs_shaped, "{what}: messages differ from animc's");
    let lines: Vec<&str> = text.split('\n').collect();
    for (m, p) in ours.iter().zip(theirs) {
        let (Some(at), Some((indent, run))) = (&m.at, p.carets) else { continue };
        let Some(line) = lines.get(at.line as usize - 1) else { continue };
        let plain = |s: &str| s.is_ascii() && !s.contains('\t');
        if at.file.is_some() || at.end_line != at.line || !plain(line) || line.len() > 400 {
            continue;
        }
        assert_eq!(indent, at.column as usize - 1, "{what}: `{}` starts elsewhere than animc's carets", m.message);
        let width = (at.end_column - at.column).max(1) as usize;
        assert_eq!(run, width, "{what}: `{}` ends elsewhere than animc's carets", m.message);
    }
}

/// `compile` against `animc --lang LANGUAGE PATH -o OUT`, `path` holding
/// `text`; the outcome, checked.
fn compiles_as_animc(language: &str, path: &Path, text: &str) -> Result<Built, Vec<Message>> {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let bundle = dir.path().join("out.animb");
    let out = Command::new(animc())
        .arg("--lang")
        .arg(language)
        .arg(path)
        .arg("-o")
        .arg(&bundle)
        .output()
        .expect("animc runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let name = path.to_str().expect("a UTF-8 path");
    let what = format!("{language} `{}`", path.display());
    let ours = compile(language, name, text);
    match &ours {
        Ok(built) => {
            assert!(out.status.success(), "{what}: animc failed where compile did not:\n{stderr}");
            assert!(built.bundle == std::fs::read(&bundle).expect("animc's bundle"), "{what}: bundles differ");
            same_messages(&built.warnings, &printed(&stderr), name, text, &what);
        }
        Err(messages) => {
            assert_eq!(out.status.code(), Some(1), "{what}: animc did not fail where compile did:\n{stderr}");
            assert!(!bundle.exists(), "{what}");
            same_messages(messages, &printed(&stderr), name, text, &what);
        }
    }
    ours
}

/// `format` against `animc --fmt --lang LANGUAGE -` on `text`.
fn formats_as_animc(language: &str, text: &str) {
    let mut child = Command::new(animc())
        .args(["--fmt", "--lang", language, "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("animc runs");
    let mut stdin = child.stdin.take().expect("a pipe");
    let input = text.to_string();
    // animc may stop reading early (a text over its limit).
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("animc runs");
    let _ = writer.join();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let what = format!("--fmt {language} `{}`", text.chars().take(60).collect::<String>());
    match format(language, text) {
        Ok(formatted) => {
            assert!(out.status.success(), "{what}: animc failed where format did not:\n{stderr}");
            assert!(formatted.as_bytes() == out.stdout, "{what}: formatted texts differ");
        }
        Err(messages) => {
            assert_eq!(out.status.code(), Some(1), "{what}: animc did not fail where format did:\n{stderr}");
            same_messages(&messages, &printed(&stderr), "-", text, &what);
        }
    }
}

/// The files of `dir` with the language's extension, sorted.
fn sources(dir: &Path) -> Vec<(&'static str, PathBuf)> {
    let mut files: Vec<(&'static str, PathBuf)> = std::fs::read_dir(dir)
        .expect("a directory")
        .flatten()
        .map(|e| e.path())
        .filter_map(|p| {
            let language = animkit_vm::engine::program::Language::from_extension(p.extension()?.to_str()?)?;
            Some((language.name(), p))
        })
        .collect();
    files.sort();
    files
}

#[test]
fn every_example_compiles_to_animc_s_bundle_and_formats_as_animc_fmt() {
    let examples = sources(&root().join("examples"));
    assert!(examples.len() >= 7, "{examples:?}");
    for (language, path) in examples {
        let text = std::fs::read_to_string(&path).expect("an example");
        let built = compiles_as_animc(language, &path, &text);
        assert!(built.is_ok(), "{}: {built:?}", path.display());
        formats_as_animc(language, &text);
    }
}

#[test]
fn every_ui_case_gives_animc_s_messages() {
    let mut failed = 0;
    for language in ["sprite", "animator", "slap"] {
        for (language, path) in sources(&root().join("tests/ui").join(language)) {
            let text = std::fs::read_to_string(&path).expect("a UI case");
            failed += usize::from(compiles_as_animc(language, &path, &text).is_err());
            formats_as_animc(language, &text);
        }
    }
    assert!(failed > 60, "{failed} UI cases failed to compile");
}

/// Broken texts of each language: a typo'd command, a bad number, an
/// unknown state or name, a syntax error, and texts that only warn.
const BROKEN: &[(&str, &str)] = &[
    ("sprite", "Idle: 15, 15, _loop\nAttack: 5, 5, 5, Idel\n"),
    ("sprite", "Walk: 6|step, 6x, 6, _loop\n"),
    ("sprite", "Walk: 6, 6, _lop\n"),
    ("sprite", "Walk 6, 6, _loop\nRun: -4, 4, _loop\n"),
    ("sprite", "Jump: 1.5, 99999999999999999999, _goto Fall\n"),
    ("sprite", "Idle: 15, 15, _loop\nIdle: 1, _loop\n\u{e9}t\u{e9}: 3, _loop\n"),
    ("animator", "colr red\nline 0 0 1 1\n"),
    ("animator", "color red\nline 0 0 1e999 1\nthick -2\n"),
    ("animator", "color #ggg\nline 0 0 one 1\npoly 0 0 1\n"),
    ("animator", "macro a\n  color bleu\nendmacro\nrun b\n"),
    ("slap", "define r 2\nactr 1 position r r\n"),
    ("slap", "time 0\nactor 1 position 1e999 0\nactor 1 size 0x10\n"),
    ("slap", "time 0\nactor 1 position x 0\nactor 1 action bogus\ntime -1\n"),
    ("slap", "time 0\nactor 1 color 1 0 (0\ncamera 0 0 0 0 0 0\n"),
];

#[test]
fn broken_texts_give_animc_s_messages() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for (i, (language, text)) in BROKEN.iter().enumerate() {
        let extension = animkit_vm::engine::program::Language::from_name(language).expect("a language").extension();
        let path = dir.path().join(format!("broken{i}.{extension}"));
        std::fs::write(&path, text).expect("written");
        let result = compiles_as_animc(language, &path, text);
        let messages = match &result {
            Ok(built) => &built.warnings,
            Err(messages) => messages,
        };
        assert!(!messages.is_empty(), "{language} {text:?} gave no message");
        formats_as_animc(language, text);
    }
}

#[test]
fn hostile_texts_give_animc_s_bounded_errors() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let million = |line: &str| line.repeat(1_000_000);
    let cases: Vec<(&str, String)> = vec![
        ("sprite", million("Walk 5\n")),
        ("animator", million("colr red\n")),
        ("slap", million("actr 1 size 1\n")),
        ("slap", format!("time 0\nactor 1 size {}1{}\n", "(".repeat(100_000), ")".repeat(100_000))),
        ("animator", format!("line 0 0 {} 1\n", "9".repeat(1_000_000))),
        ("sprite", format!("Walk: {}, _loop\n", "9".repeat(1_000_000))),
    ];
    for (i, (language, text)) in cases.iter().enumerate() {
        let extension = animkit_vm::engine::program::Language::from_name(language).expect("a language").extension();
        let path = dir.path().join(format!("hostile{i}.{extension}"));
        std::fs::write(&path, text).expect("written");
        let messages = compiles_as_animc(language, &path, text).expect_err("a hostile text fails");
        assert!(messages.len() <= 101, "{} messages", messages.len());
        assert!(messages.iter().all(|m| m.message.len() < 2000), "a message is not bounded");
        // The formatter reads what the compiler reads: the short hostile
        // texts only, to keep the test's time down.
        if text.len() < 2_000_000 {
            formats_as_animc(language, text);
        }
    }
    // The 100 errors printed, then the count of the others.
    let messages = compile("sprite", "a.anim", &million("Walk 5\n")).expect_err("fails");
    assert_eq!(messages.len(), 101);
    assert_eq!(messages[100].message, "999900 more errors not shown (at most 100 are printed)");
    assert_eq!(messages[100].at, None);
}

#[test]
fn a_text_over_the_source_limit_is_refused_as_animc_refuses_the_file() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("big.anim");
    let text = " ".repeat(animkit_vm::engine::limits::MAX_SOURCE_BYTES as usize + 1);
    std::fs::write(&path, &text).expect("written");
    let messages = compiles_as_animc("sprite", &path, &text).expect_err("refused");
    assert_eq!(messages.len(), 1);
    assert_eq!(
        messages[0].message,
        format!("`{}` is 67108865 bytes, more than the 67108864 bytes (64 MiB) a source may have", path.display())
    );
    formats_as_animc("sprite", &text);
}

#[test]
fn an_unknown_language_gets_animc_s_words() {
    let messages = compile("draw", "a.draw", "frame\n").expect_err("refused");
    assert_eq!(messages[0].message, "unknown language `draw` (expected sprite, animator, slap)");
    assert_eq!(messages[0].severity, Severity::Error);
    assert_eq!(
        format("anim", "A: 5, _loop\n").expect_err("refused")[0].message,
        messages[0].message.replace("draw", "anim")
    );
}

#[test]
fn positions_count_characters_and_end_past_the_span() {
    let messages = compile("sprite", "hero.anim", "Idle: 15, _loop\nAttack: 5, Idel\n").expect_err("fails");
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert_eq!(messages[0].message, "unknown state `Idel`");
    let at = messages[0].at.as_ref().expect("a place");
    assert_eq!((at.file.as_deref(), at.line, at.column, at.end_line, at.end_column), (None, 2, 12, 2, 16));
}
