//! The `animvm` command line: the original `animator`'s flags, with the
//! same meanings, plus animkit's own long options.
//!
//! ```text
//! animvm [-h] [-x N] [-y N] [-D bpp] [-k] [-e] [-a] [-d head] [-q] [-C] [-R] [-H] [-F N]
//!        [--trace --state NAME --ticks N [--module NAME]] [--frames N] [--start F] [--fps N]
//!        [--gif FILE] [--watch] [FILE]
//! ```
//!
//! Short flags follow getopt: they can be grouped (`-kH`) and take their
//! value attached or separate (`-x640`, `-x 640`).

use animkit_vm::engine::program::Language;
use std::fmt;

/// Usage text for `-h`: [`USAGE_TEMPLATE`] with the source extensions of
/// the language table.
///
/// ```
/// let usage = animkit_runtime::cli::usage();
/// assert!(usage.contains("source file (.anim, .draw, .slap). With\n"));
/// ```
pub fn usage() -> String {
    USAGE_TEMPLATE.replace("{extensions}", &Language::extensions(", "))
}

/// The usage text, `{extensions}` standing for the languages' source
/// extensions (see [`usage`]).
pub const USAGE_TEMPLATE: &str = "\
usage: animvm [OPTIONS] [FILE]

Runs an animkit bundle (.animb) or source file ({extensions}). With
no FILE, reads Animator commands from standard input as `animator` does.
Without -H the program runs in a window (DISPLAY or WAYLAND_DISPLAY must be
set); the window stays open after the input ends until it is closed
(keepalive), unless -k is given.

animator options:
  -h          display this help
  -x N        horizontal resolution (default 640)
  -y N        vertical resolution (default 480)
  -D bpp      colour depth of screendump output (16, 24 or 32; default 32)
  -k          disable keepalive: exit at end of input
  -e          enable event reporting
  -a          do not enforce the aspect ratio
  -d head     save every flushed frame as headNNNN.png
  -q          quit when Q is pressed
  -C          do not clear the screen on a new frame (the window cannot be resized)
  -R          like -C, but allow resizing (the picture stays at the top-left)
  -H          headless: no window (implies -k)
  -F N        file descriptor for screendump - (default 1)

