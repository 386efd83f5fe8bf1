//! A reference evaluator for SLAP, written from `docs/slap.md` and the
//! spec (`shared/spec/slap.md`) over the AST, as plainly as possible: a
//! map of defines evaluated line by line, the current time as an `f64`,
//! the timeline sorted stably by frame, and a player that applies each
//! frame's commands to a map of actors and computes positions in closed
//! form from each actor's anchor. It shares nothing with the checker, the
//! IR, the lowering (`compiler/src/slap/`) or the simulation
//! (`vm/src/slap/`): only the syntax tree of `animkit_grammar::slap`.
//!
//! It rejects an erroneous script with one message (the first mistake it
//! meets); it only has to agree with the compiler on which scripts are
//! valid, and on everything about the valid ones.

use animkit_grammar::slap::ast::{Arg, BinOp, Directive, Expr, Line};
use std::collections::{BTreeMap, HashMap, HashSet};

/// Speeds of the twelve actions in units per frame at size 1
/// (`docs/slap.md`, §The twelve actions).
pub const SPEEDS: [f64; 12] = [
    0.0,         // idle
    1.0 / 16.0,  // scamper
    1.0 / 32.0,  // swagger
    3.0 / 32.0,  // broadjump
    1.0 / 64.0,  // prowl
    3.0 / 128.0, // lumber
    1.0 / 128.0, // dejected
    0.0,         // no
    0.0,         // yes
    0.0,         // hotfeet
    1.0 / 8.0,   // sprint
    3.0 / 64.0,  // hop
];

/// Pose cycle lengths of the twelve actions, in frames (the same table).
pub const CYCLES: [u64; 12] = [90, 12, 32, 36, 48, 44, 56, 20, 20, 8, 14, 20];

/// The largest frame a scene may have (the 24-bit `WAIT`).
pub const MAX_FRAME: f64 = 16_777_215.0;
/// Most values one define may hold.
pub const MAX_DEFINE_VALUES: usize = 64;
/// Most distinct define names.
pub const MAX_DEFINES: usize = 65_536;
/// Most distinct actor ids.
pub const MAX_ACTORS: usize = 1_048_576;
/// Most time directives.
pub const MAX_TIME_POINTS: usize = 16_777_216;

/// The default camera: 8 units in front of the origin, 2 above the ground,
/// looking at the origin.
pub const DEFAULT_CAMERA: RefCamera = RefCamera { position: [0.0, 2.0, 8.0], direction: [0.0, -1.0, -4.0] };

/// One command of the timeline, with its values as the script computed
/// them.
#[derive(Clone, Debug, PartialEq)]
pub enum RefCommand {
    /// `actor ID action A`: `action` is a whole number 0..=11.
    Action { id: f64, action: f64 },
    /// `actor ID direction H`
    Direction { id: f64, heading: f64 },
    /// `actor ID position X Z`
    Position2 { id: f64, x: f64, z: f64 },
    /// `actor ID position X Y Z`
    Position3 { id: f64, at: [f64; 3] },
    /// `actor ID color R G B`
    Color { id: f64, rgb: [f64; 3] },
    /// `actor ID size S`
    Size { id: f64, size: f64 },
    /// `camera position X Y Z`
    CameraPosition([f64; 3]),
    /// `camera direction X Y Z`
    CameraVector([f64; 3]),
    /// `camera direction YAW PITCH`
    CameraAngles { yaw: f64, pitch: f64 },
    /// `camera lookat X Y Z`
    CameraLookAt([f64; 3]),
    /// `camera follow ID [DISTANCE HEIGHT]` (6 and 2 when not given)
    CameraFollow { id: f64, distance: f64, height: f64 },
    /// `camera move X Y Z over FRAMES`
    CameraMove { to: [f64; 3], frames: f64 },
}

impl RefCommand {
    /// The actor id, for actor commands.
    pub fn id(&self) -> Option<f64> {
        match *self {
            RefCommand::Action { id, .. }
            | RefCommand::Direction { id, .. }
            | RefCommand::Position2 { id, .. }
            | RefCommand::Position3 { id, .. }
            | RefCommand::Color { id, .. }
            | RefCommand::Size { id, .. } => Some(id),
            _ => None,
        }
    }

