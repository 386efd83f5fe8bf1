//! What `animvm` does with its parsed arguments: it loads the program,
//! picks the module to run and hands it to its language's [`Host`]
//! ([`AnimatorHost`], [`SpriteHost`], [`SlapHost`]), which builds its own
//! options from the command line ([`Host::options`]). A language reaches
//! its host through one table, `HOSTS` (a row per host, in the language
//! table's order, checked when the crate compiles): the dispatch, the
//! preference order, `--trace` and the options table all read it.
//!
//! Without the feature `desktop` (the web player's build) the table is
//! here without its `launch` column: the module choice, the preference,
//! what traces, the options refused and [`trace`] are the web player's
//! too.

// Without `desktop`, `main` and the launch column are left out.
#![cfg_attr(not(feature = "desktop"), allow(unused_imports))]

use crate::Error;
use crate::animator::{self, AnimatorHost, AnimatorInput};
use crate::cli::{Args, Target, check_options, parse, usage};
use crate::host::{Host, Io};
use crate::load::load_program_with;
use crate::slap::SlapHost;
use crate::sprite::SpriteHost;
use animkit_vm::engine::program::{Language, Program};
use animkit_vm::engine::verify::Verified;
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
#[cfg(feature = "desktop")]
pub fn main(args: &[String], stdin: &mut dyn Read, stdout: &mut dyn Write, stderr: &mut dyn Write) -> i32 {
    let args = match parse(args) {
        Ok(a) => a,
        Err(e) => {
            let _ = write!(stderr, "animvm: {e}\nTry `animvm -h` for help.\n");
            return 1;
        }
    };
    if args.help {
        // Help that cannot be written is an error, not a silent success.
        if let Err(e) = stdout.write_all(usage().as_bytes()).and_then(|_| stdout.flush()) {
            let _ = writeln!(stderr, "animvm: cannot write to standard output: {e}");
            return 1;
        }
        return 0;
    }
    match dispatch(&args, stdin, stdout, stderr) {
        Ok(0) => 0,
        Ok(_) => 1,
        Err(e) => {
            let _ = stderr.write_all(e.report().as_bytes());
            1
        }
    }
}

/// Runs what the arguments ask for; returns the number of errors reported
/// along the way (the exit status is 1 when there were any).
#[cfg(feature = "desktop")]
fn dispatch(args: &Args, stdin: &mut dyn Read, stdout: &mut dyn Write, stderr: &mut dyn Write) -> Result<usize, Error> {
    let Some(file) = args.file.as_deref() else {
        if args.trace {
            return Err(Error::Usage("--trace needs a FILE (a bundle, or a .anim or .slap source)".into()));
        }
        if args.watch {
            return Err(Error::Usage("--watch needs a FILE (standard input cannot be read again)".into()));
        }
        check_options(args, Target::Stream, "standard input")?;
        let options = AnimatorHost::options(args)?;
        return animator::run(&options, AnimatorInput::Stdin, stdin, stderr);
    };
    let options = animkit_compiler::Options { strict: args.strict, ..animkit_compiler::Options::default() };
    let program = load_program_with(file, stderr, &options).map_err(Error::Load)?;
    let (index, language) = if args.trace {
        // A module no host traces goes to the fallback host (sprites),
        // which says what is missing.
        match pick_traced(&program, args.module.as_deref())? {
            Some(index) => (index, program.modules[index].language),
            None => (0, TRACE_FALLBACK),
        }
    } else {
        pick_module(&program, args.module.as_deref())?
    };
    // A trace of a program with no module to trace (an Animator script)
    // is checked as what the file runs: `--trace` itself is refused then.
    let runs = if language == TRACE_FALLBACK && !program.modules.iter().any(|m| m.language == TRACE_FALLBACK) {
        pick_module(&program, args.module.as_deref()).map_or(language, |(_, l)| l)
    } else {
        language
    };
    check_options(args, host(runs).target, file)?;
    let io = Io { stdin, stdout, stderr };
    (host(language).launch)(args, program, index, io)
}

/// Builds `H`'s options and runs module `index` of `program` on it.
#[cfg(feature = "desktop")]
fn launch<H: Host>(args: &Args, program: Verified<Program>, index: usize, io: Io<'_>) -> Result<usize, Error> {
    let options = H::options(args)?;
    H::run(&options, program, index, io)
}

