//! The end of a check: errors settled in timeline order, diagnostics
//! sorted into source order, and the scene.

use super::{CAMERA_POSITION, CheckedScene, Checker, Seeded, Spans, show};
use crate::diagnostic::Diagnostic;
use crate::slap::ir::{CameraAttr, Command, Expr, Kind, SceneIr, TimedCommand, Timeline, Value};
use animkit_grammar::Span;
use std::collections::HashSet;

impl<'a> Checker<'a> {
    /// The scene as a [`SceneIr`], with the spans of its commands and
    /// values, or every diagnostic.
    pub(super) fn finish(self) -> Result<CheckedScene, Vec<Diagnostic>> {
        let (t, spans, warnings) = self.settle()?;
        let spans = spans.unwrap_or_default();
        let span_of = |v: &[Span], i: usize| v.get(i).copied().unwrap_or_default();
        let value = |i: usize| {
            let v = t.values[i];
            Value { expr: t.expr(i).cloned().unwrap_or(Expr::Num(v)), value: v, span: span_of(&spans.values, i) }
        };
        let mut commands: Vec<TimedCommand> = t
            .steps
            .iter()
            .enumerate()
            .map(|(k, step)| {
                let first = step.first as usize;
                let window = first..first + step.kind.window();
                let command = match step.kind {
                    Kind::Actor(attr) => {
                        Command::Actor { id: value(first), attr, args: window.skip(1).map(value).collect() }
                    }
                    Kind::Camera(attr) => Command::Camera { attr, args: window.map(value).collect() },
                };
                TimedCommand { frame: step.frame, span: span_of(&spans.commands, k), command }
            })
            .collect();
        if !commands.is_sorted_by_key(|c| c.frame) {
            commands.sort_by_key(|c| c.frame);
        }
        Ok(CheckedScene { ir: SceneIr { commands, length: t.length }, warnings })
    }

    /// The scene as a [`Timeline`] (its steps in timeline order) and its
    /// warnings, or every diagnostic.
    pub(super) fn finish_timeline(self) -> Result<(Timeline, Vec<Diagnostic>), Vec<Diagnostic>> {
        let (mut t, _, warnings) = self.settle()?;
        if !t.steps.is_sorted_by_key(|s| s.frame) {
            t.steps.sort_by_key(|s| s.frame);
        }
        // Held through the lowering: without the slack of their growth.
        t.steps.shrink_to_fit();
        t.values.shrink_to_fit();
        Ok((t, warnings))
    }

    /// Settles the timeline's errors and sorts the diagnostics: the
    /// commands in source order, their spans, and the warnings; or every
    /// diagnostic.
    #[allow(clippy::type_complexity)]
    fn settle(mut self) -> Result<(Timeline, Option<Spans>, Vec<Diagnostic>), Vec<Diagnostic>> {
        // In source order; an included file's at its `include`.
        let mut keys: Vec<usize> = self.diags.iter().map(|d| d.span.start).collect();
        for &(from, to, key) in &self.ranges {
            keys[from..to].fill(key);
        }
        let keep = self.timeline_checks();
        let mut keyed: Vec<(usize, Diagnostic)> = keys
            .into_iter()
            .zip(std::mem::take(&mut self.diags))
            .enumerate()
            .filter(|(i, _)| keep.as_ref().is_none_or(|k| k[*i]))
            .map(|(_, d)| d)
            .collect();
        keyed.sort_by_key(|k| k.0);
        self.diags = keyed.into_iter().map(|k| k.1).collect();
        if self.dropped > 0
            && let Some(last) = self.diags.last_mut()
        {
            last.left_out += self.dropped;
        }
        if self.errors > 0 {
            return Err(self.diags);
        }
        self.timeline.length = self.length;
        Ok((self.timeline, self.spans, self.diags))
    }