animkit options:
  --trace            print a sprite instance's state, frame and events per tick, or a
                     SLAP scene's actors and camera per frame (JSON lines)
  --state NAME       the state the traced instance starts in
  --ticks N          how many ticks to trace or write with -d (default 100)
  --frames N         SLAP: how many frames to trace or draw headless (default: from
                     --start to the scene's length, its last time point, inclusive)
  --start F          SLAP: the first frame traced, drawn (-H) or shown (window); the scene
                     still runs from 0, so frame F is the same either way (default 0)
  --fps N            SLAP: playback speed in frames per second, in the window and in a
                     GIF (default 30); a trace does not depend on it
  --module NAME      which module of the bundle to run (default: the first Animator
                     module, else the only sprite module, else the first SLAP module;
                     --trace: a sprite module, else the first SLAP module)
  --sheet C=PNG:CxR  sprite viewer: the sheet of category C, a grid of C columns x R rows
                     (repeatable); without --trace a sprite bundle plays in the viewer:
                     in a window at 50 ticks per second (keys 1-9 pick a state,
                     Left/Right cycle, R restarts, Q or Escape quits), or with -H
                     for --ticks frames, written with -d; an Aseprite export
                     (FILE.json) plays with its own sheet
  --watch            build FILE again each time it is saved: a sprite instance keeps
                     its state, frame and ticks into it (-H and --trace then run at
                     50 ticks per second), an Animator script and a SLAP scene in
                     the player start over; a failed build prints its errors
                     and keeps the old program
  --strict           compile a SLAP source in spec-only mode, as `animc --strict` does:
                     animkit's extensions (camera lookat/follow, functions, include,
                     ...) are errors, on the first build and each --watch rebuild
  --gif FILE         with -H: write the frames as an animated GIF (SLAP scenes, Animator
                     streams and scripts at each flush, the sprite viewer's --ticks frames)
  --help             display this help

SLAP scenes play in a window at --fps: Space pauses, Left/Right step a frame back or
forward, R restarts, Q or Escape quits. With -H they are drawn headless; -d head writes
frame F as headFFFF.png.
";

/// Parsed command line.
#[derive(Clone, Debug, PartialEq)]
pub struct Args {
    /// `-x`.
    pub width: u32,
    /// `-y`.
    pub height: u32,
    /// `-D`.
    pub depth: u32,
    /// Not `-k` (and not `-H`).
    pub keepalive: bool,
    /// `-e`.
    pub events: bool,
    /// Not `-a`.
    pub aspect: bool,
    /// `-d head`.
    pub dump_head: Option<String>,
    /// `-q`.
    pub quit_on_q: bool,
    /// `-C` or `-R`.
    pub no_clear: bool,
    /// `-R`.
    pub resizable_no_clear: bool,
    /// `-H`.
    pub headless: bool,
    /// `-F`.
    pub dump_fd: i32,
    /// `--trace`.
    pub trace: bool,
    /// `--watch`.
    pub watch: bool,
    /// `--strict`: compile a SLAP source in spec-only mode.
    pub strict: bool,
    /// `--fps` (SLAP playback speed; 30 unless given).
    pub fps: f64,
    /// `--module`.
    pub module: Option<String>,
    /// `--sheet Category=sheet.png:COLSxROWS`, repeatable.
    pub sheets: Vec<String>,
    /// `--gif FILE`: an animated GIF of the frames (with `-H`).
    pub gif: Option<String>,
    /// The file to run, if any.
    pub file: Option<String>,
    /// `-h` / `--help`.
    pub help: bool,
    /// The one-language options (`--state`, `--ticks`, `--frames`,
    /// `--start`), in the order given: each host takes its own; another's
    /// never reaches it ([`check_options`] refuses it first).
    pub host_flags: Vec<HostFlag>,
    /// Every option given, as [`OPTIONS`] names it (`-x`, `--state`), in
    /// the order given: what [`check_options`] checks against the table.
    pub given: Vec<&'static str>,
}

impl Default for Args {
    fn default() -> Args {
        Args {
            width: 640,
            height: 480,
            depth: 32,
            keepalive: true,
            events: false,
            aspect: true,
            dump_head: None,
            quit_on_q: false,
            no_clear: false,
            resizable_no_clear: false,
            headless: false,
            dump_fd: 1,
            trace: false,
            watch: false,
            strict: false,
            fps: crate::host::DEFAULT_FPS,
            module: None,
            sheets: Vec::new(),
            gif: None,
            file: None,
            help: false,
            host_flags: Vec::new(),
            given: Vec::new(),
        }
    }
}

/// An option that only one language's host takes, with its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostFlag {
    /// `--state NAME` (sprite modules): the state the instance starts in.
    State(String),
    /// `--ticks N` (sprite modules): ticks traced or drawn.
    Ticks(u64),
    /// `--frames N` (SLAP scenes): frames traced or drawn.
    Frames(u64),
    /// `--start F` (SLAP scenes): the first frame traced, drawn or shown.
    Start(u64),
}

impl HostFlag {
    /// The option as written (`--state`).
    ///
    /// ```
    /// use animkit_runtime::cli::HostFlag;
    /// assert_eq!(HostFlag::Ticks(5).name(), "--ticks");
    /// ```
    pub fn name(&self) -> &'static str {
        match self {
            HostFlag::State(_) => "--state",
            HostFlag::Ticks(_) => "--ticks",
            HostFlag::Frames(_) => "--frames",
            HostFlag::Start(_) => "--start",
        }
    }
}

/// A command-line error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgError(pub String);

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn number<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T, ArgError> {
    v.trim().parse().map_err(|_| ArgError(format!("option {flag} needs a whole number, got `{v}`")))
}

