//! `time` and `timep`: the current time and the scene's length.

use super::args::args_span;
use super::{Checker, Ctx, TIMES_FULL, show};
use crate::diagnostic::{Diagnostic, Severity};
use animkit_grammar::slap::ast;

impl<'a> Checker<'a> {
    pub(super) fn time(&mut self, d: &ast::Directive<'a>, timep: bool) {
        let keyword = if timep { "timep" } else { "time" };
        self.time_points += 1;
        if self.time_points > self.limits.time_points && !self.full[TIMES_FULL] {
            self.full[TIMES_FULL] = true;
            let max = self.limits.time_points;
            self.error(Diagnostic::error(
                d.keyword.span,
                format!("too many time directives: a scene may have at most {max}"),
                format!("time directive {} is one too many", max + 1),
            ));
        }
        let previous = (self.time, self.time_span);
        self.time = None;
        self.time_span = Some((self.unit(), d.span));
        let Some(first) = d.args.first() else {
            self.error(
                Diagnostic::error(d.keyword.span, format!("`{keyword}` needs a time value"), "nothing after it")
                    .with_help(if timep {
                        "write `timep 10` for 10 frames later"
                    } else {
                        "write `time 10`, or `time +10` for 10 frames later"
                    }),
            );
            return;
        };
        let relative = timep || first.plus.is_some();
        if timep {
            if let Some(plus) = first.plus {
                self.error(
                    Diagnostic::error(plus, "`timep` is relative already", "a second relative mark")
                        .with_help("write `timep 10` or `time +10`"),
                );
                return;
            }
        }
        let one = if d.args.len() == 1 { self.single(first, Ctx::Plain) } else { None };
        let t = match one {
            Some(Some(v)) => v.value,
            Some(None) => return,
            None => {
                let mut out = Vec::new();
                let mut expansions = Vec::new();
                if !self.values(&d.args, true, Ctx::Plain, &mut out, &mut expansions) {
                    return;
                }
                if out.len() != 1 {
                    let span = args_span(&d.args).unwrap_or(d.keyword.span);
                    self.count_error(span, &format!("`{keyword}`"), "1 value", out.len(), &expansions);
                    return;
                }
                out[0].value
            }
        };
        let at = first.span;
        let new = if relative {
            if t < 0.0 {
                self.error(
                    Diagnostic::error(at, "relative time goes backwards", format!("this is {}", show(t))).with_note(
                        "`time +T` and `timep T` move forward from the last time; an absolute `time` can go back",
                    ),
                );
                return;
            }
            let (Some(now), _) = previous else { return };
            now + t
        } else {
            if t < 0.0 {
                self.error(
                    Diagnostic::error(at, format!("time {} is negative", show(t)), "frames count from 0")
                        .with_note("an absolute time is a frame number, 0 or more"),
                );
                return;
            }
            if let (Some(now), Some((prev_unit, prev_span))) = previous {
                if t < now {
                    let same_file = prev_unit == self.unit();
                    let w = Diagnostic {
                        severity: Severity::Warning,
                        ..Diagnostic::error(
                            at,
                            format!("time {} is earlier than the current time {}", show(t), show(now)),
                            "goes back in time",
                        )
                    };
                    let w = if same_file {
                        w.with_secondary(prev_span, format!("the time was {} here", show(now)))
                    } else {
                        w.with_note(format!("the time was {}, set in another file", show(now)))
                    };
                    self.diags.push(
                        w.with_note(format!(
                            "the timeline is ordered by frame: the commands below run at frame {}, before those of later frames",
                            show(t.round())
                        )),
                    );
                }
            }
            t
        };
        let frame = new.round();
        if frame > self.limits.frame as f64 {
            let max = self.limits.frame;
            self.error(
                Diagnostic::error(
                    at,
                    format!("frame {} is past the last frame a scene may have", show(frame)),
                    format!("at most {max}"),
                )
                .with_note(format!("the time here is {}; a scene ends by frame {max}", show(new))),
            );
            return;
        }
        self.time = Some(new);
        self.length = self.length.max(frame as u32);
    }

    /// The frame of a command now, if the time is known.
    pub(super) fn frame(&self) -> Option<u32> {
        self.time.map(|t| t.round() as u32)
    }
}
