//! The camera: the spec's one-line form, its attributes, `move` and
//! `follow`.

use super::args::args_span;
use super::{CAMERA_ATTRIBUTES, Checker, Ctx, Expansion, show};
use crate::diagnostic::Diagnostic;
use crate::slap::ir::{CameraAttr, Command, Expr, FOLLOW_DISTANCE, FOLLOW_HEIGHT, Value};
use crate::suggest::closest;
use animkit_grammar::Span;
use animkit_grammar::slap::ast;

impl<'a> Checker<'a> {
    /// `camera X Y Z DX DY DZ` (the spec's `camera position direction`,
    /// each a set of 3 values that defines may stand for): a position
    /// command and a look-vector command, in that order.
    pub(super) fn camera_line(&mut self, d: &ast::Directive<'a>) {
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

    pub(super) fn camera(&mut self, d: &ast::Directive<'a>) {
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
    pub(super) fn camera_move(&mut self, d: &ast::Directive<'a>, attr: Span) {
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
    pub(super) fn follow(
        &mut self,
        d: &ast::Directive<'a>,
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
