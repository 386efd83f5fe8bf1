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

use super::func::{FUNCTIONS, Func};
use super::include::{Loaded, MAX_INCLUDE_DEPTH, MAX_INCLUDES};
use super::ir::{
    ActorAttr, CameraAttr, Command, Expr, FOLLOW_DISTANCE, FOLLOW_HEIGHT, SceneIr, TimedCommand, Value, apply,
};
use crate::diagnostic::{Diagnostic, LineIndex, Severity};
use crate::suggest::{SUGGEST_BUDGET, closest, closest_within};
use animkit_grammar::Span;
use animkit_grammar::slap::ast::{self, Arg, BinOp, Line};
use animkit_vm::limits;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, Hasher, RandomState};

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
/// project's ([`animkit_vm::limits`]). Tests lower them to reach them with
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
pub struct Checked {
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
pub fn check(file: &ast::File<'_>) -> Result<Checked, Vec<Diagnostic>> {
    check_with(file, &SlapLimits::default())
}

/// [`check`] with the given limits.
pub fn check_with(file: &ast::File<'_>, limits: &SlapLimits) -> Result<Checked, Vec<Diagnostic>> {
    let loaded = Loaded::default();
    let includes = Includes { text: None, files: std::slice::from_ref(file), loaded: &loaded, syntax: Vec::new() };
    check_all(includes, Vec::new(), limits)
}

/// The files of a scene for [`check_all`]: `files[0]` the scene, `files[k]`
/// the parsed text of `loaded.units[k - 1]`, `syntax[k - 1]` its syntax
/// errors.
pub struct Includes<'a> {
    /// The scene's text (for the positions of its includes in notes).
    pub text: Option<&'a str>,
    /// Every file's tree.
    pub files: &'a [ast::File<'a>],
    /// What each `include` names.
    pub loaded: &'a Loaded,
    /// The syntax errors of each included file.
    pub syntax: Vec<Vec<Diagnostic>>,
}

/// Checks a scene and the files it includes; `syntax` are the scene's own
/// syntax errors, reported in source order with the rest.
pub fn check_all(
    includes: Includes<'_>,
    syntax: Vec<Diagnostic>,
    limits: &SlapLimits,
) -> Result<Checked, Vec<Diagnostic>> {
    let mut c = Checker::new(includes.files, includes.loaded, *limits);
    c.syntax = includes.syntax.into_iter().map(Some).collect();
    c.main_text = includes.text;
    c.errors += syntax.len();
    c.diags.extend(syntax);
    c.walk(0);
    c.finish()
}

/// The checker's hash for names and ids: a folded 64x64->128-bit multiply
/// per 8 bytes, seeded per process. Faster than SipHash on short names,
/// and unlike `crate::hash::FxHasher` it mixes every input bit into the
/// low bits that pick a bucket, under a seed a file cannot know: names and
/// ids come from the file, and crafted collisions must not make checking
/// quadratic.
#[derive(Clone, Copy)]
struct Seeded(u64);

impl Seeded {
    fn new() -> Seeded {
        Seeded(RandomState::new().hash_one(0x5eed_u64) | 1)
    }
}

impl BuildHasher for Seeded {
    type Hasher = Fold;
    fn build_hasher(&self) -> Fold {
        Fold(self.0)
    }
}

struct Fold(u64);

const MUL: u64 = 0x9e37_79b9_7f4a_7c15;

impl Fold {
    #[inline]
    fn mix(&mut self, word: u64) {
        let m = u128::from(self.0 ^ word) * u128::from(MUL);
        self.0 = (m as u64) ^ ((m >> 64) as u64);
    }
}

impl Hasher for Fold {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.mix(u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]));
        }
        let rest = chunks.remainder();
        let mut last = [0u8; 8];
        last[..rest.len()].copy_from_slice(rest);
        self.mix(u64::from_le_bytes(last) ^ ((rest.len() as u64) << 56));
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.mix(u64::from(i));
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.mix(u64::from(i));
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.mix(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        let m = u128::from(self.0) * u128::from(MUL ^ 0xff51_afd7_ed55_8ccd);
        (m as u64) ^ ((m >> 64) as u64)
    }
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
    file: &'a ast::File<'a>,
    files: &'a [ast::File<'a>],
    loaded: &'a Loaded,
    /// The syntax errors of each included file, until reported.
    syntax: Vec<Option<Vec<Diagnostic>>>,
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
    commands: Vec<TimedCommand>,
    diags: Vec<Diagnostic>,
    errors: usize,
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

/// A [`Checker::tentative`] error: `diags[diag]` is about
/// `commands[command]`.
struct Tentative {
    diag: usize,
    command: usize,
}

/// Where the camera stands before any camera command.
const CAMERA_POSITION: [f64; 3] = animkit_vm::slap::Camera::DEFAULT.position;

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