    /// The argument values after the id, in order.
    pub fn values(&self) -> Vec<f64> {
        match *self {
            RefCommand::Action { action, .. } => vec![action],
            RefCommand::Direction { heading, .. } => vec![heading],
            RefCommand::Position2 { x, z, .. } => vec![x, z],
            RefCommand::Position3 { at, .. } => at.to_vec(),
            RefCommand::Color { rgb, .. } => rgb.to_vec(),
            RefCommand::Size { size, .. } => vec![size],
            RefCommand::CameraPosition(v) | RefCommand::CameraVector(v) | RefCommand::CameraLookAt(v) => v.to_vec(),
            RefCommand::CameraAngles { yaw, pitch } => vec![yaw, pitch],
            RefCommand::CameraFollow { id, distance, height } => vec![id, distance, height],
            RefCommand::CameraMove { to, frames } => vec![to[0], to[1], to[2], frames],
        }
    }
}

/// A command and when it runs.
#[derive(Clone, Debug, PartialEq)]
pub struct RefTimed {
    /// The frame: the current time rounded, halves away from zero.
    pub frame: u64,
    /// The 1-based source line of the directive.
    pub line: usize,
    /// What it does.
    pub command: RefCommand,
}

/// An evaluated scene.
#[derive(Clone, Debug, PartialEq)]
pub struct RefScene {
    /// The commands, sorted by frame, stably (source order within a frame).
    pub timeline: Vec<RefTimed>,
    /// The largest frame any time directive named (0 without one).
    pub length: u64,
    /// Source lines of the absolute times earlier than the current time
    /// (each a warning), in source order.
    pub warnings: Vec<usize>,
}

/// The values of the defines known at a line.
type Defines<'s> = HashMap<&'s str, Vec<f64>>;

fn fail<T>(line: usize, what: impl Into<String>) -> Result<T, String> {
    Err(format!("line {line}: {}", what.into()))
}

/// The standard prelude as the docs list it: PI and the twelve actions.
pub fn polly() -> String {
    let mut out = String::from("define PI 3.141592653589793\n");
    for (i, a) in [
        "idle",
        "scamper",
        "swagger",
        "broadjump",
        "prowl",
        "lumber",
        "dejected",
        "no",
        "yes",
        "hotfeet",
        "sprint",
        "hop",
    ]
    .iter()
    .enumerate()
    {
        out.push_str(&format!("define {a} {i}\n"));
    }
    out
}

/// Deepest chain of includes.
pub const MAX_INCLUDE_DEPTH: usize = 16;

/// `src` with every `include` replaced by the included text (files by
/// their path relative to `dir`, written with `/`), and for each line of
/// the result the line of `src` it comes from (an included line: its
/// `include`'s).
fn expand(
    src: &str,
    dir: &str,
    files: &HashMap<String, String>,
    chain: &mut Vec<String>,
) -> Result<(String, Vec<usize>), String> {
    let mut out = String::new();
    let mut lines = Vec::new();
    for (n, text) in src.split('\n').enumerate() {
        let t = text.split('#').next().unwrap_or("").trim();
        let Some(target) = t.strip_prefix("include").filter(|r| r.starts_with([' ', '\t'])).map(str::trim) else {
            out.push_str(text);
            out.push('\n');
            lines.push(n + 1);
            continue;
        };
        let (key, inner, inner_dir) = if target == "<polly>" {
            (target.to_string(), polly(), String::new())
        } else if let Some(path) = target.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
            let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty() && *p != ".").collect();
            for p in path.split('/') {
                match p {
                    "." | "" => {}
                    ".." if parts.last().is_some_and(|l| *l != "..") => {
                        parts.pop();
                    }
                    p => parts.push(p),
                }
            }
            let key = parts.join("/");
            let Some(text) = files.get(&key) else { return fail(n + 1, format!("cannot include `{key}`")) };
            let inner_dir = parts[..parts.len() - 1].join("/");
            (key, text.clone(), inner_dir)
        } else {
            return fail(n + 1, "a bad include");
        };
        if chain.contains(&key) {
            return fail(n + 1, "an include cycle");
        }
        if chain.len() >= MAX_INCLUDE_DEPTH {
            return fail(n + 1, "includes too deep");
        }
        chain.push(key);
        let (text, _) = expand(&inner, &inner_dir, files, chain)?;
        chain.pop();
        for l in text.split_inclusive('\n') {
            out.push_str(l);
            lines.push(n + 1);
        }
        if !text.ends_with('\n') {
            out.push('\n');
        }
    }
    Ok((out, lines))
}