/// One language's host as `animvm` reaches it.
struct HostRow {
    /// [`Host::LANGUAGE`].
    language: Language,
    /// [`Host::PREFERENCE`], [`Host::TRACES`] and [`Host::WORD`].
    info: HostInfo,
    /// [`Host::TRACE_FALLBACK`].
    trace_fallback: bool,
    /// [`Host::TARGET`].
    target: Target,
    /// `launch::<H>`: builds the host's options and runs a module on it.
    #[cfg(feature = "desktop")]
    launch: fn(&Args, Verified<Program>, usize, Io<'_>) -> Result<usize, Error>,
    /// `trace_with::<H>`: builds the host's options and traces a module
    /// ([`Host::trace`]).
    trace: TraceFn,
}

/// A row's `trace` column.
type TraceFn = fn(&Args, Verified<Program>, usize, &mut dyn Write, &mut dyn Write) -> Result<(), Error>;

/// Builds `H`'s options and traces module `index` of `program` on it.
fn trace_with<H: Host>(
    args: &Args,
    program: Verified<Program>,
    index: usize,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<(), Error> {
    let options = H::options(args)?;
    H::trace(&options, program, index, stdout, stderr)
}

const fn row<H: Host>() -> HostRow {
    HostRow {
        language: H::LANGUAGE,
        info: HostInfo { preference: H::PREFERENCE, traces: H::TRACES, word: H::WORD },
        trace_fallback: H::TRACE_FALLBACK,
        target: H::TARGET,
        #[cfg(feature = "desktop")]
        launch: launch::<H>,
        trace: trace_with::<H>,
    }
}

/// Every host, one per language, in the order of the language table
/// ([`Language::ALL`]): the one place a language is matched to its host.
static HOSTS: [HostRow; Language::ALL.len()] = [row::<SpriteHost>(), row::<AnimatorHost>(), row::<SlapHost>()];

// Row `i` is the host of language `i`, so [`host`] indexes the table: a
// language added to the table without its host, or a row out of order,
// does not compile.
const _: () = {
    let mut i = 0;
    while i < HOSTS.len() {
        assert!(HOSTS[i].language as usize == i);
        i += 1;
    }
};

/// The language of the one host whose row says [`Host::TRACE_FALLBACK`]
/// (sprites): where `--trace` goes when it picks no module of another
/// traced language. No such host, or two, does not compile.
const TRACE_FALLBACK: Language = {
    let mut found = None;
    let mut i = 0;
    while i < HOSTS.len() {
        if HOSTS[i].trace_fallback {
            assert!(found.is_none(), "two hosts are --trace's fallback");
            found = Some(HOSTS[i].language);
        }
        i += 1;
    }
    match found {
        Some(language) => language,
        None => panic!("no host is --trace's fallback"),
    }
};

/// The row of `language`'s host.
fn host(language: Language) -> &'static HostRow {
    &HOSTS[language as usize]
}

/// What `animvm` knows of a language's host: where it comes when no
/// `--module` is given, whether `--trace` traces it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostInfo {
    /// [`Host::PREFERENCE`].
    pub preference: u8,
    /// [`Host::TRACES`].
    pub traces: bool,
    /// [`Host::WORD`]: how a message names the language.
    pub word: &'static str,
}

/// What `animvm` knows of `language`'s host (its row of `HOSTS`).
///
/// ```
/// use animkit_runtime::run::host_of;
/// use animkit_vm::engine::program::Language;
/// assert!(host_of(Language::Slap).traces && !host_of(Language::Animator).traces);
/// assert_eq!(Language::ALL.map(|l| host_of(l).word), ["sprite", "Animator", "SLAP"]);
/// ```
pub fn host_of(language: Language) -> HostInfo {
    host(language).info
}

/// The languages in the order a program's modules are preferred when no
/// `--module` is given (each host's [`Host::PREFERENCE`]): the first
/// Animator module runs if there is one, then a sprite module (the sprite
/// host asks for `--module` when there are several), then SLAP.
///
/// ```
/// use animkit_vm::engine::program::Language;
/// assert_eq!(animkit_runtime::run::preference(), [Language::Animator, Language::Sprite, Language::Slap]);
/// ```
pub fn preference() -> Vec<Language> {
    let mut languages = Language::ALL.to_vec();
    languages.sort_by_key(|&l| host_of(l).preference);
    languages
}

