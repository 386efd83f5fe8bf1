//! Function calls (an animkit extension), folded to a number.

use super::{Checker, Ctx, plural, show};
use crate::diagnostic::Diagnostic;
use crate::slap::func::{FUNCTIONS, Func};
use crate::slap::ir::Expr;
use crate::suggest::closest;
use animkit_grammar::Span;
use animkit_grammar::slap::ast;

impl<'a> Checker<'a> {
    /// A function call, folded: its result is one number of the IR
    /// (see [`crate::slap::func`]). Every argument is evaluated, so that every
    /// error in them is reported.
    pub(super) fn call(
        &mut self,
        name: &ast::Name<'a>,
        args: &[ast::Expr<'a>],
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
}
