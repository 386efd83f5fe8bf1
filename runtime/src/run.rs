//! What `animvm` does with its parsed arguments.

use crate::cli::{Args, USAGE, parse};
use crate::load::load_program;
use crate::trace;
use animkit_vm::program::Language;
use animkit_vm::sprite::Sprites;
use std::io::{Read, Write};
use std::sync::Arc;

/// Runs `animvm` with `args` (without the program name); returns the exit
/// status.
///
/// ```
/// let (mut out, mut err) = (Vec::new(), Vec::new());
/// let status = animkit_runtime::run::main(&["-h".into()], &mut std::io::empty(), &mut out, &mut err);
/// assert_eq!(status, 0);
/// assert!(String::from_utf8(out).unwrap().starts_with("usage: animvm"));
/// ```
pub fn main(args: &[String], stdin: &mut dyn Read, stdout: &mut dyn Write, stderr: &mut dyn Write) -> i32 {
    let args = match parse(args) {
        Ok(a) => a,
        Err(e) => {
            let _ = write!(stderr, "animvm: {e}\nTry `animvm -h` for help.\n");
            return 1;
        }
    };
    if args.help {
        let _ = stdout.write_all(USAGE.as_bytes());
        return 0;
    }
    let _ = stdin;
    match dispatch(&args, stdout) {
        Ok(()) => 0,
        Err(message) => {
            let _ = stderr.write_all(message.as_bytes());
            1
        }
    }
}

fn dispatch(args: &Args, stdout: &mut dyn Write) -> Result<(), String> {
    if args.trace {
        return run_trace(args, stdout);
    }
    Err("animvm: running Animator programs is not implemented in this build yet; use --trace for sprite bundles\n"
        .into())
}

fn run_trace(args: &Args, stdout: &mut dyn Write) -> Result<(), String> {
    let file = args.file.as_deref().ok_or("animvm: --trace needs a FILE (a bundle or a .anim source)\n")?;
    let program = Arc::new(load_program(file)?);
    let sprite_modules: Vec<&str> =
        program.modules.iter().filter(|m| m.language == Language::Sprite).map(|m| program.string(m.name)).collect();
    let name = match (&args.module, sprite_modules.as_slice()) {
        (Some(m), _) => m.clone(),
        (None, [one]) => one.to_string(),
        (None, []) => return Err(format!("animvm: `{file}` has no sprite module to trace\n")),
        (None, many) => {
            return Err(format!(
                "animvm: `{file}` has several sprite modules ({}); choose one with --module\n",
                many.join(", ")
            ));
        }
    };
    let sprites = Sprites::new(program.clone(), &name).map_err(|e| format!("animvm: {e}\n"))?;
    let state = match &args.state {
        Some(s) => s.clone(),
        None => sprites.state_name(0).to_string(),
    };
    let mut inst = sprites.instance(&state).map_err(|e| {
        let names: Vec<&str> = (0..sprites.state_count()).map(|i| sprites.state_name(i as u16)).collect();
        format!("animvm: {e}; the states are: {}\n", names.join(", "))
    })?;
    let mut out = std::io::BufWriter::new(stdout);
    for t in 0..args.ticks {
        inst.tick();
        trace::write_line(&mut out, t, &mut inst).map_err(|e| format!("animvm: cannot write the trace: {e}\n"))?;
    }
    out.flush().map_err(|e| format!("animvm: cannot write the trace: {e}\n"))
}