/// Parses `args` (without the program name).
///
/// ```
/// use animkit_runtime::cli::parse;
/// let a = parse(&["-kHx320".into(), "-y".into(), "200".into()]).unwrap();
/// assert_eq!((a.width, a.height, a.headless, a.keepalive), (320, 200, true, false));
/// assert!(parse(&["-z".into()]).unwrap_err().0.contains("unknown option `-z`"));
/// ```
pub fn parse(args: &[String]) -> Result<Args, ArgError> {
    let mut a = Args::default();
    let mut i = 0;
    let mut positional_only = false;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if positional_only || arg == "-" || !arg.starts_with('-') {
            if a.file.is_some() {
                return Err(ArgError(format!(
                    "more than one file given (`{}` and `{arg}`)",
                    a.file.as_deref().unwrap_or("")
                )));
            }
            a.file = Some(arg.clone());
            continue;
        }
        if arg == "--" {
            positional_only = true;
            continue;
        }
        if let Some(long) = arg.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (long, None),
            };
            let mut value = |name: &str| -> Result<String, ArgError> {
                if let Some(v) = inline.clone() {
                    return Ok(v);
                }
                let v = args.get(i).cloned().ok_or_else(|| ArgError(format!("option --{name} needs a value")))?;
                i += 1;
                Ok(v)
            };
            match name {
                "help" => a.help = true,
                "trace" => a.trace = true,
                "watch" => a.watch = true,
                "strict" => a.strict = true,
                "state" => a.host_flags.push(HostFlag::State(value("state")?)),
                "ticks" => a.host_flags.push(HostFlag::Ticks(number("--ticks", &value("ticks")?)?)),
                "frames" => a.host_flags.push(HostFlag::Frames(number("--frames", &value("frames")?)?)),
                "fps" => {
                    let v = value("fps")?;
                    a.fps = v.trim().parse::<f64>().ok().filter(|f| f.is_finite() && *f > 0.0).ok_or_else(|| {
                        ArgError(format!("option --fps needs a number of frames per second above 0, got `{v}`"))
                    })?;
                }
                "module" => a.module = Some(value("module")?),
                "sheet" => a.sheets.push(value("sheet")?),
                "start" => a.host_flags.push(HostFlag::Start(number("--start", &value("start")?)?)),
                "gif" => a.gif = Some(value("gif")?),
                _ => return Err(ArgError(format!("unknown option `--{name}`"))),
            }
            a.record(&format!("--{name}"));
            continue;
        }
        // A group of short flags: -kH, -x640, -x 640.
        let flags: Vec<char> = arg[1..].chars().collect();
        let mut j = 0;
        while j < flags.len() {
            let c = flags[j];
            j += 1;
            let takes_value = matches!(c, 'x' | 'y' | 'D' | 'd' | 'F');
            let value = if takes_value {
                let rest: String = flags[j..].iter().collect();
                j = flags.len();
                if rest.is_empty() {
                    let v = args.get(i).cloned().ok_or_else(|| ArgError(format!("option -{c} needs a value")))?;
                    i += 1;
                    v
                } else {
                    rest
                }
            } else {
                String::new()
            };
            match c {
                'h' => a.help = true,
                'x' => a.width = number("-x", &value)?,
                'y' => a.height = number("-y", &value)?,
                'D' => {
                    a.depth = number("-D", &value)?;
                    if !matches!(a.depth, 16 | 24 | 32) {
                        return Err(ArgError(format!("option -D takes 16, 24 or 32 bits per pixel, got {}", a.depth)));
                    }
                }
                'k' => a.keepalive = false,
                'e' => a.events = true,
                'a' => a.aspect = false,
                'd' => a.dump_head = Some(value),
                'q' => a.quit_on_q = true,
                'C' => a.no_clear = true,
                'R' => {
                    a.no_clear = true;
                    a.resizable_no_clear = true;
                }
                'H' => {
                    a.headless = true;
                    a.keepalive = false;
                }
                'F' => a.dump_fd = number("-F", &value)?,
                other => return Err(ArgError(format!("unknown option `-{other}`"))),
            }
            a.record(&format!("-{c}"));
        }
    }
    if a.width == 0 || a.height == 0 || a.width > 16384 || a.height > 16384 {
        return Err(ArgError(format!("window size {}x{} is out of range (1..=16384)", a.width, a.height)));
    }
    Ok(a)
}

