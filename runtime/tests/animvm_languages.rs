//! `animvm FILE` picks the module to run and hands it to its language's
//! host: the first Animator module by default, the one `--module` names
//! whatever its language, and never the sprite viewer for a module of
//! another language (a SLAP module goes to the SLAP host; what it draws
//! is `animvm_slap_frames.rs`'s).

use animkit_compiler::{Options, Source, compile};
use animkit_vm::engine::codec;
use animkit_vm::engine::isa::{Insn, Op};
use animkit_vm::engine::program::{Function, Language, Module, Program};
use std::path::Path;
use std::process::Command;

fn animvm(args: &[&str], dir: &Path) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_animvm"))
        .args(args)
        .current_dir(dir)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// A verified bundle with one SLAP module whose entry function halts.
fn slap_bundle() -> Vec<u8> {
    let program = Program {
        strings: vec!["stage".into(), "main".into()],
        modules: vec![Module {
            name: 0,
            language: Language::Slap,
            functions: vec![Function {
                name: 1,
                nregs: 1,
                code: vec![Insn::abc(Op::Halt, 0, 0, 0)],
                ..Function::default()
            }],
            states: vec![],
            entry: Some(0),
            source: None,
        }],
    };
    let bytes = codec::encode(&program);
    codec::load(&bytes).expect("the SLAP bundle verifies");
    bytes
}

#[test]
fn a_slap_module_goes_to_the_slap_host_headless_and_windowed() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("stage.animb"), slap_bundle()).unwrap();
    for args in [&["-H", "--frames", "2", "-d", "f/s", "stage.animb"][..], &["--module", "stage", "-H", "stage.animb"]]
    {
        assert_eq!(animvm(args, dir.path()), (0, String::new(), String::new()), "{args:?}");
    }
    assert!(dir.path().join("f/s0001.png").is_file() && !dir.path().join("f/s0002.png").exists());
    // Without -H it needs a display, like every window.
    let (status, out, err) = animvm(&["stage.animb"], dir.path());
    assert_eq!(
        (status, out.as_str(), err.as_str()),
        (
            1,
            "",
            "animvm: no display to open a window on (neither DISPLAY nor WAYLAND_DISPLAY is set); \
             run with -H for headless mode (no window; use screenshot or -d for output)\n"
        )
    );
    assert_eq!(err, format!("animvm: {}\n", animkit_runtime::host::window_loop::NO_DISPLAY));
}

#[test]
fn the_module_is_picked_by_name_or_by_language() {
    let dir = tempfile::tempdir().unwrap();
    let sources = [Source::new("hero.anim", "Walk: 1, 1, _loop\n"), Source::new("menu.draw", "echo menu\n")];
    let program = compile(&sources, &Options::default()).unwrap();
    std::fs::write(dir.path().join("both.animb"), codec::encode(&program)).unwrap();
    // No --module: the Animator module runs.
    assert_eq!(animvm(&["-H", "both.animb"], dir.path()), (0, "menu\n".into(), String::new()));
    assert_eq!(animvm(&["-H", "--module", "menu", "both.animb"], dir.path()), (0, "menu\n".into(), String::new()));
    // --module names the sprite module: the sprite viewer plays it (and
    // writes its frames), the Animator module does not run.
    let (status, out, err) = animvm(&["-H", "--module", "hero", "--ticks", "2", "-d", "f/v", "both.animb"], dir.path());
    assert_eq!((status, out.as_str(), err.as_str()), (0, "", ""));
    assert!(dir.path().join("f/v0001.png").is_file());
    assert_eq!(
        animvm(&["-H", "--module", "nope", "both.animb"], dir.path()),
        (1, String::new(), "animvm: no module named `nope` in the bundle\n".into())
    );
    // --trace is the sprite host's, whatever else the bundle holds.
    let (status, out, _) = animvm(&["--trace", "--ticks", "1", "both.animb"], dir.path());
    assert_eq!(
        (status, out.as_str()),
        (0, "{\"tick\":0,\"state\":\"Walk\",\"category\":\"Walk\",\"frame\":0,\"events\":[]}\n")
    );
}