/// Parses and evaluates `src`: the scene, or the first mistake found.
pub fn evaluate(src: &str) -> Result<RefScene, String> {
    evaluate_files(src, "", &HashMap::new())
}

/// [`evaluate`] for a scene in directory `dir` that includes some of
/// `files` (by path, `/`-separated).
pub fn evaluate_files(src: &str, dir: &str, files: &HashMap<String, String>) -> Result<RefScene, String> {
    let (expanded, origin) = expand(src, dir, files, &mut Vec::new())?;
    let src = expanded.as_str();
    let (file, syntax) = animkit_grammar::slap::parse(src);
    if let Some(e) = syntax.first() {
        return Err(format!("syntax: {}", e.message));
    }
    let line_of = |offset: usize| origin.get(src[..offset].matches('\n').count()).copied().unwrap_or(0);
    let mut defines: Defines<'_> = HashMap::new();
    let mut now = 0.0f64; // the value of the last time directive
    let mut frame = 0u64;
    let mut length = 0u64;
    let mut time_points = 0usize;
    let mut actors: HashSet<u64> = HashSet::new();
    let mut commands: Vec<RefTimed> = Vec::new();
    let mut warnings = Vec::new();
    for l in &file.lines {
        let d: &Directive<'_> = match l {
            Line::Directive(d) => d,
            Line::Invalid(_) => return Err("a line that did not parse".into()),
            Line::Include(_) => return Err("an include left after expansion".into()),
        };
        let line = line_of(d.span.start);
        match d.keyword.text {
            "define" => {
                let Some(name) = d.args.first().and_then(Arg::as_name) else {
                    return fail(line, "`define` needs a name");
                };
                if d.args.len() < 2 {
                    return fail(line, "`define` needs a value");
                }
                let values = values(&d.args[1..], &defines, line)?;
                if values.len() > MAX_DEFINE_VALUES {
                    return fail(line, "too many values");
                }
                if !defines.contains_key(name.text) && defines.len() == MAX_DEFINES {
                    return fail(line, "too many defines");
                }
                defines.insert(name.text, values);
            }
            "time" | "timep" => {
                time_points += 1;
                if time_points > MAX_TIME_POINTS {
                    return fail(line, "too many time directives");
                }
                let [arg] = d.args.as_slice() else { return fail(line, "a time takes one argument") };
                let relative = d.keyword.text == "timep" || arg.plus.is_some();
                if d.keyword.text == "timep" && arg.plus.is_some() {
                    return fail(line, "`timep` is relative already");
                }
                // `+` marks the argument; what follows is arithmetic (a bare
                // name without `+` may expand, and must give one value).
                let t = match arg.plus {
                    Some(_) => eval(&arg.expr, &defines, line)?,
                    None => match values(std::slice::from_ref(arg), &defines, line)?.as_slice() {
                        [t] => *t,
                        _ => return fail(line, "a time takes one value"),
                    },
                };
                if relative {
                    if t < 0.0 {
                        return fail(line, "relative time goes backwards");
                    }
                    now += t;
                } else {
                    if t < 0.0 {
                        return fail(line, "negative time");
                    }
                    if t < now {
                        warnings.push(line);
                    }
                    now = t;
                }
                let rounded = now.round();
                if rounded > MAX_FRAME {
                    return fail(line, "past the last frame");
                }
                frame = rounded as u64;
                length = length.max(frame);
            }
            "actor" => {
                if d.args.len() < 2 {
                    return fail(line, "`actor` needs an id and an attribute");
                }
                let id = match values(&d.args[..1], &defines, line)?.as_slice() {
                    [id] => *id,
                    _ => return fail(line, "an actor id takes one value"),
                };
                if id.fract() != 0.0 || !(0.0..=u32::MAX as f64).contains(&id) {
                    return fail(line, "bad actor id");
                }
                if actors.insert(id as u64) && actors.len() > MAX_ACTORS {
                    return fail(line, "too many actors");
                }
                let Some(attr) = d.args[1].as_name() else { return fail(line, "expected an attribute") };
                let v = values(&d.args[2..], &defines, line)?;
                let command = match (attr.text, v.as_slice()) {
                    ("action", &[a]) => {
                        if a.fract() != 0.0 || !(0.0..=11.0).contains(&a) {
                            return fail(line, "not one of the twelve actions");
                        }
                        RefCommand::Action { id, action: a }
                    }
                    ("direction", &[h]) => RefCommand::Direction { id, heading: h },
                    ("position", &[x, z]) => RefCommand::Position2 { id, x, z },
                    ("position", &[x, y, z]) => RefCommand::Position3 { id, at: [x, y, z] },
                    ("color", &[r, g, b]) => RefCommand::Color { id, rgb: [r, g, b] },
                    ("size", &[s]) if s <= 0.0 => return fail(line, "a size must be above 0"),
                    ("size", &[s]) => RefCommand::Size { id, size: s },
                    ("action" | "direction" | "position" | "color" | "size", _) => {
                        return fail(line, "wrong number of values");
                    }
                    _ => return fail(line, "unknown actor attribute"),
                };
                commands.push(RefTimed { frame, line, command });
            }
            "camera" => {
                let attr = d.args.first().and_then(Arg::as_name).map(|n| n.text);
                if d.args.is_empty() {
                    return fail(line, "`camera` needs an attribute");
                }
                if !matches!(attr, Some("position" | "direction" | "lookat" | "follow" | "move")) {
                    // The one-line form: a position, then a look vector
                    // (values, defines standing for them).
                    let [x, y, z, dx, dy, dz] = values(&d.args, &defines, line)?[..] else {
                        return fail(line, "`camera` takes 6 values");
                    };
                    if dx == 0.0 && dy == 0.0 && dz == 0.0 {
                        return fail(line, "camera direction has zero length");
                    }
                    commands.push(RefTimed { frame, line, command: RefCommand::CameraPosition([x, y, z]) });
                    commands.push(RefTimed { frame, line, command: RefCommand::CameraVector([dx, dy, dz]) });
                    continue;
                }
                let Some(attr) = d.args.first().and_then(Arg::as_name) else {
                    return fail(line, "`camera` needs an attribute");
                };
                if attr.text == "move" {
                    let rest = &d.args[1..];
                    let Some(k) = rest.iter().position(|a| a.as_name().is_some_and(|n| n.text == "over")) else {
                        return fail(line, "`camera move` needs `over`");
                    };
                    let to = values(&rest[..k], &defines, line)?;
                    let n = values(&rest[k + 1..], &defines, line)?;
                    let (&[x, y, z], &[n]) = (to.as_slice(), n.as_slice()) else {
                        return fail(line, "wrong number of values");
                    };
                    if n.fract() != 0.0 || !(1.0..=MAX_FRAME).contains(&n) {
                        return fail(line, "a move takes a whole number of frames from 1");
                    }
                    commands.push(RefTimed {
                        frame,
                        line,
                        command: RefCommand::CameraMove { to: [x, y, z], frames: n },
                    });
                    continue;
                }
                let v = values(&d.args[1..], &defines, line)?;
                let command = match (attr.text, v.as_slice()) {
                    ("position", &[x, y, z]) => RefCommand::CameraPosition([x, y, z]),
                    ("direction", &[x, y, z]) => {
                        if x == 0.0 && y == 0.0 && z == 0.0 {
                            return fail(line, "camera direction has zero length");
                        }
                        RefCommand::CameraVector([x, y, z])
                    }
                    ("direction", &[yaw, pitch]) => RefCommand::CameraAngles { yaw, pitch },
                    ("lookat", &[x, y, z]) => RefCommand::CameraLookAt([x, y, z]),
                    ("follow", &[id]) | ("follow", &[id, _, _])
                        if id.fract() != 0.0 || !(0.0..=u32::MAX as f64).contains(&id) =>
                    {
                        return fail(line, "bad actor id");
                    }
                    ("follow", &[_, d, h]) if d == 0.0 && h == 0.0 => {
                        return fail(line, "follow from inside the actor");
                    }
                    ("follow", &[id]) => RefCommand::CameraFollow { id, distance: 6.0, height: 2.0 },
                    ("follow", &[id, distance, height]) => RefCommand::CameraFollow { id, distance, height },
                    ("position" | "direction" | "lookat" | "follow", _) => return fail(line, "wrong number of values"),
                    _ => return fail(line, "unknown camera attribute"),
                };
                commands.push(RefTimed { frame, line, command });
            }
            other => return fail(line, format!("unknown directive `{other}`")),
        }
    }
    // Ordered by frame, stably: within a frame, in source order.
    commands.sort_by_key(|c| c.frame);
    // In that order: a follow needs its actor on the stage, a look-at a
    // point away from the camera when its position is known (not after a
    // follow, until a `camera position`).
    let mut on_stage = std::collections::HashSet::new();
    let mut at = Some(DEFAULT_CAMERA.position);
    // A move in progress: from, to, its frame, its frames.
    let mut sliding: Option<([f64; 3], [f64; 3], u64, f64)> = None;
    for c in &commands {
        // Any camera command ends a move where it has the camera.
        if c.command.id().is_none() {
            if let Some(m) = sliding.take() {
                at = Some(slide(m, c.frame));
            }
        }
        match c.command {
            RefCommand::CameraPosition(p) => at = Some(p),
            RefCommand::CameraMove { to, frames } => {
                sliding = at.map(|from| (from, to, c.frame, frames));
                at = None;
            }
            RefCommand::CameraFollow { id, .. } => {
                if !on_stage.contains(&(id as u64)) {
                    return fail(c.line, "follows an actor not in the scene");
                }
                at = None;
            }
            RefCommand::CameraLookAt(p) => {
                if let Some(q) = at {
                    let d = [p[0] - q[0], p[1] - q[1], p[2] - q[2]];
                    if d == [0.0; 3] || d.iter().any(|x| !x.is_finite()) {
                        return fail(c.line, "looks at where the camera stands");
                    }
                }
            }
            ref a => {
                if let Some(id) = a.id() {
                    on_stage.insert(id as u64);
                }
            }
        }
    }
    Ok(RefScene { timeline: commands, length, warnings })
}

