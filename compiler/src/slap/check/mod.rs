//! Checks a parsed SLAP file and evaluates it to a [`SceneIr`].
//!
//! The checker walks the lines in source order, keeping what SLAP's
//! semantics need at each line: the defines known so far (each holding
//! numbers, evaluated when the define is read), the current time (the
//! unrounded value of the last time directive) and the actors named so
//! far. Every error of the file is reported, in source order, beside the
//! one warning SLAP has (an absolute `time` earlier than the current one).
//! The errors and their wording are listed in `docs/slap.md`
//! §Language.
//!
//! A value that could not be computed (an undefined name, a division by
//! zero, a line that did not parse) is *unknown*: whatever depends on it
//! (a define holding it, the time after a bad `time`) is unknown too and
//! draws no further error, so one mistake is reported once.

mod actors;
mod args;
mod camera;
mod defines;
mod eval;
mod functions;
mod includes;
mod seeded;
mod time;
mod timeline;
use super::include::Loaded;
use super::ir::{Command, Kind, SceneIr, Step, Timeline};
use crate::diagnostic::Diagnostic;
use crate::suggest::{SUGGEST_BUDGET, closest};
use animkit_grammar::Span;
use animkit_grammar::kept::MAX_KEPT_ERRORS;
use animkit_grammar::slap::ast::{self, Line};
use animkit_vm::engine::limits;
use seeded::Seeded;
use std::collections::{HashMap, HashSet};

/// The five directives.
pub const DIRECTIVES: [&str; 5] = ["define", "time", "timep", "actor", "camera"];
/// The actor attributes.
pub const ACTOR_ATTRIBUTES: [&str; 5] = ["action", "direction", "position", "color", "size"];
/// The camera attributes (`lookat` and `follow` are animkit extensions).
pub const CAMERA_ATTRIBUTES: [&str; 5] = ["position", "direction", "lookat", "follow", "move"];
/// The twelve actions, by number.
pub const ACTIONS: [&str; 12] =
    ["idle", "scamper", "swagger", "broadjump", "prowl", "lumber", "dejected", "no", "yes", "hotfeet", "sprint", "hop"];

/// The resource limits the checker enforces; [`Default`] gives the
/// project's ([`animkit_vm::engine::limits`]). Tests lower them to reach them with
/// small files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlapLimits {
    /// Most distinct actor ids.
    pub actors: usize,
    /// Most distinct define names.
    pub defines: usize,
    /// Most values in one define.
    pub define_values: usize,
    /// Most time directives.
    pub time_points: usize,
    /// The largest frame.
    pub frame: u32,
    /// Most numbers in the arithmetic of all commands (the constants the
    /// lowering needs with folding off).
    pub constants: usize,
    /// Spec-only mode (`animc --strict`): every animkit extension is an
    /// error ("`camera lookat` is an animkit extension, refused by
    /// --strict"). Not a limit, but a setting of the same check.
    pub strict: bool,
}

impl Default for SlapLimits {
    fn default() -> SlapLimits {
        SlapLimits {
            actors: limits::MAX_SLAP_ACTORS,
            defines: limits::MAX_SLAP_DEFINES,
            define_values: limits::MAX_SLAP_DEFINE_VALUES,
            time_points: limits::MAX_SLAP_TIME_POINTS,
            frame: limits::MAX_SLAP_FRAME,
            constants: limits::MAX_SLAP_CONSTANTS,
            strict: false,
        }
    }
}

/// A checked scene and the warnings it drew.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckedScene {
    /// The scene.
    pub ir: SceneIr,
    /// Warnings (the compile goes on), in source order.
    pub warnings: Vec<Diagnostic>,
}

/// Checks `file` with the default limits: the IR and its warnings, or
/// every error and warning in source order.
///
/// ```
/// use animkit_compiler::slap::check::check;
/// let (file, _) = animkit_grammar::slap::parse("define PI 3.1416\ntime +10\nactor 1 direction -PI/2\n");
/// let scene = check(&file).unwrap().ir;
/// assert_eq!(scene.length, 10);
/// assert_eq!(scene.commands[0].frame, 10);
/// ```
pub fn check(file: &ast::File<'_>) -> Result<CheckedScene, Vec<Diagnostic>> {
    check_with(file, &SlapLimits::default())
}

/// [`check`] with the given limits.
pub fn check_with(file: &ast::File<'_>, limits: &SlapLimits) -> Result<CheckedScene, Vec<Diagnostic>> {
    let loaded = Loaded::default();
    let mut c = Checker::new(vec![Text::Parsed(file)], &loaded, *limits);
    c.walk(0);
    c.finish()
}