/// Refuses the options of one language on a module of another (the table
/// [`OPTIONS`](crate::cli::OPTIONS), by [`check_options`]): `--frames`,
/// `--start` and `--strict` are SLAP's, `--state`, `--ticks` and `--sheet`
/// the sprite host's, `-e`, `-D` and the other canvas options Animator's.
///
/// ```
/// use animkit_runtime::{cli::parse, run::refuse_foreign_options};
/// use animkit_vm::engine::program::Language;
/// let args = parse(&["--trace", "--start", "5", "hero.anim"].map(String::from)).unwrap();
/// assert_eq!(
///     refuse_foreign_options(&args, Language::Sprite, "hero.anim").unwrap_err().report(),
///     "animvm: --start is for SLAP scenes, and hero.anim runs a sprite module (its options: --state, --ticks, --sheet)\n"
/// );
/// let args = parse(&["--trace", "--start", "5", "s.slap"].map(String::from)).unwrap();
/// assert!(refuse_foreign_options(&args, Language::Slap, "s.slap").is_ok());
/// ```
pub fn refuse_foreign_options(args: &Args, language: Language, file: &str) -> Result<(), Error> {
    check_options(args, host(language).target, file)
}

/// `--trace`'s text for module `index` of `program`, by its language's
/// host ([`Host::trace`]: one fixed run, no window, no file watching), to
/// `stdout`, runtime errors to `stderr`: what the web player's `trace`
/// prints. The caller has picked the module ([`pick_traced`]), checked
/// that its host traces ([`host_of`]) and refused the other hosts'
/// options ([`refuse_foreign_options`]).
///
/// ```
/// use animkit_compiler::{Source, compile};
/// use animkit_runtime::{cli::parse, run::trace};
/// let program = compile(&[Source::new("hero.anim", "Idle: 2|blink, 1, _loop\n")], &Default::default()).unwrap();
/// let program = animkit_vm::engine::verify::verify(program).unwrap();
/// let args = parse(&["--trace", "--ticks", "2", "hero.anim"].map(String::from)).unwrap();
/// let (mut out, mut err) = (Vec::new(), Vec::new());
/// trace(&args, program, 0, &mut out, &mut err).unwrap();
/// assert_eq!(
///     String::from_utf8(out).unwrap(),
///     "{\"tick\":0,\"state\":\"Idle\",\"category\":\"Idle\",\"frame\":0,\"events\":[\"blink\"]}\n\
///      {\"tick\":1,\"state\":\"Idle\",\"category\":\"Idle\",\"frame\":0,\"events\":[]}\n"
/// );
/// ```
pub fn trace(
    args: &Args,
    program: Verified<Program>,
    index: usize,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<(), Error> {
    let language = program
        .modules
        .get(index)
        .map(|m| m.language)
        .ok_or_else(|| Error::Module(format!("no module {index} in the bundle")))?;
    (host(language).trace)(args, program, index, stdout, stderr)
}

/// What `--trace` traces: `Some(index)` of a module of a language that
/// traces other than sprites (the one `--module` names, or without it the
/// first such module of a program that has no sprite module), `None` for
/// the sprite host (which picks its own module and reports what is
/// missing).
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
pub fn pick_traced(program: &Program, module: Option<&str>) -> Result<Option<usize>, Error> {
    let modules = &program.modules;
    let traced = |l: Language| l != TRACE_FALLBACK && host_of(l).traces;
    if module.is_some() {
        let (index, language) = pick_module(program, module)?;
        return Ok(traced(language).then_some(index));
    }
    for language in preference().into_iter().filter(|&l| host_of(l).traces) {
        if let Some(i) = modules.iter().position(|m| m.language == language) {
            return Ok(traced(language).then_some(i));
        }
    }
    Ok(None)
}

/// The module to run, and its language: the one `--module` names, or the
/// first module of the first language the program has, in the order of
/// [`preference`].
///
/// ```
/// use animkit_compiler::{Source, compile};
/// use animkit_runtime::run::pick_module;
/// use animkit_vm::engine::program::Language;
/// let sources = [Source::new("hero.anim", "Idle: 5, _loop\n"), Source::new("menu.draw", "echo hi\n")];
/// let program = compile(&sources, &Default::default()).unwrap();
/// assert_eq!(pick_module(&program, None), Ok((1, Language::Animator)));
/// assert_eq!(pick_module(&program, Some("hero")), Ok((0, Language::Sprite)));
/// assert_eq!(pick_module(&program, Some("x")).unwrap_err().report(), "animvm: no module named `x` in the bundle\n");
/// ```
pub fn pick_module(program: &Program, module: Option<&str>) -> Result<(usize, Language), Error> {
    let modules = &program.modules;
    let found = match module {
        Some(name) => modules.iter().position(|m| program.string(m.name) == name),
        None => preference().into_iter().find_map(|l| modules.iter().position(|m| m.language == l)),
    };
    match (found, module) {
        (Some(i), _) => Ok((i, modules[i].language)),
        (None, Some(name)) => Err(Error::Module(format!("no module named `{name}` in the bundle"))),
        (None, None) => Err(Error::Module("the bundle has no module to run".into())),
    }
}
