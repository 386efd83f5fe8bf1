//! Arithmetic: an expression evaluated to its IR and its value.

use super::{Checker, Ctx};
use crate::diagnostic::Diagnostic;
use crate::slap::ir::{Expr, apply};
use animkit_grammar::slap::ast::{self, BinOp};

impl<'a> Checker<'a> {
    /// Evaluates `e`; `None` (with the errors reported) if it cannot be.
    /// Both operands of an operator are evaluated, so that every error in
    /// an expression is reported.
    pub(super) fn eval(&mut self, e: &ast::Expr<'a>, ctx: Ctx) -> Option<(Expr, f64)> {
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
}