/// Where a move `(from, to, start, frames)` has the camera at frame `f`:
/// `from + (to - from) * ((f - start) / frames)`, `to` from its end on.
fn slide((from, to, start, frames): ([f64; 3], [f64; 3], u64, f64), f: u64) -> [f64; 3] {
    let done = f.saturating_sub(start) as f64;
    if done >= frames {
        return to;
    }
    let t = done / frames;
    [from[0] + (to[0] - from[0]) * t, from[1] + (to[1] - from[1]) * t, from[2] + (to[2] - from[2]) * t]
}

/// The values of arguments: a bare name gives all its values, anything
/// else is arithmetic giving one. No `+` marks here (only a time's).
fn values(args: &[Arg<'_>], defines: &Defines<'_>, line: usize) -> Result<Vec<f64>, String> {
    let mut out = Vec::new();
    for a in args {
        if a.plus.is_some() {
            return fail(line, "`+` only marks a relative time");
        }
        match a.as_name() {
            Some(n) => match defines.get(n.text) {
                Some(v) => out.extend_from_slice(v),
                None => return fail(line, format!("undefined name `{}`", n.text)),
            },
            None => out.push(eval(&a.expr, defines, line)?),
        }
    }
    Ok(out)
}

/// Arithmetic in IEEE `f64`, the left operand first; every literal and
/// every result finite, no division by zero, every name one value.
fn eval(e: &Expr<'_>, defines: &Defines<'_>, line: usize) -> Result<f64, String> {
    let v = match e {
        Expr::Number(n) => match n.text.parse::<f64>() {
            Ok(v) if v.is_finite() => v,
            _ => return fail(line, format!("number `{}` is too large", n.text)),
        },
        Expr::Name(n) => match defines.get(n.text).map(Vec::as_slice) {
            Some([v]) => *v,
            Some(_) => return fail(line, format!("`{}` stands for several values", n.text)),
            None => return fail(line, format!("undefined name `{}`", n.text)),
        },
        Expr::Neg { operand, .. } => -eval(operand, defines, line)?,
        Expr::Paren { inner, .. } => eval(inner, defines, line)?,
        Expr::Call { name, args, .. } => {
            let mut a = Vec::new();
            for e in args {
                a.push(eval(e, defines, line)?);
            }
            match (name.text, a.as_slice()) {
                // The `libm` crate, as docs/slap.md says the compiler
                // folds them (the same bits natively and on wasm32).
                ("sin", &[x]) => libm::sin(x),
                ("cos", &[x]) => libm::cos(x),
                ("tan", &[x]) => libm::tan(x),
                ("atan2", &[y, x]) => libm::atan2(y, x),
                ("sqrt", &[x]) if x < 0.0 => return fail(line, "square root of a negative number"),
                ("sqrt", &[x]) => x.sqrt(),
                ("abs", &[x]) => x.abs(),
                ("min", &[x, y]) => x.min(y),
                ("max", &[x, y]) => x.max(y),
                ("floor", &[x]) => x.floor(),
                ("sin" | "cos" | "tan" | "atan2" | "sqrt" | "abs" | "min" | "max" | "floor", _) => {
                    return fail(line, "wrong number of arguments");
                }
                _ => return fail(line, format!("unknown function `{}`", name.text)),
            }
        }
        Expr::Binary { op, lhs, rhs, .. } => {
            let l = eval(lhs, defines, line)?;
            let r = eval(rhs, defines, line)?;
            match op {
                BinOp::Add => l + r,
                BinOp::Sub => l - r,
                BinOp::Mul => l * r,
                BinOp::Div if r == 0.0 => return fail(line, "division by zero"),
                BinOp::Div => l / r,
            }
        }
    };
    if !v.is_finite() {
        return fail(line, "arithmetic overflow");
    }
    Ok(v)
}

// ---- the simulation ------------------------------------------------------

/// What an observer sees of one actor at a frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RefActorState {
    pub id: u32,
    pub action: u32,
    pub position: [f64; 3],
    pub direction: f64,
    pub color: [f64; 3],
    pub size: f64,
    /// Frames since the action's pose cycle started, modulo its cycle: the
    /// pose is the action's pose at this phase.
    pub phase: u64,
}

