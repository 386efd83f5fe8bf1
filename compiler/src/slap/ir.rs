//! The checked form of a SLAP scene: what the lowering consumes. Every
//! name is replaced by its value, every argument count fits its attribute,
//! every id, action and time is in range, and the commands are in timeline
//! order.

use animkit_grammar::Span;
pub use animkit_grammar::slap::ast::BinOp;

/// A checked scene.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SceneIr {
    /// The commands sorted by frame, stably: within a frame, in source
    /// order.
    pub commands: Vec<TimedCommand>,
    /// The scene's length: the largest frame any time directive named (0
    /// if there is none). It may lie after the last command's frame.
    pub length: u32,
}

/// A command and the frame it runs at.
#[derive(Clone, Debug, PartialEq)]
pub struct TimedCommand {
    /// The frame: the current time, rounded to the nearest frame (halves
    /// away from zero).
    pub frame: u32,
    /// The directive's line (its keyword to its last argument).
    pub span: Span,
    /// What it does.
    pub command: Command,
}

/// An actor or camera command.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `actor ID ATTRIBUTE ARGS...`
    Actor {
        /// The actor's id: a whole number from 0 to `u32::MAX`.
        id: Value,
        /// Which attribute, with the form its argument count chose.
        attr: ActorAttr,
        /// Exactly [`ActorAttr::arity`] values.
        args: Vec<Value>,
    },
    /// `camera ATTRIBUTE ARGS...`
    Camera {
        /// Which attribute and form.
        attr: CameraAttr,
        /// Exactly [`CameraAttr::arity`] values.
        args: Vec<Value>,
    },
}

impl Command {
    /// How many values the command loads: the actor id (for an actor)
    /// and its arguments.
    ///
    /// ```
    /// use animkit_compiler::slap::front;
    /// let scene = front("actor 1 color 1 0 0\ncamera position 0 1 2\n").unwrap().ir;
    /// assert_eq!(scene.commands[0].command.window(), 4);
    /// assert_eq!(scene.commands[1].command.window(), 3);
    /// ```
    pub fn window(&self) -> usize {
        match self {
            Command::Actor { args, .. } => 1 + args.len(),
            Command::Camera { args, .. } => args.len(),
        }
    }
}

/// A checked scene as the compile path keeps it: a [`SceneIr`] without
/// the spans of its values, its values in one list and only the
/// arithmetic that is more than a number, 16 bytes a command and 8 a
/// value (a `SceneIr` takes about 100 and 48). The lowering reads it
/// ([`super::lower::lower_timeline`]); [`Timeline::from_ir`] makes one of
/// a `SceneIr`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Timeline {
    /// The commands in timeline order (by frame, stably).
    pub steps: Vec<Step>,
    /// The values of every command, each command's in window order (an
    /// actor's id first) from its [`Step::first`]; in the order the
    /// commands were written, not sorted.
    pub values: Vec<f64>,
    /// The arithmetic of each value that is not just its number (a value
    /// whose arithmetic is `Expr::Num(v)` has none here), by index into
    /// `values`, ascending.
    pub exprs: Vec<(u32, Expr)>,
    /// The scene's length, as [`SceneIr::length`].
    pub length: u32,
}

/// One command of a [`Timeline`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The frame it runs at.
    pub frame: u32,
    /// The first byte of its directive (for its debug position); the
    /// sources animc reads are far below 4 GiB.
    pub at: u32,
    /// Its first value in [`Timeline::values`].
    pub first: u32,
    /// What it does.
    pub kind: Kind,
}

/// What a [`Step`] does: an actor or camera attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `actor ID ATTRIBUTE ...`
    Actor(ActorAttr),
    /// `camera ATTRIBUTE ...`
    Camera(CameraAttr),
}

impl Kind {
    /// How many values the command loads (an actor's id and its
    /// arguments), as [`Command::window`].
    pub const fn window(self) -> usize {
        match self {
            Kind::Actor(a) => 1 + a.arity(),
            Kind::Camera(c) => c.arity(),
        }
    }
}

