//! The sprite DSL formatter behind `animc --fmt`: one state per line,
//! `Name[Category]: frame, frame, ...` with `, ` between frames and no
//! spaces inside a frame. Comments are kept: a comment on the line where a
//! state ends stays after it; any other comment goes on its own line before
//! the next state. One blank line is kept wherever the source had any.
//!
//! ```
//! let src = "# hero\nWalk :5|step,5 ,  _loop # walking\n\n\nIdle[Stand]: 10,_wait\n";
//! let (file, _) = animkit_grammar::sprite::parse(src);
//! assert_eq!(
//!     animkit_compiler::sprite::format::format(&file, Some(src)),
//!     "# hero\nWalk: 5|step, 5, _loop  # walking\n\nIdle[Stand]: 10, _wait\n"
//! );
//! ```

use animkit_grammar::sprite::ast::{File, Frame, Number, State};

fn number(n: &Number) -> String {
    if n.negative { format!("-{}", n.text) } else { n.text.clone() }
}

fn frame(f: &Frame) -> String {
    let mut out = match f {
        Frame::Timed { duration, index, .. } => {
            let mut s = number(duration);
            if let Some(i) = index {
                s.push('|');
                s.push_str(&number(i));
            }
            s
        }
        Frame::Control { head, .. } => head.text.clone(),
    };
    let events = match f {
        Frame::Timed { events, .. } | Frame::Control { events, .. } => events,
    };
    for e in events {
        out.push('|');
        out.push_str(&e.text);
    }
    out
}

/// One state as a line (without comment or newline).
pub fn state_line(s: &State) -> String {
    let mut out = s.name.text.clone();
    if let Some(c) = &s.category {
        out.push('[');
        out.push_str(&c.text);
        out.push(']');
    }
    out.push_str(": ");
    out.push_str(&s.frames.iter().map(frame).collect::<Vec<_>>().join(", "));
    out
}

enum Item<'a> {
    State(&'a State),
    Comment(&'a animkit_grammar::sprite::ast::Comment),
}

impl Item<'_> {
    fn start(&self) -> usize {
        match self {
            Item::State(s) => s.span.start,
            Item::Comment(c) => c.span.start,
        }
    }
}

/// Formats `file`. With the source text, blank lines between items are
/// kept (one at most) and trailing comments stay on their state's line.
pub fn format(file: &File, src: Option<&str>) -> String {
    let mut items: Vec<Item<'_>> = file.states.iter().map(Item::State).collect();
    items.extend(file.comments.iter().map(Item::Comment));
    items.sort_by_key(Item::start);
    let mut out = String::new();
    let mut prev_end: Option<usize> = None;
    let mut i = 0;
    while i < items.len() {
        let start = items[i].start();
        if let (Some(end), Some(src)) = (prev_end, src) {
            let between = src.get(end..start).unwrap_or("");
            if between.matches('\n').count() >= 2 {
                out.push('\n');
            }
        }
        match items[i] {
            Item::Comment(c) => {
                out.push_str(&c.text);
                out.push('\n');
                prev_end = Some(c.span.end);
            }
            Item::State(s) => {
                out.push_str(&state_line(s));
                prev_end = Some(s.span.end);
                // A comment that starts on the line where the state ends.
                if let (Some(Item::Comment(c)), Some(src)) = (items.get(i + 1), src) {
                    if !src.get(s.span.end..c.span.start).unwrap_or("\n").contains('\n') {
                        out.push_str("  ");
                        out.push_str(&c.text);
                        prev_end = Some(c.span.end);
                        i += 1;
                    }
                }
                out.push('\n');
            }
        }
        i += 1;
    }
    out
}