    /// Settles the [`Tentative`] errors: walks the commands in timeline
    /// order (by frame, then source order), knowing which actors are on
    /// the stage and where the camera stands (unknown during a follow),
    /// and keeps the errors that hold there. `None` when there were none;
    /// otherwise which diagnostics to keep.
    pub(super) fn timeline_checks(&mut self) -> Option<Vec<bool>> {
        if self.tentative.is_empty() {
            return None;
        }
        let mut keep = vec![true; self.diags.len()];
        let steps = &self.timeline.steps;
        let mut of_command = vec![usize::MAX; steps.len()];
        for (i, t) in self.tentative.iter().enumerate() {
            keep[t.diag] = false;
            of_command[t.command] = i;
        }
        let mut order: Vec<usize> = (0..steps.len()).collect();
        order.sort_by_key(|&i| steps[i].frame);
        let mut on_stage: HashSet<u32, Seeded> = HashSet::with_hasher(Seeded::new());
        // Where the camera stands: known, sliding (from, to, start, frames)
        // or unknown (after a follow).
        let mut camera: Option<[f64; 3]> = Some(CAMERA_POSITION);
        let mut moving: Option<animkit_vm::engine::slap::Move> = None;
        for i in order {
            let c = &steps[i];
            let args = self.timeline.values_of(c);
            let mut fail: Option<(String, String, &str)> = None;
            match c.kind {
                Kind::Actor(_) => {
                    on_stage.insert(args[0] as u32);
                }
                Kind::Camera(CameraAttr::Position) => {
                    moving = None;
                    camera = Some([args[0], args[1], args[2]]);
                }
                Kind::Camera(CameraAttr::Move) => {
                    let from = match moving.take() {
                        Some(m) => Some(m.position(u64::from(c.frame))),
                        None => camera,
                    };
                    camera = None;
                    if let Some(from) = from {
                        moving = Some(animkit_vm::engine::slap::Move {
                            from,
                            to: [args[0], args[1], args[2]],
                            start: u64::from(c.frame),
                            frames: args[3] as u64,
                        });
                    }
                }
                Kind::Camera(CameraAttr::Follow) => {
                    let id = args[0] as u32;
                    if !on_stage.contains(&id) && !self.failed_ids.contains(&id) {
                        fail = Some((
                            format!("actor {id} is not in the scene at frame {}", c.frame),
                            "no command names it before this one".into(),
                            "",
                        ));
                    }
                    camera = None;
                    moving = None;
                }
                Kind::Camera(CameraAttr::LookAt) => {
                    if let Some(m) = moving.take() {
                        camera = Some(m.position(u64::from(c.frame)));
                    }
                    if let Some(p) = camera {
                        let d = [args[0] - p[0], args[1] - p[1], args[2] - p[2]];
                        let at = format!("({}, {}, {})", show(p[0]), show(p[1]), show(p[2]));
                        if d == [0.0; 3] {
                            fail = Some((
                                "`camera lookat` at the point where the camera stands".into(),
                                format!("the camera stands at {at} at frame {}", c.frame),
                                "help: a look-at aims from where the camera stands: move it first (`camera position X Y Z`), or aim at another point",
                            ));
                        } else if !d.iter().all(|x| x.is_finite()) {
                            fail = Some((
                                "arithmetic overflow: the look vector is not a finite number".into(),
                                format!("too far from the camera at {at}"),
                                "",
                            ));
                        }
                    }
                }
                Kind::Camera(_) => {
                    // A direction freezes a move where it is.
                    if let Some(m) = moving.take() {
                        camera = Some(m.position(u64::from(c.frame)));
                    }
                }
            }
            if let (Some((message, label, help)), Some(&t)) = (fail, of_command.get(i).filter(|&&t| t != usize::MAX)) {
                let k = self.tentative[t].diag;
                keep[k] = true;
                self.diags[k].message = message;
                self.diags[k].label = label.into_boxed_str();
                if !help.is_empty() {
                    self.diags[k].notes.insert(0, help.to_string());
                }
                self.errors += 1;
            }
        }
        Some(keep)
    }
}
