//! SLAP's built-in functions (`sin(PI/4)`, `atan2(y, x)`): their names,
//! arity and the IEEE `f64` operation each one is. A call is always folded
//! by the checker, whatever `--no-fold` says: every value in SLAP is known
//! at compile time, and the VM has no instruction for these, so a call's
//! result is one constant of the bytecode (the operators around it are
//! still computed by the VM with folding off).

/// One function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Func {
    /// `sin(x)`, x in radians
    Sin,
    /// `cos(x)`
    Cos,
    /// `tan(x)`
    Tan,
    /// `atan2(y, x)`: the angle of the point (x, y), in -PI..=PI
    Atan2,
    /// `sqrt(x)`, x >= 0
    Sqrt,
    /// `abs(x)`
    Abs,
    /// `min(a, b)`
    Min,
    /// `max(a, b)`
    Max,
    /// `floor(x)`: the largest whole number not above x
    Floor,
}

/// The function names, in the order the docs list them.
pub const FUNCTIONS: [&str; 9] = ["sin", "cos", "tan", "atan2", "sqrt", "abs", "min", "max", "floor"];

impl Func {
    /// The function named `name`, if there is one.
    ///
    /// ```
    /// use animkit_compiler::slap::func::Func;
    /// assert_eq!(Func::named("atan2"), Some(Func::Atan2));
    /// assert_eq!(Func::named("pi"), None);
    /// ```
    pub fn named(name: &str) -> Option<Func> {
        Some(match name {
            "sin" => Func::Sin,
            "cos" => Func::Cos,
            "tan" => Func::Tan,
            "atan2" => Func::Atan2,
            "sqrt" => Func::Sqrt,
            "abs" => Func::Abs,
            "min" => Func::Min,
            "max" => Func::Max,
            "floor" => Func::Floor,
            _ => return None,
        })
    }

    /// How many arguments it takes.
    pub const fn arity(self) -> usize {
        match self {
            Func::Atan2 | Func::Min | Func::Max => 2,
            _ => 1,
        }
    }

    /// How its arguments are written, for messages (`atan2(y, x)`).
    pub const fn form(self) -> &'static str {
        match self {
            Func::Sin => "sin(x)",
            Func::Cos => "cos(x)",
            Func::Tan => "tan(x)",
            Func::Atan2 => "atan2(y, x)",
            Func::Sqrt => "sqrt(x)",
            Func::Abs => "abs(x)",
            Func::Min => "min(a, b)",
            Func::Max => "max(a, b)",
            Func::Floor => "floor(x)",
        }
    }

    /// The value for `args` (exactly [`Func::arity`] of them, finite).
    /// `sqrt` of a negative number is NaN here; the checker refuses it
    /// before.
    ///
    /// ```
    /// use animkit_compiler::slap::func::Func;
    /// assert_eq!(Func::Atan2.apply(&[1.0, 0.0]), std::f64::consts::FRAC_PI_2);
    /// assert_eq!(Func::Floor.apply(&[-0.5]), -1.0);
    /// ```
    pub fn apply(self, args: &[f64]) -> f64 {
        let a = args.first().copied().unwrap_or(f64::NAN);
        let b = args.get(1).copied().unwrap_or(f64::NAN);
        match self {
            // The `libm` crate, not the platform's maths library: std's
            // `sin` is glibc's natively and this same port on wasm32, and
            // the two round some results one bit apart, so a bundle
            // compiled in the browser's playground would differ from
            // `animc`'s (web/tests/playground.rs, `circle.slap`).
            Func::Sin => libm::sin(a),
            Func::Cos => libm::cos(a),
            Func::Tan => libm::tan(a),
            Func::Atan2 => libm::atan2(a, b),
            Func::Sqrt => a.sqrt(),
            Func::Abs => a.abs(),
            Func::Min => a.min(b),
            Func::Max => a.max(b),
            Func::Floor => a.floor(),
        }
    }
}
