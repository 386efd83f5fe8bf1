//! `include`: the included file's lines, checked where it stands.

use super::{Checker, INCLUDES_FULL};
use crate::diagnostic::{Diagnostic, LineIndex};
use crate::slap::include::{MAX_INCLUDE_DEPTH, MAX_INCLUDES};
use animkit_grammar::Span;
use animkit_grammar::slap::ast;

impl<'a> Checker<'a> {
    /// `include ...` in file `unit`: the included file's lines, here.
    pub(super) fn include(&mut self, unit: usize, inc: &ast::Include<'a>) {
        if self.limits.strict {
            // Not read: its lines would only add errors to this one.
            self.extension(
                Span::new(inc.span.start, inc.span.start + "include".len()),
                "`include`",
                "write the included lines in place (the prelude is `define PI 3.1416` and the twelve `define`s of the actions)",
            );
            return;
        }
        let loaded = self.loaded;
        let target = match loaded.targets.get(&(unit, inc.span.start)) {
            Some(Ok(t)) => *t,
            Some(Err(e)) => {
                self.error(e.clone());
                return;
            }
            None => {
                self.error(Diagnostic::error(inc.span, "`include` is not available here", "not read").with_note(
                    "this entry point checks one text; compile the file, or use `slap::front_at`, to read includes",
                ));
                return;
            }
        };
        let path = |k: usize| if k == 0 { loaded.main.clone() } else { loaded.units[k - 1].file.path.clone() };
        if self.stack.contains(&target) || self.stack.len() > MAX_INCLUDE_DEPTH {
            let mut chain: Vec<String> = self.stack.iter().map(|&k| path(k)).collect();
            chain.push(path(target));
            let cycle = self.stack.contains(&target);
            let message = if cycle {
                format!("`{}` includes itself", path(target))
            } else {
                format!("includes nested more than {MAX_INCLUDE_DEPTH} deep")
            };
            self.error(
                Diagnostic::error(inc.target_span, message, if cycle { "included again here" } else { "one too many" })
                    .with_note(format!("the chain is {}", chain.join(" -> "))),
            );
            return;
        }
        self.inclusions += 1;
        if self.inclusions > MAX_INCLUDES {
            if !self.full[INCLUDES_FULL] {
                self.full[INCLUDES_FULL] = true;
                self.error(Diagnostic::error(
                    inc.span,
                    format!("too many includes: a scene may include files at most {MAX_INCLUDES} times in all"),
                    "one too many",
                ));
            }
            return;
        }
        let before = self.diags.len();
        self.stack.push(target);
        let outermost = self.stack.len() == 2;
        if outermost {
            self.top = Some(inc.span);
        }
        self.walk(target);
        self.stack.pop();
        let file = &loaded.units[target - 1].file;
        if self.diags.len() > before {
            let here = if unit == 0 { self.file_text() } else { Some(loaded.units[unit - 1].file.text.as_str()) };
            let (line, col) = here.map_or((0, 0), |t| LineIndex::new(t).line_col(inc.span.start));
            let from = format!("note: in `{}`, included from {}:{line}:{col}", file.path, path(unit));
            for d in &mut self.diags[before..] {
                if d.file.is_none() {
                    d.file = Some(file.clone());
                    d.notes.push(from.clone());
                }
            }
        }
        if outermost {
            self.top = None;
            self.ranges.push((before, self.diags.len(), inc.span.start));
        }
    }
}
