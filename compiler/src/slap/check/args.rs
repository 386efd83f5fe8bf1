//! Argument lists: evaluating them, expanding names that stand for
//! several values, and the errors for a wrong number of values.

use super::{Checker, Ctx, Expansion, plural};
use crate::diagnostic::Diagnostic;
use crate::slap::ir::{Expr, Value};
use animkit_grammar::Span;
use animkit_grammar::slap::ast::{self, Arg};

/// Each name of `expansions` once, in order: the name, where it was
/// defined, its value count and how many times it expanded.
pub(super) fn grouped<'x>(expansions: &'x [Expansion<'_>]) -> Vec<(&'x Expansion<'x>, usize)> {
    let mut out: Vec<(&Expansion<'_>, usize)> = Vec::new();
    for x in expansions {
        match out.iter_mut().find(|(y, _)| y.name == x.name) {
            Some((_, times)) => *times += 1,
            None => out.push((x, 1)),
        }
    }
    out
}

pub(super) fn expansion_note(x: &Expansion<'_>, times: usize) -> String {
    let again = if times > 1 { format!(", {times} times") } else { String::new() };
    format!("`{}` expands to {}{again}", x.name, plural(x.count, "value"))
}

pub(super) fn args_span(args: &[Arg<'_>]) -> Option<Span> {
    Some(args.first()?.span.to(args.last()?.span))
}

impl<'a> Checker<'a> {
    /// `arg` (its `+` aside) as one value without collecting a list: the
    /// value, `Some(None)` if it could not be computed (reported), `None`
    /// if it is a bare name that stands for several values (the caller
    /// then takes the general path, [`Checker::values`], to explain).
    pub(super) fn single(&mut self, arg: &Arg<'a>, ctx: Ctx) -> Option<Option<Value>> {
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
    pub(super) fn values(
        &mut self,
        args: &[Arg<'a>],
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
    pub(super) fn count_error(
        &mut self,
        at: Span,
        what: &str,
        expected: &str,
        found: usize,
        expansions: &[Expansion<'_>],
    ) {
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
}