impl Timeline {
    /// The values of `step`.
    pub fn values_of(&self, step: &Step) -> &[f64] {
        let first = step.first as usize;
        self.values.get(first..first + step.kind.window()).unwrap_or(&[])
    }

    /// The arithmetic of value `i`, when it is more than its number.
    pub fn expr(&self, i: usize) -> Option<&Expr> {
        let i = u32::try_from(i).ok()?;
        self.exprs.binary_search_by_key(&i, |e| e.0).ok().map(|k| &self.exprs[k].1)
    }

    /// The timeline of `scene`, its commands in the same order.
    ///
    /// ```
    /// use animkit_compiler::slap::{front, ir::Timeline};
    /// let scene = front("time 2\nactor 1 size 2*3\ntime 1\nactor 1 size 1\n").unwrap().ir;
    /// let t = Timeline::from_ir(&scene);
    /// assert_eq!(t.steps.iter().map(|s| s.frame).collect::<Vec<_>>(), [1, 2]);
    /// assert_eq!(t.values, [1.0, 1.0, 1.0, 6.0]);
    /// assert_eq!(t.exprs.len(), 1);
    /// ```
    pub fn from_ir(scene: &SceneIr) -> Timeline {
        let mut t = Timeline { length: scene.length, ..Timeline::default() };
        t.steps.reserve(scene.commands.len());
        for c in &scene.commands {
            let (kind, id, args) = match &c.command {
                Command::Actor { id, attr, args } => (Kind::Actor(*attr), Some(id), args),
                Command::Camera { attr, args } => (Kind::Camera(*attr), None, args),
            };
            let first = t.values.len() as u32;
            for v in id.into_iter().chain(args) {
                t.push_value(v.value, &v.expr);
            }
            t.steps.push(Step { frame: c.frame, at: c.span.start as u32, first, kind });
        }
        t
    }

    /// Appends a value and, if it is more than a number, its arithmetic.
    pub(crate) fn push_value(&mut self, value: f64, expr: &Expr) {
        if !matches!(expr, Expr::Num(_)) {
            self.exprs.push((self.values.len() as u32, expr.clone()));
        }
        self.values.push(value);
    }
}

/// An actor attribute, with the form its argument count chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ActorAttr {
    /// `action A`: a whole number from 0 to 11.
    Action,
    /// `direction RADIANS`
    Direction,
    /// `position X Z`
    Position2,
    /// `position X Y Z` (y up)
    Position3,
    /// `color R G B`
    Color,
    /// `size S`
    Size,
}

impl ActorAttr {
    /// How many values the attribute takes.
    ///
    /// ```
    /// use animkit_compiler::slap::ir::ActorAttr;
    /// assert_eq!(ActorAttr::Position2.arity(), 2);
    /// assert_eq!(ActorAttr::Color.arity(), 3);
    /// ```
    pub const fn arity(self) -> usize {
        match self {
            ActorAttr::Action | ActorAttr::Direction | ActorAttr::Size => 1,
            ActorAttr::Position2 => 2,
            ActorAttr::Position3 | ActorAttr::Color => 3,
        }
    }
}

/// A camera attribute, with the form its argument count chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CameraAttr {
    /// `camera position X Y Z`
    Position,
    /// `camera direction X Y Z`: a look vector, not all zero.
    DirectionVector,
    /// `camera direction YAW PITCH`, in radians: yaw 0 looks along -z,
    /// positive yaw turns right (towards +x); pitch 0 is level, positive
    /// looks up.
    DirectionAngles,
    /// `camera lookat X Y Z` (an extension): the look vector from where
    /// the camera stands at that time point to the point.
    LookAt,
    /// `camera follow ACTOR [DISTANCE HEIGHT]` (an extension): the values
    /// are the actor's id, the distance behind it and the height above it
    /// (the defaults filled in: [`FOLLOW_DISTANCE`], [`FOLLOW_HEIGHT`]).
    Follow,
    /// `camera move X Y Z over FRAMES` (an extension): the point, then the
    /// frames, a whole number from 1 to the last frame.
    Move,
}

