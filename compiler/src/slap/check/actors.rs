//! `actor ID ATTRIBUTE ARGS...`: the attribute, its values and the id.

use super::args::args_span;
use super::{ACTOR_ATTRIBUTES, ACTORS_FULL, Checker, Ctx, actions_note, show};
use crate::diagnostic::Diagnostic;
use crate::slap::ir::{ActorAttr, Command, Value};
use crate::suggest::closest;
use animkit_grammar::slap::ast::{self, Arg};

impl<'a> Checker<'a> {
    pub(super) fn actor(&mut self, d: &ast::Directive<'a>) {
        self.last_id = None;
        let before = self.timeline.steps.len();
        self.actor_line(d);
        if let Some(id) = self.last_id.filter(|_| self.timeline.steps.len() == before) {
            self.failed_ids.insert(id);
        }
    }

    pub(super) fn actor_line(&mut self, d: &ast::Directive<'a>) {
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
    pub(super) fn actor_id(&mut self, arg: &Arg<'a>) -> Option<Value> {
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
    pub(super) fn id_in_range(&mut self, id: &Value) -> Option<u32> {
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
}
