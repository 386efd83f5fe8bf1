//! `define` and the names it binds, and the error for an undefined name.

use super::args::{args_span, expansion_note, grouped};
use super::{ACTIONS, Checker, Ctx, DEFINES_FULL, Def, Text, actions_note};
use crate::diagnostic::Diagnostic;
use crate::suggest::{closest, closest_within};
use animkit_grammar::Span;
use animkit_grammar::slap::ast::{self, Arg, Line};
use std::collections::HashMap;

impl<'a> Checker<'a> {
    /// Binds `name`, defined at `span` (values `None`: unknown).
    pub(super) fn bind(&mut self, name: &'a str, span: Span, values: Option<Vec<f64>>) {
        let unit = self.unit();
        match self.names.get(name) {
            Some(&i) => self.defs[i] = Def { name, values, span, unit },
            None => {
                self.names.insert(name, self.defs.len());
                self.defs.push(Def { name, values, span, unit });
            }
        }
    }

    pub(super) fn undefined(&mut self, name: &ast::Name<'a>, ctx: Ctx) {
        if self.full[DEFINES_FULL] {
            // Names past the define limit were left out on purpose.
            return;
        }
        let text = name.text;
        let scene = self.units[0];
        let anywhere = self.anywhere.get_or_insert_with(|| {
            let mut all = HashMap::new();
            let mut add = |line: &Line<'a>| {
                if let Line::Directive(d) = line {
                    if d.keyword.text == "define" {
                        if let Some(n) = d.args.first().and_then(Arg::as_name) {
                            all.entry(n.text).or_insert(n.span);
                        }
                    }
                }
            };
            // The scene's text is read again (once, on the first undefined
            // name): its lines are not kept.
            match scene {
                Text::Parsed(file) => file.lines.iter().for_each(add),
                Text::Unparsed(text) => animkit_grammar::slap::each_line(text, |line, _| add(&line)),
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

    pub(super) fn define(&mut self, d: &ast::Directive<'a>) {
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
}