/// The distance behind the actor of `camera follow ACTOR` without one.
pub const FOLLOW_DISTANCE: f64 = 6.0;
/// The height above the actor of `camera follow ACTOR` without one.
pub const FOLLOW_HEIGHT: f64 = 2.0;

impl CameraAttr {
    /// How many values the attribute takes.
    ///
    /// ```
    /// use animkit_compiler::slap::ir::CameraAttr;
    /// assert_eq!(CameraAttr::DirectionAngles.arity(), 2);
    /// ```
    pub const fn arity(self) -> usize {
        match self {
            CameraAttr::Position | CameraAttr::DirectionVector | CameraAttr::LookAt | CameraAttr::Follow => 3,
            CameraAttr::DirectionAngles => 2,
            CameraAttr::Move => 4,
        }
    }
}

/// One argument value: the arithmetic that computes it, and its result.
#[derive(Clone, Debug, PartialEq)]
pub struct Value {
    /// The arithmetic, with every name replaced by its value.
    pub expr: Expr,
    /// `expr` evaluated ([`Expr::eval`]): finite.
    pub value: f64,
    /// The argument it came from (for a name that expanded to several
    /// values, the name).
    pub span: Span,
}

/// An argument's arithmetic, in IEEE `f64` operations. A function call
/// (`sin(x)`) is not a node: the checker folds it into a [`Expr::Num`]
/// whatever the folding option (see [`super::func`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// A number: a literal, or the value of a defined name.
    Num(f64),
    /// `-operand`
    Neg(Box<Expr>),
    /// `lhs op rhs`
    Bin(BinOp, Box<Expr>, Box<Expr>),
}

impl Expr {
    /// The value: each operation one IEEE `f64` operation, the left operand
    /// evaluated before the right. The lowering with constant folding off
    /// emits exactly these operations, so the VM computes the same bits.
    ///
    /// ```
    /// use animkit_compiler::slap::ir::{BinOp, Expr};
    /// let e = Expr::Bin(BinOp::Div, Box::new(Expr::Neg(Box::new(Expr::Num(3.0)))), Box::new(Expr::Num(2.0)));
    /// assert_eq!(e.eval(), -1.5);
    /// ```
    pub fn eval(&self) -> f64 {
        match self {
            Expr::Num(v) => *v,
            Expr::Neg(e) => -e.eval(),
            Expr::Bin(op, l, r) => apply(*op, l.eval(), r.eval()),
        }
    }

    /// How many numbers it holds: the constants computing it takes.
    ///
    /// ```
    /// use animkit_compiler::slap::ir::{BinOp, Expr};
    /// let e = Expr::Bin(BinOp::Div, Box::new(Expr::Neg(Box::new(Expr::Num(3.0)))), Box::new(Expr::Num(2.0)));
    /// assert_eq!(e.numbers(), 2);
    /// ```
    pub fn numbers(&self) -> usize {
        match self {
            Expr::Num(_) => 1,
            Expr::Neg(e) => e.numbers(),
            Expr::Bin(_, l, r) => l.numbers() + r.numbers(),
        }
    }
}

/// `l op r` in IEEE `f64`.
///
/// ```
/// use animkit_compiler::slap::ir::{apply, BinOp};
/// assert_eq!(apply(BinOp::Sub, 1.0, 3.0), -2.0);
/// ```
pub fn apply(op: BinOp, l: f64, r: f64) -> f64 {
    match op {
        BinOp::Add => l + r,
        BinOp::Sub => l - r,
        BinOp::Mul => l * r,
        BinOp::Div => l / r,
    }
}