/// The camera at a frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RefCamera {
    pub position: [f64; 3],
    pub direction: [f64; 3],
}

/// The state a trace shows at one frame: actors by id, ascending.
#[derive(Clone, Debug, PartialEq)]
pub struct RefFrame {
    pub frame: u64,
    pub actors: Vec<RefActorState>,
    pub camera: RefCamera,
}

/// A command the simulation refused: its frame, its line and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefError {
    pub frame: u64,
    pub line: usize,
    pub why: &'static str,
}

/// One actor: its state, and the anchor its motion is computed from.
#[derive(Clone, Debug)]
struct Actor {
    action: u32,
    cycle_start: u64,
    anchor: [f64; 3],
    anchor_frame: u64,
    direction: f64,
    color: [f64; 3],
    size: f64,
}

impl Actor {
    /// The defaults of a new actor, first mentioned at `frame`.
    fn new(frame: u64) -> Actor {
        Actor {
            action: 0,
            cycle_start: frame,
            anchor: [0.0, 0.0, 0.0],
            anchor_frame: frame,
            direction: 0.0,
            color: [1.0, 1.0, 1.0],
            size: 1.0,
        }
    }

    /// `anchor + (f - anchor_frame) * velocity`, in the documented order:
    /// `k = speed * size`, `v = (k * sin h, 0, k * cos h)`.
    fn position(&self, f: u64) -> [f64; 3] {
        let k = SPEEDS[self.action as usize] * self.size;
        let (vx, vz) = (k * self.direction.sin(), k * self.direction.cos());
        let n = (f - self.anchor_frame) as f64;
        [self.anchor[0] + n * vx, self.anchor[1], self.anchor[2] + n * vz]
    }

