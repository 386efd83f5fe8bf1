//! What `animvm` does with its parsed arguments: it loads the program,
//! picks the module to run and hands it to its language's host
//! ([`animator`], [`sprite`], [`slap`](crate::slap)), each with its own
//! options gathered from the command line here. No host sees [`Args`].

use crate::animator::{self, AnimatorOptions, CanvasOptions, Source};
use crate::cli::{Args, USAGE, parse};
use crate::load::load_program_to;
use crate::slap::SlapOptions;
use crate::sprite::{self, SpriteOptions};
use animkit_vm::program::{Language, Program};
use std::io::{Read, Write};

/// Runs `animvm` with `args` (without the program name); returns the exit
/// status.
///
/// Headless runs (`-H`) read Animator commands from `stdin`. The window
/// host reads the process's standard input itself, on a thread of its own,
/// so `stdin` must not be a locked `std::io::Stdin` when a window may open
/// (the `animvm` binary passes `std::io::stdin()` unlocked).
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
    match dispatch(&args, stdin, stdout, stderr) {
        Ok(0) => 0,
        Ok(_) => 1,
        Err(message) => {
            let _ = stderr.write_all(message.as_bytes());
            1
        }
    }
}

/// Runs what the arguments ask for; returns the number of errors reported
/// along the way (the exit status is 1 when there were any).
fn dispatch(
    args: &Args,
    stdin: &mut dyn Read,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<usize, String> {
    if args.trace {
        let file =
            args.file.as_deref().ok_or("animvm: --trace needs a FILE (a bundle, or a .anim or .slap source)\n")?;
        let program = load_program_to(file, stderr)?;
        return match pick_traced(&program, args.module.as_deref())? {
            Some(index) => {
                refuse_foreign_options(args, Language::Slap, file)?;
                crate::slap::run(&slap_options(args), program, index, stdout, stderr)
            }
            None => {
                refuse_foreign_options(args, Language::Sprite, file)?;
                sprite::run(&sprite_options(args), program, stdout, stderr)
            }
        };
    }
    let Some(file) = args.file.as_deref() else {
        if args.watch {
            return Err("animvm: --watch needs a FILE (standard input cannot be read again)\n".into());
        }
        return animator::run(&animator_options(args), Source::Stdin, stdin, stderr);
    };
    let program = load_program_to(file, stderr)?;
    let (index, language) = pick_module(&program, args.module.as_deref())?;
    refuse_foreign_options(args, language, file)?;
    match language {
        Language::Animator => animator::run(&animator_options(args), Source::Script(program, index), stdin, stderr),
        Language::Sprite => sprite::run(&sprite_options(args), program, stdout, stderr),
        Language::Slap => crate::slap::run(&slap_options(args), program, index, stdout, stderr),
    }
}

/// Refuses the options of one language on a module of another: `--frames`
/// and `--start` are SLAP's, `--state` and `--ticks` the sprite host's.
///
/// ```
/// use animkit_runtime::{cli::parse, run::refuse_foreign_options};
/// use animkit_vm::program::Language;
/// let args = parse(&["--trace", "--start", "5", "hero.anim"].map(String::from)).unwrap();
/// assert_eq!(
///     refuse_foreign_options(&args, Language::Sprite, "hero.anim").unwrap_err(),
///     "animvm: --start is for SLAP scenes, and hero.anim runs a sprite module (its options: --state, --ticks)\n"
/// );
/// assert!(refuse_foreign_options(&args, Language::Slap, "s.slap").is_ok());
/// ```
pub fn refuse_foreign_options(args: &Args, language: Language, file: &str) -> Result<(), String> {
    let (theirs, owner, what, ours): (&[&str], _, _, _) = match language {
        Language::Sprite => (&["--frames", "--start"], "SLAP scenes", "a sprite module", "--state, --ticks"),
        Language::Slap => (&["--state", "--ticks"], "sprite modules", "a SLAP scene", "--frames, --start"),
        Language::Animator => return Ok(()),
    };
    match args.language_options.iter().find(|o| theirs.contains(o)) {
        Some(o) => Err(format!("animvm: {o} is for {owner}, and {file} runs {what} (its options: {ours})\n")),
        None => Ok(()),
    }
}

/// What `--trace` traces: `Some(index)` of a SLAP module (the one
/// `--module` names, or without it the first SLAP module of a program that
/// has no sprite module), `None` for the sprite host (which picks its own
/// module and reports what is missing).
///
/// ```
/// use animkit_compiler::{Source, compile};
/// use animkit_runtime::run::pick_traced;
/// let sources = [Source::new("hero.anim", "Idle: 5, _loop\n"), Source::new("walk.slap", "time 1\n")];
/// let program = compile(&sources, &Default::default()).unwrap();
/// assert_eq!(pick_traced(&program, None), Ok(None));
/// assert_eq!(pick_traced(&program, Some("walk")), Ok(Some(1)));
/// let program = compile(&sources[1..], &Default::default()).unwrap();
/// assert_eq!(pick_traced(&program, None), Ok(Some(0)));
/// ```
pub fn pick_traced(program: &Program, module: Option<&str>) -> Result<Option<usize>, String> {
    let modules = &program.modules;
    if module.is_some() {
        let (index, language) = pick_module(program, module)?;
        return Ok((language == Language::Slap).then_some(index));
    }
    if modules.iter().any(|m| m.language == Language::Sprite) {
        return Ok(None);
    }
    Ok(modules.iter().position(|m| m.language == Language::Slap))
}

/// The order in which a program's languages are preferred when no
/// `--module` is given: the first Animator module runs if there is one,
/// then a sprite module (the sprite host asks for `--module` when there are
/// several), then SLAP.
const PREFERENCE: [Language; 3] = [Language::Animator, Language::Sprite, Language::Slap];

/// The module to run, and its language: the one `--module` names, or the
/// first module of the first language the program has, in the order
/// Animator, sprite, SLAP.
///
/// ```
/// use animkit_compiler::{Source, compile};
/// use animkit_runtime::run::pick_module;
/// use animkit_vm::program::Language;
/// let sources = [Source::new("hero.anim", "Idle: 5, _loop\n"), Source::new("menu.draw", "echo hi\n")];
/// let program = compile(&sources, &Default::default()).unwrap();
/// assert_eq!(pick_module(&program, None), Ok((1, Language::Animator)));
/// assert_eq!(pick_module(&program, Some("hero")), Ok((0, Language::Sprite)));
/// assert_eq!(pick_module(&program, Some("x")).unwrap_err(), "animvm: no module named `x` in the bundle\n");
/// ```
pub fn pick_module(program: &Program, module: Option<&str>) -> Result<(usize, Language), String> {
    let modules = &program.modules;
    let found = match module {
        Some(name) => modules.iter().position(|m| program.string(m.name) == name),
        None => PREFERENCE.iter().find_map(|&l| modules.iter().position(|m| m.language == l)),
    };
    match (found, module) {
        (Some(i), _) => Ok((i, modules[i].language)),
        (None, Some(name)) => Err(format!("animvm: no module named `{name}` in the bundle\n")),
        (None, None) => Err("animvm: the bundle has no module to run\n".into()),
    }
}

/// The Animator host's options on an `animvm` command line.
///
/// ```
/// use animkit_runtime::{cli::parse, run::animator_options};
/// let o = animator_options(&parse(&["-e".into(), "-x".into(), "320".into()]).unwrap());
/// assert_eq!((o.width, o.canvas.events, o.keepalive, o.resizable), (320, true, true, true));
/// // -C: frames are not cleared, so the picture could not be redrawn at
/// // another size; -R keeps the frame and allows resizing (the picture
/// // stays anchored at the top-left corner).
/// assert!(!animator_options(&parse(&["-C".into()]).unwrap()).resizable);
/// assert!(animator_options(&parse(&["-R".into()]).unwrap()).resizable);
/// ```
pub fn animator_options(args: &Args) -> AnimatorOptions {
    AnimatorOptions {
        width: args.width,
        height: args.height,
        canvas: CanvasOptions {
            aspect: args.aspect,
            no_clear: args.no_clear,
            depth: args.depth,
            dump_fd: args.dump_fd,
            dump_head: args.dump_head.clone(),
            events: args.events,
            gif: args.gif.clone(),
            fps: args.fps,
            suspend_waits: false,
        },
        headless: args.headless,
        keepalive: args.keepalive,
        quit_on_q: args.quit_on_q,
        resizable: !args.no_clear || args.resizable_no_clear,
        watch: args.file.clone().filter(|_| args.watch),
    }
}

/// The SLAP host's options on an `animvm` command line.
///
/// ```
/// use animkit_runtime::{cli::parse, run::slap_options};
/// let o = slap_options(&parse(&["--trace".into(), "--frames".into(), "5".into(), "--fps".into(), "60".into()]).unwrap());
/// assert_eq!((o.trace, o.frames, o.fps), (true, Some(5), 60.0));
/// let args = ["-H", "--gif", "s.gif", "--start", "30", "s.slap"].map(String::from);
/// let o = slap_options(&parse(&args).unwrap());
/// assert_eq!((o.headless, o.gif.as_deref(), o.start, o.file.as_str()), (true, Some("s.gif"), 30, "s.slap"));
/// ```
pub fn slap_options(args: &Args) -> SlapOptions {
    SlapOptions {
        trace: args.trace,
        frames: args.frames,
        fps: args.fps,
        file: args.file.clone().unwrap_or_default(),
        headless: args.headless,
        width: args.width,
        height: args.height,
        dump_head: args.dump_head.clone(),
        gif: args.gif.clone(),
        start: args.start,
        watch: args.watch,
    }
}

/// The sprite host's options on an `animvm` command line.
///
/// ```
/// use animkit_runtime::{cli::parse, run::sprite_options};
/// let o = sprite_options(&parse(&["--trace".into(), "--ticks".into(), "5".into(), "hero.anim".into()]).unwrap());
/// assert_eq!((o.trace, o.ticks, o.file.as_str()), (true, 5, "hero.anim"));
/// ```
pub fn sprite_options(args: &Args) -> SpriteOptions {
    SpriteOptions {
        file: args.file.clone().unwrap_or_default(),
        module: args.module.clone(),
        state: args.state.clone(),
        ticks: args.ticks,
        trace: args.trace,
        headless: args.headless,
        width: args.width,
        height: args.height,
        dump_head: args.dump_head.clone(),
        gif: args.gif.clone(),
        sheets: args.sheets.clone(),
        watch: args.watch,
    }
}