/// Each name of `expansions` once, in order: the name, where it was
/// defined, its value count and how many times it expanded.
fn grouped<'x>(expansions: &'x [Expansion<'_>]) -> Vec<(&'x Expansion<'x>, usize)> {
    let mut out: Vec<(&Expansion<'_>, usize)> = Vec::new();
    for x in expansions {
        match out.iter_mut().find(|(y, _)| y.name == x.name) {
            Some((_, times)) => *times += 1,
            None => out.push((x, 1)),
        }
    }
    out
}

fn expansion_note(x: &Expansion<'_>, times: usize) -> String {
    let again = if times > 1 { format!(", {times} times") } else { String::new() };
    format!("`{}` expands to {}{again}", x.name, plural(x.count, "value"))
}

fn args_span(args: &[Arg<'_>]) -> Option<Span> {
    Some(args.first()?.span.to(args.last()?.span))
}

impl<'a> Checker<'a> {
    fn new(files: &'a [ast::File<'a>], loaded: &'a Loaded, limits: SlapLimits) -> Checker<'a> {
        let seed = Seeded::new();
        let file = &files[0];
        Checker {
            file,
            files,
            loaded,
            syntax: Vec::new(),
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
            commands: Vec::with_capacity(file.lines.len()),
            diags: Vec::new(),
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
        self.diags.push(d);
    }

    fn finish(mut self) -> Result<Checked, Vec<Diagnostic>> {
        // In source order; an included file's at its `include`.
        let mut keys: Vec<usize> = self.diags.iter().map(|d| d.span.start).collect();
        for &(from, to, key) in &self.ranges {
            keys[from..to].fill(key);
        }
        let keep = self.timeline_checks();
        let mut keyed: Vec<(usize, Diagnostic)> = keys
            .into_iter()
            .zip(std::mem::take(&mut self.diags))
            .enumerate()
            .filter(|(i, _)| keep.as_ref().is_none_or(|k| k[*i]))
            .map(|(_, d)| d)
            .collect();
        keyed.sort_by_key(|k| k.0);
        self.diags = keyed.into_iter().map(|k| k.1).collect();
        if self.errors > 0 {
            return Err(self.diags);
        }
        if !self.commands.is_sorted_by_key(|c| c.frame) {
            self.commands.sort_by_key(|c| c.frame);
        }
        Ok(Checked { ir: SceneIr { commands: self.commands, length: self.length }, warnings: self.diags })
    }

    /// Settles the [`Tentative`] errors: walks the commands in timeline
    /// order (by frame, then source order), knowing which actors are on
    /// the stage and where the camera stands (unknown during a follow),
    /// and keeps the errors that hold there. `None` when there were none;
    /// otherwise which diagnostics to keep.
    fn timeline_checks(&mut self) -> Option<Vec<bool>> {
        if self.tentative.is_empty() {
            return None;
        }
        let mut keep = vec![true; self.diags.len()];
        let mut of_command = vec![usize::MAX; self.commands.len()];
        for (i, t) in self.tentative.iter().enumerate() {
            keep[t.diag] = false;
            of_command[t.command] = i;
        }
        let mut order: Vec<usize> = (0..self.commands.len()).collect();
        order.sort_by_key(|&i| self.commands[i].frame);
        let mut on_stage: HashSet<u32, Seeded> = HashSet::with_hasher(Seeded::new());
        // Where the camera stands: known, sliding (from, to, start, frames)
        // or unknown (after a follow).
        let mut camera: Option<[f64; 3]> = Some(CAMERA_POSITION);
        let mut moving: Option<animkit_vm::slap::Move> = None;
        for i in order {
            let c = &self.commands[i];
            let mut fail: Option<(String, String, &str)> = None;
            match &c.command {
                Command::Actor { id, .. } => {
                    on_stage.insert(id.value as u32);
                }
                Command::Camera { attr: CameraAttr::Position, args } => {
                    moving = None;
                    camera = Some([args[0].value, args[1].value, args[2].value]);
                }
                Command::Camera { attr: CameraAttr::Move, args } => {
                    let from = match moving.take() {
                        Some(m) => Some(m.position(u64::from(c.frame))),
                        None => camera,
                    };
                    camera = None;
                    if let Some(from) = from {
                        moving = Some(animkit_vm::slap::Move {
                            from,
                            to: [args[0].value, args[1].value, args[2].value],
                            start: u64::from(c.frame),
                            frames: args[3].value as u64,
                        });
                    }
                }
                Command::Camera { attr: CameraAttr::Follow, args } => {
                    let id = args[0].value as u32;
                    if !on_stage.contains(&id) && !self.failed_ids.contains(&id) {
                        fail = Some((
                            format!("actor {id} is not in the scene at frame {}", c.frame),
                            "no command names it before this one".into(),
                            "",
                        ));
                    }
                    camera = None;
                    moving = None;
                }
                Command::Camera { attr: CameraAttr::LookAt, args } => {
                    if let Some(m) = moving.take() {
                        camera = Some(m.position(u64::from(c.frame)));
                    }
                    if let Some(p) = camera {
                        let d = [args[0].value - p[0], args[1].value - p[1], args[2].value - p[2]];
                        let at = format!("({}, {}, {})", show(p[0]), show(p[1]), show(p[2]));
                        if d == [0.0; 3] {
                            fail = Some((
                                "`camera lookat` at the point where the camera stands".into(),
                                format!("the camera stands at {at} at frame {}", c.frame),
                                "help: a look-at aims from where the camera stands: move it first (`camera position X Y Z`), or aim at another point",
                            ));
                        } else if !d.iter().all(|x| x.is_finite()) {
                            fail = Some((
                                "arithmetic overflow: the look vector is not a finite number".into(),
                                format!("too far from the camera at {at}"),
                                "",
                            ));
                        }
                    }
                }
                Command::Camera { .. } => {
                    // A direction freezes a move where it is.
                    if let Some(m) = moving.take() {
                        camera = Some(m.position(u64::from(c.frame)));
                    }
                }
            }
            if let (Some((message, label, help)), Some(&t)) = (fail, of_command.get(i).filter(|&&t| t != usize::MAX)) {
                let k = self.tentative[t].diag;
                keep[k] = true;
                self.diags[k].message = message;
                self.diags[k].label = label.into_boxed_str();
                if !help.is_empty() {
                    self.diags[k].notes.insert(0, help.to_string());
                }
                self.errors += 1;
            }
        }
        Some(keep)
    }

    /// The scene's text, when it is known (an include names it).
    fn file_text(&self) -> Option<&'a str> {
        self.main_text
    }

    /// The file being checked.
    fn unit(&self) -> usize {
        self.stack.last().copied().unwrap_or(0)
    }

    /// Checks the lines of file `unit`.
    fn walk(&mut self, unit: usize) {
        let files = self.files;
        for line in &files[unit].lines {
            match line {
                Line::Directive(d) => self.directive(d),
                Line::Invalid(bad) => self.invalid(bad),
                Line::Include(inc) => self.include(unit, inc),
            }
        }
    }

    /// `include ...` in file `unit`: the included file's lines, here.
    fn include(&mut self, unit: usize, inc: &'a ast::Include<'a>) {
        if self.limits.strict {
            // Not read: its lines would only add errors to this one.
            self.extension(
                Span::new(inc.span.start, inc.span.start + "include".len()),
                "`include`",
                "write the included lines in place (the prelude is `define PI 3.1416` and the twelve `define`s of the actions)",
            );
            return;
        }
        let loaded = self.loaded;
        let target = match loaded.targets.get(&(unit, inc.span.start)) {
            Some(Ok(t)) => *t,
            Some(Err(e)) => {
                self.error(e.clone());
                return;
            }
            None => {
                self.error(Diagnostic::error(inc.span, "`include` is not available here", "not read").with_note(
                    "this entry point checks one text; compile the file, or use `slap::front_at`, to read includes",
                ));
                return;
            }
        };
        let path = |k: usize| if k == 0 { loaded.main.clone() } else { loaded.units[k - 1].file.path.clone() };
        if self.stack.contains(&target) || self.stack.len() > MAX_INCLUDE_DEPTH {
            let mut chain: Vec<String> = self.stack.iter().map(|&k| path(k)).collect();
            chain.push(path(target));
            let cycle = self.stack.contains(&target);
            let message = if cycle {
                format!("`{}` includes itself", path(target))
            } else {
                format!("includes nested more than {MAX_INCLUDE_DEPTH} deep")
            };
            self.error(
                Diagnostic::error(inc.target_span, message, if cycle { "included again here" } else { "one too many" })
                    .with_note(format!("the chain is {}", chain.join(" -> "))),
            );
            return;
        }
        self.inclusions += 1;
        if self.inclusions > MAX_INCLUDES {
            if !self.full[INCLUDES_FULL] {
                self.full[INCLUDES_FULL] = true;
                self.error(Diagnostic::error(
                    inc.span,
                    format!("too many includes: a scene may include files at most {MAX_INCLUDES} times in all"),
                    "one too many",
                ));
            }
            return;
        }
        let before = self.diags.len();
        self.stack.push(target);
        let outermost = self.stack.len() == 2;
        if outermost {
            self.top = Some(inc.span);
        }
        if let Some(errors) = self.syntax.get_mut(target - 1).and_then(Option::take) {
            self.errors += errors.len();
            self.diags.extend(errors);
        }
        self.walk(target);
        self.stack.pop();
        let file = &loaded.units[target - 1].file;
        if self.diags.len() > before {
            let here = if unit == 0 { self.file_text() } else { Some(loaded.units[unit - 1].file.text.as_str()) };
            let (line, col) = here.map_or((0, 0), |t| LineIndex::new(t).line_col(inc.span.start));
            let from = format!("note: in `{}`, included from {}:{line}:{col}", file.path, path(unit));
            for d in &mut self.diags[before..] {
                if d.file.is_none() {
                    d.file = Some(file.clone());
                    d.notes.push(from.clone());
                }
            }
        }
        if outermost {
            self.top = None;
            self.ranges.push((before, self.diags.len(), inc.span.start));
        }
    }

    /// A line that did not parse: its error is reported; keep what it
    /// seems to define unknown.
    fn invalid(&mut self, bad: &'a ast::Invalid<'a>) {
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

    fn directive(&mut self, d: &'a ast::Directive<'a>) {
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

    // ---- names ---------------------------------------------------------

    /// Binds `name`, defined at `span` (values `None`: unknown).
    fn bind(&mut self, name: &'a str, span: Span, values: Option<Vec<f64>>) {
        let unit = self.unit();
        match self.names.get(name) {
            Some(&i) => self.defs[i] = Def { name, values, span, unit },
            None => {
                self.names.insert(name, self.defs.len());
                self.defs.push(Def { name, values, span, unit });
            }
        }
    }

    fn undefined(&mut self, name: &'a ast::Name<'a>, ctx: Ctx) {
        if self.full[DEFINES_FULL] {
            // Names past the define limit were left out on purpose.
            return;
        }
        let text = name.text;
        let file = self.file;
        let anywhere = self.anywhere.get_or_insert_with(|| {
            let mut all = HashMap::new();
            for line in &file.lines {
                if let Line::Directive(d) = line {
                    if d.keyword.text == "define" {
                        if let Some(n) = d.args.first().and_then(Arg::as_name) {
                            all.entry(n.text).or_insert(n.span);
                        }
                    }
                }
            }
            all
        });
        let mut e = Diagnostic::error(name.span, format!("undefined name `{text}`"), "not defined");
        let in_scene = self.stack.len() == 1;
        if let Some(&later) = anywhere.get(text).filter(|s| in_scene && s.start > name.span.start) {
            e = e
                .with_secondary(later, "defined here, after its use")
                .with_note("a name is known from the line that defines it on");
        } else {
            let candidates = self.defs.iter().filter(|d| d.values.is_some()).map(|d| d.name);
            if let Some(s) = closest_within(text, candidates, &mut self.budget) {
                e = e.with_help(format!("did you mean `{s}`?"));
            } else if ctx == Ctx::Action {
                let number = ACTIONS
                    .iter()
                    .position(|a| *a == text)
                    .or_else(|| closest(text, ACTIONS).and_then(|c| ACTIONS.iter().position(|a| *a == c)));
                if let Some(i) = number {
                    let a = ACTIONS[i];
                    let mean = if a == text { String::new() } else { format!("did you mean `{a}`? ") };
                    e = e.with_help(format!("{mean}action names are not built in: define it first, `define {a} {i}`"));
                }
            }
        }
        if ctx == Ctx::Action {
            e = e.with_note(actions_note());
        }
        self.error(e);
    }

    // ---- arithmetic ----------------------------------------------------

    /// Evaluates `e`; `None` (with the errors reported) if it cannot be.
    /// Both operands of an operator are evaluated, so that every error in
    /// an expression is reported.
    fn eval(&mut self, e: &'a ast::Expr<'a>, ctx: Ctx) -> Option<(Expr, f64)> {
        match e {
            ast::Expr::Number(n) => match n.text.parse::<f64>() {
                Ok(v) if v.is_finite() => Some((Expr::Num(v), v)),
                _ => {
                    self.error(Diagnostic::error(
                        n.span,
                        format!("number `{}` is too large", n.text),
                        "not a finite 64-bit number",
                    ));
                    None
                }
            },
            ast::Expr::Name(n) => match self.names.get(n.text).map(|&i| self.defs[i].values.as_deref()) {
                Some(Some(&[v])) => Some((Expr::Num(v), v)),
                Some(Some(values)) => {
                    let count = values.len();
                    self.error(
                        Diagnostic::error(
                            n.span,
                            format!("`{}` stands for {count} values, but arithmetic needs one", n.text),
                            format!("{count} values"),
                        )
                        .with_note(
                            "a name that stands for several values expands only as a whole argument on its own \
                             (`actor 1 color red`)",
                        ),
                    );
                    None
                }
                Some(None) => None,
                None => {
                    self.undefined(n, ctx);
                    None
                }
            },
            ast::Expr::Neg { operand, .. } => {
                let (e, v) = self.eval(operand, ctx)?;
                Some((Expr::Neg(Box::new(e)), -v))
            }
            ast::Expr::Paren { inner, .. } => self.eval(inner, ctx),
            ast::Expr::Call { name, args, span } => {
                self.extension(
                    name.span,
                    &format!("the function `{}`", name.text),
                    "write the value as a number or with `+ - * /`",
                );
                self.call(name, args, *span, ctx)
            }
            ast::Expr::Binary { op, lhs, rhs, span, .. } => {
                let l = self.eval(lhs, ctx);
                let r = self.eval(rhs, ctx);
                let ((le, lv), (re, rv)) = (l?, r?);
                if *op == BinOp::Div && rv == 0.0 {
                    self.error(Diagnostic::error(rhs.span(), "division by zero", "the divisor is 0"));
                    return None;
                }
                let v = apply(*op, lv, rv);
                if !v.is_finite() {
                    self.error(Diagnostic::error(
                        *span,
                        "arithmetic overflow: the result is not a finite number",
                        format!("this is {}", if v > 0.0 { "inf" } else { "-inf" }),
                    ));
                    return None;
                }
                Some((Expr::Bin(*op, Box::new(le), Box::new(re)), v))
            }
        }
    }

    /// A function call, folded: its result is one number of the IR
    /// (see [`super::func`]). Every argument is evaluated, so that every
    /// error in them is reported.
    fn call(
        &mut self,
        name: &'a ast::Name<'a>,
        args: &'a [ast::Expr<'a>],
        span: Span,
        ctx: Ctx,
    ) -> Option<(Expr, f64)> {
        let func = Func::named(name.text);
        let mut values = Vec::with_capacity(args.len());
        let mut ok = true;
        for a in args {
            match self.eval(a, ctx) {
                Some((_, v)) => values.push(v),
                None => ok = false,
            }
        }
        let Some(func) = func else {
            let e = Diagnostic::error(name.span, format!("unknown function `{}`", name.text), "not a function");
            let e = match closest(name.text, FUNCTIONS) {
                Some(s) => e.with_help(format!("did you mean `{s}`?")),
                None => e,
            };
            self.error(e.with_note(format!("the functions are {}", FUNCTIONS.join(", "))));
            return None;
        };
        if args.len() != func.arity() {
            self.error(
                Diagnostic::error(
                    span,
                    format!("`{}` takes {}, found {}", name.text, plural(func.arity(), "argument"), args.len()),
                    "here",
                )
                .with_help(format!("write `{}`", func.form())),
            );
            return None;
        }
        if !ok {
            return None;
        }
        if func == Func::Sqrt && values[0] < 0.0 {
            self.error(
                Diagnostic::error(
                    args[0].span(),
                    "square root of a negative number",
                    format!("this is {}", show(values[0])),
                )
                .with_help("`sqrt` takes a number 0 or more; `sqrt(abs(x))` for the root of its size"),
            );
            return None;
        }
        let v = func.apply(&values);
        if !v.is_finite() {
            self.error(Diagnostic::error(
                span,
                "arithmetic overflow: the result is not a finite number",
                format!("this is {}", show(v)),
            ));
            return None;
        }
        Some((Expr::Num(v), v))
    }

    /// `arg` (its `+` aside) as one value without collecting a list: the
    /// value, `Some(None)` if it could not be computed (reported), `None`
    /// if it is a bare name that stands for several values (the caller
    /// then takes the general path, [`Checker::values`], to explain).
    fn single(&mut self, arg: &'a Arg<'a>, ctx: Ctx) -> Option<Option<Value>> {
        if let ast::Expr::Name(n) = &arg.expr {
            if let Some(Some(values)) = self.names.get(n.text).map(|&i| self.defs[i].values.as_deref()) {
                return match values {
                    &[v] => Some(Some(Value { expr: Expr::Num(v), value: v, span: n.span })),
                    _ => None,
                };
            }
        }
        Some(self.eval(&arg.expr, ctx).map(|(expr, value)| Value { expr, value, span: arg.expr.span() }))
    }

    /// Evaluates `args` into `out`, expanding a bare name that stands for
    /// several values. With `plus_first`, the first argument's `+` is the
    /// caller's business; any other `+` is an error. Returns false if
    /// anything could not be computed.
    fn values(
        &mut self,
        args: &'a [Arg<'a>],
        plus_first: bool,
        ctx: Ctx,
        out: &mut Vec<Value>,
        expansions: &mut Vec<Expansion<'a>>,
    ) -> bool {
        let mut ok = true;
        out.reserve(args.len());
        for (i, arg) in args.iter().enumerate() {
            if let Some(plus) = arg.plus.filter(|_| !plus_first || i > 0) {
                self.error(
                    Diagnostic::error(plus, "`+` only marks a relative time", "misplaced `+`")
                        .with_help("there is no unary `+`: write the number alone, or `time +10` for a relative time"),
                );
                ok = false;
                continue;
            }
            if let ast::Expr::Name(n) = &arg.expr {
                match self
                    .names
                    .get(n.text)
                    .map(|&i| (self.defs[i].values.as_deref(), self.defs[i].span, self.defs[i].unit))
                {
                    Some((Some(values), defined, unit)) => {
                        if values.len() != 1 {
                            expansions.push(Expansion { name: n.text, defined, unit, count: values.len() });
                        }
                        out.extend(values.iter().map(|&v| Value { expr: Expr::Num(v), value: v, span: n.span }));
                    }
                    Some((None, _, _)) => ok = false,
                    None => {
                        self.undefined(n, ctx);
                        ok = false;
                    }
                }
                continue;
            }
            match self.eval(&arg.expr, ctx) {
                Some((expr, value)) => out.push(Value { expr, value, span: arg.expr.span() }),
                None => ok = false,
            }
        }
        ok
    }

    /// The error for `found` values where `what` takes `expected`.
    fn count_error(&mut self, at: Span, what: &str, expected: &str, found: usize, expansions: &[Expansion<'_>]) {
        let label = if expansions.is_empty() { "here" } else { "after expansion" };
        let mut e = Diagnostic::error(
            at,
            format!("{what} takes {expected}, found {found}"),
            format!("{} {label}", plural(found, "value")),
        );
        let groups = grouped(expansions);
        for (x, _) in groups.iter().filter(|(x, _)| x.unit == self.unit()) {
            e = e.with_secondary(x.defined, format!("`{}` defined with {}", x.name, plural(x.count, "value")));
        }
        for (x, times) in &groups {
            e = e.with_note(expansion_note(x, *times));
        }
        self.error(e);
    }

    // ---- directives ----------------------------------------------------

    fn define(&mut self, d: &'a ast::Directive<'a>) {
        let Some(first) = d.args.first() else {
            self.error(
                Diagnostic::error(d.keyword.span, "`define` needs a name and a value", "nothing after it")
                    .with_help("a define looks like `define halfpi PI/2` or `define red 1 0 0`"),
            );
            return;
        };
        let Some(name) = first.as_name() else {
            self.error(Diagnostic::error(first.span, "expected a name after `define`", "not a name").with_help(
                "a define looks like `define halfpi PI/2`; a name is letters, digits and `_`, not starting with a digit",
            ));
            return;
        };
        let values = &d.args[1..];
        let mut out = Vec::new();
        let mut expansions = Vec::new();
        let ok = self.values(values, false, Ctx::Plain, &mut out, &mut expansions);
        let mut known = ok;
        if values.is_empty() {
            self.error(
                Diagnostic::error(
                    name.span,
                    format!("`define {}` has no value", name.text),
                    "expected a value after it",
                )
                .with_help(format!("give it one or more values: `define {} 1`", name.text)),
            );
            known = false;
        } else if ok && out.len() > self.limits.define_values {
            let span = args_span(values).unwrap_or(name.span);
            let max = self.limits.define_values;
            let mut e = Diagnostic::error(
                span,
                format!("`{}` would hold {} values, more than the {max} a define may hold", name.text, out.len()),
                format!("{} values", out.len()),
            );
            for (x, times) in grouped(&expansions) {
                e = e.with_note(expansion_note(x, times));
            }
            self.error(e);
            known = false;
        }
        if !self.names.contains_key(name.text) && self.defs.len() >= self.limits.defines {
            if !self.full[DEFINES_FULL] {
                self.full[DEFINES_FULL] = true;
                let max = self.limits.defines;
                self.error(Diagnostic::error(
                    name.span,
                    format!("too many defines: a scene may define at most {max} names"),
                    format!("name {} is one too many", max + 1),
                ));
            }
            return;
        }
        self.bind(name.text, name.span, known.then(|| out.iter().map(|v| v.value).collect()));
    }

    fn time(&mut self, d: &'a ast::Directive<'a>, timep: bool) {
        let keyword = if timep { "timep" } else { "time" };
        self.time_points += 1;
        if self.time_points > self.limits.time_points && !self.full[TIMES_FULL] {
            self.full[TIMES_FULL] = true;
            let max = self.limits.time_points;
            self.error(Diagnostic::error(
                d.keyword.span,
                format!("too many time directives: a scene may have at most {max}"),
                format!("time directive {} is one too many", max + 1),
            ));
        }
        let previous = (self.time, self.time_span);
        self.time = None;
        self.time_span = Some((self.unit(), d.span));
        let Some(first) = d.args.first() else {
            self.error(
                Diagnostic::error(d.keyword.span, format!("`{keyword}` needs a time value"), "nothing after it")
                    .with_help(if timep {
                        "write `timep 10` for 10 frames later"
                    } else {
                        "write `time 10`, or `time +10` for 10 frames later"
                    }),
            );
            return;
        };
        let relative = timep || first.plus.is_some();
        if timep {
            if let Some(plus) = first.plus {
                self.error(
                    Diagnostic::error(plus, "`timep` is relative already", "a second relative mark")
                        .with_help("write `timep 10` or `time +10`"),
                );
                return;
            }
        }
        let one = if d.args.len() == 1 { self.single(first, Ctx::Plain) } else { None };
        let t = match one {
            Some(Some(v)) => v.value,
            Some(None) => return,
            None => {
                let mut out = Vec::new();
                let mut expansions = Vec::new();
                if !self.values(&d.args, true, Ctx::Plain, &mut out, &mut expansions) {
                    return;
                }
                if out.len() != 1 {
                    let span = args_span(&d.args).unwrap_or(d.keyword.span);
                    self.count_error(span, &format!("`{keyword}`"), "1 value", out.len(), &expansions);
                    return;
                }
                out[0].value
            }
        };
        let at = first.span;
        let new = if relative {
            if t < 0.0 {
                self.error(
                    Diagnostic::error(at, "relative time goes backwards", format!("this is {}", show(t))).with_note(
                        "`time +T` and `timep T` move forward from the last time; an absolute `time` can go back",
                    ),
                );
                return;
            }
            let (Some(now), _) = previous else { return };
            now + t
        } else {
            if t < 0.0 {
                self.error(
                    Diagnostic::error(at, format!("time {} is negative", show(t)), "frames count from 0")
                        .with_note("an absolute time is a frame number, 0 or more"),
                );
                return;
            }
            if let (Some(now), Some((prev_unit, prev_span))) = previous {
                if t < now {
                    let same_file = prev_unit == self.unit();
                    let w = Diagnostic {
                        severity: Severity::Warning,
                        ..Diagnostic::error(
                            at,
                            format!("time {} is earlier than the current time {}", show(t), show(now)),
                            "goes back in time",
                        )
                    };
                    let w = if same_file {
                        w.with_secondary(prev_span, format!("the time was {} here", show(now)))
                    } else {
                        w.with_note(format!("the time was {}, set in another file", show(now)))
                    };
                    self.diags.push(
                        w.with_note(format!(
                            "the timeline is ordered by frame: the commands below run at frame {}, before those of later frames",
                            show(t.round())
                        )),
                    );
                }
            }
            t
        };
        let frame = new.round();
        if frame > self.limits.frame as f64 {
            let max = self.limits.frame;
            self.error(
                Diagnostic::error(
                    at,
                    format!("frame {} is past the last frame a scene may have", show(frame)),
                    format!("at most {max}"),
                )
                .with_note(format!("the time here is {}; a scene ends by frame {max}", show(new))),
            );
            return;
        }
        self.time = Some(new);
        self.length = self.length.max(frame as u32);
    }

    /// The frame of a command now, if the time is known.
    fn frame(&self) -> Option<u32> {
        self.time.map(|t| t.round() as u32)
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
        if let Some(frame) = self.frame() {
            let span = self.top.unwrap_or(d.span);
            self.commands.push(TimedCommand { frame, span, command });
            return true;
        }
        false
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
        let command = self.commands.len() - 1;
        self.tentative.push(Tentative { diag: self.diags.len(), command });
        self.diags.push(diag);
    }

    fn actor(&mut self, d: &'a ast::Directive<'a>) {
        self.last_id = None;
        let before = self.commands.len();
        self.actor_line(d);
        if let Some(id) = self.last_id.filter(|_| self.commands.len() == before) {
            self.failed_ids.insert(id);
        }
    }

    fn actor_line(&mut self, d: &'a ast::Directive<'a>) {
        let (Some(id_arg), Some(attr_arg)) = (d.args.first(), d.args.get(1)) else {
            self.error(
                Diagnostic::error(d.span, "`actor` needs an id and an attribute", "incomplete")
                    .with_help("an actor command looks like `actor ID ATTRIBUTE ARGS...`, e.g. `actor 1 size 0.9`"),
            );
            return;
        };
        let Some(attr_name) = attr_arg.as_name() else {
            self.error(
                Diagnostic::error(attr_arg.span, "expected an actor attribute", "not an attribute name")
                    .with_note("actor attributes are action, direction, position, color and size"),
            );
            return;
        };
        let attr = attr_name.text;
        if !ACTOR_ATTRIBUTES.contains(&attr) {
            let e = Diagnostic::error(
                attr_name.span,
                format!("unknown actor attribute `{attr}`"),
                "not an actor attribute",
            );
            let e = match closest(attr, ACTOR_ATTRIBUTES) {
                Some(s) => e.with_help(format!("did you mean `{s}`?")),
                None => e,
            };
            self.error(e.with_note("actor attributes are action, direction, position, color and size"));
            return;
        }
        let id = self.actor_id(id_arg);
        let ctx = if attr == "action" { Ctx::Action } else { Ctx::Plain };
        let rest = &d.args[2..];
        let mut args = Vec::new();
        let mut expansions = Vec::new();
        let ok = self.values(rest, false, ctx, &mut args, &mut expansions);
        let (Some(id), true) = (id, ok) else { return };
        let span = args_span(rest).unwrap_or(attr_name.span);
        let n = args.len();
        let attr = match (attr, n) {
            ("action", 1) => ActorAttr::Action,
            ("direction", 1) => ActorAttr::Direction,
            ("position", 2) => ActorAttr::Position2,
            ("position", 3) => ActorAttr::Position3,
            ("color", 3) => ActorAttr::Color,
            ("size", 1) => ActorAttr::Size,
            _ => {
                let (expected, form) = match attr {
                    "position" => {
                        ("2 values (`x z`) or 3 (`x y z`)", "actor ID position X Z` or `actor ID position X Y Z")
                    }
                    "color" => ("3 values (`r g b`)", "actor ID color R G B"),
                    "action" => ("1 value", "actor ID action A"),
                    "direction" => ("1 value", "actor ID direction RADIANS"),
                    _ => ("1 value", "actor ID size S"),
                };
                self.count_error(span, &format!("`{attr}`"), expected, n, &expansions);
                if expansions.is_empty() {
                    if let Some(last) = self.diags.last_mut() {
                        last.notes.push(format!("help: write `{form}`"));
                    }
                }
                return;
            }
        };
        if attr == ActorAttr::Position3 {
            self.extension(
                span,
                "`actor ID position X Y Z`",
                "the note's position is on the ground: `actor ID position X Z`",
            );
        }
        if attr == ActorAttr::Size && args[0].value <= 0.0 {
            let a = &args[0];
            self.error(
                Diagnostic::error(a.span, format!("size {} is not above 0", show(a.value)), "a size must be above 0")
                    .with_note("a size scales the actor and its speed: 1 is the standard bird, 0.5 half as big"),
            );
            return;
        }
        if attr == ActorAttr::Action {
            let a = &args[0];
            let v = a.value;
            if v.fract() != 0.0 {
                self.error(
                    Diagnostic::error(
                        a.span,
                        format!("action {} is not a whole number", show(v)),
                        "actions are numbered 0 to 11",
                    )
                    .with_note(actions_note()),
                );
                return;
            }
            if !(0.0..=11.0).contains(&v) {
                self.error(
                    Diagnostic::error(
                        a.span,
                        format!("action {} is not one of the twelve", show(v)),
                        "expected 0 to 11",
                    )
                    .with_note(actions_note()),
                );
                return;
            }
        }
        self.push(d, Command::Actor { id, attr, args });
    }

    /// The actor id `arg` evaluates to, checked and counted.
    fn actor_id(&mut self, arg: &'a Arg<'a>) -> Option<Value> {
        let one = if arg.plus.is_none() { self.single(arg, Ctx::Plain) } else { None };
        let id = match one {
            Some(id) => id?,
            None => {
                let mut out = Vec::new();
                let mut expansions = Vec::new();
                if !self.values(std::slice::from_ref(arg), false, Ctx::Plain, &mut out, &mut expansions) {
                    return None;
                }
                if out.len() != 1 {
                    self.count_error(arg.span, "an actor id", "1 value", out.len(), &expansions);
                    return None;
                }
                out.pop()?
            }
        };
        let n = self.id_in_range(&id)?;
        self.last_id = Some(n);
        if !self.actors.contains(&n) {
            if self.actors.len() >= self.limits.actors {
                if !self.full[ACTORS_FULL] {
                    self.full[ACTORS_FULL] = true;
                    let max = self.limits.actors;
                    self.error(Diagnostic::error(
                        id.span,
                        format!("too many actors: a scene may name at most {max}"),
                        format!("actor {} is one too many", max + 1),
                    ));
                }
                return None;
            }
            self.actors.insert(n);
        }
        Some(id)
    }

    /// The actor id `id` holds, if it is a whole number in `0..=u32::MAX`
    /// (reported otherwise).
    fn id_in_range(&mut self, id: &Value) -> Option<u32> {
        let v = id.value;
        if v.fract() != 0.0 || v < 0.0 {
            let why = if v < 0.0 { "negative" } else { "not a whole number" };
            self.error(
                Diagnostic::error(id.span, format!("actor id {} is not a whole number >= 0", show(v)), why)
                    .with_note("actors are numbered 0, 1, 2, ...; name them with defines: `define mommy 1`"),
            );
            return None;
        }
        if v > u32::MAX as f64 {
            self.error(Diagnostic::error(
                id.span,
                format!("actor id {} is too large", show(v)),
                format!("at most {}", u32::MAX),
            ));
            return None;
        }
        Some(v as u32)
    }

    /// `camera X Y Z DX DY DZ` (the spec's `camera position direction`,
    /// each a set of 3 values that defines may stand for): a position
    /// command and a look-vector command, in that order.
    fn camera_line(&mut self, d: &'a ast::Directive<'a>) {
        let mut args = Vec::new();
        let mut expansions = Vec::new();
        if !self.values(&d.args, false, Ctx::Plain, &mut args, &mut expansions) {
            return;
        }
        let span = args_span(&d.args).unwrap_or(d.keyword.span);
        if args.len() != 6 {
            self.count_error(
                span,
                "`camera`",
                "6 values (a position `x y z`, then a look vector `x y z`)",
                args.len(),
                &expansions,
            );
            if expansions.is_empty() {
                if let Some(last) = self.diags.last_mut() {
                    last.notes.push(
                        "help: write `camera X Y Z DX DY DZ`, or `camera position X Y Z` / `camera direction X Y Z`"
                            .into(),
                    );
                }
            }
            return;
        }
        let direction = args.split_off(3);
        if direction.iter().all(|a| a.value == 0.0) {
            let at = direction[0].span.to(direction[2].span);
            self.error(
                Diagnostic::error(at, "camera direction has zero length", "all three are 0")
                    .with_help("give a look vector such as `0 0 -1` after the position"),
            );
            return;
        }
        self.push(d, Command::Camera { attr: CameraAttr::Position, args });
        self.push(d, Command::Camera { attr: CameraAttr::DirectionVector, args: direction });
    }

    fn camera(&mut self, d: &'a ast::Directive<'a>) {
        let Some(attr_arg) = d.args.first() else {
            self.error(
                Diagnostic::error(d.span, "`camera` needs an attribute", "incomplete")
                    .with_help("a camera command looks like `camera position X Y Z` or `camera direction X Y Z`"),
            );
            return;
        };
        let Some(attr_name) = attr_arg.as_name() else {
            // `camera 0 3 10 0 -1 -3`: the spec's one-line form.
            self.camera_line(d);
            return;
        };
        let attr = attr_name.text;
        if !CAMERA_ATTRIBUTES.contains(&attr) && self.names.contains_key(attr) {
            // `camera campos camdir`: a defined name where the attribute
            // would be starts the spec's one-line form.
            self.camera_line(d);
            return;
        }
        if !CAMERA_ATTRIBUTES.contains(&attr) {
            let e = Diagnostic::error(
                attr_name.span,
                format!("unknown camera attribute `{attr}`"),
                "not a camera attribute",
            );
            let e = match closest(attr, CAMERA_ATTRIBUTES) {
                Some(s) => e.with_help(format!("did you mean `{s}`?")),
                None => e,
            };
            self.error(e.with_note(
                "camera attributes are position, direction, lookat and follow; \
                     `camera X Y Z DX DY DZ` sets the position and direction at once",
            ));
            return;
        }
        let (what, help) = match attr {
            "lookat" => (
                "`camera lookat`",
                "aim with the note's form: `camera X Y Z DX DY DZ`, the look vector worked out by hand",
            ),
            "follow" => ("`camera follow`", "place the camera at each time point with `camera X Y Z DX DY DZ`"),
            "move" => ("`camera move`", "place the camera at each time point with `camera X Y Z DX DY DZ`"),
            "position" => ("`camera position`", "the note's form sets both at once: `camera X Y Z DX DY DZ`"),
            _ => ("`camera direction`", "the note's form sets both at once: `camera X Y Z DX DY DZ`"),
        };
        self.extension(attr_name.span, what, help);
        if attr == "move" {
            self.camera_move(d, attr_name.span);
            return;
        }
        let rest = &d.args[1..];
        let mut args = Vec::new();
        let mut expansions = Vec::new();
        if !self.values(rest, false, Ctx::Plain, &mut args, &mut expansions) {
            return;
        }
        let span = args_span(rest).unwrap_or(attr_name.span);
        if attr == "follow" {
            self.follow(d, attr_name.span, span, args, &expansions);
            return;
        }
        let attr = match (attr, args.len()) {
            ("position", 3) => CameraAttr::Position,
            ("direction", 3) => CameraAttr::DirectionVector,
            ("direction", 2) => CameraAttr::DirectionAngles,
            ("lookat", 3) => CameraAttr::LookAt,
            _ => {
                let expected = match attr {
                    "position" => "3 values (`x y z`)",
                    "lookat" => "3 values (a point `x y z`)",
                    _ => "3 values (a vector `x y z`) or 2 (angles `yaw pitch`)",
                };
                self.count_error(span, &format!("`camera {attr}`"), expected, args.len(), &expansions);
                return;
            }
        };
        if attr == CameraAttr::DirectionVector && args.iter().all(|a| a.value == 0.0) {
            self.error(
                Diagnostic::error(span, "camera direction has zero length", "all three are 0")
                    .with_help("give a look vector such as `0 0 -1`, or two angles `yaw pitch`"),
            );
            return;
        }
        let lookat = attr == CameraAttr::LookAt;
        if self.push(d, Command::Camera { attr, args }) && lookat {
            // Settled in timeline order, where the camera's position is known.
            self.tentative(Diagnostic::error(span, "", ""));
        }
    }

    /// `camera move X Y Z over FRAMES`.
    fn camera_move(&mut self, d: &'a ast::Directive<'a>, attr: Span) {
        let rest = &d.args[1..];
        let Some(k) = rest.iter().position(|a| a.as_name().is_some_and(|n| n.text == "over")) else {
            self.error(
                Diagnostic::error(args_span(rest).unwrap_or(attr), "`camera move` needs `over FRAMES`", "how long?")
                    .with_help("write `camera move X Y Z over FRAMES`, e.g. `camera move 0 3 10 over 60`"),
            );
            return;
        };
        let over = rest[k].span;
        let (point_args, frame_args) = (&rest[..k], &rest[k + 1..]);
        let (mut point, mut frames) = (Vec::new(), Vec::new());
        let (mut xp, mut xf) = (Vec::new(), Vec::new());
        let ok_point = self.values(point_args, false, Ctx::Plain, &mut point, &mut xp);
        let ok_frames = self.values(frame_args, false, Ctx::Plain, &mut frames, &mut xf);
        if !(ok_point && ok_frames) {
            return;
        }
        if point.len() != 3 {
            let at = args_span(point_args).unwrap_or(attr);
            self.count_error(at, "`camera move`", "3 values (a point `x y z`) before `over`", point.len(), &xp);
            return;
        }
        if frames.len() != 1 {
            let at = args_span(frame_args).unwrap_or(over);
            self.count_error(at, "`over`", "1 value (a number of frames)", frames.len(), &xf);
            return;
        }
        let n = &frames[0];
        let max = self.limits.frame;
        if n.value.fract() != 0.0 || !(1.0..=f64::from(max)).contains(&n.value) {
            self.error(
                Diagnostic::error(
                    n.span,
                    format!("a move over {} frames", show(n.value)),
                    format!("a whole number from 1 to {max}"),
                )
                .with_note("the camera reaches the point that many frames after the command"),
            );
            return;
        }
        point.append(&mut frames);
        self.push(d, Command::Camera { attr: CameraAttr::Move, args: point });
    }

    /// `camera follow ACTOR [DISTANCE HEIGHT]`, its values evaluated:
    /// the actor's id, then the distance and height or none (the defaults).
    fn follow(
        &mut self,
        d: &'a ast::Directive<'a>,
        attr: Span,
        span: Span,
        mut args: Vec<Value>,
        expansions: &[Expansion<'a>],
    ) {
        if args.len() != 1 && args.len() != 3 {
            self.count_error(
                span,
                "`camera follow`",
                "1 value (an actor) or 3 (an actor, a distance and a height)",
                args.len(),
                expansions,
            );
            if expansions.is_empty() {
                if let Some(last) = self.diags.last_mut() {
                    last.notes.push(format!(
                        "help: write `camera follow ACTOR` ({} behind, {} above) or `camera follow ACTOR DISTANCE HEIGHT`",
                        show(FOLLOW_DISTANCE),
                        show(FOLLOW_HEIGHT)
                    ));
                }
            }
            return;
        }
        let Some(id) = self.id_in_range(&args[0]) else { return };
        if args.len() == 1 {
            for v in [FOLLOW_DISTANCE, FOLLOW_HEIGHT] {
                args.push(Value { expr: Expr::Num(v), value: v, span: attr });
            }
        } else if args[1].value == 0.0 && args[2].value == 0.0 {
            self.error(
                Diagnostic::error(
                    args[1].span.to(args[2].span),
                    "camera follow at distance 0 and height 0",
                    "the camera would stand inside the actor",
                )
                .with_help(format!(
                    "give a distance behind the actor or a height above it, e.g. `camera follow {id} {} {}`",
                    show(FOLLOW_DISTANCE),
                    show(FOLLOW_HEIGHT)
                )),
            );
            return;
        }
        let id_span = args[0].span;
        if self.push(d, Command::Camera { attr: CameraAttr::Follow, args }) {
            // Settled in timeline order, where the actors on the stage are known.
            self.tentative(
                Diagnostic::error(id_span, "", "")
                    .with_note("an actor is in the scene from its first command on; give it one before following it"),
            );
        }
    }
}