/// Checks the scene `text` and the files it includes (`loaded`, from
/// [`crate::slap::include::load`]), reading each file one line at a time:
/// a line is parsed, checked and dropped before the next is read, so what
/// the check holds is the scene's IR, not its tree. Syntax errors are
/// reported in source order with the rest, as [`check`] on a parsed file
/// with its syntax errors would.
pub fn check_scene(text: &str, loaded: &Loaded, limits: &SlapLimits) -> Result<CheckedScene, Vec<Diagnostic>> {
    let c = scene_checker(text, loaded, limits, true);
    c.finish()
}

/// [`check_scene`] for the compile path: the scene as a [`Timeline`] (no
/// spans of values kept) and its warnings.
pub fn check_timeline(
    text: &str,
    loaded: &Loaded,
    limits: &SlapLimits,
) -> Result<(Timeline, Vec<Diagnostic>), Vec<Diagnostic>> {
    scene_checker(text, loaded, limits, false).finish_timeline()
}

fn scene_checker<'a>(text: &'a str, loaded: &'a Loaded, limits: &SlapLimits, spans: bool) -> Checker<'a> {
    let mut units = Vec::with_capacity(loaded.units.len() + 1);
    units.push(Text::Unparsed(text));
    units.extend(loaded.units.iter().map(|u| Text::Unparsed(u.file.text.as_str())));
    let mut c = Checker::new(units, loaded, *limits);
    if !spans {
        c.spans = None;
    }
    c.main_text = Some(text);
    c.walk(0);
    c
}

/// One file of a scene: its tree, or its text to parse line by line as
/// it is walked.
#[derive(Clone, Copy)]
enum Text<'a> {
    Parsed(&'a ast::File<'a>),
    Unparsed(&'a str),
}

/// What a define holds: its values, or nothing known (an error in it).
struct Def<'a> {
    name: &'a str,
    values: Option<Vec<f64>>,
    /// The name in the define that gave the current values, and the file
    /// it is in.
    span: Span,
    unit: usize,
}

/// A name in an argument list that expanded to a number of values other
/// than one (for the notes of an argument-count error).
struct Expansion<'a> {
    name: &'a str,
    /// Where the name was defined, and in which file.
    defined: Span,
    unit: usize,
    count: usize,
}

/// Where arguments are evaluated, for the hints of an undefined name.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ctx {
    Plain,
    Action,
}

struct Checker<'a> {
    /// The scene (`units[0]`) and the files it includes
    /// (`units[k]` is `loaded.units[k - 1]`).
    units: Vec<Text<'a>>,
    loaded: &'a Loaded,
    /// Whether each file's syntax errors were reported (a file included
    /// twice reports them once).
    reported: Vec<bool>,
    /// The chain of files being checked: the scene, then each include.
    stack: Vec<usize>,
    /// The scene's `include` being walked: the span its commands get.
    top: Option<Span>,
    /// Diagnostics `from..to` of an included file, ordered at `key`.
    ranges: Vec<(usize, usize, usize)>,
    inclusions: usize,
    /// The scene's text, for the positions of its includes.
    main_text: Option<&'a str>,
    limits: SlapLimits,
    /// Name -> index into `defs`.
    names: HashMap<&'a str, usize, Seeded>,
    /// Every name defined so far, in the order of first definition (the
    /// order "did you mean" looks through).
    defs: Vec<Def<'a>>,
    /// Names defined anywhere in the file and where first, built on the
    /// first undefined name.
    anywhere: Option<HashMap<&'a str, Span>>,
    actors: HashSet<u32, Seeded>,
    /// The current time, or `None` when an error left it unknown.
    time: Option<f64>,
    /// The last time directive and its file, for the warning.
    time_span: Option<(usize, Span)>,
    time_points: usize,
    /// Numbers in the commands' arithmetic so far.
    constants: usize,
    length: u32,
    /// The commands so far, in source order.
    timeline: Timeline,
    /// The spans a [`SceneIr`] holds beside them; `None` when only the
    /// [`Timeline`] is wanted.
    spans: Option<Spans>,
    diags: Vec<Diagnostic>,
    errors: usize,
    /// Errors of the scene's own lines counted and not kept: past the
    /// first `2 * MAX_KEPT_ERRORS`, those after every one kept (the
    /// lines come in source order) are only counted, so a scene of
    /// millions of bad lines holds a few hundred diagnostics.
    dropped: usize,
    /// Where the last kept error of the scene's own lines starts.
    kept_until: usize,
    budget: u64,
    /// Set once a limit has been reported, so that it is reported once.
    full: [bool; 5],
    /// Errors that depend on the timeline order (a follow of an actor not
    /// yet in the scene, a look-at from the point itself): pushed into
    /// `diags` where the command stands, so that they get their file, and
    /// kept or dropped by [`Checker::finish`] once the order is known.
    tentative: Vec<Tentative>,
    /// The id of the last actor line whose id was known, and the ids of
    /// actor lines that failed after it (a follow of one draws no error:
    /// its mistake is reported already).
    last_id: Option<u32>,
    failed_ids: HashSet<u32, Seeded>,
}

