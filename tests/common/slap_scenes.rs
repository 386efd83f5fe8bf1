//! Random valid SLAP scenes for the property tests
//! (`tests/slap_reference.rs`, `tests/slap_equivalence.rs`).
//!
//! A scene is generated as a *plan* (a list of steps with random choices)
//! and printed by a builder that keeps its own account of the defines known
//! at each line and of the current time, so that every printed scene is
//! valid by construction: names are defined before use and stand for the
//! right number of values, no divisor is zero, times never go backwards
//! relatively, actions and ids are whole numbers in range, a camera vector
//! is never zero. Shrinking works on the plan, so a failure shrinks to a
//! few readable lines.
//!
//! What the plans cover: the spec's defines (PI, the twelve actions,
//! colours, actor names) and random ones, nested (a define of defines,
//! `define x x+1`), multi-valued (expanded in arguments and in other
//! defines) and redefined (another value, another count); names bound to
//! keywords (`define color 5`); `time T`, `time +T` and `timep T` with
//! fractional values, names and arithmetic, absolute times out of order
//! (warnings); every attribute and all twelve actions, 2- and 3-value
//! positions, every camera form (the one-line `camera X Y Z DX DY DZ` too,
//! `camera lookat` at points no camera position of the scene takes, and
//! `camera follow` of an actor on the stage, with and without its distance
//! and height, `camera move ... over N`); ids as names and arithmetic; tiny sizes now
//! and then (one at or below zero is a compile error); comments, blank lines, odd
//! spacing, tabs, `\r\n`, parenthesised expressions with spaces, and
//! the built-in functions (nested, with their arguments spaced or not).

use proptest::prelude::*;
use proptest::sample::select;

/// Numbers as scripts write them.
pub const NUMBERS: &[&str] =
    &["0", "1", "2", "3", "7", "12", "100", "0.5", ".9", "3.", "0.1", "1e-3", "2.5E-2", "1e2", "0.25", "-0"];

/// Names random defines bind: the spec's, short ones, keywords.
pub const NAMES: &[&str] = &[
    "PI", "sec", "halfpi", "left", "mommy", "chick", "red", "spot", "look", "x", "x_1", "color", "time", "size",
    "swagger", "idle",
];

/// The twelve actions, as the spec defines them.
pub const ACTIONS: [&str; 12] =
    ["idle", "scamper", "swagger", "broadjump", "prowl", "lumber", "dejected", "no", "yes", "hotfeet", "sprint", "hop"];

/// Times written as literals.
const TIMES: &[&str] = &["0", "1", "2", "2.5", "0.4", "10", "12.5", "30", "45", "0.5", "3.5"];

/// Actor ids a plan picks from.
const IDS: [u64; 8] = [0, 1, 2, 3, 4, 7, 42, 4_294_967_295];