/// What `animvm` runs, as far as its options care: the options of one
/// apply to it, every other one is refused ([`check_options`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Animator commands read from standard input (no FILE).
    Stream,
    /// An Animator module of a FILE (a `.draw` source or a bundle).
    Script,
    /// A sprite module: traced, or in the viewer.
    Sprite,
    /// A SLAP scene: traced, drawn headless or played in a window.
    Slap,
}

impl Target {
    /// What a file of this target runs, as a refusal names it.
    ///
    /// ```
    /// assert_eq!(animkit_runtime::cli::Target::Slap.runs(), "a SLAP scene");
    /// ```
    pub fn runs(self) -> &'static str {
        match self {
            Target::Stream => "Animator commands",
            Target::Script => "an Animator program",
            Target::Sprite => "a sprite module",
            Target::Slap => "a SLAP scene",
        }
    }
}

use Target::{Script, Slap, Sprite, Stream};

/// One row of [`OPTIONS`]: an option as written, and what it applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionRow {
    /// The option (`-x`, `--state`).
    pub name: &'static str,
    /// What it applies to: given for anything else, it is refused.
    pub applies: &'static [Target],
    /// It shapes what is drawn (size, frames written, speed): refused
    /// with `--trace`, which draws nothing.
    pub draws: bool,
}

const ALL: &[Target] = &[Stream, Script, Sprite, Slap];
const ANIMATOR: &[Target] = &[Stream, Script];
const FILES: &[Target] = &[Script, Sprite, Slap];

/// Every option `animvm` takes, and what it applies to: the one table
/// [`check_options`] refuses another language's options by (a unit test
/// checks that every option [`parse`] accepts has its row). The
/// animator options that shape the canvas are the Animator host's; the
/// sprite host takes `--state`, `--ticks` and `--sheet`, the SLAP host
/// `--frames`, `--start` and `--strict` (a source compiled in spec-only
/// mode); `--fps` is the SLAP player's and an Animator GIF's speed.
pub const OPTIONS: &[OptionRow] = &[
    OptionRow { name: "--state", applies: &[Sprite], draws: false },
    OptionRow { name: "--ticks", applies: &[Sprite], draws: false },
    OptionRow { name: "--frames", applies: &[Slap], draws: false },
    OptionRow { name: "--start", applies: &[Slap], draws: false },
    OptionRow { name: "-h", applies: ALL, draws: false },
    OptionRow { name: "-x", applies: ALL, draws: true },
    OptionRow { name: "-y", applies: ALL, draws: true },
    OptionRow { name: "-D", applies: ANIMATOR, draws: false },
    OptionRow { name: "-k", applies: ANIMATOR, draws: false },
    OptionRow { name: "-e", applies: ANIMATOR, draws: false },
    OptionRow { name: "-a", applies: ANIMATOR, draws: false },
    OptionRow { name: "-d", applies: ALL, draws: true },
    OptionRow { name: "-q", applies: ANIMATOR, draws: false },
    OptionRow { name: "-C", applies: ANIMATOR, draws: false },
    OptionRow { name: "-R", applies: ANIMATOR, draws: false },
    OptionRow { name: "-H", applies: ALL, draws: false },
    OptionRow { name: "-F", applies: ANIMATOR, draws: false },
    OptionRow { name: "--trace", applies: &[Sprite, Slap], draws: false },
    OptionRow { name: "--fps", applies: &[Stream, Script, Slap], draws: true },
    OptionRow { name: "--module", applies: FILES, draws: false },
    OptionRow { name: "--sheet", applies: &[Sprite], draws: false },
    OptionRow { name: "--watch", applies: FILES, draws: false },
    OptionRow { name: "--strict", applies: &[Slap], draws: false },
    OptionRow { name: "--gif", applies: ALL, draws: true },
    OptionRow { name: "--help", applies: ALL, draws: false },
];