/// The spans of each command and of each value in a [`Timeline`], for
/// the [`SceneIr`] made of it.
#[derive(Default)]
struct Spans {
    commands: Vec<Span>,
    values: Vec<Span>,
}

/// A [`Checker::tentative`] error: `diags[diag]` is about
/// `commands[command]`.
struct Tentative {
    diag: usize,
    command: usize,
}

/// Where the camera stands before any camera command.
const CAMERA_POSITION: [f64; 3] = animkit_vm::engine::slap::Camera::DEFAULT.position;

const INCLUDES_FULL: usize = 4;
const ACTORS_FULL: usize = 0;
const DEFINES_FULL: usize = 1;
const TIMES_FULL: usize = 2;
const CONSTANTS_FULL: usize = 3;

fn show(v: f64) -> String {
    crate::animator::format::number(v)
}

fn plural(n: usize, one: &str) -> String {
    if n == 1 { format!("{n} {one}") } else { format!("{n} {one}s") }
}

fn actions_note() -> String {
    let list: Vec<String> = ACTIONS.iter().enumerate().map(|(i, a)| format!("{i} {a}")).collect();
    format!("the twelve actions are {}", list.join(", "))
}

impl<'a> Checker<'a> {
    fn new(units: Vec<Text<'a>>, loaded: &'a Loaded, limits: SlapLimits) -> Checker<'a> {
        let seed = Seeded::new();
        let lines = match units[0] {
            Text::Parsed(file) => file.lines.len(),
            Text::Unparsed(_) => 0,
        };
        Checker {
            reported: vec![false; units.len()],
            units,
            loaded,
            stack: vec![0],
            top: None,
            ranges: Vec::new(),
            inclusions: 0,
            main_text: None,
            limits,
            names: HashMap::with_hasher(seed),
            defs: Vec::new(),
            anywhere: None,
            actors: HashSet::with_hasher(seed),
            time: Some(0.0),
            time_span: None,
            time_points: 0,
            constants: 0,
            length: 0,
            timeline: Timeline { steps: Vec::with_capacity(lines), ..Timeline::default() },
            spans: Some(Spans::default()),
            diags: Vec::new(),
            dropped: 0,
            kept_until: 0,
            errors: 0,
            budget: SUGGEST_BUDGET,
            full: [false; 5],
            tentative: Vec::new(),
            last_id: None,
            failed_ids: HashSet::with_hasher(seed),
        }
    }

    fn error(&mut self, d: Diagnostic) {
        self.errors += 1;
        if self.stack.len() <= 1 && d.file.is_none() {
            if self.errors > 2 * MAX_KEPT_ERRORS && d.span.start > self.kept_until {
                self.dropped += 1;
                return;
            }
            self.kept_until = self.kept_until.max(d.span.start);
        }
        self.diags.push(d);
    }

    /// The scene's text, when it is known (an include names it).
    fn file_text(&self) -> Option<&'a str> {
        self.main_text
    }

    /// The file being checked.
    fn unit(&self) -> usize {
        self.stack.last().copied().unwrap_or(0)
    }

    /// Checks the lines of file `unit`: its tree's, or each line of its
    /// text as it is parsed (its syntax errors reported the first time it
    /// is walked).
    fn walk(&mut self, unit: usize) {
        match self.units[unit] {
            Text::Parsed(file) => {
                for line in &file.lines {
                    self.line(unit, line);
                }
            }
            Text::Unparsed(text) => {
                let report = !std::mem::replace(&mut self.reported[unit], true);
                let before = self.diags.len();
                let mut syntax = Vec::new();
                animkit_grammar::slap::each_line(text, |line, error| {
                    if let Some(e) = error.filter(|_| report) {
                        if unit == 0 {
                            self.error(Diagnostic::from(e));
                        } else {
                            syntax.push(Diagnostic::from(e));
                        }
                    }
                    self.line(unit, &line);
                });
                if !syntax.is_empty() {
                    // An included file's syntax errors come first among
                    // its diagnostics (they are ordered where its
                    // `include` stands, in the order they were pushed).
                    let n = syntax.len();
                    self.errors += n;
                    self.diags.splice(before..before, syntax);
                    for t in &mut self.tentative {
                        if t.diag >= before {
                            t.diag += n;
                        }
                    }
                }
            }
        }
    }

    fn line(&mut self, unit: usize, line: &Line<'a>) {
        match line {
            Line::Directive(d) => self.directive(d),
            Line::Invalid(bad) => self.invalid(bad),
            Line::Include(inc) => self.include(unit, inc),
        }
    }

    /// A line that did not parse: its error is reported; keep what it
    /// seems to define unknown.
    fn invalid(&mut self, bad: &ast::Invalid<'a>) {
        match bad.keyword.as_ref().map(|k| k.text) {
            Some("define") => {
                if let Some(name) = &bad.first {
                    self.bind(name.text, name.span, None);
                }
            }
            Some("time" | "timep") => self.time = None,
            _ => {}
        }
    }

    fn directive(&mut self, d: &ast::Directive<'a>) {
        match d.keyword.text {
            "define" => self.define(d),
            "time" => self.time(d, false),
            "timep" => {
                self.extension(d.keyword.span, "`timep`", "write `time +T` for a relative time");
                self.time(d, true)
            }
            "actor" => self.actor(d),
            "camera" => self.camera(d),
            other => {
                let e = Diagnostic::error(d.keyword.span, format!("unknown directive `{other}`"), "not a directive");
                let e = match closest(other, DIRECTIVES) {
                    Some(s) => e.with_help(format!("did you mean `{s}`?")),
                    None => e,
                };
                self.error(e.with_note("the directives are define, time, timep, actor and camera"));
            }
        }
    }

    /// Adds a command (false if it was not: the time is unknown, or the
    /// numbers went over their limit).
    fn push(&mut self, d: &ast::Directive<'_>, command: Command) -> bool {
        let (id, args) = match &command {
            Command::Actor { id, args, .. } => (Some(id), args),
            Command::Camera { args, .. } => (None, args),
        };
        let numbers: usize = id.into_iter().chain(args).map(|v| v.expr.numbers()).sum();
        self.constants = self.constants.saturating_add(numbers);
        if self.constants > self.limits.constants {
            if !self.full[CONSTANTS_FULL] {
                self.full[CONSTANTS_FULL] = true;
                let max = self.limits.constants;
                self.error(
                    Diagnostic::error(
                        d.keyword.span,
                        format!("too many numbers: the commands of a scene may hold at most {max}"),
                        "this command goes over",
                    )
                    .with_note("every number in an argument counts, literal or a name's value; split the scene"),
                );
            }
            return false;
        }
        let Some(frame) = self.frame() else { return false };
        let span = self.top.unwrap_or(d.span);
        let (kind, id, args) = match command {
            Command::Actor { id, attr, args } => (Kind::Actor(attr), Some(id), args),
            Command::Camera { attr, args } => (Kind::Camera(attr), None, args),
        };
        let t = &mut self.timeline;
        let first = t.values.len() as u32;
        for v in id.iter().chain(&args) {
            t.push_value(v.value, &v.expr);
            if let Some(s) = &mut self.spans {
                s.values.push(v.span);
            }
        }
        t.steps.push(Step { frame, at: u32::try_from(span.start).unwrap_or(u32::MAX), first, kind });
        if let Some(s) = &mut self.spans {
            s.commands.push(span);
        }
        true
    }

    /// An animkit extension at `span`: an error in spec-only mode.
    fn extension(&mut self, span: Span, what: &str, help: &str) {
        if !self.limits.strict {
            return;
        }
        self.error(
            Diagnostic::error(
                span,
                format!("{what} is an animkit extension, refused by --strict"),
                "not in the SLAP note",
            )
            .with_help(help.to_string())
            .with_note("--strict accepts only the language of the original SLAP note (docs/slap.md, §Extensions)"),
        );
    }

    /// A command whose error depends on the timeline order: `diag` is
    /// pushed now and settled by [`Checker::finish`].
    fn tentative(&mut self, diag: Diagnostic) {
        let command = self.timeline.steps.len() - 1;
        self.tentative.push(Tentative { diag: self.diags.len(), command });
        self.diags.push(diag);
    }
}