    /// Takes the position at `f` as the new anchor (before the state the
    /// velocity depends on changes).
    fn reanchor(&mut self, f: u64) {
        self.anchor = self.position(f);
        self.anchor_frame = f;
    }
}

/// Plays a [`RefScene`] frame by frame.
pub struct RefPlayer<'a> {
    scene: &'a RefScene,
    next: usize,
    frame: u64,
    actors: BTreeMap<u32, Actor>,
    camera: RefCamera,
    /// The followed actor, distance and height.
    follow: Option<(u32, f64, f64)>,
    /// A move in force: from, to, its frame, its frames.
    sliding: Option<([f64; 3], [f64; 3], u64, f64)>,
    errors: Vec<RefError>,
}

impl<'a> RefPlayer<'a> {
    /// The scene at frame 0, frame 0's commands run.
    pub fn new(scene: &'a RefScene) -> RefPlayer<'a> {
        let mut p = RefPlayer {
            scene,
            next: 0,
            frame: 0,
            actors: BTreeMap::new(),
            camera: DEFAULT_CAMERA,
            follow: None,
            sliding: None,
            errors: Vec::new(),
        };
        p.run_frame();
        p
    }

    /// Goes to the next frame and runs its commands.
    pub fn step(&mut self) {
        self.frame += 1;
        self.run_frame();
    }

    /// Goes forward to `frame` (no earlier than the current one), running
    /// the commands of every frame on the way.
    pub fn seek(&mut self, frame: u64) {
        while let Some(c) = self.scene.timeline.get(self.next).filter(|c| c.frame <= frame) {
            self.frame = c.frame.max(self.frame);
            self.run_frame();
        }
        self.frame = frame.max(self.frame);
    }

    /// The commands refused so far, oldest first.
    pub fn errors(&self) -> &[RefError] {
        &self.errors
    }

    fn run_frame(&mut self) {
        while let Some(c) = self.scene.timeline.get(self.next).filter(|c| c.frame == self.frame) {
            self.next += 1;
            self.run(c);
        }
    }

    fn run(&mut self, c: &RefTimed) {
        let f = self.frame;
        if matches!(
            c.command,
            RefCommand::CameraPosition(_)
                | RefCommand::CameraVector(_)
                | RefCommand::CameraAngles { .. }
                | RefCommand::CameraLookAt(_)
                | RefCommand::CameraFollow { .. }
                | RefCommand::CameraMove { .. }
        ) {
            // Refused (as the VM does, for scenes made otherwise): a
            // look-at from the point itself, a follow of an actor not on
            // the stage. A refused command changes nothing.
            let why = match c.command {
                RefCommand::CameraLookAt(p) => {
                    let q = self.camera_now().position;
                    let d = [p[0] - q[0], p[1] - q[1], p[2] - q[2]];
                    if d == [0.0; 3] {
                        Some("the point is where the camera stands, so there is no look vector")
                    } else {
                        d.iter()
                            .any(|x| !x.is_finite())
                            .then_some("the point is too far from the camera: the look vector is not finite")
                    }
                }
                RefCommand::CameraFollow { id, .. } if !self.actors.contains_key(&(id as u32)) => {
                    // The VM's message names the actor (a test may leak it).
                    Some(&*Box::leak(format!("actor {} is not in the scene", id as u32).into_boxed_str()))
                }
                _ => None,
            };
            if let Some(why) = why {
                self.errors.push(RefError { frame: f, line: c.line, why });
                return;
            }
            // Any camera command ends a follow where it has the camera now.
            self.camera = self.camera_now();
            self.follow = None;
            self.sliding = None;
        }
        match c.command {
            RefCommand::CameraPosition(p) => self.camera.position = p,
            RefCommand::CameraVector(v) => self.camera.direction = v,
            RefCommand::CameraAngles { yaw, pitch } => {
                self.camera.direction = [yaw.sin() * pitch.cos(), pitch.sin(), -yaw.cos() * pitch.cos()];
            }
            RefCommand::CameraLookAt(p) => {
                let q = self.camera.position;
                self.camera.direction = [p[0] - q[0], p[1] - q[1], p[2] - q[2]];
            }
            RefCommand::CameraFollow { id, distance, height } => {
                self.follow = Some((id as u32, distance, height));
            }
            RefCommand::CameraMove { to, frames } => {
                self.sliding = Some((self.camera.position, to, f, frames));
            }
            ref actor_command => {
                let id = actor_command.id().unwrap_or_default() as u32;
                // `size 0` or below (or NaN) is refused, and a refused
                // command neither creates nor changes anything (the
                // evaluator refuses such a script; the player keeps the
                // VM's contract for scenes made otherwise).
                if let RefCommand::Size { size, .. } = *actor_command {
                    if size.is_nan() || size <= 0.0 {
                        self.errors.push(RefError {
                            frame: f,
                            line: c.line,
                            why: "the size must be a finite number above 0",
                        });
                        return;
                    }
                }
                let a = self.actors.entry(id).or_insert_with(|| Actor::new(f));
                match *actor_command {
                    RefCommand::Action { action, .. } => {
                        a.reanchor(f);
                        let action = action as u32;
                        if action != a.action {
                            a.action = action;
                            a.cycle_start = f;
                        }
                    }
                    RefCommand::Direction { heading, .. } => {
                        a.reanchor(f);
                        a.direction = heading;
                    }
                    RefCommand::Position2 { x, z, .. } => {
                        a.anchor = [x, a.anchor[1], z];
                        a.anchor_frame = f;
                    }
                    RefCommand::Position3 { at, .. } => {
                        a.anchor = at;
                        a.anchor_frame = f;
                    }
                    RefCommand::Color { rgb, .. } => a.color = rgb,
                    RefCommand::Size { size, .. } => {
                        a.reanchor(f);
                        a.size = size;
                    }
                    _ => unreachable!("camera commands are handled above"),
                }
            }
        }
    }

    /// What the frame shows.
    pub fn observe(&self) -> RefFrame {
        let actors = self
            .actors
            .iter()
            .map(|(&id, a)| RefActorState {
                id,
                action: a.action,
                position: a.position(self.frame),
                direction: a.direction,
                color: a.color,
                size: a.size,
                phase: (self.frame - a.cycle_start) % CYCLES[a.action as usize],
            })
            .collect();
        RefFrame { frame: self.frame, actors, camera: self.camera_now() }
    }

    /// The camera now: during a follow, `distance` behind the actor along
    /// its heading and `height` above it, looking at it.
    fn camera_now(&self) -> RefCamera {
        if let Some(m) = self.sliding {
            return RefCamera { position: slide(m, self.frame), direction: self.camera.direction };
        }
        let Some((id, d, h)) = self.follow else { return self.camera };
        let Some(a) = self.actors.get(&id) else { return self.camera };
        let p = a.position(self.frame);
        let back = [d * a.direction.sin(), d * a.direction.cos()];
        RefCamera { position: [p[0] - back[0], p[1] + h, p[2] - back[1]], direction: [back[0], -h, back[1]] }
    }
}

/// Frames `0..=last` of `scene`, and the commands it refused.
///
/// ```ignore
/// let scene = evaluate("time 10\nactor 1 action 2\n")?;
/// let (frames, errors) = trace(&scene, scene.length + 5);
/// ```
pub fn trace(scene: &RefScene, last: u64) -> (Vec<RefFrame>, Vec<RefError>) {
    let mut p = RefPlayer::new(scene);
    let mut frames = vec![p.observe()];
    for _ in 0..last {
        p.step();
        frames.push(p.observe());
    }
    (frames, p.errors.clone())
}