/// An expression to print.
#[derive(Clone, Debug)]
pub enum E {
    /// A literal.
    Num(&'static str),
    /// The k-th single-valued name known at the line (modulo their count),
    /// or `1` if there is none.
    Name(usize),
    /// This name (the prelude's), or `1` if it does not hold one value.
    Named(&'static str),
    /// `-e`
    Neg(Box<E>),
    /// `l op r` (`/` becomes `*` where the divisor is zero)
    Bin(char, Box<E>, Box<E>),
    /// `(e)`
    Paren(Box<E>),
    /// `f(a)` or `f(a, b)`: the k-th of [`FUNCTIONS`] and its arguments
    /// (the first one, or two, are used; `sqrt` takes `abs` of its own).
    Call(usize, Box<E>, Box<E>),
}

/// The built-in functions and how many arguments each takes.
pub const FUNCTIONS: [(&str, usize); 9] =
    [("sin", 1), ("cos", 1), ("tan", 1), ("atan2", 2), ("sqrt", 1), ("abs", 1), ("min", 2), ("max", 2), ("floor", 1)];

fn call(k: usize, a: f64, b: f64) -> f64 {
    match FUNCTIONS[k % FUNCTIONS.len()].0 {
        "sin" => a.sin(),
        "cos" => a.cos(),
        "tan" => a.tan(),
        "atan2" => a.atan2(b),
        "sqrt" => a.abs().sqrt(),
        "abs" => a.abs(),
        "min" => a.min(b),
        "max" => a.max(b),
        _ => a.floor(),
    }
}

/// One or more values of an argument list.
#[derive(Clone, Debug)]
pub enum Piece {
    /// One value.
    E(E),
    /// The k-th name known at the line that fits the values still needed
    /// (a name of several values expands), or a value if none fits.
    Multi(usize),
}

/// An actor attribute.
#[derive(Clone, Debug)]
pub enum Attr {
    /// `action A`: the action's number, and the form it is written in.
    Action(u8, u8),
    /// `direction H`
    Direction(Vec<Piece>),
    /// `position X Z` or, when true, `position X Y Z`.
    Position(bool, Vec<Piece>),
    /// `color R G B`
    Color(Vec<Piece>),
    /// `size S`; when true, a tiny one.
    Size(bool, Vec<Piece>),
}

/// A camera command.
#[derive(Clone, Debug)]
pub enum Cam {
    /// `camera position X Y Z`
    Position(Vec<Piece>),
    /// `camera direction X Y Z`
    Vector(Vec<Piece>),
    /// `camera direction YAW PITCH`
    Angles(Vec<Piece>),
    /// `camera X Y Z DX DY DZ`
    Line(Vec<Piece>),
    /// `camera lookat X Y Z`
    LookAt(Vec<Piece>),
    /// `camera follow ID [DISTANCE HEIGHT]`: the id (an index into the
    /// ids, the form it is written in), and the distance and height if
    /// given.
    Follow((u8, u8), Option<Vec<Piece>>),
    /// `camera move X Y Z over FRAMES`: the point, the frames (a literal
    /// or an expression, 1 to 100 where it lands outside).
    Move(Vec<Piece>, TimeValue),
}

/// How a time directive is written.
#[derive(Clone, Copy, Debug)]
pub enum TimeForm {
    /// `time T`
    Absolute,
    /// `time +T`
    Plus,
    /// `timep T`
    Timep,
}

/// A time's value.
#[derive(Clone, Debug)]
pub enum TimeValue {
    /// A literal.
    Lit(&'static str),
    /// Arithmetic (a literal instead where it would be negative or large).
    Expr(E),
}

/// One line of a plan.
#[derive(Clone, Debug)]
pub enum Step {
    /// `define NAME VALUES...`
    Define(&'static str, Vec<Piece>),
    /// A time directive.
    Time(TimeForm, TimeValue),
    /// `actor ID ATTRIBUTE ...`: the id (an index into the ids, the form
    /// it is written in) and the attribute.
    Actor((u8, u8), Attr),
    /// `camera ...`
    Camera(Cam),
    /// A comment on a line of its own.
    Comment(&'static str),
    /// An empty line.
    Blank,
}

/// How a line is laid out.
#[derive(Clone, Debug)]
pub struct Look {
    indent: u8,
    sep: u8,
    inside: u8,
    comment: Option<u8>,
    crlf: bool,
}

const INDENTS: [&str; 4] = ["", " ", "\t", "   "];
const SEPS: [&str; 4] = [" ", "  ", "\t", " \t "];
const INSIDE: [&str; 4] = ["", " ", "  ", "\t"];
const COMMENTS: [&str; 5] = ["# note", "#", "# (a + b", "# time 5", "#define x 1"];

/// A whole plan: which prelude lines, then the steps.
#[derive(Clone, Debug)]
pub struct Plan {
    pub prelude: Vec<bool>,
    pub pi: bool,
    pub steps: Vec<(Step, Look)>,
}

fn e_strategy(depth: u32) -> impl Strategy<Value = E> {
    let leaf = prop_oneof![
        3 => select(NUMBERS).prop_map(E::Num),
        2 => (0..16usize).prop_map(E::Name),
    ];
    leaf.prop_recursive(depth, 16, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|e| E::Neg(Box::new(e))),
            (select(vec!['+', '-', '*', '/']), inner.clone(), inner.clone()).prop_map(|(op, l, r)| E::Bin(
                op,
                Box::new(l),
                Box::new(r)
            )),
            inner.clone().prop_map(|e| E::Paren(Box::new(e))),
            (0..FUNCTIONS.len(), inner.clone(), inner).prop_map(|(k, a, b)| E::Call(k, Box::new(a), Box::new(b))),
        ]
    })
}

fn pieces() -> impl Strategy<Value = Vec<Piece>> {
    prop::collection::vec(
        prop_oneof![3 => e_strategy(3).prop_map(Piece::E), 1 => (0..16usize).prop_map(Piece::Multi)],
        1..4,
    )
}

fn attr() -> impl Strategy<Value = Attr> {
    prop_oneof![
        3 => (0..12u8, 0..5u8).prop_map(|(a, f)| Attr::Action(a, f)),
        2 => pieces().prop_map(Attr::Direction),
        2 => (any::<bool>(), pieces()).prop_map(|(t, p)| Attr::Position(t, p)),
        1 => pieces().prop_map(Attr::Color),
        1 => (prop::bool::weighted(0.08), pieces()).prop_map(|(b, p)| Attr::Size(b, p)),
    ]
}

fn step() -> impl Strategy<Value = Step> {
    let time_value = prop_oneof![select(TIMES).prop_map(TimeValue::Lit), e_strategy(2).prop_map(TimeValue::Expr)];
    let form = select(vec![TimeForm::Absolute, TimeForm::Plus, TimeForm::Timep]);
    prop_oneof![
        2 => (select(NAMES), pieces()).prop_map(|(n, p)| Step::Define(n, p)),
        3 => (form, time_value).prop_map(|(f, v)| Step::Time(f, v)),
        7 => ((0..8u8, 0..4u8), attr()).prop_map(|(id, a)| Step::Actor(id, a)),
        1 => prop_oneof![
            pieces().prop_map(Cam::Position),
            pieces().prop_map(Cam::Vector),
            pieces().prop_map(Cam::Angles),
            prop::collection::vec(
                prop_oneof![3 => e_strategy(2).prop_map(Piece::E), 1 => (0..16usize).prop_map(Piece::Multi)],
                1..7,
            )
            .prop_map(Cam::Line),
            pieces().prop_map(Cam::LookAt),
            ((0..8u8, 0..4u8), prop::option::of(pieces())).prop_map(|(id, p)| Cam::Follow(id, p)),
            (pieces(), prop_oneof![select(TIMES).prop_map(TimeValue::Lit), e_strategy(2).prop_map(TimeValue::Expr)])
                .prop_map(|(p, n)| Cam::Move(p, n)),
        ]
        .prop_map(Step::Camera),
        1 => select(COMMENTS.to_vec()).prop_map(Step::Comment),
        1 => Just(Step::Blank),
    ]
}

fn look() -> impl Strategy<Value = Look> {
    (0..4u8, 0..4u8, 0..4u8, prop::option::weighted(0.2, 0..5u8), prop::bool::weighted(0.1))
        .prop_map(|(indent, sep, inside, comment, crlf)| Look { indent, sep, inside, comment, crlf })
}

/// Plans of up to `steps` lines after the prelude.
pub fn plan(steps: usize) -> impl Strategy<Value = Plan> {
    (prop::collection::vec(any::<bool>(), 8), any::<bool>(), prop::collection::vec((step(), look()), 0..steps))
        .prop_map(|(prelude, pi, steps)| Plan { prelude, pi, steps })
}

/// Plans printed: the text of a valid scene.
pub fn scene(steps: usize) -> impl Strategy<Value = String> {
    plan(steps).prop_map(|p| build(&p))
}

// ---- the builder ---------------------------------------------------------

struct Builder {
    /// The defines known, in the order first defined.
    env: Vec<(&'static str, Vec<f64>)>,
    /// The current time, by the builder's own arithmetic.
    now: f64,
    out: String,
    /// Every camera position the scene sets (the default's first) and
    /// every point it looks at: a look-at never aims at any of the
    /// positions, whatever order the timeline puts them in.
    cam_positions: Vec<[f64; 3]>,
    look_points: Vec<[f64; 3]>,
    /// Each actor command so far: the id and the frame.
    mentions: Vec<(u64, f64)>,
}

/// Stand-ins for a camera position that a look-at aims at, and for a
/// look-at point where a camera stands.
const OTHER_POSITIONS: [[&str; 3]; 4] = [["0", "3", "10"], ["1", "2", "9"], ["-1", "4", "7"], ["2", "5", "-3"]];
const OTHER_POINTS: [[&str; 3]; 4] = [["0", "0", "0"], ["1", "0", "-1"], ["0.5", "1", "2"], ["-2", "0.25", "3"]];

fn parsed(words: &[&str; 3]) -> [f64; 3] {
    words.map(|w| w.parse().unwrap_or(0.0))
}

/// Text, value and precedence (0 `+ -`, 1 `* /`, 2 unary minus, 3 atom).
type Printed = (String, f64, u8);

impl Builder {
    fn get(&self, name: &str) -> Option<&Vec<f64>> {
        self.env.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }

    fn define(&mut self, name: &'static str, values: Vec<f64>) {
        match self.env.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => slot.1 = values,
            None => self.env.push((name, values)),
        }
    }

    fn singles(&self) -> Vec<&'static str> {
        self.env.iter().filter(|(_, v)| v.len() == 1).map(|(n, _)| *n).collect()
    }

    fn expr(&self, e: &E, inside: &str) -> Printed {
        let one = || ("1".to_string(), 1.0, 3);
        match e {
            E::Num(t) => (t.to_string(), t.parse().unwrap_or(1.0), if t.starts_with('-') { 2 } else { 3 }),
            E::Name(k) => match self.singles() {
                s if s.is_empty() => one(),
                s => {
                    let n = s[k % s.len()];
                    (n.to_string(), self.get(n).map_or(1.0, |v| v[0]), 3)
                }
            },
            E::Named(n) => match self.get(n).map(Vec::as_slice) {
                Some([v]) => (n.to_string(), *v, 3),
                _ => one(),
            },
            E::Neg(inner) => {
                let (t, v, p) = self.expr(inner, inside);
                let t = if p >= 2 { t } else { format!("({t})") };
                (format!("-{t}"), -v, 2)
            }
            E::Paren(inner) => {
                let (t, v, _) = self.expr(inner, inside);
                (format!("({inside}{t}{inside})"), v, 3)
            }
            E::Call(k, a, b) => {
                let (name, arity) = FUNCTIONS[k % FUNCTIONS.len()];
                let (at, av, _) = self.expr(a, inside);
                let (bt, bv, _) = self.expr(b, inside);
                let v = call(*k, av, bv);
                if !v.is_finite() {
                    return one();
                }
                let text = match (name, arity) {
                    ("sqrt", _) => format!("sqrt(abs({inside}{at}{inside}))"),
                    (_, 1) => format!("{name}({inside}{at}{inside})"),
                    _ => format!("{name}({inside}{at},{inside}{bt})"),
                };
                (text, v, 3)
            }
            E::Bin(op, l, r) => {
                let (lt, lv, lp) = self.expr(l, inside);
                let (rt, rv, rp) = self.expr(r, inside);
                let mut op = *op;
                let mut v = apply(op, lv, rv);
                if op == '/' && (rv == 0.0 || !v.is_finite()) {
                    op = '*';
                    v = lv * rv;
                }
                if !v.is_finite() {
                    return one();
                }
                let prec = if matches!(op, '+' | '-') { 0 } else { 1 };
                // Parentheses where the tree needs them: the left operand
                // binds at least as tightly, the right one more tightly.
                let lt = if lp >= prec { lt } else { format!("({lt})") };
                let rt = if rp > prec { rt } else { format!("({rt})") };
                // Spaces around an operator only inside parentheses; the
                // printed tree keeps them for the whole argument.
                let sp = if inside.is_empty() { "" } else { " " };
                (format!("{lt}{sp}{op}{sp}{rt}"), v, prec)
            }
        }
    }

    /// An argument's text: arithmetic is wrapped in parentheses when it
    /// has spaces (a space outside parentheses separates arguments).
    fn arg(&self, e: &E, inside: &str) -> (String, f64) {
        let (t, v, p) = self.expr(e, inside);
        if !inside.is_empty() && p < 3 && t.contains(' ') { (format!("({inside}{t}{inside})"), v) } else { (t, v) }
    }

    /// Exactly `n` values from `pieces` (padded with literals).
    fn values(&self, pieces: &[Piece], n: usize, inside: &str) -> (Vec<String>, Vec<f64>) {
        let (mut texts, mut values) = (Vec::new(), Vec::new());
        for p in pieces {
            let left = n - values.len();
            if left == 0 {
                break;
            }
            match p {
                Piece::Multi(k) => {
                    let fits: Vec<_> = self.env.iter().filter(|(_, v)| v.len() <= left).collect();
                    if let Some((name, v)) = (!fits.is_empty()).then(|| fits[k % fits.len()]) {
                        texts.push(name.to_string());
                        values.extend_from_slice(v);
                        continue;
                    }
                    texts.push(NUMBERS[k % NUMBERS.len()].to_string());
                    values.push(NUMBERS[k % NUMBERS.len()].parse().unwrap_or(0.0));
                }
                Piece::E(e) => {
                    let (t, v) = self.arg(e, inside);
                    texts.push(t);
                    values.push(v);
                }
            }
        }
        while values.len() < n {
            texts.push("1".into());
            values.push(1.0);
        }
        (texts, values)
    }

    fn line(&mut self, words: &[String], look: &Look) {
        self.out.push_str(INDENTS[look.indent as usize]);
        self.out.push_str(&words.join(SEPS[look.sep as usize]));
        if let Some(c) = look.comment {
            self.out.push(' ');
            self.out.push_str(COMMENTS[c as usize]);
        }
        self.out.push_str(if look.crlf { "\r\n" } else { "\n" });
    }

    fn step(&mut self, step: &Step, look: &Look) {
        let inside = INSIDE[look.inside as usize];
        let w = |s: &str| s.to_string();
        match step {
            Step::Define(name, pieces) => {
                // Each piece: one value, or all of a name's (at most 64 in
                // all, the limit of a define).
                let (mut texts, mut values) = (vec![w("define"), w(name)], Vec::new());
                for p in pieces {
                    let (t, v) = match p {
                        Piece::Multi(k) => {
                            let fits: Vec<_> = self.env.iter().filter(|(_, v)| values.len() + v.len() <= 8).collect();
                            match (!fits.is_empty()).then(|| fits[k % fits.len()]) {
                                Some((n, v)) => (n.to_string(), v.clone()),
                                None => (w("2"), vec![2.0]),
                            }
                        }
                        Piece::E(e) => {
                            let (t, v) = self.arg(e, inside);
                            (t, vec![v])
                        }
                    };
                    texts.push(t);
                    values.extend(v);
                }
                self.line(&texts, look);
                self.define(name, values);
            }
            Step::Time(form, value) => {
                let (bound, relative) = match form {
                    TimeForm::Absolute => (300.0, false),
                    _ => (60.0, true),
                };
                let (mut t, mut v) = match value {
                    TimeValue::Lit(t) => (t.to_string(), t.parse().unwrap_or(0.0)),
                    TimeValue::Expr(e) => self.arg(e, inside),
                };
                if !(0.0..=bound).contains(&v) || (relative && self.now + v > 3000.0) {
                    (t, v) = (w("10"), 10.0);
                    if relative && self.now + v > 3000.0 {
                        (t, v) = (w("0"), 0.0);
                    }
                }
                let text = match form {
                    TimeForm::Absolute => vec![w("time"), t],
                    TimeForm::Plus => vec![w("time"), format!("+{t}")],
                    TimeForm::Timep => vec![w("timep"), t],
                };
                self.now = if relative { self.now + v } else { v };
                self.line(&text, look);
            }
            Step::Actor((id, form), attr) => {
                let id_value = IDS[*id as usize % IDS.len()];
                self.mentions.push((id_value, self.now.round()));
                let mut words = vec![w("actor"), self.id(id_value, *form)];
                match attr {
                    Attr::Action(a, form) => {
                        words.push(w("action"));
                        words.push(self.action(u64::from(*a % 12), *form));
                    }
                    Attr::Direction(p) => {
                        words.push(w("direction"));
                        words.extend(self.values(p, 1, inside).0);
                    }
                    Attr::Position(three, p) => {
                        words.push(w("position"));
                        words.extend(self.values(p, if *three { 3 } else { 2 }, inside).0);
                    }
                    Attr::Color(p) => {
                        words.push(w("color"));
                        words.extend(self.values(p, 3, inside).0);
                    }
                    Attr::Size(bad, p) => {
                        words.push(w("size"));
                        let (t, v) = self.values(p, 1, inside);
                        // A size at or below 0 is a compile error; `bad`
                        // picks a tiny one instead.
                        words.push(match (*bad, v[0] > 0.0) {
                            (false, true) => t[0].clone(),
                            (false, false) => w(".9"),
                            (true, _) => w(["1e-3", "0.01", "1e-300"][p.len() % 3]),
                        });
                    }
                }
                self.line(&words, look);
            }
            Step::Camera(cam) => {
                let (attr, n, p) = match cam {
                    Cam::Position(p) => ("position", 3, p),
                    Cam::Vector(p) => ("direction", 3, p),
                    Cam::Angles(p) => ("direction", 2, p),
                    Cam::LookAt(p) => {
                        let (mut texts, values) = self.values(p, 3, inside);
                        let mut point = [values[0], values[1], values[2]];
                        if self.cam_positions.contains(&point) {
                            let other = OTHER_POINTS.iter().find(|o| !self.cam_positions.contains(&parsed(o)));
                            let other = other.unwrap_or(&OTHER_POINTS[0]);
                            texts = other.map(w).to_vec();
                            point = parsed(other);
                        }
                        self.look_points.push(point);
                        let mut words = vec![w("camera"), w("lookat")];
                        words.extend(texts);
                        self.line(&words, look);
                        return;
                    }
                    Cam::Move(p, n) => {
                        let (mut texts, values) = self.values(p, 3, inside);
                        let mut to = [values[0], values[1], values[2]];
                        if let Some(other) = self.position_away(to) {
                            texts = other.map(w).to_vec();
                            to = parsed(other);
                        }
                        self.cam_positions.push(to);
                        let (mut nt, nv) = match n {
                            TimeValue::Lit(t) => (t.to_string(), t.parse().unwrap_or(0.0)),
                            TimeValue::Expr(e) => self.arg(e, inside),
                        };
                        if !(nv.fract() == 0.0 && (1.0..=100.0).contains(&nv)) {
                            nt = w("30");
                        }
                        let mut words = vec![w("camera"), w("move")];
                        words.extend(texts);
                        words.push(w("over"));
                        words.push(nt);
                        self.line(&words, look);
                        return;
                    }
                    Cam::Follow((id, form), p) => {
                        // An actor on the stage by then: one named on an
                        // earlier line at this frame or before, else one
                        // named here first.
                        let frame = self.now.round();
                        let wanted = IDS[*id as usize % IDS.len()];
                        let on = |i: u64| self.mentions.iter().any(|&(m, f)| m == i && f <= frame);
                        let id = if on(wanted) {
                            wanted
                        } else if let Some(&(m, _)) = self.mentions.iter().find(|&&(m, f)| f <= frame && on(m)) {
                            m
                        } else {
                            self.mentions.push((wanted, frame));
                            self.line(&[w("actor"), wanted.to_string(), w("color"), w("1"), w("1"), w("1")], look);
                            wanted
                        };
                        let mut words = vec![w("camera"), w("follow"), self.id(id, *form)];
                        if let Some(p) = p {
                            let (texts, values) = self.values(p, 2, inside);
                            if values[0] == 0.0 && values[1] == 0.0 {
                                words.extend([w("6"), w("2")]);
                            } else {
                                words.extend(texts);
                            }
                        }
                        self.line(&words, look);
                        return;
                    }
                    Cam::Line(p) => {
                        let (mut texts, mut values) = self.values(p, 6, inside);
                        if values[3..].iter().all(|v| *v == 0.0) {
                            texts = ["0", "2", "8", "0", "-1", "-4"].map(w).to_vec();
                            values = vec![0.0, 2.0, 8.0, 0.0, -1.0, -4.0];
                        }
                        let mut at = [values[0], values[1], values[2]];
                        if let Some(other) = self.position_away(at) {
                            // The look vector as numbers (a define may
                            // have stood for values of both halves).
                            texts = other.map(w).to_vec();
                            texts.extend(values[3..].iter().map(|v| format!("{v:?}")));
                            at = parsed(other);
                        }
                        self.cam_positions.push(at);
                        let mut words = vec![w("camera")];
                        words.extend(texts);
                        self.line(&words, look);
                        return;
                    }
                };
                let (mut texts, values) = self.values(p, n, inside);
                if n == 3 && attr == "direction" && values.iter().all(|v| *v == 0.0) {
                    texts = vec![w("0"), w("-1"), w("-4")];
                }
                if attr == "position" {
                    let mut at = [values[0], values[1], values[2]];
                    if let Some(other) = self.position_away(at) {
                        texts = other.map(w).to_vec();
                        at = parsed(other);
                    }
                    self.cam_positions.push(at);
                }
                let mut words = vec![w("camera"), w(attr)];
                words.extend(texts);
                self.line(&words, look);
            }
            Step::Comment(c) => {
                self.out.push_str(INDENTS[look.indent as usize]);
                self.out.push_str(c);
                self.out.push('\n');
            }
            Step::Blank => self.out.push_str(if look.crlf { "\r\n" } else { "\n" }),
        }
    }

    fn empty() -> Builder {
        Builder {
            env: Vec::new(),
            now: 0.0,
            out: String::new(),
            cam_positions: vec![[0.0, 2.0, 8.0]],
            look_points: Vec::new(),
            mentions: Vec::new(),
        }
    }

    /// A camera position `at` a look-at aims at is replaced by one of
    /// [`OTHER_POSITIONS`]: `Some` of its words then.
    fn position_away(&self, at: [f64; 3]) -> Option<&'static [&'static str; 3]> {
        if !self.look_points.contains(&at) {
            return None;
        }
        Some(OTHER_POSITIONS.iter().find(|o| !self.look_points.contains(&parsed(o))).unwrap_or(&OTHER_POSITIONS[0]))
    }