/// The row of `name` in [`OPTIONS`].
///
/// ```
/// use animkit_runtime::cli::{Target, option_row};
/// assert_eq!(option_row("--sheet").map(|r| r.applies), Some(&[Target::Sprite][..]));
/// assert_eq!(option_row("--nope"), None);
/// ```
pub fn option_row(name: &str) -> Option<&'static OptionRow> {
    OPTIONS.iter().find(|r| r.name == name)
}

impl Args {
    /// Notes that option `name` was given (an option without a row in
    /// [`OPTIONS`] is not noted; the unit tests make sure there is none).
    fn record(&mut self, name: &str) {
        if let Some(row) = option_row(name) {
            self.given.push(row.name);
        }
    }
}

/// Whom a row's options are for, as a refusal names them (`SLAP scenes`,
/// `Animator programs and SLAP scenes`).
fn owners(applies: &[Target]) -> String {
    let mut names = Vec::new();
    match (applies.contains(&Stream), applies.contains(&Script)) {
        (true, true) => names.push("Animator programs"),
        (true, false) => names.push("Animator commands on standard input"),
        (false, true) => names.push("Animator scripts"),
        (false, false) => {}
    }
    if applies.contains(&Sprite) {
        names.push("sprite modules");
    }
    if applies.contains(&Slap) {
        names.push("SLAP scenes");
    }
    match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, init)) => format!("{} and {last}", init.join(", ")),
        None => "nothing".into(),
    }
}

/// The options that only `target`'s language takes, as a refusal lists
/// them (`--frames, --start, --strict`).
///
/// ```
/// use animkit_runtime::cli::{Target, own_options};
/// assert_eq!(own_options(Target::Sprite), "--state, --ticks, --sheet");
/// assert_eq!(own_options(Target::Script), "-D, -k, -e, -a, -q, -C, -R, -F");
/// ```
pub fn own_options(target: Target) -> String {
    let language = |t: Target| if t == Stream { Script } else { t };
    let own: Vec<&str> =
        OPTIONS.iter().filter(|r| r.applies.iter().all(|&t| language(t) == language(target))).map(|r| r.name).collect();
    own.join(", ")
}

/// Refuses the first option given that does not apply to `target`
/// ([`OPTIONS`]): `file` is what runs (`standard input` for a stream).
/// The one place another language's options are refused.
///
/// ```
/// use animkit_runtime::cli::{Target, check_options, parse};
/// let args = parse(&["--trace", "--sheet", "W=w.png:2x1", "s.slap"].map(String::from)).unwrap();
/// assert_eq!(
///     check_options(&args, Target::Slap, "s.slap").unwrap_err().report(),
///     "animvm: --sheet is for sprite modules, and s.slap runs a SLAP scene \
///      (its options: --frames, --start, --strict)\n"
/// );
/// assert!(check_options(&args, Target::Sprite, "h.anim").is_ok());
/// ```
pub fn check_options(args: &Args, target: Target, file: &str) -> Result<(), crate::Error> {
    for &name in &args.given {
        check_option(name, target, file, args.trace)?;
    }
    Ok(())
}