    /// A name holding exactly `value` (one value), preferring `preferred`.
    fn name_for(&self, value: f64, preferred: &str) -> Option<&'static str> {
        let holds = |e: &&(&'static str, Vec<f64>)| e.1.len() == 1 && e.1[0] == value;
        let mut holding = self.env.iter().filter(holds);
        let first = holding.clone().next();
        holding.find(|(n, _)| *n == preferred).or(first).map(|(n, _)| *n)
    }

    fn id(&self, id: u64, form: u8) -> String {
        match form {
            1 => self
                .name_for(id as f64, ["idle", "mommy", "chick"][(id as usize).min(2)])
                .map_or(id.to_string(), str::to_string),
            2 if id < 1000 => format!("({} + {})", id / 2, id - id / 2),
            3 if id == 0 => "-0".into(),
            3 => format!("{}*1", id),
            _ => id.to_string(),
        }
    }

    fn action(&self, a: u64, form: u8) -> String {
        match form {
            1 | 2 => self.name_for(a as f64, ACTIONS[a as usize]).map_or(a.to_string(), str::to_string),
            3 => format!("({} + {})", a / 2, a - a / 2),
            4 if a > 0 => format!("--{a}"),
            4 => format!("{}/2", 2 * a),
            _ => a.to_string(),
        }
    }
}

fn apply(op: char, l: f64, r: f64) -> f64 {
    match op {
        '+' => l + r,
        '-' => l - r,
        '*' => l * r,
        _ => l / r,
    }
}

/// The lines every plan may start with: the spec's defines.
fn prelude(b: &mut Builder, which: &[bool], pi: bool) {
    let plain = Look { indent: 0, sep: 0, inside: 0, comment: None, crlf: false };
    let on = |i: usize| which.get(i).copied().unwrap_or(false);
    let num = |t: &'static str| Piece::E(E::Num(t));
    let named = |n: &'static str| E::Named(n);
    if on(0) {
        b.step(&Step::Define("PI", vec![num(if pi { "3.1416" } else { "3.14159265358979" })]), &plain);
        if on(1) {
            let half = E::Bin('/', Box::new(named("PI")), Box::new(E::Num("2")));
            b.step(&Step::Define("halfpi", vec![Piece::E(half)]), &plain);
            b.step(&Step::Define("left", vec![Piece::E(E::Neg(Box::new(named("halfpi"))))]), &plain);
        }
    }
    if on(2) {
        for (i, a) in ACTIONS.iter().enumerate() {
            b.step(
                &Step::Define(a, vec![num(["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11"][i])]),
                &plain,
            );
        }
    }
    if on(3) {
        b.step(&Step::Define("sec", vec![num("30")]), &plain);
    }
    if on(4) {
        b.step(&Step::Define("red", vec![num("1"), num("0"), num("0")]), &plain);
        b.step(&Step::Define("green", vec![num("0"), num("1"), num("0")]), &plain);
    }
    if on(5) {
        b.step(&Step::Define("mommy", vec![num("1")]), &plain);
        b.step(&Step::Define("chick", vec![num("2")]), &plain);
    }
    if on(6) {
        let quarter = E::Paren(Box::new(E::Bin('+', Box::new(E::Num("0.5")), Box::new(E::Num("0.25")))));
        b.step(&Step::Define("spot", vec![num("2"), Piece::E(quarter)]), &plain);
        b.step(&Step::Define("high", vec![num("1"), num("2"), num("3")]), &plain);
    }
    if on(7) {
        b.step(&Step::Time(TimeForm::Absolute, TimeValue::Lit("0")), &plain);
    }
}