/// Refuses option `name` when it does not apply to `target` (another
/// language's, [`OPTIONS`]) or draws and the run is a trace
/// ([`OptionRow::draws`]); an option without a row passes. What
/// [`check_options`] checks each option with, and what the web player's
/// trace checks its options with.
///
/// ```
/// use animkit_runtime::cli::{Target, check_option};
/// assert_eq!(
///     check_option("--frames", Target::Sprite, "h.anim", true).unwrap_err().report(),
///     "animvm: --frames is for SLAP scenes, and h.anim runs a sprite module (its options: --state, --ticks, --sheet)\n"
/// );
/// assert_eq!(
///     check_option("-x", Target::Slap, "s.slap", true).unwrap_err().report(),
///     "animvm: -x shapes what is drawn, and --trace draws nothing: leave one of them out\n"
/// );
/// assert!(check_option("-x", Target::Slap, "s.slap", false).is_ok());
/// ```
pub fn check_option(name: &str, target: Target, file: &str, trace: bool) -> Result<(), crate::Error> {
    let Some(row) = option_row(name) else { return Ok(()) };
    if !row.applies.contains(&target) {
        return Err(crate::Error::ForeignOption {
            option: row.name,
            owner: owners(row.applies),
            file: file.to_string(),
            runs: target.runs(),
            ours: own_options(target),
        });
    }
    if trace && row.draws {
        return Err(crate::Error::Usage(format!(
            "{} shapes what is drawn, and --trace draws nothing: leave one of them out",
            row.name
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The options the usage text lists (`-x`, `--state`): its lines
    /// that start with an option (an entry, not a continuation).
    fn usage_options() -> Vec<String> {
        USAGE_TEMPLATE
            .lines()
            .filter(|l| l.starts_with("  -"))
            .filter_map(|l| l.split_whitespace().next())
            .map(String::from)
            .collect()
    }

    #[test]
    fn every_option_the_parser_takes_has_a_row() {
        // Every short letter the parser accepts.
        for c in ('a'..='z').chain('A'..='Z') {
            let flag = format!("-{c}");
            if let Some(args) = ["1", "16"].iter().find_map(|v| parse(&[flag.clone(), v.to_string()]).ok()) {
                assert!(args.given.contains(&flag.as_str()), "-{c} is accepted but has no row in OPTIONS");
            }
        }
        // Every long option of the usage text, given a value that parses.
        let usage = usage_options();
        for name in usage.iter().filter(|n| n.starts_with("--")) {
            let args = parse(&[name.clone(), "1".into()])
                .or_else(|_| parse(std::slice::from_ref(name)))
                .unwrap_or_else(|e| panic!("{name} from the usage does not parse: {e}"));
            assert!(args.given.contains(&name.as_str()), "{name} is accepted but has no row in OPTIONS");
        }
        // And every row is an option the usage lists and the parser takes.
        for row in OPTIONS {
            assert!(usage.iter().any(|n| n == row.name), "{} is not in the usage", row.name);
        }
        assert_eq!(OPTIONS.len(), usage.len(), "{usage:?}");
    }

    #[test]
    fn one_languages_options_are_refused_on_every_other() {
        for row in OPTIONS {
            for target in [Stream, Script, Sprite, Slap] {
                let args = Args { given: vec![row.name], ..Args::default() };
                let checked = check_options(&args, target, "f");
                assert_eq!(checked.is_ok(), row.applies.contains(&target), "{} on {target:?}", row.name);
            }
        }
        let args = parse(&["--ticks", "3"].map(String::from)).unwrap();
        assert_eq!(
            check_options(&args, Stream, "standard input").unwrap_err().to_string(),
            "--ticks is for sprite modules, and standard input runs Animator commands \
             (its options: -D, -k, -e, -a, -q, -C, -R, -F)"
        );
        let args = parse(&["-e".to_string()]).unwrap();
        assert_eq!(
            check_options(&args, Slap, "s.slap").unwrap_err().to_string(),
            "-e is for Animator programs, and s.slap runs a SLAP scene (its options: --frames, --start, --strict)"
        );
        let args = parse(&["--fps".to_string(), "5".into()]).unwrap();
        assert_eq!(
            check_options(&args, Sprite, "h.anim").unwrap_err().to_string(),
            "--fps is for Animator programs and SLAP scenes, and h.anim runs a sprite module \
             (its options: --state, --ticks, --sheet)"
        );
    }
}