/// Prints a plan.
pub fn build(plan: &Plan) -> String {
    let mut b = Builder::empty();
    prelude(&mut b, &plan.prelude, plan.pi);
    for (step, look) in &plan.steps {
        b.step(step, look);
    }
    b.out
}

/// Lines a valid scene must not contain, and some that look wrong but are
/// valid (the validity property wants the two evaluators to agree on both).
pub const MISTAKES: &[&str] = &[
    "actor 1 size nosuchname",
    "actor 1 size 1/0",
    "actor 1 size 1/(2 - 2)",
    "actor 1 color 1 0",
    "actor 1 color red 1",
    "actor 1 position 1",
    "actor 1 position 1 2 3 4",
    "actor 1 action 2.5",
    "actor 1 action 12",
    "actor 1 action -1",
    "actor 1 action -0",
    "actor -1 size 1",
    "actor 1.5 size 1",
    "actor 4294967296 size 1",
    "actor 4294967295 size 1",
    "actor -0 size 1",
    "actor red size 1",
    "time -5",
    "time +(0 - 1)",
    "timep -1",
    "timep +1",
    "time 1 2",
    "time red",
    "time 16777215",
    "time 16777215.4",
    "time 16777215.5",
    "time 1e-400",
    "tiem 5",
    "actor 1 colour 1 1 1",
    "actor 1 position 1 +2",
    "actor +1 size 1",
    "define +x 1",
    "camera direction 0 0 0",
    "camera direction -0 0 (0*-1)",
    "camera direction 1e-320 0 0",
    "camera zoom 1",
    "camera position 1 2",
    "camera lookat 0 2 8",
    "camera lookat 0 0 0",
    "camera lookat 1 2",
    "camera follow 1",
    "camera follow 0 6 2",
    "camera follow 1 0 -0",
    "camera follow 1 2",
    "camera follow 1.5",
    "camera follow red",
    "camera position 0 0 0",
    "camera move 1 2 3",
    "camera move 1 2 3 over 0",
    "camera move 1 2 3 over 2.5",
    "camera move 1 2 over 5",
    "camera move 0 2 8 over 1",
    "actor 1 size 1e400",
    "actor 1 size 1e300*1e300",
    "actor 1 size 1e300*1e300/1e300",
    "actor 1 size 1e-400",
    "actor 1 size (1e308 + 1e308) - 1e308",
    "define",
    "define x",
    "define 5 5",
    "actor 1",
    "actor 1 2 3",
    "camera",
    "actor 1 size 1 - 2",
    "actor 1 size 2sec",
    "actor 1 size red*2",
    "actor 1 size (red)",
    "define r 1 0 0 1 0 0 1 0 0 1 0 0 1 0 0 1 0 0 1 0 0 1 0 0 1 0 0 1 0 0 1 0 0 1 0 0 1 0 0 1 0 0 1 0 0 1 0 0 1 0 0 1 0 0 1 0 0 1 0 0 1 0 0 1 0",
    "actor 1 size (((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((1)))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))",
];

/// A valid scene with one line of [`MISTAKES`] put in at a line.
pub fn scene_with_mistake(steps: usize) -> impl Strategy<Value = String> {
    (scene(steps), any::<prop::sample::Index>(), select(MISTAKES)).prop_map(|(text, at, mistake)| {
        let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
        let at = at.index(lines.len() + 1);
        let line = format!("{mistake}\n");
        lines.insert(at, &line);
        lines.concat()
    })
}
